// fast_exp.h — vectorised e^x for the kernels' elementwise passes. A Gaussian
// block needs one exp per entry, which at small d costs about as much as the
// GEMM that produced the distances; these take about 2 cycles per entry with
// AVX-512 (std::exp: about 20).
//
// Accuracy: within 2 ulp of the true value (relative error < 5e-16) for
// x ≤ 600 (the kernels pass x ≤ 0). Subnormal results are within one
// subnormal step; below −745.2 the result is 0; NaN stays NaN. Not always the
// same bits as std::exp.
#pragma once
#include <cstdint>

namespace kmx {

// x[i] ← e^{x[i]} for i in [0, n).
void exp_in_place(double *x, int64_t n);

// The Gaussian kernel's elementwise pass over one row of a block, after a
// GEMM left row[j] = −2 a·b_j (sq_a = ‖a‖², sq_b[j] = ‖b_j‖²):
//   D_j = row[j] + (sq_a + sq_b[j])          (= ‖a − b_j‖²)
//   row[j] ← e^{−γ D_j}, or 1 where D_j ≤ floor_a + floor_b[j] (D_j is
//   within rounding error of 0, or negative: the distance is clamped to 0).
void gaussian_row_from_gram(double *row, int64_t n, double gamma, double sq_a, const double *sq_b, double floor_a,
                            const double *floor_b);

// The implementations behind the two functions above; normally the fastest
// one the CPU supports is chosen once. Tests run each supported one (an
// unsupported path would execute illegal instructions).
enum class ExpPath { Baseline, Avx2Fma, Avx512 };
bool exp_path_supported(ExpPath path);
// The one the functions above use (the fastest supported, within KMX_ISA's
// cap: core/isa_dispatch.h).
ExpPath exp_path_in_use();
void exp_in_place(ExpPath path, double *x, int64_t n);
void gaussian_row_from_gram(ExpPath path, double *row, int64_t n, double gamma, double sq_a, const double *sq_b,
                            double floor_a, const double *floor_b);

}  // namespace kmx
