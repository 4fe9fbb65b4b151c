// basis_columns.h — the kernel columns a Nyström machine is linear in:
// C = K(X, B) (this rank's n rows against the m basis points, c_iᵀ its rows)
// and W = K(B, B). Both grow with the basis (stages): only the columns of
// new basis points are computed. C is kept in memory when the caller gives
// it room (n x capacity), else computed again, one block of rows at a time,
// on every pass over it. The basis may be CSR rows (wide sparse data): the
// blocks are then computed on the nonzeros (kernel_block_rows).
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "core/arena.h"
#include "core/dataset.h"
#include "kernel/kernel.h"

namespace kmx {

class BasisColumns {
public:
    // basis: capacity rows of d columns, dense or CSR (the final basis; rows
    // [0, m()) in use), borrowed for the object's life. gram: capacity x
    // capacity, W. cache: n x capacity for C, or nullptr to recompute. block:
    // rows of C computed at once without a cache. scratch holds the block and
    // the kernel's scratch (workspace_bytes).
    BasisColumns(const KernelSpec &kernel, const Dataset &data, const Dataset &basis, double *gram, double *cache,
                 Arena &scratch, int threads);

    // Scratch bytes for `data` and `basis` (the block buffer and the kernel
    // block's own scratch; not W, not the cache): an upper bound for every
    // stage, however the basis grows. A dense basis's values need not be set.
    static size_t workspace_bytes(const KernelSpec &kernel, const Dataset &data, const Dataset &basis);
    // Rows of C per block without a cache.
    static int64_t block_rows(int64_t n, int64_t capacity);

    // The basis now holds m points (m() <= m <= capacity): computes W's and
    // the cache's columns of points [m(), m).
    void grow(int64_t m);

    int64_t m() const { return m_; }
    int64_t rows() const { return data_.n; }
    int64_t capacity() const { return capacity_; }
    bool cached() const { return cache_ != nullptr; }
    const double *gram() const { return gram_; }  // W, leading dimension capacity()

    // body(begin, end, block, ld): rows [begin, end) of C's first m() columns,
    // block[(i − begin)·ld + j] = K(x_i, b_j), for consecutive ranges covering
    // the rows (one range when cached).
    template <class Body>
    void for_each_block(Body &&body) {
        if (cached()) {
            if (data_.n > 0) body(int64_t(0), data_.n, static_cast<const double *>(cache_), capacity_);
            return;
        }
        for (int64_t begin = 0; begin < data_.n; begin += block_) {
            const int64_t end = std::min(data_.n, begin + block_);
            compute(begin, end, 0, m_, block_buffer_, m_);
            body(begin, end, static_cast<const double *>(block_buffer_), m_);
        }
    }

private:
    void compute(int64_t begin, int64_t end, int64_t first_column, int64_t end_column, double *out, int64_t ld);

    KernelSpec kernel_;
    const Dataset &data_;
    const Dataset &basis_;
    int64_t capacity_, m_ = 0, block_;
    double *gram_, *cache_, *block_buffer_ = nullptr;
    Arena &scratch_;
    int threads_;
};

}  // namespace kmx
