// predictor_blob.cpp — CompactPredictor ⇄ predictor blob (layout in
// predictor_blob.h, offsets in infer/blob_layout.h).
#include "predictor_blob.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

#include "core/error.h"
#include "infer/blob_layout.h"
#include "infer/le_bytes.h"
#include "kmx/kmx_infer.h"
#include "io/byte_codec.h"
#include "io/crc32.h"
#include "compact_predict.h"
#include "predictor_storage.h"

namespace kmx {

namespace {

// The oldest format version that holds the predictor (older runtimes read
// float64 and float32 blobs; version 3 only for sigmoids, 4 for int4), and
// its words per leaf record.
uint32_t format_version(const CompactPredictor &p) {
    if (uses_codebook(p.storage)) return 4;
    if (p.probabilities()) return 3;
    return quantizes_landmarks(p.storage) ? 2 : 1;
}
size_t leaf_words(uint32_t version) {
    return version == 1 ? KMX_BLOB_LEAF_WORDS_V1 : version == 4 ? KMX_BLOB_LEAF_WORDS_V4 : KMX_BLOB_LEAF_WORDS_V2;
}

uint32_t storage_flags(PredictorStorage storage) {
    const uint32_t real = stores_float(storage) ? KMX_BLOB_FLAG_FLOAT32 : 0;
    if (storage == PredictorStorage::int16) return real | KMX_BLOB_FLAG_INT16_LANDMARKS;
    if (storage == PredictorStorage::int8) return real | KMX_BLOB_FLAG_INT8_LANDMARKS;
    if (storage == PredictorStorage::int4) return real | KMX_BLOB_FLAG_INT4_LANDMARKS;
    return real;
}

uint32_t blob_flags(const CompactPredictor &p) {
    return storage_flags(p.storage) | (p.probabilities() ? KMX_BLOB_FLAG_SIGMOIDS : 0);
}

uint32_t header_bytes(const CompactPredictor &p) {
    return p.probabilities() ? KMX_BLOB_HEADER_BYTES_SIGMOIDS : KMX_BLOB_HEADER_BYTES;
}

// The inverse of storage_flags on the flags kmx_infer_open accepts (the sigmoids' flag aside).
PredictorStorage storage_of(uint32_t flags) {
    if (flags & KMX_BLOB_FLAG_INT16_LANDMARKS) return PredictorStorage::int16;
    if (flags & KMX_BLOB_FLAG_INT8_LANDMARKS) return PredictorStorage::int8;
    if (flags & KMX_BLOB_FLAG_INT4_LANDMARKS) return PredictorStorage::int4;
    return flags & KMX_BLOB_FLAG_FLOAT32 ? PredictorStorage::float32 : PredictorStorage::float64;
}

// ------------------------------------------------------------ shape rules

// check_compact_predictor's rules (sizes, ranges, finite values, increasing
// classes, one output for regression), plus the codes the blob stores;
// kmx_infer_open applies the same. `status` says whose fault a failure is.
void check_predictor(const CompactPredictor &p, kmx_status status) {
    const int type = int(p.kernel.type);
    if (type < KMX_KERNEL_RBF || type > KMX_KERNEL_SIGMOID) fail(status, "predictor blob: unknown kernel %d", type);
    if (p.kernel.type == KMX_KERNEL_POLYNOMIAL && p.kernel.degree < 1)
        fail(status, "predictor blob: polynomial degree %d below 1", p.kernel.degree);
    if (!std::isfinite(p.kernel.coef0)) fail(status, "predictor blob: coef0 is not finite");
    if (p.multiclass != KMX_MULTICLASS_OVO && p.multiclass != KMX_MULTICLASS_OVR)
        fail(status, "predictor blob: unknown multiclass scheme %d", int(p.multiclass));
    if (p.task == PredictorTask::regression && !p.classes.empty())
        fail(status, "predictor blob: a regression predictor has no classes");
    try {
        check_compact_predictor(p);
    } catch (const Error &e) {
        if (e.status() == status) throw;
        fail(status, "predictor blob: %s", e.what());
    }
}

// ----------------------------------------------------------------- writer

class BlobWriter {
public:
    explicit BlobWriter(PredictorStorage storage) : storage_(storage), float32_(stores_float(storage)) {}

    ByteWriter &bytes() { return out_; }
    void align() {
        static const unsigned char zeros[KMX_BLOB_ALIGN] = {};
        out_.raw(zeros, (KMX_BLOB_ALIGN - out_.size() % KMX_BLOB_ALIGN) % KMX_BLOB_ALIGN);
    }
    uint64_t reals(const std::vector<double> &values) {
        const uint64_t at = start();
        for (double v : values) float32_ ? out_.u32(float_bits(float(v))) : out_.f64(v);
        return at;
    }
    uint64_t doubles(const std::vector<double> &values) {
        const uint64_t at = start();
        for (double v : values) out_.f64(v);
        return at;
    }
    uint64_t words(const std::vector<int64_t> &values) {
        const uint64_t at = start();
        for (int64_t v : values) out_.u64(uint64_t(v));
        return at;
    }
    uint64_t int32s(const std::vector<int32_t> &values) {
        const uint64_t at = start();
        for (int32_t v : values) out_.i32(v);
        return at;
    }
    // The leaf's landmarks: reals, or their int16/int8 codes (little-endian),
    // or their int4 codes (two per byte, the even one low).
    uint64_t landmarks(const PredictorLeaf &leaf) {
        if (uses_codebook(storage_)) return nibbles(leaf);
        if (!quantizes_landmarks(storage_)) return reals(leaf.landmarks);
        const uint64_t at = start();
        const size_t d = leaf.center.size();
        const bool two_bytes = storage_ == PredictorStorage::int16;
        for (size_t i = 0; i < leaf.landmarks.size(); ++i) {
            const uint16_t code =
                uint16_t(landmark_code(leaf.landmarks[i], leaf.center[i % d], leaf.landmark_scale, storage_));
            const unsigned char bytes[2] = {static_cast<unsigned char>(code), static_cast<unsigned char>(code >> 8)};
            out_.raw(bytes, two_bytes ? 2 : 1);
        }
        return at;
    }

private:
    uint64_t nibbles(const PredictorLeaf &leaf) {
        const uint64_t at = start();
        const size_t d = leaf.center.size();
        unsigned char byte = 0;
        for (size_t i = 0; i < leaf.landmarks.size(); ++i) {
            const auto code =
                static_cast<unsigned char>(codebook_code(leaf.landmarks[i], &leaf.codebook[(i % d) * kCodebookValues]));
            byte = static_cast<unsigned char>(i % 2 ? byte | code << 4 : code);
            if (i % 2) out_.raw(&byte, 1);
        }
        if (leaf.landmarks.size() % 2) out_.raw(&byte, 1);
        return at;
    }
    uint64_t start() {
        align();
        return out_.size();
    }
    static uint32_t float_bits(float v) {
        uint32_t bits;
        std::memcpy(&bits, &v, sizeof bits);
        return bits;
    }
    PredictorStorage storage_;
    bool float32_;
    ByteWriter out_;
};

void write_header(ByteWriter &out, const CompactPredictor &p) {
    out.raw(KMX_BLOB_MAGIC, KMX_BLOB_MAGIC_BYTES);
    out.u32(format_version(p));
    out.u32(0);  // CRC, patched last
    out.u64(0);  // total bytes, patched
    out.u32(header_bytes(p));
    out.u32(blob_flags(p));
    out.u32(uint32_t(p.kernel.type));
    out.i32(p.kernel.degree);
    out.f64(p.kernel.gamma_for(p.d));
    out.f64(p.kernel.coef0);
    out.u32(p.task == PredictorTask::regression ? 1 : 0);
    out.u32(uint32_t(p.multiclass));
    out.u32(uint32_t(p.triangle_estimate));
    out.u32(0);
    for (int64_t count : {p.d, p.outputs, int64_t(p.classes.size()), p.top(), int64_t(p.leaves.size())})
        out.u64(uint64_t(count));
    for (int i = 0; i < 4; ++i) out.u64(0);  // array offsets, patched
    if (p.probabilities()) out.u64(0);       // the sigmoids' offset, patched
}

// The leaf's arrays, then its record in the table at `record_at`.
void write_leaf(BlobWriter &writer, const PredictorLeaf &leaf, size_t record_at, size_t words) {
    const uint64_t offsets[] = {writer.reals(leaf.center),        writer.landmarks(leaf),
                                writer.reals(leaf.triangle_dist), writer.int32s(leaf.product_pairs),
                                writer.reals(leaf.beta),          writer.reals(leaf.bias)};
    ByteWriter &out = writer.bytes();
    out.patch_u64(record_at + 8 * KMX_BLOB_LEAF_M, uint64_t(leaf.m));
    out.patch_u64(record_at + 8 * KMX_BLOB_LEAF_TRIANGLE, uint64_t(leaf.triangle));
    out.patch_u64(record_at + 8 * KMX_BLOB_LEAF_PRODUCTS, uint64_t(leaf.products));
    for (int i = 0; i < 6; ++i) out.patch_u64(record_at + 8 * size_t(KMX_BLOB_LEAF_CENTER_AT + i), offsets[i]);
    if (words > KMX_BLOB_LEAF_CODEBOOK_AT)
        out.patch_u64(record_at + 8 * KMX_BLOB_LEAF_CODEBOOK_AT, writer.reals(leaf.codebook));
    if (words > KMX_BLOB_LEAF_SCALE) {
        uint64_t scale_bits;
        std::memcpy(&scale_bits, &leaf.landmark_scale, sizeof scale_bits);
        out.patch_u64(record_at + 8 * KMX_BLOB_LEAF_SCALE, scale_bits);
    }
}

// ----------------------------------------------------------------- reader

// Reads arrays out of a blob the inference subset has validated (offsets,
// alignment, sizes, values): it decodes, it does not check again.
class BlobReader {
public:
    BlobReader(const unsigned char *blob, bool float32) : blob_(blob), float32_(float32) {}

    std::vector<double> reals(uint64_t at, uint64_t count) const {
        std::vector<double> values(count);
        for (size_t i = 0; i < count; ++i)
            values[i] = float32_ ? double(to_float(kmx_le_u32(blob_ + at + 4 * i))) : f64(blob_ + at + 8 * i);
        return values;
    }
    std::vector<double> doubles(uint64_t at, uint64_t count) const {
        std::vector<double> values(count);
        for (size_t i = 0; i < count; ++i) values[i] = f64(blob_ + at + 8 * i);
        return values;
    }
    std::vector<uint64_t> words(uint64_t at, uint64_t count) const {
        std::vector<uint64_t> values(count);
        for (size_t i = 0; i < count; ++i) values[i] = kmx_le_u64(blob_ + at + 8 * i);
        return values;
    }
    std::vector<int32_t> int32s(uint64_t at, uint64_t count) const {
        std::vector<int32_t> values(count);
        for (size_t i = 0; i < count; ++i) values[i] = int32_t(kmx_le_u32(blob_ + at + 4 * i));
        return values;
    }
    // count int4 codes, two per byte (the even one low).
    std::vector<int32_t> nibbles(uint64_t at, uint64_t count) const {
        std::vector<int32_t> values(count);
        for (size_t i = 0; i < count; ++i) values[i] = (blob_[at + i / 2] >> (4 * (i % 2))) & 15;
        return values;
    }
    // count int16 (two_bytes) or int8 codes, little-endian.
    std::vector<int32_t> codes(uint64_t at, uint64_t count, bool two_bytes) const {
        std::vector<int32_t> values(count);
        for (size_t i = 0; i < count; ++i)
            values[i] =
                two_bytes ? int16_t(uint16_t(blob_[at + 2 * i] | blob_[at + 2 * i + 1] << 8)) : int8_t(blob_[at + i]);
        return values;
    }

private:
    static double f64(const unsigned char *at) {
        const uint64_t bits = kmx_le_u64(at);
        double v;
        std::memcpy(&v, &bits, sizeof v);
        return v;
    }
    static float to_float(uint32_t bits) {
        float v;
        std::memcpy(&v, &bits, sizeof v);
        return v;
    }
    const unsigned char *blob_;
    bool float32_;
};

// What the header says the blob stores, in words ("" when it is too short
// to say): only a description, kmx_infer_open is the judge.
std::string header_storage(const unsigned char *blob, size_t len) {
    if (len < KMX_BLOB_HEADER_BYTES) return "";
    const uint32_t flags = kmx_le_u32(blob + KMX_BLOB_OFF_FLAGS), version = kmx_le_u32(blob + KMX_BLOB_OFF_VERSION);
    const uint32_t storage = flags & ~KMX_BLOB_FLAG_SIGMOIDS;
    char text[112];
    if (storage == storage_flags(storage_of(storage)))
        std::snprintf(text, sizeof text, "version %u, %s storage%s, ", version, storage_name(storage_of(storage)),
                      storage != flags ? " with sigmoids" : "");
    else
        std::snprintf(text, sizeof text, "version %u, unknown storage flags 0x%x, ", version, flags);
    return text;
}

// What the inference subset's status means for this blob, in words.
std::string blob_problem(kmx_infer_status status, const unsigned char *blob, size_t len) {
    char text[256];
    if (status == KMX_INFER_E_VERSION)
        std::snprintf(text, sizeof text, "format version %u, this library reads versions 1 to %u",
                      kmx_le_u32(blob + KMX_BLOB_OFF_VERSION), unsigned(KMX_BLOB_VERSION));
    else if (status == KMX_INFER_E_UNSUPPORTED)
        std::snprintf(text, sizeof text, "blobs are read on little-endian machines only");
    else if (len < KMX_BLOB_MAGIC_BYTES || std::memcmp(blob, KMX_BLOB_MAGIC, KMX_BLOB_MAGIC_BYTES) != 0)
        std::snprintf(text, sizeof text, "bad magic (not a kmx predictor blob)");
    else
        std::snprintf(text, sizeof text,
                      "corrupt or truncated (%s%zu bytes): its length, CRC-32, storage flags, array bounds, landmark "
                      "scales, sigmoids or values are wrong (%s)",
                      header_storage(blob, len).c_str(), len, kmx_infer_status_name(status));
    return text;
}

// The one check of a blob's structure: the inference subset's
// (kmx_infer_required_bytes validates all of it, as kmx_infer_open does).
void validate_blob(const unsigned char *blob, size_t len) {
    std::vector<uint64_t> aligned;  // the subset reads 8-byte aligned blobs
    const unsigned char *at = blob;
    if (reinterpret_cast<uintptr_t>(blob) % 8 != 0) {
        aligned.resize(len / 8 + 1);
        std::memcpy(aligned.data(), blob, len);
        at = reinterpret_cast<const unsigned char *>(aligned.data());
    }
    int64_t arena_bytes = 0;
    const kmx_infer_status status = kmx_infer_required_bytes(&arena_bytes, at, int64_t(len));
    if (status != KMX_INFER_OK) fail(KMX_E_FORMAT, "predictor blob: %s", blob_problem(status, blob, len).c_str());
}

// Header scalars (after the envelope) into p; returns the flags word.
uint32_t read_scalars(ByteReader &header, CompactPredictor &p) {
    const uint32_t flags = header.u32();
    p.kernel.type = kmx_kernel_type(header.u32());
    p.kernel.degree = header.i32();
    p.kernel.gamma = header.f64();
    p.kernel.coef0 = header.f64();
    const uint32_t task = header.u32(), multiclass = header.u32(), estimate = header.u32();
    header.u32();  // reserved
    p.task = task == 1 ? PredictorTask::regression : PredictorTask::classification;
    p.multiclass = kmx_multiclass(multiclass);
    p.triangle_estimate = TriangleEstimate(estimate);
    p.storage = storage_of(flags & ~KMX_BLOB_FLAG_SIGMOIDS);
    return flags;
}

// The landmarks of a leaf whose center is read: reals, or codes dequantized.
void read_landmarks(const BlobReader &reader, const uint64_t *record, const CompactPredictor &p, PredictorLeaf &leaf) {
    const uint64_t at = record[KMX_BLOB_LEAF_LANDMARKS_AT], count = uint64_t(leaf.m) * uint64_t(p.d);
    if (uses_codebook(p.storage)) {
        leaf.codebook = reader.reals(record[KMX_BLOB_LEAF_CODEBOOK_AT], uint64_t(p.d) * kCodebookValues);
        const std::vector<int32_t> codes = reader.nibbles(at, count);
        leaf.landmarks.resize(codes.size());
        for (size_t i = 0; i < codes.size(); ++i)
            leaf.landmarks[i] = leaf.codebook[(i % size_t(p.d)) * kCodebookValues + size_t(codes[i])];
        return;
    }
    if (!quantizes_landmarks(p.storage)) {
        leaf.landmarks = reader.reals(at, count);
        return;
    }
    std::memcpy(&leaf.landmark_scale, record + KMX_BLOB_LEAF_SCALE, sizeof leaf.landmark_scale);
    const std::vector<int32_t> codes = reader.codes(at, count, p.storage == PredictorStorage::int16);
    leaf.landmarks.resize(codes.size());
    for (size_t i = 0; i < codes.size(); ++i)
        leaf.landmarks[i] = landmark_value(leaf.center[i % size_t(p.d)], leaf.landmark_scale, codes[i]);
}

PredictorLeaf read_leaf(const BlobReader &reader, const uint64_t *record, const CompactPredictor &p) {
    PredictorLeaf leaf;
    leaf.m = int64_t(record[KMX_BLOB_LEAF_M]);
    leaf.triangle = int64_t(record[KMX_BLOB_LEAF_TRIANGLE]);
    leaf.products = int64_t(record[KMX_BLOB_LEAF_PRODUCTS]);
    const uint64_t m = uint64_t(leaf.m), d = uint64_t(p.d), outputs = uint64_t(p.outputs);
    leaf.center = reader.reals(record[KMX_BLOB_LEAF_CENTER_AT], d);
    read_landmarks(reader, record, p, leaf);
    leaf.triangle_dist = reader.reals(record[KMX_BLOB_LEAF_TRIANGLE_DIST_AT], uint64_t(leaf.triangle) * m);
    leaf.product_pairs = reader.int32s(record[KMX_BLOB_LEAF_PAIRS_AT], 2 * uint64_t(leaf.products));
    leaf.beta = reader.reals(record[KMX_BLOB_LEAF_BETA_AT], uint64_t(leaf.features()) * outputs);
    leaf.bias = reader.reals(record[KMX_BLOB_LEAF_BIAS_AT], outputs);
    return leaf;
}

}  // namespace

std::vector<unsigned char> write_predictor_blob(const CompactPredictor &predictor) {
    check_predictor(predictor, KMX_E_INVALID_ARGUMENT);
    BlobWriter writer(predictor.storage);
    ByteWriter &out = writer.bytes();
    const size_t words = leaf_words(format_version(predictor));
    write_header(out, predictor);
    out.patch_u64(KMX_BLOB_OFF_CLASSES_AT, writer.doubles(predictor.classes));
    out.patch_u64(KMX_BLOB_OFF_TOP_CENTERS_AT, writer.reals(predictor.top_centers));
    out.patch_u64(KMX_BLOB_OFF_TOP_LEAF_BEGIN_AT, writer.words(predictor.top_leaf_begin));
    const size_t table_at = size_t(writer.words(std::vector<int64_t>(predictor.leaves.size() * words, 0)));
    out.patch_u64(KMX_BLOB_OFF_LEAF_TABLE_AT, table_at);
    for (size_t l = 0; l < predictor.leaves.size(); ++l)
        write_leaf(writer, predictor.leaves[l], table_at + l * 8 * words, words);
    if (predictor.probabilities()) out.patch_u64(KMX_BLOB_OFF_SIGMOIDS_AT, writer.doubles(predictor.sigmoids));
    writer.align();
    out.patch_u64(KMX_BLOB_OFF_TOTAL_BYTES, out.size());
    out.patch_u32(KMX_BLOB_OFF_CRC, crc32(out.bytes().data() + KMX_BLOB_CRC_BEGIN, out.size() - KMX_BLOB_CRC_BEGIN));
    return std::move(out.bytes());
}

CompactPredictor read_predictor_blob(const void *blob_pointer, size_t len) {
    if (!blob_pointer) fail(KMX_E_INVALID_ARGUMENT, "predictor blob: NULL buffer");
    const unsigned char *blob = static_cast<const unsigned char *>(blob_pointer);
    validate_blob(blob, len);
    const bool sigmoids = (kmx_le_u32(blob + KMX_BLOB_OFF_FLAGS) & KMX_BLOB_FLAG_SIGMOIDS) != 0;
    const size_t header_len = sigmoids ? KMX_BLOB_HEADER_BYTES_SIGMOIDS : KMX_BLOB_HEADER_BYTES;
    ByteReader header(blob + KMX_BLOB_OFF_FLAGS, header_len - KMX_BLOB_OFF_FLAGS, "predictor blob header");
    CompactPredictor p;
    const uint32_t flags = read_scalars(header, p);
    const BlobReader reader(blob, (flags & KMX_BLOB_FLAG_FLOAT32) != 0);
    const size_t words = leaf_words(kmx_le_u32(blob + KMX_BLOB_OFF_VERSION));
    p.d = int64_t(header.u64());
    p.outputs = int64_t(header.u64());
    const uint64_t classes = header.u64(), top = header.u64(), leaves = header.u64();
    const uint64_t classes_at = header.u64(), centers_at = header.u64(), begin_at = header.u64(),
                   table_at = header.u64();
    if (sigmoids) p.sigmoids = reader.doubles(header.u64(), 2 * uint64_t(p.outputs));
    header.finish();
    p.classes = reader.doubles(classes_at, classes);
    p.top_centers = reader.reals(centers_at, top * uint64_t(p.d));
    for (uint64_t begin : reader.words(begin_at, top + 1)) p.top_leaf_begin.push_back(int64_t(begin));
    const std::vector<uint64_t> table = reader.words(table_at, leaves * words);
    for (uint64_t l = 0; l < leaves; ++l) p.leaves.push_back(read_leaf(reader, table.data() + l * words, p));
    return p;
}

}  // namespace kmx
