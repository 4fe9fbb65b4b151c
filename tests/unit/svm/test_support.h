// test_support.h — what the DC-SVM and kernel k-means tests share: Letter
// subsets, blobs, and direct (O(n²)) computations of kernel matrices, the
// dual objective and its KKT conditions.
#pragma once
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/dataset.h"
#include "kernel/kernel.h"
#include "svm/svm_dual.h"
#include "../common/blobs.h"

namespace dcsvm_test {

// The first `rows` rows of an example dataset (KMX_EXAMPLE_DATA), dense.
std::unique_ptr<kmx::Dataset> load_example(const char *file, int64_t rows);

// Points around `clusters` centers spread over [0, spread]^d; row i belongs to i % clusters.
struct Blobs : test_common::BlobPoints {
    std::unique_ptr<kmx::Dataset> data;  // borrows x
};
Blobs make_blobs(int64_t n, int64_t d, int clusters, double spread, double noise, uint64_t seed);

// The binary problem over all rows of `data` (labels ±1) with an RBF kernel;
// `upper` (n bounds C_i) must outlive it.
kmx::SvmProblem rbf_problem(const kmx::Dataset &data, const std::vector<double> &upper, double gamma);

double seconds_since(std::chrono::steady_clock::time_point start);

// K (n × n) over the dataset's rows `rows` (nullptr: 0..n−1) by kernel_eval.
std::vector<double> direct_kernel_matrix(const kmx::Dataset &data, const int64_t *rows, int64_t n,
                                         const kmx::KernelSpec &kernel);

// f(α) = ½ αᵀQα − eᵀα and ∇f = Qα − e for Q_ij = y_i y_j K_ij.
double dual_objective(const std::vector<double> &gram, const double *y, const double *alpha, int64_t n);
std::vector<double> dual_gradient(const std::vector<double> &gram, const double *y, const double *alpha, int64_t n);

// The largest KKT violation: without bias, the projected gradient's largest
// entry; with bias, m(α) − M(α) (LIBSVM's rule).
double kkt_violation(const std::vector<double> &gradient, const double *y, const double *alpha, double C, bool bias);

// Fraction of positions where the two partitions disagree after the best
// matching of labels (each label of a mapped to its most frequent label in b).
double partition_disagreement(const std::vector<int> &a, const std::vector<int> &b);

}  // namespace dcsvm_test
