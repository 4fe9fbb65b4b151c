// test_kernel.cpp — kernel_eval, kernel_block and kernel_block_rows against
// direct double loops written here, independently of the library.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "../common/kernel_spec.h"
#include "core/arena.h"
#include "core/dataset.h"
#include "core/error.h"
#include "kernel/kernel.h"

namespace {

using kmx::KernelSpec;

constexpr double kTolerance = 1e-12;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

using test_common::kernel_spec;

std::string describe(const KernelSpec &spec) {
    return "kernel " + std::to_string(int(spec.type)) + " gamma " + std::to_string(spec.gamma) + " coef0 " +
           std::to_string(spec.coef0) + " degree " + std::to_string(spec.degree);
}

// A reference kernel value and the size its rounding errors scale with
// (e.g. γ(‖a‖² + ‖b‖²) for the Gaussian: the GEMM form loses that much
// relative accuracy, times d·eps, to cancellation).
struct Expected {
    double value;
    double error_scale;
};

Expected reference(const KernelSpec &spec, const double *a, const double *b, int64_t d) {
    const double gamma = spec.gamma > 0 ? spec.gamma : 1.0 / double(d);
    double dot = 0, abs_dot = 0, sq_dist = 0, norms = 0, l1 = 0;
    for (int64_t k = 0; k < d; ++k) {
        dot += a[k] * b[k];
        abs_dot += std::fabs(a[k] * b[k]);
        sq_dist += (a[k] - b[k]) * (a[k] - b[k]);
        norms += a[k] * a[k] + b[k] * b[k];
        l1 += std::fabs(a[k] - b[k]);
    }
    switch (spec.type) {
        case KMX_KERNEL_RBF: {
            const double v = std::exp(-gamma * sq_dist);
            return {v, v * (1 + gamma * norms)};
        }
        case KMX_KERNEL_LAPLACIAN: {
            const double v = std::exp(-gamma * l1);
            return {v, v * (1 + gamma * l1)};
        }
        case KMX_KERNEL_POLYNOMIAL: {
            const double base = gamma * dot + spec.coef0, base_scale = gamma * abs_dot + std::fabs(spec.coef0);
            double v = 1, scale = 1;
            for (int p = 0; p < spec.degree; ++p) v *= base, scale *= base_scale;
            return {v, spec.degree * scale};
        }
        case KMX_KERNEL_LINEAR:
            return {dot, abs_dot};
        case KMX_KERNEL_SIGMOID:
            return {std::tanh(gamma * dot + spec.coef0), 1 + gamma * abs_dot + std::fabs(spec.coef0)};
        default:
            return {kNaN, 0};
    }
}

bool close_enough(double got, const Expected &want, double tolerance = kTolerance) {
    return std::fabs(got - want.value) <= tolerance * want.error_scale + 1e-300;
}

// Row-major rows x cols with row stride ld; the padding holds NaN so that
// reading it would show in the results.
struct Matrix {
    int64_t rows = 0, cols = 0, ld = 0;
    std::vector<double> v;
    const double *row(int64_t i) const { return v.data() + i * ld; }
    const double *data() const { return v.data(); }
};

Matrix random_matrix(int64_t rows, int64_t cols, int64_t ld, std::mt19937_64 &rng, double lo = -1, double hi = 1) {
    std::uniform_real_distribution<double> uniform(lo, hi);
    Matrix m{rows, cols, ld, std::vector<double>(size_t(rows * ld), kNaN)};
    for (int64_t i = 0; i < rows; ++i)
        for (int64_t k = 0; k < cols; ++k) m.v[size_t(i * ld + k)] = uniform(rng);
    return m;
}

constexpr double kSentinel = -12345.0;

// Runs kernel_block into a block with row stride ldo, in an arena of exactly
// the advertised size, and checks sizing, padding and release.
std::vector<double> run_block(const KernelSpec &spec, const Matrix &a, const Matrix &b, int64_t ldo, int threads) {
    std::vector<double> out(size_t(a.rows * ldo), kSentinel);
    const size_t bytes = kmx::kernel_block_workspace_bytes(spec, a.rows, b.rows, a.cols);
    kmx::Arena arena(bytes);
    kmx::kernel_block(spec, a.data(), a.rows, a.ld, b.data(), b.rows, b.ld, a.cols, out.data(), ldo, arena, threads);
    EXPECT_EQ(arena.peak(), arena.capacity()) << "workspace bound is not tight";
    EXPECT_EQ(arena.used(), 0u) << "scratch not released";
    for (int64_t i = 0; i < a.rows; ++i)
        for (int64_t j = b.rows; j < ldo; ++j) EXPECT_EQ(out[size_t(i * ldo + j)], kSentinel) << "padding written";
    return out;
}

// Counts the entries of out (row stride ldo) that miss the reference; prints the first.
int64_t count_mismatches(const KernelSpec &spec, const Matrix &a, const Matrix &b, const std::vector<double> &out,
                         int64_t ldo, double tolerance = kTolerance) {
    int64_t bad = 0;
    for (int64_t i = 0; i < a.rows; ++i)
        for (int64_t j = 0; j < b.rows; ++j) {
            const Expected want = reference(spec, a.row(i), b.row(j), a.cols);
            const double got = out[size_t(i * ldo + j)];
            if (close_enough(got, want, tolerance)) continue;
            if (bad++ == 0)
                ADD_FAILURE() << describe(spec) << " entry (" << i << "," << j << ") of " << a.rows << "x" << b.rows
                              << " d=" << a.cols << ": got " << got << ", want " << want.value << " (error scale "
                              << want.error_scale << ")";
        }
    return bad;
}

struct Shape {
    int64_t na, nb, d;
};

// Every kernel the library has, with default and explicit parameters.
std::vector<KernelSpec> all_specs() {
    std::vector<KernelSpec> specs = {
        kernel_spec(KMX_KERNEL_RBF),
        kernel_spec(KMX_KERNEL_RBF, 0.37),
        kernel_spec(KMX_KERNEL_LAPLACIAN),
        kernel_spec(KMX_KERNEL_LAPLACIAN, 0.21),
        kernel_spec(KMX_KERNEL_LINEAR),
        kernel_spec(KMX_KERNEL_SIGMOID),
        kernel_spec(KMX_KERNEL_SIGMOID, 0.4, -0.2),
    };
    for (int degree = 1; degree <= 5; ++degree)
        specs.push_back(kernel_spec(KMX_KERNEL_POLYNOMIAL, degree % 2 ? 0.3 : 0, degree % 2 ? 0.5 : -1.25, degree));
    return specs;
}

class KernelBlock : public ::testing::TestWithParam<Shape> {};

// Thread counts: the elementwise passes and the Laplacian loop give the same
// bits for any count; the GEMM inside the others is BLIS's, whose rounding
// may depend on how it splits the work, so those are only required to give
// the same bits again for the same count.
TEST_P(KernelBlock, MatchesDirectLoopWithAnyStridesAndThreads) {
    const Shape s = GetParam();
    std::mt19937_64 rng(uint64_t(s.na * 1000003 + s.nb * 1009 + s.d));
    for (int64_t pad : {0, 3}) {
        const Matrix a = random_matrix(s.na, s.d, s.d + pad, rng);
        const Matrix b = random_matrix(s.nb, s.d, s.d + 2 * pad, rng);
        const int64_t ldo = s.nb + pad;
        for (const KernelSpec &spec : all_specs()) {
            for (int threads : {1, 2}) {
                const std::vector<double> out = run_block(spec, a, b, ldo, threads);
                EXPECT_EQ(count_mismatches(spec, a, b, out, ldo), 0)
                    << describe(spec) << " pad " << pad << " threads " << threads;
                const std::vector<double> again = run_block(spec, a, b, ldo, threads);
                EXPECT_EQ(std::memcmp(out.data(), again.data(), out.size() * sizeof(double)), 0)
                    << describe(spec) << ": a second run with " << threads << " threads gives other bits";
            }
            if (spec.type == KMX_KERNEL_LAPLACIAN) {
                const std::vector<double> one = run_block(spec, a, b, ldo, 1), two = run_block(spec, a, b, ldo, 2);
                EXPECT_EQ(std::memcmp(one.data(), two.data(), one.size() * sizeof(double)), 0)
                    << describe(spec) << ": 2 threads give other bits than 1";
            }
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Shapes, KernelBlock,
                         ::testing::Values(Shape{1, 1, 1}, Shape{1, 1, 9}, Shape{7, 13, 1}, Shape{7, 13, 5},
                                           Shape{13, 7, 17}, Shape{129, 65, 3}, Shape{129, 65, 1000},
                                           Shape{40, 70, 300},    // Laplacian column slices, no GEMM panels
                                           Shape{300, 2000, 3}),  // several GEMM panels for the Gaussian
                         [](const ::testing::TestParamInfo<Shape> &info) {
                             return std::to_string(info.param.na) + "x" + std::to_string(info.param.nb) + "_d" +
                                    std::to_string(info.param.d);
                         });

TEST(KernelEval, MatchesDirectFormula) {
    std::mt19937_64 rng(5);
    for (int64_t d : {1, 5, 1000}) {
        const Matrix a = random_matrix(1, d, d, rng), b = random_matrix(1, d, d, rng);
        for (const KernelSpec &spec : all_specs()) {
            const Expected want = reference(spec, a.data(), b.data(), d);
            const double got = kmx::kernel_eval(spec, a.data(), b.data(), d);
            EXPECT_TRUE(close_enough(got, want)) << describe(spec) << " d=" << d << ": " << got << " vs " << want.value;
        }
    }
}

TEST(KernelEval, SameRowGivesOneForStationaryKernels) {
    const double x[] = {1e3, -2.5, 7};
    EXPECT_EQ(kmx::kernel_eval(kernel_spec(KMX_KERNEL_RBF, 5), x, x, 3), 1.0);
    EXPECT_EQ(kmx::kernel_eval(kernel_spec(KMX_KERNEL_LAPLACIAN, 5), x, x, 3), 1.0);
}

TEST(KernelBlock, IdenticalRowsGiveExactlyOneAndNothingExceedsOne) {
    std::mt19937_64 rng(11);
    for (int64_t d : {1, 7, 784}) {
        // Far from the origin: ‖a‖² + ‖b‖² − 2a·b cancels badly.
        const Matrix a = random_matrix(50, d, d, rng, 999, 1001);
        Matrix reversed = a;
        for (int64_t i = 0; i < a.rows; ++i)
            std::memcpy(reversed.v.data() + i * d, a.row(a.rows - 1 - i), sizeof(double) * size_t(d));
        for (double gamma : {0.0, 3.0, 1e6}) {
            const KernelSpec spec = kernel_spec(KMX_KERNEL_RBF, gamma);
            const std::vector<double> out = run_block(spec, a, reversed, a.rows, 2);
            for (int64_t i = 0; i < a.rows; ++i) {
                EXPECT_EQ(out[size_t(i * a.rows + (a.rows - 1 - i))], 1.0) << "d=" << d << " gamma=" << gamma;
                for (int64_t j = 0; j < a.rows; ++j) EXPECT_LE(out[size_t(i * a.rows + j)], 1.0);
            }
        }
    }
}

TEST(KernelBlock, HugeGammaUnderflowsToZeroWithoutNaN) {
    std::mt19937_64 rng(13);
    const Matrix a = random_matrix(20, 30, 30, rng), b = random_matrix(9, 30, 30, rng);
    for (kmx_kernel_type type : {KMX_KERNEL_RBF, KMX_KERNEL_LAPLACIAN})
        for (double gamma : {1e3, 1e12, 1e300}) {
            const KernelSpec spec = kernel_spec(type, gamma);
            const std::vector<double> out = run_block(spec, a, b, b.rows, 1);
            for (double v : out) EXPECT_EQ(v, 0.0) << describe(spec);
            const std::vector<double> self = run_block(spec, a, a, a.rows, 1);
            for (int64_t i = 0; i < a.rows; ++i) EXPECT_EQ(self[size_t(i * a.rows + i)], 1.0) << describe(spec);
        }
}

TEST(KernelBlock, ModerateGammaGivesSubnormalsNotNaN) {
    // exp(−γD) between 1e-320 and 1e-300: subnormal or tiny, still ordered.
    const double a[] = {0.0}, b[] = {1.0};
    for (double gamma : {690.0, 700.0, 720.0, 740.0, 745.0, 746.0}) {
        const KernelSpec spec = kernel_spec(KMX_KERNEL_RBF, gamma);
        double out = kNaN;
        kmx::Arena arena(kmx::kernel_block_workspace_bytes(spec, 1, 1, 1));
        kmx::kernel_block(spec, a, 1, 1, b, 1, 1, 1, &out, 1, arena, 1);
        const double want = std::exp(-gamma);
        EXPECT_LE(std::fabs(out - want), 1e-15 * want + 5e-324) << gamma;
    }
}

TEST(KernelBlock, EmptyBlocksDoNothing) {
    const KernelSpec spec = kernel_spec(KMX_KERNEL_RBF);
    kmx::Arena arena;
    double out = kSentinel;
    kmx::kernel_block(spec, nullptr, 0, 3, nullptr, 0, 3, 3, &out, 1, arena, 1);
    EXPECT_EQ(out, kSentinel);
}

TEST(KernelBlock, RejectsBadShapes) {
    const KernelSpec spec = kernel_spec(KMX_KERNEL_RBF);
    double a[4] = {}, out[4] = {};
    kmx::Arena arena(kmx::kernel_block_workspace_bytes(spec, 2, 2, 2));
    auto status_of = [&](auto &&call) {
        try {
            call();
        } catch (const kmx::Error &e) {
            return e.status();
        }
        return KMX_OK;
    };
    EXPECT_EQ(status_of([&] { kmx::kernel_block(spec, a, 2, 1, a, 2, 2, 2, out, 2, arena, 1); }),
              KMX_E_INVALID_ARGUMENT);  // lda < d
    EXPECT_EQ(status_of([&] { kmx::kernel_block(spec, a, 2, 2, a, 2, 2, 2, out, 1, arena, 1); }),
              KMX_E_INVALID_ARGUMENT);  // ldo < nb
    EXPECT_EQ(status_of([&] { kmx::kernel_block(spec, a, -1, 2, a, 2, 2, 2, out, 2, arena, 1); }),
              KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(status_of([&] {
                  kmx::kernel_block(kernel_spec(KMX_KERNEL_POLYNOMIAL, 0, 0, 0), a, 2, 2, a, 2, 2, 2, out, 2, arena, 1);
              }),
              KMX_E_INVALID_ARGUMENT);  // degree 0
    EXPECT_EQ(
        status_of([&] { kmx::kernel_block(kernel_spec(kmx_kernel_type(17)), a, 2, 2, a, 2, 2, 2, out, 2, arena, 1); }),
        KMX_E_INVALID_ARGUMENT);  // unknown type
}

TEST(KernelBlock, ArenaSmallerThanTheBoundIsCaught) {
    const KernelSpec spec = kernel_spec(KMX_KERNEL_RBF);
    std::mt19937_64 rng(17);
    const Matrix a = random_matrix(10, 4, 4, rng), b = random_matrix(20, 4, 4, rng);
    std::vector<double> out(200);
    kmx::Arena arena(kmx::kernel_block_workspace_bytes(spec, 10, 20, 4) - kmx::kArenaAlignment);
    try {
        kmx::kernel_block(spec, a.data(), 10, 4, b.data(), 20, 4, 4, out.data(), 20, arena, 1);
        ADD_FAILURE() << "no error";
    } catch (const kmx::Error &e) {
        EXPECT_EQ(e.status(), KMX_E_INTERNAL);
    }
}

// ------------------------------------------------------------ dataset rows

// A CSR copy of a dense matrix (zeros dropped), as a Dataset pointing into it.
struct SparseCopy {
    std::vector<int64_t> row_ptr;
    std::vector<int32_t> col;
    std::vector<double> values;
    kmx::Dataset ds;

    explicit SparseCopy(const Matrix &m) {
        row_ptr.push_back(0);
        for (int64_t i = 0; i < m.rows; ++i) {
            for (int64_t k = 0; k < m.cols; ++k)
                if (m.row(i)[k] != 0) col.push_back(int32_t(k)), values.push_back(m.row(i)[k]);
            row_ptr.push_back(int64_t(col.size()));
        }
        ds.n = m.rows;
        ds.d = m.cols;
        ds.row_ptr = row_ptr.data();
        ds.col = col.data();
        ds.values = values.data();
    }
};

// Random values with about 70% of them zero.
Matrix sparse_matrix(int64_t rows, int64_t cols, std::mt19937_64 &rng) {
    Matrix m = random_matrix(rows, cols, cols, rng);
    std::bernoulli_distribution zero(0.7);
    for (double &v : m.v) v = zero(rng) ? 0.0 : v;
    return m;
}

// kernel_block_rows in an arena of exactly the advertised size (a bound
// from the row counts alone: tight unless sparse ranges hold fewer nonzeros
// than the whole datasets, `tight` false).
std::vector<double> run_rows(const KernelSpec &spec, const kmx::Dataset &a, int64_t a_begin, int64_t a_end,
                             const kmx::Dataset &b, int64_t b_begin, int64_t b_end, int64_t ldo, int threads,
                             bool tight = true) {
    const int64_t na = a_end - a_begin, nb = b_end - b_begin;
    std::vector<double> out(size_t(na * ldo), kSentinel);
    kmx::Arena arena(kmx::kernel_block_rows_workspace_bytes(spec, a, na, b, nb));
    kmx::kernel_block_rows(spec, a, a_begin, a_end, b, b_begin, b_end, out.data(), ldo, arena, threads);
    if (tight) EXPECT_EQ(arena.peak(), arena.capacity()) << "workspace bound is not tight";
    return out;
}

// Rows [begin, end) of m as a matrix of their own.
Matrix slice(const Matrix &m, int64_t begin, int64_t end) {
    Matrix s{end - begin, m.cols, m.ld, {}};
    s.v.assign(m.v.begin() + begin * m.ld, m.v.begin() + end * m.ld);
    return s;
}

TEST(KernelBlockRows, SparseAndDenseAgree) {
    std::mt19937_64 rng(19);
    const int64_t d = 50;
    const Matrix xa = sparse_matrix(600, d, rng), xb = sparse_matrix(300, d, rng);
    const SparseCopy sa(xa), sb(xb);
    const auto da = kmx::Dataset::dense_borrow(xa.data(), xa.rows, d, nullptr);
    const auto db = kmx::Dataset::dense_borrow(xb.data(), xb.rows, d, nullptr);
    const int64_t a_begin = 3, a_end = 590, b_begin = 5, b_end = 290, nb = b_end - b_begin, ldo = nb + 4;
    const Matrix ra = slice(xa, a_begin, a_end), rb = slice(xb, b_begin, b_end);
    for (const KernelSpec &spec : all_specs()) {
        const std::vector<double> dense = run_rows(spec, *da, a_begin, a_end, *db, b_begin, b_end, ldo, 2);
        EXPECT_EQ(count_mismatches(spec, ra, rb, dense, ldo), 0) << describe(spec);
        const kmx::Dataset *as[] = {&sa.ds, da.get(), &sa.ds};
        const kmx::Dataset *bs[] = {db.get(), &sb.ds, &sb.ds};
        for (int combo = 0; combo < 3; ++combo) {
            const std::vector<double> mixed =
                run_rows(spec, *as[combo], a_begin, a_end, *bs[combo], b_begin, b_end, ldo, 1 + combo % 2);
            int64_t differ = 0;
            for (size_t e = 0; e < dense.size(); ++e) {
                const int64_t i = int64_t(e) / ldo, j = int64_t(e) % ldo;
                if (j >= nb) {
                    EXPECT_EQ(mixed[e], kSentinel) << "padding written";
                    continue;
                }
                const Expected want = reference(spec, ra.row(i), rb.row(j), d);
                differ += std::fabs(mixed[e] - dense[e]) > 1e-14 * want.error_scale + 1e-300;
            }
            EXPECT_EQ(differ, 0) << describe(spec) << " combination " << combo;
        }
    }
}

TEST(KernelBlockRows, WideSparseRowsStaySparse) {
    // d = 40000, 20 nonzeros a row: widening 40 rows would take 12.8 MB; on
    // the nonzeros the scratch is the index of 800 of them.
    std::mt19937_64 rng(23);
    const int64_t d = 40000, n = 40;
    Matrix x{n, d, d, std::vector<double>(size_t(n * d), 0.0)};
    std::uniform_int_distribution<int64_t> column(0, d - 1);
    std::uniform_real_distribution<double> value(-1, 1);
    for (int64_t i = 0; i < n; ++i)
        for (int e = 0; e < 20; ++e) x.v[size_t(i * d + column(rng))] = value(rng);
    const SparseCopy sparse(x);
    const KernelSpec spec = kernel_spec(KMX_KERNEL_RBF, 0.5);
    EXPECT_TRUE(kmx::sparse_kernel_block(spec, sparse.ds, sparse.ds));
    EXPECT_LT(kmx::kernel_block_rows_workspace_bytes(spec, sparse.ds, n, sparse.ds, n), size_t(64) << 10);
    const std::vector<double> out = run_rows(spec, sparse.ds, 0, n, sparse.ds, 0, n, n, 1);
    EXPECT_EQ(count_mismatches(spec, x, x, out, n), 0);
}

// Random rows of d columns with about `per_row` nonzeros each.
Matrix wide_sparse_matrix(int64_t rows, int64_t d, int per_row, std::mt19937_64 &rng) {
    Matrix m{rows, d, d, std::vector<double>(size_t(rows * d), 0.0)};
    std::uniform_int_distribution<int64_t> column(0, d - 1);
    std::uniform_real_distribution<double> value(-1, 1);
    for (int64_t i = 0; i < rows; ++i)
        for (int e = 0; e < per_row; ++e) m.v[size_t(i * d + column(rng))] = value(rng);
    return m;
}

// The sparse block of rows [a_begin, a_end) of a and [b_begin, b_end) of b
// against the direct loop, for each spec, with padding in the block.
void expect_sparse_block_matches(const std::vector<KernelSpec> &specs, const Matrix &xa, int64_t a_begin, int64_t a_end,
                                 const Matrix &xb, int64_t b_begin, int64_t b_end) {
    const SparseCopy a(xa), b(xb);
    const int64_t nb = b_end - b_begin, ldo = nb + 3;
    const Matrix ra = slice(xa, a_begin, a_end), rb = slice(xb, b_begin, b_end);
    for (const KernelSpec &spec : specs) {
        ASSERT_TRUE(kmx::sparse_kernel_block(spec, a.ds, b.ds));
        const std::vector<double> out = run_rows(spec, a.ds, a_begin, a_end, b.ds, b_begin, b_end, ldo, 2, false);
        EXPECT_EQ(count_mismatches(spec, ra, rb, out, ldo), 0) << describe(spec);
        for (int64_t i = 0; i < ra.rows; i += 7) EXPECT_EQ(out[size_t(i * ldo + nb)], kSentinel) << "padding";
    }
}

TEST(KernelBlockRows, EveryKernelOnNonzerosMatchesTheDirectLoop) {
    // Ranges start inside the datasets; either side may have fewer rows (the
    // one indexed by column).
    std::mt19937_64 rng(29);
    const Matrix xa = wide_sparse_matrix(160, 3000, 25, rng), xb = wide_sparse_matrix(140, 3000, 25, rng);
    expect_sparse_block_matches(all_specs(), xa, 7, 157, xb, 11, 131);
    expect_sparse_block_matches(all_specs(), xb, 2, 132, xa, 5, 40);
}

TEST(KernelBlockRows, SparseBlocksCrossIndexTiles) {
    // More than 1024 rows on both sides: the indexed side takes two tiles.
    std::mt19937_64 rng(37);
    const Matrix xa = wide_sparse_matrix(1310, 400, 8, rng), xb = wide_sparse_matrix(1120, 400, 8, rng);
    const std::vector<KernelSpec> specs = {kernel_spec(KMX_KERNEL_RBF, 0.4), kernel_spec(KMX_KERNEL_LAPLACIAN, 0.3)};
    expect_sparse_block_matches(specs, xa, 7, 1307, xb, 11, 1111);
    expect_sparse_block_matches(specs, xb, 3, 1113, xa, 1, 1302);
}

TEST(KernelBlockRows, SparseIdenticalRowsGiveExactlyOne) {
    std::mt19937_64 rng(31);
    const Matrix x = wide_sparse_matrix(50, 100000, 40, rng);
    const SparseCopy sparse(x);
    for (const KernelSpec &spec : {kernel_spec(KMX_KERNEL_RBF, 3.0), kernel_spec(KMX_KERNEL_LAPLACIAN, 2.0)}) {
        const std::vector<double> out = run_rows(spec, sparse.ds, 0, 50, sparse.ds, 0, 50, 50, 1);
        for (int64_t i = 0; i < 50; ++i) {
            EXPECT_EQ(out[size_t(i * 50 + i)], 1.0) << describe(spec) << " row " << i;
            for (int64_t j = 0; j < 50; ++j) EXPECT_LE(out[size_t(i * 50 + j)], 1.0);
        }
    }
}

TEST(KernelBlockRows, TenMillionColumnsCostTheirNonzeros) {
    // Two rows near column 10⁷ and one row sharing none of their columns:
    // the values in closed form, the scratch a few hundred bytes.
    const int64_t d = 10000000;
    const std::vector<int64_t> row_ptr = {0, 2, 4, 5};
    const std::vector<int32_t> col = {9999990, 9999999, 3, 9999999, 17};
    const std::vector<double> values = {1.0, 2.0, 0.5, -1.0, 4.0};
    const auto data = kmx::Dataset::csr_borrow(3, d, row_ptr.data(), col.data(), values.data(), nullptr);
    const KernelSpec spec = kernel_spec(KMX_KERNEL_RBF, 0.1);
    EXPECT_LT(kmx::kernel_block_rows_workspace_bytes(spec, *data, 3, *data, 3), size_t(1024));
    const std::vector<double> out = run_rows(spec, *data, 0, 3, *data, 0, 3, 3, 1);
    // ‖x0 − x1‖² = 1 + 0.25 + 9; ‖x0 − x2‖² = 5 + 16; ‖x1 − x2‖² = 1.25 + 16
    EXPECT_NEAR(out[1], std::exp(-0.1 * 10.25), 1e-15);
    EXPECT_NEAR(out[2], std::exp(-0.1 * 21.0), 1e-15);
    EXPECT_NEAR(out[5], std::exp(-0.1 * 17.25), 1e-15);
    EXPECT_EQ(out[4], 1.0);
    EXPECT_EQ(out[3], out[1]);
}

TEST(KernelBlockRows, RejectsMismatchedColumnsAndBadRanges) {
    const double x[6] = {1, 2, 3, 4, 5, 6};
    const auto two = kmx::Dataset::dense_borrow(x, 3, 2, nullptr);
    const auto three = kmx::Dataset::dense_borrow(x, 2, 3, nullptr);
    const KernelSpec spec = kernel_spec(KMX_KERNEL_RBF);
    double out[9];
    kmx::Arena arena(1 << 12);
    EXPECT_THROW(kmx::kernel_block_rows(spec, *two, 0, 1, *three, 0, 1, out, 1, arena, 1), kmx::Error);
    EXPECT_THROW(kmx::kernel_block_rows(spec, *two, 0, 4, *two, 0, 1, out, 1, arena, 1), kmx::Error);
    EXPECT_THROW(kmx::kernel_block_rows(spec, *two, 2, 1, *two, 0, 1, out, 1, arena, 1), kmx::Error);
}

}  // namespace
