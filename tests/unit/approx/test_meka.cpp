// MEKA (lib/approx/meka, meka_blocks): its blocks against projections of G
// computed here, the PSD repair, Woodbury, extension, error and memory.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>

#include "approx/meka.h"
#include "approx_support.h"
#include "core/context.h"
#include "core/rng.h"

namespace {

using namespace approx_test;

// Points around fixed centers (0,0), (3,0), (0,3), ... with Gaussian noise;
// sizes[s] points for center s.
using Clustered = OwnedPoints;

Clustered clustered(const std::vector<int64_t> &sizes, double noise, uint64_t seed, double gap = 3.0) {
    const double centers[5][2] = {{0, 0}, {gap, 0}, {0, gap}, {gap, gap}, {2 * gap, 0}};
    kmx::Rng rng(seed);
    Clustered c;
    for (size_t s = 0; s < sizes.size(); ++s)
        for (int64_t i = 0; i < sizes[s]; ++i)
            for (int j = 0; j < 2; ++j) c.x.push_back(centers[s][j] + noise * test_common::gaussian(rng));
    c.n = int64_t(c.x.size() / 2);
    c.data = kmx::Dataset::dense_borrow(c.x.data(), c.n, 2, nullptr);
    return c;
}

kmx::MekaOptions meka_options(int64_t c, int64_t k, double rho, bool repair) {
    kmx::MekaOptions o;
    o.clusters = c;
    o.rank = k;
    o.rho = rho;
    o.psd_repair = repair;
    return o;
}

Matrix dense(kmx::Context &ctx, const kmx::KernelApproximation &a) {
    std::vector<int64_t> rows(static_cast<size_t>(a.n()));
    for (int64_t i = 0; i < a.n(); ++i) rows[size_t(i)] = i;
    Matrix g(static_cast<size_t>(a.n() * a.n()));
    a.training_rows(ctx, rows.data(), a.n(), g.data());
    return g;
}

std::vector<int64_t> members(const kmx::MekaApproximation &m, int64_t s) {
    std::vector<int64_t> rows;
    for (int64_t i = 0; i < m.n(); ++i)
        if (m.cluster_of()[size_t(i)] == s) rows.push_back(i);
    return rows;
}

Matrix random_matrix(int64_t rows, int64_t cols, uint64_t seed) {
    kmx::Rng rng(seed);
    Matrix v(static_cast<size_t>(rows * cols));
    for (double &x : v) x = rng.uniform() - 0.5;
    return v;
}

// Training points as new points: their extended rows (extension_rows) must
// be their rows of `g` (n x n).
void expect_extended_rows(kmx::Context &ctx, const kmx::MekaApproximation &meka, const Clustered &d,
                          const std::vector<int64_t> &picked, const Matrix &g, double tolerance) {
    const int64_t count = int64_t(picked.size());
    Matrix xq = rows_of(d.x.data(), picked, 2);
    const auto queries = kmx::Dataset::dense_borrow(xq.data(), count, 2, nullptr);
    Matrix ext(static_cast<size_t>(count * d.n));
    meka.extension_rows(ctx, *queries, ext.data());
    for (int64_t q = 0; q < count; ++q)
        for (int64_t j = 0; j < d.n; ++j)
            EXPECT_NEAR(ext[size_t(q * d.n + j)], g[size_t(picked[size_t(q)] * d.n + j)], tolerance);
}

// With m_s = k columns (so range(W^(s)) = range(C_s)), every off-diagonal
// block fully sampled, plain least squares and ε = 0: G̃^(s,s) = C_s M_s⁻¹ C_sᵀ and
// G̃^(s,t) = P_s G^(s,t) P_t with P_s = C_s (C_sᵀC_s)⁻¹ C_sᵀ.
TEST(Meka, FullySampledBlocksAreProjectionsOfG) {
    const Clustered d = clustered({30, 30, 30}, 0.8, 1);
    const auto k = rbf(0.5);
    kmx::Context ctx;
    kmx::MekaOptions o = meka_options(3, 5, 1000.0, false);
    o.columns = 5;
    o.link_tolerance = 0;  // plain least squares
    const kmx::MekaApproximation meka(ctx, k, *d.data, o);
    ASSERT_EQ(meka.clusters(), 3);
    EXPECT_EQ(meka.skipped_blocks(), 0);
    const Matrix g_tilde = dense(ctx, meka);

    std::vector<Matrix> c(3), projector(3);
    std::vector<std::vector<int64_t>> rows(3);
    for (int64_t s = 0; s < 3; ++s) {
        rows[size_t(s)] = members(meka, s);
        const int64_t ns = int64_t(rows[size_t(s)].size());
        const Matrix xs = rows_of(d.x.data(), rows[size_t(s)], 2);
        const Matrix us = rows_of(d.x.data(), meka.cluster_list()[size_t(s)].columns, 2);
        ASSERT_EQ(meka.cluster_list()[size_t(s)].rank, 5);
        c[size_t(s)] = kernel_matrix(k, xs.data(), ns, us.data(), 5, 2);
        const Matrix ct = transpose(c[size_t(s)], ns, 5);
        // Diagonal block: Nyström.
        const Matrix m = kernel_matrix(k, us.data(), 5, us.data(), 5, 2);
        const Matrix diag = multiply(c[size_t(s)], solve(m, ct, 5, ns), ns, 5, ns);
        for (int64_t a = 0; a < ns; ++a)
            for (int64_t b = 0; b < ns; ++b)
                EXPECT_NEAR(g_tilde[size_t(rows[size_t(s)][size_t(a)] * d.n + rows[size_t(s)][size_t(b)])],
                            diag[size_t(a * ns + b)], 1e-8);
        projector[size_t(s)] =
            multiply(c[size_t(s)], solve(multiply(ct, c[size_t(s)], 5, ns, 5), ct, 5, ns), ns, 5, ns);
    }
    for (int64_t s = 0; s < 3; ++s)
        for (int64_t t = 0; t < 3; ++t) {
            if (s == t) continue;
            const int64_t ns = int64_t(rows[size_t(s)].size()), nt = int64_t(rows[size_t(t)].size());
            const Matrix xs = rows_of(d.x.data(), rows[size_t(s)], 2), xt = rows_of(d.x.data(), rows[size_t(t)], 2);
            const Matrix gst = kernel_matrix(k, xs.data(), ns, xt.data(), nt, 2);
            const Matrix ref =
                multiply(multiply(projector[size_t(s)], gst, ns, ns, nt), projector[size_t(t)], ns, nt, nt);
            double worst = 0;
            for (int64_t a = 0; a < ns; ++a)
                for (int64_t b = 0; b < nt; ++b)
                    worst = std::max(
                        worst, std::abs(g_tilde[size_t(rows[size_t(s)][size_t(a)] * d.n + rows[size_t(t)][size_t(b)])] -
                                        ref[size_t(a * nt + b)]));
            EXPECT_LT(worst, 1e-8) << "block " << s << "," << t;
            EXPECT_GT(max_abs(ref), 1e-3);  // the block is not negligible
        }
}

TEST(Meka, PsdRepairLeavesNoNegativeEigenvalue) {
    const Clustered d = clustered({25, 30, 20, 25}, 1.0, 2, 2.0);
    const auto k = rbf(1.0);
    kmx::Context ctx;
    double unrepaired_min = 0;
    for (bool repair : {false, true}) {
        const kmx::MekaApproximation meka(ctx, k, *d.data, meka_options(4, 6, 0.5, repair));
        const Eigen e = jacobi_eigen(dense(ctx, meka), d.n);
        const double smallest = e.values.back();
        if (repair) {
            EXPECT_GE(smallest, -1e-10 * e.values[0]);
            EXPECT_EQ(meka.clipped_eigenvalues() > 0, unrepaired_min < -1e-10 * e.values[0]);
        } else {
            unrepaired_min = smallest;
            EXPECT_LT(unrepaired_min, -1e-6) << "this sampling gives an indefinite L: the repair has work to do";
        }
        // L = B J Bᵀ is symmetric either way.
        const Matrix l = meka.link_matrix();
        EXPECT_LT(max_abs_diff(l, transpose(l, meka.link_size(), meka.link_size())), 1e-12);
    }
}

TEST(Meka, WoodburySolveEqualsDenseSolve) {
    const Clustered d = clustered({30, 40, 35}, 0.9, 3);
    const auto k = rbf(0.7);
    kmx::Context ctx;
    for (bool repair : {true, false}) {
        const kmx::MekaApproximation meka(ctx, k, *d.data, meka_options(3, 6, 1.0, repair));
        Matrix g = dense(ctx, meka);
        const double lambda = 0.3;
        for (int64_t i = 0; i < d.n; ++i) g[size_t(i * (d.n + 1))] += lambda;
        const Matrix v = random_matrix(d.n, 2, 4);
        Matrix out(v.size());
        meka.solve(ctx, lambda, v.data(), out.data(), 2);
        const Matrix ref = solve(g, v, d.n, 2);
        EXPECT_LT(max_abs_diff(out, ref), 1e-8 * max_abs(ref)) << "psd_repair " << repair;
    }
}

// One basis (c = 1) is W = K(X, U) M with L = I, no rotation: G̃ must be
// the rank-k Nyström approximation C V_k Λ_k⁻¹ V_kᵀ Cᵀ of its m columns
// (Jacobi here), and a training point's extended row its row of G̃.
TEST(Meka, OneBasisIsTheTruncatedNystromApproximationOfItsColumns) {
    const Clustered d = clustered({40, 30, 30}, 0.8, 15);
    const auto k = rbf(0.5);
    kmx::Context ctx;
    kmx::MekaOptions o = meka_options(1, 6, 2.0, true);
    o.columns = 9;
    const kmx::MekaApproximation meka(ctx, k, *d.data, o);
    ASSERT_EQ(meka.clusters(), 1);
    const kmx::MekaCluster &cl = meka.cluster_list()[0];
    ASSERT_EQ(cl.columns.size(), 9u);
    ASSERT_EQ(cl.rank, 6);
    EXPECT_EQ(meka.rank(), 6);
    const Matrix u = rows_of(d.x.data(), cl.columns, 2);
    const Matrix c = kernel_matrix(k, d.x.data(), d.n, u.data(), 9, 2);
    const Matrix inverse =
        spectral(jacobi_eigen(kernel_matrix(k, u.data(), 9, u.data(), 9, 2), 9), 9, 6, [](double l) { return 1 / l; });
    const Matrix ref = multiply(multiply(c, inverse, d.n, 9, 9), transpose(c, d.n, 9), d.n, 9, d.n);
    const Matrix g = dense(ctx, meka);
    EXPECT_LT(max_abs_diff(g, ref), 1e-9);
    EXPECT_GT(frobenius_diff(g, kernel_matrix(k, d.x.data(), d.n, d.x.data(), d.n, 2)), 1e-3);  // rank 6 is not G

    expect_extended_rows(ctx, meka, d, {3, 50, 97}, ref, 1e-9);
}

TEST(Meka, ProductsExtensionAndExpansionAgreeWithDenseGTilde) {
    const Clustered d = clustered({30, 30, 40}, 0.8, 5);
    const auto k = rbf(0.5);
    kmx::Context ctx;
    const kmx::MekaApproximation meka(ctx, k, *d.data, meka_options(3, 4, 2.0, true));
    const Matrix g = dense(ctx, meka);
    const Matrix v = random_matrix(d.n, 3, 6);
    Matrix out(v.size());
    meka.matvec(ctx, v.data(), out.data(), 3);
    EXPECT_LT(max_abs_diff(out, multiply(g, v, d.n, d.n, 3)), 1e-10);

    // Training points as new points: their extended rows are their rows of G̃.
    expect_extended_rows(ctx, meka, d, {0, 17, 31, 64, 99}, g, 1e-12);

    // The expansion β_s = M_s [L Wᵀ α]_s predicts G̃(x, X) α.
    const kmx::CenterExpansion e = meka.expansion(ctx, v.data(), 3);
    EXPECT_EQ(e.clusters(), 3);
    Matrix predicted(static_cast<size_t>(d.n * 3));
    kmx::center_expansion_predict(ctx, e, *d.data, predicted.data());
    EXPECT_LT(max_abs_diff(predicted, multiply(g, v, d.n, d.n, 3)), 1e-10);
}

TEST(Meka, RelativeErrorOnAllRowsIsTheDenseOne) {
    const Clustered d = clustered({25, 35, 30}, 1.0, 7);
    const auto k = rbf(1.0);
    kmx::Context ctx;
    const kmx::MekaApproximation meka(ctx, k, *d.data, meka_options(3, 4, 2.0, true));
    const Matrix g = kernel_matrix(k, d.x.data(), d.n, d.x.data(), d.n, 2);
    const double expected = frobenius_diff(g, dense(ctx, meka)) / frobenius_diff(g, Matrix(g.size(), 0.0));
    EXPECT_GT(expected, 1e-4);
    EXPECT_NEAR(meka.relative_error(ctx, *d.data, d.n), expected, 1e-12);
}

// A local kernel (γ large for the cluster spread) on many points per
// cluster: plain least squares on 3k sampled rows overfits the link blocks;
// the default (truncation chosen on held-out rows) must do clearly better.
TEST(Meka, HeldOutTruncationDoesNotLoseToPlainLeastSquares) {
    const Clustered d = clustered({150, 150, 150, 150}, 1.0, 14, 2.0);
    const auto k = rbf(8.0);
    kmx::Context ctx;
    kmx::MekaOptions o = meka_options(4, 10, 2.0, true);
    o.link_tolerance = 0;
    const double plain = kmx::MekaApproximation(ctx, k, *d.data, o).relative_error(ctx, *d.data, d.n);
    o.link_tolerance = -1;
    const double held_out = kmx::MekaApproximation(ctx, k, *d.data, o).relative_error(ctx, *d.data, d.n);
    std::printf("relative error: plain least squares %.4f, held-out truncation %.4f\n", plain, held_out);
    EXPECT_LT(held_out, 0.9 * plain);  // measured: 0.67 vs 0.81
}

TEST(Meka, MemoryIsReportedExactly) {
    const Clustered d = clustered({50, 60, 40}, 0.8, 8);
    kmx::Context ctx;
    const kmx::MekaApproximation meka(ctx, rbf(0.5), *d.data, meka_options(3, 5, 2.0, true));
    // Count what the structure holds, from its parts.
    size_t expected = size_t(meka.clusters() * 2) * 8 + size_t(d.n) * (4 + 8 + 8) +
                      size_t(meka.link_size() * meka.rank()) * 8 + size_t(meka.clusters()) * sizeof(kmx::MekaCluster);
    for (const kmx::MekaCluster &cl : meka.cluster_list()) {
        const size_t m = cl.columns.size();
        EXPECT_EQ(m, 10u);  // 2k columns
        expected += m * 8 + m * 2 * 8 + m * size_t(cl.rank) * 8 + size_t(cl.size * cl.rank) * 8 + size_t(cl.rank) * 8;
    }
    EXPECT_EQ(meka.bytes(), expected);
    // O(nk + (ck)²): W is the bulk here.
    EXPECT_LE(meka.bytes(), size_t(d.n * 5 * 8 + 15 * 15 * 8 + 8192));
}

TEST(Meka, FarClustersAreSkippedByEps) {
    const Clustered d = clustered({30, 30, 30}, 0.5, 9, 6.0);
    const auto k = rbf(0.5);  // K between centers: e^{-18} or less
    kmx::Context ctx;
    kmx::MekaOptions o = meka_options(3, 4, 2.0, false);
    o.eps = 1e-3;
    const kmx::MekaApproximation skipped(ctx, k, *d.data, o);
    EXPECT_EQ(skipped.skipped_blocks(), 3);
    const Matrix g = dense(ctx, skipped);
    for (int64_t i = 0; i < d.n; ++i)
        for (int64_t j = 0; j < d.n; ++j)
            if (skipped.cluster_of()[size_t(i)] != skipped.cluster_of()[size_t(j)]) {
                EXPECT_EQ(g[size_t(i * d.n + j)], 0.0);
            }
    o.eps = 0;
    EXPECT_EQ(kmx::MekaApproximation(ctx, k, *d.data, o).skipped_blocks(), 0);
}

TEST(Meka, ProportionalRanksFollowClusterSizes) {
    const Clustered d = clustered({20, 40, 60}, 0.6, 10, 5.0);
    kmx::Context ctx;
    kmx::MekaOptions o = meka_options(3, 10, 2.0, true);
    o.proportional_rank = true;
    const kmx::MekaApproximation meka(ctx, rbf(0.5), *d.data, o);
    std::vector<int64_t> ranks;
    for (const kmx::MekaCluster &cl : meka.cluster_list()) ranks.push_back(cl.size == 20 ? 5 : cl.size == 40 ? 10 : 15);
    for (size_t s = 0; s < ranks.size(); ++s) EXPECT_EQ(meka.cluster_list()[s].rank, ranks[s]);
    EXPECT_EQ(meka.link_size(), 30);
}

TEST(Meka, DuplicatePointsWork) {
    Clustered base = clustered({20, 20, 20}, 0.7, 11);
    Matrix x;
    for (int copy = 0; copy < 3; ++copy) x.insert(x.end(), base.x.begin(), base.x.end());
    const auto data = kmx::Dataset::dense_borrow(x.data(), 180, 2, nullptr);
    kmx::Context ctx;
    kmx::MekaOptions o = meka_options(3, 30, 3.0, true);  // rank 30 > 20 distinct points per cluster
    const kmx::MekaApproximation meka(ctx, rbf(1.0), *data, o);
    const double error = meka.relative_error(ctx, *data, 180);
    EXPECT_TRUE(std::isfinite(error));
    EXPECT_LT(error, 1e-3);
    const Matrix v = random_matrix(180, 1, 2);
    Matrix out(180);
    meka.solve(ctx, 0.1, v.data(), out.data());
    for (double value : out) EXPECT_TRUE(std::isfinite(value));
}

TEST(Meka, BadInputIsAnInvalidArgument) {
    const Clustered d = clustered({30, 30, 30}, 0.8, 12);
    const auto k = rbf(0.5);
    kmx::Context ctx;
    auto status = [&](const kmx::Dataset &data, const kmx::MekaOptions &o) {
        return status_of([&] { kmx::MekaApproximation(ctx, k, data, o); });
    };
    EXPECT_EQ(status(*d.data, meka_options(-1, 5, 2, true)), KMX_E_INVALID_ARGUMENT);  // c < 0 (0: automatic)
    EXPECT_EQ(status(*d.data, meka_options(91, 1, 2, true)), KMX_E_INVALID_ARGUMENT);  // c > n
    EXPECT_EQ(status(*d.data, meka_options(3, -1, 2, true)), KMX_E_INVALID_ARGUMENT);  // k < 0 (0: automatic)
    EXPECT_EQ(status(*d.data, meka_options(3, 40, 2, true)), KMX_E_INVALID_ARGUMENT);  // k > cluster size
    EXPECT_EQ(status(*d.data, meka_options(3, 5, -1, true)), KMX_E_INVALID_ARGUMENT);  // ρ < 0
    kmx::MekaOptions o = meka_options(3, 5, 2, true);
    o.eps = -0.1;
    EXPECT_EQ(status(*d.data, o), KMX_E_INVALID_ARGUMENT);  // ε < 0
    o.eps = 0;
    o.link_tolerance = std::numeric_limits<double>::quiet_NaN();
    EXPECT_EQ(status(*d.data, o), KMX_E_INVALID_ARGUMENT);  // τ not a number
    o.link_tolerance = -1;
    o.columns = 3;
    EXPECT_EQ(status(*d.data, o), KMX_E_INVALID_ARGUMENT);  // fewer columns than the rank
    Matrix x = d.x;
    x[11] = std::numeric_limits<double>::infinity();
    const auto bad = kmx::Dataset::dense_borrow(x.data(), d.n, 2, nullptr);
    EXPECT_EQ(status(*bad, meka_options(3, 5, 2, true)), KMX_E_INVALID_ARGUMENT);  // non-finite
    // A far outlier becomes a cluster of one point.
    Matrix y = d.x;
    y.push_back(1000.0);
    y.push_back(1000.0);
    const auto outlier = kmx::Dataset::dense_borrow(y.data(), d.n + 1, 2, nullptr);
    EXPECT_EQ(status(*outlier, meka_options(4, 1, 2, true)), KMX_E_INVALID_ARGUMENT);
}

TEST(Meka, BudgetIsCheckedBeforeWork) {
    const Clustered d = clustered({300, 300, 300}, 0.8, 13);
    kmx::Context ctx;
    ctx.memory_budget = 100 * 1024;  // W alone needs 900 x 20 x 8 bytes
    EXPECT_EQ(status_of([&] { kmx::MekaApproximation(ctx, rbf(0.5), *d.data, meka_options(3, 20, 2, true)); }),
              KMX_E_OUT_OF_MEMORY);
}

}  // namespace
