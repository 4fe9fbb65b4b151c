// packed_rows.cpp — rows kept in the micro-kernel's panel layout (see
// packed_rows.h).
#include "packed_rows.h"

#include <algorithm>
#include <utility>

#include "core/error.h"
#include "linalg.h"
#include "micro_kernel.h"

namespace kmx::linalg {

namespace {

constexpr int64_t kWidestPanel = 32;  // lanes gemv accumulates at once

struct Shape {
    int64_t width = 1, slice = 0, stride = 0, slices = 0, slice_doubles = 0;
};

Shape shape_of(int64_t n, int64_t d, PackedRows::Layout layout) {
    Shape s;
    if (n < 0 || d < 0) fail(KMX_E_INVALID_ARGUMENT, "PackedRows: negative size");
    if (layout == PackedRows::Layout::rows) {
        s.slice = s.stride = d;
        s.slices = 1;
        s.slice_doubles = n * d;
        return s;
    }
    const detail::MicroKernel u = detail::micro_kernel();
    s.width = u.b_width();
    if (s.width > kWidestPanel)
        fail(KMX_E_INTERNAL, "PackedRows: micro-kernel panels of %lld rows", (long long)s.width);
    if (d == 0) return s;
    s.slice = detail::slice_length(u, d);
    s.stride = detail::panel_stride(s.width, s.slice);
    s.slices = detail::ceil_div(d, s.slice);
    s.slice_doubles = detail::ceil_div(n, s.width) * s.stride;
    return s;
}

}  // namespace

size_t PackedRows::bytes(int64_t n, int64_t d, Layout layout) {
    const Shape s = shape_of(n, d, layout);
    return WorkspacePlan().add<double>(size_t(s.slices) * size_t(s.slice_doubles)).bytes();
}

PackedRows::PackedRows(Arena &arena, int64_t n, int64_t d, Layout layout) : layout_(layout), n_(n), d_(d) {
    const Shape s = shape_of(n, d, layout);
    width_ = s.width;
    slice_ = s.slice;
    stride_ = s.stride;
    slice_doubles_ = s.slice_doubles;
    const size_t count = size_t(s.slices) * size_t(s.slice_doubles);
    data_ = arena.alloc<double>(count);
    std::fill(data_, data_ + count, 0.0);
}

// Row i's value l0 of the slice starting at l0; its next values are
// width() doubles apart (Layout::rows: one slice, width 1, stride d).
double *PackedRows::lane(int64_t i, int64_t l0) const {
    return data_ + (l0 / std::max<int64_t>(slice_, 1)) * slice_doubles_ + (i / width_) * stride_ + i % width_;
}

template <class Fn>
void PackedRows::for_each_slice(Fn fn) const {
    for (int64_t l0 = 0; l0 < d_; l0 += slice_) fn(l0, std::min(slice_, d_ - l0));
}

void PackedRows::set_row(int64_t i, const double *x) {
    for_each_slice([&](int64_t l0, int64_t kc) {
        double *v = lane(i, l0);
        for (int64_t l = 0; l < kc; ++l) v[l * width_] = x[l0 + l];
    });
}

void PackedRows::copy_row(int64_t i, double *out) const {
    for_each_slice([&](int64_t l0, int64_t kc) {
        const double *v = lane(i, l0);
        for (int64_t l = 0; l < kc; ++l) out[l0 + l] = v[l * width_];
    });
}

void PackedRows::swap_rows(int64_t i, int64_t j) {
    if (i == j) return;
    for_each_slice([&](int64_t l0, int64_t kc) {
        double *u = lane(i, l0), *v = lane(j, l0);
        for (int64_t l = 0; l < kc; ++l) std::swap(u[l * width_], v[l * width_]);
    });
}

const double *PackedRows::panel(int64_t slice, int64_t i) const {
    return data_ + slice * slice_doubles_ + (i / width_) * stride_;
}

namespace {

// acc_r = Σ_l lanes[l·W + r] a_l over the kc values of one panel's slice; W
// fixed at compile time keeps acc in registers.
template <int64_t W>
void panel_dot(const double *lanes, const double *a, int64_t kc, double *acc) {
    double sum[W] = {};
    for (int64_t l = 0; l < kc; ++l) {
        const double al = a[l], *column = lanes + l * W;
#pragma omp simd
        for (int64_t r = 0; r < W; ++r) sum[r] += column[r] * al;
    }
    for (int64_t r = 0; r < W; ++r) acc[r] += sum[r];
}

void panel_dot(const double *lanes, const double *a, int64_t kc, int64_t w, double *acc) {
    if (w == 16) return panel_dot<16>(lanes, a, kc, acc);
    if (w == 8) return panel_dot<8>(lanes, a, kc, acc);
    for (int64_t l = 0; l < kc; ++l)
        for (int64_t r = 0; r < w; ++r) acc[r] += lanes[l * w + r] * a[l];
}

}  // namespace

void PackedRows::gemv(int64_t begin, int64_t end, double alpha, const double *a, double *out) const {
    if (begin >= end) return;
    if (layout_ == Layout::rows || d_ == 0) {
        if (d_ == 0) return std::fill(out, out + (end - begin), 0.0);
        return linalg::gemv(Trans::No, end - begin, d_, alpha, data_ + begin * d_, d_, a, 0.0, out, 1);
    }
    // a panel at a time, every slice
    const int64_t w = width_;
    for (int64_t p = begin / w; p <= (end - 1) / w; ++p) {
        double acc[kWidestPanel] = {};
        for_each_slice([&](int64_t l0, int64_t kc) { panel_dot(panel(l0 / slice_, p * w), a + l0, kc, w, acc); });
        const int64_t first = std::max(begin, p * w), last = std::min(end, (p + 1) * w);
        for (int64_t j = first; j < last; ++j) out[j - begin] = alpha * acc[j - p * w];
    }
}

}  // namespace kmx::linalg
