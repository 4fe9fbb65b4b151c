#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/rng.h"

TEST(Rng, SameSeedSameStreamDifferentSeedDifferentStream) {
    kmx::Rng a(42), b(42), c(43);
    int differ = 0;
    for (int i = 0; i < 100; ++i) {
        const uint64_t x = a.next_u64();
        EXPECT_EQ(x, b.next_u64());
        differ += x != c.next_u64();
    }
    EXPECT_GT(differ, 95);
}

TEST(Rng, UniformMomentsMatchTheory) {
    kmx::Rng rng(7);
    const int n = 200000;
    double sum = 0, sum_sq = 0;
    for (int i = 0; i < n; ++i) {
        const double u = rng.uniform();
        ASSERT_GE(u, 0.0);
        ASSERT_LT(u, 1.0);
        sum += u;
        sum_sq += u * u;
    }
    // mean 1/2, variance 1/12; standard errors ~0.00065 and ~0.0002
    EXPECT_NEAR(sum / n, 0.5, 0.004);
    EXPECT_NEAR(sum_sq / n - (sum / n) * (sum / n), 1.0 / 12, 0.002);
}

TEST(Rng, BelowIsUnbiasedChiSquare) {
    kmx::Rng rng(3);
    const int bins = 7, n = 70000;
    std::vector<int> counts(bins, 0);
    for (int i = 0; i < n; ++i) ++counts[rng.below(bins)];
    double chi2 = 0;
    for (int c : counts) chi2 += (c - n / bins) * double(c - n / bins) / (n / bins);
    EXPECT_LT(chi2, 22.46);  // 99.9% quantile of chi-square with 6 degrees of freedom
}

TEST(Rng, SplitStreamsAreDistinctAndReproducible) {
    kmx::Rng base(1);
    kmx::Rng s1 = base.split(1), s1_again = base.split(1), s2 = base.split(2);
    const uint64_t x = s1.next_u64();
    EXPECT_EQ(x, s1_again.next_u64());
    EXPECT_NE(x, s2.next_u64());
}
