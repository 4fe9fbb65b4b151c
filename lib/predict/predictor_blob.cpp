// predictor_blob.cpp — CompactPredictor ⇄ predictor blob (layout in
// predictor_blob.h, offsets in infer/blob_layout.h).
#include "predictor_blob.h"

#include <cmath>
#include <cstdint>
#include <cstring>

#include "core/error.h"
#include "infer/blob_layout.h"
#include "io/byte_codec.h"
#include "io/crc32.h"
#include "compact_predict.h"

namespace kmx {

namespace {

constexpr int kLeafWords = KMX_BLOB_LEAF_WORDS;

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
    explicit BlobWriter(bool float32) : float32_(float32) {}

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

private:
    uint64_t start() {
        align();
        return out_.size();
    }
    static uint32_t float_bits(float v) {
        uint32_t bits;
        std::memcpy(&bits, &v, sizeof bits);
        return bits;
    }
    bool float32_;
    ByteWriter out_;
};

void write_header(ByteWriter &out, const CompactPredictor &p) {
    out.raw(KMX_BLOB_MAGIC, KMX_BLOB_MAGIC_BYTES);
    out.u32(KMX_BLOB_VERSION);
    out.u32(0);  // CRC, patched last
    out.u64(0);  // total bytes, patched
    out.u32(KMX_BLOB_HEADER_BYTES);
    out.u32(p.float32 ? KMX_BLOB_FLAG_FLOAT32 : 0);
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
}

// The leaf's arrays, then its record in the table at `record_at`.
void write_leaf(BlobWriter &writer, const PredictorLeaf &leaf, size_t record_at) {
    const uint64_t offsets[] = {writer.reals(leaf.center),        writer.reals(leaf.landmarks),
                                writer.reals(leaf.triangle_dist), writer.int32s(leaf.product_pairs),
                                writer.reals(leaf.beta),          writer.reals(leaf.bias)};
    ByteWriter &out = writer.bytes();
    out.patch_u64(record_at + 8 * KMX_BLOB_LEAF_M, uint64_t(leaf.m));
    out.patch_u64(record_at + 8 * KMX_BLOB_LEAF_TRIANGLE, uint64_t(leaf.triangle));
    out.patch_u64(record_at + 8 * KMX_BLOB_LEAF_PRODUCTS, uint64_t(leaf.products));
    for (int i = 0; i < 6; ++i) out.patch_u64(record_at + 8 * size_t(KMX_BLOB_LEAF_CENTER_AT + i), offsets[i]);
}

// ----------------------------------------------------------------- reader

uint32_t load_u32(const unsigned char *at) {
    return uint32_t(at[0]) | uint32_t(at[1]) << 8 | uint32_t(at[2]) << 16 | uint32_t(at[3]) << 24;
}
uint64_t load_u64(const unsigned char *at) { return uint64_t(load_u32(at)) | uint64_t(load_u32(at + 4)) << 32; }

class BlobReader {
public:
    BlobReader(const unsigned char *blob, size_t len, bool float32) : blob_(blob), len_(len), float32_(float32) {}

    std::vector<double> reals(uint64_t at, uint64_t count, const char *name) const {
        const size_t item = float32_ ? 4 : 8;
        const unsigned char *p = array(at, count, item, name);
        std::vector<double> values(count);
        for (size_t i = 0; i < count; ++i)
            values[i] = float32_ ? double(to_float(load_u32(p + 4 * i))) : f64(p + 8 * i);
        return values;
    }
    std::vector<double> doubles(uint64_t at, uint64_t count, const char *name) const {
        const unsigned char *p = array(at, count, 8, name);
        std::vector<double> values(count);
        for (size_t i = 0; i < count; ++i) values[i] = f64(p + 8 * i);
        return values;
    }
    std::vector<uint64_t> words(uint64_t at, uint64_t count, const char *name) const {
        const unsigned char *p = array(at, count, 8, name);
        std::vector<uint64_t> values(count);
        for (size_t i = 0; i < count; ++i) values[i] = load_u64(p + 8 * i);
        return values;
    }
    std::vector<int32_t> int32s(uint64_t at, uint64_t count, const char *name) const {
        const unsigned char *p = array(at, count, 4, name);
        std::vector<int32_t> values(count);
        for (size_t i = 0; i < count; ++i) values[i] = int32_t(load_u32(p + 4 * i));
        return values;
    }
    // A count, or a product of two, that cannot exceed the blob's length.
    int64_t count(uint64_t a, uint64_t b, const char *name) const {
        if (a > len_ || b > len_ || (b != 0 && a > len_ / b))
            fail(KMX_E_FORMAT, "predictor blob: %s = %llu x %llu exceeds the blob", name, (unsigned long long)a,
                 (unsigned long long)b);
        return int64_t(a * b);
    }

private:
    const unsigned char *array(uint64_t at, uint64_t count, size_t item, const char *name) const {
        if (at % item != 0 || at > len_ || count > (len_ - at) / item)
            fail(KMX_E_FORMAT, "predictor blob: %s (%llu items at offset %llu) is misaligned or outside the %zu bytes",
                 name, (unsigned long long)count, (unsigned long long)at, len_);
        return blob_ + at;
    }
    static double f64(const unsigned char *at) {
        const uint64_t bits = load_u64(at);
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
    size_t len_;
    bool float32_;
};

// Magic, version, length, header size and CRC, before anything is trusted.
void check_envelope(const unsigned char *blob, size_t len) {
    if (len < KMX_BLOB_OFF_CRC || std::memcmp(blob, KMX_BLOB_MAGIC, KMX_BLOB_MAGIC_BYTES) != 0)
        fail(KMX_E_FORMAT, "predictor blob: bad magic (not a kmx predictor blob)");
    const uint32_t version = load_u32(blob + KMX_BLOB_OFF_VERSION);
    if (version != KMX_BLOB_VERSION)
        fail(KMX_E_FORMAT, "predictor blob: format version %u, this library reads version %u", version,
             KMX_BLOB_VERSION);
    if (len < KMX_BLOB_HEADER_BYTES) fail(KMX_E_FORMAT, "predictor blob is truncated (%zu bytes)", len);
    if (load_u64(blob + KMX_BLOB_OFF_TOTAL_BYTES) != len)
        fail(KMX_E_FORMAT, "predictor blob: header says %llu bytes, got %zu",
             (unsigned long long)load_u64(blob + KMX_BLOB_OFF_TOTAL_BYTES), len);
    if (load_u32(blob + KMX_BLOB_OFF_HEADER_BYTES) != KMX_BLOB_HEADER_BYTES)
        fail(KMX_E_FORMAT, "predictor blob: header size %u, expected %d", load_u32(blob + KMX_BLOB_OFF_HEADER_BYTES),
             KMX_BLOB_HEADER_BYTES);
    if (load_u32(blob + KMX_BLOB_OFF_CRC) != crc32(blob + KMX_BLOB_CRC_BEGIN, len - KMX_BLOB_CRC_BEGIN))
        fail(KMX_E_FORMAT, "predictor blob: CRC-32 mismatch (corrupt)");
}

// Header scalars (after the envelope) into p; returns the flags word.
uint32_t read_scalars(ByteReader &header, CompactPredictor &p) {
    const uint32_t flags = header.u32();
    const uint32_t kernel = header.u32();
    if (kernel > KMX_KERNEL_SIGMOID) fail(KMX_E_FORMAT, "predictor blob: unknown kernel %u", kernel);
    p.kernel.type = kmx_kernel_type(kernel);
    p.kernel.degree = header.i32();
    p.kernel.gamma = header.f64();
    p.kernel.coef0 = header.f64();
    if (!(std::isfinite(p.kernel.gamma) && p.kernel.gamma > 0))
        fail(KMX_E_FORMAT, "predictor blob: gamma %g is not a resolved, positive value", p.kernel.gamma);
    const uint32_t task = header.u32(), multiclass = header.u32(), estimate = header.u32(), reserved = header.u32();
    if ((flags & ~KMX_BLOB_FLAG_FLOAT32) != 0 || task > 1 || multiclass > 1 || estimate > 2 || reserved != 0)
        fail(KMX_E_FORMAT, "predictor blob: bad flags %#x, task %u, multiclass %u or triangle estimate %u", flags, task,
             multiclass, estimate);
    p.task = task == 1 ? PredictorTask::regression : PredictorTask::classification;
    p.multiclass = kmx_multiclass(multiclass);
    p.triangle_estimate = TriangleEstimate(estimate);
    p.float32 = (flags & KMX_BLOB_FLAG_FLOAT32) != 0;
    return flags;
}

PredictorLeaf read_leaf(const BlobReader &reader, const uint64_t *record, const CompactPredictor &p) {
    PredictorLeaf leaf;
    leaf.m = reader.count(record[KMX_BLOB_LEAF_M], 1, "m");
    leaf.triangle = reader.count(record[KMX_BLOB_LEAF_TRIANGLE], 1, "triangle");
    leaf.products = reader.count(record[KMX_BLOB_LEAF_PRODUCTS], 1, "products");
    const uint64_t m = uint64_t(leaf.m), features = uint64_t(leaf.features());
    leaf.center = reader.reals(record[KMX_BLOB_LEAF_CENTER_AT], uint64_t(p.d), "leaf center");
    leaf.landmarks = reader.reals(record[KMX_BLOB_LEAF_LANDMARKS_AT], uint64_t(reader.count(m, uint64_t(p.d), "m x d")),
                                  "landmarks");
    leaf.triangle_dist =
        reader.reals(record[KMX_BLOB_LEAF_TRIANGLE_DIST_AT],
                     uint64_t(reader.count(uint64_t(leaf.triangle), m, "p_tri x m")), "triangle distances");
    leaf.product_pairs = reader.int32s(record[KMX_BLOB_LEAF_PAIRS_AT],
                                       uint64_t(reader.count(2, uint64_t(leaf.products), "pairs")), "product pairs");
    leaf.beta = reader.reals(record[KMX_BLOB_LEAF_BETA_AT],
                             uint64_t(reader.count(features, uint64_t(p.outputs), "beta")), "beta");
    leaf.bias = reader.reals(record[KMX_BLOB_LEAF_BIAS_AT], uint64_t(p.outputs), "bias");
    return leaf;
}

}  // namespace

std::vector<unsigned char> write_predictor_blob(const CompactPredictor &predictor) {
    check_predictor(predictor, KMX_E_INVALID_ARGUMENT);
    BlobWriter writer(predictor.float32);
    ByteWriter &out = writer.bytes();
    write_header(out, predictor);
    out.patch_u64(KMX_BLOB_OFF_CLASSES_AT, writer.doubles(predictor.classes));
    out.patch_u64(KMX_BLOB_OFF_TOP_CENTERS_AT, writer.reals(predictor.top_centers));
    out.patch_u64(KMX_BLOB_OFF_TOP_LEAF_BEGIN_AT, writer.words(predictor.top_leaf_begin));
    const size_t table_at = size_t(writer.words(std::vector<int64_t>(predictor.leaves.size() * kLeafWords, 0)));
    out.patch_u64(KMX_BLOB_OFF_LEAF_TABLE_AT, table_at);
    for (size_t l = 0; l < predictor.leaves.size(); ++l)
        write_leaf(writer, predictor.leaves[l], table_at + l * 8 * kLeafWords);
    writer.align();
    out.patch_u64(KMX_BLOB_OFF_TOTAL_BYTES, out.size());
    out.patch_u32(KMX_BLOB_OFF_CRC, crc32(out.bytes().data() + KMX_BLOB_CRC_BEGIN, out.size() - KMX_BLOB_CRC_BEGIN));
    return std::move(out.bytes());
}

CompactPredictor read_predictor_blob(const void *blob_pointer, size_t len) {
    if (!blob_pointer) fail(KMX_E_INVALID_ARGUMENT, "predictor blob: NULL buffer");
    const unsigned char *blob = static_cast<const unsigned char *>(blob_pointer);
    check_envelope(blob, len);
    ByteReader header(blob + KMX_BLOB_OFF_FLAGS, KMX_BLOB_HEADER_BYTES - KMX_BLOB_OFF_FLAGS, "predictor blob header");
    CompactPredictor p;
    const uint32_t flags = read_scalars(header, p);
    const BlobReader reader(blob, len, (flags & KMX_BLOB_FLAG_FLOAT32) != 0);
    p.d = reader.count(header.u64(), 1, "d");
    p.outputs = reader.count(header.u64(), 1, "outputs");
    const uint64_t classes = header.u64(), top = header.u64(), leaves = header.u64();
    const uint64_t classes_at = header.u64(), centers_at = header.u64(), begin_at = header.u64(),
                   table_at = header.u64();
    header.finish();
    p.classes = reader.doubles(classes_at, classes, "classes");
    p.top_centers = reader.reals(centers_at, uint64_t(reader.count(top, uint64_t(p.d), "top x d")), "top centers");
    for (uint64_t begin : reader.words(begin_at, uint64_t(reader.count(top, 1, "top")) + 1, "top_leaf_begin"))
        p.top_leaf_begin.push_back(reader.count(begin, 1, "top_leaf_begin"));
    const std::vector<uint64_t> table =
        reader.words(table_at, uint64_t(reader.count(leaves, kLeafWords, "leaf table")), "leaf table");
    for (uint64_t l = 0; l < leaves; ++l) p.leaves.push_back(read_leaf(reader, table.data() + l * kLeafWords, p));
    check_predictor(p, KMX_E_FORMAT);
    return p;
}

}  // namespace kmx
