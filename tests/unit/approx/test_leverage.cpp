// test_leverage.cpp — approximate ridge leverage scores against exact ones
// (G (G + λnI)⁻¹)_ii computed directly, and the landmarks they sample.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "approx/leverage_scores.h"
#include "core/error.h"
#include "core/context.h"
#include "../krr/falkon_reference.h"

namespace {

using falkon_test::load;

const kmx::KernelSpec kRbf{KMX_KERNEL_RBF, 0.05, 0, 3};

std::vector<double> approximate(const kmx::Dataset &data, double lambda, int64_t subsample, uint64_t seed = 3) {
    kmx::Context ctx;
    ctx.seed = seed;
    std::vector<double> scores(size_t(data.n));
    kmx::approximate_leverage_scores(ctx, kRbf, data, lambda, subsample, scores.data());
    return scores;
}

// With the whole data as the sub-sample the estimate is the exact score.
TEST(LeverageScores, ExactWhenTheSubsampleIsEveryRow) {
    const auto digits = load("digits_bin.train.libsvm", false, 400);
    const std::vector<double> exact = falkon_test::exact_leverage(kRbf, *digits, 1e-3);
    EXPECT_LE(falkon_test::relative_difference(approximate(*digits, 1e-3, digits->n), exact), 1e-8);
}

// From a quarter of the rows the scores stay within a small factor q of the
// exact ones (q-approximate leverage scores, FALKON Theorem 4).
TEST(LeverageScores, SubsampleScoresAreWithinAFactor) {
    const auto digits = load("digits_bin.train.libsvm", false, 800);
    const double lambda = 1e-3;
    const std::vector<double> exact = falkon_test::exact_leverage(kRbf, *digits, lambda);
    const std::vector<double> scores = approximate(*digits, lambda, 200);
    double low = INFINITY, high = 0, sum_exact = 0, sum_approx = 0;
    for (size_t i = 0; i < exact.size(); ++i) {
        low = std::min(low, scores[i] / exact[i]);
        high = std::max(high, scores[i] / exact[i]);
        sum_exact += exact[i];
        sum_approx += scores[i];
    }
    std::printf("  ratio approximate/exact in [%.3f, %.3f]; effective dimension %.1f vs %.1f\n", low, high, sum_approx,
                sum_exact);
    EXPECT_GE(low, 1.0 / 3);
    EXPECT_LE(high, 3.0);
}

TEST(LeverageScores, LandmarksAreDistinctRowsAndDeterministic) {
    const auto digits = load("digits_bin.train.libsvm", false, 600);
    kmx::LandmarkOptions o;
    o.method = kmx::LandmarkMethod::leverage;
    o.m = 60;
    o.leverage_lambda = 1e-3;
    kmx::Context ctx;
    ctx.seed = 11;
    const kmx::Landmarks a = kmx::leverage_landmarks(ctx, kRbf, *digits, o);
    const kmx::Landmarks b = kmx::leverage_landmarks(ctx, kRbf, *digits, o);
    ASSERT_EQ(a.m, 60);
    ASSERT_EQ(a.rows.size(), 60u);
    EXPECT_TRUE(std::adjacent_find(a.rows.begin(), a.rows.end(), std::greater_equal<int64_t>()) == a.rows.end());
    EXPECT_EQ(a.rows, b.rows);
    for (int64_t j = 0; j < a.m; ++j)
        for (int64_t c = 0; c < digits->d; ++c)
            ASSERT_EQ(a.points[size_t(j * digits->d + c)], digits->x[a.rows[size_t(j)] * digits->d + c]);
    o.leverage_lambda = 0;
    EXPECT_THROW(kmx::leverage_landmarks(ctx, kRbf, *digits, o), kmx::Error);
}

// A sub-sample of more rows than one block of k_i's holds (s = 1200 > 2²⁰/s
// = 873): K_JJ's scratch is sized too (it failed as a workspace sizing bug).
TEST(LeverageScores, SubsampleLargerThanABlockFitsItsWorkspace) {
    const auto digits = load("digits_bin.train.libsvm", false);
    kmx::LandmarkOptions o;
    o.method = kmx::LandmarkMethod::leverage;
    o.m = 600;
    o.leverage_lambda = 1e-3;
    ASSERT_GT(kmx::leverage_subsample_size(digits->n, o.m), 1024);
    kmx::Context ctx;
    const kmx::Landmarks l = kmx::leverage_landmarks(ctx, kRbf, *digits, o);
    EXPECT_EQ(l.m, 600);
    EXPECT_TRUE(std::adjacent_find(l.rows.begin(), l.rows.end(), std::greater_equal<int64_t>()) == l.rows.end());
}

// Sampling follows the scores: over many seeds, the rows with the top tenth
// of exact scores are drawn more often than the bottom tenth.
TEST(LeverageScores, HighScoresAreDrawnMoreOften) {
    const auto digits = load("digits_bin.train.libsvm", false, 400);
    const std::vector<double> exact = falkon_test::exact_leverage(kRbf, *digits, 1e-4);
    std::vector<size_t> order(exact.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return exact[a] < exact[b]; });
    std::vector<int> drawn(exact.size(), 0);
    kmx::LandmarkOptions o;
    o.method = kmx::LandmarkMethod::leverage;
    o.m = 40;
    o.leverage_lambda = 1e-4;
    for (uint64_t seed = 0; seed < 20; ++seed) {
        kmx::Context ctx;
        ctx.seed = seed;
        for (int64_t row : kmx::leverage_landmarks(ctx, kRbf, *digits, o).rows) ++drawn[size_t(row)];
    }
    int low = 0, high = 0;
    for (size_t i = 0; i < 40; ++i) {
        low += drawn[order[i]];
        high += drawn[order[order.size() - 1 - i]];
    }
    std::printf("  draws of the 40 lowest-score rows %d, of the 40 highest %d\n", low, high);
    EXPECT_GT(high, low);
}

}  // namespace
