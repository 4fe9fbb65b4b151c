// DC-SVM (lib/svm/dcsvm): the exact solution, the between-cluster bound,
// early prediction, BKA and determinism, against the plain dual solver and
// direct O(n²) computations.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <vector>

#include "cluster/kernel_kmeans.h"
#include "core/context.h"
#include "core/dataset.h"
#include "core/error.h"
#include "svm/dcsvm.h"
#include "svm/kernel_cache.h"
#include "svm/svm_dual.h"
#include "test_support.h"

namespace {

using dcsvm_test::direct_kernel_matrix;
using dcsvm_test::dual_gradient;
using dcsvm_test::dual_objective;
using dcsvm_test::kkt_violation;
using dcsvm_test::seconds_since;

// A binary Letter problem with all C_i = C.
struct LetterProblem {
    std::unique_ptr<kmx::Dataset> data;
    std::vector<double> upper;
    kmx::SvmProblem problem;
    double C;

    LetterProblem(int64_t rows, double C_, double gamma) : C(C_) {
        data = dcsvm_test::load_example("letter_bin.train.libsvm", rows);
        upper.assign(size_t(data->n), C);
        problem = dcsvm_test::rbf_problem(*data, upper, gamma);
    }
};

constexpr size_t kCacheBytes = size_t(200) << 20;
// A cache well below the whole Q of 3000 rows (36 MB), so that DC-SVM divides.
constexpr size_t kSmallCacheBytes = size_t(8) << 20;

kmx::SvmSolution solve_plain(const kmx::SvmProblem &problem, const kmx::SvmOptions &options,
                             std::vector<double> &alpha) {
    kmx::Context ctx;
    ctx.threads = 2;
    kmx::SvmOptions with_cache = options;
    with_cache.cache_bytes = kCacheBytes;
    kmx::Arena arena(kmx::svm_dual_workspace_bytes(problem.n, problem.data->d, with_cache.cache_bytes));
    alpha.assign(size_t(problem.n), 0.0);
    return kmx::solve_svm_dual(ctx, arena, problem, with_cache, alpha.data());
}

kmx::DcsvmResult solve_dcsvm(const kmx::SvmProblem &problem, const kmx::DcsvmOptions &options,
                             std::vector<double> &alpha, int threads = 2, uint64_t seed = 0) {
    kmx::Context ctx;
    ctx.threads = threads;
    ctx.seed = seed;
    alpha.assign(size_t(problem.n), -1.0);
    return kmx::train_dcsvm(ctx, problem, options, alpha.data());
}

struct ExactCase {
    double C;
    double gamma;
    bool bias;
};

class DcsvmExact : public ::testing::TestWithParam<ExactCase> {};

// The final solution is the plain solver's: same objective, KKT satisfied.
TEST_P(DcsvmExact, MatchesPlainSolverAndSatisfiesKkt) {
    const ExactCase c = GetParam();
    const LetterProblem letter(3000, c.C, c.gamma);
    kmx::SvmOptions svm;
    svm.bias = c.bias;
    std::vector<double> plain_alpha, dc_alpha;
    auto start = std::chrono::steady_clock::now();
    const kmx::SvmSolution plain = solve_plain(letter.problem, svm, plain_alpha);
    const double plain_seconds = seconds_since(start);

    kmx::DcsvmOptions options;
    options.svm = svm;
    options.svm.cache_bytes = kSmallCacheBytes;
    start = std::chrono::steady_clock::now();
    const kmx::DcsvmResult dc = solve_dcsvm(letter.problem, options, dc_alpha);
    const double dc_seconds = seconds_since(start);

    std::printf("C=%g gamma=%g bias=%d: plain %.10g in %.3f s (%lld iter, %lld SVs); DC-SVM %.10g in %.3f s\n", c.C,
                c.gamma, int(c.bias), plain.objective, plain_seconds, (long long)plain.iterations,
                (long long)plain.support_vectors, dc.solution.objective, dc_seconds);
    for (const kmx::DcsvmLevelStats &s : dc.levels)
        std::printf("  step %d level %d: %lld clusters, %lld rows, %lld SVs, objective %.8g, %.3f s\n", int(s.step),
                    s.level, (long long)s.clusters, (long long)s.rows, (long long)s.support_vectors, s.objective,
                    s.seconds);

    EXPECT_TRUE(dc.solution.converged);
    EXPECT_NEAR(dc.solution.objective, plain.objective, 1e-3 * std::fabs(plain.objective));
    ASSERT_GE(dc.levels.size(), 3u);
    EXPECT_EQ(dc.levels.back().step, kmx::DcsvmStep::global);
    EXPECT_EQ(dc.levels[dc.levels.size() - 2].step, kmx::DcsvmStep::refine);
    EXPECT_TRUE(dc.partition.k == 0 && dc.cluster_of.empty());

    const std::vector<double> gram =
        direct_kernel_matrix(*letter.data, nullptr, letter.problem.n, letter.problem.kernel);
    const std::vector<double> gradient = dual_gradient(gram, letter.problem.y, dc_alpha.data(), letter.problem.n);
    EXPECT_LE(kkt_violation(gradient, letter.problem.y, dc_alpha.data(), c.C, c.bias), 1.5 * svm.eps);
    EXPECT_NEAR(dual_objective(gram, letter.problem.y, dc_alpha.data(), letter.problem.n), dc.solution.objective,
                1e-6 * std::fabs(plain.objective));
    if (c.bias) {
        double balance = 0;  // yᵀα = 0
        for (int64_t i = 0; i < letter.problem.n; ++i) balance += letter.problem.y[i] * dc_alpha[size_t(i)];
        EXPECT_NEAR(balance, 0.0, 1e-8 * c.C * double(letter.problem.n));
    }
}

INSTANTIATE_TEST_SUITE_P(Letter, DcsvmExact,
                         ::testing::Values(ExactCase{8, 16, false}, ExactCase{8, 16, true}, ExactCase{1, 1, false},
                                           ExactCase{1, 1, true}));

// When the whole Q fits the kernel cache the divide levels are skipped: the
// result is the plain solver's solve, step for step.
TEST(Dcsvm, WholeMatrixInCacheSolvesDirectly) {
    EXPECT_TRUE(kmx::dcsvm_whole_matrix_cached(3000, size_t(3000) * 3000 * sizeof(float)));
    EXPECT_FALSE(kmx::dcsvm_whole_matrix_cached(3000, size_t(3000) * 3000 * sizeof(float) - 1));
    const LetterProblem letter(3000, 8, 16);
    kmx::SvmOptions svm;
    svm.bias = false;
    std::vector<double> plain_alpha, dc_alpha;
    const kmx::SvmSolution plain = solve_plain(letter.problem, svm, plain_alpha);
    kmx::DcsvmOptions options;
    options.svm = svm;
    options.svm.cache_bytes = kCacheBytes;
    const kmx::DcsvmResult dc = solve_dcsvm(letter.problem, options, dc_alpha);
    ASSERT_EQ(dc.levels.size(), 1u);
    EXPECT_EQ(dc.levels[0].step, kmx::DcsvmStep::global);
    EXPECT_EQ(dc.solution.objective, plain.objective);
    EXPECT_EQ(dc.solution.iterations, plain.iterations);
    EXPECT_EQ(dc_alpha, plain_alpha);
}

// Theorem 1: f(ᾱ) − f(α*) ≤ C² D(π) / 2, D(π) = Σ_{π(i)≠π(j)} |K(x_i, x_j)|,
// for the concatenated level solution ᾱ (one level, stopped there).
TEST(Dcsvm, BetweenClusterBound) {
    for (const double gamma : {4.0, 16.0}) {
        const LetterProblem letter(320, 1.0, gamma);
        const int64_t n = letter.problem.n;
        kmx::DcsvmOptions options;
        options.levels = 1;
        options.early_level = 1;
        options.min_early_cluster_rows = 0;  // 4 clusters of 80 rows
        options.svm.bias = false;
        options.svm.eps = 1e-6;
        std::vector<double> alpha_bar, alpha_star;
        const kmx::DcsvmResult dc = solve_dcsvm(letter.problem, options, alpha_bar);
        ASSERT_EQ(dc.partition.k, 4);
        kmx::SvmOptions exact = options.svm;
        const kmx::SvmSolution star = solve_plain(letter.problem, exact, alpha_star);

        const std::vector<double> gram = direct_kernel_matrix(*letter.data, nullptr, n, letter.problem.kernel);
        double between = 0;  // D(π)
        for (int64_t i = 0; i < n; ++i)
            for (int64_t j = 0; j < n; ++j)
                if (dc.cluster_of[size_t(i)] != dc.cluster_of[size_t(j)]) between += std::fabs(gram[size_t(i * n + j)]);
        const double f_bar = dual_objective(gram, letter.problem.y, alpha_bar.data(), n);
        const double bound = letter.C * letter.C * between / 2;
        std::printf("gamma=%g: f(ᾱ) − f(α*) = %.6g, C²D(π)/2 = %.6g\n", gamma, f_bar - star.objective, bound);
        EXPECT_GE(f_bar - star.objective, -1e-6);
        EXPECT_LE(f_bar - star.objective, bound);
        EXPECT_GT(f_bar - star.objective, 0.0) << "the between-cluster terms matter";

        // The level's objective is f̄(ᾱ) = f(ᾱ) without the between-cluster terms.
        double cross = 0;
        for (int64_t i = 0; i < n; ++i)
            for (int64_t j = 0; j < n; ++j)
                if (dc.cluster_of[size_t(i)] != dc.cluster_of[size_t(j)])
                    cross += letter.problem.y[i] * letter.problem.y[j] * gram[size_t(i * n + j)] *
                             alpha_bar[size_t(i)] * alpha_bar[size_t(j)];
        EXPECT_NEAR(dc.levels.back().objective, f_bar - cross / 2, 1e-8 * std::fabs(f_bar));
    }
}

// Decision value of x by the support vectors in `members` (all when empty).
double decision(const kmx::Dataset &train, const double *alpha, const std::vector<int64_t> &members,
                const kmx::KernelSpec &kernel, const double *x, double bias) {
    double value = bias;
    for (int64_t i : members)
        if (alpha[i] > 0) value += train.y[i] * alpha[i] * kmx::kernel_eval(kernel, train.x + i * train.d, x, train.d);
    return value;
}

double accuracy(const kmx::Dataset &train, const double *alpha, const std::vector<std::vector<int64_t>> &clusters,
                const std::vector<int32_t> &cluster_of, const kmx::KernelSpec &kernel, const kmx::Dataset &test) {
    int64_t right = 0;
    for (int64_t t = 0; t < test.n; ++t) {
        const std::vector<int64_t> &members = clusters[size_t(cluster_of.empty() ? 0 : cluster_of[size_t(t)])];
        right += (decision(train, alpha, members, kernel, test.x + t * test.d, 0) > 0) == (test.y[t] > 0);
    }
    return double(right) / double(test.n);
}

std::vector<std::vector<int64_t>> members_of(const std::vector<int32_t> &cluster_of, int64_t k) {
    std::vector<std::vector<int64_t>> members(static_cast<size_t>(k));
    for (size_t i = 0; i < cluster_of.size(); ++i) members[size_t(cluster_of[i])].push_back(int64_t(i));
    return members;
}

// Early prediction at 16 clusters (the cap lifted): each test point is
// predicted by its nearest cluster's model. Levels start where clusters keep
// ~1000 rows (level 1 here), so the early level 2 is the only one run.
TEST(Dcsvm, EarlyPredictionIsCloseToExactModel) {
    const LetterProblem letter(3000, 8, 16);
    const std::unique_ptr<kmx::Dataset> test = dcsvm_test::load_example("letter_bin.test.libsvm", 1500);
    kmx::DcsvmOptions options;
    options.levels = 3;
    options.early_level = 2;
    options.min_early_cluster_rows = 0;
    options.svm.bias = false;
    std::vector<double> early_alpha, exact_alpha;
    const kmx::DcsvmResult early = solve_dcsvm(letter.problem, options, early_alpha);
    ASSERT_EQ(early.partition.k, 16);
    ASSERT_EQ(early.cluster_of.size(), size_t(letter.problem.n));
    EXPECT_EQ(early.levels.size(), 1u);
    EXPECT_EQ(early.cluster_bias, std::vector<double>(16, 0.0));

    kmx::Context ctx;
    std::vector<int32_t> reassigned(size_t(letter.problem.n)), test_cluster(size_t(test->n));
    kmx::kernel_partition_assign(ctx, *letter.data, early.partition, *letter.data, nullptr, letter.problem.n,
                                 letter.problem.kernel, reassigned.data());
    EXPECT_EQ(reassigned, early.cluster_of);
    kmx::kernel_partition_assign(ctx, *letter.data, early.partition, *test, nullptr, test->n, letter.problem.kernel,
                                 test_cluster.data());

    solve_plain(letter.problem, options.svm, exact_alpha);
    std::vector<int64_t> everyone(size_t(letter.problem.n));
    for (int64_t i = 0; i < letter.problem.n; ++i) everyone[size_t(i)] = i;
    const double exact_test = accuracy(*letter.data, exact_alpha.data(), {everyone}, {}, letter.problem.kernel, *test);
    const double early_test = accuracy(*letter.data, early_alpha.data(), members_of(early.cluster_of, 16), test_cluster,
                                       letter.problem.kernel, *test);
    const double exact_train =
        accuracy(*letter.data, exact_alpha.data(), {everyone}, {}, letter.problem.kernel, *letter.data);
    const double early_train = accuracy(*letter.data, early_alpha.data(), members_of(early.cluster_of, 16),
                                        early.cluster_of, letter.problem.kernel, *letter.data);
    std::printf("accuracy: exact train %.4f test %.4f; early (16 clusters) train %.4f test %.4f\n", exact_train,
                exact_test, early_train, early_test);
    EXPECT_GE(early_train, exact_train - 0.03);
    EXPECT_GE(early_test, exact_test - 0.03);
}

// The early level keeps clusters of at least min_early_cluster_rows rows:
// 3000 rows at early level 2 (16 clusters asked) get 3; the early model is
// then no less accurate than at 16 clusters, against the exact one.
TEST(Dcsvm, EarlyLevelKeepsLargeClusters) {
    const LetterProblem letter(3000, 8, 16);
    const std::unique_ptr<kmx::Dataset> test = dcsvm_test::load_example("letter_bin.test.libsvm", 1500);
    kmx::DcsvmOptions options;
    options.levels = 3;
    options.early_level = 2;
    options.svm.bias = false;
    ASSERT_EQ(options.min_early_cluster_rows, 1000);
    std::vector<double> capped_alpha, fine_alpha, exact_alpha;
    const kmx::DcsvmResult capped = solve_dcsvm(letter.problem, options, capped_alpha);
    ASSERT_EQ(capped.partition.k, 3);
    options.min_early_cluster_rows = 0;
    const kmx::DcsvmResult fine = solve_dcsvm(letter.problem, options, fine_alpha);
    ASSERT_EQ(fine.partition.k, 16);
    solve_plain(letter.problem, options.svm, exact_alpha);

    kmx::Context ctx;
    std::vector<int32_t> capped_test(size_t(test->n)), fine_test(size_t(test->n));
    kmx::kernel_partition_assign(ctx, *letter.data, capped.partition, *test, nullptr, test->n, letter.problem.kernel,
                                 capped_test.data());
    kmx::kernel_partition_assign(ctx, *letter.data, fine.partition, *test, nullptr, test->n, letter.problem.kernel,
                                 fine_test.data());
    std::vector<int64_t> everyone(size_t(letter.problem.n));
    for (int64_t i = 0; i < letter.problem.n; ++i) everyone[size_t(i)] = i;
    const kmx::KernelSpec &kernel = letter.problem.kernel;
    const double exact = accuracy(*letter.data, exact_alpha.data(), {everyone}, {}, kernel, *test);
    const double with_3 =
        accuracy(*letter.data, capped_alpha.data(), members_of(capped.cluster_of, 3), capped_test, kernel, *test);
    const double with_16 =
        accuracy(*letter.data, fine_alpha.data(), members_of(fine.cluster_of, 16), fine_test, kernel, *test);
    std::printf("test accuracy: exact %.4f, early with 3 clusters %.4f, with 16 clusters %.4f\n", exact, with_3,
                with_16);
    EXPECT_GE(with_3, with_16 - 0.002);
    EXPECT_GE(with_3, exact - 0.01);
}

// A problem below min_early_cluster_rows is one cluster: the early model is
// the exact one (a one-point partition, every row in cluster 0).
TEST(Dcsvm, SmallEarlyProblemIsSolvedWhole) {
    const LetterProblem letter(900, 8, 16);
    kmx::DcsvmOptions options;
    options.early_level = 3;
    options.svm.bias = false;
    std::vector<double> early_alpha, exact_alpha;
    const kmx::DcsvmResult early = solve_dcsvm(letter.problem, options, early_alpha);
    ASSERT_EQ(early.partition.k, 1);
    EXPECT_EQ(early.partition.sample_rows.size(), 1u);
    EXPECT_EQ(early.cluster_of, std::vector<int32_t>(900, 0));
    const kmx::SvmSolution exact = solve_plain(letter.problem, options.svm, exact_alpha);
    EXPECT_NEAR(early.solution.objective, exact.objective, 1e-3 * std::fabs(exact.objective));
    EXPECT_EQ(early.levels.size(), 1u);
}

TEST(Dcsvm, BkaSolvesEachClusterExactly) {
    const LetterProblem letter(2000, 4, 8);
    kmx::DcsvmOptions options;
    options.bka = true;
    options.early_level = 2;
    for (const bool bias : {false, true}) {
        options.svm.bias = bias;
        std::vector<double> alpha;
        const kmx::DcsvmResult bka = solve_dcsvm(letter.problem, options, alpha);
        ASSERT_EQ(bka.levels.size(), 1u);
        EXPECT_EQ(bka.levels[0].level, 2);
        ASSERT_EQ(bka.partition.k, 16);
        ASSERT_EQ(bka.cluster_bias.size(), 16u);
        const std::vector<std::vector<int64_t>> clusters = members_of(bka.cluster_of, 16);
        double objectives = 0;
        for (const std::vector<int64_t> &members : clusters) {
            ASSERT_FALSE(members.empty());
            const int64_t m = int64_t(members.size());
            std::vector<double> y(static_cast<size_t>(m)), a(static_cast<size_t>(m));
            for (int64_t p = 0; p < m; ++p) {
                y[size_t(p)] = letter.problem.y[members[size_t(p)]];
                a[size_t(p)] = alpha[size_t(members[size_t(p)])];
            }
            const std::vector<double> gram =
                direct_kernel_matrix(*letter.data, members.data(), m, letter.problem.kernel);
            const std::vector<double> gradient = dual_gradient(gram, y.data(), a.data(), m);
            EXPECT_LE(kkt_violation(gradient, y.data(), a.data(), letter.C, bias), 1.5 * options.svm.eps);
            objectives += dual_objective(gram, y.data(), a.data(), m);
        }
        EXPECT_NEAR(bka.solution.objective, objectives, 1e-6 * std::fabs(objectives));
    }
}

TEST(Dcsvm, SameSeedAndThreadsGiveIdenticalAlpha) {
    const LetterProblem letter(1500, 8, 16);
    kmx::DcsvmOptions options;
    options.svm.bias = false;
    for (const int threads : {1, 2}) {
        std::vector<double> first, second;
        solve_dcsvm(letter.problem, options, first, threads, 7);
        solve_dcsvm(letter.problem, options, second, threads, 7);
        EXPECT_EQ(first, second) << threads << " threads";
    }
}

TEST(Dcsvm, SmallProblemsUseFewerClusters) {
    for (const int64_t rows : {int64_t(10), int64_t(70), int64_t(200)}) {
        const LetterProblem letter(rows, 1, 1);
        kmx::DcsvmOptions options;
        options.levels = 5;  // 4^5 = 1024 clusters asked for
        options.svm.bias = true;
        std::vector<double> dc_alpha, plain_alpha;
        const kmx::DcsvmResult dc = solve_dcsvm(letter.problem, options, dc_alpha);
        const kmx::SvmSolution plain = solve_plain(letter.problem, options.svm, plain_alpha);
        EXPECT_NEAR(dc.solution.objective, plain.objective, 1e-3 * std::fabs(plain.objective)) << rows << " rows";
        for (const kmx::DcsvmLevelStats &s : dc.levels)
            EXPECT_LE(s.clusters * kmx::kDcsvmMinRowsPerCluster, std::max<int64_t>(rows, kmx::kDcsvmMinRowsPerCluster));

        options.early_level = 5;
        const kmx::DcsvmResult early = solve_dcsvm(letter.problem, options, dc_alpha);
        ASSERT_EQ(early.levels.size(), 1u);
        EXPECT_GE(early.partition.k, 1);
        EXPECT_EQ(early.cluster_of.size(), size_t(rows));
    }
}

TEST(Dcsvm, RowSubsetsAndBudget) {
    const LetterProblem letter(1200, 2, 4);
    std::vector<int64_t> rows;
    std::vector<double> y;
    for (int64_t i = 0; i < letter.problem.n; i += 2) {
        rows.push_back(i);
        y.push_back(letter.problem.y[i]);
    }
    kmx::SvmProblem subset = letter.problem;
    subset.rows = rows.data();
    subset.n = int64_t(rows.size());
    subset.y = y.data();
    kmx::DcsvmOptions options;
    options.levels = 2;
    options.svm.bias = false;
    std::vector<double> dc_alpha, plain_alpha;
    const kmx::DcsvmResult dc = solve_dcsvm(subset, options, dc_alpha);
    const kmx::SvmSolution plain = solve_plain(subset, options.svm, plain_alpha);
    EXPECT_NEAR(dc.solution.objective, plain.objective, 1e-3 * std::fabs(plain.objective));

    kmx::Context tight;
    tight.memory_budget = 4096;
    EXPECT_THROW(kmx::train_dcsvm(tight, subset, options, dc_alpha.data()), kmx::Error);
}

}  // namespace

// Early prediction with its level chosen from the data goes from the deepest
// level to coarser ones while each cluster of the coarser level keeps its
// support vectors' columns in a worker's share of the kernel cache and the
// coarser level's kernel work (Σ rows · support vectors over its clusters)
// is within early_max_work: with a cache that holds everything it reaches
// level 1; with one too small for level 1's columns, or a work bound below
// level 1's, it stops at level 2 (level 1 is clustered, not solved).
// The chosen level's subproblems are solved to the caller's eps (each
// cluster's α satisfies its own KKT conditions).
struct EarlyLimits {
    size_t cache;
    double max_work;
};

class EarlyLevelFromTheData : public ::testing::TestWithParam<EarlyLimits> {};

TEST_P(EarlyLevelFromTheData, GoesCoarserWhileTheCacheHoldsTheSupportVectors) {
    const size_t cache = GetParam().cache;
    const LetterProblem letter(6000, 8, 16);  // ~40% support vectors
    kmx::DcsvmOptions options;
    options.early_auto = true;
    options.levels = 4;
    options.clusters_per_level = 2;  // levels 2 and 1: 4 and 2 clusters of >= 1000 rows
    options.svm.bias = false;
    options.svm.cache_bytes = cache;
    options.early_max_work = GetParam().max_work;
    std::vector<double> alpha;
    const kmx::DcsvmResult early = solve_dcsvm(letter.problem, options, alpha, 2);
    const kmx::DcsvmLevelStats &chosen = early.levels.back();
    // Level 1's two clusters of ~3000 rows hold ~1200 support vectors each
    // (as level 2's four clusters, ~600 each, had them): ~7.2e6 entries of
    // work, and ~2.5x the columns the 6 MB cache holds.
    const int64_t level_1_work = 2 * 3000 * (chosen.support_vectors / 2);
    const bool everything_fits = cache >= (size_t(1) << 30) && options.early_max_work > 2.0 * double(level_1_work);
    ASSERT_EQ(early.levels.size(), everything_fits ? 2u : 1u);
    EXPECT_EQ(chosen.level, everything_fits ? 1 : 2);
    if (cache < (size_t(1) << 30)) {
        EXPECT_GT(chosen.support_vectors / 2, kmx::KernelCache::slots_for(3000, cache / 2));
    }
    if (options.early_max_work < 1e9) {
        EXPECT_LT(options.early_max_work, 0.5 * double(level_1_work));
    }
    EXPECT_EQ(early.partition.k, chosen.clusters);
    const std::vector<std::vector<int64_t>> clusters = members_of(early.cluster_of, int(chosen.clusters));
    for (const std::vector<int64_t> &members : clusters) {
        const int64_t m = int64_t(members.size());
        std::vector<double> y(static_cast<size_t>(m)), a(static_cast<size_t>(m));
        for (int64_t p = 0; p < m; ++p) {
            y[size_t(p)] = letter.problem.y[members[size_t(p)]];
            a[size_t(p)] = alpha[size_t(members[size_t(p)])];
        }
        const std::vector<double> gram = direct_kernel_matrix(*letter.data, members.data(), m, letter.problem.kernel);
        const std::vector<double> gradient = dual_gradient(gram, y.data(), a.data(), m);
        EXPECT_LE(kkt_violation(gradient, y.data(), a.data(), letter.C, false), 1.5 * options.svm.eps);
    }
}

// 1 GiB holds all of Q; 6 MB, 3 MB a worker, holds about 260 columns of
// level 1's 3000-row subproblems; 2e6 entries is under level 1's work.
INSTANTIATE_TEST_SUITE_P(Dcsvm, EarlyLevelFromTheData,
                         ::testing::Values(EarlyLimits{size_t(1) << 30, kmx::kDcsvmEarlyMaxWork},
                                           EarlyLimits{size_t(6) << 20, kmx::kDcsvmEarlyMaxWork},
                                           EarlyLimits{size_t(1) << 30, 2e6}));
