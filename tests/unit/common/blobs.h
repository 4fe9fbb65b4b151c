// blobs.h — test data shared by the clustering and DC-SVM tests: points
// around `clusters` random centers in [0, spread]^d with Gaussian noise;
// row i belongs to cluster i % clusters.
#pragma once
#include <cmath>
#include <cstdint>
#include <vector>

#include "core/rng.h"

namespace test_common {

struct BlobPoints {
    std::vector<double> x;
    std::vector<int> truth;
    int64_t n = 0;
    int64_t d = 0;
};

// A standard normal draw (Box–Muller).
inline double gaussian(kmx::Rng &rng) {
    const double u = 1.0 - rng.uniform();  // (0, 1]
    return std::sqrt(-2.0 * std::log(u)) * std::cos(6.283185307179586 * rng.uniform());
}

inline BlobPoints make_blob_points(int64_t n, int64_t d, int clusters, double spread, double noise, uint64_t seed) {
    kmx::Rng rng(seed);
    std::vector<double> centers(size_t(clusters * d));
    for (double &v : centers) v = spread * rng.uniform();
    BlobPoints p;
    p.n = n;
    p.d = d;
    p.x.resize(size_t(n * d));
    p.truth.resize(size_t(n));
    for (int64_t i = 0; i < n; ++i) {
        p.truth[size_t(i)] = int(i % clusters);
        for (int64_t j = 0; j < d; ++j)
            p.x[size_t(i * d + j)] = centers[size_t(p.truth[size_t(i)] * d + j)] + noise * gaussian(rng);
    }
    return p;
}

}  // namespace test_common
