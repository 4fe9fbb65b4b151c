// fixed_order_dot.h — a dot product whose rounding depends only on its two
// vectors: 8 partial sums over the indices ≡ 0..7 mod 8, then added in a
// fixed tree. BLAS's gemv fuses rows in groups and treats the leftover rows
// another way, so a row's product there can depend on where the row sits in
// the matrix (and so on how rows are split among ranks); this one cannot.
#pragma once
#include <cstdint>

namespace kmx {

double fixed_order_dot(const double *a, const double *b, int64_t n);

}  // namespace kmx
