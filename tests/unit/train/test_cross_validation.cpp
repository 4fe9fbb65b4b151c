// cross_validate: the folds (stratified by label for classifiers, near-equal
// sizes, seeded), and each row's prediction equal to that of a model trained
// directly on the other folds' rows — with the folds run one after another
// and two at once.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "core/context.h"
#include "core/dataset.h"
#include "core/error.h"
#include "core/rng.h"
#include "model/model.h"
#include "train/cross_validation.h"
#include "svm/kernel_row_store.h"
#include "svm/multiclass.h"
#include "train/train.h"

namespace {

// Three Gaussian blobs in 2 dimensions with labels 1, 2, 3 of 30, 20 and 10
// rows (the label also shifts a regression target when `regression`).
std::unique_ptr<kmx::Dataset> blobs(bool regression) {
    std::mt19937 rng(5);
    std::normal_distribution<double> noise(0.0, 0.7);
    std::vector<double> x, y;
    const int sizes[3] = {30, 20, 10};
    for (int c = 0; c < 3; ++c)
        for (int i = 0; i < sizes[c]; ++i) {
            x.push_back(2.0 * c + noise(rng));
            x.push_back(-1.0 * c + noise(rng));
            y.push_back(regression ? c + 0.1 * x[x.size() - 2] : c + 1.0);
        }
    return kmx::Dataset::dense_copy(x.data(), int64_t(y.size()), 2, y.data());
}

kmx::KernelSpec rbf() {
    kmx::KernelSpec kernel;
    kernel.gamma = 0.5;
    return kernel;
}

TEST(CrossValidationFolds, StratifiedFoldsSpreadEachClassEvenly) {
    const auto data = blobs(false);
    const std::vector<int> fold_of = kmx::cross_validation_folds(data->y, data->n, 4, true, 7);
    std::map<double, std::vector<int>> per_class;  // label -> rows in each fold
    for (int64_t i = 0; i < data->n; ++i) {
        auto &counts = per_class[data->y[i]];
        counts.resize(4);
        ++counts[size_t(fold_of[size_t(i)])];
    }
    // 30 -> 7/8 per fold, 20 -> 5, 10 -> 2/3.
    for (const auto &[label, counts] : per_class) {
        const auto [low, high] = std::minmax_element(counts.begin(), counts.end());
        EXPECT_LE(*high - *low, 1) << "label " << label;
    }
}

TEST(CrossValidationFolds, SeededAndShuffled) {
    const auto data = blobs(false);
    const auto a = kmx::cross_validation_folds(data->y, data->n, 5, false, 1);
    EXPECT_EQ(a, kmx::cross_validation_folds(data->y, data->n, 5, false, 1));
    EXPECT_NE(a, kmx::cross_validation_folds(data->y, data->n, 5, false, 2));
    std::vector<int> sizes(5);
    for (int f : a) ++sizes[size_t(f)];
    EXPECT_EQ(sizes, std::vector<int>(5, 12));
    // Not the rows in order: the first 12 rows are not all fold 0.
    EXPECT_NE(std::set<int>(a.begin(), a.begin() + 12).size(), 1u);
}

// The reference: each fold's model trained by train() on the other folds'
// rows (in increasing order) with one thread, predicting the fold's rows.
std::vector<double> reference(const kmx::TrainOptions &options, const kmx::Dataset &data, int folds, uint64_t seed) {
    const std::vector<int> fold_of =
        kmx::cross_validation_folds(data.y, data.n, folds, kmx::stratified_folds_for(options, data), seed);
    std::vector<double> out(static_cast<size_t>(data.n));
    for (int f = 0; f < folds; ++f) {
        std::vector<double> x_train, y_train, x_test;
        std::vector<int64_t> test_rows;
        for (int64_t i = 0; i < data.n; ++i) {
            const bool held_out = fold_of[size_t(i)] == f;
            (held_out ? x_test : x_train)
                .insert((held_out ? x_test : x_train).end(), data.x + i * data.d, data.x + (i + 1) * data.d);
            if (held_out) test_rows.push_back(i);
            if (!held_out) y_train.push_back(data.y[i]);
        }
        kmx::Context ctx;
        const auto training = kmx::Dataset::dense_copy(x_train.data(), int64_t(y_train.size()), data.d, y_train.data());
        const auto test = kmx::Dataset::dense_copy(x_test.data(), int64_t(test_rows.size()), data.d, nullptr);
        const kmx::Model model = kmx::train(ctx, options, rbf(), *training);
        std::vector<double> predicted(test_rows.size());
        kmx::model_predict(ctx, model, *test, predicted.data());
        for (size_t i = 0; i < test_rows.size(); ++i) out[size_t(test_rows[i])] = predicted[i];
    }
    return out;
}

void expect_reference(kmx_method method, bool regression, int threads) {
    const auto data = blobs(regression);
    kmx::TrainOptions options;
    options.method = method;
    options.C = 4;
    kmx::Context ctx;
    ctx.threads = threads;  // two threads: two folds at once, one thread each
    ctx.seed = 11;
    std::vector<double> out(static_cast<size_t>(data->n));
    const kmx_task task = kmx::cross_validate(ctx, options, rbf(), *data, 4, out.data());
    EXPECT_EQ(task, regression ? KMX_TASK_REGRESSION : KMX_TASK_CLASSIFICATION);
    EXPECT_EQ(out, reference(options, *data, 4, 11));
    EXPECT_EQ(ctx.held_bytes(), 0u);  // the folds' copies are gone
}

TEST(CrossValidate, EachRowPredictedByTheModelOfTheOtherFolds) { expect_reference(KMX_METHOD_SVM, false, 1); }
TEST(CrossValidate, TwoFoldsAtOnceGiveTheSamePredictions) { expect_reference(KMX_METHOD_DCSVM, false, 2); }
TEST(CrossValidate, RegressionFoldsAreARandomSplit) { expect_reference(KMX_METHOD_SVR, true, 2); }
TEST(CrossValidate, KrrClassifiesOnStratifiedFolds) { expect_reference(KMX_METHOD_KRR, false, 1); }

kmx_status status_of(const kmx::Dataset &data, int folds, size_t budget, std::string &message) {
    kmx::TrainOptions options;
    options.method = KMX_METHOD_SVM;
    kmx::Context ctx;
    ctx.memory_budget = budget;
    std::vector<double> out(static_cast<size_t>(data.n));
    try {
        kmx::cross_validate(ctx, options, rbf(), data, folds, out.data());
    } catch (const kmx::Error &e) {
        message = e.what();
        return e.status();
    }
    return KMX_OK;
}

TEST(CrossValidate, ImpossibleRequestsAreRefused) {
    const auto data = blobs(false);
    std::string message;
    EXPECT_EQ(status_of(*data, 1, kmx::kUnlimitedBudget, message), KMX_E_INVALID_ARGUMENT);
    EXPECT_NE(message.find("at least 2 folds"), std::string::npos) << message;
    EXPECT_EQ(status_of(*data, 61, kmx::kUnlimitedBudget, message), KMX_E_INVALID_ARGUMENT);
    EXPECT_NE(message.find("61 folds need at least 61 rows; the data has 60"), std::string::npos) << message;
    const auto unlabelled = kmx::Dataset::dense_copy(data->x, data->n, data->d, nullptr);
    EXPECT_EQ(status_of(*unlabelled, 5, kmx::kUnlimitedBudget, message), KMX_E_INVALID_ARGUMENT);
    EXPECT_NE(message.find("needs labels"), std::string::npos) << message;
    EXPECT_EQ(status_of(*data, 5, 1000, message), KMX_E_OUT_OF_MEMORY);
    EXPECT_NE(message.find("fold 1 of 5"), std::string::npos) << message;
}

TEST(CrossValidate, AFoldThatCannotTrainIsNamed) {
    // Label 2 on one row only: the fold holding it trains on label 1 alone.
    std::vector<double> x(20), y(20, 1.0);
    for (size_t i = 0; i < x.size(); ++i) x[i] = double(i);
    y[7] = 2;
    const auto data = kmx::Dataset::dense_copy(x.data(), 20, 1, y.data());
    std::string message;
    EXPECT_EQ(status_of(*data, 2, kmx::kUnlimitedBudget, message), KMX_E_INVALID_ARGUMENT);
    EXPECT_NE(message.find(" of 2: "), std::string::npos) << message;
}

// A path along C: the first C from a cold start, the next from its solution.
TEST(WarmStart, AlongCTheSameModelInFewerIterations) {
    const auto data = blobs(false);
    kmx::TrainOptions options;
    options.method = KMX_METHOD_SVM;
    options.eps = 1e-6;
    kmx::Context ctx;
    kmx::SvmWarmStart warm;
    options.C = 1;
    kmx::train(ctx, options, rbf(), *data, &warm);
    ASSERT_EQ(warm.alpha.size(), 3u);  // one-vs-one over 3 classes
    options.C = 4;
    const kmx::Model warm_model = kmx::train(ctx, options, rbf(), *data, &warm);
    const kmx::Model cold_model = kmx::train(ctx, options, rbf(), *data);
    EXPECT_NEAR(warm_model.stats.objective, cold_model.stats.objective, 1e-6 * std::abs(cold_model.stats.objective));
    EXPECT_LT(warm_model.stats.iterations, cold_model.stats.iterations);
    for (size_t m = 0; m < warm_model.machines.size(); ++m)
        EXPECT_NEAR(warm_model.machines[m].bias, cold_model.machines[m].bias, 1e-4);
    std::vector<double> a(static_cast<size_t>(data->n)), b(static_cast<size_t>(data->n));
    kmx::model_predict(ctx, warm_model, *data, a.data());
    kmx::model_predict(ctx, cold_model, *data, b.data());
    EXPECT_EQ(a, b);
    // The same warm start under dcsvm: the exact solution by the dual solver from the start.
    options.method = KMX_METHOD_DCSVM;
    options.C = 16;
    const kmx::Model dcsvm_warm = kmx::train(ctx, options, rbf(), *data, &warm);
    const kmx::Model dcsvm_cold = kmx::train(ctx, options, rbf(), *data);
    EXPECT_NEAR(dcsvm_warm.stats.objective, dcsvm_cold.stats.objective, 1e-5 * std::abs(dcsvm_cold.stats.objective));
}

// Along C the kernel rows are shared: each row computed at most once over
// every C and every pair of classes, and the models those of cold starts.
TEST(WarmStart, AlongCEachKernelRowIsComputedOnce) {
    for (bool binary : {true, false}) {
        auto data = blobs(false);
        std::vector<double> y(data->y, data->y + data->n);
        if (binary)
            for (double &label : y) label = label == 1 ? 1 : -1;
        const auto labelled = kmx::Dataset::dense_copy(data->x, data->n, data->d, y.data());
        kmx::TrainOptions options;
        options.method = KMX_METHOD_SVM;
        options.eps = 1e-6;
        kmx::Context ctx;
        kmx::SvmWarmStart warm;
        for (double C : {0.5, 4.0, 32.0}) {
            options.C = C;
            const kmx::Model warm_model = kmx::train(ctx, options, rbf(), *labelled, &warm);
            const kmx::Model cold_model = kmx::train(ctx, options, rbf(), *labelled);
            EXPECT_NEAR(warm_model.stats.objective, cold_model.stats.objective,
                        1e-6 * std::abs(cold_model.stats.objective));
            ASSERT_TRUE(warm.shared_rows);
            EXPECT_TRUE(warm.shared_rows->whole());
            EXPECT_GT(warm.shared_rows->computed_rows(), 0);
            EXPECT_LE(warm.shared_rows->computed_rows(), labelled->n) << "C " << C;
        }
        const int64_t computed = warm.shared_rows->computed_rows();
        options.C = 32.0;  // the same C again: nothing new to compute
        kmx::train(ctx, options, rbf(), *labelled, &warm);
        EXPECT_EQ(warm.shared_rows->computed_rows(), computed);
    }
}

// dcsvm along C where DC-SVM divides (a small cache), its subproblems solved
// on two threads at once: they compute their own columns (a KernelRowStore
// serves one thread at a time), the global solve shares the stored rows.
TEST(WarmStart, DcsvmDividingOnTwoThreadsAlongC) {
    std::vector<double> x, y;
    kmx::Rng rng(3);
    for (int i = 0; i < 600; ++i) {
        const double a = 4 * rng.uniform() - 2, b = 4 * rng.uniform() - 2;
        x.push_back(a);
        x.push_back(b);
        y.push_back(a * a + b * b + 0.3 * (rng.uniform() - 0.5) < 2 ? 1 : -1);
    }
    const auto data = kmx::Dataset::dense_copy(x.data(), 600, 2, y.data());
    kmx::TrainOptions options;
    options.method = KMX_METHOD_DCSVM;
    options.eps = 1e-6;
    options.sample_size = 50;
    options.cache_bytes = 64 << 10;  // Q (1.4 MB) and the support vectors' columns do not fit: DC-SVM divides
    kmx::Context ctx;
    ctx.threads = 2;
    kmx::SvmWarmStart warm;
    for (double C : {1.0, 8.0}) {
        options.C = C;
        const kmx::Model path_model = kmx::train(ctx, options, rbf(), *data, &warm);
        const kmx::Model cold_model = kmx::train(ctx, options, rbf(), *data);
        EXPECT_NEAR(path_model.stats.objective, cold_model.stats.objective, 1e-5 * std::abs(cold_model.stats.objective))
            << "C " << C;
        ASSERT_TRUE(warm.shared_rows);
        EXPECT_LE(warm.shared_rows->computed_rows(), data->n);
    }
}

TEST(CrossValidatePath, EachValueAsCrossValidatingItAlone) {
    for (kmx_method method : {KMX_METHOD_SVM, KMX_METHOD_KRR}) {
        const auto data = blobs(false);
        kmx::TrainOptions options;
        options.method = method;
        options.eps = 1e-6;
        const kmx_param param = method == KMX_METHOD_SVM ? KMX_PARAM_C : KMX_PARAM_LAMBDA;
        const kmx::ValuePath path{param, {8.0, 0.5, 2.0}};  // trained in increasing order, reported as given
        kmx::Context ctx;
        ctx.threads = 2;
        std::vector<double> out(3 * static_cast<size_t>(data->n));
        kmx::cross_validate_path(ctx, options, rbf(), *data, 4, path, out.data());
        for (size_t v = 0; v < 3; ++v) {
            (param == KMX_PARAM_C ? options.C : options.lambda) = path.values[v];
            std::vector<double> alone(static_cast<size_t>(data->n));
            kmx::cross_validate(ctx, options, rbf(), *data, 4, alone.data());
            // KRR has no warm start: equal. The SVM's warm start reaches the same optimum to eps.
            EXPECT_EQ(std::vector<double>(out.begin() + int64_t(v) * data->n, out.begin() + int64_t(v + 1) * data->n),
                      alone)
                << "method " << method << ", value " << path.values[v];
        }
    }
}

// Along lambda the KRR methods keep what does not depend on it per fold
// (krr/krr_path_cache.h): six values on 45 rows take exact KRR's tridiagonal form,
// Nyström and MEKA one approximation, FALKON one set of centers, T and K_nM.
// Each value's predictions equal cross-validating it alone: to rounding for
// exact KRR (another factorization), to FALKON's CG tolerance (the same CG).
TEST(CrossValidatePath, KrrMethodsAlongLambdaAsEachLambdaAlone) {
    const auto data = blobs(true);
    const kmx::ValuePath path{KMX_PARAM_LAMBDA, {1e-2, 1e-5, 1e-3, 1e-1, 1e-4, 1.0}};
    const std::pair<kmx_method, double> methods[] = {
        {KMX_METHOD_KRR, 1e-8}, {KMX_METHOD_NYSTROM_KRR, 1e-8}, {KMX_METHOD_MEKA_KRR, 1e-8}, {KMX_METHOD_FALKON, 1e-6}};
    for (const auto &[method, tolerance] : methods) {
        kmx::TrainOptions options;
        options.method = method;
        options.centers = 20;
        options.clusters = 2;
        options.rank = 6;
        kmx::Context ctx;
        ctx.threads = 2;
        std::vector<double> out(path.values.size() * static_cast<size_t>(data->n));
        kmx::cross_validate_path(ctx, options, rbf(), *data, 4, path, out.data());
        for (size_t v = 0; v < path.values.size(); ++v) {
            options.lambda = path.values[v];
            std::vector<double> alone(static_cast<size_t>(data->n));
            kmx::cross_validate(ctx, options, rbf(), *data, 4, alone.data());
            for (int64_t i = 0; i < data->n; ++i)
                ASSERT_NEAR(out[size_t(int64_t(v) * data->n + i)], alone[size_t(i)], tolerance * 3)
                    << "method " << method << ", lambda " << path.values[v] << ", row " << i;
        }
        EXPECT_EQ(ctx.held_bytes(), 0u);  // nothing kept after the path
    }
}

TEST(CrossValidatePath, ValuesMustBeCOrLambdaAndPositive) {
    const auto data = blobs(false);
    kmx::TrainOptions options;
    kmx::Context ctx;
    std::vector<double> out(static_cast<size_t>(data->n));
    for (const kmx::ValuePath &path :
         {kmx::ValuePath{KMX_PARAM_EPS, {0.1}}, kmx::ValuePath{KMX_PARAM_C, {}}, kmx::ValuePath{KMX_PARAM_C, {-1.0}},
          kmx::ValuePath{KMX_PARAM_LAMBDA, {std::nan("")}}}) {
        try {
            kmx::cross_validate_path(ctx, options, rbf(), *data, 4, path, out.data());
            ADD_FAILURE() << "path over parameter " << path.param << " accepted";
        } catch (const kmx::Error &e) {
            EXPECT_EQ(e.status(), KMX_E_INVALID_ARGUMENT) << e.what();
        }
    }
}

}  // namespace
