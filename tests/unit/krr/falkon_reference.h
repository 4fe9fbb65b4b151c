// falkon_reference.h — what the FALKON tests compare against, computed
// directly (kernel_eval loops and dense solves, no K_nM blocks, no CG):
// exact KRR, the direct Nyström KRR solve, exact ridge leverage scores.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/dataset.h"
#include "kernel/kernel.h"

namespace falkon_test {

// A data file from KMX_TEST_DATA (`example` false) or KMX_EXAMPLE_DATA, dense, first `rows` rows.
std::unique_ptr<kmx::Dataset> load(const char *file, bool example, int64_t rows = INT64_MAX);

// K(a_i, b_j) (na x nb) by kernel_eval; a, b dense row-major with d columns.
std::vector<double> direct_kernel(const kmx::KernelSpec &kernel, const double *a, int64_t na, const double *b,
                                  int64_t nb, int64_t d);

// Exact KRR: α = (G + nλI)⁻¹ Y (n x k) by Cholesky.
std::vector<double> exact_krr(const kmx::KernelSpec &kernel, const kmx::Dataset &train, const double *y, int64_t k,
                              double lambda);

// Nyström KRR solved directly: α = (K_nMᵀK_nM + λn K_MM)⁺ K_nMᵀ Y for centers (m x d)
// (pseudo-inverse: H may be numerically singular).
std::vector<double> direct_nystrom(const kmx::KernelSpec &kernel, const kmx::Dataset &train, const double *centers,
                                   int64_t m, const double *y, int64_t k, double lambda);

// f (nq x k) = K(query, centers) coef.
std::vector<double> predict(const kmx::KernelSpec &kernel, const double *centers, int64_t m, const double *coef,
                            int64_t k, const kmx::Dataset &query);

// ℓ_λ(i) = (G (G + λnI)⁻¹)_ii for every row.
std::vector<double> exact_leverage(const kmx::KernelSpec &kernel, const kmx::Dataset &data, double lambda);

// ‖a − b‖ / ‖b‖.
double relative_difference(const std::vector<double> &a, const std::vector<double> &b);

}  // namespace falkon_test
