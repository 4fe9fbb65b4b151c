#include "distances.h"

#include <algorithm>
#include <limits>

#include "core/isa_dispatch.h"
#include "linalg/linalg.h"

namespace kmx::cluster {

namespace {

// Σ_j term(j) for j in [0, d) with kLanes independent partial sums (so the
// additions pipeline and vectorise), combined in a fixed order.
template <class Term>
double lane_sum(int64_t d, const Term &term) {
    constexpr int kLanes = 8;
    double lanes[kLanes] = {};
    int64_t j = 0;
    for (; j + kLanes <= d; j += kLanes)
        for (int lane = 0; lane < kLanes; ++lane) lanes[lane] += term(j + lane);
    for (; j < d; ++j) lanes[0] += term(j);
    return ((lanes[0] + lanes[1]) + (lanes[2] + lanes[3])) + ((lanes[4] + lanes[5]) + (lanes[6] + lanes[7]));
}

}  // namespace

double squared_distance(const double *a, const double *b, int64_t d) {
    return lane_sum(d, [&](int64_t j) {
        const double diff = a[j] - b[j];
        return diff * diff;
    });
}

double squared_norm(const double *a, int64_t d) {
    return lane_sum(d, [&](int64_t j) { return a[j] * a[j]; });
}

double row_squared_norm(const Dataset &data, int64_t i) {
    if (data.x) return squared_norm(data.x + i * data.d, data.d);
    if (data.x32)
        return lane_sum(data.d, [&](int64_t j) { return double(data.x32[i * data.d + j]) * data.x32[i * data.d + j]; });
    const int64_t begin = data.row_ptr[i];
    if (data.values32)
        return lane_sum(data.row_ptr[i + 1] - begin,
                        [&](int64_t e) { return data.value(begin + e) * data.value(begin + e); });
    return squared_norm(data.values + begin, data.row_ptr[i + 1] - begin);
}

void center_squared_norms(const double *centers, int64_t k, int64_t d, double *sqnorms) {
    for (int64_t c = 0; c < k; ++c) sqnorms[c] = squared_norm(centers + c * d, d);
}

void add_scaled(double alpha, const double *x, double *y, int64_t d) {
    for (int64_t j = 0; j < d; ++j) y[j] += alpha * x[j];
}

void center_dot_products(const double *x, int64_t m, const CenterSet &centers, double *dots) {
    linalg::gemm(linalg::Trans::No, linalg::Trans::Yes, m, centers.k, centers.d, 1.0, x, centers.d, centers.rows,
                 centers.d, 0.0, dots, centers.k, 1);
}

// The lowest c minimising score_c = ‖c‖² − 2⟨x, c⟩ over one row of dots, and
// that score. Two passes, both vectorised: the minimum (a min-reduction), then
// the first c reaching it (the same expression, so bit-identical). NaN scores
// never win; a row of NaNs gives c = 0.
KMX_ALWAYS_INLINE int64_t nearest_in_row_body(const double *row_dots, const double *sqnorms, int64_t k,
                                              double &best_score) {
    double lowest = std::numeric_limits<double>::infinity();
#pragma omp simd reduction(min : lowest)
    for (int64_t c = 0; c < k; ++c) lowest = std::min(lowest, sqnorms[c] - 2 * row_dots[c]);
    for (int64_t c = 0; c < k; ++c)
        if (sqnorms[c] - 2 * row_dots[c] == lowest) {
            best_score = lowest;
            return c;
        }
    best_score = sqnorms[0] - 2 * row_dots[0];
    return 0;
}

// On x86-64, compiled for AVX-512, AVX2 and the baseline; the CPU's is chosen
// once, at the first call (core/isa_dispatch.h).
KMX_ISA_VARIANTS(int64_t, nearest_in_row,
                 (const double *row_dots, const double *sqnorms, int64_t k, double &best_score),
                 (row_dots, sqnorms, k, best_score))

void nearest_centers(const double *x, int64_t m, const CenterSet &centers, double *dots, int32_t *nearest,
                     double *best_scores) {
    center_dot_products(x, m, centers, dots);
    for (int64_t r = 0; r < m; ++r) {
        double best_score;
        nearest[r] = int32_t(nearest_in_row(dots + r * centers.k, centers.sqnorms, centers.k, best_score));
        if (best_scores) best_scores[r] = best_score;
    }
}

void row_squared_norms(const Dataset &data, const RowPartition &partition, double *row_sqnorms) {
    for_each_block(partition, [&](int, int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i) row_sqnorms[i] = row_squared_norm(data, i);
    });
}

}  // namespace kmx::cluster
