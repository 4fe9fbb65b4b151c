// rank_basis.h — the Nyström basis B, chosen identically on every rank from
// rows spread over the ranks (each rank holds a shard; a sum over rows is a
// local sum plus comm.sum):
//
//   uniform  m distinct global rows, uniformly at random (every rank draws
//            the same indices from the same seed; each rank contributes the
//            rows it holds to a zero-padded m x d buffer, which is summed).
//            The rows come in random order, so every prefix is a uniform
//            sample too: the stages grow the basis by taking more of it.
//            Rows of wide sparse data (sparse_kernel_rows) are gathered as
//            CSR instead: each row's length summed over the ranks, then each
//            rank broadcasts the rows it holds (no m x d buffer).
//   kmeans   Lloyd iterations started from that sample, every rank assigning
//            its rows and the per-center sums and counts AllReduced. With
//            stages, the points of earlier stages stay fixed (their columns
//            of C are already computed) and only the new ones move, competing
//            with the fixed ones for rows.
#pragma once
#include <cstdint>
#include <vector>

#include "core/arena.h"
#include "core/communicator.h"
#include "core/dataset.h"
#include "core/row_subset.h"

namespace kmx {

class Context;

// Where this rank's rows sit among all ranks' rows (in rank order).
struct RankRows {
    int64_t total = 0;  // n over every rank
    int64_t first = 0;  // global index of this rank's row 0
};
RankRows rank_rows(const Communicator &comm, int64_t local_rows);

// m distinct global row indices of [0, total), in random order, from `seed`.
std::vector<int64_t> basis_row_order(uint64_t seed, int64_t total, int64_t m);

// out (count x d) = the global rows `rows`, on every rank.
void gather_global_rows(const Communicator &comm, const Dataset &local, const RankRows &where, const int64_t *rows,
                        int64_t count, double *out);

// Where the global rows `rows` (count of them) of CSR shards are, the same
// on every rank (one sum of 2·count doubles): per row its stored values and
// its owner. Collective.
struct GlobalCsrRows {
    std::vector<double> facts;  // row k: facts[2k] stored values, facts[2k + 1] owner rank + 1

    int64_t count() const { return int64_t(facts.size() / 2); }
    int64_t stored() const;                // every row's values
    int64_t stored_by(int owner) const;    // the values of the rows `owner` holds
    size_t rows_bytes() const;             // a KeptRows of them
    size_t largest_message_bytes() const;  // the most bytes one rank broadcasts
};
GlobalCsrRows locate_global_csr_rows(const Communicator &comm, const Dataset &local, const RankRows &where,
                                     const int64_t *rows, int64_t count);

// out = those rows as CSR, in the order of `rows`, the same bits on every
// rank: each rank holding some of them broadcasts their values and columns
// (largest_message_bytes of scratch at a time). Collective; check the budget
// for rows_bytes + largest_message_bytes before (every rank must get here).
void gather_global_csr_rows(const Communicator &comm, const Dataset &local, const RankRows &where, const int64_t *rows,
                            const GlobalCsrRows &located, KeptRows &out);

// Scratch bytes of refine_basis_kmeans for up to m centers.
size_t kmeans_basis_workspace_bytes(const Dataset &local, int64_t m);

// `iterations` Lloyd steps on centers (m x d) where only centers
// [first_free, m) move; an emptied center stays where it was. The sums over
// rows are binned (core/reproducible_sum.h), so the centers' bits do not
// depend on the number of ranks; total_rows: every rank's rows together.
void refine_basis_kmeans(Context &ctx, const Dataset &local, int64_t total_rows, double *centers, int64_t first_free,
                         int64_t m, int iterations, Arena &scratch);

}  // namespace kmx
