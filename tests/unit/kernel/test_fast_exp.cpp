// test_fast_exp.cpp — every implementation of the vectorised exp the CPU
// can run, against std::exp.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "kernel/fast_exp.h"

namespace {

using kmx::ExpPath;

constexpr double kRelative = 5e-16;       // a little over 2 ulp
constexpr double kSubnormalUlp = 5e-324;  // 2^−1074
constexpr double kInf = std::numeric_limits<double>::infinity();

const char *name(ExpPath path) {
    switch (path) {
        case ExpPath::Avx512:
            return "avx512";
        case ExpPath::Avx2Fma:
            return "avx2+fma";
        default:
            return "baseline";
    }
}

std::vector<ExpPath> supported_paths() {
    std::vector<ExpPath> paths;
    for (ExpPath path : {ExpPath::Baseline, ExpPath::Avx2Fma, ExpPath::Avx512})
        if (kmx::exp_path_supported(path)) paths.push_back(path);
    return paths;
}

bool matches_std_exp(double got, double x) {
    const double want = std::exp(x);
    return got == want || std::fabs(got - want) <= kRelative * want + kSubnormalUlp;
}

// Every supported path's e^x of each x within matches_std_exp's bound.
void expect_every_path_matches_std_exp(const std::vector<double> &x) {
    for (ExpPath path : supported_paths()) {
        std::vector<double> y = x;
        kmx::exp_in_place(path, y.data(), int64_t(y.size()));
        int64_t bad = 0;
        for (size_t i = 0; i < x.size(); ++i)
            if (!matches_std_exp(y[i], x[i]) && bad++ == 0)
                ADD_FAILURE() << name(path) << ": exp(" << x[i] << ") = " << y[i] << ", std::exp " << std::exp(x[i]);
        EXPECT_EQ(bad, 0) << name(path);
    }
}

TEST(FastExp, BaselineIsAlwaysThere) { EXPECT_TRUE(kmx::exp_path_supported(ExpPath::Baseline)); }

TEST(FastExp, MatchesStdExpOverTheKernelRange) {
    std::mt19937_64 rng(3);
    std::vector<double> x;
    for (auto [lo, hi] : {std::pair{-746.0, 0.0}, {-1e-6, 0.0}, {-1.0, 1.0}, {0.0, 600.0}, {-745.2, -700.0}}) {
        std::uniform_real_distribution<double> uniform(lo, hi);
        for (int i = 0; i < 20000; ++i) x.push_back(uniform(rng));
    }
    expect_every_path_matches_std_exp(x);
}

TEST(FastExp, SpecialValues) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (ExpPath path : supported_paths()) {
        double v[] = {0.0, -0.0, -kInf, -746.0, -1e4, -745.2, -745.1, -1e-300, nan};
        kmx::exp_in_place(path, v, 9);
        EXPECT_EQ(v[0], 1.0) << name(path);
        EXPECT_EQ(v[1], 1.0) << name(path);
        EXPECT_EQ(v[2], 0.0) << name(path);
        EXPECT_EQ(v[3], 0.0) << name(path);
        EXPECT_EQ(v[4], 0.0) << name(path);
        EXPECT_EQ(v[5], 0.0) << name(path);
        EXPECT_EQ(v[6], std::exp(-745.1)) << name(path);  // the smallest subnormal
        EXPECT_EQ(v[7], 1.0) << name(path);
        EXPECT_TRUE(std::isnan(v[8])) << name(path);
    }
}

// Where e^x leaves the normal numbers (ln DBL_MIN = −708.396...), the paths
// round subnormal results by an add of 2^52 instead of an underflowing
// multiply or vscalefpd (a microcode assist on Intel): results within 2 ulp
// or one subnormal step of std::exp on both sides of DBL_MIN and of the
// half-smallest subnormal (ln 2^−1075 = −745.133...), vectors mixing normal,
// subnormal and zero results, and x = −708.0 (the AVX-512 path's threshold).
TEST(FastExp, UnderflowBoundaries) {
    std::vector<double> x;
    for (double centre : {-708.3964185322641, -745.1332191019412, -708.0})
        for (int i = -400; i <= 400; ++i) x.push_back(centre + i * 1e-5);
    for (int i = 0; i < 1000; ++i) x.push_back(i % 3 == 0 ? -1.0 : i % 3 == 1 ? -720.0 - i * 0.01 : -800.0);
    x.push_back(std::nextafter(std::log(std::numeric_limits<double>::min()), 0.0));
    expect_every_path_matches_std_exp(x);
    for (ExpPath path : supported_paths()) {
        double last = x.back();
        kmx::exp_in_place(path, &last, 1);
        EXPECT_EQ(last, std::exp(x.back())) << name(path) << ": the smallest normal result";
    }
}

TEST(FastExp, NeverAboveOneForNonPositiveArguments) {
    std::mt19937_64 rng(5);
    std::uniform_real_distribution<double> tiny(-0.1, 0.0);
    std::vector<double> x(100000);
    for (double &v : x) v = tiny(rng) * tiny(rng) * tiny(rng);
    for (ExpPath path : supported_paths()) {
        std::vector<double> y = x;
        kmx::exp_in_place(path, y.data(), int64_t(y.size()));
        for (double v : y) ASSERT_LE(v, 1.0) << name(path);
    }
}

TEST(FastExp, EveryLengthAndTail) {
    for (ExpPath path : supported_paths())
        for (int64_t n : {0, 1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 33}) {
            std::vector<double> x(size_t(n) + 1);
            for (int64_t i = 0; i <= n; ++i) x[size_t(i)] = -0.37 * double(i);
            x[size_t(n)] = 123.0;  // past the end: must stay
            kmx::exp_in_place(path, x.data(), n);
            for (int64_t i = 0; i < n; ++i) EXPECT_TRUE(matches_std_exp(x[size_t(i)], -0.37 * double(i))) << n;
            EXPECT_EQ(x[size_t(n)], 123.0) << name(path) << " wrote past n=" << n;
        }
}

// An argument's e^x has the same bits whatever its neighbours: a vector (or
// block) holding one that underflows, overflows or is NaN takes a slower
// path, which must give the others what the fast one gives.
TEST(FastExp, ResultDoesNotDependOnNeighbours) {
    std::mt19937_64 rng(9);
    std::uniform_real_distribution<double> kernel_range(-40.0, 0.0);
    std::vector<double> x(71);
    for (double &v : x) v = kernel_range(rng);
    const double odd_ones[] = {-720.0, -1000.0, 709.5, std::numeric_limits<double>::quiet_NaN()};
    for (ExpPath path : supported_paths()) {
        std::vector<double> alone = x, mixed = x;
        for (size_t i = 0; i < mixed.size(); i += 5) mixed[i] = odd_ones[(i / 5) % 4];
        kmx::exp_in_place(path, alone.data(), int64_t(alone.size()));
        kmx::exp_in_place(path, mixed.data(), int64_t(mixed.size()));
        for (size_t i = 0; i < x.size(); ++i)
            if (i % 5 != 0) EXPECT_EQ(mixed[i], alone[i]) << name(path) << ": exp(" << x[i] << ") at " << i;
    }
}

TEST(FastExp, GaussianRowFromGram) {
    // row = −2 a·b_j; D_j = row + sq_a + sq_b[j]; K = exp(−γ D_j) unless D_j ≤ floor.
    const int64_t size = 41;
    std::vector<double> sq_b(size), floor_b(size), gram(size);
    for (int64_t j = 0; j < size; ++j) {
        sq_b[size_t(j)] = 1.0 + 0.25 * double(j);
        floor_b[size_t(j)] = 1e-13 * sq_b[size_t(j)];
        gram[size_t(j)] = -(2.0 + sq_b[size_t(j)]) + 0.5 * double(j % 5);  // D_j = 0.5 (j mod 5)
    }
    gram[3] += 1e-14;                      // D = 1.5 + 1e-14: above the floor
    gram[10] = -(2.0 + sq_b[10]) + 1e-14;  // D tiny, below the floor: clamped
    gram[15] = -(2.0 + sq_b[15]) - 1e-3;   // D negative: clamped
    const double gamma = 0.7, sq_a = 2.0, floor_a = 1e-13 * sq_a;
    for (ExpPath path : supported_paths())
        for (int64_t n : {1, 7, 8, 15, 16, 21, 32, 40}) {
            std::vector<double> row = gram;
            kmx::gaussian_row_from_gram(path, row.data(), n, gamma, sq_a, sq_b.data(), floor_a, floor_b.data());
            for (int64_t j = 0; j < n; ++j) {
                const double dist2 = gram[size_t(j)] + (sq_a + sq_b[size_t(j)]);
                if (dist2 <= floor_a + floor_b[size_t(j)]) {
                    EXPECT_EQ(row[size_t(j)], 1.0) << name(path) << " j=" << j;
                } else {
                    EXPECT_TRUE(matches_std_exp(row[size_t(j)], -gamma * dist2)) << name(path) << " j=" << j;
                }
            }
            EXPECT_EQ(row[size_t(n)], gram[size_t(n)]) << name(path) << " wrote past n=" << n;
            if (n > 15) {
                EXPECT_EQ(row[10], 1.0) << name(path);
                EXPECT_EQ(row[15], 1.0) << name(path);
            }
        }
}

// The Gaussian pass over its whole range, D from 0 to past underflow (γD up
// to 800; e^−745.2 rounds to 0), against std::exp(−γD) within 2 ulp (the
// bound fast_exp.h states), never above 1; and every path within 4 ulp of
// the baseline's result.
TEST(FastExp, GaussianRowOverTheWholeRange) {
    std::mt19937_64 rng(11);
    const double gamma = 0.37;
    const int64_t n = 20000;
    std::vector<double> gram(n), sq_b(n), floor_b(n), dist2(n);
    std::uniform_real_distribution<double> norm(0.0, 50.0), scaled(0.0, 800.0 / gamma), tiny(0.0, 1e-6);
    const double sq_a = 7.0, floor_a = 1e-13 * sq_a;
    for (int64_t j = 0; j < n; ++j) {
        sq_b[size_t(j)] = norm(rng);
        floor_b[size_t(j)] = 1e-13 * sq_b[size_t(j)];
        const double d = j % 4 == 0 ? tiny(rng) : scaled(rng);  // a quarter near K = 1
        gram[size_t(j)] = d - (sq_a + sq_b[size_t(j)]);
        dist2[size_t(j)] = gram[size_t(j)] + (sq_a + sq_b[size_t(j)]);  // as the pass computes it
    }
    std::vector<double> baseline = gram;
    kmx::gaussian_row_from_gram(ExpPath::Baseline, baseline.data(), n, gamma, sq_a, sq_b.data(), floor_a,
                                floor_b.data());
    for (ExpPath path : supported_paths()) {
        std::vector<double> row = gram;
        kmx::gaussian_row_from_gram(path, row.data(), n, gamma, sq_a, sq_b.data(), floor_a, floor_b.data());
        int64_t bad = 0, zeros = 0;
        for (int64_t j = 0; j < n; ++j) {
            const double x = -gamma * dist2[size_t(j)], got = row[size_t(j)];
            ASSERT_LE(got, 1.0) << name(path);
            zeros += got == 0.0;
            const bool clamped = dist2[size_t(j)] <= floor_a + floor_b[size_t(j)];
            const bool ok = clamped ? got == 1.0 : matches_std_exp(got, x);
            const double gap = std::fabs(got - baseline[size_t(j)]);
            if ((!ok || gap > 2 * kRelative * got + kSubnormalUlp) && bad++ == 0)
                ADD_FAILURE() << name(path) << ": exp(" << x << ") = " << got << ", std::exp " << std::exp(x)
                              << ", baseline " << baseline[size_t(j)];
        }
        EXPECT_EQ(bad, 0) << name(path);
        EXPECT_GT(zeros, 0) << name(path) << ": the range should reach underflow";
    }
}

// γD beyond the largest double gives 0, not NaN; NaN distances give 1 (the
// clamp's comparison is false), as before.
TEST(FastExp, GaussianRowExtremeArguments) {
    const double big = 1e300;
    for (ExpPath path : supported_paths()) {
        double row[3] = {big, 1e10, std::numeric_limits<double>::quiet_NaN()};
        const double sq_b[3] = {0, 0, 0}, floor_b[3] = {0, 0, 0};
        kmx::gaussian_row_from_gram(path, row, 3, 1e10, 0.0, sq_b, 0.0, floor_b);
        EXPECT_EQ(row[0], 0.0) << name(path);
        EXPECT_EQ(row[1], 0.0) << name(path);
        EXPECT_EQ(row[2], 1.0) << name(path);
    }
}

// KMX_ISA caps the path the kernels use (the kernel_avx2 test sets it to
// avx2, as on an AMD Zen 3); unset, the fastest path the CPU supports.
TEST(FastExp, PathInUseFollowsKmxIsa) {
    const char *cap = std::getenv("KMX_ISA");
    ExpPath want = kmx::exp_path_supported(ExpPath::Avx512)    ? ExpPath::Avx512
                   : kmx::exp_path_supported(ExpPath::Avx2Fma) ? ExpPath::Avx2Fma
                                                               : ExpPath::Baseline;
    if (cap && std::string(cap) == "avx2" && want == ExpPath::Avx512) want = ExpPath::Avx2Fma;
    if (cap && std::string(cap) == "baseline") want = ExpPath::Baseline;
    EXPECT_EQ(name(kmx::exp_path_in_use()), std::string(name(want))) << "KMX_ISA=" << (cap ? cap : "(unset)");
}

// Large arguments, to past the largest finite result (ln DBL_MAX =
// 709.78...): within 2 ulp below it, +∞ above, in vectors that mix them with
// ordinary arguments (the portable coding's biased exponent holds up to 667:
// beyond, it scales in two steps).
TEST(FastExp, OverflowBoundary) {
    std::vector<double> x;
    for (int i = -400; i <= 400; ++i) x.push_back(709.0 + i * 2e-3);
    for (int i = 0; i < 200; ++i) x.push_back(600.0 + i * 0.5);
    for (double v : {709.7827128933840, 709.7827128933841, 710.0, 1e3, 1e300, kInf}) {
        x.push_back(v);
        x.push_back(-1.0);
    }
    expect_every_path_matches_std_exp(x);
}

}  // namespace
