// The C API's thread-safety promises, exercised at once (kmx.h: a model and a
// predictor are immutable and shared by many threads; a context is used by
// one thread at a time, except kmx_context_cancel, which any thread may call).
// tools/sanitize.sh runs this under ThreadSanitizer, where any data race is a
// report; in ordinary builds the results themselves are checked.
//
// Every context here has threads=1, so no OpenMP team is started: libgomp is
// not instrumented and its barriers would look like races to TSan.
#include <gtest/gtest.h>
#include <kmx/kmx.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

namespace {

constexpr int kPredictingThreads = 8;
constexpr int kTrainingThreads = 3;

std::string test_data(const char *name) {
    const char *dir = std::getenv("KMX_TEST_DATA");
    return std::string(dir ? dir : "tests/data") + "/" + name;
}

kmx_dataset *load(const char *name) {
    kmx_dataset *data = nullptr;
    EXPECT_EQ(kmx_dataset_load(&data, nullptr, test_data(name).c_str(), KMX_FORMAT_LIBSVM), KMX_OK) << kmx_last_error();
    return data;
}

int64_t rows_of(const kmx_dataset *data) {
    int64_t n = 0;
    EXPECT_EQ(kmx_dataset_rows(&n, data), KMX_OK);
    return n;
}

std::vector<double> labels_of(const kmx_dataset *data) {
    std::vector<double> y(size_t(rows_of(data)));
    EXPECT_EQ(kmx_dataset_get_labels(y.data(), int64_t(y.size()), data), KMX_OK);
    return y;
}

// The first `rows` rows of `data`, dense, with their labels.
kmx_dataset *first_rows(const kmx_dataset *data, int64_t rows) {
    int64_t d = 0;
    EXPECT_EQ(kmx_dataset_cols(&d, data), KMX_OK);
    std::vector<double> x(size_t(rows * d));
    EXPECT_EQ(kmx_dataset_get_rows(x.data(), int64_t(x.size()), data, 0, rows), KMX_OK);
    kmx_dataset *subset = nullptr;
    EXPECT_EQ(kmx_dataset_create(&subset, x.data(), rows, d, labels_of(data).data(), KMX_COPY), KMX_OK);
    return subset;
}

kmx_context *one_thread_context() {
    kmx_context *ctx = nullptr;
    EXPECT_EQ(kmx_context_create(&ctx), KMX_OK);
    EXPECT_EQ(kmx_context_set_params(ctx, "threads=1 seed=3"), KMX_OK);
    return ctx;
}

// Everything one thread computes from the shared model and predictor.
struct Predictions {
    std::vector<double> model_labels, model_values, predictor_labels, predictor_values;
};

Predictions predict_all(const kmx_model *model, const kmx_predictor *predictor, const kmx_dataset *data) {
    const int64_t n = rows_of(data);
    double model_outputs = 0, predictor_outputs = 0;
    EXPECT_EQ(kmx_model_info(&model_outputs, model, KMX_INFO_DECISION_VALUES), KMX_OK);
    EXPECT_EQ(kmx_predictor_info(&predictor_outputs, predictor, KMX_PREDICTOR_OUTPUTS), KMX_OK);
    Predictions p{std::vector<double>(size_t(n)), std::vector<double>(size_t(n * int64_t(model_outputs))),
                  std::vector<double>(size_t(n)), std::vector<double>(size_t(n * int64_t(predictor_outputs)))};
    kmx_context *ctx = one_thread_context();
    EXPECT_EQ(kmx_model_predict(p.model_labels.data(), n, ctx, model, data), KMX_OK) << kmx_last_error();
    EXPECT_EQ(kmx_model_decision_values(p.model_values.data(), int64_t(p.model_values.size()), ctx, model, data),
              KMX_OK);
    EXPECT_EQ(kmx_predictor_predict(p.predictor_labels.data(), n, ctx, predictor, data), KMX_OK);
    EXPECT_EQ(kmx_predictor_decision_values(p.predictor_values.data(), int64_t(p.predictor_values.size()), ctx,
                                            predictor, data),
              KMX_OK);
    kmx_context_free(ctx);
    return p;
}

kmx_model *train(kmx_context *ctx, const char *solver_params, const kmx_dataset *data) {
    kmx_solver *solver = nullptr;
    kmx_kernel *kernel = nullptr;
    EXPECT_EQ(kmx_solver_create_from_string(&solver, solver_params), KMX_OK);
    EXPECT_EQ(kmx_kernel_create_from_string(&kernel, "kernel=rbf gamma=0.5"), KMX_OK);
    kmx_model *model = nullptr;
    const kmx_status status = kmx_solver_train(&model, ctx, solver, kernel, data);
    EXPECT_TRUE(status == KMX_OK || status == KMX_E_CANCELLED) << kmx_last_error();
    kmx_kernel_free(kernel);
    kmx_solver_free(solver);
    return model;
}

struct Shared : ::testing::Test {
    static void SetUpTestSuite() {
        spam_train = load("spam_bin.train.libsvm");
        spam_test = load("spam_bin.test.libsvm");
        small_train = first_rows(spam_train, 600);
        kmx_context *ctx = one_thread_context();
        model = train(ctx, "method=dcsvm C=4 levels=2", small_train);
        ASSERT_NE(model, nullptr);
        ASSERT_EQ(kmx_predictor_build(&predictor, ctx, model, small_train, "leaves=4 landmarks=32"), KMX_OK)
            << kmx_last_error();
        kmx_context_free(ctx);
    }
    static void TearDownTestSuite() {
        kmx_predictor_free(predictor);
        kmx_model_free(model);
        kmx_dataset_free(small_train);
        kmx_dataset_free(spam_test);
        kmx_dataset_free(spam_train);
    }
    static kmx_dataset *spam_train, *spam_test, *small_train;
    static kmx_model *model;
    static kmx_predictor *predictor;
};
kmx_dataset *Shared::spam_train, *Shared::spam_test, *Shared::small_train;
kmx_model *Shared::model;
kmx_predictor *Shared::predictor;

}  // namespace

// One model and one predictor, 8 threads predicting the same data at once:
// every thread's labels and decision values equal the single-threaded ones,
// bit for bit.
TEST_F(Shared, EightThreadsPredictWithOneModelAndOnePredictor) {
    const Predictions expected = predict_all(model, predictor, spam_test);
    // The labels are those of a working classifier, so the comparison is not of empty output.
    const std::vector<double> truth = labels_of(spam_test);
    int correct = 0;
    for (size_t i = 0; i < truth.size(); ++i) correct += expected.model_labels[i] == truth[i];
    EXPECT_GT(correct, int(0.85 * double(truth.size())));

    std::vector<Predictions> got(kPredictingThreads);
    std::vector<std::thread> threads;
    for (int t = 0; t < kPredictingThreads; ++t)
        threads.emplace_back([&got, t] { got[size_t(t)] = predict_all(model, predictor, spam_test); });
    for (auto &thread : threads) thread.join();
    for (const Predictions &p : got) {
        EXPECT_EQ(p.model_labels, expected.model_labels);
        EXPECT_EQ(p.model_values, expected.model_values);
        EXPECT_EQ(p.predictor_labels, expected.predictor_labels);
        EXPECT_EQ(p.predictor_values, expected.predictor_values);
    }
}

// A predictor fresh from its bytes makes its row predictor on its first call
// that predicts rows one at a time (100 rows of 4 leaves: that path) and keeps
// it: 8 threads whose first calls race to make it get the shared predictor's
// labels and decision values, bit for bit.
TEST_F(Shared, ThreadsRacingToAFreshPredictorsFirstCall) {
    int64_t size = 0;
    ASSERT_EQ(kmx_predictor_save_to_buffer(nullptr, 0, &size, predictor), KMX_OK);
    std::vector<unsigned char> blob(static_cast<size_t>(size));
    ASSERT_EQ(kmx_predictor_save_to_buffer(blob.data(), size, &size, predictor), KMX_OK);
    kmx_predictor *fresh = nullptr;
    ASSERT_EQ(kmx_predictor_load_from_buffer(&fresh, blob.data(), size), KMX_OK);
    kmx_dataset *rows = first_rows(spam_test, 100);
    const Predictions expected = predict_all(model, predictor, rows);
    std::vector<Predictions> got(kPredictingThreads);
    std::vector<std::thread> threads;
    for (int t = 0; t < kPredictingThreads; ++t)
        threads.emplace_back([&got, fresh, rows, t] { got[size_t(t)] = predict_all(model, fresh, rows); });
    for (auto &thread : threads) thread.join();
    for (const Predictions &p : got) {
        EXPECT_EQ(p.predictor_labels, expected.predictor_labels);
        EXPECT_EQ(p.predictor_values, expected.predictor_values);
    }
    kmx_dataset_free(rows);
    kmx_predictor_free(fresh);
}

// Threads training on separate contexts (sharing the dataset) get the model
// one thread alone gets: equal decision values on the test set.
TEST_F(Shared, ThreadsTrainOnSeparateContexts) {
    kmx_context *ctx = one_thread_context();
    kmx_model *alone = train(ctx, "method=svm C=4", small_train);
    ASSERT_NE(alone, nullptr);
    const int64_t n = rows_of(spam_test);
    std::vector<double> expected(static_cast<size_t>(n));
    ASSERT_EQ(kmx_model_decision_values(expected.data(), n, ctx, alone, spam_test), KMX_OK);

    std::vector<std::vector<double>> got(kTrainingThreads, std::vector<double>(size_t(n)));
    std::vector<std::thread> threads;
    for (int t = 0; t < kTrainingThreads; ++t)
        threads.emplace_back([&got, n, t] {
            kmx_context *own = one_thread_context();
            kmx_model *model = train(own, "method=svm C=4", small_train);
            EXPECT_EQ(kmx_model_decision_values(got[size_t(t)].data(), n, own, model, spam_test), KMX_OK);
            kmx_model_free(model);
            kmx_context_free(own);
        });
    for (auto &thread : threads) thread.join();
    for (const auto &values : got) EXPECT_EQ(values, expected);
    kmx_model_free(alone);
    kmx_context_free(ctx);
}

namespace {
// The training thread's progress callback: says training has started, then
// waits (at most 60 s) until the other thread has sent its cancel.
struct CancelRace {
    std::atomic<bool> started{false}, cancel_sent{false}, finished{false};
};
int wait_for_cancel(void *user, double, const char *) {
    auto *race = static_cast<CancelRace *>(user);
    race->started = true;
    const auto limit = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (!race->cancel_sent && std::chrono::steady_clock::now() < limit)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    return 0;
}
}  // namespace

// kmx_context_cancel from another thread stops a training in progress: it
// fails with KMX_E_CANCELLED and returns no model; the context then trains
// again normally (the request was cleared).
TEST_F(Shared, CancelFromAnotherThreadStopsTraining) {
    kmx_context *ctx = one_thread_context();
    CancelRace race;
    ASSERT_EQ(kmx_context_set_progress_callback(ctx, wait_for_cancel, &race), KMX_OK);
    std::thread canceller([&race, ctx] {
        while (!race.started) std::this_thread::sleep_for(std::chrono::milliseconds(1));
        EXPECT_EQ(kmx_context_cancel(ctx), KMX_OK);
        race.cancel_sent = true;
    });
    kmx_solver *solver = nullptr;
    kmx_kernel *kernel = nullptr;
    ASSERT_EQ(kmx_solver_create_from_string(&solver, "method=svm C=100"), KMX_OK);
    ASSERT_EQ(kmx_kernel_create_from_string(&kernel, "kernel=rbf gamma=2"), KMX_OK);
    kmx_model *model = nullptr;
    EXPECT_EQ(kmx_solver_train(&model, ctx, solver, kernel, spam_train), KMX_E_CANCELLED);
    EXPECT_EQ(model, nullptr);
    EXPECT_NE(std::string(kmx_last_error()).find("cancelled"), std::string::npos) << kmx_last_error();
    canceller.join();
    ASSERT_EQ(kmx_context_set_progress_callback(ctx, nullptr, nullptr), KMX_OK);
    EXPECT_EQ(kmx_solver_train(&model, ctx, solver, kernel, small_train), KMX_OK) << kmx_last_error();
    EXPECT_NE(model, nullptr);
    kmx_model_free(model);
    kmx_kernel_free(kernel);
    kmx_solver_free(solver);
    kmx_context_free(ctx);
}
