// center_expansion_predict (lib/model/center_expansion): global and
// per-cluster expansions against direct sums written here.
#include <gtest/gtest.h>

#include "../approx/approx_support.h"
#include "core/context.h"
#include "core/rng.h"
#include "model/center_expansion.h"

namespace {

using namespace approx_test;

kmx::CenterExpansion random_expansion(int64_t m, int64_t d, int64_t outputs, uint64_t seed) {
    kmx::Rng rng(seed);
    kmx::CenterExpansion e;
    e.kernel = rbf(0.3);
    e.d = d;
    e.outputs = outputs;
    e.m = m;
    for (int64_t i = 0; i < m * d; ++i) e.centers.push_back(4 * rng.uniform());
    for (int64_t i = 0; i < m * outputs; ++i) e.beta.push_back(rng.uniform() - 0.5);
    return e;
}

// Σ_j K(x, u_j) β_j over centers [first, last).
double direct(const kmx::CenterExpansion &e, const double *x, int64_t first, int64_t last, int64_t output) {
    double f = 0;
    for (int64_t j = first; j < last; ++j)
        f += kmx::kernel_eval(e.kernel, x, e.centers.data() + j * e.d, e.d) * e.beta[size_t(j * e.outputs + output)];
    return f;
}

TEST(CenterExpansion, GlobalExpansionIsTheDirectSum) {
    const kmx::CenterExpansion e = random_expansion(37, 3, 2, 1);
    const Blobs q = blobs(3000, 3, 2, 4.0, 1.0, 2);  // more rows than one predict block
    kmx::Context ctx;
    Matrix out(6000);
    kmx::center_expansion_predict(ctx, e, *q.data, out.data());
    double worst = 0;
    for (int64_t i = 0; i < 3000; i += 7)
        for (int64_t o = 0; o < 2; ++o)
            worst = std::max(worst, std::abs(out[size_t(i * 2 + o)] - direct(e, q.x.data() + i * 3, 0, 37, o)));
    EXPECT_LT(worst, 1e-12);
}

TEST(CenterExpansion, ClustersRouteToTheNearestCenterAndShortRowsArePadded) {
    kmx::CenterExpansion e = random_expansion(20, 3, 1, 3);
    e.cluster_centers = {0, 0, 0, 4, 4, 0, 0, 4, 4};
    e.cluster_begin = {0, 5, 12, 20};
    const Blobs q = blobs(200, 2, 3, 5.0, 1.5, 4);  // 2 columns: the third is 0
    kmx::Context ctx;
    Matrix out(200);
    // Dense rows must have every column; LIBSVM's rows (absent columns are zeros) are padded.
    EXPECT_EQ(status_of([&] { kmx::center_expansion_predict(ctx, e, *q.data, out.data()); }), KMX_E_INVALID_ARGUMENT);
    q.data->absent_columns_are_zeros = true;
    kmx::center_expansion_predict(ctx, e, *q.data, out.data());
    for (int64_t i = 0; i < 200; ++i) {
        const double x[3] = {q.x[size_t(i * 2)], q.x[size_t(i * 2 + 1)], 0.0};
        int64_t best = 0;
        double best_distance = 1e300;
        for (int64_t s = 0; s < 3; ++s) {
            double dist = 0;
            for (int j = 0; j < 3; ++j)
                dist += (x[j] - e.cluster_centers[size_t(s * 3 + j)]) * (x[j] - e.cluster_centers[size_t(s * 3 + j)]);
            if (dist < best_distance) best_distance = dist, best = s;
        }
        EXPECT_NEAR(out[size_t(i)], direct(e, x, e.cluster_begin[size_t(best)], e.cluster_begin[size_t(best + 1)], 0),
                    1e-12);
    }
}

TEST(CenterExpansion, BadExpansionsAndDataAreInvalidArguments) {
    const kmx::CenterExpansion good = random_expansion(5, 2, 1, 5);
    const Blobs wide = blobs(4, 3, 1, 1.0, 1.0, 6);
    kmx::Context ctx;
    Matrix out(4);
    EXPECT_EQ(status_of([&] { kmx::center_expansion_predict(ctx, good, *wide.data, out.data()); }),
              KMX_E_INVALID_ARGUMENT);  // more columns than the model
    const Blobs q = blobs(4, 2, 1, 1.0, 1.0, 7);
    kmx::CenterExpansion bad = good;
    bad.beta.pop_back();
    EXPECT_EQ(status_of([&] { kmx::center_expansion_predict(ctx, bad, *q.data, out.data()); }), KMX_E_INVALID_ARGUMENT);
    bad = good;
    bad.cluster_centers = {0, 0, 1, 1};
    bad.cluster_begin = {0, 3, 4};  // does not end at m = 5
    EXPECT_EQ(status_of([&] { kmx::center_expansion_predict(ctx, bad, *q.data, out.data()); }), KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(status_of([&] { kmx::center_expansion_predict(ctx, good, *q.data, nullptr); }), KMX_E_INVALID_ARGUMENT);
}

}  // namespace
