// Prediction in row blocks sized from the memory budget: a 70-class
// one-vs-one model (2415 machines), its early-prediction counterpart and a
// one-vs-rest KRR model predict the same bits in blocks of a few rows (7 for
// the one-vs-one models), on two threads under a budget that holds no more, as
// in one block of every row on one thread; a budget below one row's block
// fails before work, naming what one row needs.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "../common/blobs.h"
#include "capi/handles.h"
#include "core/bytes_text.h"
#include "core/context.h"
#include "core/dataset.h"
#include "core/error.h"
#include "model/model.h"
#include "model_test_data.h"

namespace {

using namespace model_test;

constexpr int kClasses = 70;  // 2415 one-vs-one machines
constexpr int64_t kTrainRows = 3 * kClasses, kTestRows = 150;

// Rows around kClasses blob centers in 6 dimensions, labelled by their center:
// the first kTrainRows (each class three times), or the kTestRows after them.
Rows blob_rows(bool test) {
    const test_common::BlobPoints p = test_common::make_blob_points(kTrainRows + kTestRows, 6, kClasses, 10.0, 0.8, 7);
    Rows rows;
    rows.d = 6;
    const int64_t begin = test ? kTrainRows : 0, end = test ? kTrainRows + kTestRows : kTrainRows;
    for (int64_t i = begin; i < end; ++i) {
        rows.y.push_back(double(p.truth[size_t(i)]));
        rows.x.insert(rows.x.end(), p.x.begin() + i * 6, p.x.begin() + (i + 1) * 6);
    }
    return rows;
}

struct ManyClasses : ::testing::Test {
    Rows train_rows = blob_rows(false);
    Rows test_rows = blob_rows(true);
    kmx_dataset *train_data = make_dataset(train_rows);
    kmx_dataset *test_data = make_dataset(test_rows);
    kmx_kernel *kernel = rbf(0.5);
    void TearDown() override {
        kmx_dataset_free(train_data);
        kmx_dataset_free(test_data);
        kmx_kernel_free(kernel);
    }
    const kmx::Dataset &test() const { return *test_data->impl; }
};

void expect_bitwise_equal(const std::vector<double> &a, const std::vector<double> &b, const char *what) {
    ASSERT_EQ(a.size(), b.size()) << what;
    EXPECT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(double)), 0) << what;
}

TEST_F(ManyClasses, BlocksSizedFromTheBudgetPredictTheSameBits) {
    const char *const solvers[] = {"method=svm C=4",
                                   "method=dcsvm_early C=4 levels=1 early_level=1 clusters_per_level=3 sample_size=60",
                                   "method=krr lambda=1e-3"};
    for (const char *params : solvers) {
        SCOPED_TRACE(params);
        kmx_model *handle = train(params, kernel, train_data);
        ASSERT_NE(handle, nullptr);
        const kmx::Model &model = handle->impl;
        ASSERT_EQ(model.classes.size(), size_t(kClasses));
        const int64_t n = test_rows.n(), stride = model.decision_values();
        EXPECT_EQ(stride, model.krr() ? kClasses : kClasses * (kClasses - 1) / 2);

        kmx::Context whole;  // no budget: every row in one block
        EXPECT_EQ(kmx::prediction_block(whole, model, test()).rows, n);
        std::vector<double> values(static_cast<size_t>(n * stride)), labels(static_cast<size_t>(n));
        kmx::model_decision_values(whole, model, test(), values.data());
        kmx::model_predict(whole, model, test(), labels.data());

        // A budget that holds a block of r rows and not of r + 1 (r = 7, or more for the
        // KRR model's small rows: a kmx_context's budget is at least 64 KiB), on two threads.
        kmx::Context tight;
        tight.threads = 2;
        int64_t r = 7;
        while (kmx::prediction_block_bytes(model, test(), r, tight.threads) < 65536) r += 7;
        ASSERT_LT(r, n / 2);
        const size_t block_bytes = kmx::prediction_block_bytes(model, test(), r, tight.threads);
        ASSERT_LT(block_bytes, kmx::prediction_block_bytes(model, test(), r + 1, tight.threads));
        tight.memory_budget = block_bytes;
        const kmx::PredictionBlock block = kmx::prediction_block(tight, model, test());
        EXPECT_EQ(block.rows, r);
        EXPECT_EQ(block.bytes, block_bytes);
        std::vector<double> blocked_values(values.size(), -1.0), blocked_labels(labels.size(), -1.0);
        tight.begin_call();
        kmx::model_decision_values(tight, model, test(), blocked_values.data());
        EXPECT_EQ(tight.peak_bytes(), block_bytes);
        tight.begin_call();
        kmx::model_predict(tight, model, test(), blocked_labels.data());
        expect_bitwise_equal(blocked_values, values, "decision values");
        expect_bitwise_equal(blocked_labels, labels, "labels");

        // Through the C API, with a context's budget: the same labels.
        kmx_context *ctx = nullptr;
        ASSERT_EQ(kmx_context_create(&ctx), KMX_OK);
        ASSERT_EQ(kmx_context_set_param(ctx, KMX_PARAM_MEMORY_BUDGET, double(block_bytes)), KMX_OK);
        std::vector<double> api_labels(labels.size(), -1.0);
        EXPECT_EQ(kmx_model_predict(api_labels.data(), n, ctx, handle, test_data), KMX_OK) << kmx_last_error();
        expect_bitwise_equal(api_labels, labels, "labels through the C API");

        // One row's block does not fit: KMX_E_OUT_OF_MEMORY naming its bytes, before any output.
        kmx::Context starved;
        const size_t one = kmx::prediction_block_bytes(model, test(), 1, starved.threads);
        starved.memory_budget = one - 64;
        std::vector<double> untouched(labels.size(), -1.0);
        std::string message;
        try {
            kmx::model_predict(starved, model, test(), untouched.data());
            ADD_FAILURE() << "a budget below one row's block was accepted";
        } catch (const kmx::Error &e) {
            EXPECT_EQ(e.status(), KMX_E_OUT_OF_MEMORY);
            message = e.what();
        }
        EXPECT_NE(message.find(std::string("prediction needs ") + kmx::bytes_text(double(one)).text +
                               " for a block of one row"),
                  std::string::npos)
            << message;
        EXPECT_NE(message.find(std::to_string(stride) + " decision values"), std::string::npos) << message;
        EXPECT_EQ(untouched, std::vector<double>(labels.size(), -1.0));
        starved.memory_budget = one;
        starved.begin_call();
        kmx::model_predict(starved, model, test(), untouched.data());
        expect_bitwise_equal(untouched, labels, "labels one row at a time");
        kmx_context_free(ctx);
        kmx_model_free(handle);
    }
}

// The block's values per row are bounded whatever the budget: 16 MiB of
// kernel and decision values (a 400-class one-vs-one model's 79800 values
// per row would make 400 rows 255 MB).
TEST_F(ManyClasses, AnUnlimitedBudgetStillBoundsTheBlock) {
    kmx_model *handle = train("method=svm C=4", kernel, train_data);
    ASSERT_NE(handle, nullptr);
    const kmx::Model &model = handle->impl;
    std::vector<double> x(size_t(5000 * 6), 0.5);
    const std::unique_ptr<kmx::Dataset> many = kmx::Dataset::dense_borrow(x.data(), 5000, 6, nullptr);
    kmx::Context unlimited;
    const int64_t per_row = model.support_vectors + model.decision_values();
    ASSERT_GT(per_row, 2048);  // so that the bound is below the 1024-row cap
    EXPECT_EQ(kmx::prediction_block(unlimited, model, *many).rows, (int64_t(1) << 21) / per_row);
    kmx_model_free(handle);
}

}  // namespace
