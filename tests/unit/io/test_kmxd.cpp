// The .kmxd binary dataset file (lib/io/kmxd_format): round trips against the
// text reader, arrays used in place, row ranges, and every corruption a
// reader must name. The tests re-derive the layout from the documented
// format (kmxd_format.h) on their own, to patch fields and refresh checksums.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/context.h"
#include "core/dataset.h"
#include "core/error.h"
#include "io/crc32.h"
#include "io/kmxd_format.h"
#include "io/text_reader.h"
#include "io/text_shard.h"

namespace {

using DatasetPtr = std::unique_ptr<kmx::Dataset>;
using Bytes = std::vector<unsigned char>;

struct TempDir {
    std::string path;
    TempDir() {
        char pattern[] = "/tmp/kmx-kmxd-XXXXXX";
        path = mkdtemp(pattern);
    }
    ~TempDir() { std::system(("rm -rf '" + path + "'").c_str()); }
    std::string file(const char *name) const { return path + "/" + name; }
};

kmx::Context &context() {
    static kmx::Context ctx;
    ctx.threads = 2;
    ctx.begin_call();
    return ctx;
}

DatasetPtr load(const std::string &path, kmx_format format = KMX_FORMAT_AUTO) {
    return kmx::read_dataset_file(context(), path.c_str(), format);
}

DatasetPtr parse(const std::string &text) {
    return kmx::parse_dataset(context(), text.data(), text.size(), KMX_FORMAT_AUTO, "t");
}

std::string data_path(const char *file) {
    const char *dir = std::getenv("KMX_TEST_DATA");
    if (!dir) ADD_FAILURE() << "KMX_TEST_DATA is not set: run the tests through `meson test`";
    return std::string(dir ? dir : ".") + "/" + file;
}

std::string example_path(const char *file) {
    const char *dir = std::getenv("KMX_EXAMPLE_DATA");
    return std::string(dir ? dir : ".") + "/" + file;
}

Bytes read_bytes(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    return Bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

void write_bytes(const std::string &path, const Bytes &bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char *>(bytes.data()), std::streamsize(bytes.size()));
}

std::vector<double> dense(const kmx::Dataset &ds) {
    std::vector<double> out(size_t(ds.n * ds.d));
    ds.copy_rows(0, ds.n, out.data());
    return out;
}

std::vector<double> labels(const kmx::Dataset &ds) { return std::vector<double>(ds.y, ds.y + ds.n); }

// The file whose mapping (per /proc/self/maps) holds address p, or "".
std::string mapped_file_of(const void *p) {
    std::ifstream maps("/proc/self/maps");
    std::string line;
    const auto address = reinterpret_cast<uintptr_t>(p);
    while (std::getline(maps, line)) {
        unsigned long long begin = 0, end = 0;
        if (std::sscanf(line.c_str(), "%llx-%llx", &begin, &end) != 2) continue;
        if (address < begin || address >= end) continue;
        const size_t slash = line.find('/');
        return slash == std::string::npos ? "" : line.substr(slash);
    }
    return "";
}

// A sparse text (d = 5000 > 1024, density far below 10%: the reader keeps CSR).
std::string sparse_text() {
    std::string text;
    for (int r = 0; r < 300; ++r) {
        text += std::to_string(r % 3) + " ";
        for (int j = r % 7; j < 5000; j += 97 + r % 13)
            text += std::to_string(j + 1) + ":" + std::to_string(0.25 * (r - j % 11)) + " ";
        text += "\n";
    }
    text += "1 5000:2.5\n2\n";  // the last column, and an empty row
    return text;
}

// ---- the layout, from the format's documentation -----------------------------

uint32_t u32_at(const Bytes &b, size_t at) {
    uint32_t v = 0;
    for (int i = 3; i >= 0; --i) v = v << 8 | b[at + size_t(i)];
    return v;
}
uint64_t u64_at(const Bytes &b, size_t at) { return uint64_t(u32_at(b, at + 4)) << 32 | u32_at(b, at); }
void put_u32(Bytes &b, size_t at, uint32_t v) {
    for (int i = 0; i < 4; ++i) b[at + size_t(i)] = static_cast<unsigned char>(v >> (8 * i));
}
void put_u64(Bytes &b, size_t at, uint64_t v) {
    put_u32(b, at, uint32_t(v));
    put_u32(b, at + 4, uint32_t(v >> 32));
}

struct Array {
    size_t offset = 0, bytes = 0;
};

// labels, weights, row_ptr, col, values: where each lies (bytes 0 if absent),
// and the number of chunk checksums.
struct Layout {
    Array arrays[5];
    size_t chunks = 0;
};

Layout layout_of(const Bytes &b) {
    const uint32_t csr = u32_at(b, 16), f32 = u32_at(b, 20), flags = u32_at(b, 24), chunk = u32_at(b, 28);
    const uint64_t n = u64_at(b, 32), nnz = u64_at(b, 48);
    const size_t sizes[5] = {flags & 1 ? 8 * n : 0, flags & 2 ? 8 * n : 0, csr ? 8 * (n + 1) : 0, csr ? 4 * nnz : 0,
                             (f32 ? 4 : 8) * nnz};
    const bool present[5] = {(flags & 1) != 0, (flags & 2) != 0, csr != 0, csr != 0, true};
    Layout layout;
    for (size_t s : sizes) layout.chunks += (s + chunk - 1) / chunk;
    size_t at = 128 + 4 * layout.chunks;
    for (int a = 0; a < 5; ++a) {
        if (!present[a]) continue;
        at = (at + 63) / 64 * 64;
        layout.arrays[a] = Array{at, sizes[a]};
        at += sizes[a];
    }
    return layout;
}

// Recomputes every CRC-32 of a (patched) file, so that only the patch is wrong.
// A patched header can describe chunks and table entries beyond the end of
// the file (layout 7, chunk size 1000): those are left out, not read.
void refresh_checksums(Bytes &b) {
    const Layout layout = layout_of(b);
    const uint32_t chunk = u32_at(b, 28);
    size_t entry = 128;
    for (const Array &a : layout.arrays)
        for (size_t at = 0; at < a.bytes; at += chunk, entry += 4) {
            const size_t from = a.offset + at;
            if (from >= b.size() || entry + 4 > b.size()) continue;
            put_u32(b, entry, kmx::crc32(&b[from], std::min<size_t>({chunk, a.bytes - at, b.size() - from})));
        }
    put_u32(b, 64, kmx::crc32(&b[128], std::min<size_t>(4 * layout.chunks, b.size() - 128)));
    put_u32(b, 124, kmx::crc32(b.data(), 124));
}

struct Failure {
    kmx_status status = KMX_OK;
    std::string message;
};

Failure load_failure(const std::string &path) {
    try {
        load(path, KMX_FORMAT_KMXD);
    } catch (const kmx::Error &e) {
        return Failure{e.status(), e.what()};
    }
    return Failure{};
}

// Loading `bytes` as a .kmxd file fails with KMX_E_FORMAT naming the file and `what`.
void expect_corrupt(const TempDir &dir, const Bytes &bytes, const std::string &what) {
    const std::string path = dir.file("corrupt.kmxd");
    write_bytes(path, bytes);
    const Failure failure = load_failure(path);
    EXPECT_EQ(failure.status, KMX_E_FORMAT) << what;
    EXPECT_NE(failure.message.find("'" + path + "'"), std::string::npos) << failure.message;
    EXPECT_NE(failure.message.find(what), std::string::npos) << failure.message;
    // The in-memory decoder (kmx_dataset_parse) says the same.
    try {
        kmx::parse_dataset(context(), reinterpret_cast<const char *>(bytes.data()), bytes.size(), KMX_FORMAT_KMXD,
                           "mem");
        ADD_FAILURE() << "decoding from memory did not fail: " << what;
    } catch (const kmx::Error &e) {
        EXPECT_EQ(e.status(), KMX_E_FORMAT);
        EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    }
}

// A small dense file and a small CSR file (with weights) to corrupt.
struct Samples {
    TempDir dir;
    Bytes dense, sparse;
    Samples() {
        const DatasetPtr digits = load(data_path("digits_bin.train.libsvm"));
        kmx::write_kmxd_file(*digits, dir.file("d.kmxd").c_str(), false);
        dense = read_bytes(dir.file("d.kmxd"));
        DatasetPtr csr = parse(sparse_text());
        std::vector<double> w(size_t(csr->n), 0.5);
        csr->set_weights(w.data());
        kmx::write_kmxd_file(*csr, dir.file("s.kmxd").c_str(), false);
        sparse = read_bytes(dir.file("s.kmxd"));
    }
};

// ---- round trips ----------------------------------------------------------------

TEST(Kmxd, DenseRoundTripIsExactAndMappedInPlace) {
    TempDir dir;
    const DatasetPtr text = load(example_path("letter_bin.train.libsvm"));
    const std::string path = dir.file("letter.kmxd");
    kmx::write_kmxd_file(*text, path.c_str(), false);
    const DatasetPtr binary = load(path);
    ASSERT_FALSE(binary->sparse());
    EXPECT_EQ(binary->n, text->n);
    EXPECT_EQ(binary->d, text->d);
    EXPECT_EQ(dense(*binary), dense(*text));
    EXPECT_EQ(labels(*binary), labels(*text));
    EXPECT_EQ(binary->w, nullptr);
    // No copy: nothing allocated, and x and y lie in the file's mapping.
    EXPECT_EQ(binary->block(), nullptr);
    EXPECT_EQ(mapped_file_of(binary->x), path);
    EXPECT_EQ(mapped_file_of(binary->x + binary->n * binary->d - 1), path);
    EXPECT_EQ(mapped_file_of(binary->y), path);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(binary->x) % 64, 0u);
    // 12000 x 16 doubles plus labels and the header: the documented size.
    const Bytes bytes = read_bytes(path);
    EXPECT_EQ(bytes.size(), layout_of(bytes).arrays[4].offset + 12000u * 16u * 8u);
    EXPECT_EQ(u64_at(bytes, 56), bytes.size());
}

TEST(Kmxd, SparseRoundTripKeepsCsrAndWeights) {
    TempDir dir;
    DatasetPtr text = parse(sparse_text());
    ASSERT_TRUE(text->sparse());
    std::vector<double> w(size_t(text->n));
    for (size_t i = 0; i < w.size(); ++i) w[i] = double(i % 5);
    text->set_weights(w.data());
    const std::string path = dir.file("s.kmxd");
    kmx::write_kmxd_file(*text, path.c_str(), false);
    const DatasetPtr binary = load(path);
    ASSERT_TRUE(binary->sparse());
    ASSERT_EQ(binary->nnz(), text->nnz());
    EXPECT_EQ(std::vector<int64_t>(binary->row_ptr, binary->row_ptr + binary->n + 1),
              std::vector<int64_t>(text->row_ptr, text->row_ptr + text->n + 1));
    EXPECT_EQ(std::vector<int32_t>(binary->col, binary->col + binary->nnz()),
              std::vector<int32_t>(text->col, text->col + text->nnz()));
    EXPECT_EQ(dense(*binary), dense(*text));
    EXPECT_EQ(labels(*binary), labels(*text));
    EXPECT_EQ(std::vector<double>(binary->w, binary->w + binary->n), w);
    EXPECT_EQ(mapped_file_of(binary->col), path);
    EXPECT_EQ(mapped_file_of(binary->values), path);
}

TEST(Kmxd, Float32FileHoldsTheRoundedValues) {
    TempDir dir;
    const DatasetPtr text = load(data_path("boston_reg.test.csv"));
    const std::string path = dir.file("b32.kmxd");
    kmx::write_kmxd_file(*text, path.c_str(), true);
    const DatasetPtr binary = load(path);
    ASSERT_TRUE(binary->float32());
    EXPECT_EQ(binary->x, nullptr);
    EXPECT_EQ(mapped_file_of(binary->x32), path);
    std::vector<double> rounded = dense(*text);
    for (double &v : rounded) v = double(float(v));
    EXPECT_EQ(dense(*binary), rounded);
    EXPECT_EQ(labels(*binary), labels(*text));  // labels stay float64
    EXPECT_EQ(read_bytes(path).size(), layout_of(read_bytes(path)).arrays[4].offset + size_t(text->n * text->d) * 4);
    // Written again from the float32 dataset: the same bytes.
    kmx::write_kmxd_file(*binary, dir.file("again.kmxd").c_str(), false);
    EXPECT_EQ(read_bytes(dir.file("again.kmxd")), read_bytes(path));
}

TEST(Kmxd, Float32RefusesValuesBeyondItsRange) {
    TempDir dir;
    const DatasetPtr text = parse("1 1:1e300 2:1\n");
    try {
        kmx::write_kmxd_file(*text, dir.file("big.kmxd").c_str(), true);
        ADD_FAILURE() << "1e300 was written as a float";
    } catch (const kmx::Error &e) {
        EXPECT_EQ(e.status(), KMX_E_INVALID_ARGUMENT);
        EXPECT_NE(std::string(e.what()).find("float32"), std::string::npos) << e.what();
    }
    EXPECT_NE(access(dir.file("big.kmxd").c_str(), F_OK), 0);  // nothing left behind
}

TEST(Kmxd, DecodedFromMemoryAndDetectedByMagic) {
    TempDir dir;
    const DatasetPtr text = load(data_path("digits_bin.test.libsvm"));
    const std::string path = dir.file("t.kmxd");
    kmx::write_kmxd_file(*text, path.c_str(), false);
    Bytes bytes = read_bytes(path);
    bytes.insert(bytes.begin(), 'x');  // decoded from an unaligned buffer: copied first
    const DatasetPtr parsed = kmx::parse_dataset(context(), reinterpret_cast<const char *>(bytes.data()) + 1,
                                                 bytes.size() - 1, KMX_FORMAT_AUTO, "mem");
    EXPECT_EQ(dense(*parsed), dense(*text));
    EXPECT_EQ(dense(*load(path, KMX_FORMAT_KMXD)), dense(*text));
    // A text file asked for as .kmxd names the missing magic.
    const Failure failure = [&] {
        try {
            load(data_path("digits_bin.test.libsvm"), KMX_FORMAT_KMXD);
        } catch (const kmx::Error &e) {
            return Failure{e.status(), e.what()};
        }
        return Failure{};
    }();
    EXPECT_EQ(failure.status, KMX_E_FORMAT);
    EXPECT_NE(failure.message.find("not a .kmxd file"), std::string::npos) << failure.message;
}

TEST(Kmxd, BudgetBoundsTheMapping) {
    TempDir dir;
    const DatasetPtr text = load(example_path("letter_bin.train.libsvm"));
    kmx::write_kmxd_file(*text, dir.file("l.kmxd").c_str(), false);
    kmx::Context small;
    small.memory_budget = 100000;
    small.begin_call();
    try {
        kmx::read_dataset_file(small, dir.file("l.kmxd").c_str(), KMX_FORMAT_AUTO);
        ADD_FAILURE() << "a 1.6 MB mapping fit a 100 kB budget";
    } catch (const kmx::Error &e) {
        EXPECT_EQ(e.status(), KMX_E_OUT_OF_MEMORY) << e.what();
    }
}

// ---- corruption ---------------------------------------------------------------------

TEST(Kmxd, ShortFilesAndBadMagic) {
    Samples s;
    expect_corrupt(s.dir, Bytes(), "not a .kmxd file");
    expect_corrupt(s.dir, Bytes(s.dense.begin(), s.dense.begin() + 100), "truncated: 100 bytes");
    Bytes magic = s.dense;
    magic[1] = 'k';
    expect_corrupt(s.dir, magic, "not a .kmxd file");
    expect_corrupt(s.dir, Bytes(s.dense.begin(), s.dense.end() - 1), "truncated");
    Bytes longer = s.dense;
    longer.push_back(0);
    expect_corrupt(s.dir, longer, "1 unexpected bytes after the last array");
}

TEST(Kmxd, NewerVersionAndBadHeaderFields) {
    Samples s;
    Bytes newer = s.dense;
    put_u32(newer, 8, 2);
    expect_corrupt(s.dir, newer, "format version 2 is not one this kmx reads");
    Bytes flipped = s.dense;
    flipped[100] ^= 1;
    expect_corrupt(s.dir, flipped, "header's CRC-32 does not match");
    const struct {
        size_t at;
        uint32_t value;
        const char *what;
    } fields[] = {{12, 64, "header size 64"},
                  {16, 7, "layout 7"},
                  {20, 9, "value type 9"},
                  {24, 16, "unknown flags 0x10"},
                  {28, 1000, "chunk size 1000"}};
    for (const auto &field : fields) {
        Bytes patched = s.dense;
        put_u32(patched, field.at, field.value);
        refresh_checksums(patched);
        expect_corrupt(s.dir, patched, field.what);
    }
}

TEST(Kmxd, SizesThatOverflowOrDisagree) {
    Samples s;
    Bytes nnz = s.dense;
    put_u64(nnz, 48, u64_at(nnz, 48) + 1);
    put_u32(nnz, 124, kmx::crc32(nnz.data(), 124));
    expect_corrupt(s.dir, nnz, "is not n*d");
    Bytes rows = s.dense;  // one more row than the file holds
    put_u64(rows, 32, u64_at(rows, 32) + 1);
    put_u64(rows, 48, u64_at(rows, 48) + u64_at(rows, 40));
    put_u32(rows, 124, kmx::crc32(rows.data(), 124));
    expect_corrupt(s.dir, rows, "bytes but the header says the file has");
    Bytes huge = s.sparse;  // 8 * nnz overflows 64 bits
    put_u64(huge, 32, uint64_t(1) << 40);
    put_u64(huge, 40, (uint64_t(1) << 31) - 1);
    put_u64(huge, 48, uint64_t(1) << 62);
    put_u32(huge, 124, kmx::crc32(huge.data(), 124));
    expect_corrupt(s.dir, huge, "sizes overflow");
    Bytes no_rows = s.dense;
    put_u64(no_rows, 32, 0);
    put_u32(no_rows, 124, kmx::crc32(no_rows.data(), 124));
    expect_corrupt(s.dir, no_rows, "n = 0 rows is out of range");
    Bytes claimed = s.dense;  // the header claims more bytes than there are
    put_u64(claimed, 56, claimed.size() + 64);
    put_u32(claimed, 124, kmx::crc32(claimed.data(), 124));
    expect_corrupt(s.dir, claimed, "the header says " + std::to_string(claimed.size() + 64));
}

TEST(Kmxd, CorruptDataFailsItsChunkChecksum) {
    Samples s;
    const Layout layout = layout_of(s.dense);
    Bytes value = s.dense;
    value[layout.arrays[4].offset + 1000] ^= 0x40;
    expect_corrupt(s.dir, value, "values: the CRC-32 of bytes 0 to");
    Bytes table = s.dense;
    table[130] ^= 1;
    expect_corrupt(s.dir, table, "checksum table's CRC-32");
}

TEST(Kmxd, CsrStructureIsValidated) {
    Samples s;
    const Layout layout = layout_of(s.sparse);
    const size_t row_ptr = layout.arrays[2].offset, col = layout.arrays[3].offset;
    auto patched = [&](auto &&patch) {
        Bytes b = s.sparse;
        patch(b);
        refresh_checksums(b);
        return b;
    };
    expect_corrupt(s.dir, patched([&](Bytes &b) { put_u64(b, row_ptr + 8 * 5, u64_at(b, row_ptr + 8 * 4) - 1); }),
                   "row_ptr[5]");
    expect_corrupt(s.dir, patched([&](Bytes &b) { put_u64(b, row_ptr, 1); }), "row_ptr[0] = 1 is not 0");
    expect_corrupt(s.dir, patched([&](Bytes &b) { put_u32(b, col + 4, 5000); }), "column 5000 is out of range");
    expect_corrupt(s.dir, patched([&](Bytes &b) { put_u32(b, col + 4, uint32_t(-3)); }), "column -3 is out of range");
    expect_corrupt(s.dir, patched([&](Bytes &b) { put_u32(b, col + 4, u32_at(b, col)); }), "is not increasing");
}

TEST(Kmxd, NonFiniteValuesLabelsAndBadWeights) {
    Samples s;
    const Layout dense = layout_of(s.dense), sparse = layout_of(s.sparse);
    const uint64_t nan = 0x7ff8000000000000ull, inf = 0x7ff0000000000000ull;
    Bytes value = s.dense;
    put_u64(value, dense.arrays[4].offset + 8 * (3 * 64 + 5), nan);
    refresh_checksums(value);
    expect_corrupt(s.dir, value, "x[3,5] is NaN");
    Bytes label = s.dense;
    put_u64(label, dense.arrays[0].offset + 8 * 7, inf);
    refresh_checksums(label);
    expect_corrupt(s.dir, label, "labels[7] is not finite");
    Bytes weight = s.sparse;
    put_u64(weight, sparse.arrays[1].offset + 8 * 2, 0xbff0000000000000ull);  // -1.0
    refresh_checksums(weight);
    expect_corrupt(s.dir, weight, "weights[2] = -1 is not a finite non-negative number");
    Bytes zero = s.sparse;
    for (size_t i = 0; i < u64_at(zero, 32); ++i) put_u64(zero, sparse.arrays[1].offset + 8 * i, 0);
    refresh_checksums(zero);
    expect_corrupt(s.dir, zero, "the weights are all zero");
    Bytes sparse_value = s.sparse;
    put_u64(sparse_value, sparse.arrays[4].offset + 8 * 10, inf);
    refresh_checksums(sparse_value);
    expect_corrupt(s.dir, sparse_value, "is infinite");
}

// ---- row ranges -----------------------------------------------------------------------

TEST(Kmxd, RowRangesMatchTheWholeFile) {
    TempDir dir;
    const DatasetPtr text = load(example_path("letter_bin.train.libsvm"));  // 1.5 MB of values: two chunks
    const std::string path = dir.file("l.kmxd");
    kmx::write_kmxd_file(*text, path.c_str(), false);
    const std::vector<double> all = dense(*text);
    for (auto range : {std::pair<int64_t, int64_t>{0, 1}, {3, 10}, {8000, 8500}, {11999, 12000}, {0, 12000}}) {
        const DatasetPtr part = kmx::open_kmxd_rows(context(), path.c_str(), range.first, range.second);
        ASSERT_EQ(part->n, range.second - range.first);
        EXPECT_EQ(part->d, 16);
        EXPECT_EQ(dense(*part), std::vector<double>(all.begin() + range.first * 16, all.begin() + range.second * 16));
        EXPECT_EQ(labels(*part), std::vector<double>(text->y + range.first, text->y + range.second));
        EXPECT_EQ(mapped_file_of(part->x), path);
    }
}

// A rank's shard of a .kmxd file (kmx_dataset_load_shard's path): rows
// [s·n/P, (s+1)·n/P), read in place, recognised by KMX_FORMAT_AUTO too; the
// shards in order are the whole file, for every P; a rowless shard is refused.
TEST(Kmxd, ShardsAreRowRangesThatPartitionTheFile) {
    TempDir dir;
    const DatasetPtr text = load(example_path("letter_bin.train.libsvm"));
    const std::string path = dir.file("l.kmxd");
    kmx::write_kmxd_file(*text, path.c_str(), false);
    const std::vector<double> all = dense(*text);
    for (int64_t shards : {1, 2, 3, 7})
        for (kmx_format format : {KMX_FORMAT_AUTO, KMX_FORMAT_KMXD}) {
            std::vector<double> joined, joined_labels;
            for (int64_t s = 0; s < shards; ++s) {
                const DatasetPtr part = kmx::read_dataset_shard(context(), path.c_str(), format, s, shards);
                EXPECT_EQ(part->n, (s + 1) * 12000 / shards - s * 12000 / shards);
                EXPECT_EQ(mapped_file_of(part->x), path);
                const std::vector<double> values = dense(*part), y = labels(*part);
                joined.insert(joined.end(), values.begin(), values.end());
                joined_labels.insert(joined_labels.end(), y.begin(), y.end());
            }
            EXPECT_EQ(joined, all);
            EXPECT_EQ(joined_labels, std::vector<double>(text->y, text->y + text->n));
        }
    const DatasetPtr tiny = parse("1 1:1\n-1 2:1\n");
    const std::string tiny_path = dir.file("t.kmxd");
    kmx::write_kmxd_file(*tiny, tiny_path.c_str(), false);
    try {
        kmx::read_dataset_shard(context(), tiny_path.c_str(), KMX_FORMAT_AUTO, 0, 3);
        FAIL() << "a shard without rows was read";
    } catch (const kmx::Error &e) {
        EXPECT_NE(std::string(e.what()).find("holds no rows: the file has 2 rows"), std::string::npos) << e.what();
    }
}

TEST(Kmxd, SparseRowRangesAreRebased) {
    TempDir dir;
    DatasetPtr text = parse(sparse_text());
    std::vector<double> w(size_t(text->n), 2.0);
    text->set_weights(w.data());
    const std::string path = dir.file("s.kmxd");
    kmx::write_kmxd_file(*text, path.c_str(), true);
    const std::vector<double> all = dense(*text);
    for (auto range : {std::pair<int64_t, int64_t>{0, 302}, {10, 11}, {150, 302}, {301, 302}}) {
        const DatasetPtr part = kmx::open_kmxd_rows(context(), path.c_str(), range.first, range.second);
        ASSERT_TRUE(part->sparse());
        EXPECT_EQ(part->row_ptr[0], 0);
        std::vector<double> expected(all.begin() + range.first * 5000, all.begin() + range.second * 5000);
        for (double &v : expected) v = double(float(v));
        EXPECT_EQ(dense(*part), expected);
        EXPECT_EQ(std::vector<double>(part->w, part->w + part->n), std::vector<double>(size_t(part->n), 2.0));
    }
}

TEST(Kmxd, RowRangesVerifyOnlyTheirChunksAndRefuseBadRanges) {
    TempDir dir;
    const DatasetPtr text = load(example_path("letter_bin.train.libsvm"));
    const std::string path = dir.file("l.kmxd");
    kmx::write_kmxd_file(*text, path.c_str(), false);
    Bytes bytes = read_bytes(path);
    const Layout layout = layout_of(bytes);
    bytes[layout.arrays[4].offset + (size_t(1) << 20) + 8] ^= 1;  // in row 8192's values: the second chunk
    write_bytes(path, bytes);
    EXPECT_EQ(kmx::open_kmxd_rows(context(), path.c_str(), 0, 8000)->n, 8000);
    for (auto range : {std::pair<int64_t, int64_t>{8100, 8200}, {0, 12000}}) {
        try {
            kmx::open_kmxd_rows(context(), path.c_str(), range.first, range.second);
            ADD_FAILURE() << "a corrupt chunk was read";
        } catch (const kmx::Error &e) {
            EXPECT_EQ(e.status(), KMX_E_FORMAT);
            EXPECT_NE(std::string(e.what()).find("values: the CRC-32 of bytes 1048576"), std::string::npos) << e.what();
        }
    }
    for (auto range : {std::pair<int64_t, int64_t>{5, 5}, {-1, 3}, {0, 12001}}) {
        try {
            kmx::open_kmxd_rows(context(), path.c_str(), range.first, range.second);
            ADD_FAILURE() << "a bad range was read";
        } catch (const kmx::Error &e) {
            EXPECT_EQ(e.status(), KMX_E_INVALID_ARGUMENT) << e.what();
        }
    }
}

// ---- precision=float32 text loading ----------------------------------------------

DatasetPtr parse_float32(const std::string &text) {
    kmx::Context ctx;
    ctx.float32_data = true;
    ctx.begin_call();
    return kmx::parse_dataset(ctx, text.data(), text.size(), KMX_FORMAT_AUTO, "t");
}

TEST(TextFloat32, DenseAndCsrStoreTheRoundedValues) {
    for (const std::string &text : {std::string("1 1:0.1 3:1e-3\n-1 2:3.14159265358979\n"), sparse_text()}) {
        const DatasetPtr wide = parse(text), narrow = parse_float32(text);
        ASSERT_TRUE(narrow->float32());
        EXPECT_EQ(narrow->sparse(), wide->sparse());
        EXPECT_EQ(narrow->x, nullptr);
        EXPECT_EQ(narrow->values, nullptr);
        std::vector<double> rounded = dense(*wide);
        for (double &v : rounded) v = double(float(v));
        EXPECT_EQ(dense(*narrow), rounded);
        EXPECT_EQ(labels(*narrow), labels(*wide));  // labels stay double
    }
}

TEST(TextFloat32, ValueBeyondFloatRangeNamesItsLine) {
    try {
        parse_float32("1 1:1\n2 2:1e39\n");
        ADD_FAILURE() << "1e39 was stored as a float";
    } catch (const kmx::Error &e) {
        EXPECT_EQ(e.status(), KMX_E_FORMAT);
        EXPECT_EQ(std::string(e.what()).rfind("t:2:", 0), 0u) << e.what();
        EXPECT_NE(std::string(e.what()).find("float32"), std::string::npos) << e.what();
    }
}

TEST(TextFloat32, HalvesTheBlockThatTheBudgetIsCheckedFor) {
    std::string text;
    for (int r = 0; r < 1000; ++r) {
        text += std::to_string(r % 2);
        for (int j = 1; j <= 100; ++j) text += " " + std::to_string(j) + ":" + std::to_string(r * 0.001 + j);
        text += "\n";
    }
    // 1000 x 100 values: 800 kB as doubles, 400 kB as floats (plus 8 kB of labels).
    kmx::Context ctx;
    ctx.memory_budget = 600000;
    ctx.begin_call();
    EXPECT_THROW(kmx::parse_dataset(ctx, text.data(), text.size(), KMX_FORMAT_AUTO, "t"), kmx::Error);
    ctx.float32_data = true;
    ctx.begin_call();
    EXPECT_EQ(kmx::parse_dataset(ctx, text.data(), text.size(), KMX_FORMAT_AUTO, "t")->n, 1000);
}

}  // namespace
