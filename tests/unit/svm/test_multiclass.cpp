// Multiclass training on Letter subsets: accuracy, LIBSVM's one-vs-one order
// and voting, one-vs-rest, and decision values recomputed by brute force
// from the model's stored coefficients.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <thread>

#include "capi/handles.h"
#include "kernel/kernel.h"
#include "../model/model_test_data.h"
#include "model/model.h"

namespace {

using namespace model_test;

// Σ_j coef_j K(sv_j, x) + b with the direct kernel formula.
double brute_force_value(const kmx::Model &m, const kmx::BinaryMachine &machine, const double *x) {
    double f = machine.bias;
    for (size_t j = 0; j < machine.coef.size(); ++j)
        f += machine.coef[j] * kmx::kernel_eval(m.kernel, m.points.data() + machine.sv[j] * m.d, x, m.d);
    return f;
}

int64_t brute_force_vote(const kmx::Model &m, const double *values) {
    std::vector<int64_t> votes(m.classes.size(), 0);
    for (size_t k = 0; k < m.machines.size(); ++k)
        ++votes[size_t(values[k] > 0 ? m.machines[k].positive : m.machines[k].negative)];
    return std::max_element(votes.begin(), votes.end()) - votes.begin();
}

struct LetterFive : ::testing::Test {
    Rows train_rows = load_rows("letter_mc.train.libsvm", 5, 1000000);
    Rows test_rows = load_rows("letter_mc.test.libsvm", 5, 600);
    kmx_dataset *train_data = make_dataset(train_rows);
    kmx_dataset *test_data = make_dataset(test_rows);
    kmx_kernel *kernel = rbf(16);
    void expect_early_predictions(kmx_model *model);
    void TearDown() override {
        kmx_dataset_free(train_data);
        kmx_dataset_free(test_data);
        kmx_kernel_free(kernel);
    }
};

TEST_F(LetterFive, OneVsOneFollowsLibsvmOrderAndVotesLikeBruteForce) {
    kmx_model *model = train("method=svm C=8", kernel, train_data);
    ASSERT_NE(model, nullptr);
    const kmx::Model &m = model->impl;
    ASSERT_EQ(m.machines.size(), 10u);
    size_t k = 0;
    for (int32_t i = 0; i < 5; ++i)
        for (int32_t j = i + 1; j < 5; ++j, ++k) {
            EXPECT_EQ(m.machines[k].positive, i);
            EXPECT_EQ(m.machines[k].negative, j);
        }
    EXPECT_GT(accuracy(model, test_data, test_rows), 0.95);
    const std::vector<double> values = decision_values(model, test_data, test_rows.n());
    std::vector<double> predicted(static_cast<size_t>(test_rows.n()));
    ASSERT_EQ(kmx_model_predict(predicted.data(), test_rows.n(), nullptr, model, test_data), KMX_OK);
    for (int64_t i = 0; i < 200; ++i) {
        const double *row = values.data() + i * 10;
        for (size_t q = 0; q < 10; ++q) {
            const double f = brute_force_value(m, m.machines[q], test_rows.x.data() + i * m.d);
            ASSERT_NEAR(row[q], f, 1e-9 * (1 + std::fabs(f))) << "row " << i << " machine " << q;
        }
        EXPECT_EQ(predicted[size_t(i)], m.classes[size_t(brute_force_vote(m, row))]) << "row " << i;
    }
    kmx_model_free(model);
}

TEST_F(LetterFive, OneVsRestPredictsTheLargestDecisionValue) {
    kmx_model *model = train("method=svm C=8 multiclass=ovr", kernel, train_data);
    ASSERT_NE(model, nullptr);
    const kmx::Model &m = model->impl;
    ASSERT_EQ(m.machines.size(), 5u);
    for (int32_t c = 0; c < 5; ++c) {
        EXPECT_EQ(m.machines[size_t(c)].positive, c);
        EXPECT_EQ(m.machines[size_t(c)].negative, kmx::kRestOfClasses);
    }
    EXPECT_GT(accuracy(model, test_data, test_rows), 0.93);
    const std::vector<double> values = decision_values(model, test_data, test_rows.n());
    std::vector<double> predicted(static_cast<size_t>(test_rows.n()));
    ASSERT_EQ(kmx_model_predict(predicted.data(), test_rows.n(), nullptr, model, test_data), KMX_OK);
    for (int64_t i = 0; i < test_rows.n(); ++i) {
        const double *row = values.data() + i * 5;
        EXPECT_EQ(predicted[size_t(i)], m.classes[size_t(std::max_element(row, row + 5) - row)]);
    }
    kmx_model_free(model);
}

TEST_F(LetterFive, DcsvmMethodsAreAccurate) {
    const char *const methods[] = {"method=dcsvm C=8", "method=dcsvm_early C=8 levels=2 early_level=1",
                                   "method=bka C=8 early_level=1"};
    for (const char *params : methods) {
        kmx_model *model = train(params, kernel, train_data);
        ASSERT_NE(model, nullptr) << params;
        EXPECT_GT(accuracy(model, test_data, test_rows), 0.9) << params;
        kmx_model_free(model);
    }
}

// The nearest cluster in feature space, from the stored sample points:
// argmin_c K(x,x) − (2/|S_c|) Σ_{j∈S_c} K(x, x_j) + cluster_self_c.
int32_t brute_force_cluster(const kmx::Model &m, const kmx::MachinePartition &local, const double *x) {
    const kmx::KernelPartition &p = local.partition;
    std::vector<double> dist(size_t(p.k), 0.0);
    for (size_t i = 0; i < p.sample_rows.size(); ++i)
        dist[size_t(p.sample_cluster[i])] -=
            2 * kmx::kernel_eval(m.kernel, m.points.data() + p.sample_rows[i] * m.d, x, m.d);
    for (int64_t c = 0; c < p.k; ++c)
        dist[size_t(c)] = kmx::kernel_eval(m.kernel, x, x, m.d) + dist[size_t(c)] / double(p.cluster_size[size_t(c)]) +
                          p.cluster_self[size_t(c)];
    return int32_t(std::min_element(dist.begin(), dist.end()) - dist.begin());
}

// Early prediction (with or without bias: then each cluster's model has its
// own b_c) against the decision function written out, before and after a
// save/load round trip.
TEST_F(LetterFive, EarlyPredictionUsesTheNearestClustersCoefficients) {
    for (const char *bias : {"off", "on"}) {
        const std::string params =
            std::string("method=dcsvm_early C=8 levels=2 early_level=2 clusters_per_level=3 bias=") + bias;
        kmx_model *model = train(params.c_str(), kernel, train_data);
        ASSERT_NE(model, nullptr);
        expect_early_predictions(model);
        int64_t size = 0;
        ASSERT_EQ(kmx_model_save_to_buffer(nullptr, 0, &size, model), KMX_OK);
        std::vector<unsigned char> bytes(static_cast<size_t>(size));
        ASSERT_EQ(kmx_model_save_to_buffer(bytes.data(), size, &size, model), KMX_OK);
        kmx_model *loaded = nullptr;
        ASSERT_EQ(kmx_model_load_from_buffer(&loaded, bytes.data(), size), KMX_OK);
        EXPECT_EQ(loaded->impl.machines[0].local.cluster_bias, model->impl.machines[0].local.cluster_bias);
        const kmx::MachinePartition &local = loaded->impl.machines[0].local;
        if (std::string(bias) == "on") {
            EXPECT_EQ(local.cluster_bias.size(), size_t(local.clusters()));  // every cluster's model has its b_c
            EXPECT_GE(local.clusters(), 1);
        }
        expect_early_predictions(loaded);
        kmx_model_free(loaded);
        kmx_model_free(model);
    }
}

void LetterFive::expect_early_predictions(kmx_model *model) {
    const kmx::Model &m = model->impl;
    ASSERT_TRUE(m.early());
    const std::vector<double> values = decision_values(model, test_data, test_rows.n());
    for (int64_t i = 0; i < 100; ++i) {
        const double *x = test_rows.x.data() + i * m.d;
        for (size_t q = 0; q < m.machines.size(); ++q) {
            const kmx::BinaryMachine &machine = m.machines[q];
            const int32_t c = brute_force_cluster(m, machine.local, x);
            double f =
                machine.bias + (machine.local.cluster_bias.empty() ? 0.0 : machine.local.cluster_bias[size_t(c)]);
            for (int64_t j = machine.local.cluster_begin[size_t(c)]; j < machine.local.cluster_begin[size_t(c) + 1];
                 ++j)
                f += machine.coef[size_t(j)] *
                     kmx::kernel_eval(m.kernel, m.points.data() + machine.sv[size_t(j)] * m.d, x, m.d);
            ASSERT_NEAR(values[size_t(i) * m.machines.size() + q], f, 1e-9 * (1 + std::fabs(f)))
                << "row " << i << " machine " << q;
        }
    }
}

TEST(Multiclass, BinaryDecisionValueIsPositiveForTheLargerLabel) {
    const Rows rows = load_rows("letter_bin.train.libsvm", 1, 400);
    kmx_dataset *data = make_dataset(rows);
    kmx_kernel *kernel = rbf(16);
    kmx_model *model = train("method=svm C=8", kernel, data);
    ASSERT_NE(model, nullptr);
    double classes[2];
    ASSERT_EQ(kmx_model_classes(classes, 2, model), KMX_OK);
    EXPECT_EQ(classes[0], -1);
    EXPECT_EQ(classes[1], 1);
    const std::vector<double> values = decision_values(model, data, rows.n());
    std::vector<double> predicted(static_cast<size_t>(rows.n()));
    ASSERT_EQ(kmx_model_predict(predicted.data(), rows.n(), nullptr, model, data), KMX_OK);
    for (size_t i = 0; i < predicted.size(); ++i) EXPECT_EQ(predicted[i], values[i] > 0 ? 1.0 : -1.0);
    double bias = 0;
    ASSERT_EQ(kmx_model_info(&bias, model, KMX_INFO_BIAS), KMX_OK);
    EXPECT_EQ(bias, 1);
    kmx_model_free(model);
    kmx_kernel_free(kernel);
    kmx_dataset_free(data);
}

}  // namespace

namespace {

using namespace model_test;

TEST(Multiclass, SampleWeightsMultiplyC) {
    const Rows rows = load_rows("letter_mc.train.libsvm", 3, 300);
    kmx_dataset *plain = make_dataset(rows), *weighted = make_dataset(rows);
    const std::vector<double> twos(size_t(rows.n()), 2.0);
    ASSERT_EQ(kmx_dataset_set_weights(weighted, twos.data(), rows.n()), KMX_OK);
    kmx_kernel *kernel = rbf(4);
    kmx_model *a = train("method=svm C=8", kernel, plain);
    kmx_model *b = train("method=svm C=4", kernel, weighted);
    ASSERT_NE(a, nullptr);
    ASSERT_NE(b, nullptr);
    EXPECT_EQ(decision_values(a, plain, rows.n()), decision_values(b, plain, rows.n()));
    kmx_model_free(b);
    kmx_model_free(a);
    kmx_kernel_free(kernel);
    kmx_dataset_free(weighted);
    kmx_dataset_free(plain);
}

TEST(Multiclass, ClassWeightsMultiplyCForTheirClass) {
    const Rows rows = load_rows("letter_bin.train.libsvm", 1, 300);
    kmx_dataset *data = make_dataset(rows);
    kmx_kernel *kernel = rbf(4);
    kmx_solver *both = nullptr, *plain = nullptr;
    ASSERT_EQ(kmx_solver_create_from_string(&both, "method=svm C=2"), KMX_OK);
    ASSERT_EQ(kmx_solver_set_class_weight(both, 1, 4), KMX_OK);
    ASSERT_EQ(kmx_solver_set_class_weight(both, -1, 4), KMX_OK);
    ASSERT_EQ(kmx_solver_create_from_string(&plain, "method=svm C=8"), KMX_OK);
    kmx_model *a = nullptr, *b = nullptr;
    ASSERT_EQ(kmx_solver_train(&a, nullptr, both, kernel, data), KMX_OK);
    ASSERT_EQ(kmx_solver_train(&b, nullptr, plain, kernel, data), KMX_OK);
    EXPECT_EQ(decision_values(a, data, rows.n()), decision_values(b, data, rows.n()));
    kmx_model_free(b);
    kmx_model_free(a);
    kmx_solver_free(plain);
    kmx_solver_free(both);
    kmx_kernel_free(kernel);
    kmx_dataset_free(data);
}

TEST(Multiclass, ConcurrentPredictionsWithOneModelAgree) {
    const Rows rows = load_rows("letter_mc.train.libsvm", 4, 400);
    kmx_dataset *data = make_dataset(rows);
    kmx_kernel *kernel = rbf(4);
    kmx_model *model = train("method=dcsvm_early C=4 levels=1 early_level=1", kernel, data);
    ASSERT_NE(model, nullptr);
    const std::vector<double> expected = decision_values(model, data, rows.n());
    std::vector<std::vector<double>> results(4);
    std::vector<std::thread> threads;
    for (auto &result : results)
        threads.emplace_back([&, out = &result] { *out = decision_values(model, data, rows.n()); });
    for (std::thread &t : threads) t.join();
    for (const auto &result : results) EXPECT_EQ(result, expected);
    kmx_model_free(model);
    kmx_kernel_free(kernel);
    kmx_dataset_free(data);
}

int cancel_at_half(void *, double fraction, const char *) { return fraction >= 0.5; }

TEST(Multiclass, ProgressCallbackCancelsTraining) {
    const Rows rows = load_rows("letter_mc.train.libsvm", 4, 600);
    kmx_dataset *data = make_dataset(rows);
    kmx_kernel *kernel = rbf(4);
    kmx_context *ctx = nullptr;
    ASSERT_EQ(kmx_context_create(&ctx), KMX_OK);
    ASSERT_EQ(kmx_context_set_progress_callback(ctx, cancel_at_half, nullptr), KMX_OK);
    kmx_solver *solver = nullptr;
    ASSERT_EQ(kmx_solver_create(&solver, KMX_METHOD_SVM), KMX_OK);
    kmx_model *model = nullptr;
    EXPECT_EQ(kmx_solver_train(&model, ctx, solver, kernel, data), KMX_E_CANCELLED);
    EXPECT_EQ(model, nullptr);
    kmx_solver_free(solver);
    kmx_context_free(ctx);
    kmx_kernel_free(kernel);
    kmx_dataset_free(data);
}

}  // namespace
