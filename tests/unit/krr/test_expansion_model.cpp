// Kernel ridge regression fits as models: a CenterExpansion converted to a
// Model predicts what a direct double loop over its definition computes
// (global and input-space-routed expansions; regression, two classes,
// one-vs-rest), and survives a save/load round trip unchanged.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <memory>

#include "core/context.h"
#include "core/dataset.h"
#include "core/error.h"
#include "core/rng.h"
#include "model/model_file.h"
#include "kernel/kernel.h"
#include "krr/expansion_model.h"

namespace {

using kmx::CenterExpansion;

constexpr int64_t kD = 3, kCenters = 12, kRows = 40;

CenterExpansion random_expansion(int64_t outputs, int64_t clusters, uint64_t seed) {
    kmx::Rng rng(seed);
    CenterExpansion e;
    e.kernel.type = KMX_KERNEL_RBF;
    e.kernel.gamma = 0.7;
    e.d = kD;
    e.m = kCenters;
    e.outputs = outputs;
    e.centers.resize(size_t(kCenters * kD));
    for (double &v : e.centers) v = 2 * rng.uniform();
    e.beta.resize(size_t(kCenters * outputs));
    for (double &v : e.beta) v = rng.uniform() - 0.5;
    if (clusters > 0) {
        e.cluster_centers.resize(size_t(clusters * kD));
        for (double &v : e.cluster_centers) v = 2 * rng.uniform();
        for (int64_t s = 0; s <= clusters; ++s) e.cluster_begin.push_back(s * kCenters / clusters);
    }
    return e;
}

kmx::KrrTargets targets_for(int64_t outputs, bool regression) {
    kmx::KrrTargets t;
    t.outputs = outputs;
    if (regression) return t;
    t.task = kmx::KrrTask::classification;
    for (int64_t c = 0; c < (outputs == 1 ? 2 : outputs); ++c) t.classes.push_back(double(3 * c - 1));
    return t;
}

// f_k(x) by the definition: the nearest cluster center (if any) picks the centers.
double direct_output(const CenterExpansion &e, const double *x, int64_t k) {
    int64_t begin = 0, end = e.m;
    if (e.clusters() > 0) {
        int64_t best = 0;
        double best_dist = std::numeric_limits<double>::infinity();
        for (int64_t s = 0; s < e.clusters(); ++s) {
            double dist = 0;
            for (int64_t j = 0; j < e.d; ++j) dist += std::pow(x[j] - e.cluster_centers[size_t(s * e.d + j)], 2);
            if (dist < best_dist) best = s, best_dist = dist;
        }
        begin = e.cluster_begin[size_t(best)];
        end = e.cluster_begin[size_t(best) + 1];
    }
    double sum = 0;
    for (int64_t j = begin; j < end; ++j)
        sum += kmx::kernel_eval(e.kernel, x, e.centers.data() + j * e.d, e.d) * e.beta[size_t(j * e.outputs + k)];
    return sum;
}

std::vector<double> random_rows(uint64_t seed) {
    kmx::Rng rng(seed);
    std::vector<double> x(size_t(kRows * kD));
    for (double &v : x) v = 2 * rng.uniform();
    return x;
}

void expect_model_matches(const kmx::Model &model, const CenterExpansion &e, const kmx::KrrTargets &targets) {
    const std::vector<double> x = random_rows(99);
    const std::unique_ptr<kmx::Dataset> data = kmx::Dataset::dense_borrow(x.data(), kRows, kD, nullptr);
    kmx::Context ctx;
    std::vector<double> values(size_t(kRows * e.outputs)), labels(kRows);
    kmx::model_decision_values(ctx, model, *data, values.data());
    kmx::model_predict(ctx, model, *data, labels.data());
    for (int64_t i = 0; i < kRows; ++i) {
        std::vector<double> direct(size_t(e.outputs));
        for (int64_t k = 0; k < e.outputs; ++k) {
            direct[size_t(k)] = direct_output(e, x.data() + i * kD, k);
            EXPECT_NEAR(values[size_t(i * e.outputs + k)], direct[size_t(k)], 1e-12) << "row " << i << " output " << k;
        }
        if (model.regression())
            EXPECT_NEAR(labels[size_t(i)], direct[0], 1e-12) << "row " << i;
        else
            EXPECT_EQ(labels[size_t(i)], kmx::krr_label(targets, direct.data())) << "row " << i;
    }
}

struct Shape {
    int64_t outputs;
    int64_t clusters;
    bool regression;
};

class ExpansionModels : public ::testing::TestWithParam<Shape> {};

TEST_P(ExpansionModels, PredictLikeTheirDefinitionBeforeAndAfterSaving) {
    const Shape shape = GetParam();
    const CenterExpansion e = random_expansion(shape.outputs, shape.clusters, 7 + uint64_t(shape.clusters));
    const kmx::KrrTargets targets = targets_for(shape.outputs, shape.regression);
    const kmx::Model model = kmx::model_from_expansion(e, targets, KMX_METHOD_MEKA_KRR, 1e-3);
    EXPECT_EQ(model.regression(), shape.regression);
    EXPECT_EQ(model.early(), shape.clusters > 0);
    expect_model_matches(model, e, targets);
    const std::vector<unsigned char> bytes = kmx::model_to_bytes(model);
    const kmx::Model loaded = kmx::model_from_bytes(bytes.data(), bytes.size(), "buffer");
    EXPECT_EQ(loaded.lambda, 1e-3);
    EXPECT_EQ(loaded.routes, shape.clusters);
    expect_model_matches(loaded, e, targets);
}

INSTANTIATE_TEST_SUITE_P(Shapes, ExpansionModels,
                         ::testing::Values(Shape{1, 0, true}, Shape{1, 3, true}, Shape{1, 0, false}, Shape{4, 0, false},
                                           Shape{4, 3, false}, Shape{1, 1, false}));

TEST(ExpansionModels, AMismatchedShapeIsAnInternalError) {
    CenterExpansion e = random_expansion(2, 0, 1);
    const kmx::KrrTargets targets = targets_for(3, false);
    try {
        kmx::model_from_expansion(e, targets, KMX_METHOD_FALKON, 1);
        FAIL() << "accepted 2 outputs for 3 targets";
    } catch (const kmx::Error &error) {
        EXPECT_EQ(error.status(), KMX_E_INTERNAL);
    }
}

}  // namespace

namespace {

TEST(ExpansionModels, ConvertBackToTheSameExpansion) {
    for (const Shape shape : {Shape{1, 0, true}, Shape{4, 3, false}}) {
        const CenterExpansion e = random_expansion(shape.outputs, shape.clusters, 3);
        const kmx::Model model =
            kmx::model_from_expansion(e, targets_for(shape.outputs, shape.regression), KMX_METHOD_FALKON, 0.5);
        const CenterExpansion back = kmx::expansion_from_model(model);
        EXPECT_EQ(back.m, e.m);
        EXPECT_EQ(back.outputs, e.outputs);
        EXPECT_EQ(back.centers, e.centers);
        EXPECT_EQ(back.beta, e.beta);
        EXPECT_EQ(back.cluster_centers, e.cluster_centers);
        EXPECT_EQ(back.cluster_begin, e.cluster_begin);
    }
}

}  // namespace
