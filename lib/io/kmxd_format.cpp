// The .kmxd binary dataset file (layout in kmxd_format.h): writer, whole-file
// reader (the Dataset points into the mapping) and row-range reader.
#include "kmxd_format.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "binary_file.h"
#include "byte_codec.h"
#include "core/arena.h"
#include "core/big_blocks.h"
#include "core/context.h"
#include "core/dataset.h"
#include "core/error.h"
#include "core/parallel.h"
#include "crc32.h"
#include "mapped_file.h"

namespace kmx {

namespace {


constexpr unsigned char kMagic[8] = {0x89, 'K', 'M', 'X', 'D', '\r', '\n', 0x1a};
constexpr size_t kHeaderBytes = 128;
constexpr size_t kHeaderCrcOffset = 124;
constexpr uint64_t kArrayAlignment = 64;
constexpr uint32_t kWriterChunkBytes = uint32_t(1) << 20;
constexpr uint32_t kMinChunkBytes = uint32_t(1) << 12, kMaxChunkBytes = uint32_t(1) << 30;
constexpr uint64_t kMaxColumns = 2147483647;  // columns are int32_t
constexpr int64_t kRowsPerCheck = 4096;       // rows validated per parallel task

enum Layout : uint32_t { kDense = 0, kCsr = 1 };
enum ValueType : uint32_t { kFloat64 = 0, kFloat32 = 1 };
enum Flags : uint32_t { kHasLabels = 1, kHasWeights = 2 };
enum ArrayId { kLabels, kWeights, kRowPtr, kCol, kValues, kArrayCount };
const char *const kArrayNames[kArrayCount] = {"labels", "weights", "row_ptr", "col", "values"};

struct Header {
    uint32_t version = kKmxdVersion;
    uint32_t layout = kDense;
    uint32_t value_type = kFloat64;
    uint32_t flags = 0;
    uint32_t chunk_bytes = kWriterChunkBytes;
    uint64_t n = 0, d = 0, nnz = 0;
    uint64_t file_bytes = 0;
    uint32_t table_crc = 0;
};

// Where one array lies: bytes [offset, offset + bytes) of the file; its
// chunks' CRCs are table entries [first_chunk, first_chunk + chunks).
struct ArraySpan {
    bool present = false;
    uint64_t item_bytes = 0;
    uint64_t count = 0;
    uint64_t offset = 0, bytes = 0;
    uint64_t first_chunk = 0, chunks = 0;
};

struct FileLayout {
    ArraySpan arrays[kArrayCount];
    uint64_t table_entries = 0;
    uint64_t end = 0;  // the file's length
};

[[noreturn]] __attribute__((format(printf, 2, 3))) void bad(const char *name, const char *fmt, ...) {
    char what[400];
    va_list args;
    va_start(args, fmt);
    std::vsnprintf(what, sizeof what, fmt, args);
    va_end(args);
    fail(KMX_E_FORMAT, "'%s' (.kmxd): %s", name, what);
}

bool host_is_little_endian() {
    const uint32_t one = 1;
    unsigned char first;
    std::memcpy(&first, &one, 1);
    return first == 1;
}

void require_little_endian_host(const char *name) {
    if (!host_is_little_endian())
        fail(KMX_E_FORMAT, "'%s': .kmxd arrays are little-endian and used in place; this machine is big-endian", name);
}

uint64_t checked_mul(uint64_t a, uint64_t b, const char *name) {
    uint64_t r;
    if (__builtin_mul_overflow(a, b, &r))
        bad(name, "sizes overflow (%llu x %llu)", (unsigned long long)a, (unsigned long long)b);
    return r;
}

uint64_t checked_add(uint64_t a, uint64_t b, const char *name) {
    uint64_t r;
    if (__builtin_add_overflow(a, b, &r))
        bad(name, "sizes overflow (%llu + %llu)", (unsigned long long)a, (unsigned long long)b);
    return r;
}

uint64_t align_array(uint64_t offset, const char *name) {
    return checked_add(offset, kArrayAlignment - 1, name) / kArrayAlignment * kArrayAlignment;
}

uint64_t value_bytes(const Header &h) { return h.value_type == kFloat32 ? sizeof(float) : sizeof(double); }

// The arrays' places, from the header's counts (every sum and product
// checked: a header cannot make the reader wrap around).
FileLayout plan_layout(const Header &h, const char *name) {
    FileLayout layout;
    const bool csr = h.layout == kCsr;
    const struct {
        bool present;
        uint64_t item_bytes, count;
    } wanted[kArrayCount] = {
        {(h.flags & kHasLabels) != 0, sizeof(double), h.n},
        {(h.flags & kHasWeights) != 0, sizeof(double), h.n},
        {csr, sizeof(int64_t), checked_add(h.n, 1, name)},
        {csr, sizeof(int32_t), h.nnz},
        {true, value_bytes(h), h.nnz},
    };
    for (int a = 0; a < kArrayCount; ++a) {
        ArraySpan &span = layout.arrays[a];
        if (!wanted[a].present) continue;
        span.present = true;
        span.item_bytes = wanted[a].item_bytes;
        span.count = wanted[a].count;
        span.bytes = checked_mul(span.count, span.item_bytes, name);
        span.first_chunk = layout.table_entries;
        span.chunks = span.bytes / h.chunk_bytes + (span.bytes % h.chunk_bytes != 0);
        layout.table_entries += span.chunks;
    }
    uint64_t offset = kHeaderBytes + checked_mul(layout.table_entries, 4, name);
    for (ArraySpan &span : layout.arrays) {
        if (!span.present) continue;
        span.offset = align_array(offset, name);
        offset = checked_add(span.offset, span.bytes, name);
    }
    layout.end = offset;
    return layout;
}

// ---- the header ------------------------------------------------------------

std::vector<unsigned char> encode_header(const Header &h) {
    ByteWriter out;
    out.raw(kMagic, sizeof kMagic);
    for (uint32_t field : {h.version, uint32_t(kHeaderBytes), h.layout, h.value_type, h.flags, h.chunk_bytes})
        out.u32(field);
    for (uint64_t field : {h.n, h.d, h.nnz, h.file_bytes}) out.u64(field);
    out.u32(h.table_crc);
    while (out.size() < kHeaderCrcOffset) out.u32(0);
    out.u32(crc32(out.bytes().data(), kHeaderCrcOffset));
    return std::move(out.bytes());
}

void check_header_fields(const Header &h, const char *name) {
    if (h.layout != kDense && h.layout != kCsr) bad(name, "layout %u is neither dense (0) nor CSR (1)", h.layout);
    if (h.value_type != kFloat64 && h.value_type != kFloat32)
        bad(name, "value type %u is neither float64 (0) nor float32 (1)", h.value_type);
    if (h.flags & ~uint32_t(kHasLabels | kHasWeights)) bad(name, "unknown flags 0x%x", h.flags);
    if (h.chunk_bytes < kMinChunkBytes || h.chunk_bytes > kMaxChunkBytes || (h.chunk_bytes & (h.chunk_bytes - 1)))
        bad(name, "chunk size %u is not a power of two from 4 KiB to 1 GiB", h.chunk_bytes);
    if (h.n == 0 || h.n > uint64_t(INT64_MAX) / 2) bad(name, "n = %llu rows is out of range", (unsigned long long)h.n);
    if (h.d == 0 || h.d > kMaxColumns) bad(name, "d = %llu columns is out of range", (unsigned long long)h.d);
    uint64_t cells;
    const bool cells_overflow = __builtin_mul_overflow(h.n, h.d, &cells);
    if (h.layout == kDense && (cells_overflow || h.nnz != cells))
        bad(name, "nnz = %llu is not n*d = %llu x %llu for dense rows", (unsigned long long)h.nnz,
            (unsigned long long)h.n, (unsigned long long)h.d);
    if (h.layout == kCsr && !cells_overflow && h.nnz > cells)
        bad(name, "nnz = %llu exceeds n*d = %llu x %llu", (unsigned long long)h.nnz, (unsigned long long)h.n,
            (unsigned long long)h.d);
}

// Decodes and checks the first `size` bytes of a file (size: how many were
// read, at most the file's length).
Header decode_header(const unsigned char *bytes, size_t size, const char *name, bool verify) {
    if (size < sizeof kMagic || std::memcmp(bytes, kMagic, sizeof kMagic) != 0)
        bad(name, "not a .kmxd file (its first 8 bytes are not the magic 89 4B 4D 58 44 0D 0A 1A)");
    if (size < kHeaderBytes) bad(name, "truncated: %zu bytes, less than the %zu-byte header", size, kHeaderBytes);
    ByteReader in(bytes + sizeof kMagic, kHeaderBytes - sizeof kMagic, name);
    Header h;
    h.version = in.u32();
    if (h.version == 0 || h.version > kKmxdVersion)
        bad(name, "format version %u is not one this kmx reads (1 to %u)", h.version, kKmxdVersion);
    if (verify && kCheckCrcs && crc32(bytes, kHeaderCrcOffset) != kmx_le_u32(bytes + kHeaderCrcOffset))
        bad(name, "the header's CRC-32 does not match (corrupt header)");
    const uint32_t header_bytes = in.u32();
    if (header_bytes != kHeaderBytes) bad(name, "header size %u is not %zu", header_bytes, kHeaderBytes);
    h.layout = in.u32();
    h.value_type = in.u32();
    h.flags = in.u32();
    h.chunk_bytes = in.u32();
    h.n = in.u64();
    h.d = in.u64();
    h.nnz = in.u64();
    h.file_bytes = in.u64();
    h.table_crc = in.u32();
    check_header_fields(h, name);
    return h;
}

// The layout, checked against the header's and the file's length.
FileLayout check_sizes(const Header &h, uint64_t file_size, const char *name) {
    if (file_size < h.file_bytes)
        bad(name, "truncated: %llu bytes, the header says %llu", (unsigned long long)file_size,
            (unsigned long long)h.file_bytes);
    const FileLayout layout = plan_layout(h, name);
    if (layout.end != h.file_bytes)
        bad(name, "n, d and nnz need %llu bytes but the header says the file has %llu", (unsigned long long)layout.end,
            (unsigned long long)h.file_bytes);
    if (file_size > h.file_bytes)
        bad(name, "%llu unexpected bytes after the last array", (unsigned long long)(file_size - h.file_bytes));
    return layout;
}

void check_table(const Header &h, const FileLayout &layout, const unsigned char *table, const char *name) {
    if (kCheckCrcs && crc32(table, size_t(layout.table_entries) * 4) != h.table_crc)
        bad(name, "the checksum table's CRC-32 does not match");
}

// ---- checksums and array contents ------------------------------------------

// Verifies chunks [first, last) of an array; `from` points at chunk `first`.
void verify_chunks(Context &ctx, uint32_t chunk_bytes, const unsigned char *table, const ArraySpan &span, int array,
                   const unsigned char *from, uint64_t first, uint64_t last, const char *name) {
    if (!kCheckCrcs) return;
    parallel_for(int64_t(last - first), ctx.threads, [&](int64_t i) {
        const uint64_t chunk = first + uint64_t(i);
        const uint64_t begin = chunk * chunk_bytes;
        const size_t bytes = size_t(std::min<uint64_t>(chunk_bytes, span.bytes - begin));
        const uint32_t stored = kmx_le_u32(table + 4 * (span.first_chunk + chunk));
        if (crc32(from + size_t(i) * chunk_bytes, bytes) != stored)
            bad(name, "%s: the CRC-32 of bytes %llu to %llu does not match (corrupt data)", kArrayNames[array],
                (unsigned long long)begin, (unsigned long long)(begin + bytes));
    });
}

// The arrays of rows [first_row, first_row + rows) of a file, in memory:
// labels/weights/values of those rows; row_ptr as stored (rows + 1 entries,
// absolute); col and values start at entry row_ptr[0].
struct RowArrays {
    const double *labels = nullptr, *weights = nullptr;
    const int64_t *row_ptr = nullptr;
    const int32_t *col = nullptr;
    const void *values = nullptr;
};

template <class T>
void check_finite_values(const T *values, int64_t count, int64_t first, int64_t d, const char *name) {
    for (int64_t i = 0; i < count; ++i)
        if (!std::isfinite(values[i]))
            bad(name, "x[%lld,%lld] is %s", (long long)((first + i) / d), (long long)((first + i) % d),
                std::isnan(values[i]) ? "NaN" : "infinite");
}

void check_label_weight(const RowArrays &a, int64_t r, int64_t row, const char *name) {
    if (a.labels && !std::isfinite(a.labels[r])) bad(name, "labels[%lld] is not finite", (long long)row);
    if (a.weights && !(std::isfinite(a.weights[r]) && a.weights[r] >= 0))
        bad(name, "weights[%lld] = %g is not a finite non-negative number", (long long)row, a.weights[r]);
}

void check_csr_row(const Header &h, const RowArrays &a, int64_t r, int64_t row, const char *name) {
    const int64_t base = a.row_ptr[0];
    int64_t previous = -1;
    for (int64_t e = a.row_ptr[r] - base; e < a.row_ptr[r + 1] - base; ++e) {
        const int32_t c = a.col[e];
        if (c <= previous || uint64_t(c) >= h.d)
            bad(name, "row %lld: column %d is %s", (long long)row, c,
                c < 0 || uint64_t(c) >= h.d ? "out of range" : "not increasing");
        previous = c;
    }
    const int64_t begin = a.row_ptr[r] - base, count = a.row_ptr[r + 1] - a.row_ptr[r];
    if (h.value_type == kFloat32)
        check_finite_values(static_cast<const float *>(a.values) + begin, count, 0, 1, name);
    else
        check_finite_values(static_cast<const double *>(a.values) + begin, count, 0, 1, name);
}

// row_ptr entries of rows [first_row, first_row + rows]: within [0, nnz],
// non-decreasing, 0 at row 0 and nnz at row n.
void check_row_ptr(const Header &h, const int64_t *row_ptr, int64_t first_row, int64_t rows, const char *name) {
    for (int64_t r = 0; r <= rows; ++r) {
        const int64_t row = first_row + r;
        if (row_ptr[r] < 0 || uint64_t(row_ptr[r]) > h.nnz || (r > 0 && row_ptr[r] < row_ptr[r - 1]))
            bad(name, "row_ptr[%lld] = %lld is not in [row_ptr[%lld], nnz]", (long long)row, (long long)row_ptr[r],
                (long long)(row - 1));
    }
    if (first_row == 0 && row_ptr[0] != 0) bad(name, "row_ptr[0] = %lld is not 0", (long long)row_ptr[0]);
    if (uint64_t(first_row + rows) == h.n && uint64_t(row_ptr[rows]) != h.nnz)
        bad(name, "row_ptr[n] = %lld is not nnz = %llu", (long long)row_ptr[rows], (unsigned long long)h.nnz);
}

// Every row's labels, weights, values and (CSR) columns, on ctx.threads.
void check_rows(Context &ctx, const Header &h, const RowArrays &a, int64_t first_row, int64_t rows, const char *name) {
    if (a.row_ptr) check_row_ptr(h, a.row_ptr, first_row, rows, name);
    const int64_t d = int64_t(h.d);
    parallel_for((rows + kRowsPerCheck - 1) / kRowsPerCheck, ctx.threads, [&](int64_t block) {
        const int64_t begin = block * kRowsPerCheck, end = std::min(rows, begin + kRowsPerCheck);
        for (int64_t r = begin; r < end; ++r) check_label_weight(a, r, first_row + r, name);
        if (a.row_ptr) {
            for (int64_t r = begin; r < end; ++r) check_csr_row(h, a, r, first_row + r, name);
        } else if (h.value_type == kFloat32) {
            check_finite_values(static_cast<const float *>(a.values) + begin * d, (end - begin) * d,
                                (first_row + begin) * d, d, name);
        } else {
            check_finite_values(static_cast<const double *>(a.values) + begin * d, (end - begin) * d,
                                (first_row + begin) * d, d, name);
        }
    });
}

void check_weight_total(const double *weights, int64_t rows, const char *name) {
    double total = 0;
    for (int64_t r = 0; r < rows; ++r) total += weights[r];
    if (!(total > 0)) bad(name, "the weights are all zero");
}

// A Dataset over checked arrays (row_ptr rebased to 0 by the caller).
std::unique_ptr<Dataset> dataset_over(const Header &h, const RowArrays &a, int64_t rows) {
    auto ds = std::make_unique<Dataset>();
    ds->n = rows;
    ds->d = int64_t(h.d);
    ds->y = a.labels;
    ds->w = a.weights;
    const bool f32 = h.value_type == kFloat32;
    if (a.row_ptr) {
        ds->row_ptr = a.row_ptr;
        ds->col = a.col;
        if (f32)
            ds->values32 = static_cast<const float *>(a.values);
        else
            ds->values = static_cast<const double *>(a.values);
    } else if (f32) {
        ds->x32 = static_cast<const float *>(a.values);
    } else {
        ds->x = static_cast<const double *>(a.values);
    }
    return ds;
}

// ---- writing ----------------------------------------------------------------

// The bytes of one array of a dataset, chunk by chunk, in the file's value
// type (floats are made here when the dataset holds doubles).
class ArraySource {
public:
    ArraySource(const Dataset &data, const Header &h, int array) : data_(data), h_(h), array_(array) {}

    // Chunk `chunk` of the array (span.bytes in all); valid until the next call.
    const unsigned char *chunk(const ArraySpan &span, uint64_t chunk, size_t &bytes) {
        const uint64_t begin = chunk * h_.chunk_bytes;
        bytes = size_t(std::min<uint64_t>(h_.chunk_bytes, span.bytes - begin));
        if (array_ == kValues && h_.value_type == kFloat32 && !data_.float32()) return narrowed(begin, bytes);
        return stored_bytes() + begin;
    }

private:
    const unsigned char *stored_bytes() const {
        const void *arrays[kArrayCount] = {data_.y, data_.w, data_.row_ptr, data_.col, nullptr};
        if (array_ != kValues) return static_cast<const unsigned char *>(arrays[array_]);
        const void *values = data_.sparse() ? (data_.float32() ? (const void *)data_.values32 : data_.values)
                                            : (data_.float32() ? (const void *)data_.x32 : data_.x);
        return static_cast<const unsigned char *>(values);
    }
    // Doubles rounded to floats; one beyond float range cannot be stored.
    const unsigned char *narrowed(uint64_t begin, size_t bytes) {
        const double *from = (data_.sparse() ? data_.values : data_.x) + begin / sizeof(float);
        buffer_.resize(bytes / sizeof(float));
        for (size_t i = 0; i < buffer_.size(); ++i) {
            if (std::fabs(from[i]) > double(FLT_MAX))
                fail(KMX_E_INVALID_ARGUMENT, "value %g (stored value %llu) is beyond float32's range", from[i],
                     (unsigned long long)(begin / sizeof(float) + i));
            buffer_[i] = float(from[i]);
        }
        return reinterpret_cast<const unsigned char *>(buffer_.data());
    }
    const Dataset &data_;
    const Header &h_;
    int array_;
    std::vector<float> buffer_;
};

Header header_for(const Dataset &data, bool float32) {
    Header h;
    h.layout = data.sparse() ? kCsr : kDense;
    h.value_type = float32 || data.float32() ? kFloat32 : kFloat64;
    h.flags = (data.y ? uint32_t(kHasLabels) : 0u) | (data.w ? uint32_t(kHasWeights) : 0u);
    h.n = uint64_t(data.n);
    h.d = uint64_t(data.d);
    h.nnz = uint64_t(data.nnz());
    return h;
}

std::vector<unsigned char> checksum_table(const Dataset &data, const Header &h, const FileLayout &layout) {
    ByteWriter table;
    for (int a = 0; a < kArrayCount; ++a) {
        const ArraySpan &span = layout.arrays[a];
        ArraySource source(data, h, a);
        for (uint64_t c = 0; c < span.chunks; ++c) {
            size_t bytes = 0;
            const unsigned char *chunk = source.chunk(span, c, bytes);
            table.u32(crc32(chunk, bytes));
        }
    }
    return std::move(table.bytes());
}

void write_zeros(AtomicFileWriter &out, uint64_t &at, uint64_t to) {
    static const unsigned char zeros[kArrayAlignment] = {};
    out.write(zeros, size_t(to - at));
    at = to;
}

}  // namespace

bool is_kmxd(const void *bytes, size_t size) {
    return size >= sizeof kMagic && std::memcmp(bytes, kMagic, sizeof kMagic) == 0;
}

void write_kmxd_file(const Dataset &data, const char *path, bool float32) {
    require_little_endian_host(path);
    Header h = header_for(data, float32);
    const FileLayout layout = plan_layout(h, path);
    h.file_bytes = layout.end;
    const std::vector<unsigned char> table = checksum_table(data, h, layout);
    h.table_crc = crc32(table.data(), table.size());

    AtomicFileWriter out(path);
    const std::vector<unsigned char> header = encode_header(h);
    out.write(header.data(), header.size());
    out.write(table.data(), table.size());
    uint64_t at = header.size() + table.size();
    for (int a = 0; a < kArrayCount; ++a) {
        const ArraySpan &span = layout.arrays[a];
        if (!span.present) continue;
        write_zeros(out, at, span.offset);
        ArraySource source(data, h, a);
        for (uint64_t c = 0; c < span.chunks; ++c) {
            size_t bytes = 0;
            const unsigned char *chunk = source.chunk(span, c, bytes);
            out.write(chunk, bytes);
            at += bytes;
        }
    }
    out.commit();
}

std::unique_ptr<Dataset> decode_kmxd(Context &ctx, const unsigned char *bytes, size_t size, const char *name,
                                     bool verify_checksums) {
    require_little_endian_host(name);
    const Header h = decode_header(bytes, size, name, verify_checksums);
    const FileLayout layout = check_sizes(h, size, name);
    const unsigned char *table = bytes + kHeaderBytes;
    if (verify_checksums) {
        check_table(h, layout, table, name);
        for (int a = 0; a < kArrayCount; ++a) {
            const ArraySpan &span = layout.arrays[a];
            verify_chunks(ctx, h.chunk_bytes, table, span, a, bytes + span.offset, 0, span.chunks, name);
        }
    }
    const void *at[kArrayCount];
    for (int a = 0; a < kArrayCount; ++a) at[a] = layout.arrays[a].present ? bytes + layout.arrays[a].offset : nullptr;
    RowArrays arrays;
    arrays.labels = static_cast<const double *>(at[kLabels]);
    arrays.weights = static_cast<const double *>(at[kWeights]);
    arrays.row_ptr = static_cast<const int64_t *>(at[kRowPtr]);
    arrays.col = static_cast<const int32_t *>(at[kCol]);
    arrays.values = at[kValues];
    check_rows(ctx, h, arrays, 0, int64_t(h.n), name);
    if (arrays.weights) check_weight_total(arrays.weights, int64_t(h.n), name);
    return dataset_over(h, arrays, int64_t(h.n));
}

std::unique_ptr<Dataset> open_kmxd_mapping(Context &ctx, std::shared_ptr<const MappedFile> file, const char *path,
                                           bool verify_checksums) {
    std::unique_ptr<Dataset> ds =
        decode_kmxd(ctx, reinterpret_cast<const unsigned char *>(file->data()), file->size(), path, verify_checksums);
    ds->keep_alive(std::move(file));
    return ds;
}

std::unique_ptr<Dataset> copy_kmxd(Context &ctx, const void *bytes, size_t size, const char *name) {
    char what[300];
    std::snprintf(what, sizeof what, "a copy of '%s'", name);
    ctx.check_budget(size, what);
    std::shared_ptr<unsigned char> copy(static_cast<unsigned char *>(allocate_block(size ? size : 1, kArenaAlignment)),
                                        std::free);
    if (!copy) fail(KMX_E_OUT_OF_MEMORY, "the system could not provide %zu bytes for %s", size, what);
    if (size) std::memcpy(copy.get(), bytes, size);  // an empty buffer may come as (NULL, 0)
    std::unique_ptr<Dataset> ds = decode_kmxd(ctx, copy.get(), size, name);
    ds->keep_alive(std::move(copy));
    return ds;
}

namespace {

// The mappings a row range reads, and what they cost the budget.
struct RangeMappings {
    std::vector<std::shared_ptr<const void>> files;
    size_t bytes = 0;
};

// Maps entries [lo, hi) of an array, widened to whole chunks, and verifies
// those chunks; returns a pointer to entry lo (nullptr for an empty range).
const void *map_entries(Context &ctx, const char *path, const Header &h, const unsigned char *table,
                        const ArraySpan &span, int array, uint64_t lo, uint64_t hi, RangeMappings &mappings) {
    if (!span.present || lo >= hi) return nullptr;
    const uint64_t first = lo * span.item_bytes / h.chunk_bytes;
    const uint64_t last = (hi * span.item_bytes + h.chunk_bytes - 1) / h.chunk_bytes;
    const uint64_t begin = first * h.chunk_bytes, end = std::min(span.bytes, last * h.chunk_bytes);
    char what[300];
    std::snprintf(what, sizeof what, "mapping part of '%s'", path);
    ctx.check_budget(mappings.bytes + size_t(end - begin), what);
    auto mapping = std::make_shared<MappedFile>(path, span.offset + begin, end - begin);
    if (mapping->size() != end - begin) bad(path, "truncated while reading %s", kArrayNames[array]);
    mappings.bytes += mapping->size();
    const auto *bytes = reinterpret_cast<const unsigned char *>(mapping->data());
    verify_chunks(ctx, h.chunk_bytes, table, span, array, bytes, first, last, path);
    mappings.files.push_back(std::move(mapping));
    return bytes + (lo * span.item_bytes - begin);
}

}  // namespace

std::unique_ptr<Dataset> open_kmxd_rows(Context &ctx, const char *path, int64_t row_begin, int64_t row_end) {
    require_little_endian_host(path);
    const MappedFile head(path, 0, kHeaderBytes);
    const Header h = decode_header(reinterpret_cast<const unsigned char *>(head.data()), head.size(), path, true);
    const FileLayout layout = check_sizes(h, head.file_size(), path);
    if (row_begin < 0 || row_begin >= row_end || uint64_t(row_end) > h.n)
        fail(KMX_E_INVALID_ARGUMENT, "rows [%lld, %lld) of '%s' are not a non-empty range in [0, %llu)",
             (long long)row_begin, (long long)row_end, path, (unsigned long long)h.n);
    const MappedFile table_file(path, kHeaderBytes, layout.table_entries * 4);
    const auto *table = reinterpret_cast<const unsigned char *>(table_file.data());
    check_table(h, layout, table, path);

    const int64_t rows = row_end - row_begin;
    RangeMappings mappings;
    auto map = [&](int array, uint64_t lo, uint64_t hi) {
        return map_entries(ctx, path, h, table, layout.arrays[array], array, lo, hi, mappings);
    };
    RowArrays arrays;
    arrays.labels = static_cast<const double *>(map(kLabels, uint64_t(row_begin), uint64_t(row_end)));
    arrays.weights = static_cast<const double *>(map(kWeights, uint64_t(row_begin), uint64_t(row_end)));
    arrays.row_ptr = static_cast<const int64_t *>(map(kRowPtr, uint64_t(row_begin), uint64_t(row_end) + 1));
    uint64_t lo = uint64_t(row_begin) * h.d, hi = uint64_t(row_end) * h.d;
    if (arrays.row_ptr) {
        check_row_ptr(h, arrays.row_ptr, row_begin, rows, path);
        lo = uint64_t(arrays.row_ptr[0]);
        hi = uint64_t(arrays.row_ptr[rows]);
        arrays.col = static_cast<const int32_t *>(map(kCol, lo, hi));
    }
    arrays.values = map(kValues, lo, hi);
    check_rows(ctx, h, arrays, row_begin, rows, path);

    std::unique_ptr<Dataset> ds = dataset_over(h, arrays, rows);
    for (std::shared_ptr<const void> &file : mappings.files) ds->keep_alive(std::move(file));
    if (arrays.row_ptr) {  // rebased to 0, in the dataset's own block
        const size_t row_ptr_bytes = sizeof(int64_t) * size_t(rows + 1);
        char what[300];
        std::snprintf(what, sizeof what, "rows [%lld, %lld) of '%s'", (long long)row_begin, (long long)row_end, path);
        ctx.check_budget(mappings.bytes + row_ptr_bytes, what);
        ds->adopt_block(row_ptr_bytes);
        int64_t *rebased = reinterpret_cast<int64_t *>(ds->block());
        for (int64_t r = 0; r <= rows; ++r) rebased[r] = arrays.row_ptr[r] - arrays.row_ptr[0];
        ds->row_ptr = rebased;
    }
    return ds;
}

std::unique_ptr<Dataset> open_kmxd_shard(Context &ctx, const char *path, int64_t shard, int64_t shards) {
    require(shards >= 1 && shard >= 0 && shard < shards, "a shard must lie in [0, shards)");
    require_little_endian_host(path);
    uint64_t rows = 0;
    {
        const MappedFile head(path, 0, kHeaderBytes);
        const Header h = decode_header(reinterpret_cast<const unsigned char *>(head.data()), head.size(), path, true);
        check_sizes(h, head.file_size(), path);
        rows = h.n;
    }
    const auto bound = [&](int64_t s) { return int64_t((unsigned __int128)rows * uint64_t(s) / uint64_t(shards)); };
    const int64_t begin = bound(shard), end = bound(shard + 1);
    if (begin == end)
        fail(KMX_E_INVALID_ARGUMENT, "shard %lld of %lld of '%s' holds no rows: the file has %llu rows",
             (long long)shard, (long long)shards, path, (unsigned long long)rows);
    return open_kmxd_rows(ctx, path, begin, end);
}

bool file_is_kmxd(const char *path) {
    unsigned char magic[sizeof kMagic] = {0};
    std::FILE *file = std::fopen(path, "rb");
    if (!file) return false;
    const size_t read = std::fread(magic, 1, sizeof magic, file);
    std::fclose(file);
    return is_kmxd(magic, read);
}

}  // namespace kmx
