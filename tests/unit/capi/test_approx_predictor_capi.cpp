// kmx_approx and kmx_predictor through the C ABI: results against direct
// references (a Nyström approximation with every row a landmark is G itself;
// a predictor made from a KRR model predicts what the model predicts), and
// every bad argument a status with a message, changing nothing.
#include <gtest/gtest.h>
#include <kmx/kmx.h>
#include <kmx/kmx_infer.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

namespace {

constexpr int64_t kN = 60, kD = 3;

struct Data {
    std::vector<double> x, y;
    Data() : x(size_t(kN * kD)), y(static_cast<size_t>(kN)) {
        for (int64_t i = 0; i < kN; ++i) {
            for (int64_t j = 0; j < kD; ++j) x[size_t(i * kD + j)] = std::sin(0.7 * double(i) + 1.3 * double(j));
            y[size_t(i)] = std::cos(0.5 * double(i)) + 0.1 * double(i % 3);
        }
    }
};

bool mentions(const char *word) { return std::string(kmx_last_error()).find(word) != std::string::npos; }

struct Handles : ::testing::Test {
    Data data;
    kmx_dataset *ds = nullptr;
    kmx_kernel *rbf = nullptr;
    void SetUp() override {
        ASSERT_EQ(kmx_dataset_create(&ds, data.x.data(), kN, kD, data.y.data(), KMX_COPY), KMX_OK);
        ASSERT_EQ(kmx_kernel_create_from_string(&rbf, "kernel=rbf gamma=0.8"), KMX_OK);
    }
    void TearDown() override {
        kmx_kernel_free(rbf);
        kmx_dataset_free(ds);
    }
    // G v by the kernel matrix itself.
    std::vector<double> dense_product(const std::vector<double> &v) {
        std::vector<double> g(static_cast<size_t>(kN * kN)), out(static_cast<size_t>(kN), 0.0);
        EXPECT_EQ(kmx_kernel_block(g.data(), kN * kN, nullptr, rbf, data.x.data(), kN, data.x.data(), kN, kD), KMX_OK);
        for (int64_t i = 0; i < kN; ++i)
            for (int64_t j = 0; j < kN; ++j) out[size_t(i)] += g[size_t(i * kN + j)] * v[size_t(j)];
        return out;
    }
};

TEST_F(Handles, NystromWithEveryRowALandmarkIsTheKernelMatrix) {
    kmx_approx *approx = nullptr;
    ASSERT_EQ(kmx_approx_create(&approx, nullptr, rbf, ds, "approx=nystrom centers=60"), KMX_OK) << kmx_last_error();
    int64_t rows = 0, bytes = 0, rank = 0;
    EXPECT_EQ(kmx_approx_rows(&rows, approx), KMX_OK);
    EXPECT_EQ(kmx_approx_memory_bytes(&bytes, approx), KMX_OK);
    EXPECT_EQ(kmx_approx_rank(&rank, approx), KMX_OK);
    EXPECT_EQ(rows, kN);
    EXPECT_GT(bytes, 0);
    EXPECT_LE(rank, kN);
    std::vector<double> v(static_cast<size_t>(kN)), out(static_cast<size_t>(kN));
    for (int64_t i = 0; i < kN; ++i) v[size_t(i)] = double(i % 7) - 3;
    ASSERT_EQ(kmx_approx_matvec(out.data(), kN, nullptr, approx, v.data(), kN), KMX_OK);
    const std::vector<double> expected = dense_product(v);
    for (int64_t i = 0; i < kN; ++i) EXPECT_NEAR(out[size_t(i)], expected[size_t(i)], 1e-6) << i;
    double error = 1;
    EXPECT_EQ(kmx_approx_relative_error(&error, nullptr, approx, ds, kN), KMX_OK);
    EXPECT_LT(error, 1e-6);
    // (G~ + λI) applied to the solve gives v back.
    std::vector<double> solved(static_cast<size_t>(kN));
    ASSERT_EQ(kmx_approx_solve(solved.data(), kN, nullptr, approx, 0.5, v.data(), kN), KMX_OK);
    std::vector<double> back(static_cast<size_t>(kN));
    ASSERT_EQ(kmx_approx_matvec(back.data(), kN, nullptr, approx, solved.data(), kN), KMX_OK);
    for (int64_t i = 0; i < kN; ++i) EXPECT_NEAR(back[size_t(i)] + 0.5 * solved[size_t(i)], v[size_t(i)], 1e-8) << i;
    kmx_approx_free(approx);
}

TEST_F(Handles, ApproximationBadArgumentsAreStatuses) {
    kmx_approx *approx = nullptr;
    EXPECT_EQ(kmx_approx_create(&approx, nullptr, rbf, ds, "approx=meka clusters=100"), KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(approx, nullptr);
    EXPECT_EQ(kmx_approx_create(&approx, nullptr, rbf, ds, "approx=meka threshold=-1"), KMX_E_INVALID_ARGUMENT);
    EXPECT_TRUE(mentions("threshold")) << kmx_last_error();
    EXPECT_EQ(kmx_approx_create(&approx, nullptr, rbf, ds, "C=1"), KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(kmx_approx_create(nullptr, nullptr, rbf, ds, ""), KMX_E_INVALID_ARGUMENT);
    ASSERT_EQ(kmx_approx_create(&approx, nullptr, rbf, ds, "approx=meka clusters=3 rank=4"), KMX_OK)
        << kmx_last_error();
    std::vector<double> v(static_cast<size_t>(kN), 1.0), out(static_cast<size_t>(kN));
    EXPECT_EQ(kmx_approx_matvec(out.data(), kN, nullptr, approx, v.data(), kN - 1), KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(kmx_approx_matvec(out.data(), kN - 1, nullptr, approx, v.data(), kN), KMX_E_INVALID_ARGUMENT);
    v[3] = NAN;
    EXPECT_EQ(kmx_approx_matvec(out.data(), kN, nullptr, approx, v.data(), kN), KMX_E_INVALID_ARGUMENT);
    v[3] = 1;
    EXPECT_EQ(kmx_approx_solve(out.data(), kN, nullptr, approx, 0.0, v.data(), kN), KMX_E_INVALID_ARGUMENT);
    EXPECT_TRUE(mentions("lambda")) << kmx_last_error();
    kmx_dataset *other = nullptr;
    ASSERT_EQ(kmx_dataset_create(&other, data.x.data(), kN - 1, kD, nullptr, KMX_COPY), KMX_OK);
    double error = 0;
    EXPECT_EQ(kmx_approx_relative_error(&error, nullptr, approx, other, 10), KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(kmx_approx_relative_error(&error, nullptr, approx, ds, 0), KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(kmx_approx_matvec(out.data(), kN, nullptr, nullptr, v.data(), kN), KMX_E_INVALID_ARGUMENT);
    kmx_dataset_free(other);
    kmx_approx_free(approx);
    kmx_approx_free(nullptr);
}

// kernel_precision (FALKON's K_nM in float32): names and numbers of
// kmx_precision only, refused otherwise with a message naming the parameter
// and its values; a float32 fit predicts what the float64 one does to float
// rounding, not to the bit.
TEST_F(Handles, FalkonKernelPrecisionTakesFloat32OrFloat64Only) {
    kmx_solver *solver = nullptr;
    for (const char *bad : {"method=falkon kernel_precision=float16", "method=falkon kernel_precision=2",
                            "method=falkon kernel_precision=double", "method=falkon kernel_precision="}) {
        EXPECT_EQ(kmx_solver_create_from_string(&solver, bad), KMX_E_INVALID_ARGUMENT) << bad;
        EXPECT_EQ(solver, nullptr);
        EXPECT_TRUE(mentions("kernel_precision")) << kmx_last_error();
    }
    ASSERT_EQ(kmx_solver_create_from_string(&solver, "method=falkon kernel_precision=float16"), KMX_E_INVALID_ARGUMENT);
    EXPECT_TRUE(mentions("float32")) << kmx_last_error();
    std::vector<double> predictions[2];
    for (int precision : {KMX_PRECISION_FLOAT64, KMX_PRECISION_FLOAT32}) {
        ASSERT_EQ(kmx_solver_create_from_string(&solver, "method=falkon lambda=1e-2 centers=20 task=regression"),
                  KMX_OK);
        double value = -1;
        ASSERT_EQ(kmx_solver_get_param(&value, solver, KMX_PARAM_KERNEL_PRECISION), KMX_OK);
        EXPECT_EQ(value, KMX_PRECISION_FLOAT64);
        EXPECT_EQ(kmx_solver_set_param(solver, KMX_PARAM_KERNEL_PRECISION, 0.5), KMX_E_INVALID_ARGUMENT);
        EXPECT_EQ(kmx_solver_set_param(solver, KMX_PARAM_KERNEL_PRECISION, -1), KMX_E_INVALID_ARGUMENT);
        ASSERT_EQ(kmx_solver_set_params(solver, precision ? "kernel_precision=float32" : "kernel_precision=float64"),
                  KMX_OK);
        ASSERT_EQ(kmx_solver_get_param(&value, solver, KMX_PARAM_KERNEL_PRECISION), KMX_OK);
        EXPECT_EQ(value, precision);
        kmx_model *model = nullptr;
        ASSERT_EQ(kmx_solver_train(&model, nullptr, solver, rbf, ds), KMX_OK) << kmx_last_error();
        predictions[precision].resize(size_t(kN));
        ASSERT_EQ(kmx_model_predict(predictions[precision].data(), kN, nullptr, model, ds), KMX_OK);
        kmx_model_free(model);
        kmx_solver_free(solver);
    }
    // These 60 rows lie on a closed curve (near-duplicate rows, so K_MM is
    // nearly singular): float32's kernel moves single predictions by up to
    // 6e-3 (1e-7 on Letter), but not the fit's error.
    double largest = 0, rmse[2] = {0, 0};
    for (int64_t i = 0; i < kN; ++i) {
        largest = std::max(largest, std::fabs(predictions[1][size_t(i)] - predictions[0][size_t(i)]));
        for (int p : {0, 1}) rmse[p] += std::pow(predictions[p][size_t(i)] - data.y[size_t(i)], 2) / double(kN);
    }
    std::printf("  float32 - float64 predictions: at most %.2e; rmse %.6f, %.6f\n", largest, std::sqrt(rmse[0]),
                std::sqrt(rmse[1]));
    EXPECT_GT(largest, 0.0);
    EXPECT_LT(largest, 0.02);
    EXPECT_NEAR(std::sqrt(rmse[1]), std::sqrt(rmse[0]), 0.01 * std::sqrt(rmse[0]));
    EXPECT_STREQ(kmx_param_value_name(KMX_PARAM_KERNEL_PRECISION, 1), "float32");
}

TEST_F(Handles, PredictorFromAKrrModelPredictsLikeTheModel) {
    kmx_solver *solver = nullptr;
    ASSERT_EQ(kmx_solver_create_from_string(&solver, "method=falkon lambda=1e-4 centers=20 task=regression"), KMX_OK);
    kmx_model *model = nullptr;
    ASSERT_EQ(kmx_solver_train(&model, nullptr, solver, rbf, ds), KMX_OK) << kmx_last_error();
    kmx_predictor *predictor = nullptr;
    EXPECT_EQ(kmx_predictor_build(&predictor, nullptr, model, ds, "leaves=4"), KMX_E_INVALID_ARGUMENT);
    EXPECT_TRUE(mentions("leaves")) << kmx_last_error();
    ASSERT_EQ(kmx_predictor_build(&predictor, nullptr, model, ds, ""), KMX_OK) << kmx_last_error();
    std::vector<double> by_model(static_cast<size_t>(kN)), by_predictor(static_cast<size_t>(kN));
    ASSERT_EQ(kmx_model_predict(by_model.data(), kN, nullptr, model, ds), KMX_OK);
    ASSERT_EQ(kmx_predictor_predict(by_predictor.data(), kN, nullptr, predictor, ds), KMX_OK);
    // The model's kernel rows come from a GEMM (|a|² + |b|² − 2ab), the predictor's from direct
    // differences: with λ small the coefficients are large, so agreement is to ~1e-11, not 1e-16.
    for (int64_t i = 0; i < kN; ++i) EXPECT_NEAR(by_predictor[size_t(i)], by_model[size_t(i)], 1e-9) << i;
    double classes = -1, landmarks = 0;
    EXPECT_EQ(kmx_predictor_info(&classes, predictor, KMX_PREDICTOR_CLASSES), KMX_OK);
    EXPECT_EQ(kmx_predictor_info(&landmarks, predictor, KMX_PREDICTOR_LANDMARKS), KMX_OK);
    EXPECT_EQ(classes, 0);
    EXPECT_EQ(landmarks, 20);
    // The blob round trip through a buffer predicts the same.
    int64_t size = 0;
    EXPECT_EQ(kmx_predictor_save_to_buffer(nullptr, 0, &size, predictor), KMX_OK);
    std::vector<unsigned char> blob(static_cast<size_t>(size));
    EXPECT_EQ(kmx_predictor_save_to_buffer(blob.data(), size - 1, &size, predictor), KMX_E_INVALID_ARGUMENT);
    ASSERT_EQ(kmx_predictor_save_to_buffer(blob.data(), size, &size, predictor), KMX_OK);
    kmx_predictor *loaded = nullptr;
    ASSERT_EQ(kmx_predictor_load_from_buffer(&loaded, blob.data(), size), KMX_OK);
    std::vector<double> again(static_cast<size_t>(kN));
    ASSERT_EQ(kmx_predictor_decision_values(again.data(), kN, nullptr, loaded, ds), KMX_OK);
    EXPECT_EQ(again, by_predictor);
    // Truncated and flipped blobs are format errors that create nothing.
    kmx_predictor *bad = nullptr;
    EXPECT_EQ(kmx_predictor_load_from_buffer(&bad, blob.data(), size - 1), KMX_E_FORMAT);
    blob[size_t(size / 2)] ^= 0x20;
    EXPECT_EQ(kmx_predictor_load_from_buffer(&bad, blob.data(), size), KMX_E_FORMAT);
    EXPECT_EQ(bad, nullptr);
    EXPECT_EQ(kmx_predictor_export_c(loaded, "/nonexistent-dir/x.h", "name"), KMX_E_IO);
    EXPECT_EQ(kmx_predictor_export_c(loaded, "x.h", "not an identifier"), KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(kmx_predictor_predict(by_predictor.data(), kN - 1, nullptr, predictor, ds), KMX_E_INVALID_ARGUMENT);
    kmx_predictor_free(loaded);
    kmx_predictor_free(predictor);
    kmx_predictor_free(nullptr);
    kmx_model_free(model);
    kmx_solver_free(solver);
}

TEST_F(Handles, PredictorBuildRejectsBadParameters) {
    kmx_solver *solver = nullptr;
    ASSERT_EQ(kmx_solver_create_from_string(&solver, "method=svm C=4"), KMX_OK);
    std::vector<double> labels(static_cast<size_t>(kN));
    for (int64_t i = 0; i < kN; ++i) labels[size_t(i)] = data.x[size_t(i * kD)] > 0 ? 1 : -1;
    kmx_dataset *binary = nullptr;
    ASSERT_EQ(kmx_dataset_create(&binary, data.x.data(), kN, kD, labels.data(), KMX_COPY), KMX_OK);
    kmx_model *model = nullptr;
    ASSERT_EQ(kmx_solver_train(&model, nullptr, solver, rbf, binary), KMX_OK) << kmx_last_error();
    kmx_predictor *predictor = nullptr;
    EXPECT_EQ(kmx_predictor_build(&predictor, nullptr, model, binary, "landmarks=-2"), KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(kmx_predictor_build(&predictor, nullptr, model, binary, "leaves=1000"), KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(kmx_predictor_build(&predictor, nullptr, model, binary, "gamma=1"), KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(predictor, nullptr);
    ASSERT_EQ(kmx_predictor_build(&predictor, nullptr, model, binary, "leaves=2 landmarks=8"), KMX_OK)
        << kmx_last_error();
    std::vector<double> by_model(static_cast<size_t>(kN)), by_predictor(static_cast<size_t>(kN));
    ASSERT_EQ(kmx_model_predict(by_model.data(), kN, nullptr, model, binary), KMX_OK);
    ASSERT_EQ(kmx_predictor_predict(by_predictor.data(), kN, nullptr, predictor, binary), KMX_OK);
    int agree = 0;
    for (int64_t i = 0; i < kN; ++i) agree += by_model[size_t(i)] == by_predictor[size_t(i)];
    EXPECT_GE(agree, 50) << "a 16-landmark predictor of a smooth 60-row problem";
    kmx_predictor_free(predictor);
    kmx_model_free(model);
    kmx_dataset_free(binary);
    kmx_solver_free(solver);
}

// Labels from a compact predictor take its row blocks' workspace, not an
// n x outputs array: 20000 rows of a 10-class one-vs-one predictor (45
// outputs, 7.2 MB of them) predict under a 2 MB budget, the same labels as
// without one, and their decision values are the labels' votes.
TEST_F(Handles, PredictorLabelsNeedNoArrayOfEveryRowsOutputs) {
    constexpr int64_t kRows = 20000, kClasses = 10;
    std::vector<double> x(static_cast<size_t>(kRows * kD)), y(static_cast<size_t>(kRows));
    for (int64_t i = 0; i < kRows; ++i) {
        y[size_t(i)] = double(i % kClasses);
        for (int64_t j = 0; j < kD; ++j)
            x[size_t(i * kD + j)] = 2.0 * std::sin(1.9 * double(i % kClasses) + 1.3 * double(j)) +
                                    0.3 * std::sin(0.37 * double(i) + double(j));
    }
    kmx_dataset *rows = nullptr, *train_rows = nullptr;
    ASSERT_EQ(kmx_dataset_create(&rows, x.data(), kRows, kD, y.data(), KMX_BORROW), KMX_OK);
    ASSERT_EQ(kmx_dataset_create(&train_rows, x.data(), 300, kD, y.data(), KMX_BORROW), KMX_OK);
    kmx_solver *solver = nullptr;
    ASSERT_EQ(kmx_solver_create_from_string(&solver, "method=svm C=4"), KMX_OK);
    kmx_model *model = nullptr;
    ASSERT_EQ(kmx_solver_train(&model, nullptr, solver, rbf, train_rows), KMX_OK) << kmx_last_error();
    kmx_predictor *predictor = nullptr;
    ASSERT_EQ(kmx_predictor_build(&predictor, nullptr, model, train_rows, ""), KMX_OK) << kmx_last_error();
    double outputs = 0;
    ASSERT_EQ(kmx_predictor_info(&outputs, predictor, KMX_PREDICTOR_OUTPUTS), KMX_OK);
    ASSERT_EQ(outputs, double(kClasses * (kClasses - 1) / 2));
    std::vector<double> unlimited(static_cast<size_t>(kRows)), budgeted(static_cast<size_t>(kRows), -1.0);
    ASSERT_EQ(kmx_predictor_predict(unlimited.data(), kRows, nullptr, predictor, rows), KMX_OK) << kmx_last_error();
    kmx_context *ctx = nullptr;
    ASSERT_EQ(kmx_context_create(&ctx), KMX_OK);
    ASSERT_EQ(kmx_context_set_param(ctx, KMX_PARAM_MEMORY_BUDGET, 2 << 20), KMX_OK);
    EXPECT_EQ(kmx_predictor_predict(budgeted.data(), kRows, ctx, predictor, rows), KMX_OK) << kmx_last_error();
    EXPECT_EQ(budgeted, unlimited);
    int64_t correct = 0;
    for (int64_t i = 0; i < kRows; ++i) correct += unlimited[size_t(i)] == y[size_t(i)];
    EXPECT_GT(correct, kRows * 9 / 10) << "separable classes";
    // Spot check against the outputs: the first 100 rows' one-vs-one votes.
    std::vector<double> values(static_cast<size_t>(100 * outputs));
    kmx_dataset *first = nullptr;
    ASSERT_EQ(kmx_dataset_create(&first, x.data(), 100, kD, y.data(), KMX_BORROW), KMX_OK);
    ASSERT_EQ(kmx_predictor_decision_values(values.data(), int64_t(values.size()), ctx, predictor, first), KMX_OK);
    for (int64_t i = 0; i < 100; ++i) {
        std::vector<int> votes(kClasses, 0);
        int64_t pair = 0;
        for (int a = 0; a < kClasses; ++a)
            for (int b = a + 1; b < kClasses; ++b, ++pair) ++votes[size_t(values[size_t(i * 45 + pair)] > 0 ? a : b)];
        EXPECT_EQ(double(std::max_element(votes.begin(), votes.end()) - votes.begin()), unlimited[size_t(i)]) << i;
    }
    kmx_dataset_free(first);
    kmx_context_free(ctx);
    kmx_predictor_free(predictor);
    kmx_model_free(model);
    kmx_solver_free(solver);
    kmx_dataset_free(train_rows);
    kmx_dataset_free(rows);
}

// A handle keeps its row predictor: calls of one row (which go one at a time
// through it, the first call making it) give what one call of every row gives,
// bit for bit, also from two threads at once on a fresh handle, and the
// inference subset reading the blob in place gives the same labels and
// decision values to 1e-12.
TEST_F(Handles, PredictorOneRowPerCallPredictsAsAllRowsAtOnce) {
    kmx_solver *solver = nullptr;
    ASSERT_EQ(kmx_solver_create_from_string(&solver, "method=svm C=4"), KMX_OK);
    std::vector<double> labels(data.y.size());
    for (size_t i = 0; i < labels.size(); ++i) labels[i] = data.y[i] > 0.5 ? 1 : -1;
    kmx_dataset *train = nullptr;
    ASSERT_EQ(kmx_dataset_create(&train, data.x.data(), kN, kD, labels.data(), KMX_BORROW), KMX_OK);
    kmx_model *model = nullptr;
    ASSERT_EQ(kmx_solver_train(&model, nullptr, solver, rbf, train), KMX_OK) << kmx_last_error();
    kmx_predictor *predictor = nullptr;
    ASSERT_EQ(kmx_predictor_build(&predictor, nullptr, model, train, "leaves=4 landmarks=6"), KMX_OK)
        << kmx_last_error();
    std::vector<double> all(static_cast<size_t>(kN));
    ASSERT_EQ(kmx_predictor_decision_values(all.data(), kN, nullptr, predictor, train), KMX_OK);
    int64_t size = 0;
    ASSERT_EQ(kmx_predictor_save_to_buffer(nullptr, 0, &size, predictor), KMX_OK);
    std::vector<unsigned char> blob(static_cast<size_t>(size));
    ASSERT_EQ(kmx_predictor_save_to_buffer(blob.data(), size, &size, predictor), KMX_OK);
    kmx_predictor *fresh = nullptr;  // its row predictor not made yet: the two threads race to make it
    ASSERT_EQ(kmx_predictor_load_from_buffer(&fresh, blob.data(), size), KMX_OK);
    std::vector<double> one_at_a_time(static_cast<size_t>(kN), NAN);
    auto predict_rows = [&](int64_t first, int64_t step) {
        for (int64_t i = first; i < kN; i += step) {
            kmx_dataset *row = nullptr;
            if (kmx_dataset_create(&row, data.x.data() + i * kD, 1, kD, nullptr, KMX_BORROW) != KMX_OK) return;
            kmx_predictor_decision_values(&one_at_a_time[size_t(i)], 1, nullptr, fresh, row);
            kmx_dataset_free(row);
        }
    };
    std::thread other(predict_rows, 1, 2);
    predict_rows(0, 2);
    other.join();
    EXPECT_EQ(one_at_a_time, all);
    int64_t arena_bytes = 0;
    ASSERT_EQ(kmx_infer_required_bytes(&arena_bytes, blob.data(), size), KMX_INFER_OK);
    std::vector<double> arena(size_t(arena_bytes) / sizeof(double) + 1);
    kmx_infer_predictor *inference = nullptr;
    ASSERT_EQ(kmx_infer_open(&inference, blob.data(), size, arena.data(), arena_bytes), KMX_INFER_OK);
    std::vector<double> predicted(static_cast<size_t>(kN));
    ASSERT_EQ(kmx_predictor_predict(predicted.data(), kN, nullptr, predictor, train), KMX_OK);
    for (int64_t i = 0; i < kN; ++i) {
        double label = 0, value = 0;
        ASSERT_EQ(kmx_infer_predict(&label, &value, 1, inference, data.x.data() + i * kD, kD), KMX_INFER_OK);
        EXPECT_EQ(label, predicted[size_t(i)]) << i;
        EXPECT_NEAR(value, all[size_t(i)], 1e-12) << i;
    }
    kmx_predictor_free(fresh);
    kmx_predictor_free(predictor);
    kmx_model_free(model);
    kmx_dataset_free(train);
    kmx_solver_free(solver);
}

}  // namespace
