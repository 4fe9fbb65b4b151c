// test_falkon.cpp — FALKON against exact KRR (M = n), the direct Nyström
// solve (M < n), separate single-output solves, a rank-deficient K_MM, and
// early stopping's returned iterate.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "../common/kernel_spec.h"
#include "core/context.h"
#include "falkon_reference.h"
#include "krr/falkon.h"
#include "linalg/normal_product.h"

namespace {

using falkon_test::load;
using falkon_test::relative_difference;

using test_common::rbf;

kmx::FalkonOptions options(int64_t m, double lambda) {
    kmx::FalkonOptions o;
    o.centers = m;
    o.lambda = lambda;
    return o;
}

kmx::KrrTargets targets_of(const kmx::Dataset &d, kmx::KrrTask task) { return kmx::krr_targets(d.y, d.n, task); }

// Rows [begin, end) of a dense dataset as a new one.
std::unique_ptr<kmx::Dataset> rows_of(const kmx::Dataset &d, int64_t begin, int64_t end) {
    return kmx::Dataset::dense_copy(d.x + begin * d.d, end - begin, d.d, d.y + begin);
}

struct Fit {
    kmx::CenterExpansion model;
    kmx::FalkonStats stats;
};

Fit fit(const kmx::KernelSpec &kernel, const kmx::Dataset &train, const kmx::KrrTargets &t, const kmx::FalkonOptions &o,
        size_t budget = kmx::kUnlimitedBudget) {
    kmx::Context ctx;
    ctx.seed = 7;
    ctx.memory_budget = budget;
    Fit f;
    f.model = kmx::falkon_fit(ctx, kernel, train, t, o, &f.stats);
    return f;
}

std::vector<double> predict(const Fit &f, const kmx::Dataset &query) {
    return falkon_test::predict(f.model.kernel, f.model.centers.data(), f.model.m, f.model.beta.data(), f.model.outputs,
                                query);
}

// With M = n the preconditioner is exact (BᵀHB = I up to ε), so CG ends in a
// few iterations at exact KRR: compare predictions on held-apart rows.
void expect_exact_krr(const kmx::KernelSpec &kernel, const kmx::Dataset &train, const kmx::Dataset &query,
                      kmx::KrrTask task, double lambda) {
    const kmx::KrrTargets t = targets_of(train, task);
    const Fit f = fit(kernel, train, t, options(train.n, lambda));
    const std::vector<double> alpha = falkon_test::exact_krr(kernel, train, t.y.data(), t.outputs, lambda);
    const std::vector<double> exact = falkon_test::predict(kernel, train.x, train.n, alpha.data(), t.outputs, query);
    const double diff = relative_difference(predict(f, query), exact);
    std::printf("  n = M = %lld, outputs %lld: relative difference %.2e, %d iterations, cond estimate %.4f\n",
                (long long)train.n, (long long)t.outputs, diff, f.stats.iterations, f.stats.condition_estimate);
    EXPECT_LE(diff, 1e-6);
    EXPECT_LE(f.stats.iterations, 20);
    EXPECT_LT(f.stats.condition_estimate, 1.01);
    EXPECT_EQ(f.stats.rank, train.n);
}

TEST(Falkon, AllCentersIsExactKrrRegression) {
    const auto boston = load("boston_reg.test.csv", false);
    expect_exact_krr(rbf(2.0), *rows_of(*boston, 0, 80), *rows_of(*boston, 80, boston->n), kmx::KrrTask::regression,
                     1e-3);
}

TEST(Falkon, AllCentersIsExactKrrBinary) {
    const auto digits = load("digits_bin.train.libsvm", false);
    expect_exact_krr(rbf(0.05), *rows_of(*digits, 0, 500), *rows_of(*digits, 500, 700), kmx::KrrTask::classification,
                     1e-4);
}

TEST(Falkon, AllCentersIsExactKrrMulticlass) {
    const auto letter = load("letter_mc.train.libsvm", true, 900);
    expect_exact_krr(rbf(8.0), *rows_of(*letter, 0, 600), *rows_of(*letter, 600, 900), kmx::KrrTask::classification,
                     1e-4);
}

// M < n: FALKON's 20 iterations reach the Nyström solution (8) solved directly.
void expect_direct_nystrom(const kmx::KernelSpec &kernel, const kmx::Dataset &train, const kmx::Dataset &query,
                           kmx::FalkonOptions o) {
    const kmx::KrrTargets t = targets_of(train, kmx::KrrTask::classification);
    o.tolerance = 1e-10;
    const Fit f = fit(kernel, train, t, o);
    const std::vector<double> alpha =
        falkon_test::direct_nystrom(kernel, train, f.model.centers.data(), f.model.m, t.y.data(), t.outputs, o.lambda);
    const std::vector<double> direct =
        falkon_test::predict(kernel, f.model.centers.data(), f.model.m, alpha.data(), t.outputs, query);
    const double diff = relative_difference(predict(f, query), direct);
    std::printf("  n = %lld, M = %lld: relative difference %.2e, %d iterations, cond estimate %.3f\n",
                (long long)train.n, (long long)f.model.m, diff, f.stats.iterations, f.stats.condition_estimate);
    EXPECT_LE(diff, 1e-6);
    EXPECT_LE(f.stats.iterations, 20);
    EXPECT_LT(f.stats.condition_estimate, 20.0);
}

TEST(Falkon, FewerCentersReachTheDirectNystromSolution) {
    const auto letter = load("letter_mc.train.libsvm", true, 2500);
    expect_direct_nystrom(rbf(8.0), *rows_of(*letter, 0, 2000), *rows_of(*letter, 2000, 2500), options(200, 1e-3));
}

TEST(Falkon, KMeansCentersReachTheDirectNystromSolution) {
    const auto digits = load("digits_bin.train.libsvm", false);
    kmx::FalkonOptions o = options(100, 1e-3);
    o.center_method = kmx::LandmarkMethod::kmeans;
    expect_direct_nystrom(rbf(0.05), *rows_of(*digits, 0, 1000), *rows_of(*digits, 1000, digits->n), o);
}

// One process sums K_nMᵀ(K_nM v) by GEMM unless reproducible_sums asks for
// the binned sums of several ranks: both reach the direct Nyström solution,
// and they agree with each other (to rounding amplified by CG, on the fitted
// values).
TEST(Falkon, GemmAndBinnedSumsReachTheSameFit) {
    const auto letter = load("letter_mc.train.libsvm", true, 2500);
    const auto train = rows_of(*letter, 0, 2000), query = rows_of(*letter, 2000, 2500);
    kmx::FalkonOptions o = options(200, 1e-3);
    expect_direct_nystrom(rbf(8.0), *train, *query, o);
    o.reproducible_sums = true;
    expect_direct_nystrom(rbf(8.0), *train, *query, o);
    const kmx::KrrTargets t = targets_of(*train, kmx::KrrTask::classification);
    const Fit binned = fit(rbf(8.0), *train, t, o);
    o.reproducible_sums = false;
    const Fit gemm = fit(rbf(8.0), *train, t, o);
    EXPECT_LE(relative_difference(predict(gemm, *query), predict(binned, *query)), 1e-9);
    EXPECT_NE(gemm.model.beta, binned.model.beta);  // the paths differ (in the last bits)
}

// Above normal_product_pays's outputs (32 at most) one process sums by two
// GEMMs per block instead: 52 outputs (Letter's 26 and their negatives)
// against the binned sums.
TEST(Falkon, ManyOutputsTakeTheGemmPassAndAgreeWithBinnedSums) {
    const auto letter = load("letter_mc.train.libsvm", true, 1500);
    const auto train = rows_of(*letter, 0, 1200), query = rows_of(*letter, 1200, 1500);
    const kmx::KrrTargets t26 = targets_of(*train, kmx::KrrTask::classification);
    ASSERT_EQ(t26.outputs, 26);
    kmx::KrrTargets t52;
    t52.outputs = 52;
    for (int64_t i = 0; i < train->n; ++i) {
        for (int64_t c = 0; c < 26; ++c) t52.y.push_back(t26.y[size_t(i * 26 + c)]);
        for (int64_t c = 0; c < 26; ++c) t52.y.push_back(-t26.y[size_t(i * 26 + c)]);
    }
    ASSERT_FALSE(kmx::linalg::normal_product_pays(t52.outputs));
    kmx::FalkonOptions o = options(150, 1e-3);
    o.reproducible_sums = true;
    const Fit binned = fit(rbf(8.0), *train, t52, o);
    o.reproducible_sums = false;
    const Fit gemm = fit(rbf(8.0), *train, t52, o);
    EXPECT_LE(relative_difference(predict(gemm, *query), predict(binned, *query)), 1e-9);
    EXPECT_NE(gemm.model.beta, binned.model.beta);
}

// One block solve of 26 outputs equals 26 single-output solves (compared on
// the fitted values of 300 rows: β itself is as ill-conditioned as K_MM).
TEST(Falkon, BlockSolveEqualsSeparateSolves) {
    const auto letter = load("letter_mc.train.libsvm", true, 1500);
    const auto query = rows_of(*letter, 0, 300);
    const kmx::KernelSpec kernel = rbf(8.0);
    const kmx::KrrTargets all = targets_of(*letter, kmx::KrrTask::classification);
    kmx::FalkonOptions o = options(150, 1e-4);
    o.tolerance = 1e-11;
    const Fit block = fit(kernel, *letter, all, o);
    const std::vector<double> f_block = predict(block, *query);
    double worst = 0;
    for (int64_t c = 0; c < all.outputs; ++c) {
        kmx::KrrTargets one;
        for (int64_t i = 0; i < letter->n; ++i) one.y.push_back(all.y[size_t(i * all.outputs + c)]);
        const Fit single = fit(kernel, *letter, one, o);
        ASSERT_EQ(single.model.centers, block.model.centers);
        const std::vector<double> f_single = predict(single, *query);
        std::vector<double> column;
        for (int64_t i = 0; i < query->n; ++i) column.push_back(f_block[size_t(i * all.outputs + c)]);
        worst = std::max(worst, relative_difference(column, f_single));
    }
    std::printf("  %lld outputs: largest relative difference of the fitted values %.2e\n", (long long)all.outputs,
                worst);
    EXPECT_LE(worst, 1e-7);
}

// A linear kernel with M = 40 centers in d = 13: K_MM has rank 13. Without
// jitter its Cholesky fails, T is taken on the numerical rank, and FALKON
// still gives exact (linear) KRR, since 40 centers span the 13 dimensions.
TEST(Falkon, RankDeficientCentersGiveExactKrr) {
    const auto boston = load("boston_reg.test.csv", false);
    const auto train = rows_of(*boston, 0, 80), query = rows_of(*boston, 80, boston->n);
    kmx::KernelSpec linear;
    linear.type = KMX_KERNEL_LINEAR;
    const kmx::KrrTargets t = targets_of(*train, kmx::KrrTask::regression);
    kmx::FalkonOptions o = options(40, 1e-3);
    o.jitter = 0;
    o.tolerance = 1e-12;
    const Fit f = fit(linear, *train, t, o);
    const std::vector<double> alpha = falkon_test::exact_krr(linear, *train, t.y.data(), 1, o.lambda);
    const double diff = relative_difference(predict(f, *query),
                                            falkon_test::predict(linear, train->x, train->n, alpha.data(), 1, *query));
    std::printf("  rank %lld of 40, relative difference %.2e, %d iterations\n", (long long)f.stats.rank, diff,
                f.stats.iterations);
    EXPECT_EQ(f.stats.rank, 13);
    EXPECT_LE(diff, 1e-6);
}

// Early stopping returns the iterate with the least validation error: the
// same fit run for exactly best_iteration iterations gives the same β.
TEST(Falkon, EarlyStoppingReturnsTheBestIterate) {
    const auto letter = load("letter_mc.train.libsvm", true, 2000);
    const kmx::KernelSpec kernel = rbf(8.0);
    const kmx::KrrTargets t = targets_of(*letter, kmx::KrrTask::classification);
    kmx::FalkonOptions o = options(300, 1e-9);
    o.iterations = 40;
    o.tolerance = 0;
    o.validation_fraction = 0.25;
    o.patience = 2;
    const Fit early = fit(kernel, *letter, t, o);
    const auto &errors = early.stats.validation_errors;
    ASSERT_FALSE(errors.empty());
    const int best = early.stats.best_iteration;
    std::printf("  stopped after %d of 40 iterations, best %d, validation error %.4f\n", early.stats.iterations, best,
                best > 0 ? errors[size_t(best - 1)] : -1.0);
    EXPECT_EQ(early.stats.train_rows, 1500);
    ASSERT_GE(best, 1);
    EXPECT_EQ(errors[size_t(best - 1)], *std::min_element(errors.begin(), errors.end()));
    EXPECT_LT(early.stats.iterations, 40);
    o.iterations = best;
    o.patience = 1000;
    const Fit fixed = fit(kernel, *letter, t, o);
    EXPECT_LE(relative_difference(early.model.beta, fixed.model.beta), 1e-12);
    // The held-out rows add nothing to the one-process sums either: as binned.
    o.reproducible_sums = true;
    const Fit binned = fit(kernel, *letter, t, o);
    const auto query = rows_of(*letter, 0, 300);
    EXPECT_LE(relative_difference(predict(fixed, *query), predict(binned, *query)), 1e-8);
}

// 3000 Letter rows, M = 1500: K_nM in 2 blocks of 2796 and 204 rows, each
// row 1504 values apart (M rounded up to 8); the uncached fit that the cached
// ones must equal.
constexpr size_t kCaseStride = 1504;
struct CacheCase {
    std::unique_ptr<kmx::Dataset> letter = load("letter_mc.train.libsvm", true, 3000);
    kmx::KrrTargets t = targets_of(*letter, kmx::KrrTask::classification);
    kmx::FalkonOptions o = [] {
        kmx::FalkonOptions f = options(1500, 1e-4);
        f.iterations = 5;
        return f;
    }();
    Fit plain = fit(rbf(8.0), *letter, t, o);
};

// The opt-in K_nM cache (part of it, or all) changes no number.
TEST(Falkon, KernelCacheGivesTheSameFit) {
    const CacheCase c;
    kmx::FalkonOptions o = c.o;
    for (size_t bytes : {size_t(3000 * kCaseStride * 8 * 0.95), size_t(3000 * kCaseStride * 8)}) {
        o.kernel_cache_bytes = bytes;
        const Fit cached = fit(rbf(8.0), *c.letter, c.t, o);
        EXPECT_EQ(cached.model.beta, c.plain.model.beta);
        EXPECT_GT(cached.stats.workspace_bytes, c.plain.stats.workspace_bytes + bytes - 1);
    }
}

// auto_cache (the CLI's and C API's default) keeps all of K_nM when the budget
// has room, the blocks that fit when it has less, none when it has none, and
// a nonzero kernel_cache_bytes caps it; the fit is the same every time.
TEST(Falkon, AutoCacheTakesWhatTheBudgetLeaves) {
    const CacheCase c;
    kmx::FalkonOptions o = c.o;
    const size_t uncached = c.plain.stats.workspace_bytes;
    const size_t whole = size_t(3000) * kCaseStride * sizeof(double),
                 first_block = size_t(2796) * kCaseStride * sizeof(double);
    o.auto_cache = true;
    struct Case {
        size_t budget, cap, cached_at_least, cached_below;
    };
    const Case cases[] = {
        {kmx::kUnlimitedBudget, 0, whole, whole + 1},                        // all of it
        {uncached + first_block + (2 << 20), 0, first_block, whole},         // the first block only
        {uncached + (1 << 20), 0, 0, first_block},                           // none fits
        {kmx::kUnlimitedBudget, first_block, first_block, first_block + 1},  // capped
    };
    for (const Case &k : cases) {
        o.kernel_cache_bytes = k.cap;
        const Fit cached = fit(rbf(8.0), *c.letter, c.t, o, k.budget);
        EXPECT_EQ(cached.model.beta, c.plain.model.beta);
        const size_t cache = cached.stats.workspace_bytes - uncached;
        EXPECT_GE(cache, k.cached_at_least) << k.budget;
        EXPECT_LT(cache, k.cached_below) << k.budget;
    }
}

// Sparse (CSR) rows give the same centers and the same fit as their dense copy.
TEST(Falkon, SparseDataMatchesDense) {
    const auto dense = load("digits_bin.train.libsvm", false);
    std::vector<int64_t> row_ptr{0};
    std::vector<int32_t> col;
    std::vector<double> values;
    for (int64_t i = 0; i < dense->n; ++i) {
        for (int64_t j = 0; j < dense->d; ++j)
            if (dense->x[i * dense->d + j] != 0) {
                col.push_back(int32_t(j));
                values.push_back(dense->x[i * dense->d + j]);
            }
        row_ptr.push_back(int64_t(col.size()));
    }
    kmx::Dataset sparse;
    sparse.n = dense->n;
    sparse.d = dense->d;
    sparse.row_ptr = row_ptr.data();
    sparse.col = col.data();
    sparse.values = values.data();
    sparse.y = dense->y;
    const kmx::KrrTargets t = targets_of(*dense, kmx::KrrTask::classification);
    const Fit a = fit(rbf(0.05), sparse, t, options(100, 1e-3)), b = fit(rbf(0.05), *dense, t, options(100, 1e-3));
    EXPECT_EQ(a.model.centers, b.model.centers);
    EXPECT_LE(relative_difference(a.model.beta, b.model.beta), 1e-9);
}

}  // namespace
