// fixed_order_dot.cpp — see fixed_order_dot.h. Vectorising keeps the order
// written here (no -ffast-math): the lanes are the 8 partial sums.
#include "fixed_order_dot.h"

#include "isa_dispatch.h"

namespace kmx {

namespace {

constexpr int kLanes = 8;

KMX_ALWAYS_INLINE double fixed_order_dot_kernel_body(const double *__restrict a, const double *__restrict b,
                                                     int64_t n) {
    double lane[kLanes] = {0, 0, 0, 0, 0, 0, 0, 0};
    const int64_t whole = n - n % kLanes;
    for (int64_t i = 0; i < whole; i += kLanes)
        for (int l = 0; l < kLanes; ++l) lane[l] += a[i + l] * b[i + l];
    for (int64_t i = whole; i < n; ++i) lane[i - whole] += a[i] * b[i];
    return ((lane[0] + lane[4]) + (lane[2] + lane[6])) + ((lane[1] + lane[5]) + (lane[3] + lane[7]));
}

KMX_ISA_VARIANTS(double, fixed_order_dot_kernel, (const double *a, const double *b, int64_t n), (a, b, n))

}  // namespace

double fixed_order_dot(const double *a, const double *b, int64_t n) { return fixed_order_dot_kernel(a, b, n); }

}  // namespace kmx
