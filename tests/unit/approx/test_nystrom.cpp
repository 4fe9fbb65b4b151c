// Nyström (lib/approx/nystrom, landmarks, approximation): against dense
// references computed here by kernel_eval loops, Jacobi and Gaussian
// elimination.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "approx/approximation.h"
#include "approx/landmarks.h"
#include "approx/nystrom.h"
#include "approx_support.h"
#include "core/context.h"
#include "core/rng.h"

namespace {

using namespace approx_test;

kmx::NystromOptions uniform(int64_t m, int64_t rank = 0) {
    kmx::NystromOptions o;
    o.landmarks.method = kmx::LandmarkMethod::uniform;
    o.landmarks.m = m;
    o.rank = rank;
    return o;
}

kmx::NystromOptions given(const Matrix &points, int64_t m, int64_t rank = 0) {
    kmx::NystromOptions o;
    o.landmarks.method = kmx::LandmarkMethod::given;
    o.landmarks.m = m;
    o.landmarks.given = points.data();
    o.rank = rank;
    return o;
}

// G̃ as a dense matrix through the rows interface.
Matrix dense(kmx::Context &ctx, const kmx::KernelApproximation &a) {
    std::vector<int64_t> rows(static_cast<size_t>(a.n()));
    for (int64_t i = 0; i < a.n(); ++i) rows[size_t(i)] = i;
    Matrix g(static_cast<size_t>(a.n() * a.n()));
    a.training_rows(ctx, rows.data(), a.n(), g.data());
    return g;
}

TEST(Nystrom, AllPointsAsLandmarksReproduceG) {
    const Blobs b = blobs(60, 3, 3, 4.0, 0.8, 1);
    const auto k = rbf(0.7);
    kmx::Context ctx;
    const kmx::NystromApproximation nys(ctx, k, *b.data, uniform(60));
    EXPECT_EQ(nys.landmarks().m, 60);
    const Matrix g = kernel_matrix(k, b.x.data(), 60, b.x.data(), 60, 3);
    EXPECT_LT(max_abs_diff(dense(ctx, nys), g), 1e-9);
    EXPECT_NEAR(nys.relative_error(ctx, *b.data, 60), 0.0, 1e-9);
}

TEST(Nystrom, RankKTruncationIsTheBestRankKOfW) {
    const Blobs b = blobs(50, 4, 4, 3.0, 1.0, 2);
    const auto k = rbf(0.3);
    kmx::Context ctx;
    // Landmarks = 20 given points; G̃ = C V_k Λ_k⁻¹ V_kᵀ Cᵀ with (V, Λ) from Jacobi.
    const Matrix u(b.x.begin(), b.x.begin() + 20 * 4);
    const kmx::NystromApproximation nys(ctx, k, *b.data, given(u, 20, 7));
    EXPECT_EQ(nys.rank(), 7);
    const Matrix w = kernel_matrix(k, u.data(), 20, u.data(), 20, 4);
    const Matrix c = kernel_matrix(k, b.x.data(), 50, u.data(), 20, 4);
    const Matrix w_k_pinv = spectral(jacobi_eigen(w, 20), 20, 7, [](double l) { return 1 / l; });
    const Matrix ref = multiply(multiply(c, w_k_pinv, 50, 20, 20), transpose(c, 50, 20), 50, 20, 50);
    EXPECT_LT(max_abs_diff(dense(ctx, nys), ref), 1e-9);

    // All points as landmarks: G̃ is G's best rank-k approximation, whose
    // Frobenius error is sqrt(Σ_{j>k} λ_j²).
    const kmx::NystromApproximation full(ctx, k, *b.data, given(b.x, 50, 5));
    const Matrix g = kernel_matrix(k, b.x.data(), 50, b.x.data(), 50, 4);
    const Eigen eg = jacobi_eigen(g, 50);
    EXPECT_LT(max_abs_diff(dense(ctx, full), spectral(eg, 50, 5, [](double l) { return l; })), 1e-9);
    double tail = 0, total = 0;
    for (int64_t j = 0; j < 50; ++j) {
        total += eg.values[size_t(j)] * eg.values[size_t(j)];
        if (j >= 5) tail += eg.values[size_t(j)] * eg.values[size_t(j)];
    }
    EXPECT_NEAR(full.relative_error(ctx, *b.data, 50), std::sqrt(tail / total), 1e-9);
}

// A dense reference Nyström: U = the landmarks' rows, W⁺ by Jacobi.
struct DenseNystrom {
    Matrix u, c, w_pinv, g_tilde;
    int64_t m;
};

DenseNystrom dense_nystrom(const kmx::KernelSpec &k, const Blobs &b, const std::vector<int64_t> &rows) {
    DenseNystrom r;
    r.m = int64_t(rows.size());
    r.u = rows_of(b.x.data(), rows, b.d);
    const Matrix w = kernel_matrix(k, r.u.data(), r.m, r.u.data(), r.m, b.d);
    r.c = kernel_matrix(k, b.x.data(), b.n, r.u.data(), r.m, b.d);
    r.w_pinv = spectral(jacobi_eigen(w, r.m), r.m, r.m, [](double l) { return 1 / l; });
    r.g_tilde = multiply(multiply(r.c, r.w_pinv, b.n, r.m, r.m), transpose(r.c, b.n, r.m), b.n, r.m, b.n);
    return r;
}

Matrix random_matrix(int64_t rows, int64_t cols, uint64_t seed) {
    kmx::Rng rng(seed);
    Matrix v(static_cast<size_t>(rows * cols));
    for (double &x : v) x = rng.uniform() - 0.5;
    return v;
}

TEST(Nystrom, FeatureMapProductsEqualCWPinvCt) {
    const Blobs b = blobs(70, 3, 5, 5.0, 1.0, 3);
    const Blobs q = blobs(9, 3, 5, 5.0, 1.0, 4);
    const auto k = rbf(0.5);
    kmx::Context ctx;
    ctx.seed = 11;
    const kmx::NystromApproximation nys(ctx, k, *b.data, uniform(15));
    const std::vector<int64_t> &rows = nys.landmarks().rows;
    ASSERT_EQ(rows.size(), 15u);
    for (size_t j = 1; j < rows.size(); ++j) EXPECT_LT(rows[j - 1], rows[j]);  // distinct, increasing
    const DenseNystrom ref = dense_nystrom(k, b, rows);
    EXPECT_LT(max_abs_diff(dense(ctx, nys), ref.g_tilde), 1e-9);

    // G̃v for two columns.
    const Matrix v = random_matrix(70, 2, 5);
    Matrix out(v.size());
    nys.matvec(ctx, v.data(), out.data(), 2);
    EXPECT_LT(max_abs_diff(out, multiply(ref.g_tilde, v, 70, 70, 2)), 1e-9);

    // φ(x)ᵀφ(y) = K(x, U) W⁺ K(U, y) for new points; their rows of G̃.
    Matrix phi(static_cast<size_t>(9 * nys.rank()));
    nys.feature_map(ctx, *q.data, phi.data());
    const Matrix cq = kernel_matrix(k, q.x.data(), 9, ref.u.data(), 15, 3);
    const Matrix cq_wp = multiply(cq, ref.w_pinv, 9, 15, 15);
    EXPECT_LT(max_abs_diff(multiply(phi, transpose(phi, 9, nys.rank()), 9, nys.rank(), 9),
                           multiply(cq_wp, transpose(cq, 9, 15), 9, 15, 9)),
              1e-9);
    Matrix ext(static_cast<size_t>(9 * 70));
    nys.extension_rows(ctx, *q.data, ext.data());
    EXPECT_LT(max_abs_diff(ext, multiply(cq_wp, transpose(ref.c, 70, 15), 9, 15, 70)), 1e-9);

    // The expansion of G̃(x, X) α predicts the same numbers.
    const kmx::CenterExpansion e = nys.expansion(ctx, v.data(), 2);
    EXPECT_EQ(e.m, 15);
    Matrix predicted(static_cast<size_t>(9 * 2));
    kmx::center_expansion_predict(ctx, e, *q.data, predicted.data());
    EXPECT_LT(max_abs_diff(predicted, multiply(ext, v, 9, 70, 2)), 1e-9);
}

TEST(Nystrom, WoodburySolveEqualsDenseSolve) {
    const Blobs b = blobs(80, 2, 4, 5.0, 1.0, 6);
    const auto k = rbf(1.0);
    kmx::Context ctx;
    const kmx::NystromApproximation nys(ctx, k, *b.data, uniform(12, 9));
    Matrix g = dense(ctx, nys);
    const double lambda = 0.05;
    for (int64_t i = 0; i < 80; ++i) g[size_t(i * 81)] += lambda;
    const Matrix v = random_matrix(80, 3, 7);
    Matrix out(v.size());
    nys.solve(ctx, lambda, v.data(), out.data(), 3);
    const Matrix ref = solve(g, v, 80, 3);
    EXPECT_LT(max_abs_diff(out, ref), 1e-8 * max_abs(ref));
}

TEST(Nystrom, RelativeErrorOnAllRowsIsTheDenseOne) {
    const Blobs b = blobs(64, 3, 4, 4.0, 1.0, 8);
    const auto k = rbf(0.8);
    kmx::Context ctx;
    const kmx::NystromApproximation nys(ctx, k, *b.data, uniform(10));
    const Matrix g = kernel_matrix(k, b.x.data(), 64, b.x.data(), 64, 3);
    const Matrix ref_g = dense_nystrom(k, b, nys.landmarks().rows).g_tilde;
    const double expected = frobenius_diff(g, ref_g) / frobenius_diff(g, Matrix(g.size(), 0.0));
    EXPECT_GT(expected, 1e-3);  // a real approximation
    EXPECT_NEAR(nys.relative_error(ctx, *b.data, 1000), expected, 1e-10);
    const double sampled = nys.relative_error(ctx, *b.data, 32);  // an estimate on half of the rows
    EXPECT_GT(sampled, 0.3 * expected);
    EXPECT_LT(sampled, 3.0 * expected);
}

TEST(Nystrom, DuplicatePointsWork) {
    Blobs b = blobs(30, 2, 3, 4.0, 1.0, 9);
    Matrix x;
    for (int copy = 0; copy < 3; ++copy) x.insert(x.end(), b.x.begin(), b.x.end());  // every point 3 times
    const auto data = kmx::Dataset::dense_borrow(x.data(), 90, 2, nullptr);
    const auto k = rbf(0.5);
    kmx::Context ctx;
    const kmx::NystromApproximation nys(ctx, k, *data, uniform(90));  // W singular: rank <= 30
    EXPECT_LE(nys.rank(), 30);
    EXPECT_LT(nys.relative_error(ctx, *data, 90), 1e-7);
    const Matrix v = random_matrix(90, 1, 3);
    Matrix out(90);
    nys.solve(ctx, 0.1, v.data(), out.data(), 1);
    for (double value : out) EXPECT_TRUE(std::isfinite(value));
}

TEST(Nystrom, KMeansLandmarksAreCentroids) {
    const Blobs b = blobs(120, 2, 4, 20.0, 0.3, 10);  // four tight, far apart blobs
    kmx::Context ctx;
    kmx::LandmarkOptions o;
    o.method = kmx::LandmarkMethod::kmeans;
    o.m = 4;
    const kmx::Landmarks l = kmx::select_landmarks(ctx, rbf(1), *b.data, o);
    ASSERT_EQ(l.m, 4);
    EXPECT_TRUE(l.rows.empty());
    // Each blob's mean (computed here) is one of the landmarks.
    for (int c = 0; c < 4; ++c) {
        double mean[2] = {0, 0};
        for (int64_t i = c; i < 120; i += 4)
            for (int j = 0; j < 2; ++j) mean[j] += b.x[size_t(i * 2 + j)] / 30.0;
        double best = 1e300;
        for (int64_t s = 0; s < 4; ++s)
            best = std::min(best, std::hypot(l.points[size_t(s * 2)] - mean[0], l.points[size_t(s * 2 + 1)] - mean[1]));
        EXPECT_LT(best, 1e-9);
    }
    // Weighted: all weight on blob 0 pulls every non-empty centroid into it (one landmark left per
    // distinct weighted point set, so at most 4 and all near blob 0's points).
    std::vector<double> w(120, 0.0);
    for (int64_t i = 0; i < 120; i += 4) w[size_t(i)] = 1.0;
    o.method = kmx::LandmarkMethod::weighted_kmeans;
    o.weights = w.data();
    const kmx::Landmarks lw = kmx::select_landmarks(ctx, rbf(1), *b.data, o);
    ASSERT_GE(lw.m, 1);
    for (int64_t s = 0; s < lw.m; ++s)
        EXPECT_LT(std::hypot(lw.points[size_t(s * 2)] - b.x[0], lw.points[size_t(s * 2 + 1)] - b.x[1]), 3.0);
}

// Σ_i min_c ‖x_i − c‖² over the n rows of x (n x d), by loops.
double quantization_error(const Matrix &x, int64_t n, int64_t d, const Matrix &centers, int64_t m) {
    double total = 0;
    for (int64_t i = 0; i < n; ++i) {
        double best = 1e300;
        for (int64_t c = 0; c < m; ++c) {
            double s = 0;
            for (int64_t j = 0; j < d; ++j) s += std::pow(x[size_t(i * d + j)] - centers[size_t(c * d + j)], 2);
            best = std::min(best, s);
        }
        total += best;
    }
    return total;
}

// Plain Lloyd on every row by loops, from the given centers, `iterations` times.
Matrix brute_force_lloyd(const Matrix &x, int64_t n, int64_t d, Matrix centers, int64_t m, int iterations) {
    for (int it = 0; it < iterations; ++it) {
        Matrix sums(static_cast<size_t>(m * d), 0.0);
        std::vector<int64_t> counts(static_cast<size_t>(m), 0);
        for (int64_t i = 0; i < n; ++i) {
            int64_t best = 0;
            double best_sq = 1e300;
            for (int64_t c = 0; c < m; ++c) {
                double s = 0;
                for (int64_t j = 0; j < d; ++j) s += std::pow(x[size_t(i * d + j)] - centers[size_t(c * d + j)], 2);
                if (s < best_sq) best_sq = s, best = c;
            }
            ++counts[size_t(best)];
            for (int64_t j = 0; j < d; ++j) sums[size_t(best * d + j)] += x[size_t(i * d + j)];
        }
        for (int64_t c = 0; c < m; ++c)
            if (counts[size_t(c)] > 0)
                for (int64_t j = 0; j < d; ++j)
                    centers[size_t(c * d + j)] = sums[size_t(c * d + j)] / counts[size_t(c)];
    }
    return centers;
}

TEST(Nystrom, KMeansLandmarksOnASampleNearBruteForceLloydOnAllRows) {
    // 3000 rows in 30 blobs plus 3 rows far from everything; m = 40, so
    // k-means runs on a sample of 16m = 640 rows (plus its seeds) and sees
    // every row only when seeding and in its last iteration.
    Blobs b = blobs(3000, 4, 30, 10.0, 0.4, 50);
    for (double far : {200.0, -200.0, 400.0}) b.x.insert(b.x.end(), {far, far, 0.0, far});
    const int64_t n = 3003, d = 4, m = 40;
    const auto data = kmx::Dataset::dense_borrow(b.x.data(), n, d, nullptr);
    kmx::Context ctx;
    kmx::LandmarkOptions o;
    o.method = kmx::LandmarkMethod::kmeans;
    o.m = m;
    const kmx::Landmarks l = kmx::select_landmarks(ctx, rbf(1), *data, o);
    ASSERT_EQ(l.m, m);
    // The reference: 30 Lloyd iterations on all rows from the 30 blobs' first
    // rows, the 3 far rows and 7 more rows (the global optimum's neighbourhood).
    Matrix start(b.x.begin(), b.x.begin() + 37 * d);
    start.insert(start.end(), b.x.begin() + 3000 * d, b.x.end());
    const Matrix reference = brute_force_lloyd(b.x, n, d, start, m, 30);
    const double ours = quantization_error(b.x, n, d, l.points, m);
    EXPECT_LE(ours, 1.05 * quantization_error(b.x, n, d, reference, m));  // 0.8% above, measured
    // Each far row is a landmark of its own.
    for (int64_t i = 3000; i < n; ++i) {
        double nearest = 1e300;
        for (int64_t c = 0; c < m; ++c)
            nearest = std::min(nearest, std::hypot(l.points[size_t(c * d)] - b.x[size_t(i * d)],
                                                   l.points[size_t(c * d + 1)] - b.x[size_t(i * d + 1)]));
        EXPECT_LT(nearest, 1e-9) << "row " << i;
    }
    // Nyström error on every row of G (the exact kernel matrix's): k-means
    // landmarks below uniform ones.
    kmx::NystromOptions kmeans_nystrom = uniform(m);
    kmeans_nystrom.landmarks.method = kmx::LandmarkMethod::kmeans;
    const double kmeans_error =
        kmx::NystromApproximation(ctx, rbf(0.5), *data, kmeans_nystrom).relative_error(ctx, *data, n);
    const double uniform_error =
        kmx::NystromApproximation(ctx, rbf(0.5), *data, uniform(m)).relative_error(ctx, *data, n);
    EXPECT_LT(kmeans_error, 0.5 * uniform_error);
}

TEST(Nystrom, BadInputIsAnInvalidArgument) {
    const Blobs b = blobs(20, 2, 2, 4.0, 1.0, 12);
    const auto k = rbf(1);
    kmx::Context ctx;
    EXPECT_EQ(status_of([&] { kmx::NystromApproximation(ctx, k, *b.data, uniform(0)); }), KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(status_of([&] { kmx::NystromApproximation(ctx, k, *b.data, uniform(21)); }), KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(status_of([&] { kmx::NystromApproximation(ctx, k, *b.data, uniform(5, 6)); }), KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(status_of([&] { kmx::NystromApproximation(ctx, k, *b.data, uniform(5, -1)); }), KMX_E_INVALID_ARGUMENT);
    Matrix x = b.x;
    x[7] = std::numeric_limits<double>::quiet_NaN();
    const auto nan_data = kmx::Dataset::dense_borrow(x.data(), 20, 2, nullptr);
    EXPECT_EQ(status_of([&] { kmx::NystromApproximation(ctx, k, *nan_data, uniform(5)); }), KMX_E_INVALID_ARGUMENT);
    kmx::LandmarkOptions o;
    o.method = kmx::LandmarkMethod::weighted_kmeans;
    o.m = 3;
    EXPECT_EQ(status_of([&] { kmx::select_landmarks(ctx, k, *b.data, o); }), KMX_E_INVALID_ARGUMENT);  // no weights
    std::vector<double> w(20, 1.0);
    w[3] = -1;
    o.weights = w.data();
    EXPECT_EQ(status_of([&] { kmx::select_landmarks(ctx, k, *b.data, o); }), KMX_E_INVALID_ARGUMENT);
    o.method = kmx::LandmarkMethod::given;
    EXPECT_EQ(status_of([&] { kmx::select_landmarks(ctx, k, *b.data, o); }), KMX_E_INVALID_ARGUMENT);  // no points

    const kmx::NystromApproximation nys(ctx, k, *b.data, uniform(5));
    Matrix v(20, 1.0), out(20);
    EXPECT_EQ(status_of([&] { nys.solve(ctx, 0.0, v.data(), out.data()); }), KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(status_of([&] { nys.solve(ctx, -1.0, v.data(), out.data()); }), KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(status_of([&] { nys.relative_error(ctx, *nan_data, 0); }), KMX_E_INVALID_ARGUMENT);
}

TEST(Nystrom, BudgetIsCheckedBeforeWork) {
    const Blobs b = blobs(400, 2, 2, 4.0, 1.0, 13);
    kmx::Context ctx;
    ctx.memory_budget = 64 * 1024;  // features alone need 400 x 100 x 8 bytes
    EXPECT_EQ(status_of([&] { kmx::NystromApproximation(ctx, rbf(1), *b.data, uniform(100)); }), KMX_E_OUT_OF_MEMORY);
}

}  // namespace

namespace {

// The same points as CSR (zeros left out).
struct Sparse {
    std::vector<int64_t> row_ptr{0};
    std::vector<int32_t> col;
    std::vector<double> values;
    kmx::Dataset data;
};

void fill_sparse(const approx_test::Matrix &x, int64_t n, int64_t d, Sparse &s) {
    for (int64_t i = 0; i < n; ++i) {
        for (int64_t j = 0; j < d; ++j)
            if (x[size_t(i * d + j)] != 0) {
                s.col.push_back(int32_t(j));
                s.values.push_back(x[size_t(i * d + j)]);
            }
        s.row_ptr.push_back(int64_t(s.values.size()));
    }
    s.data.n = n;
    s.data.d = d;
    s.data.row_ptr = s.row_ptr.data();
    s.data.col = s.col.data();
    s.data.values = s.values.data();
}

TEST(Approximations, SparseDataGivesTheDenseResult) {
    using namespace approx_test;
    Blobs b = blobs(90, 4, 3, 3.0, 1.0, 21);
    for (size_t i = 0; i < b.x.size(); i += 3) b.x[i] = 0;  // some explicit zeros
    const auto dense_data = kmx::Dataset::dense_borrow(b.x.data(), 90, 4, nullptr);
    Sparse sparse;
    fill_sparse(b.x, 90, 4, sparse);
    for (kmx::ApproxMethod method : {kmx::ApproxMethod::nystrom, kmx::ApproxMethod::meka}) {
        kmx::ApproxOptions o;
        o.method = method;
        o.rank = 6;
        o.landmarks = method == kmx::ApproxMethod::nystrom ? 20 : 0;
        o.clusters = 3;
        kmx::Context ctx;
        const auto a = kmx::make_approximation(ctx, rbf(0.5), *dense_data, o);
        const auto s = kmx::make_approximation(ctx, rbf(0.5), sparse.data, o);
        EXPECT_EQ(a->bytes(), s->bytes());
        EXPECT_NEAR(a->relative_error(ctx, *dense_data, 90), s->relative_error(ctx, sparse.data, 90), 1e-12);
        Matrix ea(90 * 90), es(90 * 90);
        a->extension_rows(ctx, *dense_data, ea.data());
        s->extension_rows(ctx, sparse.data, es.data());
        EXPECT_LT(max_abs_diff(ea, es), 1e-12);
    }
}

}  // namespace
