// test_predictor_from_expansion.cpp — a center expansion (global, or one per
// input-space cluster as MEKA fits) as a compact predictor predicts what
// center_expansion_predict does, for every output.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/context.h"
#include "core/dataset.h"
#include "core/error.h"
#include "core/rng.h"
#include "predict/compact_predict.h"
#include "predict/predictor_from_expansion.h"
#include "model/center_expansion.h"

namespace {

// m centers in [0,1]^d with random β; `clusters` > 0 splits them into
// consecutive groups (one of them empty) with random cluster centers.
kmx::CenterExpansion random_expansion(kmx::Rng &rng, int64_t m, int64_t d, int64_t outputs, int64_t clusters) {
    kmx::CenterExpansion e;
    e.kernel.type = KMX_KERNEL_RBF;
    e.kernel.gamma = 2.5;
    e.d = d;
    e.outputs = outputs;
    e.m = m;
    for (int64_t i = 0; i < m * d; ++i) e.centers.push_back(rng.uniform());
    for (int64_t i = 0; i < m * outputs; ++i) e.beta.push_back(2 * rng.uniform() - 1);
    if (clusters > 0) {
        for (int64_t i = 0; i < clusters * d; ++i) e.cluster_centers.push_back(rng.uniform());
        e.cluster_begin.push_back(0);
        for (int64_t s = 1; s < clusters; ++s)
            e.cluster_begin.push_back(
                s == 1 ? 0 : std::min(m, e.cluster_begin.back() + m / (clusters - 1)));  // cluster 0 empty
        e.cluster_begin.push_back(m);
    }
    return e;
}

void expect_same_outputs(const kmx::CenterExpansion &e, kmx::PredictorTask task, const std::vector<double> &classes,
                         kmx_multiclass multiclass) {
    kmx::Rng rng(11);
    const int64_t n = 1500;
    std::vector<double> x(static_cast<size_t>(n * e.d));
    for (double &v : x) v = rng.uniform();
    const auto data = kmx::Dataset::dense_borrow(x.data(), n, e.d, nullptr);
    kmx::Context ctx;
    std::vector<double> expected(static_cast<size_t>(n * e.outputs)), got(expected.size()),
        labels(static_cast<size_t>(n));
    kmx::center_expansion_predict(ctx, e, *data, expected.data());
    const kmx::CompactPredictor p = kmx::predictor_from_expansion(e, task, classes, multiclass);
    EXPECT_EQ(p.outputs, e.outputs);
    EXPECT_EQ(int64_t(p.leaves.size()), std::max<int64_t>(1, e.clusters()));
    kmx::compact_predict(ctx, p, *data, got.data(), labels.data());
    double worst = 0;
    for (size_t i = 0; i < got.size(); ++i)
        worst = std::max(worst, std::fabs(got[i] - expected[i]) / (1 + std::fabs(expected[i])));
    EXPECT_LT(worst, 1e-12);
    // Labels from the outputs as the rule says: regression o_0; two classes by the sign; ovr the largest.
    for (int64_t i = 0; i < n; ++i) {
        const double *o = &expected[size_t(i * e.outputs)];
        const double want = task == kmx::PredictorTask::regression ? o[0]
                            : classes.size() == 2                  ? (o[0] > 0 ? classes[1] : classes[0])
                                                  : classes[size_t(std::max_element(o, o + e.outputs) - o)];
        EXPECT_NEAR(labels[size_t(i)], want, 1e-12 * (1 + std::fabs(want))) << "row " << i;
    }
}

TEST(PredictorFromExpansion, GlobalRegression) {
    kmx::Rng rng(1);
    expect_same_outputs(random_expansion(rng, 40, 5, 1, 0), kmx::PredictorTask::regression, {}, KMX_MULTICLASS_OVO);
}

TEST(PredictorFromExpansion, ClusteredBinary) {
    kmx::Rng rng(2);
    expect_same_outputs(random_expansion(rng, 60, 4, 1, 5), kmx::PredictorTask::classification, {-1, 1},
                        KMX_MULTICLASS_OVO);
}

TEST(PredictorFromExpansion, ClusteredOneVsRest) {
    kmx::Rng rng(3);
    expect_same_outputs(random_expansion(rng, 60, 4, 3, 4), kmx::PredictorTask::classification, {1, 2, 3},
                        KMX_MULTICLASS_OVR);
}

TEST(PredictorFromExpansion, Float32RoundsEveryArray) {
    kmx::Rng rng(4);
    const kmx::CenterExpansion e = random_expansion(rng, 20, 3, 1, 3);
    const kmx::CompactPredictor p =
        kmx::predictor_from_expansion(e, kmx::PredictorTask::regression, {}, KMX_MULTICLASS_OVO,
                                      kmx::PredictorStorage::float32);
    EXPECT_EQ(p.storage, kmx::PredictorStorage::float32);
    for (const kmx::PredictorLeaf &leaf : p.leaves) {
        for (double v : leaf.landmarks) EXPECT_EQ(v, double(float(v)));
        for (double v : leaf.beta) EXPECT_EQ(v, double(float(v)));
        for (double v : leaf.center) EXPECT_EQ(v, double(float(v)));
    }
}

// int16/int8 quantize the centers around each cluster's center, one scale
// per leaf, under the expansion's own β (nothing is refitted): each center
// moves by at most half a step, and the outputs by what that does to K.
TEST(PredictorFromExpansion, QuantizedStorageRoundsCentersToCodes) {
    kmx::Rng rng(5);
    const kmx::CenterExpansion e = random_expansion(rng, 60, 4, 1, 5);
    for (kmx::PredictorStorage storage : {kmx::PredictorStorage::int16, kmx::PredictorStorage::int8}) {
        const kmx::CompactPredictor p = kmx::predictor_from_expansion(
            e, kmx::PredictorTask::classification, {-1, 1}, KMX_MULTICLASS_OVO, storage);
        EXPECT_EQ(p.storage, storage);
        const kmx::CompactPredictor exact =
            kmx::predictor_from_expansion(e, kmx::PredictorTask::classification, {-1, 1}, KMX_MULTICLASS_OVO);
        for (size_t l = 0; l < p.leaves.size(); ++l) {
            const kmx::PredictorLeaf &leaf = p.leaves[l];
            EXPECT_GT(leaf.landmark_scale, 0);
            for (size_t i = 0; i < leaf.landmarks.size(); ++i)
                EXPECT_LE(std::fabs(leaf.landmarks[i] - exact.leaves[l].landmarks[i]),
                          0.5 * leaf.landmark_scale + 1e-6 * std::fabs(exact.leaves[l].landmarks[i]));
        }
    }
}

TEST(PredictorFromExpansion, InconsistentInputIsRejected) {
    kmx::Rng rng(5);
    kmx::CenterExpansion e = random_expansion(rng, 10, 3, 2, 0);
    // Two outputs do not fit a regression.
    EXPECT_THROW(kmx::predictor_from_expansion(e, kmx::PredictorTask::regression, {}, KMX_MULTICLASS_OVO), kmx::Error);
    e.outputs = 1;
    EXPECT_THROW(kmx::predictor_from_expansion(e, kmx::PredictorTask::regression, {}, KMX_MULTICLASS_OVO), kmx::Error);
}

}  // namespace
