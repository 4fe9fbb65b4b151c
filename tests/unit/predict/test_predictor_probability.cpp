// test_predictor_probability.cpp — probabilities survive compression (issue
// 16), through the C API: a model trained with probability=1 compressed to a
// near-exact predictor (one leaf, many landmarks) gives the model's
// probabilities to a stated tolerance (digits of tests/data, binary; blobs,
// one-vs-one and one-vs-rest); the predictor's probabilities are its own
// decision values through the model's sigmoids (the sigmoids read back from
// the blob's bytes here, the coupling solved directly); the inference
// subset's, on the same blob, equal the full library's to 1e-12; rows sum to
// 1; the budget search and every storage keep the sigmoids; errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "kmx/kmx.h"
#include "kmx/kmx_infer.h"
#include "../common/blobs.h"
#include "../common/reference_probabilities.h"

namespace {

std::string data_path(const char *name) {
    const char *dir = std::getenv("KMX_TEST_DATA");
    return std::string(dir ? dir : "tests/data") + "/" + name;
}

struct Handles {
    kmx_dataset *data = nullptr;
    kmx_model *model = nullptr;
    kmx_predictor *predictor = nullptr;
    ~Handles() {
        kmx_predictor_free(predictor);
        kmx_model_free(model);
        kmx_dataset_free(data);
    }
};

// Trains `params` (with probability=1 unless given otherwise) on h.data, one thread, seed 3.
void train(Handles &h, const char *params, double gamma) {
    kmx_kernel *kernel = nullptr;
    ASSERT_EQ(kmx_kernel_create(&kernel, KMX_KERNEL_RBF), KMX_OK);
    ASSERT_EQ(kmx_kernel_set_param(kernel, KMX_PARAM_GAMMA, gamma), KMX_OK);
    kmx_solver *solver = nullptr;
    ASSERT_EQ(kmx_solver_create_from_string(&solver, params), KMX_OK) << kmx_last_error();
    kmx_context *ctx = nullptr;
    ASSERT_EQ(kmx_context_create(&ctx), KMX_OK);
    ASSERT_EQ(kmx_context_set_param(ctx, KMX_PARAM_SEED, 3), KMX_OK);
    ASSERT_EQ(kmx_context_set_param(ctx, KMX_PARAM_THREADS, 1), KMX_OK);
    EXPECT_EQ(kmx_solver_train(&h.model, ctx, solver, kernel, h.data), KMX_OK) << kmx_last_error();
    kmx_context_free(ctx);
    kmx_solver_free(solver);
    kmx_kernel_free(kernel);
}

void compress(Handles &h, const char *params) {
    ASSERT_EQ(kmx_predictor_build(&h.predictor, nullptr, h.model, h.data, params), KMX_OK) << kmx_last_error();
}

int64_t rows_of(const kmx_dataset *data) {
    int64_t n = 0;
    EXPECT_EQ(kmx_dataset_rows(&n, data), KMX_OK);
    return n;
}

double predictor_info(const kmx_predictor *p, kmx_predictor_info_key key) {
    double value = -1;
    EXPECT_EQ(kmx_predictor_info(&value, p, key), KMX_OK);
    return value;
}

std::vector<double> model_probabilities(const Handles &h, int64_t k) {
    std::vector<double> p(size_t(rows_of(h.data) * k));
    EXPECT_EQ(kmx_model_predict_probability(p.data(), int64_t(p.size()), nullptr, h.model, h.data), KMX_OK)
        << kmx_last_error();
    return p;
}

std::vector<double> predictor_probabilities(const Handles &h, int64_t k) {
    std::vector<double> p(size_t(rows_of(h.data) * k));
    EXPECT_EQ(kmx_predictor_predict_probability(p.data(), int64_t(p.size()), nullptr, h.predictor, h.data), KMX_OK)
        << kmx_last_error();
    return p;
}

std::vector<unsigned char> blob_of(const kmx_predictor *p) {
    int64_t size = 0;
    EXPECT_EQ(kmx_predictor_save_to_buffer(nullptr, 0, &size, p), KMX_OK);
    std::vector<unsigned char> blob(static_cast<size_t>(size));
    EXPECT_EQ(kmx_predictor_save_to_buffer(blob.data(), size, &size, p), KMX_OK);
    return blob;
}

// The sigmoids (A_k, B_k) read from the blob's bytes by the layout of
// predictor_blob.h: version 3, flag 8, the u64 at byte 144 their offset.
std::vector<double> blob_sigmoids(const std::vector<unsigned char> &blob, int64_t outputs) {
    uint32_t version = 0, flags = 0;
    std::memcpy(&version, blob.data() + 8, 4);
    std::memcpy(&flags, blob.data() + 28, 4);
    EXPECT_EQ(version, 3u);
    EXPECT_EQ(flags & 8u, 8u);
    uint64_t at = 0;
    std::memcpy(&at, blob.data() + 144, 8);
    std::vector<double> sigmoids(size_t(2 * outputs));
    std::memcpy(sigmoids.data(), blob.data() + at, sigmoids.size() * sizeof(double));
    return sigmoids;
}

// The predictor's probabilities against its own decision values through the
// blob's sigmoids (reference_probabilities), and the inference subset's on
// the same blob against the full library's (1e-12); every row sums to 1.
void expect_consistent_predictor(const Handles &h, int64_t k, bool ovr) {
    const int64_t n = rows_of(h.data), outputs = int64_t(predictor_info(h.predictor, KMX_PREDICTOR_OUTPUTS));
    const std::vector<double> p = predictor_probabilities(h, k);
    std::vector<double> f(size_t(n * outputs));
    ASSERT_EQ(kmx_predictor_decision_values(f.data(), int64_t(f.size()), nullptr, h.predictor, h.data), KMX_OK);
    const std::vector<unsigned char> bytes = blob_of(h.predictor);
    const std::vector<double> sigmoids = blob_sigmoids(bytes, outputs);
    // The rows, padded with zeros to the predictor's d (LIBSVM rows may end early).
    const int64_t d = int64_t(predictor_info(h.predictor, KMX_PREDICTOR_COLUMNS));
    int64_t cols = 0;
    ASSERT_EQ(kmx_dataset_cols(&cols, h.data), KMX_OK);
    ASSERT_LE(cols, d);
    std::vector<double> given(size_t(n * cols)), x(size_t(n * d), 0.0);
    ASSERT_EQ(kmx_dataset_get_rows(given.data(), int64_t(given.size()), h.data, 0, n), KMX_OK) << kmx_last_error();
    for (int64_t i = 0; i < n; ++i)
        std::copy(given.begin() + i * cols, given.begin() + (i + 1) * cols, x.begin() + i * d);
    // The inference subset on the same blob (8-byte aligned), its arena from the size query.
    std::vector<uint64_t> blob((bytes.size() + 7) / 8);
    std::memcpy(blob.data(), bytes.data(), bytes.size());
    int64_t arena_bytes = 0;
    ASSERT_EQ(kmx_infer_required_bytes(&arena_bytes, blob.data(), int64_t(bytes.size())), KMX_INFER_OK);
    EXPECT_EQ(double(arena_bytes), predictor_info(h.predictor, KMX_PREDICTOR_ARENA_BYTES));
    std::vector<uint64_t> arena(size_t(arena_bytes) / 8 + 1);
    kmx_infer_predictor *edge = nullptr;
    ASSERT_EQ(kmx_infer_open(&edge, blob.data(), int64_t(bytes.size()), arena.data(), arena_bytes), KMX_INFER_OK);
    ASSERT_EQ(kmx_infer_has_probabilities(edge), 1);
    const double coupling = !ovr && k > 2 ? 0.01 / double(k) : 1e-12;
    double largest_subset_gap = 0;
    for (int64_t i = 0; i < n; ++i) {
        const std::vector<double> want = test_common::reference_probabilities(k, ovr, sigmoids, f.data() + i * outputs);
        std::vector<double> subset(static_cast<size_t>(k));
        ASSERT_EQ(kmx_infer_predict_probability(subset.data(), k, edge, x.data() + i * d, d), KMX_INFER_OK);
        double sum = 0;
        for (int64_t c = 0; c < k; ++c) {
            const double v = p[size_t(i * k + c)];
            EXPECT_NEAR(v, want[size_t(c)], coupling) << "row " << i << " class " << c;
            largest_subset_gap = std::max(largest_subset_gap, std::fabs(subset[size_t(c)] - v));
            sum += v;
        }
        EXPECT_NEAR(sum, 1, 1e-12) << "row " << i;
    }
    EXPECT_LE(largest_subset_gap, 1e-12);
}

// The largest and the mean |p_predictor − p_model| over the rows and classes.
struct Gap {
    double largest = 0, mean = 0;
};
Gap probability_gap(const std::vector<double> &a, const std::vector<double> &b) {
    Gap g;
    for (size_t i = 0; i < a.size(); ++i) {
        g.largest = std::max(g.largest, std::fabs(a[i] - b[i]));
        g.mean += std::fabs(a[i] - b[i]) / double(a.size());
    }
    return g;
}

Handles digits() {
    Handles h;
    EXPECT_EQ(kmx_dataset_load(&h.data, nullptr, data_path("digits_bin.train.libsvm").c_str(), KMX_FORMAT_LIBSVM),
              KMX_OK)
        << kmx_last_error();
    return h;
}

// Overlapping blobs of 4 classes in 2-d, labels 1..4.
Handles blobs(int64_t n) {
    const test_common::BlobPoints b = test_common::make_blob_points(n, 2, 4, 4.0, 1.0, 17);
    std::vector<double> y;
    for (int c : b.truth) y.push_back(c + 1.0);
    Handles h;
    EXPECT_EQ(kmx_dataset_create(&h.data, b.x.data(), n, 2, y.data(), KMX_COPY), KMX_OK);
    return h;
}

}  // namespace

// Digits (tests/data, 1297 x 64, binary): one leaf, a landmark per row. The
// tolerance, 0.02 at most and 0.002 on average, is about 4x what this
// predictor measured (largest 0.0047, mean 0.00053; with 600 or 1000
// landmarks asked: 0.047 and 0.0030, not near-exact).
TEST(PredictorProbability, NearExactPredictorGivesTheModelsProbabilitiesOnDigits) {
    Handles h = digits();
    train(h, "method=svm C=4 probability=1", 0.02);
    compress(h, "leaves=1 landmarks=1297");
    EXPECT_EQ(predictor_info(h.predictor, KMX_PREDICTOR_PROBABILITY), 1);
    const Gap gap = probability_gap(predictor_probabilities(h, 2), model_probabilities(h, 2));
    std::printf("digits: largest |p_predictor - p_model| %.3g, mean %.3g\n", gap.largest, gap.mean);
    EXPECT_LT(gap.largest, 0.02);
    EXPECT_LT(gap.mean, 0.002);
    expect_consistent_predictor(h, 2, false);
}

// Four overlapping blobs (400 x 2), one-vs-one (6 pairs coupled) and
// one-vs-rest, one leaf of 200 landmarks: measured largest 0.00066 (ovo) and
// 0.0012 (ovr), means 7e-5 and 2e-4; the same tolerances as digits.
TEST(PredictorProbability, NearExactPredictorGivesTheModelsProbabilitiesOnBlobs) {
    for (const char *multiclass : {"ovo", "ovr"}) {
        SCOPED_TRACE(multiclass);
        Handles h = blobs(400);
        train(h, (std::string("method=svm C=1 probability=1 multiclass=") + multiclass).c_str(), 0.5);
        compress(h, "leaves=1 landmarks=200");
        EXPECT_EQ(predictor_info(h.predictor, KMX_PREDICTOR_PROBABILITY), 1);
        const Gap gap = probability_gap(predictor_probabilities(h, 4), model_probabilities(h, 4));
        std::printf("blobs %s: largest |p_predictor - p_model| %.3g, mean %.3g\n", multiclass, gap.largest, gap.mean);
        EXPECT_LT(gap.largest, 0.02);
        EXPECT_LT(gap.mean, 0.002);
        expect_consistent_predictor(h, 4, std::string(multiclass) == "ovr");
    }
}

// Compressed predictors (the default, a budget, every storage) keep the
// sigmoids; their probabilities stay their own decision values' (the
// inference subset's equal the full library's: float storage computes in
// float there, so only float64 is compared to 1e-12, the rest by sums).
TEST(PredictorProbability, EveryBuildAndStorageKeepsTheSigmoids) {
    Handles h = blobs(300);
    train(h, "method=svm C=1 probability=1", 0.5);
    std::vector<double> classes(4);
    for (const char *params : {"", "max_bytes=20000", "storage=float64 landmarks=20", "storage=float32 landmarks=20",
                               "storage=int16 landmarks=20", "storage=int8 landmarks=20"}) {
        SCOPED_TRACE(params);
        kmx_predictor_free(h.predictor);
        h.predictor = nullptr;
        compress(h, params);
        EXPECT_EQ(predictor_info(h.predictor, KMX_PREDICTOR_PROBABILITY), 1);
        ASSERT_EQ(kmx_predictor_classes(classes.data(), 4, h.predictor), KMX_OK);
        EXPECT_EQ(classes, (std::vector<double>{1, 2, 3, 4}));
        if (predictor_info(h.predictor, KMX_PREDICTOR_STORAGE) == KMX_STORAGE_FLOAT64)
            expect_consistent_predictor(h, 4, false);
        const std::vector<double> p = predictor_probabilities(h, 4);
        for (size_t i = 0; i < p.size(); i += 4) EXPECT_NEAR(p[i] + p[i + 1] + p[i + 2] + p[i + 3], 1, 1e-12);
        // Saved and loaded, the sigmoids come back.
        kmx_predictor *loaded = nullptr;
        const std::vector<unsigned char> bytes = blob_of(h.predictor);
        ASSERT_EQ(kmx_predictor_load_from_buffer(&loaded, bytes.data(), int64_t(bytes.size())), KMX_OK);
        std::vector<double> again(p.size());
        EXPECT_EQ(kmx_predictor_predict_probability(again.data(), int64_t(again.size()), nullptr, loaded, h.data),
                  KMX_OK);
        EXPECT_EQ(again, p);
        kmx_predictor_free(loaded);
    }
}

// A model without sigmoids compresses to a predictor without them, which
// says so (KMX_E_INVALID_ARGUMENT naming the cure), as does the inference
// subset (KMX_INFER_E_NO_PROBABILITIES); a regression predictor too.
TEST(PredictorProbability, PredictorsWithoutSigmoidsSaySo) {
    Handles h = blobs(200);
    train(h, "method=svm C=1", 0.5);
    compress(h, "leaves=1 landmarks=50");
    EXPECT_EQ(predictor_info(h.predictor, KMX_PREDICTOR_PROBABILITY), 0);
    std::vector<double> p(200 * 4);
    EXPECT_EQ(kmx_predictor_predict_probability(p.data(), int64_t(p.size()), nullptr, h.predictor, h.data),
              KMX_E_INVALID_ARGUMENT);
    EXPECT_NE(std::string(kmx_last_error()).find("no probability estimates"), std::string::npos) << kmx_last_error();
    const std::vector<unsigned char> bytes = blob_of(h.predictor);
    uint32_t version = 0;
    std::memcpy(&version, bytes.data() + 8, 4);
    EXPECT_EQ(version, 1u);  // as before sigmoids existed
    std::vector<uint64_t> blob((bytes.size() + 7) / 8), arena(1 << 14);
    std::memcpy(blob.data(), bytes.data(), bytes.size());
    kmx_infer_predictor *edge = nullptr;
    ASSERT_EQ(kmx_infer_open(&edge, blob.data(), int64_t(bytes.size()), arena.data(), int64_t(arena.size() * 8)),
              KMX_INFER_OK);
    const double x[2] = {1, 2};
    EXPECT_EQ(kmx_infer_predict_probability(p.data(), 4, edge, x, 2), KMX_INFER_E_NO_PROBABILITIES);
    // Argument checks of the full library's call.
    Handles with = blobs(200);
    train(with, "method=svm C=1 probability=1", 0.5);
    compress(with, "leaves=1 landmarks=50");
    EXPECT_EQ(kmx_predictor_predict_probability(p.data(), int64_t(p.size()) - 1, nullptr, with.predictor, with.data),
              KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(kmx_predictor_predict_probability(nullptr, int64_t(p.size()), nullptr, with.predictor, with.data),
              KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(kmx_predictor_predict_probability(p.data(), int64_t(p.size()), nullptr, nullptr, with.data),
              KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(kmx_predictor_classes(p.data(), 3, with.predictor), KMX_E_INVALID_ARGUMENT);
}
