// test_predictor_from_expansion.cpp — a center expansion (global, or one per
// input-space cluster as MEKA fits) as a compact predictor predicts what
// center_expansion_predict does, for every output; an SVM classifier as one
// (predictor_from_svm_model) what the model does.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/context.h"
#include "core/dataset.h"
#include "core/error.h"
#include "core/rng.h"
#include "model/center_expansion.h"
#include "model/model.h"
#include "predict/compact_predict.h"
#include "predict/predictor_blob.h"
#include "predict/predictor_from_expansion.h"
#include "predict_test_support.h"

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
    const kmx::CompactPredictor p = kmx::predictor_from_expansion(e, kmx::PredictorTask::regression, {},
                                                                  KMX_MULTICLASS_OVO, kmx::PredictorStorage::float32);
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
        const kmx::CompactPredictor p =
            kmx::predictor_from_expansion(e, kmx::PredictorTask::classification, {-1, 1}, KMX_MULTICLASS_OVO, storage);
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

// ---------------------------------------------------- an SVM model as it is

namespace {

// The model's decision values against its predictor's (float64: the same
// expansion, so to rounding) on the first rows of `test`; the labels too.
void expect_model_as_predictor(const kmx::Model &model, const kmx::Dataset &test) {
    kmx::Context ctx;
    const std::optional<kmx::CompactPredictor> p = kmx::predictor_from_svm_model(model, kmx::PredictorStorage::float64);
    ASSERT_TRUE(p.has_value());
    ASSERT_EQ(p->leaves.size(), 1u);
    EXPECT_EQ(p->leaves[0].m, model.n_points);
    const size_t k = size_t(model.decision_values());
    std::vector<double> expected(size_t(test.n) * k), got(expected.size()), labels(size_t(test.n));
    kmx::model_decision_values(ctx, model, test, expected.data());
    kmx::compact_predict(ctx, *p, test, got.data(), labels.data());
    double worst = 0;
    for (size_t i = 0; i < got.size(); ++i)
        worst = std::max(worst, std::fabs(got[i] - expected[i]) / (1 + std::fabs(expected[i])));
    EXPECT_LT(worst, 1e-12);
    int64_t same = 0;
    for (int64_t i = 0; i < test.n; ++i)
        same += labels[size_t(i)] ==
                model.classes[size_t(kmx::class_from_decision_values(model, &expected[size_t(i) * k]))];
    EXPECT_EQ(same, test.n);
}

}  // namespace

TEST(PredictorFromSvmModel, BinaryOneVsOneAndOneVsRestPredictAsTheModel) {
    kmx::Context ctx;
    const auto binary = predict_test::load_example("letter_bin.train.libsvm", 1500);
    const auto binary_test = predict_test::load_example("letter_bin.test.libsvm", 500);
    expect_model_as_predictor(predict_test::train_rbf_svm(ctx, *binary, 8, 16), *binary_test);
    const auto letters = predict_test::load_example("letter_mc.train.libsvm", 1500);
    const auto letters_test = predict_test::load_example("letter_mc.test.libsvm", 300);
    expect_model_as_predictor(predict_test::train_rbf_svm(ctx, *letters, 8, 16), *letters_test);  // one-vs-one
    kmx::TrainOptions options;
    options.C = 8;
    options.multiclass = KMX_MULTICLASS_OVR;
    kmx::KernelSpec rbf;
    rbf.type = KMX_KERNEL_RBF;
    rbf.gamma = 16;
    expect_model_as_predictor(kmx::train_svm_model(ctx, options, rbf, *letters), *letters_test);
}

// int4 on Letter: its 16 features take at most 16 values each, so the
// codebook holds the support vectors exactly (after float rounding) and the
// int4 predictor is the float32 one, at under a tenth of the model's bytes
// (8 bytes of codes and a float coefficient a support vector).
TEST(PredictorFromSvmModel, Int4KeepsLetterSupportVectorsExactly) {
    kmx::Context ctx;
    const auto train = predict_test::load_example("letter_bin.train.libsvm", 3000);
    const kmx::Model model = predict_test::train_rbf_svm(ctx, *train, 8, 16);
    const auto int4 = kmx::predictor_from_svm_model(model, kmx::PredictorStorage::int4);
    const auto float32 = kmx::predictor_from_svm_model(model, kmx::PredictorStorage::float32);
    ASSERT_TRUE(int4 && float32);
    EXPECT_EQ(int4->leaves[0].landmarks, float32->leaves[0].landmarks);
    const size_t bytes = kmx::write_predictor_blob(*int4).size();
    EXPECT_LT(double(bytes), 13.0 * double(model.n_points) + 4096);
    EXPECT_LT(bytes, kmx::write_predictor_blob(*float32).size() / 5);
}

TEST(PredictorFromSvmModel, ModelsThatPredictOtherwiseAreLeftOut) {
    kmx::Context ctx;
    const auto train = predict_test::load_example("letter_bin.train.libsvm", 3000);
    kmx::TrainOptions options;
    options.method = KMX_METHOD_DCSVM_EARLY;
    options.C = 8;
    kmx::KernelSpec rbf;
    rbf.type = KMX_KERNEL_RBF;
    rbf.gamma = 16;
    const kmx::Model early = kmx::train_svm_model(ctx, options, rbf, *train);
    ASSERT_TRUE(early.early());
    EXPECT_FALSE(kmx::predictor_from_svm_model(early, kmx::PredictorStorage::float64).has_value());
    kmx::Model swapped = predict_test::train_rbf_svm(ctx, *train, 8, 16);
    std::swap(swapped.machines[0].positive, swapped.machines[0].negative);  // class 0 positive: not the rule's
    EXPECT_FALSE(kmx::predictor_from_svm_model(swapped, kmx::PredictorStorage::float64).has_value());
}
