// test_kernel_f32.cpp — kernel_block_f32 and kernel_block_rows_f32 against
// kernel_block in double on the same (float) values: each entry within a
// first-order bound of float32's rounding, stated per kernel below.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "../common/kernel_spec.h"
#include "core/arena.h"
#include "core/dataset.h"
#include "core/error.h"
#include "kernel/kernel.h"
#include "../linalg/linalg_test_util.h"

namespace {

using kmx::KernelSpec;

constexpr double kU = 0x1p-24;   // float's unit roundoff
constexpr double kHeadroom = 2;  // the stated factor: every error is at most twice its first-order bound

using test_common::kernel_spec;

std::vector<float> random_floats(int64_t count, std::mt19937_64 &rng) {
    std::uniform_real_distribution<float> value(-1.0f, 1.0f);
    std::vector<float> x(static_cast<size_t>(count));
    for (float &v : x) v = value(rng);
    return x;
}

double gamma_n(int64_t n) { return double(n) * kU / (1 - double(n) * kU); }

// First-order bound on |K32 − K64| for rows a, b (float values, d columns):
// the float32 dot product is within γ_d Σ|a_k b_k| of exact (Higham §3.1),
// the rest is double until one final rounding (u |K|).
//   linear      e_dot + u|K|
//   sigmoid     γ e_dot + u               (tanh' ≤ 1)
//   polynomial  deg (|t| + γ e_dot)^(deg−1) γ e_dot + u|K|,  t = γ a·b + c0
//   RBF         γ (2 e_dot + floor) + u   (exp(−γD)' ≤ γ; floor: the clamp, 2 γ_{d+2} (‖a‖² + ‖b‖²))
//   Laplacian   u|K|                      (double, rounded once)
double first_order_bound(const KernelSpec &spec, const float *a, const float *b, int64_t d, double k64) {
    const double gamma = spec.gamma;
    double dot = 0, abs_dot = 0, norms = 0;
    for (int64_t k = 0; k < d; ++k) {
        dot += double(a[k]) * double(b[k]);
        abs_dot += std::fabs(double(a[k]) * double(b[k]));
        norms += double(a[k]) * double(a[k]) + double(b[k]) * double(b[k]);
    }
    const double e_dot = gamma_n(d) * abs_dot, rounding = kU * std::fabs(k64);
    switch (spec.type) {
        case KMX_KERNEL_LINEAR:
            return e_dot + rounding;
        case KMX_KERNEL_SIGMOID:
            return gamma * e_dot + kU;
        case KMX_KERNEL_POLYNOMIAL: {
            const double t = std::fabs(gamma * dot + spec.coef0) + gamma * e_dot;
            return spec.degree * std::pow(t, spec.degree - 1) * gamma * e_dot + rounding;
        }
        case KMX_KERNEL_RBF:
            return gamma * (2 * e_dot + 2 * gamma_n(d + 2) * norms) + kU;
        default:
            return rounding;
    }
}

struct Blocks {
    std::vector<float> k32;
    std::vector<double> k64;
};

// The float32 block and the double block of the same values (a: na x d, b: nb x d).
Blocks both_blocks(const KernelSpec &spec, const std::vector<float> &a, int64_t na, const std::vector<float> &b,
                   int64_t nb, int64_t d, int threads) {
    const std::vector<double> a64(a.begin(), a.end()), b64(b.begin(), b.end());
    Blocks out{std::vector<float>(size_t(na * nb)), std::vector<double>(size_t(na * nb))};
    kmx::Arena scratch32(kmx::kernel_block_f32_workspace_bytes(spec, na, nb, d));
    kmx::Arena scratch64(kmx::kernel_block_workspace_bytes(spec, na, nb, d));
    kmx::kernel_block_f32(spec, a.data(), na, d, b.data(), nb, d, d, out.k32.data(), nb, scratch32, threads);
    kmx::kernel_block(spec, a64.data(), na, d, b64.data(), nb, d, d, out.k64.data(), nb, scratch64, threads);
    return out;
}

TEST(KernelBlockF32, EveryKernelWithinTwiceItsFloatBound) {
    const KernelSpec specs[] = {
        kernel_spec(KMX_KERNEL_RBF, 0.05),           kernel_spec(KMX_KERNEL_RBF, 2.0),
        kernel_spec(KMX_KERNEL_LINEAR, 1.0),         kernel_spec(KMX_KERNEL_POLYNOMIAL, 0.1, 1.0, 3),
        kernel_spec(KMX_KERNEL_SIGMOID, 0.05, -0.5), kernel_spec(KMX_KERNEL_LAPLACIAN, 0.1)};
    std::mt19937_64 rng(5);
    const int64_t na = 37, nb = 53;
    for (int64_t d : {1, 16, 300})
        for (const KernelSpec &spec : specs)
            for (int threads : {1, 2}) {
                SCOPED_TRACE(::testing::Message() << "kernel " << int(spec.type) << " gamma " << spec.gamma << " d "
                                                  << d << " threads " << threads);
                const std::vector<float> a = random_floats(na * d, rng), b = random_floats(nb * d, rng);
                const Blocks k = both_blocks(spec, a, na, b, nb, d, threads);
                double worst = 0;
                for (int64_t i = 0; i < na; ++i)
                    for (int64_t j = 0; j < nb; ++j) {
                        const double k64 = k.k64[size_t(i * nb + j)], k32 = k.k32[size_t(i * nb + j)];
                        const double bound = first_order_bound(spec, &a[size_t(i * d)], &b[size_t(j * d)], d, k64);
                        ASSERT_LE(std::fabs(k32 - k64), kHeadroom * bound) << "i " << i << " j " << j;
                        worst = std::max(worst, std::fabs(k32 - k64) / bound);
                    }
                if (threads == 1)
                    std::printf("  kernel %d d %3lld: error / bound %.3f\n", int(spec.type), (long long)d, worst);
            }
}

// The Laplacian is kernel_block's double loop rounded once: exactly float(K64).
TEST(KernelBlockF32, LaplacianIsTheDoubleBlockRounded) {
    std::mt19937_64 rng(6);
    const int64_t na = 300, nb = 41, d = 19;  // more rows than one double chunk
    const std::vector<float> a = random_floats(na * d, rng), b = random_floats(nb * d, rng);
    const Blocks k = both_blocks(kernel_spec(KMX_KERNEL_LAPLACIAN, 0.2), a, na, b, nb, d, 2);
    for (size_t e = 0; e < k.k32.size(); ++e) ASSERT_EQ(k.k32[e], float(k.k64[e])) << e;
}

// The clamp at float's noise floor: identical rows give exactly 1, and no
// value exceeds 1, even for rows far from the origin (‖a‖² ≫ D).
TEST(KernelBlockF32, IdenticalRowsGiveExactlyOneAndNothingExceedsOne) {
    std::mt19937_64 rng(7);
    const int64_t n = 40, d = 64;
    std::vector<float> x = random_floats(n * d, rng);
    for (float &v : x) v += 30.0f;
    std::vector<float> out(size_t(n * n));
    const KernelSpec rbf = kernel_spec(KMX_KERNEL_RBF, 0.5);
    kmx::Arena scratch(kmx::kernel_block_f32_workspace_bytes(rbf, n, n, d));
    kmx::kernel_block_f32(rbf, x.data(), n, d, x.data(), n, d, d, out.data(), n, scratch, 1);
    for (int64_t i = 0; i < n; ++i) {
        EXPECT_EQ(out[size_t(i * n + i)], 1.0f) << i;
        for (int64_t j = 0; j < n; ++j) EXPECT_LE(out[size_t(i * n + j)], 1.0f);
    }
}

TEST(KernelBlockF32, RejectsBadShapesAndWritesNothingForEmptyBlocks) {
    using kmx::linalg::testing::expect_status;
    std::vector<float> x(64, 1.0f), out(64, -3.0f);
    float *p = x.data(), *o = out.data();
    kmx::Arena scratch(1 << 16);
    const KernelSpec rbf = kernel_spec(KMX_KERNEL_RBF, 1), degree_zero = kernel_spec(KMX_KERNEL_POLYNOMIAL, 1, 0, 0);
    const std::string negative = expect_status(
        KMX_E_INVALID_ARGUMENT, [&] { kmx::kernel_block_f32(rbf, p, -1, 2, p, 2, 2, 2, o, 2, scratch, 1); });
    EXPECT_NE(negative.find("negative size"), std::string::npos) << negative;
    expect_status(KMX_E_INVALID_ARGUMENT, [&] { kmx::kernel_block_f32(rbf, p, 2, 1, p, 2, 2, 2, o, 2, scratch, 1); });
    expect_status(KMX_E_INVALID_ARGUMENT, [&] { kmx::kernel_block_f32(rbf, p, 2, 2, p, 3, 2, 2, o, 2, scratch, 1); });
    const std::string degree = expect_status(
        KMX_E_INVALID_ARGUMENT, [&] { kmx::kernel_block_f32(degree_zero, p, 2, 2, p, 2, 2, 2, o, 2, scratch, 1); });
    EXPECT_NE(degree.find("degree 0"), std::string::npos) << degree;
    kmx::kernel_block_f32(rbf, p, 0, 2, p, 2, 2, 2, o, 2, scratch, 1);
    EXPECT_EQ(out[0], -3.0f);
}

// Row ranges of datasets: float32 rows in place (the same call: equal bits),
// double rows rounded to float and sparse rows expanded, in tiles of 256 rows
// (within 4 float ulps of the one call on the rounded values).
TEST(KernelBlockRowsF32, DenseFloatDoubleAndSparseAgree) {
    std::mt19937_64 rng(8);
    const int64_t n = 600, m = 70, d = 12;
    std::vector<double> x64(size_t(n * d));
    std::uniform_real_distribution<double> value(-1, 1);
    std::bernoulli_distribution zero(0.4);
    for (double &v : x64) v = zero(rng) ? 0.0 : value(rng);
    const std::vector<float> x32(x64.begin(), x64.end());
    const auto dense64 = kmx::Dataset::dense_borrow(x64.data(), n, d, nullptr);
    kmx::Dataset dense32;
    dense32.n = n;
    dense32.d = d;
    dense32.x32 = x32.data();
    std::vector<int64_t> row_ptr{0};
    std::vector<int32_t> col;
    std::vector<double> values;
    for (int64_t i = 0; i < n; ++i) {
        for (int64_t k = 0; k < d; ++k)
            if (x64[size_t(i * d + k)] != 0) {
                col.push_back(int32_t(k));
                values.push_back(x64[size_t(i * d + k)]);
            }
        row_ptr.push_back(int64_t(col.size()));
    }
    kmx::Dataset sparse;
    sparse.n = n;
    sparse.d = d;
    sparse.row_ptr = row_ptr.data();
    sparse.col = col.data();
    sparse.values = values.data();

    const KernelSpec rbf = kernel_spec(KMX_KERNEL_RBF, 0.3);
    const int64_t begin = 17, end = 530;  // rows of the first dataset; centers: rows [0, m) of the second
    std::vector<float> expected(size_t((end - begin) * m));
    kmx::Arena arena(64 << 20);
    kmx::kernel_block_f32(rbf, x32.data() + begin * d, end - begin, d, x32.data(), m, d, d, expected.data(), m, arena,
                          1);
    const kmx::Dataset *datasets[] = {&dense32, dense64.get(), &sparse};
    for (const kmx::Dataset *data : datasets) {
        const size_t bytes = kmx::kernel_block_rows_f32_workspace_bytes(rbf, *data, end - begin, *data, m);
        kmx::Arena scratch(bytes);
        std::vector<float> got(expected.size());
        kmx::kernel_block_rows_f32(rbf, *data, begin, end, *data, 0, m, got.data(), m, scratch, 2);
        for (size_t e = 0; e < got.size(); ++e) {
            if (data == &dense32)
                ASSERT_EQ(got[e], expected[e]) << e;
            else
                ASSERT_NEAR(got[e], expected[e], 4 * 2 * kU) << e;
        }
    }
}

}  // namespace

namespace {

// Wide sparse rows stay sparse in float32 blocks too: each value is the
// double block's, rounded to float once.
TEST(KernelBlockRowsF32, WideSparseRowsAreTheDoubleBlockRounded) {
    std::mt19937_64 rng(12);
    const int64_t n = 300, m = 40, d = 200000;
    std::uniform_int_distribution<int32_t> column(0, int32_t(d - 1));
    std::uniform_real_distribution<double> value(-1, 1);
    std::vector<int64_t> row_ptr{0};
    std::vector<int32_t> col;
    std::vector<double> values;
    for (int64_t i = 0; i < n; ++i) {
        std::vector<int32_t> row(30);
        for (int32_t &c : row) c = i % 3 == 0 ? column(rng) % 500 : column(rng);  // some shared columns
        std::sort(row.begin(), row.end());
        row.erase(std::unique(row.begin(), row.end()), row.end());
        for (const int32_t c : row) col.push_back(c), values.push_back(value(rng));
        row_ptr.push_back(int64_t(col.size()));
    }
    const auto sparse = kmx::Dataset::csr_borrow(n, d, row_ptr.data(), col.data(), values.data(), nullptr);
    for (const KernelSpec &spec : {kernel_spec(KMX_KERNEL_RBF, 0.3), kernel_spec(KMX_KERNEL_LAPLACIAN, 0.2),
                                   kernel_spec(KMX_KERNEL_POLYNOMIAL, 0.5, 1.0, 2)}) {
        std::vector<double> wide(size_t(n * m));
        std::vector<float> narrow(size_t(n * m));
        kmx::Arena arena(kmx::kernel_block_rows_f32_workspace_bytes(spec, *sparse, n, *sparse, m));
        kmx::kernel_block_rows_f32(spec, *sparse, 0, n, *sparse, 0, m, narrow.data(), m, arena, 2);
        kmx::Arena arena64(kmx::kernel_block_rows_workspace_bytes(spec, *sparse, n, *sparse, m));
        kmx::kernel_block_rows(spec, *sparse, 0, n, *sparse, 0, m, wide.data(), m, arena64, 1);
        int64_t shared = 0;
        for (size_t e = 0; e < wide.size(); ++e) {
            EXPECT_EQ(narrow[e], float(wide[e])) << "entry " << e;
            shared += wide[e] != 0 && wide[e] != 1 && spec.type == KMX_KERNEL_POLYNOMIAL;
        }
        if (spec.type == KMX_KERNEL_POLYNOMIAL) EXPECT_GT(shared, 100) << "rows share too few columns to test";
    }
}

}  // namespace
