// test_one_class.cpp — the one-class SVM (lib/svm/one_class.*), checked
// against computations written here: LIBSVM's feasible start, the dual's
// constraints, objective and KKT conditions by direct loops over the kernel,
// ν's bounds on outliers and support vectors, the decision by the model's
// expansion, weights against duplicated rows, the model file, the compact
// predictor, and the errors (bad ν, too few rows, class weights). Agreement
// with LIBSVM itself is compare_libsvm_one_class.py's.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <random>
#include <vector>

#include "core/arena.h"
#include "core/context.h"
#include "core/dataset.h"
#include "kernel/kernel.h"
#include "kmx/kmx.h"
#include "model/model.h"
#include "model/train_options.h"
#include "svm/one_class.h"
#include "../common/kernel_spec.h"

namespace {

using kmx::Dataset;
using kmx::KernelSpec;
using test_common::rbf;

// n points of a 2-d Gaussian blob (labels 7: one-class ignores them).
std::vector<double> blob(int64_t n, uint32_t seed) {
    std::mt19937 rng(seed);
    std::normal_distribution<double> normal(0.0, 1.0);
    std::vector<double> x(size_t(2 * n));
    for (double &v : x) v = normal(rng);
    return x;
}

std::unique_ptr<Dataset> blob_data(int64_t n, uint32_t seed) {
    const std::vector<double> x = blob(n, seed);
    const std::vector<double> y(size_t(n), 7.0);
    return Dataset::dense_copy(x.data(), n, 2, y.data());
}

kmx::TrainOptions one_class_options(double nu, double eps = 1e-3) {
    kmx::TrainOptions options;
    options.method = KMX_METHOD_ONE_CLASS;
    options.nu = nu;
    options.eps = eps;
    return options;
}

// (Kα)_i over the training rows, by kernel_eval.
std::vector<double> k_alpha(const Dataset &data, const KernelSpec &kernel, const kmx::Model &model) {
    const int64_t n = data.n, d = data.d;
    std::vector<double> x(size_t(n * d)), out(size_t(n), 0.0);
    data.copy_rows(0, n, x.data());
    const kmx::BinaryMachine &m = model.machines[0];
    for (int64_t i = 0; i < n; ++i)
        for (size_t j = 0; j < m.coef.size(); ++j)
            out[size_t(i)] +=
                m.coef[j] * kmx::kernel_eval(kernel, &model.points[size_t(m.sv[j] * d)], &x[size_t(i * d)], d);
    return out;
}

TEST(OneClassDual, StartsWhereLibsvmStarts) {
    const auto data = blob_data(10, 1);
    for (const auto &[nu, expected] :
         std::vector<std::pair<double, std::vector<double>>>{{0.25, {1, 1, 0.5, 0, 0, 0, 0, 0, 0, 0}},
                                                             {0.3, {1, 1, 1, 0, 0, 0, 0, 0, 0, 0}},
                                                             {1.0, {1, 1, 1, 1, 1, 1, 1, 1, 1, 1}},
                                                             {0.05, {0.5, 0, 0, 0, 0, 0, 0, 0, 0, 0}}}) {
        kmx::Arena arena(kmx::one_class_dual_bytes(10));
        const kmx::OneClassDual dual = kmx::carve_one_class_dual(arena, *data, nu);
        ASSERT_EQ(dual.rows_used, 10);
        for (int64_t t = 0; t < 10; ++t) {
            EXPECT_DOUBLE_EQ(dual.alpha[t], expected[size_t(t)]) << "nu " << nu << " t " << t;
            EXPECT_EQ(dual.y[t], 1.0);
            EXPECT_EQ(dual.upper[t], 1.0);
            EXPECT_EQ(dual.linear[t], 0.0);
        }
    }
}

// The solution is feasible (0 ≤ α ≤ 1, Σα = νn), its objective is ½αᵀKα,
// and the KKT conditions hold to eps: (Kα)_i = ρ where 0 < α_i < 1, ≥ ρ at
// α_i = 0, ≤ ρ at α_i = 1. ν bounds outliers (≤ νn) and SVs (≥ νn).
TEST(OneClassModel, SolvesTheDualToItsKktConditions) {
    const int64_t n = 300;
    const auto data = blob_data(n, 2);
    const KernelSpec kernel = rbf(0.5);
    const double eps = 1e-6;
    for (const double nu : {0.05, 0.2, 0.5, 0.9}) {
        kmx::Context ctx;
        ctx.threads = 1;
        const kmx::Model model = kmx::train_one_class_model(ctx, one_class_options(nu, eps), kernel, *data);
        ASSERT_TRUE(model.one_class());
        ASSERT_EQ(model.classes, (std::vector<double>{-1, 1}));
        ASSERT_EQ(model.machines.size(), 1u);
        EXPECT_EQ(model.nu, nu);
        EXPECT_EQ(model.C, 0.0);
        const kmx::BinaryMachine &m = model.machines[0];
        EXPECT_EQ(m.positive, 1);
        EXPECT_EQ(m.negative, 0);
        const double rho = -m.bias;
        double sum = 0;
        for (double a : m.coef) {
            EXPECT_GT(a, 0.0);
            EXPECT_LE(a, 1.0);
            sum += a;
        }
        EXPECT_NEAR(sum, nu * double(n), 1e-9 * double(n));
        // α per training row (rows that are not SVs have α = 0); the SVs are rows in order.
        std::vector<double> x(size_t(n * 2));
        data->copy_rows(0, n, x.data());
        std::vector<double> alpha(size_t(n), 0.0);
        size_t next = 0;
        for (int64_t i = 0; i < n && next < m.coef.size(); ++i)
            if (x[size_t(2 * i)] == model.points[2 * next] && x[size_t(2 * i + 1)] == model.points[2 * next + 1])
                alpha[size_t(i)] = m.coef[next++];
        ASSERT_EQ(next, m.coef.size());
        const std::vector<double> ka = k_alpha(*data, kernel, model);
        double objective = 0;
        int64_t outliers = 0;
        for (int64_t i = 0; i < n; ++i) {
            objective += 0.5 * alpha[size_t(i)] * ka[size_t(i)];
            const double g = ka[size_t(i)];
            if (alpha[size_t(i)] > 0 && alpha[size_t(i)] < 1) {
                EXPECT_NEAR(g, rho, 2 * eps) << i;
            }
            if (alpha[size_t(i)] == 0) {
                EXPECT_GE(g, rho - 2 * eps) << i;
            }
            if (alpha[size_t(i)] == 1) {
                EXPECT_LE(g, rho + 2 * eps) << i;
            }
            outliers += g - rho < -2 * eps;  // strictly outside (free SVs sit on f = 0 to eps)
        }
        // The solver's gradient comes from its kernel cache of floats (relative rounding 6e-8).
        EXPECT_NEAR(model.stats.objective, objective, 1e-6 * std::fabs(objective));
        EXPECT_LE(double(outliers), nu * double(n) + 1) << nu;
        EXPECT_GE(double(model.support_vectors), nu * double(n) - 1e-9) << nu;
        EXPECT_LE(model.stats.kkt_violation, eps);
    }
}

// Through the C API, on data without labels: decision values are
// Σ α_i K(x_i, x) − ρ, labels +1 where it is > 0, else −1.
TEST(OneClassModel, PredictsTheSignOfItsExpansionWithoutLabels) {
    const std::vector<double> x = blob(200, 3), t = blob(100, 4);
    kmx_dataset *train = nullptr, *test = nullptr;
    ASSERT_EQ(kmx_dataset_create(&train, x.data(), 200, 2, nullptr, KMX_COPY), KMX_OK) << kmx_last_error();
    ASSERT_EQ(kmx_dataset_create(&test, t.data(), 100, 2, nullptr, KMX_COPY), KMX_OK);
    kmx_solver *solver = nullptr;
    kmx_kernel *kernel = nullptr;
    ASSERT_EQ(kmx_solver_create_from_string(&solver, "method=one_class nu=0.1"), KMX_OK) << kmx_last_error();
    ASSERT_EQ(kmx_kernel_create_from_string(&kernel, "kernel=rbf gamma=0.5"), KMX_OK);
    kmx_model *model = nullptr;
    ASSERT_EQ(kmx_solver_train(&model, nullptr, solver, kernel, train), KMX_OK) << kmx_last_error();
    double value = 0;
    ASSERT_EQ(kmx_model_info(&value, model, KMX_INFO_METHOD), KMX_OK);
    EXPECT_EQ(value, KMX_METHOD_ONE_CLASS);
    ASSERT_EQ(kmx_model_info(&value, model, KMX_INFO_NU), KMX_OK);
    EXPECT_EQ(value, 0.1);
    ASSERT_EQ(kmx_model_info(&value, model, KMX_INFO_C), KMX_OK);
    EXPECT_EQ(value, 0.0);
    ASSERT_EQ(kmx_model_info(&value, model, KMX_INFO_CLASSES), KMX_OK);
    EXPECT_EQ(value, 2.0);
    std::vector<double> decision(100), labels(100);
    ASSERT_EQ(kmx_model_decision_values(decision.data(), 100, nullptr, model, test), KMX_OK);
    ASSERT_EQ(kmx_model_predict(labels.data(), 100, nullptr, model, test), KMX_OK);
    // The expansion, from the saved model's points and coefficients.
    int64_t size = 0;
    kmx_model_save_to_buffer(nullptr, 0, &size, model);
    std::vector<unsigned char> bytes(static_cast<size_t>(size));
    ASSERT_EQ(kmx_model_save_to_buffer(bytes.data(), size, &size, model), KMX_OK);
    kmx_model *loaded = nullptr;
    ASSERT_EQ(kmx_model_load_from_buffer(&loaded, bytes.data(), size), KMX_OK) << kmx_last_error();
    ASSERT_EQ(kmx_model_info(&value, loaded, KMX_INFO_NU), KMX_OK);
    EXPECT_EQ(value, 0.1);
    ASSERT_EQ(kmx_model_info(&value, loaded, KMX_INFO_METHOD), KMX_OK);
    EXPECT_EQ(value, KMX_METHOD_ONE_CLASS);
    std::vector<double> reloaded(100);
    ASSERT_EQ(kmx_model_decision_values(reloaded.data(), 100, nullptr, loaded, test), KMX_OK);
    EXPECT_EQ(reloaded, decision);
    int64_t inliers = 0;
    for (int i = 0; i < 100; ++i) {
        EXPECT_EQ(labels[size_t(i)], decision[size_t(i)] > 0 ? 1.0 : -1.0);
        inliers += labels[size_t(i)] > 0;
    }
    EXPECT_GT(inliers, 70);  // ν = 0.1 on the training rows; fresh rows of the same blob mostly inside
    // The compact predictor keeps the support vectors: the same decision values.
    kmx_predictor *predictor = nullptr;
    ASSERT_EQ(kmx_predictor_build(&predictor, nullptr, model, train, ""), KMX_OK) << kmx_last_error();
    std::vector<double> compact(100), compact_labels(100);
    ASSERT_EQ(kmx_predictor_decision_values(compact.data(), 100, nullptr, predictor, test), KMX_OK);
    ASSERT_EQ(kmx_predictor_predict(compact_labels.data(), 100, nullptr, predictor, test), KMX_OK);
    for (int i = 0; i < 100; ++i) {
        EXPECT_NEAR(compact[size_t(i)], decision[size_t(i)], 1e-12 * (1 + std::fabs(decision[size_t(i)])));
        EXPECT_EQ(compact_labels[size_t(i)], labels[size_t(i)]);
    }
    kmx_predictor *refused = nullptr;
    EXPECT_EQ(kmx_predictor_build(&refused, nullptr, model, train, "leaves=4"), KMX_E_INVALID_ARGUMENT);
    EXPECT_NE(std::string(kmx_last_error()).find("one-class"), std::string::npos) << kmx_last_error();
    kmx_predictor_free(predictor);
    kmx_model_free(loaded);
    kmx_model_free(model);
    kmx_kernel_free(kernel);
    kmx_solver_free(solver);
    kmx_dataset_free(test);
    kmx_dataset_free(train);
}

// A weight of 2 on a row is that row twice: the same problem (the two copies'
// α's add up), so the same objective and decision values; weight 0 drops a row.
TEST(OneClassModel, AWeightIsARowRepeated) {
    const std::vector<double> x = blob(60, 5), t = blob(40, 6);
    std::vector<double> doubled(x);
    doubled.insert(doubled.end(), x.begin(), x.begin() + 20);  // rows 0-9 twice
    std::vector<double> weights(60, 1.0), padded_weights(61, 1.0);
    for (int i = 0; i < 10; ++i) weights[size_t(i)] = 2;
    padded_weights[60] = 0;  // and one row that takes no part
    std::vector<double> padded(doubled.begin(), doubled.begin() + 120);
    padded.push_back(50);
    padded.push_back(50);
    for (int i = 0; i < 10; ++i) padded_weights[size_t(i)] = 2;
    auto weighted = Dataset::dense_copy(padded.data(), 61, 2, nullptr);
    weighted->set_weights(padded_weights.data());
    auto repeated = Dataset::dense_copy(doubled.data(), 70, 2, nullptr);
    auto test = Dataset::dense_copy(t.data(), 40, 2, nullptr);
    const KernelSpec kernel = rbf(0.7);
    kmx::Context ctx;
    ctx.threads = 1;
    // ν Σw = 0.3 × 70 on both.
    const kmx::Model a = kmx::train_one_class_model(ctx, one_class_options(0.3, 1e-9), kernel, *weighted);
    const kmx::Model b = kmx::train_one_class_model(ctx, one_class_options(0.3, 1e-9), kernel, *repeated);
    EXPECT_NEAR(a.stats.objective, b.stats.objective, 1e-7 * std::fabs(b.stats.objective));
    EXPECT_NEAR(a.machines[0].bias, b.machines[0].bias, 1e-6);
    for (double coef : a.machines[0].coef) EXPECT_LE(coef, 2.0);
    std::vector<double> fa(40), fb(40);
    kmx::model_decision_values(ctx, a, *test, fa.data());
    kmx::model_decision_values(ctx, b, *test, fb.data());
    for (int i = 0; i < 40; ++i) EXPECT_NEAR(fa[size_t(i)], fb[size_t(i)], 1e-6) << i;
}

TEST(OneClassErrors, BadNuTooFewRowsAndClassWeightsAreRefused) {
    kmx_solver *solver = nullptr;
    ASSERT_EQ(kmx_solver_create(&solver, KMX_METHOD_ONE_CLASS), KMX_OK);
    double nu = 0;
    ASSERT_EQ(kmx_solver_get_param(&nu, solver, KMX_PARAM_NU), KMX_OK);
    EXPECT_EQ(nu, 0.5);  // LIBSVM's default
    for (const double bad : {0.0, -0.1, 1.0000001, 2.0, double(NAN), double(INFINITY)}) {
        EXPECT_EQ(kmx_solver_set_param(solver, KMX_PARAM_NU, bad), KMX_E_INVALID_ARGUMENT) << bad;
        EXPECT_NE(std::string(kmx_last_error()).find("nu"), std::string::npos) << kmx_last_error();
    }
    EXPECT_EQ(kmx_solver_set_param(solver, KMX_PARAM_NU, 1.0), KMX_OK);
    kmx_kernel *kernel = nullptr;
    ASSERT_EQ(kmx_kernel_create(&kernel, KMX_KERNEL_RBF), KMX_OK);
    const double one_row[] = {1.0, 2.0};
    kmx_dataset *one = nullptr;
    ASSERT_EQ(kmx_dataset_create(&one, one_row, 1, 2, nullptr, KMX_COPY), KMX_OK);
    kmx_model *model = nullptr;
    EXPECT_EQ(kmx_solver_train(&model, nullptr, solver, kernel, one), KMX_E_INVALID_ARGUMENT);
    EXPECT_NE(std::string(kmx_last_error())
                  .find("one_class needs at least 2 training rows (of positive weight); the data has 1"),
              std::string::npos)
        << kmx_last_error();
    EXPECT_EQ(model, nullptr);
    const double two_rows[] = {1.0, 2.0, 3.0, 4.0}, weights[] = {1.0, 0.0};
    kmx_dataset *two = nullptr;
    ASSERT_EQ(kmx_dataset_create(&two, two_rows, 2, 2, nullptr, KMX_COPY), KMX_OK);
    ASSERT_EQ(kmx_dataset_set_weights(two, weights, 2), KMX_OK);
    EXPECT_EQ(kmx_solver_train(&model, nullptr, solver, kernel, two), KMX_E_INVALID_ARGUMENT);
    EXPECT_NE(std::string(kmx_last_error()).find("the data has 1"), std::string::npos) << kmx_last_error();
    // No rows at all (a dataset cannot be empty through the C API; the trainer says so too).
    const auto empty = Dataset::dense_copy(two_rows, 0, 2, nullptr);
    kmx::Context ctx;
    try {
        kmx::train_one_class_model(ctx, one_class_options(0.5), rbf(1), *empty);
        ADD_FAILURE() << "trained on no rows";
    } catch (const kmx::Error &e) {
        EXPECT_EQ(e.status(), KMX_E_INVALID_ARGUMENT);
        EXPECT_NE(std::string(e.what()).find("the data has 0"), std::string::npos) << e.what();
    }
    try {
        kmx::train_one_class_model(ctx, one_class_options(1.5), rbf(1), *blob_data(10, 1));
        ADD_FAILURE() << "trained with nu 1.5";
    } catch (const kmx::Error &e) {
        EXPECT_NE(std::string(e.what()).find("parameter nu = 1.5 must be in (0, 1]"), std::string::npos) << e.what();
    }
    ASSERT_EQ(kmx_dataset_set_weights(two, two_rows, 2), KMX_OK);
    ASSERT_EQ(kmx_solver_set_class_weight(solver, 1, 2), KMX_OK);
    EXPECT_EQ(kmx_solver_train(&model, nullptr, solver, kernel, two), KMX_E_INVALID_ARGUMENT);
    EXPECT_NE(std::string(kmx_last_error()).find("class weights do not apply"), std::string::npos) << kmx_last_error();
    kmx_dataset_free(two);
    kmx_dataset_free(one);
    kmx_kernel_free(kernel);
    kmx_solver_free(solver);
}

TEST(OneClassErrors, ParameterTableKnowsOneClass) {
    int used = -1;
    ASSERT_EQ(kmx_param_used_by(&used, KMX_PARAM_NU, KMX_METHOD_ONE_CLASS), KMX_OK);
    EXPECT_EQ(used, 1);
    for (int m = KMX_METHOD_SVM; m < KMX_METHOD_ONE_CLASS; ++m) {
        ASSERT_EQ(kmx_param_used_by(&used, KMX_PARAM_NU, kmx_method(m)), KMX_OK);
        EXPECT_EQ(used, 0) << m;
    }
    for (const kmx_param p : {KMX_PARAM_EPS, KMX_PARAM_SHRINKING, KMX_PARAM_CACHE_SIZE}) {
        ASSERT_EQ(kmx_param_used_by(&used, p, KMX_METHOD_ONE_CLASS), KMX_OK);
        EXPECT_EQ(used, 1) << kmx_param_name(p);
    }
    for (const kmx_param p : {KMX_PARAM_C, KMX_PARAM_BIAS, KMX_PARAM_MULTICLASS, KMX_PARAM_LEVELS,
                              KMX_PARAM_EPSILON_SVR, KMX_PARAM_LAMBDA, KMX_PARAM_TASK}) {
        ASSERT_EQ(kmx_param_used_by(&used, p, KMX_METHOD_ONE_CLASS), KMX_OK);
        EXPECT_EQ(used, 0) << kmx_param_name(p);
    }
    EXPECT_STREQ(kmx_param_name(KMX_PARAM_NU), "nu");
    EXPECT_STREQ(kmx_param_value_name(KMX_PARAM_METHOD, KMX_METHOD_ONE_CLASS), "one_class");
    EXPECT_EQ(kmx_param_check(KMX_PARAM_NU, 1.0), KMX_OK);
    EXPECT_EQ(kmx_param_check(KMX_PARAM_NU, 0.0), KMX_E_INVALID_ARGUMENT);
}

}  // namespace
