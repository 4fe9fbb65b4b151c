// Kernel ridge regression (lib/krr/krr): exact KRR against the closed form
// α = (G + nλI)⁻¹Y solved here, Nyström KRR against (CᵀC + nλW)⁻¹CᵀY and
// against exact KRR when m = n, MEKA KRR against exact KRR when k = n_s.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "../approx/approx_support.h"
#include "approx/meka.h"
#include "core/context.h"
#include "core/rng.h"
#include "krr/krr.h"
#include "krr/krr_tridiagonal.h"

namespace {

using namespace approx_test;

// A smooth target on blob points, plus 3 classes (row i in class i % 3).
struct Problem {
    Blobs b;
    std::vector<double> y, classes;
};

Problem problem(int64_t n, uint64_t seed) {
    Problem p{blobs(n, 3, 3, 4.0, 1.0, seed), {}, {}};
    for (int64_t i = 0; i < n; ++i) {
        p.y.push_back(std::sin(p.b.x[size_t(i * 3)]) + 0.5 * p.b.x[size_t(i * 3 + 1)]);
        p.classes.push_back(double(i % 3 + 1));
    }
    return p;
}

Matrix predict(kmx::Context &ctx, const kmx::CenterExpansion &e, const kmx::Dataset &data) {
    Matrix out(static_cast<size_t>(data.n * e.outputs));
    kmx::center_expansion_predict(ctx, e, data, out.data());
    return out;
}

// f(q) = K(q, X) (G + nλI)⁻¹ Y.
Matrix closed_form(const kmx::KernelSpec &k, const Blobs &b, const Matrix &y, int64_t outputs, double lambda,
                   const Blobs &q) {
    Matrix g = kernel_matrix(k, b.x.data(), b.n, b.x.data(), b.n, b.d);
    for (int64_t i = 0; i < b.n; ++i) g[size_t(i * (b.n + 1))] += double(b.n) * lambda;
    const Matrix alpha = solve(g, y, b.n, outputs);
    return multiply(kernel_matrix(k, q.x.data(), q.n, b.x.data(), b.n, b.d), alpha, q.n, b.n, outputs);
}

// p's regression targets, or its 3 classes' one-vs-rest targets.
kmx::KrrTargets targets_for(const Problem &p, kmx::KrrTask task) {
    const double *labels = task == kmx::KrrTask::regression ? p.y.data() : p.classes.data();
    return kmx::krr_targets(labels, int64_t(p.y.size()), task);
}

// Exact KRR by a Cholesky (fit_krr) and along λ from G = Q T Qᵀ
// (krr_tridiagonal), each against the closed form solved here, for one
// output and three.
TEST(Krr, ExactMatchesTheClosedForm) {
    const Problem p = problem(60, 1);
    const Blobs q = blobs(15, 3, 3, 4.0, 1.0, 2);
    const auto k = rbf(0.4);
    kmx::Context ctx;
    for (kmx::KrrTask task : {kmx::KrrTask::regression, kmx::KrrTask::classification}) {
        const kmx::KrrTargets t = targets_for(p, task);
        const auto form = kmx::krr_tridiagonal(ctx, k, *p.b.data, t);
        for (double lambda : {1e-5, 1e-3, 1e-1, 10.0}) {
            SCOPED_TRACE(::testing::Message() << "outputs " << t.outputs << ", lambda " << lambda);
            kmx::KrrOptions o;
            o.lambda = lambda;
            const kmx::KrrFit fit = kmx::fit_krr(ctx, k, *p.b.data, t, o);
            EXPECT_EQ(fit.expansion.m, 60);
            EXPECT_EQ(fit.expansion.outputs, task == kmx::KrrTask::regression ? 1 : 3);
            const Matrix ref = closed_form(k, p.b, t.y, t.outputs, lambda, q);
            EXPECT_LT(max_abs_diff(predict(ctx, fit.expansion, *q.data), ref), 1e-8 * max_abs(ref));
            kmx::CenterExpansion along;
            ASSERT_TRUE(kmx::krr_tridiagonal_fit(ctx, *form, *p.b.data, lambda, along));
            EXPECT_EQ(along.m, 60);
            EXPECT_LT(max_abs_diff(predict(ctx, along, *q.data), ref), 1e-8 * max_abs(ref));
        }
    }
}

// Its storage stays charged to the context while it lives; a budget that
// cannot hold it is told before any work.
TEST(KrrTridiagonal, ChargedWhileItLivesAndCheckedFirst) {
    const Problem p = problem(200, 13);
    const kmx::KrrTargets t = kmx::krr_targets(p.y.data(), 200, kmx::KrrTask::regression);
    kmx::Context ctx;
    ctx.memory_budget = 200 * 200 * 8;  // G alone: the storage holds more
    EXPECT_FALSE(kmx::krr_tridiagonal_fits(ctx, rbf(0.5), *p.b.data, 1));
    EXPECT_EQ(status_of([&] { kmx::krr_tridiagonal(ctx, rbf(0.5), *p.b.data, t); }), KMX_E_OUT_OF_MEMORY);
    ctx.memory_budget = kmx::kUnlimitedBudget;
    ctx.begin_call();
    EXPECT_TRUE(kmx::krr_tridiagonal_fits(ctx, rbf(0.5), *p.b.data, 1));
    {
        const auto form = kmx::krr_tridiagonal(ctx, rbf(0.5), *p.b.data, t);
        EXPECT_GE(ctx.held_bytes(), size_t(200 * 200 * 8));
    }
    EXPECT_EQ(ctx.held_bytes(), 0u);
}

TEST(Krr, NystromSolvesTheSubspaceProblem) {
    const Problem p = problem(80, 3);
    const Blobs q = blobs(12, 3, 3, 4.0, 1.0, 4);
    const auto k = rbf(0.5);
    const double lambda = 1e-3;
    kmx::Context ctx;
    const kmx::KrrTargets t = kmx::krr_targets(p.y.data(), 80, kmx::KrrTask::regression);
    kmx::KrrOptions o;
    o.method = kmx::KrrMethod::nystrom;
    o.lambda = lambda;
    o.approx.landmarks = 20;
    const kmx::KrrFit fit = kmx::fit_krr(ctx, k, *p.b.data, t, o);
    EXPECT_GT(fit.approximation_bytes, 0u);
    // β = (CᵀC + nλW)⁻¹ Cᵀy over the landmarks the fit used.
    const kmx::CenterExpansion &e = fit.expansion;
    ASSERT_EQ(e.m, 20);
    const Matrix c = kernel_matrix(k, p.b.x.data(), 80, e.centers.data(), 20, 3);
    Matrix lhs = multiply(transpose(c, 80, 20), c, 20, 80, 20);
    const Matrix w = kernel_matrix(k, e.centers.data(), 20, e.centers.data(), 20, 3);
    for (size_t i = 0; i < lhs.size(); ++i) lhs[i] += 80 * lambda * w[i];
    const Matrix beta = solve(lhs, multiply(transpose(c, 80, 20), t.y, 20, 80, 1), 20, 1);
    const Matrix ref = multiply(kernel_matrix(k, q.x.data(), 12, e.centers.data(), 20, 3), beta, 12, 20, 1);
    EXPECT_LT(max_abs_diff(predict(ctx, e, *q.data), ref), 1e-6 * max_abs(ref));

    // m = n: Nyström KRR is exact KRR.
    o.approx.landmarks = 80;
    const Matrix all = predict(ctx, kmx::fit_krr(ctx, k, *p.b.data, t, o).expansion, *q.data);
    const Matrix exact = closed_form(k, p.b, t.y, 1, lambda, q);
    EXPECT_LT(max_abs_diff(all, exact), 1e-6 * max_abs(exact));
}

// Points around three fixed centers, with a smooth target.
struct Clusters {
    Matrix x, y;
    std::unique_ptr<kmx::Dataset> data;
};

Clusters three_clusters(int64_t per_cluster, uint64_t seed) {
    const double centers[3][2] = {{0, 0}, {3, 0}, {0, 3}};
    kmx::Rng rng(seed);
    Clusters c;
    for (int s = 0; s < 3; ++s)
        for (int64_t i = 0; i < per_cluster; ++i) {
            const double a = centers[s][0] + 0.8 * test_common::gaussian(rng);
            const double b = centers[s][1] + 0.8 * test_common::gaussian(rng);
            c.x.insert(c.x.end(), {a, b});
            c.y.push_back(std::cos(a) + b * b / 4);
        }
    c.data = kmx::Dataset::dense_borrow(c.x.data(), 3 * per_cluster, 2, c.y.data());
    return c;
}

TEST(Krr, MekaWithFullRankClustersIsExactKrr) {
    const Clusters c = three_clusters(30, 5);
    const auto k = rbf(1.5);
    const double lambda = 1e-3;
    kmx::Context ctx;
    const kmx::KrrTargets t = kmx::krr_targets(c.y.data(), 90, kmx::KrrTask::regression);
    kmx::KrrOptions o;
    o.method = kmx::KrrMethod::meka;
    o.lambda = lambda;
    o.approx.clusters = 3;
    o.approx.rank = 90;  // with proportional ranks: k_s = n_s, every column sampled
    o.approx.proportional_rank = true;
    o.approx.rho = 100;
    Matrix g = kernel_matrix(k, c.x.data(), 90, c.x.data(), 90, 2);
    const Matrix fitted_exact = [&] {
        Matrix a = g;
        for (int64_t i = 0; i < 90; ++i) a[size_t(i * 91)] += 90 * lambda;
        return multiply(g, solve(a, t.y, 90, 1), 90, 90, 1);
    }();
    for (kmx::KrrSolver solver : {kmx::KrrSolver::woodbury, kmx::KrrSolver::cg}) {
        o.solver = solver;
        const kmx::KrrFit fit = kmx::fit_krr(ctx, k, *c.data, t, o);
        EXPECT_EQ(fit.expansion.clusters(), 3);
        EXPECT_EQ(fit.expansion.m, 90);
        if (solver == kmx::KrrSolver::cg) {
            EXPECT_GT(fit.cg_iterations, 0);
        }
        EXPECT_LT(max_abs_diff(predict(ctx, fit.expansion, *c.data), fitted_exact), 1e-6 * max_abs(fitted_exact))
            << (solver == kmx::KrrSolver::cg ? "cg" : "woodbury");
    }
}

TEST(Krr, MekaCgAgreesWithWoodbury) {
    const Clusters c = three_clusters(50, 6);
    kmx::Context ctx;
    const kmx::KrrTargets t = kmx::krr_targets(c.y.data(), 150, kmx::KrrTask::regression);
    kmx::KrrOptions o;
    o.method = kmx::KrrMethod::meka;
    o.lambda = 1e-4;
    o.approx.clusters = 3;
    o.approx.rank = 8;
    o.solver = kmx::KrrSolver::woodbury;
    const Matrix woodbury = predict(ctx, kmx::fit_krr(ctx, rbf(1.0), *c.data, t, o).expansion, *c.data);
    o.solver = kmx::KrrSolver::cg;
    o.cg_tolerance = 1e-12;
    const Matrix cg = predict(ctx, kmx::fit_krr(ctx, rbf(1.0), *c.data, t, o).expansion, *c.data);
    EXPECT_LT(max_abs_diff(woodbury, cg), 1e-7 * max_abs(woodbury));
    // And the fit is a fit: training error well below the targets' spread.
    double sse = 0, sst = 0, mean = 0;
    for (double v : c.y) mean += v / 150;
    for (int64_t i = 0; i < 150; ++i) {
        sse += (cg[size_t(i)] - c.y[size_t(i)]) * (cg[size_t(i)] - c.y[size_t(i)]);
        sst += (c.y[size_t(i)] - mean) * (c.y[size_t(i)] - mean);
    }
    EXPECT_LT(sse, 0.05 * sst);
}

// Three one-vs-rest outputs at once equal three single-output fits on the
// same approximation (Woodbury and CG).
TEST(Krr, MultiOutputFitsEqualSingleOutputFits) {
    const Clusters c = three_clusters(40, 9);
    std::vector<double> labels;
    for (int64_t i = 0; i < 120; ++i) labels.push_back(double(i % 3));
    const kmx::KrrTargets all = kmx::krr_targets(labels.data(), 120, kmx::KrrTask::classification);
    ASSERT_EQ(all.outputs, 3);
    kmx::Context ctx;
    kmx::MekaOptions mo;
    mo.clusters = 3;
    mo.rank = 6;
    const kmx::MekaApproximation meka(ctx, rbf(1.0), *c.data, mo);
    for (kmx::KrrSolver solver : {kmx::KrrSolver::woodbury, kmx::KrrSolver::cg}) {
        kmx::KrrOptions o;
        o.lambda = 1e-3;
        o.solver = solver;
        o.cg_tolerance = 1e-13;
        const Matrix joint = predict(ctx, kmx::fit_krr_approx(ctx, meka, all, o).expansion, *c.data);
        for (int64_t k = 0; k < 3; ++k) {
            kmx::KrrTargets one;
            for (int64_t i = 0; i < 120; ++i) one.y.push_back(all.y[size_t(i * 3 + k)]);
            const Matrix single = predict(ctx, kmx::fit_krr_approx(ctx, meka, one, o).expansion, *c.data);
            for (int64_t i = 0; i < 120; ++i) EXPECT_NEAR(joint[size_t(i * 3 + k)], single[size_t(i)], 1e-9);
        }
    }
}

TEST(Krr, BadInputIsAnInvalidArgument) {
    const Problem p = problem(30, 7);
    const auto k = rbf(0.5);
    kmx::Context ctx;
    const kmx::KrrTargets t = kmx::krr_targets(p.y.data(), 30, kmx::KrrTask::regression);
    kmx::KrrOptions o;
    for (double lambda : {0.0, -1.0, std::numeric_limits<double>::quiet_NaN()}) {
        o.lambda = lambda;
        for (kmx::KrrMethod method : {kmx::KrrMethod::exact, kmx::KrrMethod::nystrom, kmx::KrrMethod::meka}) {
            o.method = method;
            EXPECT_EQ(status_of([&] { kmx::fit_krr(ctx, k, *p.b.data, t, o); }), KMX_E_INVALID_ARGUMENT);
        }
    }
    o.lambda = 1e-3;
    o.method = kmx::KrrMethod::exact;
    kmx::KrrTargets short_targets = t;
    short_targets.y.pop_back();
    EXPECT_EQ(status_of([&] { kmx::fit_krr(ctx, k, *p.b.data, short_targets, o); }), KMX_E_INVALID_ARGUMENT);
    Matrix x = p.b.x;
    x[4] = std::numeric_limits<double>::quiet_NaN();
    const auto nan_data = kmx::Dataset::dense_borrow(x.data(), 30, 3, nullptr);
    EXPECT_EQ(status_of([&] { kmx::fit_krr(ctx, k, *nan_data, t, o); }), KMX_E_INVALID_ARGUMENT);
    o.method = kmx::KrrMethod::meka;
    o.approx.clusters = 31;  // c > n
    o.approx.rank = 1;
    EXPECT_EQ(status_of([&] { kmx::fit_krr(ctx, k, *p.b.data, t, o); }), KMX_E_INVALID_ARGUMENT);
    o.approx.clusters = 2;
    o.solver = kmx::KrrSolver::cg;
    o.cg_max_iterations = 0;
    EXPECT_EQ(status_of([&] { kmx::fit_krr(ctx, k, *p.b.data, t, o); }), KMX_E_INVALID_ARGUMENT);
}

TEST(Krr, ExactKrrChecksItsN2MemoryFirst) {
    const Problem p = problem(500, 8);
    const kmx::KrrTargets t = kmx::krr_targets(p.y.data(), 500, kmx::KrrTask::regression);
    kmx::Context ctx;
    ctx.memory_budget = 1 << 20;  // G alone is 2 MB
    kmx::KrrOptions o;
    EXPECT_EQ(status_of([&] { kmx::fit_krr(ctx, rbf(0.5), *p.b.data, t, o); }), KMX_E_OUT_OF_MEMORY);
}

}  // namespace
