// test_infer_blob.cpp — the predictor blob (write/read round trip, the C++
// reader's and the C runtime's verdicts on corrupt blobs), the C runtime's
// predictions against the reference of random_predictor.h on every shape,
// the C header export, and the checked-in blobs against the writer.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <thread>

#include "core/context.h"
#include "core/dataset.h"
#include "core/error.h"
#include "io/binary_file.h"
#include "infer/blob_layout.h"
#include "infer/le_bytes.h"
#include "io/crc32.h"
#include "kmx/kmx_infer.h"
#include "predict/c_export.h"
#include "predict/compact_predict.h"
#include "predict/predictor_blob.h"
#include "predict/predictor_storage.h"
#include "random_predictor.h"
#include "svm/probability_prediction.h"
#include "../unit/common/reference_probabilities.h"

using namespace kmx_infer_test;

namespace {

// A blob copied into 8-byte aligned storage (as a flash array would be).
struct AlignedBlob {
    explicit AlignedBlob(const std::vector<unsigned char> &bytes)
        : words((bytes.size() + 7) / 8 + 1), len(bytes.size()) {
        std::memcpy(words.data(), bytes.data(), bytes.size());
    }
    const unsigned char *data() const { return reinterpret_cast<const unsigned char *>(words.data()); }
    unsigned char *data() { return reinterpret_cast<unsigned char *>(words.data()); }
    std::vector<uint64_t> words;
    size_t len;
};

struct OpenPredictor {
    explicit OpenPredictor(const AlignedBlob &blob) {
        int64_t bytes = 0;
        status = kmx_infer_required_bytes(&bytes, blob.data(), int64_t(blob.len));
        if (status != KMX_INFER_OK) return;
        arena.resize(size_t(bytes) / 8 + 1);
        status = kmx_infer_open(&p, blob.data(), blob.len, arena.data(), bytes);
    }
    std::vector<uint64_t> arena;
    kmx_infer_predictor *p = nullptr;
    kmx_infer_status status = KMX_INFER_E_INVALID_ARGUMENT;
};

kmx_status read_status(const unsigned char *data, size_t len) {
    try {
        kmx::read_predictor_blob(data, len);
        return KMX_OK;
    } catch (const kmx::Error &e) {
        return e.status();
    }
}

void expect_same_predictor(const kmx::CompactPredictor &a, const kmx::CompactPredictor &b) {
    EXPECT_EQ(a.kernel.type, b.kernel.type);
    EXPECT_EQ(a.kernel.gamma_for(a.d), b.kernel.gamma);
    EXPECT_EQ(a.kernel.coef0, b.kernel.coef0);
    EXPECT_EQ(a.kernel.degree, b.kernel.degree);
    EXPECT_EQ(a.d, b.d);
    EXPECT_EQ(a.task, b.task);
    EXPECT_EQ(a.multiclass, b.multiclass);
    EXPECT_EQ(a.classes, b.classes);
    EXPECT_EQ(a.outputs, b.outputs);
    EXPECT_EQ(a.triangle_estimate, b.triangle_estimate);
    EXPECT_EQ(a.storage, b.storage);
    EXPECT_EQ(a.top_centers, b.top_centers);
    EXPECT_EQ(a.top_leaf_begin, b.top_leaf_begin);
    ASSERT_EQ(a.leaves.size(), b.leaves.size());
    for (size_t l = 0; l < a.leaves.size(); ++l) {
        const kmx::PredictorLeaf &x = a.leaves[l], &y = b.leaves[l];
        EXPECT_EQ(x.center, y.center);
        EXPECT_EQ(x.m, y.m);
        EXPECT_EQ(x.landmarks, y.landmarks);
        EXPECT_EQ(x.landmark_scale, y.landmark_scale);
        EXPECT_EQ(x.codebook, y.codebook);
        EXPECT_EQ(x.triangle, y.triangle);
        EXPECT_EQ(x.triangle_dist, y.triangle_dist);
        EXPECT_EQ(x.products, y.products);
        EXPECT_EQ(x.product_pairs, y.product_pairs);
        EXPECT_EQ(x.beta, y.beta);
        EXPECT_EQ(x.bias, y.bias);
    }
}

}  // namespace

TEST(PredictorBlob, RoundTripsEveryShape) {
    for (const PredictorShape &s : all_shapes()) {
        SCOPED_TRACE(s.name);
        const kmx::CompactPredictor p = random_predictor(s, 7);
        const std::vector<unsigned char> blob = kmx::write_predictor_blob(p);
        EXPECT_EQ(blob.size() % 8, 0u);
        expect_same_predictor(p, kmx::read_predictor_blob(blob.data(), blob.size()));
    }
}

TEST(PredictorBlob, Float32StoresFloats) {
    PredictorShape s;
    s.storage = PredictorStorage::float64;
    const size_t f64_bytes = kmx::write_predictor_blob(random_predictor(s, 3)).size();
    s.storage = PredictorStorage::float32;
    kmx::CompactPredictor p = random_predictor(s, 3);
    const size_t f32_bytes = kmx::write_predictor_blob(p).size();
    EXPECT_LT(f32_bytes, f64_bytes * 3 / 4);
    // Unrounded doubles are rounded on the way out.
    p.leaves[0].beta[0] = 0.1;
    const std::vector<unsigned char> blob = kmx::write_predictor_blob(p);
    EXPECT_EQ(kmx::read_predictor_blob(blob.data(), blob.size()).leaves[0].beta[0], double(0.1f));
}

// int16 and int8 store the landmarks as codes around the leaf center with a
// scale per leaf (format version 2); float64 and float32 blobs stay version 1.
TEST(PredictorBlob, QuantizedStorageStoresCodesInVersion2) {
    PredictorShape s;
    s.d = 12, s.m = 9, s.triangles = 2, s.products = 2;
    size_t previous = SIZE_MAX;
    for (int storage = 0; storage < 4; ++storage) {  // int4: QuantizedStorageStoresCodebookCodesInVersion4
        s.storage = PredictorStorage(storage);
        SCOPED_TRACE(kmx::storage_name(s.storage));
        const kmx::CompactPredictor p = random_predictor(s, 3);
        const std::vector<unsigned char> blob = kmx::write_predictor_blob(p);
        EXPECT_LT(blob.size(), previous);
        previous = blob.size();
        EXPECT_EQ(kmx_le_u32(blob.data() + KMX_BLOB_OFF_VERSION), kmx::quantizes_landmarks(s.storage) ? 2u : 1u);
        const AlignedBlob aligned(blob);
        OpenPredictor open(aligned);
        ASSERT_EQ(open.status, KMX_INFER_OK);
        EXPECT_EQ(kmx_infer_storage(open.p), storage);
        EXPECT_EQ(kmx_infer_is_float32(open.p), storage != 0);
        for (const kmx::PredictorLeaf &leaf : p.leaves) {
            if (!kmx::quantizes_landmarks(s.storage)) {
                EXPECT_EQ(leaf.landmark_scale, 0.0);
                continue;
            }
            EXPECT_EQ(leaf.landmark_scale, double(float(leaf.landmark_scale)));
            const int32_t limit = kmx::landmark_code_limit(s.storage);
            int32_t widest = 0;
            for (size_t i = 0; i < leaf.landmarks.size(); ++i) {
                const double center = leaf.center[i % size_t(p.d)];
                const int32_t q = kmx::landmark_code(leaf.landmarks[i], center, leaf.landmark_scale, s.storage);
                EXPECT_EQ(leaf.landmarks[i], kmx::landmark_value(center, leaf.landmark_scale, q));
                widest = std::max(widest, std::abs(q));
            }
            EXPECT_EQ(widest, limit);  // the scale is the smallest that fits: the farthest landmark uses the range
        }
    }
    // A landmark off the code grid is rounded to it on the way out.
    s.storage = PredictorStorage::int8;
    kmx::CompactPredictor p = random_predictor(s, 3);
    kmx::PredictorLeaf &leaf = p.leaves[0];
    const double stored = leaf.landmarks[0];
    leaf.landmarks[0] += 0.3 * leaf.landmark_scale;
    const std::vector<unsigned char> blob = kmx::write_predictor_blob(p);
    EXPECT_EQ(kmx::read_predictor_blob(blob.data(), blob.size()).leaves[0].landmarks[0], stored);
}

// int4 stores 4-bit codes into a codebook of 16 floats per feature and leaf
// (format version 4): half int8's code bytes; with at most 16 landmarks a leaf
// every landmark value is its own codebook entry (lossless after float
// rounding), with more the codebook holds Lloyd's levels and each landmark
// value is the nearest of them.
TEST(PredictorBlob, QuantizedStorageStoresCodebookCodesInVersion4) {
    PredictorShape s;
    s.d = 12, s.m = 40, s.top = 1, s.leaves_per_top = 1;
    s.storage = PredictorStorage::int8;
    const size_t int8_bytes = kmx::write_predictor_blob(random_predictor(s, 3)).size();
    s.storage = PredictorStorage::int4;
    const kmx::CompactPredictor p = random_predictor(s, 3);
    const std::vector<unsigned char> blob = kmx::write_predictor_blob(p);
    EXPECT_EQ(kmx_le_u32(blob.data() + KMX_BLOB_OFF_VERSION), 4u);
    // 40 x 12 codes: 480 bytes at int8, 240 at int4, plus 12 x 16 floats of codebook and a leaf word.
    EXPECT_EQ(int64_t(blob.size()) - int64_t(int8_bytes), 12 * 16 * 4 + 8 - 240);
    const AlignedBlob aligned(blob);
    OpenPredictor open(aligned);
    ASSERT_EQ(open.status, KMX_INFER_OK);
    EXPECT_EQ(kmx_infer_storage(open.p), KMX_INFER_STORAGE_INT4);
    const kmx::PredictorLeaf &leaf = p.leaves[0];
    ASSERT_EQ(leaf.codebook.size(), size_t(12 * kmx::kCodebookValues));
    const std::vector<double> drawn = random_predictor(
                                          [&] {
                                              PredictorShape f = s;
                                              f.storage = PredictorStorage::float32;
                                              return f;
                                          }(),
                                          3)
                                          .leaves[0]
                                          .landmarks;  // the same draws, rounded to float only
    for (size_t i = 0; i < leaf.landmarks.size(); ++i) {
        const double *table = &leaf.codebook[(i % 12) * kmx::kCodebookValues];
        double nearest = INFINITY;
        for (int c = 0; c < kmx::kCodebookValues; ++c) nearest = std::min(nearest, std::fabs(drawn[i] - table[c]));
        EXPECT_EQ(std::fabs(drawn[i] - leaf.landmarks[i]), nearest) << i;
    }
    s.m = 16;  // at most 16 values a feature: lossless
    EXPECT_EQ(random_predictor(s, 5).leaves[0].landmarks, random_predictor(
                                                              [&] {
                                                                  PredictorShape f = s;
                                                                  f.storage = PredictorStorage::float32;
                                                                  return f;
                                                              }(),
                                                              5)
                                                              .leaves[0]
                                                              .landmarks);
}

TEST(PredictorBlob, WriterRejectsBadLandmarkScales) {
    PredictorShape s;
    s.storage = PredictorStorage::int16;
    const kmx::CompactPredictor good = random_predictor(s, 4);
    for (double scale : {0.0, -0.5, 0.1, 1e31, double(NAN)}) {
        kmx::CompactPredictor p = good;
        p.leaves[1].landmark_scale = scale;
        EXPECT_THROW(kmx::write_predictor_blob(p), kmx::Error) << scale;
    }
    kmx::CompactPredictor p = good;
    p.storage = PredictorStorage::float32;  // a float storage has no scale
    EXPECT_THROW(kmx::write_predictor_blob(p), kmx::Error);
}

TEST(PredictorBlob, WriterRejectsInconsistentPredictors) {
    PredictorShape s;
    s.products = 2;
    s.triangles = 1;
    const kmx::CompactPredictor good = random_predictor(s, 5);
    auto expect_rejected = [](const kmx::CompactPredictor &p) {
        try {
            kmx::write_predictor_blob(p);
            ADD_FAILURE() << "accepted";
        } catch (const kmx::Error &e) {
            EXPECT_EQ(e.status(), KMX_E_INVALID_ARGUMENT) << e.what();
        }
    };
    kmx::CompactPredictor p = good;
    p.leaves[0].product_pairs[1] = int32_t(p.leaves[0].m);  // pair index == m
    expect_rejected(p);
    p = good;
    p.leaves[0].product_pairs[0] = p.leaves[0].product_pairs[1] + 1;  // i > j
    expect_rejected(p);
    p = good;
    p.kernel.type = KMX_KERNEL_POLYNOMIAL;  // triangles need a stationary kernel
    expect_rejected(p);
    p = good;
    p.leaves[1].beta.pop_back();
    expect_rejected(p);
    p = good;
    p.top_leaf_begin[1] = 0;  // an empty top node
    expect_rejected(p);
    p = good;
    p.outputs = 2;  // binary has one output
    expect_rejected(p);
}

// The C runtime against the reference on every shape: float64 to 1e-12,
// float32, int16 and int8 (which compute in float from the landmarks the
// reference sees dequantized in double) outputs to 1e-4 relative and the same
// labels (rows within rounding of a routing or decision tie are left out of
// the float comparison).
TEST(InferRuntime, MatchesReferenceOnEveryShape) {
    int compared_f32_labels = 0, skipped_f32 = 0;
    for (const PredictorShape &s : all_shapes()) {
        SCOPED_TRACE(s.name);
        const kmx::CompactPredictor p = random_predictor(s, 11);
        const AlignedBlob blob(kmx::write_predictor_blob(p));
        OpenPredictor open(blob);
        ASSERT_EQ(open.status, KMX_INFER_OK) << kmx_infer_status_name(open.status);
        ASSERT_EQ(kmx_infer_outputs(open.p), size_t(p.outputs));
        const int64_t rows = 150;
        const std::vector<double> x = random_rows(12, rows, p.d);
        std::vector<double> outputs(size_t(p.outputs));
        std::vector<double> batch_labels(static_cast<size_t>(rows)), batch_outputs(size_t(rows * p.outputs));
        ASSERT_EQ(kmx_infer_predict_batch(batch_labels.data(), batch_outputs.data(), batch_outputs.size(), open.p,
                                          x.data(), x.size(), size_t(rows)),
                  KMX_INFER_OK);
        const double tolerance = s.float32() ? 1e-4 : 1e-12;
        for (int64_t i = 0; i < rows; ++i) {
            const double *row_x = x.data() + i * p.d;
            const ReferenceRow want = reference_predict(p, row_x);
            double label = 0;
            ASSERT_EQ(kmx_infer_predict(&label, outputs.data(), outputs.size(), open.p, row_x, size_t(p.d)),
                      KMX_INFER_OK);
            EXPECT_EQ(label, batch_labels[size_t(i)]);
            if (s.float32() && (want.route_margin < 1e-3 || want.decision_margin < 1e-3)) {
                ++skipped_f32;
                continue;
            }
            for (int64_t k = 0; k < p.outputs; ++k) {
                const double scale = std::max(1.0, std::fabs(want.outputs[size_t(k)]));
                EXPECT_NEAR(outputs[size_t(k)], want.outputs[size_t(k)], tolerance * scale) << "row " << i;
                EXPECT_EQ(outputs[size_t(k)], batch_outputs[size_t(i * p.outputs + k)]);
            }
            if (p.task == kmx::PredictorTask::regression) {
                EXPECT_NEAR(label, want.label, tolerance * std::max(1.0, std::fabs(want.label)));
            } else {
                EXPECT_EQ(label, want.label) << "row " << i;
            }
            compared_f32_labels += s.float32() ? 1 : 0;
        }
    }
    EXPECT_GT(compared_f32_labels, 20 * skipped_f32);  // the margin filter leaves most rows in
}

// The C runtime against the full library's batched predictor
// (compact_predict.cpp), on every shape, with the same tolerances.
TEST(InferRuntime, MatchesFullLibraryPredictorOnEveryShape) {
    for (const PredictorShape &s : all_shapes()) {
        SCOPED_TRACE(s.name);
        const kmx::CompactPredictor p = random_predictor(s, 13);
        const AlignedBlob blob(kmx::write_predictor_blob(p));
        OpenPredictor open(blob);
        ASSERT_EQ(open.status, KMX_INFER_OK);
        const int64_t rows = 150;
        const std::vector<double> x = random_rows(14, rows, p.d);
        std::vector<double> full_outputs(size_t(rows * p.outputs)), full_labels(static_cast<size_t>(rows));
        kmx::Context ctx;
        kmx::compact_predict(ctx, p, *kmx::Dataset::dense_borrow(x.data(), rows, p.d, nullptr), full_outputs.data(),
                             full_labels.data());
        std::vector<double> labels(static_cast<size_t>(rows)), outputs(size_t(rows * p.outputs));
        ASSERT_EQ(kmx_infer_predict_batch(labels.data(), outputs.data(), outputs.size(), open.p, x.data(), x.size(),
                                          size_t(rows)),
                  KMX_INFER_OK);
        const double tolerance = s.float32() ? 1e-4 : 1e-12;
        for (int64_t i = 0; i < rows; ++i) {
            const ReferenceRow near_tie = reference_predict(p, x.data() + i * p.d);
            if (s.float32() && (near_tie.route_margin < 1e-3 || near_tie.decision_margin < 1e-3)) continue;
            for (int64_t k = 0; k < p.outputs; ++k) {
                const size_t at = size_t(i * p.outputs + k);
                EXPECT_NEAR(outputs[at], full_outputs[at], tolerance * std::max(1.0, std::fabs(full_outputs[at])))
                    << "row " << i;
            }
            if (p.task == kmx::PredictorTask::classification) {
                EXPECT_EQ(labels[size_t(i)], full_labels[size_t(i)]) << "row " << i;
            }
        }
    }
}

TEST(InferRuntime, ReentrantPredictUsesCallerScratch) {
    PredictorShape s;
    s.shape = Shape::ovo, s.classes = 5, s.triangles = 2, s.products = 2;
    const kmx::CompactPredictor p = random_predictor(s, 21);
    const AlignedBlob blob(kmx::write_predictor_blob(p));
    OpenPredictor open(blob);
    ASSERT_EQ(open.status, KMX_INFER_OK);
    const size_t scratch_bytes = kmx_infer_scratch_bytes(open.p);
    std::vector<uint64_t> scratch(scratch_bytes / 8 + 1);
    const std::vector<double> x = random_rows(22, 20, p.d);
    for (int i = 0; i < 20; ++i) {
        double a = 0, b = 0;
        ASSERT_EQ(kmx_infer_predict(&a, nullptr, 0, open.p, x.data() + i * p.d, size_t(p.d)), KMX_INFER_OK);
        ASSERT_EQ(
            kmx_infer_predict_r(&b, nullptr, 0, open.p, x.data() + i * p.d, size_t(p.d), scratch.data(), scratch_bytes),
            KMX_INFER_OK);
        EXPECT_EQ(a, b);
    }
    double label;
    EXPECT_EQ(kmx_infer_predict_r(&label, nullptr, 0, open.p, x.data(), size_t(p.d), scratch.data(), scratch_bytes - 1),
              KMX_INFER_E_ARENA_TOO_SMALL);
    EXPECT_EQ(kmx_infer_predict_r(&label, nullptr, 0, open.p, x.data(), size_t(p.d),
                                  reinterpret_cast<unsigned char *>(scratch.data()) + 4, scratch_bytes),
              KMX_INFER_E_ALIGNMENT);
    EXPECT_EQ(kmx_infer_predict(&label, nullptr, 0, open.p, x.data(), size_t(p.d) - 1), KMX_INFER_E_INVALID_ARGUMENT);
    double one_output;
    EXPECT_EQ(kmx_infer_predict(&label, &one_output, 1, open.p, x.data(), size_t(p.d)), KMX_INFER_E_INVALID_ARGUMENT);
}

// One open predictor, four threads, each with its own scratch: the same
// labels as one thread (the predictor is only read).
TEST(InferRuntime, ThreadsShareOnePredictor) {
    PredictorShape s;
    s.shape = Shape::ovr, s.classes = 4, s.triangles = 2, s.products = 3, s.top = 3, s.leaves_per_top = 3;
    const kmx::CompactPredictor p = random_predictor(s, 51);
    const AlignedBlob blob(kmx::write_predictor_blob(p));
    OpenPredictor open(blob);
    ASSERT_EQ(open.status, KMX_INFER_OK);
    const int64_t rows = 2000;
    const std::vector<double> x = random_rows(52, rows, p.d);
    std::vector<double> want(static_cast<size_t>(rows));
    ASSERT_EQ(kmx_infer_predict_batch(want.data(), nullptr, 0, open.p, x.data(), x.size(), size_t(rows)), KMX_INFER_OK);
    std::vector<std::vector<double>> got(4, std::vector<double>(static_cast<size_t>(rows)));
    std::vector<std::thread> threads;
    const kmx_infer_predictor *shared = open.p;
    for (size_t t = 0; t < got.size(); ++t)
        threads.emplace_back([&, t] {
            std::vector<uint64_t> scratch(kmx_infer_scratch_bytes(shared) / 8 + 1);
            for (int64_t i = 0; i < rows; ++i)
                kmx_infer_predict_r(&got[t][size_t(i)], nullptr, 0, shared, x.data() + i * p.d, size_t(p.d),
                                    scratch.data(), scratch.size() * 8);
        });
    for (std::thread &thread : threads) thread.join();
    for (const std::vector<double> &labels : got) EXPECT_EQ(labels, want);
}

// A truncation, a bit flip (caught by the CRC), and a bit flip with the CRC
// made valid again: both readers must give the same verdict on each.
static void expect_readers_agree_on_corruptions(const std::vector<unsigned char> &good) {
    for (size_t len = 0; len < good.size(); ++len) {
        AlignedBlob cut(good);
        cut.len = len;
        OpenPredictor open(cut);
        EXPECT_EQ(open.status, KMX_INFER_E_FORMAT) << len;
        EXPECT_EQ(read_status(cut.data(), len), KMX_E_FORMAT) << len;
    }
    int accepted_after_fix = 0, rejected_after_fix = 0;
    for (size_t bit = 0; bit < good.size() * 8; ++bit) {
        AlignedBlob bad(good);
        bad.data()[bit / 8] ^= static_cast<unsigned char>(1u << (bit % 8));
        EXPECT_NE(OpenPredictor(bad).status, KMX_INFER_OK) << bit;
        EXPECT_EQ(read_status(bad.data(), bad.len), KMX_E_FORMAT) << bit;
        if (bit / 8 < 16) continue;
        const uint32_t crc = kmx::crc32(bad.data() + 16, bad.len - 16);
        for (int i = 0; i < 4; ++i) bad.data()[12 + i] = static_cast<unsigned char>(crc >> (8 * i));
        const OpenPredictor fixed(bad);
        const kmx_status cpp = read_status(bad.data(), bad.len);
        EXPECT_EQ(fixed.status == KMX_INFER_OK, cpp == KMX_OK)
            << "bit " << bit << ": C says " << kmx_infer_status_name(fixed.status);
        if (fixed.status == KMX_INFER_OK) {
            ++accepted_after_fix;
            double label, x[64] = {0.3, -0.2};
            ASSERT_LE(kmx_infer_features(fixed.p), 64u);
            EXPECT_EQ(kmx_infer_predict(&label, nullptr, 0, fixed.p, x, kmx_infer_features(fixed.p)), KMX_INFER_OK);
        } else {
            ++rejected_after_fix;
        }
    }
    EXPECT_GT(accepted_after_fix, 0);    // flips in β, centers, landmark codes, … are valid predictors
    EXPECT_GT(rejected_after_fix, 100);  // flips in counts, offsets, codes, scales are not
}

// Both readers must agree on every corrupt blob: a truncation, a bit flip
// (caught by the CRC), and a bit flip with the CRC made valid again (caught,
// or harmless, by the field checks: the C++ reader and kmx_infer_open apply
// the same rules, so they accept and reject the same blobs).
TEST(PredictorBlob, ReadersAgreeOnCorruptBlobs) {
    for (int storage = 0; storage < 5; ++storage) {
        PredictorShape s;
        s.d = 2, s.top = 2, s.leaves_per_top = 1, s.m = 2, s.triangles = 1, s.products = 1, s.shape = Shape::ovo;
        s.classes = 3, s.storage = PredictorStorage(storage);
        SCOPED_TRACE(kmx::storage_name(s.storage));
        expect_readers_agree_on_corruptions(kmx::write_predictor_blob(random_predictor(s, 31)));
    }
}

namespace {

// The blob with a header word replaced and its CRC made valid again.
std::vector<unsigned char> with_word(std::vector<unsigned char> blob, size_t offset, uint64_t value, int bytes) {
    for (int i = 0; i < bytes; ++i) blob[offset + size_t(i)] = static_cast<unsigned char>(value >> (8 * i));
    const uint32_t crc = kmx::crc32(blob.data() + 16, blob.size() - 16);
    for (int i = 0; i < 4; ++i) blob[12 + size_t(i)] = static_cast<unsigned char>(crc >> (8 * i));
    return blob;
}

// Both readers' verdicts on a blob: the C runtime's status, and the C++ reader's message ("" if accepted).
std::pair<kmx_infer_status, std::string> verdicts(const std::vector<unsigned char> &blob) {
    const AlignedBlob aligned(blob);
    std::string message;
    try {
        kmx::read_predictor_blob(aligned.data(), aligned.len);
    } catch (const kmx::Error &e) {
        EXPECT_EQ(e.status(), KMX_E_FORMAT);
        message = e.what();
    }
    return {OpenPredictor(aligned).status, message};
}

uint64_t f64_bits(double v) {
    uint64_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    return bits;
}

}  // namespace

// Storage flags and landmark scales the format does not allow, each with a
// valid CRC: both readers refuse them, and the C++ message names the storage.
TEST(PredictorBlob, ReadersRefuseBadStorageFlagsAndScales) {
    PredictorShape s;
    s.storage = PredictorStorage::int8;
    const std::vector<unsigned char> good = kmx::write_predictor_blob(random_predictor(s, 33));
    ASSERT_EQ(verdicts(good).first, KMX_INFER_OK);
    const uint32_t f32 = KMX_BLOB_FLAG_FLOAT32, i16 = KMX_BLOB_FLAG_INT16_LANDMARKS, i8 = KMX_BLOB_FLAG_INT8_LANDMARKS;
    for (uint32_t flags : {i8, i16 | i8 | f32, 8u | i8 | f32, 0u}) {  // (0: a scale word where none may be)
        const auto [status, message] = verdicts(with_word(good, KMX_BLOB_OFF_FLAGS, flags, 4));
        EXPECT_EQ(status, KMX_INFER_E_FORMAT) << flags;
        EXPECT_NE(message.find("corrupt"), std::string::npos) << message;
    }
    EXPECT_NE(verdicts(with_word(good, KMX_BLOB_OFF_FLAGS, i16 | i8 | f32, 4)).second.find("unknown storage flags 0x7"),
              std::string::npos);
    // Quantized landmarks need version 2 (a version-1 leaf record is one word shorter).
    const auto [v1_status, v1_message] = verdicts(with_word(good, KMX_BLOB_OFF_VERSION, 1, 4));
    EXPECT_EQ(v1_status, KMX_INFER_E_FORMAT);
    EXPECT_NE(v1_message.find("version 1, int8 storage"), std::string::npos) << v1_message;
    const size_t scale_at = size_t(kmx_le_u64(good.data() + KMX_BLOB_OFF_LEAF_TABLE_AT)) + 8 * KMX_BLOB_LEAF_SCALE;
    for (double scale : {0.0, -0.25, 0.1, 1e31, double(INFINITY), double(NAN), 1e-39}) {
        const auto [status, message] = verdicts(with_word(good, scale_at, f64_bits(scale), 8));
        EXPECT_EQ(status, KMX_INFER_E_FORMAT) << scale;
        EXPECT_NE(message.find("int8 storage"), std::string::npos) << message;
    }
    EXPECT_EQ(verdicts(with_word(good, scale_at, f64_bits(0.5), 8)).first, KMX_INFER_OK);  // any float scale is valid
    // A newer version than the runtime's is named as such.
    const auto [newer, newer_message] = verdicts(with_word(good, KMX_BLOB_OFF_VERSION, KMX_BLOB_VERSION + 1, 4));
    EXPECT_EQ(newer, KMX_INFER_E_VERSION);
    EXPECT_NE(newer_message.find("reads versions 1 to 4"), std::string::npos) << newer_message;
}

// int4's flag only in version 4 and version 4 only with it; its codebook finite;
// a last odd code's unused high half 0. Each with a valid CRC: both readers refuse.
TEST(PredictorBlob, ReadersRefuseBadCodebookBlobs) {
    PredictorShape s;
    s.d = 3, s.m = 3, s.storage = PredictorStorage::int4;  // 9 codes a leaf: the last byte's high half unused
    const std::vector<unsigned char> good = kmx::write_predictor_blob(random_predictor(s, 35));
    ASSERT_EQ(verdicts(good).first, KMX_INFER_OK);
    EXPECT_EQ(kmx_le_u32(good.data() + KMX_BLOB_OFF_VERSION), 4u);
    const uint32_t f32 = KMX_BLOB_FLAG_FLOAT32, i4 = KMX_BLOB_FLAG_INT4_LANDMARKS, i8 = KMX_BLOB_FLAG_INT8_LANDMARKS;
    for (uint32_t flags : {i4, i4 | i8 | f32, f32, i8 | f32}) {
        const auto [status, message] = verdicts(with_word(good, KMX_BLOB_OFF_FLAGS, flags, 4));
        EXPECT_EQ(status, KMX_INFER_E_FORMAT) << flags;
        EXPECT_NE(message.find("corrupt"), std::string::npos) << message;
    }
    for (uint32_t version : {2u, 3u})
        EXPECT_EQ(verdicts(with_word(good, KMX_BLOB_OFF_VERSION, version, 4)).first, KMX_INFER_E_FORMAT);
    const uint64_t *record =
        reinterpret_cast<const uint64_t *>(good.data() + kmx_le_u64(good.data() + KMX_BLOB_OFF_LEAF_TABLE_AT));
    const size_t codebook_at = size_t(record[KMX_BLOB_LEAF_CODEBOOK_AT]),
                 codes_at = size_t(record[KMX_BLOB_LEAF_LANDMARKS_AT]);
    for (float bad : {float(NAN), float(INFINITY)}) {
        uint32_t bits;
        std::memcpy(&bits, &bad, sizeof bits);
        EXPECT_EQ(verdicts(with_word(good, codebook_at + 4 * 7, bits, 4)).first, KMX_INFER_E_FORMAT) << bad;
    }
    const auto [odd_status, odd_message] = verdicts(with_word(good, codes_at + 4, good[codes_at + 4] | 0x10u, 1));
    EXPECT_EQ(odd_status, KMX_INFER_E_FORMAT);
    EXPECT_NE(odd_message.find("version 4, int4 storage"), std::string::npos) << odd_message;
    EXPECT_EQ(verdicts(with_word(good, codes_at + 3, good[codes_at + 3] ^ 0x11u, 1)).first,
              KMX_INFER_OK);  // any code is valid
    // A leaf record's scale word must stay 0.
    const size_t scale_at = size_t(kmx_le_u64(good.data() + KMX_BLOB_OFF_LEAF_TABLE_AT)) + 8 * KMX_BLOB_LEAF_SCALE;
    EXPECT_EQ(verdicts(with_word(good, scale_at, f64_bits(0.5), 8)).first, KMX_INFER_E_FORMAT);
}

namespace {

// The oldest version that holds the shape: 4 for int4, 3 for sigmoids, 2 for int16/int8, else 1.
uint32_t expected_version(const PredictorShape &s) {
    if (kmx::uses_codebook(s.storage)) return 4;
    return s.sigmoids ? 3u : kmx::quantizes_landmarks(s.storage) ? 2u : 1u;
}

}  // namespace

// Version-1 blobs (the checked-in float64 and float32 ones, written before
// version 2 existed) still open in both readers (as do version 2's, version
// 3's with sigmoids and version 4's).
TEST(PredictorBlob, Version1BlobsStillOpen) {
    const char *data = std::getenv("KMX_INFER_TEST_DATA");
    ASSERT_NE(data, nullptr);
    int version1 = 0;
    for (const CheckedInBlob &b : checked_in_blobs()) {
        const std::vector<unsigned char> file =
            kmx::read_binary_file((std::string(data) + "/" + b.shape.name + ".kmxp").c_str());
        const uint32_t version = kmx_le_u32(file.data() + KMX_BLOB_OFF_VERSION);
        EXPECT_EQ(version, expected_version(b.shape)) << b.shape.name;
        version1 += version == 1;
        EXPECT_EQ(verdicts(file), std::make_pair(KMX_INFER_OK, std::string())) << b.shape.name;
    }
    EXPECT_EQ(version1, 5);
}

TEST(CExport, HeaderHoldsTheBlobAligned) {
    const std::vector<unsigned char> blob = kmx::write_predictor_blob(random_predictor(PredictorShape(), 41));
    const std::string text = kmx::predictor_blob_c_header(blob.data(), blob.size(), "my_model");
    EXPECT_NE(text.find("#ifndef MY_MODEL_H"), std::string::npos);
    EXPECT_NE(text.find("#define MY_MODEL_LEN " + std::to_string(blob.size()) + "\n"), std::string::npos);
    EXPECT_NE(text.find("__attribute__((aligned(8)))"), std::string::npos);
    EXPECT_NE(text.find("KMX_BLOB_ALIGNED(static const unsigned char my_model[" + std::to_string(blob.size()) + "])"),
              std::string::npos);
    // The bytes, read back from the text, are the blob.
    std::vector<unsigned char> parsed;
    for (size_t at = text.find("0x"); at != std::string::npos; at = text.find("0x", at + 4))
        parsed.push_back(static_cast<unsigned char>(std::stoul(text.substr(at + 2, 2), nullptr, 16)));
    EXPECT_EQ(parsed, blob);
    for (const char *bad : {"", "9lives", "my-model", "a b"}) {
        try {
            kmx::predictor_blob_c_header(blob.data(), blob.size(), bad);
            ADD_FAILURE() << "accepted name '" << bad << "'";
        } catch (const kmx::Error &e) {
            EXPECT_EQ(e.status(), KMX_E_INVALID_ARGUMENT);
        }
    }
}

// The checked-in blobs are what the writer makes today (regenerate them with
// make_infer_data when the format changes, and bump the format version).
TEST(PredictorBlob, CheckedInBlobsMatchTheWriter) {
    const char *data = std::getenv("KMX_INFER_TEST_DATA");
    ASSERT_NE(data, nullptr);
    for (const CheckedInBlob &b : checked_in_blobs()) {
        SCOPED_TRACE(b.shape.name);
        const std::vector<unsigned char> file =
            kmx::read_binary_file((std::string(data) + "/" + b.shape.name + ".kmxp").c_str());
        EXPECT_EQ(file, kmx::write_predictor_blob(random_predictor(b.shape, b.seed)));
    }
    const char *edge_dir = std::getenv("KMX_EDGE_DIR");
    ASSERT_NE(edge_dir, nullptr);
    const CheckedInBlob edge = edge_blob();
    EXPECT_EQ(kmx::read_binary_file((std::string(edge_dir) + "/edge_predictor.kmxp").c_str()),
              kmx::write_predictor_blob(random_predictor(edge.shape, edge.seed)));
}

// ------------------------------------------------------------- probabilities

namespace {

// Every classifier shape of all_shapes() with sigmoids.
std::vector<PredictorShape> probability_shapes() {
    std::vector<PredictorShape> shapes;
    for (PredictorShape s : all_shapes()) {
        if (s.shape == Shape::regression) continue;
        s.sigmoids = true;
        shapes.push_back(s);
    }
    return shapes;
}

}  // namespace

// Sigmoids round-trip through the blob (format version 3, or 4 for int4, a
// 152-byte header); the same predictor without them is the version it always was.
TEST(PredictorBlob, SigmoidsRoundTripInVersion3) {
    for (const PredictorShape &s : probability_shapes()) {
        SCOPED_TRACE(s.name);
        const kmx::CompactPredictor p = random_predictor(s, 51);
        const std::vector<unsigned char> blob = kmx::write_predictor_blob(p);
        EXPECT_EQ(kmx_le_u32(blob.data() + KMX_BLOB_OFF_VERSION), expected_version(s));
        EXPECT_EQ(kmx_le_u32(blob.data() + KMX_BLOB_OFF_HEADER_BYTES), 152u);
        const AlignedBlob aligned(blob);
        const kmx::CompactPredictor back = kmx::read_predictor_blob(aligned.data(), aligned.len);
        expect_same_predictor(p, back);
        EXPECT_EQ(back.sigmoids, p.sigmoids);  // doubles in every storage
        kmx::CompactPredictor without = p;
        without.sigmoids.clear();
        const std::vector<unsigned char> old = kmx::write_predictor_blob(without);
        PredictorShape plain = s;
        plain.sigmoids = false;
        EXPECT_EQ(kmx_le_u32(old.data() + KMX_BLOB_OFF_VERSION), expected_version(plain));
        // The header word, the sigmoids and, over a version-1 blob, version 2's scale word per leaf.
        const size_t scale_words = expected_version(plain) == 1 ? p.leaves.size() : 0;
        EXPECT_EQ(blob.size() - old.size(), 8 + 16 * size_t(p.outputs) + 8 * scale_words);
        OpenPredictor open_old{AlignedBlob(old)};
        ASSERT_EQ(open_old.status, KMX_INFER_OK);
        EXPECT_EQ(kmx_infer_has_probabilities(open_old.p), 0);
        OpenPredictor open{aligned};
        ASSERT_EQ(open.status, KMX_INFER_OK);
        EXPECT_EQ(kmx_infer_has_probabilities(open.p), 1);
        // The arena grows by the probabilities' doubles only: the outputs and, past 2 classes, 2k² + k.
        const int64_t k = int64_t(p.classes.size());
        EXPECT_EQ(kmx_infer_scratch_bytes(open.p) - kmx_infer_scratch_bytes(open_old.p),
                  int64_t(sizeof(double)) * (p.outputs + (k > 2 ? 2 * k * k + k : 0)));
    }
}

// The C runtime's probabilities: against the full library's on the same
// blob (its outputs through probabilities_from_outputs) to 1e-12 for float64
// blobs (1e-4 for float ones, whose outputs the C runtime computes in float),
// against the reference written here from the formulas, and rows summing to 1.
TEST(InferRuntime, ProbabilitiesMatchFullLibraryAndReference) {
    for (const PredictorShape &s : probability_shapes()) {
        SCOPED_TRACE(s.name);
        const kmx::CompactPredictor p = random_predictor(s, 53);
        const AlignedBlob blob(kmx::write_predictor_blob(p));
        OpenPredictor open(blob);
        ASSERT_EQ(open.status, KMX_INFER_OK);
        const int64_t rows = 60, k = int64_t(p.classes.size());
        const std::vector<double> x = random_rows(54, rows, p.d);
        std::vector<double> outputs(size_t(rows * p.outputs)), full(size_t(rows * k));
        kmx::Context ctx;
        kmx::compact_predict(ctx, p, *kmx::Dataset::dense_borrow(x.data(), rows, p.d, nullptr), outputs.data(),
                             nullptr);
        kmx::probabilities_from_outputs(k, p.multiclass == KMX_MULTICLASS_OVR, p.sigmoids, outputs.data(), rows,
                                        full.data());
        const double tolerance = s.float32() ? 1e-4 : 1e-12;
        const double coupling = p.multiclass == KMX_MULTICLASS_OVO && k > 2 ? 0.01 / double(k) : 1e-12;
        for (int64_t i = 0; i < rows; ++i) {
            std::vector<double> c(static_cast<size_t>(k));
            ASSERT_EQ(kmx_infer_predict_probability(c.data(), k, open.p, x.data() + i * p.d, p.d), KMX_INFER_OK);
            const std::vector<double> want = test_common::reference_probabilities(
                k, p.multiclass == KMX_MULTICLASS_OVR, p.sigmoids, outputs.data() + i * p.outputs);
            double sum = 0;
            for (int64_t j = 0; j < k; ++j) {
                EXPECT_NEAR(c[size_t(j)], full[size_t(i * k + j)], tolerance) << "row " << i << " class " << j;
                EXPECT_NEAR(full[size_t(i * k + j)], want[size_t(j)], coupling) << "row " << i << " class " << j;
                EXPECT_GT(c[size_t(j)], 0);
                sum += c[size_t(j)];
            }
            EXPECT_NEAR(sum, 1, 1e-12);
        }
    }
}

// kmx_infer_predict_probability_r with the caller's scratch: the same
// numbers; its argument checks; a blob without sigmoids says so.
TEST(InferRuntime, ProbabilityArgumentsAndBlobsWithoutSigmoids) {
    PredictorShape s;
    s.shape = Shape::ovo, s.classes = 4, s.sigmoids = true;
    const kmx::CompactPredictor p = random_predictor(s, 55);
    const AlignedBlob blob(kmx::write_predictor_blob(p));
    OpenPredictor open(blob);
    ASSERT_EQ(open.status, KMX_INFER_OK);
    const std::vector<double> x = random_rows(56, 1, p.d);
    std::vector<double> a(4), b(4);
    ASSERT_EQ(kmx_infer_predict_probability(a.data(), 4, open.p, x.data(), p.d), KMX_INFER_OK);
    std::vector<uint64_t> scratch(size_t(kmx_infer_scratch_bytes(open.p)) / 8);
    ASSERT_EQ(kmx_infer_predict_probability_r(b.data(), 4, open.p, x.data(), p.d, scratch.data(),
                                              int64_t(scratch.size() * 8)),
              KMX_INFER_OK);
    EXPECT_EQ(a, b);
    EXPECT_EQ(kmx_infer_predict_probability_r(b.data(), 4, open.p, x.data(), p.d, scratch.data(),
                                              int64_t(scratch.size() * 8) - 8),
              KMX_INFER_E_ARENA_TOO_SMALL);
    EXPECT_EQ(kmx_infer_predict_probability(b.data(), 3, open.p, x.data(), p.d), KMX_INFER_E_INVALID_ARGUMENT);
    EXPECT_EQ(kmx_infer_predict_probability(nullptr, 4, open.p, x.data(), p.d), KMX_INFER_E_INVALID_ARGUMENT);
    EXPECT_EQ(kmx_infer_predict_probability(b.data(), 4, open.p, x.data(), p.d - 1), KMX_INFER_E_INVALID_ARGUMENT);
    EXPECT_EQ(kmx_infer_predict_probability(b.data(), 4, nullptr, x.data(), p.d), KMX_INFER_E_INVALID_ARGUMENT);
    kmx::CompactPredictor without = p;
    without.sigmoids.clear();
    OpenPredictor open_without{AlignedBlob(kmx::write_predictor_blob(without))};
    ASSERT_EQ(open_without.status, KMX_INFER_OK);
    EXPECT_EQ(kmx_infer_predict_probability(b.data(), 4, open_without.p, x.data(), p.d), KMX_INFER_E_NO_PROBABILITIES);
    EXPECT_STREQ(kmx_infer_status_name(KMX_INFER_E_NO_PROBABILITIES), "KMX_INFER_E_NO_PROBABILITIES");
}

// A corrupt sigmoids section, its CRC made valid again: both readers refuse
// it (the flag without version 3 or its header word, a header of the wrong
// length, non-finite values, an offset outside the blob or misaligned,
// sigmoids on a regression predictor).
TEST(PredictorBlob, ReadersRefuseBadSigmoids) {
    PredictorShape s;
    s.shape = Shape::ovr, s.classes = 3, s.sigmoids = true;
    const std::vector<unsigned char> good = kmx::write_predictor_blob(random_predictor(s, 57));
    ASSERT_EQ(verdicts(good).first, KMX_INFER_OK);
    const uint64_t at = kmx_le_u64(good.data() + KMX_BLOB_OFF_SIGMOIDS_AT);
    auto refused = [](const std::vector<unsigned char> &blob, const char *what) {
        const auto [status, message] = verdicts(blob);
        EXPECT_EQ(status, KMX_INFER_E_FORMAT) << what;
        EXPECT_NE(message.find("corrupt"), std::string::npos) << what << ": " << message;
    };
    refused(with_word(good, KMX_BLOB_OFF_VERSION, 2, 4), "sigmoids in version 2");
    refused(with_word(good, KMX_BLOB_OFF_HEADER_BYTES, 144, 4), "a 144-byte header with sigmoids");
    refused(with_word(good, KMX_BLOB_OFF_FLAGS, 0, 4), "a 152-byte header without sigmoids");
    refused(with_word(with_word(good, KMX_BLOB_OFF_FLAGS, 0, 4), KMX_BLOB_OFF_HEADER_BYTES, 144, 4),
            "version 3 without sigmoids");
    for (double bad : {double(NAN), double(INFINITY), -double(INFINITY)})
        for (uint64_t word = 0; word < 6; ++word)
            refused(with_word(good, at + 8 * word, f64_bits(bad), 8), "a non-finite A or B");
    refused(with_word(good, KMX_BLOB_OFF_SIGMOIDS_AT, good.size() - 40, 8), "sigmoids past the end");
    refused(with_word(good, KMX_BLOB_OFF_SIGMOIDS_AT, at + 4, 8), "misaligned sigmoids");
    refused(with_word(good, KMX_BLOB_OFF_SIGMOIDS_AT, uint64_t(1) << 62, 8), "an offset far outside");
    // A regression predictor with one output's sigmoid.
    PredictorShape r;
    r.shape = Shape::regression, r.classes = 0;
    kmx::CompactPredictor regression = random_predictor(r, 58);
    regression.task =
        kmx::PredictorTask::classification;  // the writer refuses sigmoids on regression: write a classifier's
    regression.classes = {0, 1};
    regression.sigmoids = {-1.5, 0.25};
    std::vector<unsigned char> with = kmx::write_predictor_blob(regression);
    ASSERT_EQ(verdicts(with).first, KMX_INFER_OK);
    with = with_word(with, KMX_BLOB_OFF_CLASSES, 0, 8);
    refused(with_word(with, KMX_BLOB_OFF_TASK, 1, 4), "sigmoids on a regression predictor");
    // Every bit of a small blob with sigmoids: both readers agree.
    PredictorShape tiny;
    tiny.d = 2, tiny.top = 1, tiny.leaves_per_top = 1, tiny.m = 2, tiny.sigmoids = true;
    expect_readers_agree_on_corruptions(kmx::write_predictor_blob(random_predictor(tiny, 59)));
}

// The writer refuses sigmoids that do not fit the predictor: not two per
// output, a non-finite one, or on a regression predictor.
TEST(PredictorBlob, WriterRejectsBadSigmoids) {
    PredictorShape s;
    s.shape = Shape::ovo, s.classes = 3, s.sigmoids = true;
    const kmx::CompactPredictor good = random_predictor(s, 61);
    auto rejected = [](const kmx::CompactPredictor &p, const char *what) {
        try {
            kmx::write_predictor_blob(p);
            ADD_FAILURE() << "accepted " << what;
        } catch (const kmx::Error &e) {
            EXPECT_EQ(e.status(), KMX_E_INVALID_ARGUMENT) << what;
            EXPECT_NE(std::string(e.what()).find("sigmoid"), std::string::npos) << e.what();
        }
    };
    kmx::CompactPredictor p = good;
    p.sigmoids.pop_back();
    rejected(p, "5 values for 3 outputs");
    p = good;
    p.sigmoids.push_back(-1), p.sigmoids.push_back(0);
    rejected(p, "4 sigmoids for 3 outputs");
    p = good;
    p.sigmoids[3] = NAN;
    rejected(p, "a NaN B");
    PredictorShape r;
    r.shape = Shape::regression, r.classes = 0;
    p = random_predictor(r, 62);
    p.sigmoids = {-1, 0};
    rejected(p, "a regression predictor's sigmoid");
}
