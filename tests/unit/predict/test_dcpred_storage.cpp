// test_dcpred_storage.cpp — the storage types on the whole Letter binary
// problem (DC-SVM at C = 8, γ = 16, then DC-Pred++ at its automatic options
// with each storage): smaller blobs, the float64 predictor's labels and
// decision values within the stated bounds.
#include <gtest/gtest.h>

#include "predict_test_support.h"
#include "storage_comparison.h"
#include "svm/multiclass.h"

namespace {

TEST(DcpredStorage, LetterBinaryKeepsTheFloat64Labels) {
    const auto train = predict_test::load_example("letter_bin.train.libsvm");
    const auto test = predict_test::load_example("letter_bin.test.libsvm");
    kmx::Context ctx;
    const kmx::Model model = predict_test::train_letter_dcsvm(ctx, *train);
    const double tie = 0.05;
    const auto results = predict_test::compare_storages(ctx, model, *train, *test, tie);
    for (size_t s = 1; s < results.size(); ++s) {
        const predict_test::StorageResult &r = results[s];
        SCOPED_TRACE(kmx::storage_name(r.storage));
        const bool int4 = r.storage == kmx::PredictorStorage::int4;
        // int4 pays 1 KB of codebook a leaf (16 x 16 floats): below float32, above int8 at 254 leaves.
        EXPECT_LT(r.blob_bytes, results[int4 ? 1 : s - 1].blob_bytes);
        // float32 and int16: no label changes; int8: at most 0.1% of the rows (6 of 6000), near ties only;
        // int4 (the leaves' landmarks are not Letter's 16-valued features, so the codes are lossy): at most
        // 0.2% of the rows (measured 9, one with |o| > 0.05), at most 2 off a near tie.
        EXPECT_LE(r.flips, int4 ? test->n / 500 : r.storage == kmx::PredictorStorage::int8 ? test->n / 1000 : 0);
        EXPECT_LE(r.flips_off_tie, int4 ? 2 : 0);
        // Decision values: measured gaps 1.0e-6 (float32), 2.0e-4 (int16), 0.055 (int8: 3 flips, |o| < 0.05),
        // 0.164 (int4).
        EXPECT_LE(r.max_output_gap, predict_test::output_gap_bound(r.storage));
        EXPECT_GE(r.accuracy, results[0].accuracy - 0.001);
    }
}

}  // namespace
