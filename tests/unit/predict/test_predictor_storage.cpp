// test_predictor_storage.cpp — int4's codebook (scalar_codebook): lossless
// where a feature takes at most 16 values, and otherwise the optimal 16-level
// scalar quantizer, checked against the plain O(16 n²) dynamic programme over
// the sorted values (1-D k-means has contiguous clusters, so the optimum is a
// best split into 16 runs); the library's is the O(16 n log n) divide and
// conquer over the same programme.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "predict/predictor_storage.h"

namespace {

constexpr int kLevels = kmx::kCodebookValues;

// Σ (v − nearest table value)² over values.
double quantization_error(const std::vector<double> &values, const double *table) {
    double sum = 0;
    for (double v : values) {
        const double q = table[kmx::codebook_code(v, table)];
        sum += (v - q) * (v - q);
    }
    return sum;
}

// The least Σ (v − level)² over every choice of 16 levels: dynamic
// programming over splits of the sorted values into 16 contiguous runs, each
// run at its mean. O(16 n²).
double optimal_quantization_error(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    const size_t n = values.size();
    std::vector<double> sum(n + 1, 0.0), squares(n + 1, 0.0);
    for (size_t i = 0; i < n; ++i) sum[i + 1] = sum[i] + values[i], squares[i + 1] = squares[i] + values[i] * values[i];
    auto run_cost = [&](size_t begin, size_t end) {  // Σ (v − mean)² over [begin, end)
        const double s = sum[end] - sum[begin];
        return squares[end] - squares[begin] - s * s / double(end - begin);
    };
    const double inf = std::numeric_limits<double>::infinity();
    std::vector<double> best(n + 1, inf), next(n + 1);
    best[0] = 0;
    for (int level = 0; level < kLevels; ++level) {
        std::fill(next.begin(), next.end(), inf);
        next[0] = 0;
        for (size_t end = 1; end <= n; ++end)
            for (size_t begin = 0; begin < end; ++begin)
                if (best[begin] < inf) next[end] = std::min(next[end], best[begin] + run_cost(begin, end));
        best.swap(next);
    }
    return best[n];
}

TEST(Codebook, AtMostSixteenValuesAreKeptExactly) {
    std::mt19937_64 rng(3);
    std::vector<double> values;
    for (int i = 0; i < 300; ++i) values.push_back(double(float(int(rng() % 13) / 14.0)));  // 13 values, repeated
    double table[kLevels];
    kmx::scalar_codebook(values, table);
    EXPECT_TRUE(std::is_sorted(table, table + kLevels));
    for (double v : values) EXPECT_EQ(table[kmx::codebook_code(v, table)], v);
    EXPECT_EQ(quantization_error(values, table), 0.0);
}

TEST(Codebook, ManyValuesGetTheOptimalQuantizer) {
    std::mt19937_64 rng(7);
    std::normal_distribution<double> normal;
    std::exponential_distribution<double> exponential(2.0);
    for (int shape = 0; shape < 3; ++shape) {
        std::vector<double> values;
        for (int i = 0; i < 400; ++i) {
            const double v = shape == 0 ? normal(rng) : shape == 1 ? exponential(rng) : (i % 2 ? 5 : -5) + normal(rng);
            values.push_back(double(float(v)));
        }
        double table[kLevels];
        kmx::scalar_codebook(values, table);
        EXPECT_TRUE(std::is_sorted(table, table + kLevels)) << shape;
        for (double level : table) EXPECT_EQ(double(float(level)), level) << shape;  // floats, as the blob stores
        const double got = quantization_error(values, table), optimal = optimal_quantization_error(values);
        std::printf("shape %d: codebook %.9g, optimal %.9g\n", shape, got, optimal);
        EXPECT_LE(got, optimal * (1 + 1e-6)) << shape;  // levels rounded to float move it by ~1e-8
        // A uniform 16-level grid over the range does worse on these unequal spreads.
        const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
        double grid[kLevels];
        for (int c = 0; c < kLevels; ++c) grid[c] = *lo + (*hi - *lo) * (c + 0.5) / kLevels;
        EXPECT_LT(got, quantization_error(values, grid)) << shape;
    }
}

TEST(Codebook, CodesAreTheNearestValueTiesToTheLowest) {
    double table[kLevels];
    for (int c = 0; c < kLevels; ++c) table[c] = c < 8 ? c : 7;  // repeated last value, as a padded table
    EXPECT_EQ(kmx::codebook_code(2.4, table), 2);
    EXPECT_EQ(kmx::codebook_code(2.5, table), 2);
    EXPECT_EQ(kmx::codebook_code(9.0, table), 7);
    EXPECT_EQ(kmx::codebook_code(-3.0, table), 0);
}

}  // namespace
