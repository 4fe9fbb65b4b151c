// test_linalg.cpp — linalg.h against independent references: naive
// products, residuals, known spectra, the Moore–Penrose conditions.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <initializer_list>
#include <cstdio>
#include <limits>
#include <thread>
#include <vector>

#include "core/arena.h"
#include "linalg/linalg.h"
#include "linalg_test_util.h"

namespace kmx::linalg::testing {
namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();

const char *name(Trans t) { return t == Trans::No ? "N" : "T"; }
const char *name(Uplo u) { return u == Uplo::Lower ? "L" : "U"; }

// op(A) as an explicit matrix.
Matrix op(const Matrix &a, Trans t) { return t == Trans::No ? a : transpose(a); }

// A matrix stored so that op(stored) is rows x cols.
Matrix random_operand(int64_t rows, int64_t cols, Trans t, std::mt19937_64 &rng) {
    return t == Trans::No ? random_matrix(rows, cols, rng) : random_matrix(cols, rows, rng);
}

// alpha * x + beta * y, elementwise.
Matrix combine(double alpha, const Matrix &x, double beta, const Matrix &y) {
    Matrix z(x.rows, x.cols);
    for (int64_t i = 0; i < x.rows; ++i)
        for (int64_t j = 0; j < x.cols; ++j) z(i, j) = alpha * x(i, j) + beta * y(i, j);
    return z;
}

// ------------------------------------------------------------------ BLAS

// Calls f(m, n, k, trans_a, trans_b, threads) for each shape {m, n, k},
// each transpose of each operand and 1 and 2 threads, under a trace.
template <class F>
void for_each_gemm_case(std::initializer_list<std::array<int64_t, 3>> shapes, F &&f) {
    for (const auto &shape : shapes)
        for (Trans ta : {Trans::No, Trans::Yes})
            for (Trans tb : {Trans::No, Trans::Yes})
                for (int threads : {1, 2}) {
                    SCOPED_TRACE(::testing::Message() << "m=" << shape[0] << " n=" << shape[1] << " k=" << shape[2]
                                                      << " op=" << name(ta) << name(tb) << " threads=" << threads);
                    f(shape[0], shape[1], shape[2], ta, tb, threads);
                }
}

TEST(Gemm, MatchesNaiveProductForAllTransposesAndThreads) {
    std::mt19937_64 rng(11);
    const double alpha = -1.3, beta = 0.7;
    for_each_gemm_case({{7, 5, 3}, {1, 9, 4}, {13, 11, 17}, {64, 33, 65}, {5, 1, 1}, {3, 4, 0}},
                       [&](int64_t m, int64_t n, int64_t k, Trans ta, Trans tb, int threads) {
                           const Matrix a = random_operand(m, k, ta, rng), b = random_operand(k, n, tb, rng);
                           Matrix c = random_matrix(m, n, rng, 5);
                           const Matrix expected = combine(alpha, multiply(op(a, ta), op(b, tb)), beta, c);
                           gemm(ta, tb, m, n, k, alpha, a.p(), a.ld, b.p(), b.ld, beta, c.p(), c.ld, threads);
                           EXPECT_LT(relative_difference(c, expected), 1e-14);
                           EXPECT_TRUE(padding_intact(c));
                       });
}

// A Matrix's values rounded to float, padding included (ld kept).
std::vector<float> to_float(const Matrix &m) { return std::vector<float>(m.data.begin(), m.data.end()); }

// sgemm against the naive product of the same float values in double: each
// entry within 2 γ_k Σ|α a_il b_lj| + 2 u |β c_ij| + u |result| (u = 2⁻²⁴,
// γ_k = k u / (1 − k u), Higham §3.5; the factor 2 is headroom), and the
// padding (ld > cols) untouched.
// One sgemm case: fails on an entry beyond its bound or a written padding
// value; returns the largest error / bound.
double sgemm_error_over_bound(int64_t m, int64_t n, int64_t k, Trans ta, Trans tb, int threads, std::mt19937_64 &rng) {
    const float alpha = -1.25f, beta = 0.5f;
    const double u = 0x1p-24, gamma_k = double(k) * u / (1 - double(k) * u);
    const Matrix a = random_operand(m, k, ta, rng), b = random_operand(k, n, tb, rng), c0 = random_matrix(m, n, rng, 5);
    std::vector<float> af = to_float(a), bf = to_float(b), cf = to_float(c0);
    sgemm(ta, tb, m, n, k, alpha, af.data(), a.ld, bf.data(), b.ld, beta, cf.data(), c0.ld, threads);
    double worst = 0;
    for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j) {
            double exact = 0, magnitude = 0;
            for (int64_t l = 0; l < k; ++l) {
                const double ail = af[size_t(ta == Trans::No ? i * a.ld + l : l * a.ld + i)];
                const double blj = bf[size_t(tb == Trans::No ? l * b.ld + j : j * b.ld + l)];
                exact += ail * blj;
                magnitude += std::fabs(ail * blj);
            }
            const double c_ij = double(float(c0(i, j)));
            const double expected = alpha * exact + beta * c_ij, got = cf[size_t(i * c0.ld + j)];
            const double bound =
                2 * gamma_k * std::fabs(alpha) * magnitude + 2 * u * std::fabs(beta * c_ij) + u * std::fabs(got);
            EXPECT_LE(std::fabs(got - expected), bound) << "i=" << i << " j=" << j;
            worst = std::max(worst, std::fabs(got - expected) / bound);
        }
    for (int64_t i = 0; i < m; ++i)
        for (int64_t j = n; j < c0.ld; ++j) EXPECT_EQ(cf[size_t(i * c0.ld + j)], float(kPad));
    return worst;
}

TEST(Sgemm, MatchesNaiveLoopWithinFloatRounding) {
    std::mt19937_64 rng(12);
    double worst = 0;
    for_each_gemm_case({{7, 5, 3}, {13, 11, 300}, {64, 33, 65}, {1, 9, 4}, {3, 4, 0}},
                       [&](int64_t m, int64_t n, int64_t k, Trans ta, Trans tb, int threads) {
                           worst = std::max(worst, sgemm_error_over_bound(m, n, k, ta, tb, threads, rng));
                       });
    std::printf("  sgemm: largest error / bound %.3f\n", worst);
}

TEST(Gemm, BetaZeroOverwritesNaN) {
    std::mt19937_64 rng(12);
    const Matrix a = random_matrix(6, 4, rng), b = random_matrix(4, 5, rng);
    Matrix c(6, 5);
    for (int64_t i = 0; i < 6; ++i)
        for (int64_t j = 0; j < 5; ++j) c(i, j) = kNaN;
    gemm(Trans::No, Trans::No, 6, 5, 4, 2.0, a.p(), a.ld, b.p(), b.ld, 0.0, c.p(), c.ld, 1);
    EXPECT_LT(relative_difference(c, combine(2.0, multiply(a, b), 0.0, c)), 1e-14);
}

TEST(Gemm, TightLeadingDimensionsVectorsAndEmptyInner) {
    // ld == cols everywhere (1-column matrices have unit row and column
    // strides), and k = 0 with NULL operands: C = beta C.
    std::mt19937_64 rng(18);
    const int64_t shapes[][3] = {{5, 1, 1}, {1, 1, 1}, {1, 6, 3}, {4, 1, 7}, {6, 3, 1}};
    for (const auto &shape : shapes)
        for (Trans ta : {Trans::No, Trans::Yes})
            for (Trans tb : {Trans::No, Trans::Yes}) {
                const int64_t m = shape[0], n = shape[1], k = shape[2];
                SCOPED_TRACE(::testing::Message()
                             << "m=" << m << " n=" << n << " k=" << k << " op=" << name(ta) << name(tb));
                const Matrix a = ta == Trans::No ? random_matrix(m, k, rng, 0) : random_matrix(k, m, rng, 0);
                const Matrix b = tb == Trans::No ? random_matrix(k, n, rng, 0) : random_matrix(n, k, rng, 0);
                Matrix c = random_matrix(m, n, rng, 0);
                const Matrix expected = combine(1.0, multiply(op(a, ta), op(b, tb)), 0.5, c);
                gemm(ta, tb, m, n, k, 1.0, a.p(), a.ld, b.p(), b.ld, 0.5, c.p(), c.ld, 1);
                EXPECT_LT(relative_difference(c, expected), 1e-14);
            }
    Matrix c = random_matrix(3, 4, rng, 0);
    const Matrix expected = combine(0.25, c, 0, c);
    gemm(Trans::No, Trans::Yes, 3, 4, 0, 1.0, nullptr, 1, nullptr, 1, 0.25, c.p(), c.ld, 2);
    EXPECT_LT(relative_difference(c, expected), 1e-15);
    syrk(Uplo::Lower, Trans::No, 3, 0, 1.0, nullptr, 1, 0.25, c.p(), c.ld, 1);
    EXPECT_EQ(c(2, 0), 0.25 * expected(2, 0));
    EXPECT_EQ(c(0, 2), expected(0, 2));
}

TEST(Syrk, WritesItsTriangleOnly) {
    std::mt19937_64 rng(13);
    const int64_t shapes[][2] = {{9, 4}, {1, 3}, {33, 65}, {20, 0}};
    const double alpha = 0.9, beta = -0.4;
    for (const auto &shape : shapes)
        for (Uplo uplo : {Uplo::Lower, Uplo::Upper})
            for (Trans t : {Trans::No, Trans::Yes})
                for (int threads : {1, 2}) {
                    const int64_t n = shape[0], k = shape[1];
                    SCOPED_TRACE(::testing::Message()
                                 << "n=" << n << " k=" << k << " " << name(uplo) << name(t) << " threads=" << threads);
                    const Matrix a = random_operand(n, k, t, rng);
                    const Matrix c0 = random_matrix(n, n, rng, 4);
                    const Matrix full = combine(alpha, multiply(op(a, t), transpose(op(a, t))), beta, c0);
                    Matrix c = c0;
                    syrk(uplo, t, n, k, alpha, a.p(), a.ld, beta, c.p(), c.ld, threads);
                    const bool lower = uplo == Uplo::Lower;
                    double worst = 0;
                    for (int64_t i = 0; i < n; ++i)
                        for (int64_t j = 0; j < n; ++j) {
                            const bool written = lower ? j <= i : j >= i;
                            if (written)
                                worst = std::max(worst, std::fabs(c(i, j) - full(i, j)) / (1 + std::fabs(full(i, j))));
                            else
                                EXPECT_EQ(c(i, j), c0(i, j)) << "(" << i << "," << j << ") outside the triangle";
                        }
                    EXPECT_LT(worst, 1e-13);
                    EXPECT_TRUE(padding_intact(c));
                }
}

TEST(Gemv, MatchesNaiveProduct) {
    std::mt19937_64 rng(14);
    const int64_t shapes[][2] = {{7, 5}, {1, 9}, {40, 33}, {6, 0}, {0, 4}, {5, 1}};
    const double alpha = -0.8, beta = 0.5;
    for (const auto &shape : shapes)
        for (Trans t : {Trans::No, Trans::Yes})
            for (int threads : {1, 2}) {
                const int64_t m = shape[0], n = shape[1];
                SCOPED_TRACE(::testing::Message()
                             << "m=" << m << " n=" << n << " " << name(t) << " threads=" << threads);
                const Matrix a = random_matrix(m, n, rng, m % 2 ? 0 : 3);  // odd m: ld == n
                const int64_t nx = t == Trans::No ? n : m, ny = t == Trans::No ? m : n;
                const Matrix x = random_matrix(nx, 1, rng, 0), y0 = random_matrix(ny, 1, rng, 0);
                const Matrix expected = combine(alpha, multiply(op(a, t), x), beta, y0);
                Matrix y = y0;
                gemv(t, m, n, alpha, a.p(), a.ld, x.p(), beta, y.p(), threads);
                EXPECT_LT(relative_difference(y, expected), 1e-14);
            }
}

// A well-conditioned triangular matrix whose other triangle is NaN: it must not be read.
Matrix random_triangular(int64_t n, Uplo uplo, std::mt19937_64 &rng) {
    Matrix t = random_matrix(n, n, rng);
    for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < n; ++j) {
            if (i == j) t(i, j) = 3 + std::fabs(t(i, j));
            const bool outside = uplo == Uplo::Lower ? j > i : j < i;
            if (outside) t(i, j) = kNaN;
        }
    return t;
}

Matrix without_nan(const Matrix &t) {
    Matrix clean = t;
    for (auto &x : clean.data)
        if (std::isnan(x)) x = 0;
    return clean;
}

TEST(Trsm, SolvesEverySideTriangleAndTranspose) {
    std::mt19937_64 rng(15);
    const int64_t shapes[][2] = {{7, 5}, {4, 1}, {1, 3}};
    const double alpha = 1.7;
    for (const auto &shape : shapes)
        for (Side side : {Side::Left, Side::Right})
            for (Uplo uplo : {Uplo::Lower, Uplo::Upper})
                for (Trans trans : {Trans::No, Trans::Yes}) {
                    const int64_t m = shape[0], n = shape[1];
                    SCOPED_TRACE(::testing::Message() << m << " x " << n << (side == Side::Left ? " left " : " right ")
                                                      << name(uplo) << name(trans));
                    const Matrix t = random_triangular(side == Side::Left ? m : n, uplo, rng);
                    const Matrix b0 = random_matrix(m, n, rng, n == 1 ? 0 : 2);
                    Matrix x = b0;
                    trsm(side, uplo, trans, m, n, alpha, t.p(), t.ld, x.p(), x.ld);
                    const Matrix opt = op(without_nan(t), trans);
                    const Matrix product = side == Side::Left ? multiply(opt, x) : multiply(x, opt);
                    EXPECT_LT(relative_difference(product, combine(alpha, b0, 0, b0)), 1e-14);
                    EXPECT_TRUE(padding_intact(x));
                }
}

TEST(Trsv, SolvesEveryTriangleAndTranspose) {
    std::mt19937_64 rng(16);
    const int64_t n = 9;
    for (Uplo uplo : {Uplo::Lower, Uplo::Upper})
        for (Trans trans : {Trans::No, Trans::Yes}) {
            SCOPED_TRACE(::testing::Message() << name(uplo) << name(trans));
            const Matrix t = random_triangular(n, uplo, rng);
            const Matrix b = random_matrix(n, 1, rng, 0);
            Matrix x = b;
            trsv(uplo, trans, n, t.p(), t.ld, x.p());
            EXPECT_LT(relative_difference(multiply(op(without_nan(t), trans), x), b), 1e-14);
        }
}

TEST(Symmetrize, CopiesTheChosenTriangle) {
    std::mt19937_64 rng(17);
    for (Uplo from : {Uplo::Lower, Uplo::Upper}) {
        const Matrix a0 = random_matrix(6, 6, rng);
        Matrix a = a0;
        symmetrize(from, 6, a.p(), a.ld);
        for (int64_t i = 0; i < 6; ++i)
            for (int64_t j = 0; j < 6; ++j) {
                const bool source = from == Uplo::Lower ? j <= i : j >= i;
                EXPECT_EQ(a(i, j), source ? a0(i, j) : a0(j, i));
            }
        EXPECT_TRUE(padding_intact(a));
    }
}

TEST(BlasArguments, AreRejectedBeforeBlisSeesThem) {
    std::vector<double> buf(64, 1.0);
    double *p = buf.data();
    expect_status(KMX_E_INVALID_ARGUMENT, [&] { gemm(Trans::No, Trans::No, -1, 2, 2, 1, p, 2, p, 2, 0, p, 2, 1); });
    expect_status(KMX_E_INVALID_ARGUMENT, [&] { gemm(Trans::No, Trans::No, 2, 2, 3, 1, p, 2, p, 2, 0, p, 2, 1); });
    expect_status(KMX_E_INVALID_ARGUMENT, [&] { gemm(Trans::Yes, Trans::No, 3, 2, 2, 1, p, 2, p, 2, 0, p, 2, 1); });
    expect_status(KMX_E_INVALID_ARGUMENT,
                  [&] { gemm(Trans::No, Trans::No, 2, 2, 2, 1, p, 2, p, 2, 0, nullptr, 2, 1); });
    std::vector<float> floats(64, 1.0f);
    float *f = floats.data();
    expect_status(KMX_E_INVALID_ARGUMENT, [&] { sgemm(Trans::No, Trans::No, 2, -1, 2, 1, f, 2, f, 2, 0, f, 2, 1); });
    expect_status(KMX_E_INVALID_ARGUMENT, [&] { sgemm(Trans::No, Trans::Yes, 2, 3, 2, 1, f, 2, f, 1, 0, f, 3, 1); });
    expect_status(KMX_E_INVALID_ARGUMENT,
                  [&] { sgemm(Trans::No, Trans::No, 2, 2, 2, 1, nullptr, 2, f, 2, 0, f, 2, 1); });
    expect_status(KMX_E_INVALID_ARGUMENT, [&] { syrk(Uplo::Lower, Trans::No, 3, 2, 1, p, 2, 0, p, 2, 1); });
    expect_status(KMX_E_INVALID_ARGUMENT, [&] { gemv(Trans::No, 2, 3, 1, p, 3, nullptr, 0, p, 1); });
    expect_status(KMX_E_INVALID_ARGUMENT, [&] { trsm(Side::Right, Uplo::Lower, Trans::No, 4, 3, 1, p, 2, p, 3); });
    expect_status(KMX_E_INVALID_ARGUMENT, [&] { trsv(Uplo::Upper, Trans::No, 3, nullptr, 3, p); });
    expect_status(KMX_E_INVALID_ARGUMENT, [&] { symmetrize(Uplo::Upper, 3, p, 2); });
}

// -------------------------------------------------------------- Cholesky

// ‖L Lᵀ − A‖ / ‖A‖ (Lower) or ‖Uᵀ U − A‖ / ‖A‖ (Upper) from a factored matrix.
double cholesky_residual(const Matrix &factored, Uplo uplo, const Matrix &a) {
    const bool lower = uplo == Uplo::Lower;
    const Matrix f = triangle(factored, lower);
    return relative_difference(lower ? multiply(f, transpose(f)) : multiply(transpose(f), f), a);
}

TEST(Cholesky, FactorsRandomSpdMatricesInBothTriangles) {
    std::mt19937_64 rng(21);
    double worst = 0;
    for (int64_t n : {1, 2, 17, 100, 257})
        for (Uplo uplo : {Uplo::Lower, Uplo::Upper}) {
            SCOPED_TRACE(::testing::Message() << "n=" << n << " " << name(uplo));
            const Matrix a0 = random_spd(n, rng);
            Matrix a = a0;
            EXPECT_EQ(cholesky(uplo, n, a.p(), a.ld), 0.0);
            const double residual = cholesky_residual(a, uplo, a0);
            EXPECT_LT(residual, 1e-12);
            worst = std::max(worst, residual);
            EXPECT_TRUE(padding_intact(a));
        }
    std::printf("[ residual ] cholesky max ||LL^T - A||/||A|| = %.3g\n", worst);
}

TEST(Cholesky, ReadsOnlyItsTriangleAndMirrorsItIntoTheOther) {
    std::mt19937_64 rng(22);
    const int64_t n = 12;
    for (Uplo uplo : {Uplo::Lower, Uplo::Upper}) {
        const bool lower = uplo == Uplo::Lower;
        const Matrix a0 = random_spd(n, rng);
        Matrix a = a0;
        for (int64_t i = 0; i < n; ++i)
            for (int64_t j = 0; j < n; ++j)
                if (lower ? j > i : j < i) a(i, j) = kNaN;
        EXPECT_EQ(cholesky(uplo, n, a.p(), a.ld), 0.0);
        EXPECT_LT(cholesky_residual(a, uplo, a0), 1e-12);
        for (int64_t i = 0; i < n; ++i)
            for (int64_t j = 0; j < n; ++j)
                if (lower ? j > i : j < i) {
                    EXPECT_EQ(a(i, j), a0(i, j)) << "(" << i << "," << j << ")";
                }
    }
}

TEST(Cholesky, JitterRescuesARankDeficientGramMatrix) {
    std::mt19937_64 rng(23);
    const int64_t n = 30;
    const Matrix x = random_matrix(n, 3, rng);
    const Matrix gram = multiply(x, transpose(x));  // rank 3: singular, positive semi-definite
    double mean_diagonal = 0;
    for (int64_t i = 0; i < n; ++i) mean_diagonal += gram(i, i) / n;
    for (Uplo uplo : {Uplo::Lower, Uplo::Upper}) {
        SCOPED_TRACE(name(uplo));
        Matrix a = gram;
        const double jitter = cholesky(uplo, n, a.p(), a.ld);
        EXPECT_GT(jitter, 0);
        EXPECT_LE(jitter, 1e-4 * mean_diagonal * (1 + 1e-12));
        const double decade = std::log10(jitter / mean_diagonal);
        EXPECT_NEAR(decade, std::round(decade), 1e-9) << "jitter is not a power of ten times the mean diagonal";
        Matrix shifted = gram;
        for (int64_t i = 0; i < n; ++i) shifted(i, i) += jitter;
        EXPECT_LT(cholesky_residual(a, uplo, shifted), 1e-12);
        std::printf("[ jitter ] rank-3 Gram n=30 (%s): jitter %.3g = 10^%.0f x mean diagonal\n", name(uplo), jitter,
                    decade);
    }
}

TEST(Cholesky, WithoutJitterASingularMatrixFails) {
    std::mt19937_64 rng(24);
    const Matrix x = random_matrix(20, 2, rng);
    Matrix a = multiply(x, transpose(x));
    const std::string message = expect_status(KMX_E_NUMERICAL, [&] { cholesky(Uplo::Lower, 20, a.p(), a.ld, 0.0); });
    EXPECT_NE(message.find("pivot"), std::string::npos) << message;
}

TEST(Cholesky, NegativeDefiniteFailsNamingThePivot) {
    std::mt19937_64 rng(25);
    Matrix a = combine(-1, random_spd(15, rng), 0, identity(15));
    const std::string message = expect_status(KMX_E_NUMERICAL, [&] { cholesky(Uplo::Lower, 15, a.p(), a.ld); });
    EXPECT_NE(message.find("pivot 1 of 15"), std::string::npos) << message;
}

TEST(Cholesky, JitterScheduleEndsAtTheLimitItself) {
    // diag(5, 5, -1): mean diagonal 3; the third pivot needs jitter > 1.
    auto indefinite = [] {
        Matrix a(3, 3);
        a(0, 0) = a(1, 1) = 5;
        a(2, 2) = -1;
        return a;
    };
    Matrix a = indefinite();
    const std::string message = expect_status(KMX_E_NUMERICAL, [&] { cholesky(Uplo::Lower, 3, a.p(), a.ld); });
    EXPECT_NE(message.find("pivot 3 of 3"), std::string::npos) << message;

    a = indefinite();
    EXPECT_EQ(cholesky(Uplo::Lower, 3, a.p(), a.ld, 1.0), 3.0);  // the decade 1e0
    EXPECT_DOUBLE_EQ(a(2, 2), std::sqrt(2.0));
    a = indefinite();
    EXPECT_EQ(cholesky(Uplo::Upper, 3, a.p(), a.ld, 0.5), 1.5);  // 0.1 is too little, then the limit 0.5
    EXPECT_DOUBLE_EQ(a(2, 2), std::sqrt(0.5));
}

TEST(Cholesky, InvalidArgumentsThrowWithoutTouchingTheMatrix) {
    std::mt19937_64 rng(26);
    const Matrix a0 = random_spd(3, rng);
    Matrix a = a0;
    expect_status(KMX_E_INVALID_ARGUMENT, [&] { cholesky(Uplo::Lower, -1, a.p(), a.ld); });
    expect_status(KMX_E_INVALID_ARGUMENT, [&] { cholesky(Uplo::Lower, 3, a.p(), 2); });
    expect_status(KMX_E_INVALID_ARGUMENT, [&] { cholesky(Uplo::Lower, 3, nullptr, 3); });
    expect_status(KMX_E_INVALID_ARGUMENT, [&] { cholesky(Uplo::Lower, int64_t(1) << 31, a.p(), int64_t(1) << 31); });
    expect_status(KMX_E_INVALID_ARGUMENT, [&] { cholesky(Uplo::Lower, 3, a.p(), a.ld, -1e-4); });
    expect_status(KMX_E_INVALID_ARGUMENT, [&] { cholesky(Uplo::Lower, 3, a.p(), a.ld, kNaN); });
    a(1, 1) = kNaN;
    expect_status(KMX_E_INVALID_ARGUMENT, [&] { cholesky(Uplo::Lower, 3, a.p(), a.ld); });
    a(1, 1) = a0(1, 1);
    a(0, 2) = std::numeric_limits<double>::infinity();
    expect_status(KMX_E_INVALID_ARGUMENT, [&] { cholesky(Uplo::Upper, 3, a.p(), a.ld); });
    a(0, 2) = a0(0, 2);
    EXPECT_EQ(a.data, a0.data);
    EXPECT_EQ(cholesky(Uplo::Lower, 0, nullptr, 1), 0.0);
}

// ------------------------------------------------------- eigen-decomposition

// Symmetric matrix whose strict upper triangle is NaN (eig_sym reads the lower one).
Matrix lower_only(const Matrix &a) {
    Matrix b = a;
    for (int64_t i = 0; i < a.rows; ++i)
        for (int64_t j = i + 1; j < a.cols; ++j) b(i, j) = kNaN;
    return b;
}

Matrix random_symmetric(int64_t n, std::mt19937_64 &rng) {
    const Matrix x = random_matrix(n, n, rng);
    return combine(0.5, x, 0.5, transpose(x));
}

TEST(EigSym, ResidualOrthogonalityAndOrder) {
    std::mt19937_64 rng(31);
    double worst_residual = 0, worst_orthogonality = 0;
    for (int64_t n : {1, 2, 5, 40, 129}) {
        SCOPED_TRACE(::testing::Message() << "n=" << n);
        const Matrix a0 = random_symmetric(n, rng);
        Matrix a = lower_only(a0), vectors(n, n, 1), values(n, 1, 0);
        Arena scratch(eig_sym_workspace_bytes(n));
        eig_sym(n, a.p(), a.ld, values.p(), vectors.p(), vectors.ld, scratch);
        EXPECT_EQ(scratch.used(), 0u);
        EXPECT_EQ(scratch.peak(), scratch.capacity());
        for (int64_t i = 1; i < n; ++i) EXPECT_LE(values(i - 1, 0), values(i, 0));
        Matrix v_lambda = vectors;  // V Λ
        for (int64_t i = 0; i < n; ++i)
            for (int64_t j = 0; j < n; ++j) v_lambda(i, j) *= values(j, 0);
        const double residual = frobenius(subtract(multiply(a0, vectors), v_lambda)) / frobenius(a0);
        const double orthogonality = frobenius(subtract(multiply(transpose(vectors), vectors), identity(n)));
        EXPECT_LT(residual, 1e-13);
        EXPECT_LT(orthogonality, 1e-13);
        worst_residual = std::max(worst_residual, residual);
        worst_orthogonality = std::max(worst_orthogonality, orthogonality);
        EXPECT_TRUE(padding_intact(vectors));
    }
    std::printf("[ residual ] eig_sym max ||AV - VL||/||A|| = %.3g, max ||V^T V - I|| = %.3g\n", worst_residual,
                worst_orthogonality);
}

TEST(EigSym, RecoversAKnownSpectrum) {
    std::mt19937_64 rng(32);
    const std::vector<double> spectrum = {10, -3, 0, 2, -1, 1e-3, 10, 0, 50, -1, 5};
    const int64_t n = int64_t(spectrum.size());
    Matrix a = lower_only(with_spectrum(spectrum, rng)), values(n, 1, 0);
    Arena scratch(eig_sym_workspace_bytes(n));
    eig_sym(n, a.p(), a.ld, values.p(), nullptr, 0, scratch);
    std::vector<double> sorted = spectrum;
    std::sort(sorted.begin(), sorted.end());
    for (int64_t i = 0; i < n; ++i) EXPECT_NEAR(values(i, 0), sorted[size_t(i)], 1e-13 * 50) << "eigenvalue " << i;
}

TEST(EigSym, ValuesOnlyAndInPlaceVectorsAgree) {
    std::mt19937_64 rng(33);
    const int64_t n = 37;
    const Matrix a0 = random_symmetric(n, rng);
    Arena scratch(eig_sym_workspace_bytes(n));
    Matrix a = a0, vectors(n, n), values(n, 1, 0);
    eig_sym(n, a.p(), a.ld, values.p(), vectors.p(), vectors.ld, scratch);

    Matrix in_place = a0, in_place_values(n, 1, 0);
    eig_sym(n, in_place.p(), in_place.ld, in_place_values.p(), in_place.p(), in_place.ld, scratch);
    EXPECT_EQ(in_place_values.data, values.data);
    for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < n; ++j) EXPECT_EQ(in_place(i, j), vectors(i, j));

    Matrix values_only = a0, only_values(n, 1, 0);
    eig_sym(n, values_only.p(), values_only.ld, only_values.p(), nullptr, 0, scratch);
    EXPECT_LT(relative_difference(only_values, values), 1e-13);
}

// Q as an explicit matrix: Q I by apply_tridiagonal_q.
Matrix tridiagonal_q(int64_t n, const Matrix &reflectors, const std::vector<double> &tau) {
    Matrix q = identity(n);
    Arena scratch(apply_tridiagonal_q_workspace_bytes(n, n));
    apply_tridiagonal_q(Trans::No, n, n, reflectors.p(), reflectors.ld, tau.data(), q.p(), q.ld, scratch);
    return q;
}

TEST(Tridiagonalize, QTQtIsAAndQIsOrthogonal) {
    std::mt19937_64 rng(35);
    for (int64_t n : {1, 2, 5, 40, 129}) {
        SCOPED_TRACE(::testing::Message() << "n=" << n);
        const Matrix a0 = random_symmetric(n, rng);
        Matrix a = lower_only(a0), t(n, n);
        std::vector<double> diagonal(static_cast<size_t>(n)), off(static_cast<size_t>(n)), tau(static_cast<size_t>(n));
        Arena scratch(tridiagonalize_workspace_bytes(n));
        tridiagonalize(n, a.p(), a.ld, diagonal.data(), off.data(), tau.data(), scratch);
        EXPECT_EQ(scratch.used(), 0u);
        EXPECT_TRUE(padding_intact(a));
        for (int64_t i = 0; i < n; ++i) {
            t(i, i) = diagonal[size_t(i)];
            if (i + 1 < n) t(i, i + 1) = t(i + 1, i) = off[size_t(i)];
        }
        const Matrix q = tridiagonal_q(n, a, tau);
        EXPECT_LT(frobenius(subtract(multiply(multiply(q, t), transpose(q)), a0)) / frobenius(a0), 1e-13);
        EXPECT_LT(frobenius(subtract(multiply(transpose(q), q), identity(n))), 1e-13);
    }
}

TEST(Tridiagonalize, QAndItsTransposeApplyToRowMajorColumns) {
    std::mt19937_64 rng(36);
    const int64_t n = 30;
    Matrix a = lower_only(random_symmetric(n, rng));
    std::vector<double> diagonal(static_cast<size_t>(n)), off(static_cast<size_t>(n)), tau(static_cast<size_t>(n));
    Arena scratch(tridiagonalize_workspace_bytes(n));
    tridiagonalize(n, a.p(), a.ld, diagonal.data(), off.data(), tau.data(), scratch);
    const Matrix q = tridiagonal_q(n, a, tau);
    for (int64_t k : {1, 3}) {
        SCOPED_TRACE(::testing::Message() << "k=" << k);
        const Matrix b0 = random_matrix(n, k, rng);
        Matrix b = b0;
        Arena apply_scratch(apply_tridiagonal_q_workspace_bytes(n, k));
        apply_tridiagonal_q(Trans::Yes, n, k, a.p(), a.ld, tau.data(), b.p(), b.ld, apply_scratch);
        EXPECT_LT(relative_difference(b, multiply(transpose(q), b0)), 1e-13);
        apply_tridiagonal_q(Trans::No, n, k, a.p(), a.ld, tau.data(), b.p(), b.ld, apply_scratch);
        EXPECT_LT(relative_difference(b, b0), 1e-13);
        EXPECT_TRUE(padding_intact(b));
    }
}

TEST(Tridiagonalize, InvalidArgumentsThrow) {
    std::vector<double> buf(16, 1.0);
    double *p = buf.data();
    Arena scratch(tridiagonalize_workspace_bytes(3));
    expect_status(KMX_E_INVALID_ARGUMENT, [&] { tridiagonalize(3, p, 2, p, p, p, scratch); });
    expect_status(KMX_E_INVALID_ARGUMENT, [&] { tridiagonalize(3, p, 3, nullptr, p, p, scratch); });
    expect_status(KMX_E_INVALID_ARGUMENT, [&] { apply_tridiagonal_q(Trans::No, 3, 2, p, 3, nullptr, p, 2, scratch); });
    expect_status(KMX_E_INVALID_ARGUMENT, [&] { apply_tridiagonal_q(Trans::No, 3, 2, p, 3, p, p, 1, scratch); });
    buf[3] = kNaN;  // A(1,0)
    expect_status(KMX_E_INVALID_ARGUMENT, [&] { tridiagonalize(3, p, 3, p + 9, p + 12, p + 14, scratch); });
    expect_status(KMX_E_UNSUPPORTED, [] { tridiagonalize_workspace_bytes(40000); });
    EXPECT_EQ(tridiagonalize_workspace_bytes(0), 0u);
    EXPECT_EQ(apply_tridiagonal_q_workspace_bytes(1, 4), 0u);
}

TEST(EigSym, UndersizedArenaIsAnInternalError) {
    std::mt19937_64 rng(34);
    const int64_t n = 20;
    Matrix a = random_symmetric(n, rng), values(n, 1, 0);
    Arena scratch(eig_sym_workspace_bytes(n) - kArenaAlignment);
    expect_status(KMX_E_INTERNAL, [&] { eig_sym(n, a.p(), a.ld, values.p(), a.p(), a.ld, scratch); });
    EXPECT_EQ(scratch.used(), 0u);
}

TEST(EigSym, InvalidArgumentsThrow) {
    std::vector<double> buf(16, 1.0);
    double *p = buf.data();
    Arena scratch(eig_sym_workspace_bytes(3));
    expect_status(KMX_E_INVALID_ARGUMENT, [&] { eig_sym(-2, p, 3, p, nullptr, 3, scratch); });
    expect_status(KMX_E_INVALID_ARGUMENT, [&] { eig_sym(3, p, 2, p + 9, nullptr, 3, scratch); });
    expect_status(KMX_E_INVALID_ARGUMENT, [&] { eig_sym(3, p, 3, nullptr, nullptr, 3, scratch); });
    expect_status(KMX_E_INVALID_ARGUMENT, [&] { eig_sym(3, nullptr, 3, p, nullptr, 3, scratch); });
    expect_status(KMX_E_INVALID_ARGUMENT, [&] { eig_sym(3, p, 3, p + 9, p + 9, 2, scratch); });
    expect_status(KMX_E_INVALID_ARGUMENT, [&] { eig_sym(2, p, 3, p + 9, p, 2, scratch); });
    buf[3] = kNaN;  // A(1,0)
    expect_status(KMX_E_INVALID_ARGUMENT, [&] { eig_sym(3, p, 3, p + 9, nullptr, 3, scratch); });
    expect_status(KMX_E_UNSUPPORTED, [&] { eig_sym(40000, p, 40000, p, nullptr, 1, scratch); });
    expect_status(KMX_E_UNSUPPORTED, [] { eig_sym_workspace_bytes(40000); });
    expect_status(KMX_E_INVALID_ARGUMENT, [] { eig_sym_workspace_bytes(-1); });
    EXPECT_EQ(eig_sym_workspace_bytes(0), 0u);
    eig_sym(0, nullptr, 1, nullptr, nullptr, 1, scratch);
}

// -------------------------------------------------------- pseudo-inverses

// The four Moore–Penrose conditions for X = A⁺, as relative residuals.
struct PenroseResiduals {
    double axa, xax, ax_symmetric, xa_symmetric;
};

PenroseResiduals penrose(const Matrix &a, const Matrix &x) {
    const Matrix ax = multiply(a, x), xa = multiply(x, a);
    return {relative_difference(multiply(ax, a), a), relative_difference(multiply(xa, x), x),
            relative_difference(transpose(ax), ax), relative_difference(transpose(xa), xa)};
}

void expect_penrose(const Matrix &a, const Matrix &x, double tolerance) {
    const PenroseResiduals r = penrose(a, x);
    EXPECT_LT(r.axa, tolerance) << "A X A = A";
    EXPECT_LT(r.xax, tolerance) << "X A X = X";
    EXPECT_LT(r.ax_symmetric, tolerance) << "(A X)ᵀ = A X";
    EXPECT_LT(r.xa_symmetric, tolerance) << "(X A)ᵀ = X A";
}

// pinv of a copy of a into a fresh n x m matrix with an arena of the advertised size.
Matrix pseudo_inverse(const Matrix &a, int64_t *rank, double rcond = -1) {
    Matrix work = a, x(a.cols, a.rows, 2);
    for (auto &v : x.data) v = v == kPad ? kPad : 99;  // must all be overwritten
    Arena scratch(pinv_workspace_bytes(a.rows, a.cols));
    *rank = pinv(a.rows, a.cols, work.p(), work.ld, x.p(), x.ld, scratch, rcond);
    EXPECT_EQ(scratch.used(), 0u);
    EXPECT_EQ(scratch.peak(), scratch.capacity());
    EXPECT_TRUE(padding_intact(x));
    return x;
}

Matrix symmetric_pseudo_inverse(const Matrix &a, int64_t *rank, double rcond = -1) {
    Matrix work = a, x(a.rows, a.rows, 2);
    Arena scratch(pinv_sym_workspace_bytes(a.rows));
    *rank = pinv_sym(a.rows, work.p(), work.ld, x.p(), x.ld, scratch, rcond);
    EXPECT_EQ(scratch.used(), 0u);
    EXPECT_EQ(scratch.peak(), scratch.capacity());
    EXPECT_TRUE(padding_intact(x));
    for (int64_t i = 0; i < a.rows; ++i)
        for (int64_t j = 0; j < i; ++j) EXPECT_EQ(x(i, j), x(j, i));
    return x;
}

TEST(Pinv, SatisfiesMoorePenroseOnRankDeficientAndRectangularMatrices) {
    std::mt19937_64 rng(41);
    const int64_t shapes[][3] = {{8, 8, 3}, {12, 5, 5}, {12, 5, 2}, {4, 9, 4}, {5, 11, 2}, {1, 6, 1}, {6, 1, 1}};
    double worst = 0;
    for (const auto &shape : shapes) {
        const int64_t m = shape[0], n = shape[1], r = shape[2];
        SCOPED_TRACE(::testing::Message() << m << " x " << n << " rank " << r);
        const Matrix a = random_of_rank(m, n, r, rng);
        int64_t rank = -1;
        const Matrix x = pseudo_inverse(a, &rank);
        EXPECT_EQ(rank, r);
        expect_penrose(a, x, 1e-12);
        const PenroseResiduals p = penrose(a, x);
        worst = std::max({worst, p.axa, p.xax, p.ax_symmetric, p.xa_symmetric});
    }
    std::printf("[ residual ] pinv worst Moore-Penrose relative residual = %.3g\n", worst);
}

// Gauss–Jordan inverse with partial pivoting (the independent reference).
Matrix gauss_jordan_inverse(Matrix a) {
    const int64_t n = a.rows;
    Matrix inv = identity(n);
    for (int64_t col = 0; col < n; ++col) {
        int64_t pivot = col;
        for (int64_t i = col + 1; i < n; ++i)
            if (std::fabs(a(i, col)) > std::fabs(a(pivot, col))) pivot = i;
        for (int64_t j = 0; j < n; ++j) {
            std::swap(a(col, j), a(pivot, j));
            std::swap(inv(col, j), inv(pivot, j));
        }
        const double d = a(col, col);
        for (int64_t j = 0; j < n; ++j) {
            a(col, j) /= d;
            inv(col, j) /= d;
        }
        for (int64_t i = 0; i < n; ++i) {
            if (i == col) continue;
            const double f = a(i, col);
            for (int64_t j = 0; j < n; ++j) {
                a(i, j) -= f * a(col, j);
                inv(i, j) -= f * inv(col, j);
            }
        }
    }
    return inv;
}

TEST(Pinv, OfAnInvertibleMatrixIsItsInverse) {
    std::mt19937_64 rng(42);
    const int64_t n = 25;
    Matrix a = random_matrix(n, n, rng);
    for (int64_t i = 0; i < n; ++i) a(i, i) += 8;
    int64_t rank = -1;
    const Matrix x = pseudo_inverse(a, &rank);
    EXPECT_EQ(rank, n);
    const double difference = relative_difference(x, gauss_jordan_inverse(a));
    EXPECT_LT(difference, 1e-13);
    std::printf("[ residual ] pinv vs Gauss-Jordan inverse (n=25): %.3g\n", difference);
}

TEST(Pinv, SymmetricAndGeneralAgreeOnSymmetricInput) {
    std::mt19937_64 rng(43);
    const int64_t n = 10;
    const Matrix x = random_matrix(n, 2, rng), y = random_matrix(n, 2, rng);
    const Matrix s = subtract(multiply(x, transpose(x)), multiply(y, transpose(y)));  // indefinite, rank 4
    int64_t rank_general = -1, rank_symmetric = -1;
    const Matrix general = pseudo_inverse(s, &rank_general);
    const Matrix symmetric = symmetric_pseudo_inverse(lower_only(s), &rank_symmetric);
    EXPECT_EQ(rank_general, 4);
    EXPECT_EQ(rank_symmetric, 4);
    EXPECT_LT(relative_difference(symmetric, general), 1e-12);
    expect_penrose(s, symmetric, 1e-12);
}

TEST(PinvSym, InvertsTheKeptEigenvalues) {
    std::mt19937_64 rng(44);
    const std::vector<double> spectrum = {4, -2, 0, 0, 1, 1e-3};
    const int64_t n = int64_t(spectrum.size());
    const Matrix q = random_orthogonal(n, rng);
    auto q_diag_qt = [&](auto f) {
        Matrix scaled = q;
        for (int64_t i = 0; i < n; ++i)
            for (int64_t j = 0; j < n; ++j) scaled(i, j) *= f(spectrum[size_t(j)]);
        return multiply(scaled, transpose(q));
    };
    const Matrix a = q_diag_qt([](double v) { return v; });
    int64_t rank = -1;
    const Matrix x = symmetric_pseudo_inverse(a, &rank);
    EXPECT_EQ(rank, 4);
    EXPECT_LT(relative_difference(x, q_diag_qt([](double v) { return v == 0 ? 0 : 1 / v; })), 1e-11);

    const Matrix truncated = symmetric_pseudo_inverse(a, &rank, 1e-2);  // drops 1e-3 (< 1e-2 * 4)
    EXPECT_EQ(rank, 3);
    EXPECT_LT(relative_difference(truncated, q_diag_qt([](double v) { return std::fabs(v) < 0.01 ? 0 : 1 / v; })),
              1e-13);
}

TEST(Pinv, RcondDropsSmallSingularValues) {
    std::mt19937_64 rng(45);
    // A = U diag(1, 1e-3, 1e-8) Vᵀ, 5 x 3, with orthonormal U (5 x 3) and V.
    const Matrix u5 = random_orthogonal(5, rng), v = random_orthogonal(3, rng);
    const double sigma[] = {1, 1e-3, 1e-8};
    Matrix u_sigma(5, 3);
    for (int64_t i = 0; i < 5; ++i)
        for (int64_t j = 0; j < 3; ++j) u_sigma(i, j) = u5(i, j) * sigma[j];
    const Matrix a = multiply(u_sigma, transpose(v));
    int64_t rank = -1;
    const Matrix full = pseudo_inverse(a, &rank);
    EXPECT_EQ(rank, 3);
    EXPECT_NEAR(frobenius(full), std::sqrt(1 + 1e6 + 1e16), 1e-6 * 1e8);  // ‖A⁺‖_F² = Σ 1/σ²
    const Matrix truncated = pseudo_inverse(a, &rank, 1e-6);
    EXPECT_EQ(rank, 2);
    EXPECT_NEAR(frobenius(truncated), std::sqrt(1 + 1e6), 1e-9 * 1e3);
}

TEST(Pinv, ZeroMatrixHasRankZeroAndAZeroInverse) {
    const Matrix zero(4, 3);
    int64_t rank = -1;
    const Matrix x = pseudo_inverse(zero, &rank);
    EXPECT_EQ(rank, 0);
    EXPECT_EQ(frobenius(x), 0.0);
    const Matrix xs = symmetric_pseudo_inverse(Matrix(4, 4), &rank);
    EXPECT_EQ(rank, 0);
    EXPECT_EQ(frobenius(xs), 0.0);
}

TEST(Pinv, InvalidArgumentsThrow) {
    std::vector<double> buf(64, 1.0);
    double *p = buf.data();
    Arena scratch(pinv_workspace_bytes(4, 3) + pinv_sym_workspace_bytes(4));
    expect_status(KMX_E_INVALID_ARGUMENT, [&] { pinv(-1, 3, p, 3, p + 32, 4, scratch); });
    expect_status(KMX_E_INVALID_ARGUMENT, [&] { pinv(4, 3, p, 2, p + 32, 4, scratch); });
    expect_status(KMX_E_INVALID_ARGUMENT, [&] { pinv(4, 3, p, 3, p + 32, 3, scratch); });  // out is 3 x 4
    expect_status(KMX_E_INVALID_ARGUMENT, [&] { pinv(4, 3, p, 3, nullptr, 4, scratch); });
    expect_status(KMX_E_INVALID_ARGUMENT, [&] { pinv(4, 3, p, 4, p, 4, scratch); });
    expect_status(KMX_E_INVALID_ARGUMENT, [&] { pinv(4, 3, p, 3, p + 32, 4, scratch, kNaN); });
    expect_status(KMX_E_INVALID_ARGUMENT, [&] { pinv_sym(4, p, 4, p, 4, scratch); });
    expect_status(KMX_E_INVALID_ARGUMENT, [&] { pinv_sym(4, p, 4, p + 32, 3, scratch); });
    expect_status(KMX_E_INVALID_ARGUMENT, [&] { pinv_workspace_bytes(int64_t(1) << 31, 2); });
    buf[5] = std::numeric_limits<double>::infinity();
    expect_status(KMX_E_INVALID_ARGUMENT, [&] { pinv(4, 3, p, 3, p + 32, 4, scratch); });
    expect_status(KMX_E_INVALID_ARGUMENT, [&] { pinv_sym(4, p, 4, p + 32, 4, scratch); });
    EXPECT_EQ(pinv(0, 3, nullptr, 3, nullptr, 1, scratch), 0);
    EXPECT_EQ(pinv_sym(0, nullptr, 1, nullptr, 1, scratch), 0);
}

// ------------------------------------------------------------- threading

// Everything one thread computes in ConcurrentCallsMatchSerialResults.
struct Results {
    std::vector<double> factor, values, inverse;
    bool operator==(const Results &o) const { return factor == o.factor && values == o.values && inverse == o.inverse; }
};

Results compute(uint64_t seed) {
    std::mt19937_64 rng(seed);
    const int64_t n = 48;
    Matrix spd = random_spd(n, rng), symmetric = random_symmetric(n, rng), values(n, 1, 0);
    Matrix general = random_of_rank(n, n - 5, 20, rng), inverse(n - 5, n);
    cholesky(Uplo::Lower, n, spd.p(), spd.ld);
    Arena scratch(std::max(eig_sym_workspace_bytes(n), pinv_workspace_bytes(n, n - 5)));
    eig_sym(n, symmetric.p(), symmetric.ld, values.p(), symmetric.p(), symmetric.ld, scratch);
    pinv(n, n - 5, general.p(), general.ld, inverse.p(), inverse.ld, scratch);
    return {spd.data, values.data, inverse.data};
}

TEST(Threads, ConcurrentCallsMatchSerialResults) {
    const Results expected[2] = {compute(1), compute(2)};
    std::vector<int> mismatches(2, 0);
    std::vector<std::thread> threads;
    for (int t = 0; t < 2; ++t)
        threads.emplace_back([&, t] {
            for (int repeat = 0; repeat < 25; ++repeat)
                if (!(compute(uint64_t(t + 1)) == expected[t])) ++mismatches[size_t(t)];
        });
    for (auto &thread : threads) thread.join();
    EXPECT_EQ(mismatches[0], 0);
    EXPECT_EQ(mismatches[1], 0);
}

}  // namespace
}  // namespace kmx::linalg::testing
