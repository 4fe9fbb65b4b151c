// packed_rows.h — n rows of d values kept in the layout BLIS's micro-kernel
// reads (micro_kernel.h), so that products with them need no packing: a
// solver that multiplies a few rows against the same large set again and
// again (the SVM dual's kernel columns, 32 at a time) packed that set anew
// for every product (43–83% of the micro-kernel's own time on 10⁴-row
// problems). Rows can be swapped in place (shrinking reorders them).
//
// Layout::panels: rows in panels of the micro-kernel's B-side width w, k in
// equal kc-slices: value (i, l) of slice s = l / kc at
//   data[s·slice_doubles + (i / w)·stride + (l mod kc)·w + i mod w],
// lanes past n zero. Layout::rows: plain row-major (i·d + l), for products
// that need rows (kernels evaluated row by row).
#pragma once
#include <cstddef>
#include <cstdint>

#include "core/arena.h"

namespace kmx::linalg {

class PackedRows {
public:
    enum class Layout { panels, rows };

    PackedRows() = default;
    // Storage for n rows of d values from `arena`, all zero.
    PackedRows(Arena &arena, int64_t n, int64_t d, Layout layout);
    static size_t bytes(int64_t n, int64_t d, Layout layout);

    int64_t rows() const { return n_; }
    int64_t columns() const { return d_; }
    Layout layout() const { return layout_; }
    // Rows per panel: a product's first row must be a multiple of it.
    int64_t width() const { return width_; }
    // Layout::rows: row i at row_major() + i·d.
    const double *row_major() const { return data_; }

    void set_row(int64_t i, const double *x);
    void copy_row(int64_t i, double *out) const;
    void swap_rows(int64_t i, int64_t j);
    // out[j − begin] = alpha · x_jᵀa for j in [begin, end).
    void gemv(int64_t begin, int64_t end, double alpha, const double *a, double *out) const;

    // Layout::panels: the first panel of slice s holding row i (i a multiple
    // of width()), panels stride() doubles apart, kc values each.
    const double *panel(int64_t slice, int64_t i) const;
    int64_t stride() const { return stride_; }
    int64_t slice_length() const { return slice_; }

private:
    double *lane(int64_t i, int64_t l0) const;
    // fn(l0, kc) for each kc-slice [l0, l0 + kc) of the d values
    template <class Fn>
    void for_each_slice(Fn fn) const;

    Layout layout_ = Layout::rows;
    int64_t n_ = 0, d_ = 0;
    int64_t width_ = 1, slice_ = 0, stride_ = 0, slice_doubles_ = 0;
    double *data_ = nullptr;
};

}  // namespace kmx::linalg
