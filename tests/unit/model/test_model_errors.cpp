// Bad input through the ABI: one class, C <= 0, test data wider or narrower than the
// model, unseen labels, a budget below the smallest workspace, bad handles.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <string>

#include "model_test_data.h"

namespace {

using namespace model_test;

bool mentions(const char *word) { return std::string(kmx_last_error()).find(word) != std::string::npos; }

TEST(ModelErrors, OneClassOnly) {
    Rows rows = load_rows("letter_bin.train.libsvm", 1, 50);
    for (double &label : rows.y) label = 1;
    kmx_dataset *data = make_dataset(rows);
    kmx_kernel *kernel = rbf(1);
    kmx_solver *solver = nullptr;
    ASSERT_EQ(kmx_solver_create(&solver, KMX_METHOD_SVM), KMX_OK);
    kmx_model *model = nullptr;
    EXPECT_EQ(kmx_solver_train(&model, nullptr, solver, kernel, data), KMX_E_INVALID_ARGUMENT);
    EXPECT_TRUE(mentions("one class")) << kmx_last_error();
    EXPECT_EQ(model, nullptr);
    kmx_solver_free(solver);
    kmx_kernel_free(kernel);
    kmx_dataset_free(data);
}

TEST(ModelErrors, NoLabels) {
    const Rows rows = load_rows("letter_bin.train.libsvm", 1, 50);
    kmx_dataset *data = nullptr;
    ASSERT_EQ(kmx_dataset_create(&data, rows.x.data(), rows.n(), rows.d, nullptr, KMX_COPY), KMX_OK);
    kmx_kernel *kernel = rbf(1);
    kmx_solver *solver = nullptr;
    ASSERT_EQ(kmx_solver_create(&solver, KMX_METHOD_SVM), KMX_OK);
    kmx_model *model = nullptr;
    EXPECT_EQ(kmx_solver_train(&model, nullptr, solver, kernel, data), KMX_E_INVALID_ARGUMENT);
    EXPECT_TRUE(mentions("labels")) << kmx_last_error();
    kmx_solver_free(solver);
    kmx_kernel_free(kernel);
    kmx_dataset_free(data);
}

TEST(ModelErrors, NonPositiveCIsRejectedByName) {
    kmx_solver *solver = nullptr;
    ASSERT_EQ(kmx_solver_create(&solver, KMX_METHOD_DCSVM), KMX_OK);
    EXPECT_EQ(kmx_solver_set_param(solver, KMX_PARAM_C, 0), KMX_E_INVALID_ARGUMENT);
    EXPECT_TRUE(mentions("C")) << kmx_last_error();
    EXPECT_EQ(kmx_solver_set_param(solver, KMX_PARAM_C, -1), KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(kmx_solver_set_params(solver, "C=2 C=0"), KMX_E_INVALID_ARGUMENT);
    double c = 0;
    ASSERT_EQ(kmx_solver_get_param(&c, solver, KMX_PARAM_C), KMX_OK);
    EXPECT_EQ(c, 1);  // unchanged
    EXPECT_EQ(kmx_solver_set_param(solver, KMX_PARAM_GAMMA, 1), KMX_E_INVALID_ARGUMENT);
    EXPECT_TRUE(mentions("solver")) << kmx_last_error();
    EXPECT_EQ(kmx_solver_set_class_weight(solver, 1, 0), KMX_E_INVALID_ARGUMENT);
    kmx_solver_free(solver);
    kmx_solver *bad = nullptr;
    EXPECT_EQ(kmx_solver_create_from_string(&bad, "method=svm C=-3"), KMX_E_INVALID_ARGUMENT);
    EXPECT_TRUE(mentions("C")) << kmx_last_error();
    EXPECT_EQ(bad, nullptr);
    EXPECT_EQ(kmx_solver_create(&bad, kmx_method(KMX_METHOD_ONE_CLASS + 1)), KMX_E_INVALID_ARGUMENT);
}

TEST(ModelErrors, SolverDefaultsComeFromTheParameterTable) {
    kmx_solver *solver = nullptr;
    ASSERT_EQ(kmx_solver_create_from_string(&solver, ""), KMX_OK);
    const kmx_param params[] = {KMX_PARAM_METHOD,      KMX_PARAM_C,          KMX_PARAM_EPS,
                                KMX_PARAM_BIAS,        KMX_PARAM_LEVELS,     KMX_PARAM_CLUSTERS_PER_LEVEL,
                                KMX_PARAM_EARLY_LEVEL, KMX_PARAM_SAMPLE_SIZE};
    const double expected[] = {KMX_METHOD_DCSVM, 1, 1e-3, KMX_BIAS_AUTO, 8, 4, 0, 1000};
    for (size_t i = 0; i < sizeof params / sizeof params[0]; ++i) {
        double value = -1;
        ASSERT_EQ(kmx_solver_get_param(&value, solver, params[i]), KMX_OK);
        EXPECT_EQ(value, expected[i]) << kmx_param_name(params[i]);
    }
    ASSERT_EQ(kmx_solver_set_params(solver, "method=dcsvm-early multiclass=ovr"), KMX_OK);
    double method = 0;
    ASSERT_EQ(kmx_solver_get_param(&method, solver, KMX_PARAM_METHOD), KMX_OK);
    EXPECT_EQ(method, KMX_METHOD_DCSVM_EARLY);
    kmx_solver_free(solver);
}

struct TrainedBinary : ::testing::Test {
    Rows rows = load_rows("letter_bin.train.libsvm", 1, 300);
    kmx_dataset *data = make_dataset(rows);
    kmx_kernel *kernel = rbf(4);
    kmx_model *model = train("method=svm C=4", kernel, data);
    void TearDown() override {
        kmx_model_free(model);
        kmx_kernel_free(kernel);
        kmx_dataset_free(data);
    }
};

TEST_F(TrainedBinary, WiderTestDataIsRejectedNamingBothCounts) {
    Rows wide;
    wide.d = rows.d + 2;
    for (int64_t i = 0; i < 10; ++i) {
        wide.y.push_back(rows.y[size_t(i)]);
        wide.x.insert(wide.x.end(), rows.x.begin() + i * rows.d, rows.x.begin() + (i + 1) * rows.d);
        wide.x.insert(wide.x.end(), {0.5, 0.5});
    }
    kmx_dataset *wide_data = make_dataset(wide);
    std::vector<double> out(10);
    EXPECT_EQ(kmx_model_predict(out.data(), 10, nullptr, model, wide_data), KMX_E_INVALID_ARGUMENT);
    EXPECT_TRUE(mentions("18") && mentions("16")) << kmx_last_error();
    kmx_dataset_free(wide_data);
}

// Rows as text: LIBSVM ("y j:v ...", zeros left out) or CSV ("y,x1,...,xd").
std::string as_text(const Rows &rows, kmx_format format) {
    std::string text;
    char item[64];
    for (int64_t i = 0; i < rows.n(); ++i) {
        std::snprintf(item, sizeof item, "%.17g", rows.y[size_t(i)]);
        text += item;
        for (int64_t j = 0; j < rows.d; ++j) {
            const double v = rows.x[size_t(i * rows.d + j)];
            if (format == KMX_FORMAT_CSV)
                std::snprintf(item, sizeof item, ",%.17g", v);
            else if (v != 0)
                std::snprintf(item, sizeof item, " %lld:%.17g", (long long)j + 1, v);
            else
                continue;
            text += item;
        }
        text += "\n";
    }
    return text;
}

kmx_dataset *parsed(const Rows &rows, kmx_format format) {
    const std::string text = as_text(rows, format);
    kmx_dataset *data = nullptr;
    EXPECT_EQ(kmx_dataset_parse(&data, nullptr, text.data(), int64_t(text.size()), format, "narrow"), KMX_OK)
        << kmx_last_error();
    return data;
}

// The first 40 rows with only the first `d` columns, and the same rows with
// the other columns set to zero.
struct NarrowRows {
    Rows narrow, padded;
    NarrowRows(const Rows &rows, int64_t d) {
        narrow.d = d;
        padded.d = rows.d;
        for (int64_t i = 0; i < 40; ++i) {
            narrow.y.push_back(rows.y[size_t(i)]);
            padded.y.push_back(rows.y[size_t(i)]);
            for (int64_t j = 0; j < rows.d; ++j) {
                const double v = rows.x[size_t(i * rows.d + j)];
                if (j < d) narrow.x.push_back(v);
                padded.x.push_back(j < d ? v : 0.0);
            }
        }
    }
};

// LIBSVM's rows leave zeros out, so absent trailing columns are zeros (as in
// LIBSVM): a narrower LIBSVM file predicts as the zero-padded rows.
TEST_F(TrainedBinary, NarrowerLibsvmDataIsPaddedWithZeros) {
    const NarrowRows rows13(rows, rows.d - 3);
    kmx_dataset *narrow = parsed(rows13.narrow, KMX_FORMAT_LIBSVM), *padded = make_dataset(rows13.padded);
    int64_t d = 0;
    ASSERT_EQ(kmx_dataset_cols(&d, narrow), KMX_OK);
    ASSERT_LT(d, rows.d);
    EXPECT_EQ(decision_values(model, narrow, 40), decision_values(model, padded, 40));
    kmx_dataset_free(narrow);
    kmx_dataset_free(padded);
}

// Dense data (arrays, CSV) names every column: fewer than the model's is an
// error naming both counts, not a silent padding (a 16-column file against a
// 784-column model once predicted at 50.9%).
TEST_F(TrainedBinary, NarrowerDenseDataIsRejectedNamingBothCounts) {
    const NarrowRows rows13(rows, rows.d - 3);
    kmx_dataset *arrays = make_dataset(rows13.narrow), *csv = parsed(rows13.narrow, KMX_FORMAT_CSV);
    std::vector<double> out(40 * 1);
    for (kmx_dataset *narrow : {arrays, csv}) {
        EXPECT_EQ(kmx_model_predict(out.data(), 40, nullptr, model, narrow), KMX_E_INVALID_ARGUMENT);
        EXPECT_TRUE(mentions("13 columns") && mentions("trained on 16")) << kmx_last_error();
        EXPECT_EQ(kmx_model_decision_values(out.data(), 40, nullptr, model, narrow), KMX_E_INVALID_ARGUMENT);
        EXPECT_TRUE(mentions("LIBSVM")) << kmx_last_error();
    }
    // A dense copy of LIBSVM data keeps its format's meaning: still padded.
    kmx_dataset *libsvm = parsed(rows13.narrow, KMX_FORMAT_LIBSVM), *dense = nullptr;
    ASSERT_EQ(kmx_dataset_to_dense(&dense, nullptr, libsvm), KMX_OK);
    EXPECT_EQ(kmx_model_predict(out.data(), 40, nullptr, model, dense), KMX_OK) << kmx_last_error();
    kmx_dataset_free(dense);
    kmx_dataset_free(libsvm);
    kmx_dataset_free(csv);
    kmx_dataset_free(arrays);
}

// The same rule for a compact predictor and for a KRR model (a center expansion).
TEST_F(TrainedBinary, NarrowerDenseDataIsRejectedByPredictorsAndKrrModels) {
    const NarrowRows rows13(rows, rows.d - 3);
    kmx_dataset *dense = make_dataset(rows13.narrow), *libsvm = parsed(rows13.narrow, KMX_FORMAT_LIBSVM);
    kmx_dataset *padded = make_dataset(rows13.padded);
    std::vector<double> out(40), expected(40);
    kmx_predictor *predictor = nullptr;
    ASSERT_EQ(kmx_predictor_build(&predictor, nullptr, model, data, "leaves=2 landmarks=16"), KMX_OK)
        << kmx_last_error();
    EXPECT_EQ(kmx_predictor_predict(out.data(), 40, nullptr, predictor, dense), KMX_E_INVALID_ARGUMENT);
    EXPECT_TRUE(mentions("13 columns") && mentions("predictor was trained on 16")) << kmx_last_error();
    ASSERT_EQ(kmx_predictor_predict(out.data(), 40, nullptr, predictor, libsvm), KMX_OK) << kmx_last_error();
    ASSERT_EQ(kmx_predictor_predict(expected.data(), 40, nullptr, predictor, padded), KMX_OK);
    EXPECT_EQ(out, expected);
    kmx_predictor_free(predictor);

    kmx_model *krr = train("method=krr lambda=1e-3", kernel, data);
    ASSERT_NE(krr, nullptr);
    EXPECT_EQ(kmx_model_predict(out.data(), 40, nullptr, krr, dense), KMX_E_INVALID_ARGUMENT);
    EXPECT_TRUE(mentions("13 columns") && mentions("16")) << kmx_last_error();
    EXPECT_EQ(decision_values(krr, libsvm, 40), decision_values(krr, padded, 40));
    kmx_model_free(krr);
    kmx_dataset_free(padded);
    kmx_dataset_free(libsvm);
    kmx_dataset_free(dense);
}

TEST_F(TrainedBinary, UnseenLabelsArePredictedAndCountWrong) {
    Rows other = rows;
    for (double &label : other.y) label = 7;
    kmx_dataset *other_data = make_dataset(other);
    EXPECT_EQ(accuracy(model, other_data, other), 0.0);
    kmx_dataset_free(other_data);
}

TEST_F(TrainedBinary, ShortOutputsAndNullHandles) {
    std::vector<double> out(static_cast<size_t>(rows.n()));
    EXPECT_EQ(kmx_model_predict(out.data(), rows.n() - 1, nullptr, model, data), KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(kmx_model_predict(nullptr, rows.n(), nullptr, model, data), KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(kmx_model_predict(out.data(), rows.n(), nullptr, nullptr, data), KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(kmx_model_decision_values(out.data(), rows.n() - 1, nullptr, model, data), KMX_E_INVALID_ARGUMENT);
    double classes[1];
    EXPECT_EQ(kmx_model_classes(classes, 1, model), KMX_E_INVALID_ARGUMENT);
    double value = 0;
    EXPECT_EQ(kmx_model_info(&value, model, kmx_model_info_key(99)), KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(kmx_model_info(nullptr, model, KMX_INFO_CLASSES), KMX_E_INVALID_ARGUMENT);
    kmx_model *none = nullptr;
    EXPECT_EQ(kmx_solver_train(&none, nullptr, nullptr, kernel, data), KMX_E_INVALID_ARGUMENT);
    kmx_model_free(nullptr);
    kmx_solver_free(nullptr);
}

TEST(ModelErrors, BudgetBelowTheSmallestWorkspaceFailsBeforeWork) {
    const Rows rows = load_rows("letter_bin.train.libsvm", 1, 4000);
    kmx_dataset *data = make_dataset(rows);
    kmx_kernel *kernel = rbf(4);
    kmx_context *ctx = nullptr;
    ASSERT_EQ(kmx_context_create(&ctx), KMX_OK);
    ASSERT_EQ(kmx_context_set_param(ctx, KMX_PARAM_MEMORY_BUDGET, 65536), KMX_OK);
    for (kmx_method method : {KMX_METHOD_SVM, KMX_METHOD_DCSVM}) {
        kmx_solver *solver = nullptr;
        ASSERT_EQ(kmx_solver_create(&solver, method), KMX_OK);
        kmx_model *model = nullptr;
        const auto start = std::chrono::steady_clock::now();
        EXPECT_EQ(kmx_solver_train(&model, ctx, solver, kernel, data), KMX_E_OUT_OF_MEMORY);
        EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 0.5);
        EXPECT_TRUE(mentions("bytes")) << kmx_last_error();
        EXPECT_EQ(model, nullptr);
        kmx_solver_free(solver);
    }
    kmx_context_free(ctx);
    kmx_kernel_free(kernel);
    kmx_dataset_free(data);
}

}  // namespace
