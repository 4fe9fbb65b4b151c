// landmarks.h — the m points a Nyström approximation (and everything built
// on it: FALKON's centers, DC-Pred++'s landmarks, MEKA's per-cluster
// columns) expands the kernel over.
//
//   uniform          m distinct training rows, uniformly at random
//   kmeans           k-means centroids: D² seeding in rounds on every row, a
//                    few Lloyd iterations on a uniform sample, one on every row
//   weighted_kmeans  centroids of weighted k-means, weights given by the
//                    caller (DC-Pred++: α_i², the bound of its Theorem 3),
//                    the same way on a sample of the rows of positive weight
//   leverage         rows sampled by approximate ridge leverage scores
//                    (FALKON's Theorem 4 sampling; leverage_scores.h)
//   given            the caller's points, copied
#pragma once
#include <cstdint>
#include <vector>

#include "core/row_subset.h"
#include "kernel/kernel.h"

namespace kmx {

class Context;
class Dataset;
class Rng;

enum class LandmarkMethod { uniform, kmeans, weighted_kmeans, leverage, given };

struct LandmarkOptions {
    LandmarkMethod method = LandmarkMethod::uniform;
    int64_t m = 0;                    // landmarks wanted, 1 <= m <= n
    const double *weights = nullptr;  // weighted_kmeans: n non-negative weights, not all zero
    const double *given = nullptr;    // given: m x d row-major points
    int kmeans_iterations = 3;        // kmeans / weighted_kmeans: Lloyd iterations at most (on the sample)
    int64_t kmeans_sample = 0;        // kmeans / weighted_kmeans: rows clustered (0: kmeans_sample_size)
    double leverage_lambda = 0;       // leverage: the ridge λ the scores are for (> 0)
    // uniform: rows that stay sparse in kernel blocks (sparse_kernel_rows)
    // are kept as CSR (Landmarks::csr) for a caller that reads them through
    // Landmarks::dataset(); otherwise every method's points are dense.
    bool keep_sparse = false;
};

struct Landmarks {
    int64_t m = 0;
    int64_t d = 0;
    std::vector<double> points;  // m x d row-major (empty when csr holds them)
    KeptRows csr;                // the landmarks as CSR rows (LandmarkOptions::keep_sparse), else empty
    // The data row each landmark is (uniform, leverage), in increasing order;
    // empty when landmarks are not data rows (centroids, given points).
    std::vector<int64_t> rows;

    bool sparse() const { return csr.sparse(); }
    // The landmarks as a dataset (dense or CSR) borrowing these arrays.
    std::unique_ptr<Dataset> dataset() const;
};

// Chooses landmarks from `data` (dense or sparse) by options.method, with
// ctx's seed and threads; the scratch it needs is checked against ctx's
// budget first. Fails with KMX_E_INVALID_ARGUMENT for m < 1, m > n, or
// missing/invalid weights or points. A k-means centroid whose cluster ends
// empty is dropped, so `m` of the result may be smaller than asked for
// only for k-means methods on data with fewer than m distinct rows.
Landmarks select_landmarks(Context &ctx, const KernelSpec &kernel, const Dataset &data, const LandmarkOptions &options);

// The rows the k-means methods run their Lloyd iterations on, for m
// landmarks of n rows: kKMeansRowsPerLandmark rows per landmark (enough for
// each centroid to average several rows), all of them when n is smaller;
// seeding and one last iteration see every row. An iteration on the sample
// costs kKMeansRowsPerLandmark·m/n of the n x m kernel block every Nyström
// approximation computes (with m ≈ 5√n, the default: 0.8 at n = 10⁴, 0.08
// at 10⁶), and the sample's copy takes kKMeansRowsPerLandmark·m x d doubles.
constexpr int64_t kKMeansRowsPerLandmark = 16;
int64_t kmeans_sample_size(int64_t n, int64_t m);

// Helpers shared by the approximations built on landmarks.

// m distinct indices of [0, n), uniformly at random, in increasing order.
std::vector<int64_t> sample_rows(Rng &rng, int64_t n, int64_t m);

}  // namespace kmx
