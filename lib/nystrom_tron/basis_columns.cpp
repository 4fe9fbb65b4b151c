// basis_columns.cpp — C = K(X, B) and W = K(B, B), grown column by column
// (see basis_columns.h).
#include "basis_columns.h"

#include <algorithm>

#include "core/arena.h"
#include "core/dataset.h"

namespace kmx {

namespace {

constexpr int64_t kBlockValues = int64_t(1) << 21;  // one block of C: 16 MB

}  // namespace

int64_t BasisColumns::block_rows(int64_t n, int64_t capacity) {
    return std::max<int64_t>(1,
                             std::min(n, std::clamp<int64_t>(kBlockValues / std::max<int64_t>(capacity, 1), 64, 8192)));
}

namespace {

// Scratch of kernel_block_rows between at most na rows of a and nb of b. On
// the nonzeros, the side with fewer rows is indexed, and which one that is
// changes with the stage (a few new basis points, or a short block of rows):
// bounded by the widest row of either side.
size_t block_bytes(const KernelSpec &kernel, const Dataset &a, int64_t na, const Dataset &b, int64_t nb) {
    if (na == 0 || nb == 0) return 0;
    if (!sparse_kernel_block(kernel, a, b)) return kernel_block_rows_workspace_bytes(kernel, a, na, b, nb);
    return sparse_kernel_block_listed_workspace_bytes(std::min(na, nb), std::max(widest_row(a), widest_row(b)));
}

}  // namespace

size_t BasisColumns::workspace_bytes(const KernelSpec &kernel, const Dataset &data, const Dataset &basis) {
    const int64_t capacity = basis.n, block = block_rows(data.n, capacity);
    WorkspacePlan plan;
    plan.add<double>(size_t(block * capacity));
    plan.add_bytes(std::max(block_bytes(kernel, data, std::min(block, data.n), basis, capacity),
                            block_bytes(kernel, basis, capacity, basis, capacity)));
    return plan.bytes();
}

BasisColumns::BasisColumns(const KernelSpec &kernel, const Dataset &data, const Dataset &basis, double *gram,
                           double *cache, Arena &scratch, int threads)
    : kernel_(kernel),
      data_(data),
      basis_(basis),
      capacity_(basis.n),
      block_(block_rows(data.n, basis.n)),
      gram_(gram),
      cache_(cache),
      scratch_(scratch),
      threads_(threads) {
    if (!cache_) block_buffer_ = scratch_.alloc<double>(size_t(block_ * capacity_));
}

void BasisColumns::compute(int64_t begin, int64_t end, int64_t first_column, int64_t end_column, double *out,
                           int64_t ld) {
    if (end <= begin || end_column <= first_column) return;
    kernel_block_rows(kernel_, data_, begin, end, basis_, first_column, end_column, out, ld, scratch_, threads_);
}

void BasisColumns::grow(int64_t m) {
    if (m <= m_) return;
    // W: rows [m_, m) against points [0, m), then mirrored into columns [m_, m).
    kernel_block_rows(kernel_, basis_, m_, m, basis_, 0, m, gram_ + m_ * capacity_, capacity_, scratch_, threads_);
    for (int64_t i = m_; i < m; ++i)
        for (int64_t j = 0; j < m_; ++j) gram_[j * capacity_ + i] = gram_[i * capacity_ + j];
    if (cache_) {
        const int64_t block = block_rows(data_.n, capacity_);
        for (int64_t begin = 0; begin < data_.n; begin += block)
            compute(begin, std::min(data_.n, begin + block), m_, m, cache_ + begin * capacity_ + m_, capacity_);
    }
    m_ = m;
}

}  // namespace kmx
