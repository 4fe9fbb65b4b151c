// Letter binary, full train/test, C = 8, gamma = 16 (the parameters LIBSVM
// 3.24 is run with in examples/data's README): about 98% test accuracy.
#include <gtest/gtest.h>

#include "model_test_data.h"

namespace {

using namespace model_test;

TEST(LetterReference, SvmAndDcsvmReachLibsvmsAccuracy) {
    const Rows train_rows = load_rows("letter_bin.train.libsvm", 1, 1000000);
    const Rows test_rows = load_rows("letter_bin.test.libsvm", 1, 1000000);
    ASSERT_EQ(train_rows.n(), 12000);
    ASSERT_EQ(test_rows.n(), 6000);
    kmx_dataset *train_data = make_dataset(train_rows), *test_data = make_dataset(test_rows);
    kmx_kernel *kernel = rbf(16);
    kmx_context *ctx = nullptr;
    ASSERT_EQ(kmx_context_create(&ctx), KMX_OK);
    ASSERT_EQ(kmx_context_set_param(ctx, KMX_PARAM_THREADS, 2), KMX_OK);
    for (const char *params : {"method=svm C=8", "method=dcsvm C=8"}) {
        kmx_model *model = train(params, kernel, train_data, ctx);
        ASSERT_NE(model, nullptr) << params;
        EXPECT_GT(accuracy(model, test_data, test_rows), 0.975) << params;
        kmx_model_free(model);
    }
    kmx_context_free(ctx);
    kmx_kernel_free(kernel);
    kmx_dataset_free(test_data);
    kmx_dataset_free(train_data);
}

}  // namespace
