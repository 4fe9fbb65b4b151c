// rank_basis.cpp — the basis, identical on every rank (see rank_basis.h).
#include "rank_basis.h"

#include <algorithm>
#include <cmath>

#include "approx/landmarks.h"
#include "cluster/distances.h"
#include "core/context.h"
#include "core/error.h"
#include "core/reproducible_sum.h"
#include "core/rng.h"

namespace kmx {

namespace {

constexpr int64_t kKMeansBlockRows = 1024;

int64_t kmeans_block_rows(const Dataset &local) { return std::max<int64_t>(1, std::min(local.n, kKMeansBlockRows)); }

}  // namespace

RankRows rank_rows(const Communicator &comm, int64_t local_rows) {
    std::vector<double> counts(size_t(comm.size()), 0.0);
    counts[size_t(comm.rank())] = double(local_rows);
    comm.sum(counts.data(), int64_t(counts.size()));
    RankRows where;
    for (int r = 0; r < comm.size(); ++r) {
        if (r < comm.rank()) where.first += int64_t(counts[size_t(r)]);
        where.total += int64_t(counts[size_t(r)]);
    }
    return where;
}

std::vector<int64_t> basis_row_order(uint64_t seed, int64_t total, int64_t m) {
    Rng rng = Rng(seed).split(0x7E0B);
    std::vector<int64_t> rows = sample_rows(rng, total, m);  // increasing
    for (int64_t i = m - 1; i > 0; --i) std::swap(rows[size_t(i)], rows[size_t(rng.below(uint64_t(i + 1)))]);
    return rows;
}

void gather_global_rows(const Communicator &comm, const Dataset &local, const RankRows &where, const int64_t *rows,
                        int64_t count, double *out) {
    std::fill(out, out + count * local.d, 0.0);
    for (int64_t k = 0; k < count; ++k) {
        const int64_t row = rows[k] - where.first;
        if (row >= 0 && row < local.n) gather_rows(local, &row, 1, out + k * local.d);
    }
    comm.sum(out, count * local.d);  // x + 0 + … + 0 = x exactly: the same bits on every rank
}

int64_t GlobalCsrRows::stored() const {
    int64_t sum = 0;
    for (size_t k = 0; k < facts.size(); k += 2) sum += int64_t(facts[k]);
    return sum;
}

int64_t GlobalCsrRows::stored_by(int owner) const {
    int64_t sum = 0;
    for (size_t k = 0; k < facts.size(); k += 2)
        if (facts[k + 1] == double(owner + 1)) sum += int64_t(facts[k]);
    return sum;
}

size_t GlobalCsrRows::rows_bytes() const {
    return size_t(stored()) * (sizeof(double) + sizeof(int32_t)) + size_t(count() + 1) * sizeof(int64_t);
}

size_t GlobalCsrRows::largest_message_bytes() const {
    std::vector<int64_t> by_owner;  // index: owner rank + 1
    for (size_t k = 0; k < facts.size(); k += 2) {
        const size_t owner = size_t(facts[k + 1]);
        if (owner >= by_owner.size()) by_owner.resize(owner + 1, 0);
        by_owner[owner] += int64_t(facts[k]);
    }
    const int64_t most = by_owner.empty() ? 0 : *std::max_element(by_owner.begin(), by_owner.end());
    return size_t(most) * (sizeof(double) + sizeof(int32_t));
}

GlobalCsrRows locate_global_csr_rows(const Communicator &comm, const Dataset &local, const RankRows &where,
                                     const int64_t *rows, int64_t count) {
    require(local.sparse() || local.n == 0, "Nystrom-TRON: CSR basis rows from a shard that is not CSR");
    GlobalCsrRows located;
    located.facts.assign(size_t(2 * count), 0.0);
    for (int64_t k = 0; k < count; ++k) {
        const int64_t row = rows[k] - where.first;
        if (row < 0 || row >= local.n) continue;
        located.facts[size_t(2 * k)] = double(local.row_ptr[row + 1] - local.row_ptr[row]);
        located.facts[size_t(2 * k + 1)] = double(comm.rank() + 1);
    }
    comm.sum(located.facts.data(), 2 * count);  // only the owner adds: exact
    for (int64_t k = 0; k < count; ++k)
        require(located.facts[size_t(2 * k + 1)] >= 1, "Nystrom-TRON: a basis row that no rank holds");
    return located;
}

namespace {

// The rows `owner` holds, broadcast from it (their values, then their
// columns, in the order of `rows`) into their places in out.
void broadcast_owned_rows(const Communicator &comm, const Dataset &local, const RankRows &where, const int64_t *rows,
                          const GlobalCsrRows &located, int owner, KeptRows &out) {
    const int64_t stored = located.stored_by(owner);
    if (stored == 0) return;
    const auto owned = [&](int64_t k) { return located.facts[size_t(2 * k + 1)] == double(owner + 1); };
    std::vector<double> values(static_cast<size_t>(stored));
    std::vector<int32_t> columns(static_cast<size_t>(stored));
    int64_t next = 0;
    for (int64_t k = 0; k < located.count() && comm.rank() == owner; ++k) {
        if (!owned(k)) continue;
        const int64_t row = rows[k] - where.first;
        for (int64_t e = local.row_ptr[row]; e < local.row_ptr[row + 1]; ++e, ++next) {
            values[size_t(next)] = local.value(e);
            columns[size_t(next)] = local.col[e];
        }
    }
    comm.broadcast(values.data(), stored * int64_t(sizeof(double)), owner);
    comm.broadcast(columns.data(), stored * int64_t(sizeof(int32_t)), owner);
    next = 0;
    for (int64_t k = 0; k < located.count(); ++k) {
        if (!owned(k)) continue;
        const int64_t begin = out.row_ptr[size_t(k)], length = out.row_ptr[size_t(k) + 1] - begin;
        std::copy(values.begin() + next, values.begin() + next + length, out.values.begin() + begin);
        std::copy(columns.begin() + next, columns.begin() + next + length, out.col.begin() + begin);
        next += length;
    }
}

}  // namespace

void gather_global_csr_rows(const Communicator &comm, const Dataset &local, const RankRows &where, const int64_t *rows,
                            const GlobalCsrRows &located, KeptRows &out) {
    out.row_ptr.assign(1, 0);
    for (int64_t k = 0; k < located.count(); ++k)
        out.row_ptr.push_back(out.row_ptr.back() + int64_t(located.facts[size_t(2 * k)]));
    out.values.assign(size_t(out.row_ptr.back()), 0.0);
    out.col.assign(size_t(out.row_ptr.back()), 0);
    for (int r = 0; r < comm.size(); ++r) broadcast_owned_rows(comm, local, where, rows, located, r, out);
}

size_t kmeans_basis_workspace_bytes(const Dataset &local, int64_t m) {
    const int64_t block = kmeans_block_rows(local);
    WorkspacePlan plan;
    plan.add<double>(size_t(block * local.d));  // dense copy of a block of rows
    plan.add<double>(size_t(block * m));        // their dots with the centers
    plan.add<int32_t>(size_t(block));
    plan.add<double>(size_t(m));  // ‖center‖²
    return plan.bytes();
}

namespace {

// The largest |x_ij| over every rank's rows: the bound of the k-means sums.
double largest_feature(const Communicator &comm, const Dataset &local, double *rows, int64_t block) {
    double largest = 0;
    for (int64_t begin = 0; begin < local.n; begin += block) {
        const int64_t end = std::min(local.n, begin + block);
        local.copy_rows(begin, end, rows);
        for (int64_t i = 0; i < (end - begin) * local.d; ++i) largest = std::max(largest, std::fabs(rows[i]));
    }
    comm.max(&largest, 1);
    return largest;
}

}  // namespace

void refine_basis_kmeans(Context &ctx, const Dataset &local, int64_t total_rows, double *centers, int64_t first_free,
                         int64_t m, int iterations, Arena &scratch) {
    const int64_t d = local.d, block = kmeans_block_rows(local), free_count = m - first_free;
    if (free_count <= 0) return;
    const ArenaScope scope(scratch);
    double *rows = scratch.alloc<double>(size_t(block * d));
    double *dots = scratch.alloc<double>(size_t(block * m));
    int32_t *nearest = scratch.alloc<int32_t>(size_t(block));
    double *sqnorms = scratch.alloc<double>(size_t(m));
    std::vector<double> sums(size_t(free_count * (d + 1)));  // per free center: Σ x (d), then the count
    const double bound = std::max(1.0, largest_feature(ctx.comm, local, rows, block));  // the counts add 1s
    BinnedSum binned;
    for (int it = 0; it < iterations; ++it) {
        cluster::center_squared_norms(centers, m, d, sqnorms);
        const cluster::CenterSet set{centers, sqnorms, m, d};
        binned.start(free_count * (d + 1), total_rows, bound);
        run_agreed(ctx.comm, [&] {  // a cancel on one rank stops every rank here
            for (int64_t begin = 0; begin < local.n; begin += block) {
                const int64_t end = std::min(local.n, begin + block);
                local.copy_rows(begin, end, rows);
                cluster::nearest_centers(rows, end - begin, set, dots, nearest, nullptr);
                for (int64_t i = 0; i < end - begin; ++i) {
                    const int64_t c = nearest[i] - first_free;
                    if (c < 0) continue;
                    binned.add_scaled(c * (d + 1), 1.0, rows + i * d, d);
                    binned.add(c * (d + 1) + d, 1.0);
                }
                ctx.check_cancel();
            }
        });
        std::vector<BinnedTarget> target{{&binned, sums.data()}};
        reduce_binned(ctx.comm, target);  // every term within the bound: true
        for (int64_t c = 0; c < free_count; ++c) {
            const double *sum = sums.data() + c * (d + 1);
            if (sum[d] == 0) continue;
            for (int64_t j = 0; j < d; ++j) centers[(first_free + c) * d + j] = sum[j] / sum[d];
        }
    }
}

}  // namespace kmx
