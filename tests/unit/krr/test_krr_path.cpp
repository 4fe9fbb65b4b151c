// KrrPathCache and FalkonPath (lib/krr/krr_path_cache.h, falkon.h): a path
// of λ values on one training set, each model against the same method
// trained at that λ from scratch; the parts kept are rebuilt when the data
// or an option other than λ changes, charged to the context while kept, and
// exact KRR falls back to a Cholesky per λ when its tridiagonal form does
// not fit the budget.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "../approx/approx_support.h"
#include "core/context.h"
#include "core/error.h"
#include "krr/falkon.h"
#include "krr/krr_path_cache.h"
#include "krr/train_krr.h"
#include "model/model.h"

namespace {

using namespace approx_test;

const std::vector<double> kLambdas = {1e-6, 1e-4, 1e-2, 1e-3, 1.0};  // not sorted: any order

// Blob points with a smooth target (labelled).
struct Labelled {
    Blobs b;
    std::vector<double> y;
    std::unique_ptr<kmx::Dataset> data;
};

Labelled labelled(int64_t n, uint64_t seed) {
    Labelled p{blobs(n, 3, 3, 4.0, 1.0, seed), {}, nullptr};
    for (int64_t i = 0; i < n; ++i) p.y.push_back(std::sin(p.b.x[size_t(i * 3)]) + 0.5 * p.b.x[size_t(i * 3 + 1)]);
    p.data = kmx::Dataset::dense_borrow(p.b.x.data(), n, 3, p.y.data());
    return p;
}

kmx::TrainOptions options_for(kmx_method method, double lambda) {
    kmx::TrainOptions o;
    o.method = method;
    o.task = KMX_TASK_REGRESSION;
    o.lambda = lambda;
    o.centers = 25;
    o.clusters = 3;
    o.rank = 8;
    o.tolerance = 1e-12;
    o.iterations = 200;
    return o;
}

std::vector<double> predictions(kmx::Context &ctx, const kmx::Model &model, const kmx::Dataset &query) {
    std::vector<double> out(static_cast<size_t>(query.n));
    kmx::model_predict(ctx, model, query, out.data());
    return out;
}

// Every λ through one cache against a fresh fit at that λ, relative to the
// predictions' size.
void expect_path_equals_fresh(kmx_method method, double tolerance) {
    const Labelled p = labelled(120, 21);
    const Blobs q = blobs(30, 3, 3, 4.0, 1.0, 22);
    kmx::Context ctx;
    ctx.seed = 5;
    kmx::KrrPathCache path(kLambdas.size());
    for (double lambda : kLambdas) {
        SCOPED_TRACE(::testing::Message() << "method " << method << ", lambda " << lambda);
        ctx.begin_call();
        const std::vector<double> along =
            predictions(ctx, kmx::train_krr_model(ctx, options_for(method, lambda), rbf(0.3), *p.data, &path), *q.data);
        ctx.begin_call();
        const std::vector<double> fresh =
            predictions(ctx, kmx::train_krr_model(ctx, options_for(method, lambda), rbf(0.3), *p.data), *q.data);
        EXPECT_LT(max_abs_diff(along, fresh), tolerance * max_abs(fresh));
    }
    EXPECT_GT(ctx.held_bytes(), 0u);  // what the path keeps
}

TEST(KrrPathCache, ExactAlongLambdaEqualsCholeskyAtEachLambda) { expect_path_equals_fresh(KMX_METHOD_KRR, 1e-8); }
TEST(KrrPathCache, NystromAlongLambdaEqualsFitsFromScratch) { expect_path_equals_fresh(KMX_METHOD_NYSTROM_KRR, 1e-12); }
TEST(KrrPathCache, MekaAlongLambdaEqualsFitsFromScratch) { expect_path_equals_fresh(KMX_METHOD_MEKA_KRR, 1e-12); }
TEST(KrrPathCache, FalkonAlongLambdaEqualsFitsFromScratch) { expect_path_equals_fresh(KMX_METHOD_FALKON, 1e-12); }

// The tridiagonal form is taken for paths long enough to pay that fit; a
// shorter path, or a budget that holds a Cholesky but not the form, gets a
// Cholesky per λ. Longer paths are needed on more rows.
TEST(KrrPathCache, ExactTakesTheTridiagonalFormOnlyWhenItPaysAndFits) {
    const Labelled p = labelled(150, 23);
    const kmx::TrainOptions o = options_for(KMX_METHOD_KRR, 1e-3);
    kmx::Context ctx;
    kmx::KrrPathCache long_path(kmx::tridiagonal_path_values(150)), short_path(kmx::tridiagonal_path_values(150) - 1);
    kmx::train_krr_model(ctx, o, rbf(0.3), *p.data, &long_path);
    kmx::train_krr_model(ctx, o, rbf(0.3), *p.data, &short_path);
    EXPECT_TRUE(long_path.exact_tridiagonal());
    EXPECT_FALSE(short_path.exact_tridiagonal());
    EXPECT_LT(kmx::tridiagonal_path_values(150), kmx::tridiagonal_path_values(2000));
    // The smallest budget (to 1 KB) in which a Cholesky fit and its prediction run.
    const kmx::KrrTargets t = kmx::krr_targets(p.y.data(), 150, kmx::KrrTask::regression);
    size_t fits = 150 * 150 * 8 * 2, fails = 0;
    while (fits - fails > 1024) {
        const size_t middle = (fits + fails) / 2;
        kmx::Context trial;
        trial.memory_budget = middle;
        (status_of([&] { kmx::train_krr_model(trial, o, rbf(0.3), *p.data); }) == KMX_OK ? fits : fails) = middle;
    }
    kmx::Context tight;
    tight.memory_budget = fits;
    ASSERT_FALSE(kmx::krr_tridiagonal_fits(tight, rbf(0.3), *p.data, t.outputs));
    kmx::KrrPathCache path(kLambdas.size());
    for (double lambda : kLambdas) {
        tight.begin_call();
        const kmx::Model along =
            kmx::train_krr_model(tight, options_for(KMX_METHOD_KRR, lambda), rbf(0.3), *p.data, &path);
        const kmx::Model alone = kmx::train_krr_model(ctx, options_for(KMX_METHOD_KRR, lambda), rbf(0.3), *p.data);
        EXPECT_EQ(predictions(ctx, along, *p.data), predictions(ctx, alone, *p.data)) << "lambda " << lambda;
    }
    EXPECT_FALSE(path.exact_tridiagonal());
}

// A path of one value (kmx cv) keeps nothing: each method trains as without
// a cache, and nothing stays charged to the context.
TEST(KrrPathCache, APathOfOneValueKeepsNothing) {
    const Labelled p = labelled(100, 26);
    for (kmx_method method : {KMX_METHOD_KRR, KMX_METHOD_NYSTROM_KRR, KMX_METHOD_MEKA_KRR, KMX_METHOD_FALKON}) {
        kmx::Context ctx;
        kmx::KrrPathCache path(1);
        const kmx::Model along = kmx::train_krr_model(ctx, options_for(method, 1e-3), rbf(0.3), *p.data, &path);
        EXPECT_EQ(ctx.held_bytes(), 0u) << "method " << method;
        EXPECT_EQ(path.falkon(), nullptr);
        const kmx::Model alone = kmx::train_krr_model(ctx, options_for(method, 1e-3), rbf(0.3), *p.data);
        EXPECT_EQ(predictions(ctx, along, *p.data), predictions(ctx, alone, *p.data)) << "method " << method;
    }
}

// Another dataset, kernel or number of centers: the kept parts are rebuilt,
// and the fit equals one from scratch.
TEST(KrrPathCache, OtherDataOrOptionsRebuildWhatIsKept) {
    const Labelled a = labelled(100, 24), b = labelled(100, 25);
    for (kmx_method method : {KMX_METHOD_KRR, KMX_METHOD_NYSTROM_KRR, KMX_METHOD_FALKON}) {
        SCOPED_TRACE(::testing::Message() << "method " << method);
        kmx::Context ctx;
        kmx::KrrPathCache path(kLambdas.size());
        kmx::train_krr_model(ctx, options_for(method, 1e-3), rbf(0.3), *a.data, &path);
        kmx::TrainOptions other = options_for(method, 1e-2);
        other.centers = 30;
        for (const auto &[data, kernel] :
             {std::make_pair(b.data.get(), rbf(0.3)), std::make_pair(b.data.get(), rbf(0.5)),
              std::make_pair(a.data.get(), rbf(0.5))}) {
            const kmx::Model along = kmx::train_krr_model(ctx, other, kernel, *data, &path);
            const kmx::Model alone = kmx::train_krr_model(ctx, other, kernel, *data);
            const std::vector<double> fresh = predictions(ctx, alone, *a.data);
            EXPECT_LT(max_abs_diff(predictions(ctx, along, *a.data), fresh), 1e-8 * max_abs(fresh));
        }
    }
}

// A singular K_MM (every center twice): FALKON's preconditioner on K_MM's
// numerical rank, its A rebuilt per λ from the kept eigenvalues.
TEST(FalkonPath, LowRankPreconditionerAlongLambda) {
    std::vector<double> x, y;
    for (int i = 0; i < 40; ++i)
        for (int copy = 0; copy < 2; ++copy) {
            x.push_back(0.1 * i);
            y.push_back(std::sin(0.1 * i));
        }
    const auto data = kmx::Dataset::dense_copy(x.data(), 80, 1, y.data());
    const kmx::KrrTargets t = kmx::krr_targets(y.data(), 80, kmx::KrrTask::regression);
    kmx::FalkonOptions o;
    o.centers = 80;  // every row: K_MM has rank 40 (at most)
    o.jitter = 0;    // so that its Cholesky fails
    o.iterations = 100;
    o.tolerance = 1e-10;
    kmx::Context ctx;
    kmx::FalkonPath path;
    for (double lambda : {1e-3, 1e-5, 1e-1}) {
        o.lambda = lambda;
        kmx::FalkonStats along_stats, alone_stats;
        const kmx::CenterExpansion along = kmx::falkon_fit(ctx, rbf(2.0), *data, t, o, &along_stats, &path);
        const kmx::CenterExpansion alone = kmx::falkon_fit(ctx, rbf(2.0), *data, t, o, &alone_stats);
        EXPECT_LT(along_stats.rank, 80);
        EXPECT_EQ(along_stats.rank, alone_stats.rank);
        EXPECT_EQ(along_stats.iterations, alone_stats.iterations) << "lambda " << lambda;
        EXPECT_EQ(along.beta, alone.beta) << "lambda " << lambda;
    }
    EXPECT_GT(ctx.held_bytes(), 0u);
    path.clear();
    EXPECT_EQ(ctx.held_bytes(), 0u);
}

}  // namespace
