// kernel_row_store.h — kernel rows of one dataset under one kernel, kept
// across dual solves: what a path of C values shares (cross_validate_path,
// kmx grid). Q_ij = y_i y_j K(x_i, x_j) does not depend on C, so the kernel
// rows the solve at one C computed serve every later C of the same γ, and
// every binary problem over the same rows (one-vs-one pairs index into them).
//
// A row is K(x_r, X) over all n rows of the dataset, in dataset order, as
// floats (the solver's cache holds floats too); the store is an LRU of such
// rows (KernelCache with fixed-width slots, keyed by dataset row), computed
// in batches of up to kBatchRows rows by kernel blocks in column tiles (on
// the nonzeros for rows that stay sparse). Its memory is reserved from the
// context's budget when it is made and held (Context::hold) until it is
// destroyed, so each later call's budget counts it.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>

#include "core/arena.h"
#include "kernel/kernel.h"
#include "kernel_cache.h"

namespace kmx {

class Context;
class Dataset;

class KernelRowStore {
public:
    // Rows a caller may ask for at once (and the fewest slots a store has besides).
    static constexpr int64_t kBatchRows = 64;
    // Columns of one kernel block while computing rows.
    static constexpr int64_t kTileColumns = 4096;

    // Exact bytes of a store of `slots` rows of data's n entries (its scratch included).
    static size_t workspace_bytes(const Dataset &data, const KernelSpec &kernel, int64_t slots);
    // The largest store of data within `bytes`: every row if they fit, else
    // as many rows as fit when `partial` (a store smaller than the data still
    // pays when each problem spans all rows), else none. nullptr when not even
    // 2·kBatchRows rows fit, or the kernel is not a function of feature
    // vectors. The bytes are reserved from ctx's budget (KMX_E_OUT_OF_MEMORY
    // if they no longer fit) and held while the store lives. kernel.gamma must
    // be resolved (gamma_for).
    static std::unique_ptr<KernelRowStore> create(Context &ctx, const Dataset &data, const KernelSpec &kernel,
                                                  size_t bytes, bool partial);

    KernelRowStore(const KernelRowStore &) = delete;
    KernelRowStore &operator=(const KernelRowStore &) = delete;

    // Whether its rows are data's under this kernel.
    bool serves(const Dataset &data, const KernelSpec &kernel) const;
    // out[k] = K(x_{rows[k]}, X) (n floats) for count ≤ kBatchRows rows,
    // the missing ones computed in one batch on `threads` threads; each
    // pointer stays valid until the next call.
    void rows(const int64_t *rows, int64_t count, const float **out, int threads);

    int64_t size() const { return n_; }
    int64_t slots() const { return cache_.slots(); }
    bool whole() const { return cache_.slots() >= n_; }
    // Rows computed so far (a row evicted and asked again counts twice).
    int64_t computed_rows() const { return computed_; }

private:
    KernelRowStore(Context &ctx, const Dataset &data, const KernelSpec &kernel, int64_t slots, size_t bytes);
    // K(x_{rows[k]}, x_j) for the count rows and j in [begin, end) into tile_ (ldo end − begin).
    void compute_tile(const int64_t *rows, int64_t count, int64_t begin, int64_t end, int threads);

    const Dataset &data_;
    KernelSpec kernel_;
    int64_t n_ = 0;
    bool sparse_ = false;               // rows stay sparse: blocks on the nonzeros, rows listed
    Arena arena_;                       // everything below
    std::shared_ptr<const void> hold_;  // the budget's record of arena_
    KernelCache cache_;
    double *batch_x_ = nullptr;     // dense rows: the batch's rows gathered (kBatchRows × d)
    int64_t *tile_rows_ = nullptr;  // sparse rows: the tile's row numbers (kTileColumns)
    double *tile_ = nullptr;        // kBatchRows × kTileColumns kernel values
    Arena scratch_;                 // kernel blocks' scratch, inside arena_
    int64_t computed_ = 0;
};

}  // namespace kmx
