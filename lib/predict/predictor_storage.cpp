// predictor_storage.cpp — rounding and landmark codes (predictor_storage.h).
#include "predictor_storage.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <numeric>

#include "core/error.h"
#include "infer/blob_layout.h"

namespace kmx {

bool stores_float(PredictorStorage storage) { return storage != PredictorStorage::float64; }

bool quantizes_landmarks(PredictorStorage storage) {
    return storage == PredictorStorage::int16 || storage == PredictorStorage::int8;
}

bool uses_codebook(PredictorStorage storage) { return storage == PredictorStorage::int4; }

int32_t landmark_code_limit(PredictorStorage storage) {
    return storage == PredictorStorage::int16 ? 32767 : storage == PredictorStorage::int8 ? 127 : 0;
}

const char *storage_name(PredictorStorage storage) {
    static const char *const names[] = {"float64", "float32", "int16", "int8", "int4"};
    return names[int(storage)];
}

void round_reals(std::vector<double> &values, PredictorStorage storage) {
    if (!stores_float(storage)) return;
    for (double &v : values) v = double(float(v));
}

bool valid_landmark_scale(double scale) {
    return scale >= double(FLT_MIN) && scale <= KMX_BLOB_MAX_LANDMARK_SCALE && double(float(scale)) == scale;
}

int32_t landmark_code(double value, double center, double scale, PredictorStorage storage) {
    const double limit = landmark_code_limit(storage);
    return int32_t(std::clamp(std::nearbyint((value - center) / scale), -limit, limit));
}

double landmark_value(double center, double scale, int32_t code) { return center + scale * double(code); }

namespace {

// The smallest float s with spread / s <= limit (1 when spread is 0).
double scale_for(double spread, int32_t limit) {
    if (spread == 0) return 1;
    float s = std::max(float(spread / limit), FLT_MIN);
    if (double(s) * limit < spread) s = std::nextafter(s, FLT_MAX);
    return double(s);
}

// Σ (v − mean)² of sorted values [begin, end) from prefix sums of the
// (centred) values and their squares.
struct RunCosts {
    std::vector<double> sum, squares;
    explicit RunCosts(const std::vector<double> &sorted) : sum(sorted.size() + 1, 0.0), squares(sum) {
        const double mean = std::accumulate(sorted.begin(), sorted.end(), 0.0) / double(sorted.size());
        for (size_t i = 0; i < sorted.size(); ++i) {
            const double v = sorted[i] - mean;
            sum[i + 1] = sum[i] + v, squares[i + 1] = squares[i] + v * v;
        }
    }
    double operator()(size_t begin, size_t end) const {
        const double s = sum[end] - sum[begin];
        return std::max(0.0, squares[end] - squares[begin] - s * s / double(end - begin));
    }
};

// One level more: cost[e] = min over b of previous[b] + run(b, e), every run
// non-empty; the best b (split[e]) does not decrease with e, so the row is
// filled by divide and conquer over e, each half searching only its side of
// the middle's best b.
void next_level(const RunCosts &run, const std::vector<double> &previous, size_t level, std::vector<double> &cost,
                std::vector<uint32_t> &split, size_t lo, size_t hi, size_t split_lo, size_t split_hi) {
    if (lo > hi) return;
    const size_t mid = lo + (hi - lo) / 2;
    size_t best = std::max(split_lo, level);
    double best_cost = INFINITY;
    for (size_t b = best; b <= std::min(mid - 1, split_hi); ++b) {
        const double c = previous[b] + run(b, mid);
        if (c < best_cost) best_cost = c, best = b;
    }
    cost[mid] = best_cost;
    split[mid] = uint32_t(best);
    if (mid > lo) next_level(run, previous, level, cost, split, lo, mid - 1, split_lo, best);
    next_level(run, previous, level, cost, split, mid + 1, hi, best, split_hi);
}

// The kCodebookValues levels of least Σ (v − nearest level)² over sorted
// values (more than kCodebookValues distinct): 1-D k-means has contiguous
// clusters, so the optimum splits the sorted values into runs, each at its
// mean — dynamic programming over the split points (Wu 1991), each level in
// O(n log n) by the monotone split (Grønlund et al. 2017, "Fast exact
// k-means, k-medians and Bregman divergence clustering in 1D").
void optimal_levels(const std::vector<double> &sorted, double *levels) {
    const size_t n = sorted.size();
    const RunCosts run(sorted);
    std::vector<std::vector<uint32_t>> splits(kCodebookValues, std::vector<uint32_t>(n + 1, 0));
    std::vector<double> cost(n + 1, INFINITY), previous(n + 1, INFINITY);
    for (size_t e = 1; e <= n; ++e) previous[e] = run(0, e);
    for (size_t level = 1; level < size_t(kCodebookValues); ++level) {
        std::fill(cost.begin(), cost.end(), INFINITY);
        next_level(run, previous, level, cost, splits[level], level + 1, n, 0, n - 1);
        previous.swap(cost);
    }
    size_t end = n;
    for (size_t level = kCodebookValues; level-- > 0;) {
        const size_t begin = level == 0 ? 0 : splits[level][end];
        levels[level] =
            std::accumulate(sorted.begin() + long(begin), sorted.begin() + long(end), 0.0) / double(end - begin);
        end = begin;
    }
}

void store_codebook_landmarks(PredictorLeaf &leaf) {
    const size_t d = leaf.center.size(), m = leaf.landmarks.size() / d;
    leaf.codebook.assign(d * kCodebookValues, 0.0);
    std::vector<double> column(m);
    for (size_t k = 0; k < d; ++k) {
        for (size_t j = 0; j < m; ++j) column[j] = double(float(leaf.landmarks[j * d + k]));
        double *table = &leaf.codebook[k * kCodebookValues];
        scalar_codebook(column, table);
        for (size_t j = 0; j < m; ++j) leaf.landmarks[j * d + k] = table[codebook_code(column[j], table)];
    }
}

}  // namespace

void scalar_codebook(std::vector<double> values, double *table) {
    std::sort(values.begin(), values.end());
    std::vector<double> distinct(values);
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    if (distinct.size() <= size_t(kCodebookValues)) {
        for (int c = 0; c < kCodebookValues; ++c)
            table[c] = distinct.empty() ? 0.0 : distinct[std::min(size_t(c), distinct.size() - 1)];
        return;
    }
    optimal_levels(values, table);
    for (int c = 0; c < kCodebookValues; ++c) table[c] = double(float(table[c]));
}

int32_t codebook_code(double value, const double *table) {
    int32_t best = 0;
    for (int32_t c = 1; c < kCodebookValues; ++c)
        if (std::fabs(value - table[c]) < std::fabs(value - table[best])) best = c;
    return best;
}

void store_landmarks(PredictorLeaf &leaf, PredictorStorage storage) {
    leaf.landmark_scale = 0;
    leaf.codebook.clear();
    if (uses_codebook(storage)) {
        store_codebook_landmarks(leaf);
        return;
    }
    if (!quantizes_landmarks(storage)) {
        round_reals(leaf.landmarks, storage);
        return;
    }
    const size_t d = leaf.center.size();
    double spread = 0;
    for (size_t i = 0; i < leaf.landmarks.size(); ++i)
        spread = std::max(spread, std::fabs(leaf.landmarks[i] - leaf.center[i % d]));
    const double scale = scale_for(spread, landmark_code_limit(storage));
    if (!valid_landmark_scale(scale))
        fail(KMX_E_INVALID_ARGUMENT,
             "predictor storage %s: landmarks lie %g from their leaf's center, too far to quantize",
             storage_name(storage), spread);
    for (size_t i = 0; i < leaf.landmarks.size(); ++i) {
        const double center = leaf.center[i % d];
        leaf.landmarks[i] = landmark_value(center, scale, landmark_code(leaf.landmarks[i], center, scale, storage));
    }
    leaf.landmark_scale = scale;
}

}  // namespace kmx
