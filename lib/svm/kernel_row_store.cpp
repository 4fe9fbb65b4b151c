// kernel_row_store.cpp — kernel rows kept across dual solves (see kernel_row_store.h).
#include "kernel_row_store.h"

#include <algorithm>

#include "core/context.h"
#include "core/dataset.h"
#include "core/error.h"

namespace kmx {

namespace {

// The batch's rows as a dense dataset over `x` (count × d doubles).
Dataset dense_rows(const double *x, int64_t count, int64_t d) {
    Dataset batch;
    batch.n = count;
    batch.d = d;
    batch.x = x;
    return batch;
}

// Kernel blocks' scratch for a batch against one tile of columns.
size_t block_scratch_bytes(const Dataset &data, const KernelSpec &kernel) {
    const int64_t tile = std::min(KernelRowStore::kTileColumns, std::max<int64_t>(data.n, 1));
    if (sparse_kernel_block(kernel, data, data))
        return sparse_kernel_block_listed_workspace_bytes(KernelRowStore::kBatchRows, widest_row(data));
    const Dataset batch = dense_rows(nullptr, KernelRowStore::kBatchRows, data.d);
    return kernel_block_rows_workspace_bytes(kernel, batch, KernelRowStore::kBatchRows, data, tile);
}

// Everything but the rows' slots: a batch's gathered rows (or a tile's row
// numbers), one tile of kernel values, the blocks' scratch.
size_t fixed_bytes(const Dataset &data, const KernelSpec &kernel) {
    WorkspacePlan plan;
    if (sparse_kernel_block(kernel, data, data))
        plan.add<int64_t>(size_t(KernelRowStore::kTileColumns));
    else
        plan.add<double>(size_t(KernelRowStore::kBatchRows) * size_t(data.d));
    plan.add<double>(size_t(KernelRowStore::kBatchRows) * size_t(KernelRowStore::kTileColumns));
    plan.add_bytes(block_scratch_bytes(data, kernel));
    return plan.bytes();
}

}  // namespace

size_t KernelRowStore::workspace_bytes(const Dataset &data, const KernelSpec &kernel, int64_t slots) {
    return KernelCache::workspace_bytes(data.n, slots) + fixed_bytes(data, kernel);
}

std::unique_ptr<KernelRowStore> KernelRowStore::create(Context &ctx, const Dataset &data, const KernelSpec &kernel,
                                                       size_t bytes, bool partial) {
    const size_t fixed = data.n >= 1 ? fixed_bytes(data, kernel) : 0;
    if (!kernel.on_features() || data.n < 1 || bytes <= fixed) return nullptr;
    const int64_t slots = KernelCache::slots_fitting(data.n, bytes - fixed);  // at least 2, even if they do not fit
    const bool fits = workspace_bytes(data, kernel, slots) <= bytes;
    if (!fits || slots < std::min(2 * kBatchRows, data.n) || (slots < data.n && !partial)) return nullptr;
    const size_t need = workspace_bytes(data, kernel, slots);
    ctx.check_budget(need, "the kernel rows shared along C");
    return std::unique_ptr<KernelRowStore>(new KernelRowStore(ctx, data, kernel, slots, need));
}

KernelRowStore::KernelRowStore(Context &ctx, const Dataset &data, const KernelSpec &kernel, int64_t slots, size_t bytes)
    : data_(data),
      kernel_(kernel),
      n_(data.n),
      sparse_(sparse_kernel_block(kernel, data, data)),
      arena_(bytes),
      hold_(ctx.hold(bytes)),
      cache_(arena_, data.n, slots) {
    if (sparse_)
        tile_rows_ = arena_.alloc<int64_t>(size_t(kTileColumns));
    else
        batch_x_ = arena_.alloc<double>(size_t(kBatchRows) * size_t(data.d));
    tile_ = arena_.alloc<double>(size_t(kBatchRows) * size_t(kTileColumns));
    scratch_ = Arena(arena_, block_scratch_bytes(data, kernel));
}

bool KernelRowStore::serves(const Dataset &data, const KernelSpec &kernel) const {
    return &data == &data_ && data.n == n_ && same_kernel(kernel, kernel_, data.d);
}

void KernelRowStore::compute_tile(const int64_t *rows, int64_t count, int64_t begin, int64_t end, int threads) {
    const int64_t width = end - begin;
    if (sparse_) {
        for (int64_t j = 0; j < width; ++j) tile_rows_[j] = begin + j;
        sparse_kernel_block_listed(kernel_, data_, rows, count, data_, tile_rows_, width, tile_, width, scratch_,
                                   threads);
        return;
    }
    const Dataset batch = dense_rows(batch_x_, count, data_.d);
    kernel_block_rows(kernel_, batch, 0, count, data_, begin, end, tile_, width, scratch_, threads);
}

void KernelRowStore::rows(const int64_t *rows, int64_t count, const float **out, int threads) {
    if (count > kBatchRows) fail(KMX_E_INTERNAL, "kernel row store: %lld rows at once", (long long)count);
    int64_t missing[kBatchRows];
    float *slot[kBatchRows];
    int64_t m = 0;
    for (int64_t k = 0; k < count; ++k) {  // each becomes the most recently used: none of them is evicted
        float *data;
        if (cache_.fetch(rows[k], n_, &data) < n_) {
            missing[m] = rows[k];
            slot[m++] = data;
        }
        out[k] = data;
    }
    if (m == 0) return;
    if (!sparse_) gather_rows(data_, missing, m, batch_x_);
    for (int64_t begin = 0; begin < n_; begin += kTileColumns) {
        const int64_t end = std::min(n_, begin + kTileColumns), width = end - begin;
        compute_tile(missing, m, begin, end, threads);
        for (int64_t k = 0; k < m; ++k)
            for (int64_t j = 0; j < width; ++j) slot[k][begin + j] = float(tile_[k * width + j]);
    }
    computed_ += m;
}

}  // namespace kmx
