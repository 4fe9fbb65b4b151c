// pseudo_landmarks.cpp — triangle and product pseudo-landmarks (DC-Pred++ §4).
#include "pseudo_landmarks.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "core/error.h"

namespace kmx {

void landmark_distances(const KernelSpec &kernel, const double *x, const double *landmarks, int64_t m, int64_t d,
                        double *r) {
    const bool l1 = kernel.type == KMX_KERNEL_LAPLACIAN;
    for (int64_t j = 0; j < m; ++j) {
        const double *u = landmarks + j * d;
        double sum = 0;
        if (l1) {
            for (int64_t f = 0; f < d; ++f) sum += std::fabs(x[f] - u[f]);
            r[j] = sum;
        } else {
            for (int64_t f = 0; f < d; ++f) {
                const double diff = x[f] - u[f];
                sum += diff * diff;
            }
            r[j] = std::sqrt(sum);
        }
    }
}

double stationary_kernel_of_distance(const KernelSpec &kernel, double gamma, double rho) {
    return kernel.type == KMX_KERNEL_LAPLACIAN ? std::exp(-gamma * rho) : std::exp(-gamma * rho * rho);
}

double triangle_distance_estimate(TriangleEstimate estimate, const double *r, const double *dist_row, int64_t m) {
    double lower = 0;
    double upper = std::numeric_limits<double>::infinity();
    for (int64_t j = 0; j < m; ++j) {
        lower = std::max(lower, std::fabs(r[j] - dist_row[j]));
        upper = std::min(upper, r[j] + dist_row[j]);
    }
    switch (estimate) {
        case TriangleEstimate::lower:
            return lower;
        case TriangleEstimate::upper:
            return upper;
        case TriangleEstimate::midpoint:
            return 0.5 * (lower + upper);
    }
    return lower;
}

void expand_pseudo_landmarks(const KernelSpec &kernel, double gamma, TriangleEstimate estimate,
                             const PredictorLeaf &leaf, const double *r, double *cbar) {
    const int64_t m = leaf.m;
    double *c_tri = cbar + m;
    for (int64_t t = 0; t < leaf.triangle; ++t) {
        const double rho = triangle_distance_estimate(estimate, r, leaf.triangle_dist.data() + t * m, m);
        c_tri[t] = stationary_kernel_of_distance(kernel, gamma, rho);
    }
    double *c_prod = c_tri + leaf.triangle;
    const int32_t *pairs = leaf.product_pairs.data();
    for (int64_t q = 0; q < leaf.products; ++q) c_prod[q] = cbar[pairs[2 * q]] * cbar[pairs[2 * q + 1]];
}

// k distinct indices of [0, n) uniformly at random (partial Fisher–Yates on
// a sparse map would do; n is a leaf's size here, so a full index array is fine).
static std::vector<int64_t> sample_without_replacement(Rng &rng, int64_t n, int64_t k) {
    std::vector<int64_t> index(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) index[size_t(i)] = i;
    for (int64_t i = 0; i < k; ++i) std::swap(index[size_t(i)], index[size_t(i + int64_t(rng.below(uint64_t(n - i))))]);
    index.resize(static_cast<size_t>(k));
    std::sort(index.begin(), index.end());
    return index;
}

void choose_triangle_pseudo_landmarks(Rng &rng, const KernelSpec &kernel, const double *candidates, int64_t n,
                                      int64_t d, int64_t p, PredictorLeaf &leaf) {
    require(kernel.stationary(), "triangle pseudo-landmarks need a stationary kernel (rbf or laplacian)");
    require(p >= 0 && p <= n, "triangle pseudo-landmarks: p must be in [0, candidate rows]");
    const std::vector<int64_t> chosen = sample_without_replacement(rng, n, p);
    leaf.triangle = p;
    leaf.triangle_dist.assign(size_t(p * leaf.m), 0.0);
    for (int64_t t = 0; t < p; ++t)
        landmark_distances(kernel, candidates + chosen[size_t(t)] * d, leaf.landmarks.data(), leaf.m, d,
                           leaf.triangle_dist.data() + t * leaf.m);
}

void choose_product_pairs(Rng &rng, int64_t p, PredictorLeaf &leaf) {
    const int64_t m = leaf.m;
    const int64_t all = m * (m + 1) / 2;
    require(p >= 0 && p <= all, "product pseudo-landmarks: p must be in [0, m(m+1)/2]");
    const std::vector<int64_t> chosen = sample_without_replacement(rng, all, p);
    leaf.products = p;
    leaf.product_pairs.resize(size_t(2 * p));
    // Pair number s enumerates (i, j), i <= j, row by row: row i holds m − i pairs.
    for (int64_t q = 0; q < p; ++q) {
        int64_t s = chosen[size_t(q)], i = 0;
        while (s >= m - i) s -= m - i++;
        leaf.product_pairs[size_t(2 * q)] = int32_t(i);
        leaf.product_pairs[size_t(2 * q + 1)] = int32_t(i + s);
    }
}

}  // namespace kmx
