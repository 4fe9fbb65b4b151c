// approx_defaults.cpp — the "auto" sizes (see approx_defaults.h).
#include "approx_defaults.h"

#include <algorithm>
#include <cmath>

namespace kmx {

int64_t auto_centers(int64_t n) {
    const int64_t wanted = std::max<int64_t>(100, int64_t(std::ceil(5 * std::sqrt(double(n)))));
    return std::min(n, wanted);
}

int64_t auto_meka_clusters(int64_t) { return 0; }

int64_t auto_meka_rank(int64_t n, int64_t clusters) { return clusters == 0 ? 0 : meka_reference_rank(n, clusters); }

int64_t meka_reference_clusters(int64_t n) {
    return std::clamp<int64_t>(std::llround(std::sqrt(double(n)) / 10), 1, 64);
}

int64_t meka_reference_rank(int64_t n, int64_t clusters) {
    return std::clamp<int64_t>(n / (4 * std::max<int64_t>(clusters, 1)), 1, 128);
}

}  // namespace kmx
