// test_falkon_f32.cpp — FALKON with kernel_float32 (K_nM's blocks computed
// and cached in float32) against the same fit in double: close predictions,
// the same test error within a small margin, and twice the cached rows for
// the same cache bytes.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "core/context.h"
#include "falkon_reference.h"
#include "krr/falkon.h"

namespace {

using falkon_test::load;
using falkon_test::relative_difference;

// Letter's first 3000 rows: 2500 to train, 500 to test; RBF γ = 8, M = 400,
// 26 one-vs-rest outputs.
struct LetterCase {
    std::unique_ptr<kmx::Dataset> letter = load("letter_mc.train.libsvm", true, 3000);
    std::unique_ptr<kmx::Dataset> train = kmx::Dataset::dense_copy(letter->x, 2500, letter->d, letter->y);
    std::unique_ptr<kmx::Dataset> test =
        kmx::Dataset::dense_copy(letter->x + 2500 * letter->d, letter->n - 2500, letter->d, letter->y + 2500);
    kmx::KrrTargets t = kmx::krr_targets(train->y, train->n, kmx::KrrTask::classification);
    kmx::KernelSpec kernel = [] {
        kmx::KernelSpec k;
        k.type = KMX_KERNEL_RBF;
        k.gamma = 8.0;
        return k;
    }();

    kmx::FalkonOptions options(bool float32) const {
        kmx::FalkonOptions o;
        o.centers = 400;
        o.lambda = 1e-6;
        o.iterations = 20;
        o.kernel_float32 = float32;
        return o;
    }
};

struct Fit {
    kmx::CenterExpansion model;
    kmx::FalkonStats stats;
};

Fit fit(const LetterCase &c, const kmx::FalkonOptions &o) {
    kmx::Context ctx;
    ctx.seed = 3;
    Fit f;
    f.model = kmx::falkon_fit(ctx, c.kernel, *c.train, c.t, o, &f.stats);
    return f;
}

std::vector<double> predict(const Fit &f, const kmx::Dataset &query) {
    return falkon_test::predict(f.model.kernel, f.model.centers.data(), f.model.m, f.model.beta.data(), f.model.outputs,
                                query);
}

double error_rate(const kmx::KrrTargets &t, const std::vector<double> &f, const kmx::Dataset &test) {
    int64_t wrong = 0;
    for (int64_t i = 0; i < test.n; ++i) wrong += kmx::krr_label(t, f.data() + i * t.outputs) != test.y[i];
    return double(wrong) / double(test.n);
}

// float32 changes K_nM's values by about 1e-7 relative; through 20 CG
// iterations at λ = 1e-6 the test predictions move by a relative 1e-3 at
// most (measured: 2.4e-6) and the test error by at most 0.5 points
// (2 of 500 rows). They do move: the option is not ignored.
TEST(FalkonF32, PredictionsAndTestErrorMatchTheDoubleFit) {
    const LetterCase c;
    const Fit f64 = fit(c, c.options(false)), f32 = fit(c, c.options(true));
    const std::vector<double> p64 = predict(f64, *c.test), p32 = predict(f32, *c.test);
    const double diff = relative_difference(p32, p64);
    const double e64 = error_rate(c.t, p64, *c.test), e32 = error_rate(c.t, p32, *c.test);
    std::printf("  predictions: relative difference %.2e; test error float64 %.4f, float32 %.4f\n", diff, e64, e32);
    EXPECT_LE(diff, 1e-3);
    EXPECT_GT(diff, 0.0);
    EXPECT_LE(std::fabs(e32 - e64), 0.005);
    EXPECT_EQ(f32.stats.iterations, f64.stats.iterations);
}

// One process reads the float rows in place for both products
// (add_normal_product, whatever the outputs) or bins them: the
// same fit to round-off (at λ = 1e-6, 20 CG iterations make the sums'
// last-bit differences about 1e-9 of the predictions: measured 1.07e-9).
TEST(FalkonF32, OneProcessSumsAgreeWithBinnedSums) {
    const LetterCase c;
    kmx::FalkonOptions o = c.options(true);
    const Fit local = fit(c, o);
    o.reproducible_sums = true;
    const Fit binned = fit(c, o);
    EXPECT_LE(relative_difference(predict(local, *c.test), predict(binned, *c.test)), 1e-8);
}

// The same cache bytes hold twice the rows in float32: half of K_nM's
// doubles hold all of it as floats. The cache changes no number, and the
// workspace is sized for the floats.
TEST(FalkonF32, SameCacheBytesHoldTwiceTheRows) {
    const LetterCase c;
    const size_t half_in_doubles = size_t(c.train->n) * 400 * sizeof(double) / 2;
    kmx::FalkonOptions o64 = c.options(false), o32 = c.options(true);
    o64.iterations = o32.iterations = 4;
    const Fit uncached32 = fit(c, o32);
    o64.kernel_cache_bytes = o32.kernel_cache_bytes = half_in_doubles;
    const Fit cached64 = fit(c, o64), cached32 = fit(c, o32);
    std::printf("  %zu cache bytes: %lld rows cached in float64, %lld in float32 of %lld\n", half_in_doubles,
                (long long)cached64.stats.cached_rows, (long long)cached32.stats.cached_rows, (long long)c.train->n);
    EXPECT_EQ(cached32.stats.cached_rows, c.train->n);
    EXPECT_LT(cached64.stats.cached_rows, c.train->n);
    EXPECT_EQ(uncached32.stats.cached_rows, 0);
    EXPECT_EQ(cached32.model.beta, uncached32.model.beta);
    EXPECT_EQ(cached32.stats.workspace_bytes, kmx::falkon_workspace_bytes(c.kernel, *c.train, 400, c.t.outputs, o32));
    EXPECT_GE(cached32.stats.workspace_bytes, uncached32.stats.workspace_bytes + half_in_doubles);
}

// auto_cache reserves K_nM at its precision's size: n x M floats with
// kernel_float32, doubles without, after the same workspace.
TEST(FalkonF32, AutoCacheReservesKnmAtItsPrecision) {
    const LetterCase c;
    const int64_t values = c.train->n * 400;
    for (bool float32 : {false, true}) {
        kmx::FalkonOptions o = c.options(float32);
        o.iterations = 2;
        o.auto_cache = true;
        const Fit f = fit(c, o);
        const size_t cache =
            f.stats.workspace_bytes - kmx::falkon_workspace_bytes(c.kernel, *c.train, 400, c.t.outputs, o);
        const size_t expected = size_t(values) * (float32 ? sizeof(float) : sizeof(double));
        std::printf("  auto cache, %s: %zu bytes for %lld rows\n", float32 ? "float32" : "float64", cache,
                    (long long)f.stats.cached_rows);
        EXPECT_GE(cache, expected);
        EXPECT_LT(cache, expected + 4096);
        EXPECT_EQ(f.stats.cached_rows, c.train->n);
    }
}

}  // namespace
