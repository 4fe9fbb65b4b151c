// test_svm_dual.cpp — the C-SVC dual solver (lib/svm/svm_dual.*) checked
// from the outside: KKT conditions and objectives recomputed here by direct
// double loops over the kernel, agreement between solver variants (bias or
// not, shrinking, cache sizes, warm starts), and its failure modes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <initializer_list>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "core/arena.h"
#include "core/context.h"
#include "core/dataset.h"
#include "core/error.h"
#include "io/text_reader.h"
#include "kernel/kernel.h"
#include "svm/kernel_cache.h"
#include "svm/svm_dual.h"
#include "svm/svm_q_matrix.h"
#include "../common/kernel_spec.h"
#include "../common/status_of.h"

namespace {

using kmx::Dataset;
using kmx::KernelSpec;
using kmx::SvmOptions;
using kmx::SvmProblem;
using kmx::SvmSolution;

using test_common::rbf;

// A problem over the first n rows of a dataset, owning its labels and bounds.
struct Problem {
    std::unique_ptr<Dataset> data;
    std::vector<double> y, upper;
    SvmProblem problem;

    Problem(std::unique_ptr<Dataset> dataset, int64_t n, KernelSpec kernel, double c) : data(std::move(dataset)) {
        y.assign(data->y, data->y + n);
        for (double &label : y) label = label > 0 ? 1.0 : -1.0;
        upper.assign(size_t(n), c);
        problem.data = data.get();
        problem.n = n;
        problem.y = y.data();
        problem.upper = upper.data();
        problem.kernel = kernel;
    }
};

// Two overlapping Gaussian blobs in d dimensions, labels ±1.
Problem random_problem(int64_t n, int64_t d, double c, KernelSpec kernel, uint32_t seed = 7) {
    std::mt19937 rng(seed);
    std::normal_distribution<double> normal(0.0, 1.0);
    std::vector<double> x(static_cast<size_t>(n * d)), y(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
        y[size_t(i)] = i % 3 == 0 ? -1.0 : 1.0;
        for (int64_t k = 0; k < d; ++k) x[size_t(i * d + k)] = 0.6 * normal(rng) + (k == 0 ? 0.5 * y[size_t(i)] : 0.0);
    }
    return Problem(Dataset::dense_copy(x.data(), n, d, y.data()), n, kernel, c);
}

Problem file_problem(const char *env, const char *file, int64_t n, KernelSpec kernel, double c) {
    const char *dir = std::getenv(env);
    const std::string path = std::string(dir ? dir : ".") + "/" + file;
    kmx::Context ctx;
    auto data = kmx::read_dataset_file(ctx, path.c_str(), KMX_FORMAT_LIBSVM);
    return Problem(std::move(data), std::min(n, data->n), kernel, c);
}

Problem letter_problem(int64_t n, double c = 8, double gamma = 16) {
    return file_problem("KMX_EXAMPLE_DATA", "letter_bin.train.libsvm", n, rbf(gamma), c);
}

struct Solved {
    SvmSolution solution;
    std::vector<double> alpha;
};

Solved solve(const SvmProblem &problem, SvmOptions options, std::vector<double> alpha = {}, int threads = 1) {
    kmx::Context ctx;
    ctx.threads = threads;
    alpha.resize(size_t(problem.n), 0.0);
    kmx::Arena arena(kmx::svm_dual_workspace_bytes(problem.n, problem.data->d, options.cache_bytes));
    Solved run;
    run.solution = kmx::solve_svm_dual(ctx, arena, problem, options, alpha.data());
    run.alpha = std::move(alpha);
    return run;
}

// Q α − e by a direct double loop, the kernel written out here for RBF.
std::vector<double> gradient(const SvmProblem &p, const std::vector<double> &alpha) {
    const Dataset &data = *p.data;
    const int64_t n = p.n, d = data.d;
    std::vector<double> x(size_t(n * d));
    data.copy_rows(0, n, x.data());
    std::vector<double> grad(size_t(n), -1.0);
    for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < n; ++j) {
            if (alpha[size_t(j)] == 0) continue;
            double k;
            if (p.kernel.type == KMX_KERNEL_RBF) {
                double sq = 0;
                for (int64_t t = 0; t < d; ++t) {
                    const double diff = x[size_t(i * d + t)] - x[size_t(j * d + t)];
                    sq += diff * diff;
                }
                k = std::exp(-p.kernel.gamma_for(d) * sq);
            } else {
                k = kmx::kernel_eval(p.kernel, &x[size_t(i * d)], &x[size_t(j * d)], d);
            }
            grad[size_t(i)] += p.y[i] * p.y[j] * k * alpha[size_t(j)];
        }
    return grad;
}

double objective(const std::vector<double> &alpha, const std::vector<double> &grad) {
    double sum = 0;  // ½αᵀQα − eᵀα = ½ Σ α_i (∇f_i − 1)
    for (size_t i = 0; i < alpha.size(); ++i) sum += alpha[i] * (grad[i] - 1);
    return sum / 2;
}

// The largest violation of the KKT conditions, with margins y_i f(x_i) =
// ∇f_i + 1 + y_i b: α_i = 0 ⇒ y_i f ≥ 1, 0 < α_i < C_i ⇒ y_i f = 1,
// α_i = C_i ⇒ y_i f ≤ 1.
double kkt_violation(const SvmProblem &p, const std::vector<double> &alpha, const std::vector<double> &grad,
                     double bias) {
    double worst = 0;
    for (int64_t i = 0; i < p.n; ++i) {
        const double margin = grad[size_t(i)] + 1 + p.y[i] * bias, a = alpha[size_t(i)];
        EXPECT_GE(a, 0.0);
        EXPECT_LE(a, p.upper[i]);
        if (a <= 0)
            worst = std::max(worst, 1 - margin);
        else if (a >= p.upper[i])
            worst = std::max(worst, margin - 1);
        else
            worst = std::max(worst, std::fabs(margin - 1));
    }
    return worst;
}

double label_sum(const SvmProblem &p, const std::vector<double> &alpha) {
    double sum = 0;
    for (int64_t i = 0; i < p.n; ++i) sum += p.y[i] * alpha[size_t(i)];
    return sum;
}

// Checks a solution against the test's own gradient; returns the gradient.
std::vector<double> expect_optimal(const SvmProblem &p, const Solved &run, bool bias, double tol) {
    const std::vector<double> grad = gradient(p, run.alpha);
    EXPECT_TRUE(run.solution.converged);
    EXPECT_LE(kkt_violation(p, run.alpha, grad, run.solution.bias), tol);
    EXPECT_NEAR(run.solution.objective, objective(run.alpha, grad), 1e-6 * std::fabs(objective(run.alpha, grad)));
    if (bias) {
        EXPECT_NEAR(label_sum(p, run.alpha), 0.0, 1e-10);
    } else {
        EXPECT_EQ(run.solution.bias, 0.0);
    }
    int64_t svs = 0, bounded = 0;
    for (int64_t i = 0; i < p.n; ++i) {
        svs += run.alpha[size_t(i)] > 0;
        bounded += run.alpha[size_t(i)] >= p.upper[i];
    }
    EXPECT_EQ(run.solution.support_vectors, svs);
    EXPECT_EQ(run.solution.bounded_support, bounded);
    return grad;
}

double relative_difference(double a, double b) { return std::fabs(a - b) / std::max(std::fabs(b), 1e-300); }

SvmOptions options_with(bool bias, double eps = 1e-3, bool shrinking = true) {
    SvmOptions options;
    options.bias = bias;
    options.eps = eps;
    options.shrinking = shrinking;
    return options;
}

using test_common::status_of;

// ------------------------------------------------------------ KKT, objective

TEST(SvmDual, RandomDataWithBiasSatisfiesKkt) {
    for (double c : {0.1, 1.0, 100.0}) {
        Problem p = random_problem(300, 5, c, rbf(0.5));
        const Solved run = solve(p.problem, options_with(true));
        expect_optimal(p.problem, run, true, 2e-3);
        EXPECT_GT(run.solution.support_vectors, 0);
    }
}

TEST(SvmDual, RandomDataWithoutBiasSatisfiesKkt) {
    for (double c : {0.1, 1.0, 100.0}) {
        Problem p = random_problem(300, 5, c, rbf(0.5));
        const Solved run = solve(p.problem, options_with(false));
        expect_optimal(p.problem, run, false, 2e-3);
    }
}

// Without bias the solver steps on the greedy coordinate and the previous
// one jointly (an exact two-variable box QP). Near-duplicate rows are the
// case it exists for (one coordinate at a time zigzags between twins): the
// solution must satisfy KKT, match a solve to a 1000× tighter tolerance,
// and take few iterations (at C = 100 greedy coordinate descent alone took
// about 2000 n on data like this, the joint steps under 60 n).
TEST(SvmDual, NearDuplicateRowsWithoutBiasConverge) {
    std::mt19937 rng(11);
    std::normal_distribution<double> normal(0.0, 1.0);
    const int64_t groups = 60, copies = 5, d = 3, n = groups * copies;
    std::vector<double> x(static_cast<size_t>(n * d)), y(static_cast<size_t>(n));
    for (int64_t g = 0; g < groups; ++g) {
        std::vector<double> center(static_cast<size_t>(d));
        for (double &v : center) v = normal(rng);
        for (int64_t c = 0; c < copies; ++c) {
            const int64_t i = g * copies + c;
            y[size_t(i)] = (g + c) % 2 == 0 ? 1.0 : -1.0;  // twins with both labels: many bounded α
            for (int64_t k = 0; k < d; ++k) x[size_t(i * d + k)] = center[size_t(k)] + 1e-3 * normal(rng);
        }
    }
    for (const double c : {1.0, 100.0}) {
        Problem p(Dataset::dense_copy(x.data(), n, d, y.data()), n, rbf(2.0), c);
        const Solved run = solve(p.problem, options_with(false));
        expect_optimal(p.problem, run, false, 2e-3);
        const Solved tight = solve(p.problem, options_with(false, 1e-6));
        expect_optimal(p.problem, tight, false, 1e-4);  // Q is cached as floats: 1e-6 · C · n of rounding
        EXPECT_LE(run.solution.objective - tight.solution.objective, 1e-3 * std::fabs(tight.solution.objective));
        EXPECT_GE(run.solution.objective, tight.solution.objective - 1e-9 * std::fabs(tight.solution.objective));
        EXPECT_LT(run.solution.iterations, 100 * n) << "C = " << c;
    }
}

TEST(SvmDual, OtherKernelsSatisfyKkt) {
    KernelSpec linear, poly, laplace;
    linear.type = KMX_KERNEL_LINEAR;
    poly.type = KMX_KERNEL_POLYNOMIAL;
    poly.gamma = 0.5;
    poly.coef0 = 1;
    poly.degree = 2;
    laplace.type = KMX_KERNEL_LAPLACIAN;
    laplace.gamma = 0.3;
    for (const KernelSpec &kernel : {linear, poly, laplace})
        for (bool bias : {true, false}) {
            Problem p = random_problem(200, 4, 1.0, kernel);
            expect_optimal(p.problem, solve(p.problem, options_with(bias)), bias, 2e-3);
        }
}

TEST(SvmDual, LetterSubsetSatisfiesKkt) {
    Problem p = letter_problem(800);
    for (bool bias : {true, false}) {
        const Solved run = solve(p.problem, options_with(bias));
        // the cached Q columns are floats (as LIBSVM's): the test's double
        // gradient differs from the solver's by about Σα · 1e-7
        expect_optimal(p.problem, run, bias, 1e-2);
        EXPECT_GT(run.solution.iterations, 0);
    }
}

TEST(SvmDual, SpamSubsetSatisfiesKkt) {
    Problem p = file_problem("KMX_TEST_DATA", "spam_bin.train.libsvm", 600, rbf(0.5), 10);
    for (bool bias : {true, false}) expect_optimal(p.problem, solve(p.problem, options_with(bias)), bias, 1e-2);
}

TEST(SvmDual, PerSampleBoundsSatisfyKkt) {
    Problem p = random_problem(300, 5, 1.0, rbf(0.5));
    std::mt19937 rng(3);
    std::uniform_real_distribution<double> scale(0.1, 5.0);
    for (double &c : p.upper) c = scale(rng);
    for (bool bias : {true, false}) {
        const Solved run = solve(p.problem, options_with(bias));
        expect_optimal(p.problem, run, bias, 2e-3);
        EXPECT_GT(run.solution.bounded_support, 0);
    }
}

TEST(SvmDual, SparseDatasetGivesTheDenseResult) {
    Problem dense = random_problem(200, 6, 1.0, rbf(0.4));
    std::vector<double> x(200 * 6);
    dense.data->copy_rows(0, 200, x.data());
    std::vector<int64_t> row_ptr{0};
    std::vector<int32_t> col;
    std::vector<double> values;
    for (int64_t i = 0; i < 200; ++i) {
        for (int32_t k = 0; k < 6; ++k)
            if (k % 2 == i % 2) {  // half the entries set to zero
                x[size_t(i * 6 + k)] = 0;
            } else {
                col.push_back(k);
                values.push_back(x[size_t(i * 6 + k)]);
            }
        row_ptr.push_back(int64_t(col.size()));
    }
    Problem zeroed(Dataset::dense_copy(x.data(), 200, 6, dense.data->y), 200, rbf(0.4), 1.0);
    Dataset sparse;
    sparse.n = 200;
    sparse.d = 6;
    sparse.row_ptr = row_ptr.data();
    sparse.col = col.data();
    sparse.values = values.data();
    SvmProblem sp = zeroed.problem;
    sp.data = &sparse;
    const Solved a = solve(zeroed.problem, options_with(true)), b = solve(sp, options_with(true));
    EXPECT_NEAR(a.solution.objective, b.solution.objective, 1e-12 * std::fabs(a.solution.objective));
    EXPECT_EQ(a.solution.iterations, b.solution.iterations);
}

TEST(SvmDual, RowSubsetEqualsCopiedRows) {
    Problem p = random_problem(300, 4, 1.0, rbf(0.5));
    std::vector<int64_t> rows;
    for (int64_t i = 299; i >= 0; i -= 2) rows.push_back(i);
    const int64_t n = int64_t(rows.size());
    std::vector<double> x(size_t(300 * 4)), sub_x, sub_y;
    p.data->copy_rows(0, 300, x.data());
    for (int64_t r : rows) {
        sub_x.insert(sub_x.end(), &x[size_t(r * 4)], &x[size_t(r * 4 + 4)]);
        sub_y.push_back(p.y[size_t(r)]);
    }
    Problem copied(Dataset::dense_copy(sub_x.data(), n, 4, sub_y.data()), n, rbf(0.5), 1.0);
    SvmProblem indexed = copied.problem;
    indexed.data = p.data.get();
    indexed.rows = rows.data();
    const Solved a = solve(copied.problem, options_with(true)), b = solve(indexed, options_with(true));
    EXPECT_EQ(a.solution.objective, b.solution.objective);
    EXPECT_EQ(a.alpha, b.alpha);
}

// ------------------------------------------------------------ variants agree

TEST(SvmDual, NoBiasObjectiveIsAtMostTheBiasOne) {
    Problem p = letter_problem(600);
    const double with_bias = solve(p.problem, options_with(true, 1e-5)).solution.objective;
    const double without = solve(p.problem, options_with(false, 1e-5)).solution.objective;
    EXPECT_LE(without, with_bias + 1e-9 * std::fabs(with_bias));
}

TEST(SvmDual, WarmStartFromTheSolutionNeedsNoIterations) {
    Problem p = letter_problem(600);
    for (bool bias : {true, false}) {
        const Solved exact = solve(p.problem, options_with(bias, 1e-4));
        const Solved again = solve(p.problem, options_with(bias, 1e-4), exact.alpha);
        EXPECT_LE(again.solution.iterations, 2) << "bias " << bias;
        EXPECT_NEAR(again.solution.objective, exact.solution.objective, 1e-9 * std::fabs(exact.solution.objective));
    }
}

TEST(SvmDual, PerturbedWarmStartReachesTheSameObjective) {
    Problem p = letter_problem(600);
    std::mt19937 rng(11);
    std::uniform_real_distribution<double> noise(-2.0, 2.0);
    for (bool bias : {true, false}) {
        const Solved exact = solve(p.problem, options_with(bias, 1e-6));
        std::vector<double> start = exact.alpha;
        for (double &a : start) a = std::max(0.0, a + noise(rng));  // also above C: clipped
        const Solved warm = solve(p.problem, options_with(bias, 1e-6), start);
        EXPECT_LT(relative_difference(warm.solution.objective, exact.solution.objective), 1e-6) << "bias " << bias;
        if (bias) {
            EXPECT_NEAR(label_sum(p.problem, warm.alpha), 0.0, 1e-10);
        }
    }
}

TEST(SvmDual, InfeasibleWarmStartIsMadeFeasible) {
    Problem p = random_problem(200, 4, 1.0, rbf(0.5));
    const Solved cold = solve(p.problem, options_with(true, 1e-6));
    const Solved warm = solve(p.problem, options_with(true, 1e-6), std::vector<double>(200, 0.7));
    EXPECT_NEAR(label_sum(p.problem, warm.alpha), 0.0, 1e-10);
    EXPECT_LT(relative_difference(warm.solution.objective, cold.solution.objective), 1e-6);
}

TEST(SvmDual, ShrinkingDoesNotChangeTheSolution) {
    Problem p = letter_problem(1000);
    for (bool bias : {true, false}) {
        const Solved on = solve(p.problem, options_with(bias, 1e-5, true));
        const Solved off = solve(p.problem, options_with(bias, 1e-5, false));
        EXPECT_LT(relative_difference(on.solution.objective, off.solution.objective), 1e-6) << "bias " << bias;
        EXPECT_NEAR(on.solution.bias, off.solution.bias, 1e-3);
        // the active set when shrinking converged: fewer than all rows, every free α among them
        int64_t free = 0;
        for (int64_t i = 0; i < p.problem.n; ++i)
            free += on.alpha[size_t(i)] > 0 && on.alpha[size_t(i)] < p.problem.upper[i];
        EXPECT_EQ(off.solution.final_active, p.problem.n);
        EXPECT_LT(on.solution.final_active, p.problem.n) << "bias " << bias;
        EXPECT_GE(on.solution.final_active, free) << "bias " << bias;
    }
}

TEST(SvmDual, TinyCacheGivesTheLargeCacheResult) {
    Problem p = letter_problem(600);
    for (bool bias : {true, false}) {
        SvmOptions tiny = options_with(bias), large = options_with(bias);
        tiny.cache_bytes = 1;  // rounds up to the smallest cache: two columns
        large.cache_bytes = size_t(600) * 600 * sizeof(float);
        const Solved a = solve(p.problem, tiny), b = solve(p.problem, large);
        EXPECT_LT(relative_difference(a.solution.objective, b.solution.objective), 1e-9) << "bias " << bias;
        EXPECT_EQ(a.solution.support_vectors, b.solution.support_vectors);
        EXPECT_NEAR(a.solution.bias, b.solution.bias, 1e-6);
    }
}

// A cache of 40 full columns that shrinking re-slots into narrower ones, and
// the spare buffers for the full-length columns Ḡ and unshrinking need.
TEST(SvmDual, ReslottedCacheGivesTheLargeCacheResult) {
    Problem p = letter_problem(1000);
    for (bool bias : {true, false}) {
        SvmOptions small = options_with(bias), large = options_with(bias);
        small.cache_bytes = size_t(40) * 1000 * sizeof(float);
        large.cache_bytes = size_t(1000) * 1000 * sizeof(float);
        const Solved a = solve(p.problem, small), b = solve(p.problem, large);
        EXPECT_LT(relative_difference(a.solution.objective, b.solution.objective), 1e-9) << "bias " << bias;
        EXPECT_EQ(a.solution.support_vectors, b.solution.support_vectors);
        EXPECT_NEAR(a.solution.bias, b.solution.bias, 1e-6);
    }
}

TEST(SvmDual, SameInputSameResultAcrossThreads) {
    Problem p = letter_problem(1000);
    const Solved a = solve(p.problem, options_with(true), {}, 1), b = solve(p.problem, options_with(true), {}, 1);
    EXPECT_EQ(a.alpha, b.alpha);
    const Solved c = solve(p.problem, options_with(true), {}, 2);
    EXPECT_LT(relative_difference(c.solution.objective, a.solution.objective), 1e-6);
}

TEST(SvmDual, IterationCapReturnsUnconverged) {
    Problem p = letter_problem(600);
    SvmOptions options = options_with(true);
    options.max_iter = 5;
    const Solved run = solve(p.problem, options);
    EXPECT_FALSE(run.solution.converged);
    EXPECT_EQ(run.solution.iterations, 5);
    EXPECT_GT(run.solution.kkt_violation, options.eps);
    options.strict = true;
    EXPECT_EQ(status_of([&] { solve(p.problem, options); }), KMX_E_NOT_CONVERGED);
}

// ------------------------------------------------------------ memory, progress

TEST(SvmDual, WorkspaceIsExact) {
    Problem p = random_problem(300, 5, 1.0, rbf(0.5));
    for (size_t cache : {size_t(0), size_t(1) << 14, size_t(1) << 30}) {
        const size_t bytes = kmx::svm_dual_workspace_bytes(300, 5, cache);
        kmx::Arena arena(bytes);
        kmx::Context ctx;
        std::vector<double> alpha(300, 0.0);
        SvmOptions options = options_with(true);
        options.cache_bytes = cache ? cache : 1;
        kmx::solve_svm_dual(ctx, arena, p.problem, options, alpha.data());
        EXPECT_EQ(arena.peak(), bytes);
        EXPECT_EQ(arena.used(), 0u);
    }
}

TEST(SvmDual, AutoCacheTakesWhatTheBudgetLeaves) {
    const int64_t n = 1000, d = 10;
    const size_t smallest = kmx::svm_dual_workspace_bytes(n, d, 0);
    EXPECT_EQ(kmx::svm_dual_auto_workspace_bytes(n, d, 0), smallest);
    EXPECT_EQ(kmx::svm_auto_cache_bytes(n, 0), size_t(2 * n) * sizeof(float));
    // a budget of 100 more columns buys about 100 more columns
    const size_t budget = smallest + size_t(100 * n) * sizeof(float);
    const size_t auto_bytes = kmx::svm_dual_auto_workspace_bytes(n, d, budget);
    EXPECT_LE(auto_bytes, budget);
    EXPECT_GT(auto_bytes, smallest + size_t(98 * n) * sizeof(float));
    // never more than n columns, never more than the machine can give
    EXPECT_EQ(kmx::svm_auto_cache_bytes(n, size_t(1) << 40), size_t(n * n) * sizeof(float));
    const size_t machine = kmx::machine_memory_budget();
    const size_t large_n = kmx::svm_auto_cache_bytes(1000000, size_t(1) << 50);
    EXPECT_LE(large_n, machine);
    EXPECT_GT(large_n, machine - size_t(2) * 1000000 * sizeof(float) - (size_t(1) << 26));
    // an arena of the auto size, with cache_bytes = 0, is used exactly
    Problem p = random_problem(n, d, 1.0, rbf(0.1));
    kmx::Context ctx;
    kmx::Arena arena = ctx.reserve(auto_bytes, "svm");
    std::vector<double> alpha(size_t(n), 0.0);
    kmx::solve_svm_dual(ctx, arena, p.problem, options_with(true), alpha.data());
    EXPECT_EQ(arena.peak(), auto_bytes);
}

TEST(SvmDual, BudgetBelowTheSmallestCacheFailsBeforeWork) {
    Problem p = random_problem(300, 5, 1.0, rbf(0.5));
    kmx::Context ctx;
    ctx.memory_budget = kmx::svm_dual_workspace_bytes(300, 5, 0) - 1;
    kmx::Error error(KMX_OK, "none");
    try {
        ctx.reserve(kmx::svm_dual_auto_workspace_bytes(300, 5, ctx.memory_budget), "SVM dual solver");
    } catch (const kmx::Error &e) {
        error = e;
    }
    EXPECT_EQ(error.status(), KMX_E_OUT_OF_MEMORY);
    EXPECT_NE(std::string(error.what()).find("bytes"), std::string::npos) << error.what();
    // handed a smaller arena, the solver refuses before touching alpha
    kmx::Arena arena(kmx::svm_dual_workspace_bytes(300, 5, 0) - 64);
    std::vector<double> alpha(300, 0.25);
    try {
        kmx::solve_svm_dual(ctx, arena, p.problem, options_with(true), alpha.data());
        ADD_FAILURE() << "no error";
    } catch (const kmx::Error &e) {
        EXPECT_EQ(e.status(), KMX_E_OUT_OF_MEMORY);
        EXPECT_NE(std::string(e.what()).find("needs"), std::string::npos) << e.what();
    }
    EXPECT_EQ(alpha, std::vector<double>(300, 0.25));
    EXPECT_EQ(arena.peak(), 0u);
}

TEST(SvmDual, ReportsProgressAndHonoursCancel) {
    Problem p = letter_problem(1500);
    struct Calls {
        int count = 0;
        double last = -1;
        bool increasing = true;
    } calls;
    kmx::Context ctx;
    ctx.progress_user = &calls;
    ctx.progress_fn = [](void *user, double fraction, const char *phase) -> int {
        auto *c = static_cast<Calls *>(user);
        ++c->count;
        EXPECT_STREQ(phase, "svm");
        EXPECT_GE(fraction, 0.0);
        EXPECT_LT(fraction, 1.0);
        c->last = fraction;
        return c->count >= 2;  // stop at the second report
    };
    std::vector<double> alpha(1500, 0.0);
    kmx::Arena arena(kmx::svm_dual_workspace_bytes(1500, 16, 0));
    EXPECT_EQ(status_of([&] { kmx::solve_svm_dual(ctx, arena, p.problem, options_with(true), alpha.data()); }),
              KMX_E_CANCELLED);
    EXPECT_EQ(calls.count, 2);
    kmx::Context cancelled;
    cancelled.request_cancel();
    EXPECT_EQ(status_of([&] { kmx::solve_svm_dual(cancelled, arena, p.problem, options_with(true), alpha.data()); }),
              KMX_E_CANCELLED);
}

// ------------------------------------------------------------ bad input

TEST(SvmDual, RejectsBadInput) {
    Problem p = random_problem(50, 3, 1.0, rbf(0.5));
    std::vector<double> alpha(50, 0.0);
    auto status = [&](const SvmProblem &problem) {
        return status_of([&] { solve(problem, options_with(true), alpha); });
    };
    SvmProblem q = p.problem;
    std::vector<double> y = p.y;
    y[7] = 2;
    q.y = y.data();
    EXPECT_EQ(status(q), KMX_E_INVALID_ARGUMENT);
    y[7] = 0;
    EXPECT_EQ(status(q), KMX_E_INVALID_ARGUMENT);
    q = p.problem;
    std::vector<double> upper = p.upper;
    upper[3] = 0;
    q.upper = upper.data();
    EXPECT_EQ(status(q), KMX_E_INVALID_ARGUMENT);
    upper[3] = -1;
    EXPECT_EQ(status(q), KMX_E_INVALID_ARGUMENT);
    q = p.problem;
    q.n = 0;
    EXPECT_EQ(status_of([&] {
                  kmx::Context ctx;
                  kmx::Arena arena(1024);
                  kmx::solve_svm_dual(ctx, arena, q, options_with(true), alpha.data());
              }),
              KMX_E_INVALID_ARGUMENT);
    q = p.problem;
    std::vector<int64_t> rows(50, 0);
    rows[9] = 50;
    q.rows = rows.data();
    EXPECT_EQ(status(q), KMX_E_INVALID_ARGUMENT);
    q = p.problem;
    q.n = 51;
    EXPECT_EQ(status_of([&] {
                  kmx::Context ctx;
                  kmx::Arena arena(kmx::svm_dual_workspace_bytes(51, 3, 0));
                  std::vector<double> a(51, 0.0);
                  kmx::solve_svm_dual(ctx, arena, q, options_with(true), a.data());
              }),
              KMX_E_INVALID_ARGUMENT);
    SvmOptions bad_eps = options_with(true, 0.0);
    EXPECT_EQ(status_of([&] { solve(p.problem, bad_eps); }), KMX_E_INVALID_ARGUMENT);
}

TEST(SvmDual, OneClassGivesZeroAlphaWithBias) {
    Problem p = random_problem(40, 3, 1.0, rbf(0.5));
    std::fill(p.y.begin(), p.y.end(), 1.0);
    const Solved run = solve(p.problem, options_with(true));
    EXPECT_TRUE(run.solution.converged);
    EXPECT_EQ(run.solution.support_vectors, 0);
    EXPECT_TRUE(std::isfinite(run.solution.bias));
}

// ------------------------------------------------------------ the cache alone

// Fetches `columns`, none of them cached yet, and fills the first len
// entries of column c with scale · c + j.
void fill_new_columns(kmx::KernelCache &cache, std::initializer_list<int64_t> columns, int64_t len, float scale) {
    float *data;
    for (int64_t c : columns) {
        ASSERT_EQ(cache.fetch(c, len, &data), 0) << c;
        for (int64_t j = 0; j < len; ++j) data[j] = scale * float(c) + float(j);
    }
}

TEST(KernelCache, KeepsTheMostRecentlyUsedColumns) {
    const int64_t n = 8;
    kmx::Arena arena(kmx::KernelCache::workspace_bytes(n, 3));
    kmx::KernelCache cache(arena, n, 3);
    float *data;
    fill_new_columns(cache, {0, 1, 2}, 4, 10);
    EXPECT_EQ(cache.fetch(0, 6, &data), 4);  // hit; extended to 6
    EXPECT_EQ(data[3], 3.0f);
    data[4] = 4;
    data[5] = 5;
    EXPECT_EQ(cache.fetch(3, 2, &data), 0);  // evicts column 1, the least recent
    EXPECT_EQ(cache.fetch(2, 4, &data), 4);
    EXPECT_EQ(cache.fetch(1, 4, &data), 0);  // gone; evicts 0
    EXPECT_EQ(cache.fetch(2, 4, &data), 4);
}

TEST(KernelCache, SwapIndexFollowsThePermutation) {
    const int64_t n = 6;
    kmx::Arena arena(kmx::KernelCache::workspace_bytes(n, 2));
    kmx::KernelCache cache(arena, n, 2);
    float *data;
    cache.fetch(1, 6, &data);
    for (int64_t j = 0; j < 6; ++j) data[j] = float(j);
    cache.fetch(2, 3, &data);
    for (int64_t j = 0; j < 3; ++j) data[j] = float(20 + j);
    cache.swap_index(1, 4);  // column 1 is now column 4
    EXPECT_EQ(cache.fetch(4, 6, &data), 6);
    EXPECT_EQ(data[1], 4.0f);
    EXPECT_EQ(data[4], 1.0f);
    EXPECT_EQ(cache.fetch(2, 3, &data), 1);  // valid up to 3 only: cut at 1
    EXPECT_EQ(data[0], 20.0f);
}

// Swaps are applied lazily, when a column is fetched: a column that misses
// several rounds of swaps (and a full log) still sees them all, in order.
TEST(KernelCache, LazySwapsMatchEagerOnes) {
    const int64_t n = 7;
    kmx::Arena arena(kmx::KernelCache::workspace_bytes(n, 3));
    kmx::KernelCache cache(arena, n, 3);
    std::vector<float> expect[3];
    float *data;
    for (int64_t c : {0, 1, 2}) {
        cache.fetch(c, n, &data);
        for (int64_t j = 0; j < n; ++j) data[j] = float(10 * c + j);
        expect[c].assign(data, data + n);
    }
    std::vector<int64_t> position = {0, 1, 2, 3, 4, 5, 6};  // column c now sits at position[c]
    std::mt19937 rng(3);
    for (int round = 0; round < 5 * n; ++round) {  // more swaps than the log holds
        const int64_t i = int64_t(rng() % n), j = int64_t(rng() % n);
        cache.swap_index(i, j);
        for (int c = 0; c < 3; ++c) std::swap(expect[c][size_t(i)], expect[c][size_t(j)]);
        for (int64_t &p : position) p = p == i ? j : p == j ? i : p;
        if (round % 4 == 0) {  // column 0 is fetched now and then, the others only at the end
            ASSERT_EQ(cache.fetch(position[0], n, &data), n);
            EXPECT_EQ(std::vector<float>(data, data + n), expect[0]) << "round " << round;
        }
    }
    for (int c = 0; c < 3; ++c) {
        ASSERT_EQ(cache.fetch(position[size_t(c)], n, &data), n);
        EXPECT_EQ(std::vector<float>(data, data + n), expect[c]) << "column " << c;
    }
}

// Shrinking narrows the slots: the same storage holds more, shorter columns,
// each keeping its leading entries (and the swaps logged before); widening
// again empties the slots that no longer fit and keeps the others' entries.
TEST(KernelCache, FitWidthReslotsTheStorage) {
    const int64_t n = 64;
    kmx::Arena arena(kmx::KernelCache::workspace_bytes(n, 3));
    kmx::KernelCache cache(arena, n, 3);
    float *data;
    fill_new_columns(cache, {0, 1, 2}, n, 100);
    cache.swap_index(1, 40);  // column 1 becomes column 40; entries 1 and 40 trade places
    cache.fit_width(60);      // rounds to 64 = n: no change
    EXPECT_EQ(cache.width(), n);
    cache.fit_width(20);  // rounds up to 32
    EXPECT_EQ(cache.width(), 32);
    EXPECT_EQ(cache.slots(), 6);
    ASSERT_EQ(cache.fetch(0, 32, &data), 32);
    EXPECT_EQ(data[1], 40.0f);
    EXPECT_EQ(data[31], 31.0f);
    fill_new_columns(cache, {3, 4, 5}, 32, 100);  // the three new slots take them without evicting
    ASSERT_EQ(cache.fetch(40, 32, &data), 32);
    EXPECT_EQ(data[0], 100.0f);
    EXPECT_EQ(data[1], 140.0f);
    ASSERT_EQ(cache.fetch(2, 32, &data), 32);
    EXPECT_EQ(data[17], 217.0f);
    ASSERT_EQ(cache.fetch(5, 32, &data), 32);
    EXPECT_EQ(data[3], 503.0f);
    cache.fit_width(50);  // rounds to 64: 3 slots again
    EXPECT_EQ(cache.width(), n);
    EXPECT_EQ(cache.slots(), 3);
    ASSERT_EQ(cache.fetch(2, n, &data), 32);  // kept its 32 entries
    EXPECT_EQ(data[31], 231.0f);
    ASSERT_EQ(cache.fetch(0, 32, &data), 32);
    EXPECT_EQ(data[5], 5.0f);
    EXPECT_EQ(cache.fetch(5, 32, &data), 0);  // its slot is gone
    EXPECT_THROW(cache.fetch(7, n + 1, &data), kmx::Error);
}

// Never more slots than columns (storage for 20 columns of 100: slots of at
// least 20 entries), and widths in whole multiples of 16 floats otherwise.
TEST(KernelCache, FitWidthStopsAtOneSlotPerColumn) {
    const int64_t n = 100;
    kmx::Arena arena(kmx::KernelCache::workspace_bytes(n, 20));
    kmx::KernelCache cache(arena, n, 20);
    cache.fit_width(1);
    EXPECT_EQ(cache.slots(), n);
    EXPECT_EQ(cache.width(), 20);
    cache.fit_width(33);
    EXPECT_EQ(cache.width(), 48);
    EXPECT_EQ(cache.slots(), 41);
}

// The Q matrix's ways to kernel columns (one at a time by GEMV, a block
// prefetched by one GEMM, weighted sums of rows by GEMM from a row inside a
// panel of the kept rows, columns longer than re-slotted cache slots, and all
// of them after variables were swapped) against Q_ij = y_i y_j
// exp(−γ‖x_i − x_j‖²) written out here; d = 900 spreads each row over several
// of the micro-kernel's kc-slices.
void expect_columns_match_the_kernel(int64_t d) {
    const int64_t n = 200;
    Problem p = random_problem(n, d, 1.0, rbf(0.4 * 6 / double(d)));
    std::vector<double> x(size_t(n * d));
    p.data->copy_rows(0, n, x.data());
    std::vector<int64_t> row(static_cast<size_t>(n));  // variable → original row
    for (int64_t i = 0; i < n; ++i) row[size_t(i)] = i;
    const auto q_exact = [&](int64_t i, int64_t j) {
        const int64_t a = row[size_t(i)], b = row[size_t(j)];
        double distance = 0;
        for (int64_t k = 0; k < d; ++k) distance += std::pow(x[size_t(a * d + k)] - x[size_t(b * d + k)], 2);
        return p.y[size_t(a)] * p.y[size_t(b)] * std::exp(-0.4 * 6 / double(d) * distance);
    };
    kmx::Arena arena(kmx::SvmQMatrix::workspace_bytes(n, d) + kmx::KernelCache::workspace_bytes(n, 40));
    kmx::SvmQMatrix q(arena, p.problem, 40, 1);
    const auto expect_column = [&](const float *column, int64_t i, int64_t len) {
        for (int64_t j = 0; j < len; ++j) ASSERT_NEAR(column[j], q_exact(i, j), 1e-6) << i << ", " << j;
    };
    expect_column(q.column(3, n), 3, n);
    const int64_t columns[] = {10, 50, 7, 199, 3};
    q.prefetch(columns, 5, n);
    for (int64_t c : columns) {
        EXPECT_TRUE(q.cached(c, n));
        expect_column(q.column(c, n), c, n);
    }
    const auto expect_weighted_sum = [&](int64_t begin, int64_t end) {
        std::vector<double> out(size_t(n), 1.0);
        const double coef[] = {0.5, -2, 3, 0.25, 1};
        q.add_columns(columns, coef, 5, begin, end, out.data());
        for (int64_t j = 0; j < n; ++j) {
            double expected = 1;
            for (int k = 0; k < 5 && j >= begin && j < end; ++k) expected += coef[k] * q_exact(columns[k], j);
            ASSERT_NEAR(out[size_t(j)], expected, 1e-12) << j;
        }
    };
    expect_weighted_sum(20, 150);
    for (const auto [i, j] : {std::pair<int64_t, int64_t>{0, 150}, {5, 77}, {199, 1}, {10, 11}}) {
        q.swap_index(i, j);
        std::swap(row[size_t(i)], row[size_t(j)]);
    }
    expect_column(q.column(150, n), 150, n);
    expect_weighted_sum(0, n);
    q.fit_cache(64);  // shrinking cut the active set to 64
    EXPECT_TRUE(q.cached(7, 64));
    expect_column(q.column(7, n), 7, n);  // longer than a slot: a spare buffer
    const float *first = q.column(11, n), *second = q.column(12, n);
    expect_column(first, 11, n);  // the last two calls' columns stay valid
    expect_column(second, 12, n);
}

TEST(SvmQMatrix, ColumnsPrefetchAndWeightedSumsMatchTheKernel) {
    expect_columns_match_the_kernel(6);
    expect_columns_match_the_kernel(900);
}

// m random rows as ε-SVR's 2m paired variables (rows[k] = rows[k + m], y =
// +1 then −1), and the same variables over a dataset holding every row twice
// (rows 0 … 2m − 1: distinct, not paired); bounds and linear terms shared.
struct PairedAndTwice {
    int64_t m, n, d;
    Problem base;
    std::vector<double> x, stacked, y, upper, linear, zeros;
    std::vector<int64_t> paired_rows, twice_rows;
    std::unique_ptr<Dataset> twice_data;
    SvmProblem paired, twice;

    PairedAndTwice(int64_t rows, int64_t columns, double gamma, uint32_t seed)
        : m(rows), n(2 * rows), d(columns), base(random_problem(rows, columns, 1.0, rbf(gamma), seed)) {
        x.resize(size_t(m * d));
        base.data->copy_rows(0, m, x.data());
        stacked = x;
        stacked.insert(stacked.end(), x.begin(), x.end());
        zeros.assign(size_t(n), 0.0);
        twice_data = Dataset::dense_copy(stacked.data(), n, d, zeros.data());
        y.resize(size_t(n));
        upper.assign(size_t(n), 1.0);
        linear.assign(size_t(n), -1.0);
        for (int64_t v = 0; v < n; ++v) {
            y[size_t(v)] = v < m ? 1.0 : -1.0;
            paired_rows.push_back(v % m);
            twice_rows.push_back(v);
        }
        paired = twice = base.problem;
        paired.rows = paired_rows.data();
        twice.data = twice_data.get();
        twice.rows = twice_rows.data();
        for (SvmProblem *p : {&paired, &twice}) {
            p->n = n;
            p->y = y.data();
            p->upper = upper.data();
            p->linear = linear.data();
        }
    }
};

// Paired variables (ε-SVR's layout, rows[k] = rows[k + m]): the Q matrix
// gathers the m rows once and expands each variable's column from its row's
// cached kernel row. Its columns, prefetches, weighted sums and warm-start
// gradients, through a permutation of the variables, equal those of the
// straightforward 2m-row Q over a dataset holding every row twice (distinct
// rows, not paired), and the kernel written out here.
TEST(SvmQMatrix, PairedVariablesEqualTheStraightforwardTwiceAsLongColumns) {
    PairedAndTwice p(90, 5, 0.7, 11);
    const int64_t m = p.m, n = p.n, d = p.d;
    std::vector<double> alpha(static_cast<size_t>(n));
    std::mt19937 rng(5);
    std::uniform_real_distribution<double> uniform(0.0, 1.0);
    for (int64_t v = 0; v < n; ++v) {
        p.upper[size_t(v)] = 0.5 + uniform(rng);
        const double u = uniform(rng);  // a third at 0, a third at C, a third free
        alpha[size_t(v)] = u < 1.0 / 3 ? 0.0 : u < 2.0 / 3 ? p.upper[size_t(v)] : u * p.upper[size_t(v)];
        p.linear[size_t(v)] = 0.1 * double(v % 7) - 0.3;
    }
    const std::vector<double> &x = p.x, &y = p.y, &upper = p.upper, &linear = p.linear;
    ASSERT_TRUE(kmx::SvmQMatrix::paired(p.paired));
    ASSERT_FALSE(kmx::SvmQMatrix::paired(p.twice));
    const size_t bytes = kmx::SvmQMatrix::workspace_bytes(n, d) + kmx::KernelCache::workspace_bytes(n, 30);
    kmx::Arena arena_p(bytes), arena_t(bytes);
    kmx::SvmQMatrix qp(arena_p, p.paired, 30, 1), qt(arena_t, p.twice, 30, 1);
    EXPECT_EQ(qp.kernel_rows_count(), m);
    EXPECT_GE(qp.cache_slots(), 59);                     // the same bytes: twice the slots, of half the length
    std::vector<int64_t> where(static_cast<size_t>(n));  // position → variable, as both permute
    std::iota(where.begin(), where.end(), int64_t(0));
    const auto q_exact = [&](int64_t i, int64_t j) {  // positions i, j
        const int64_t a = where[size_t(i)] % m, b = where[size_t(j)] % m;
        double distance = 0;
        for (int64_t k = 0; k < d; ++k) distance += std::pow(x[size_t(a * d + k)] - x[size_t(b * d + k)], 2);
        return y[size_t(where[size_t(i)])] * y[size_t(where[size_t(j)])] * std::exp(-0.7 * distance);
    };
    const auto expect_same = [&](int64_t i, int64_t len) {
        const float *a = qp.column(i, len), *b = qt.column(i, len);
        for (int64_t j = 0; j < len; ++j) {
            ASSERT_NEAR(a[j], b[j], 1e-7) << i << ", " << j;
            ASSERT_NEAR(a[j], q_exact(i, j), 1e-6) << i << ", " << j;
        }
        EXPECT_EQ(qp.diagonal()[i], qt.diagonal()[i]);
        EXPECT_EQ(qp.labels()[i], qt.labels()[i]);
    };
    // warm-start gradients: ∇f = Qα + p and Ḡ = Σ_{α_r = C_r} C_r Q_r
    std::vector<int64_t> positive;
    for (int64_t v = 0; v < n; ++v)
        if (alpha[size_t(v)] > 0) positive.push_back(v);
    std::vector<double> gp(static_cast<size_t>(n)), gbp(static_cast<size_t>(n)), gt(static_cast<size_t>(n)),
        gbt(static_cast<size_t>(n));
    qp.add_gradient_terms(positive.data(), int64_t(positive.size()), alpha.data(), upper.data(), linear.data(),
                          gp.data(), gbp.data());
    qt.add_gradient_terms(positive.data(), int64_t(positive.size()), alpha.data(), upper.data(), linear.data(),
                          gt.data(), gbt.data());
    for (int64_t j = 0; j < n; ++j) {
        double grad = linear[size_t(j)], grad_bar = 0;
        for (int64_t r : positive) {
            grad += alpha[size_t(r)] * q_exact(r, j);
            if (alpha[size_t(r)] >= upper[size_t(r)]) grad_bar += upper[size_t(r)] * q_exact(r, j);
        }
        ASSERT_NEAR(gp[size_t(j)], grad, 1e-11) << j;
        ASSERT_NEAR(gbp[size_t(j)], grad_bar, 1e-11) << j;
        ASSERT_NEAR(gp[size_t(j)], gt[size_t(j)], 1e-11) << j;
    }
    expect_same(3, n);
    expect_same(3 + m, n);  // α*_3: the same kernel row, already cached
    EXPECT_TRUE(qp.cached(3 + m, n));
    // a permutation, as shrinking makes: swaps of both halves
    for (const auto &[a, b] : {std::pair<int64_t, int64_t>{0, 150}, {5, 91}, {91, 7}, {120, 2}, {33, 179}}) {
        qp.swap_index(a, b);
        qt.swap_index(a, b);
        std::swap(where[size_t(a)], where[size_t(b)]);
    }
    for (int64_t i : {0, 5, 7, 91, 150, 179, 2}) expect_same(i, 120);  // the first 120 only: an active set
    const int64_t columns[] = {10, 100, 7, 150, 97, 3};                // 10 and 100 share a row
    qp.prefetch(columns, 6, n);
    qt.prefetch(columns, 6, n);
    for (int64_t c : columns) {
        EXPECT_TRUE(qp.cached(c, n)) << c;
        expect_same(c, n);
    }
    std::vector<double> out_p(size_t(n), 1.0), out_t(size_t(n), 1.0);
    const double coef[] = {0.5, -2, 3, 0.25, 1, -0.75};
    qp.add_columns(columns, coef, 6, 40, 170, out_p.data());
    qt.add_columns(columns, coef, 6, 40, 170, out_t.data());
    for (int64_t j = 0; j < n; ++j) {
        double expected = 1;
        for (int k = 0; k < 6 && j >= 40 && j < 170; ++k) expected += coef[k] * q_exact(columns[k], j);
        ASSERT_NEAR(out_p[size_t(j)], expected, 1e-12) << j;
        ASSERT_NEAR(out_p[size_t(j)], out_t[size_t(j)], 1e-12) << j;
    }
    // the last two calls' columns stay valid, also when one repeats an earlier call
    const float *first = qp.column(11, n);
    qp.column(12, n);
    const float *again = qp.column(11, n), *third = qp.column(13, n);
    EXPECT_EQ(first, again);
    for (int64_t j = 0; j < n; ++j) {
        ASSERT_NEAR(again[j], q_exact(11, j), 1e-6) << j;
        ASSERT_NEAR(third[j], q_exact(13, j), 1e-6) << j;
    }
}

// The paired Q solves the same dual: ε-SVR's 2m variables over m rows against
// the same problem over a dataset with each row twice (no pairing).
TEST(SvmQMatrix, PairedVariablesSolveTheSameDual) {
    PairedAndTwice p(300, 4, 0.5, 13);
    const int64_t m = p.m, n = p.n, d = p.d;
    for (int64_t v = 0; v < n; ++v) {
        const double z = p.base.y[size_t(v % m)] * 0.8 + std::sin(p.x[size_t((v % m) * d)]);
        p.upper[size_t(v)] = 2.0;
        p.linear[size_t(v)] = v < m ? 0.1 - z : 0.1 + z;  // ε = 0.1
    }
    SvmOptions options;
    options.eps = 1e-6;
    options.cache_bytes = 40 * size_t(n) * sizeof(float);  // 40 columns: shrinking and re-computed columns
    kmx::Context ctx;
    ctx.threads = 1;
    std::vector<double> ap(size_t(n), 0.0), at(size_t(n), 0.0);
    kmx::Arena arena_p(kmx::svm_dual_workspace_bytes(n, d, options.cache_bytes));
    kmx::Arena arena_t(kmx::svm_dual_workspace_bytes(n, d, options.cache_bytes));
    const SvmSolution sp = kmx::solve_svm_dual(ctx, arena_p, p.paired, options, ap.data());
    const SvmSolution st = kmx::solve_svm_dual(ctx, arena_t, p.twice, options, at.data());
    ASSERT_TRUE(sp.converged && st.converged);
    EXPECT_NEAR(sp.objective, st.objective, 1e-8 * std::fabs(st.objective));
    EXPECT_NEAR(sp.bias, st.bias, 1e-5);
    for (int64_t k = 0; k < m; ++k)
        EXPECT_NEAR(ap[size_t(k)] - ap[size_t(k + m)], at[size_t(k)] - at[size_t(k + m)], 1e-4) << k;
}

TEST(KernelCache, SlotCountsAreClamped) {
    EXPECT_EQ(kmx::KernelCache::slots_for(100, 0), 2);
    EXPECT_EQ(kmx::KernelCache::slots_for(100, 100 * 4 * 10), 10);
    EXPECT_EQ(kmx::KernelCache::slots_for(100, size_t(1) << 40), 100);
    const size_t bytes = kmx::KernelCache::workspace_bytes(100, 37);
    EXPECT_EQ(kmx::KernelCache::slots_fitting(100, bytes), 37);
    EXPECT_EQ(kmx::KernelCache::slots_fitting(100, bytes - 1), 36);
}

}  // namespace
