// Model files: save/load through a file and a buffer give bitwise the same
// predictions; every flipped byte, every truncation and foreign files are
// KMX_E_FORMAT, never a crash.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>

#include "io/crc32.h"
#include "model_test_data.h"

namespace {

using namespace model_test;

std::string temp_path(const char *name) {
    return std::string(::testing::TempDir()) + "kmx_model_" + std::to_string(getpid()) + "_" + name;
}

void expect_same_predictions(const kmx_model *a, const kmx_model *b, const kmx_dataset *data, int64_t n) {
    const std::vector<double> va = decision_values(a, data, n), vb = decision_values(b, data, n);
    ASSERT_EQ(va.size(), vb.size());
    EXPECT_EQ(std::memcmp(va.data(), vb.data(), va.size() * sizeof(double)), 0);
    for (int key = KMX_INFO_METHOD; key <= KMX_INFO_MULTICLASS; ++key) {
        double x = 0, y = 0;
        ASSERT_EQ(kmx_model_info(&x, a, kmx_model_info_key(key)), KMX_OK);
        ASSERT_EQ(kmx_model_info(&y, b, kmx_model_info_key(key)), KMX_OK);
        EXPECT_EQ(x, y) << "info key " << key;
    }
}

kmx_status load_bytes(const std::vector<unsigned char> &bytes, size_t len) {
    kmx_model *model = nullptr;
    const kmx_status status = kmx_model_load_from_buffer(&model, bytes.data(), int64_t(len));
    kmx_model_free(model);
    return status;
}

struct SmallModels : ::testing::Test {
    Rows rows = load_rows("letter_mc.train.libsvm", 3, 240);
    kmx_dataset *data = make_dataset(rows);
    kmx_kernel *kernel = rbf(4);
    void TearDown() override {
        kmx_dataset_free(data);
        kmx_kernel_free(kernel);
    }
    // A global model (svm, ovo), an early-prediction model (partitions
    // stored), a global model whose classes have names (format version 3)
    // and one with probability sigmoids (format version 4, no names).
    std::vector<kmx_model *> models() {
        kmx_model *named = train("method=svm C=2", kernel, data);
        if (named && kmx_model_set_class_names(named, "alpha\nbeta\ngamma") != KMX_OK)
            ADD_FAILURE() << kmx_last_error();
        return {
            train("method=svm C=4", kernel, data),
            train("method=dcsvm_early C=4 levels=1 early_level=1 clusters_per_level=3 sample_size=60", kernel, data),
            named, train("method=svm C=2 probability=1", kernel, data)};
    }
};

TEST_F(SmallModels, FileAndBufferRoundTripsPredictBitwiseAlike) {
    for (kmx_model *model : models()) {
        ASSERT_NE(model, nullptr);
        const std::string path = temp_path("roundtrip.kmx");
        ASSERT_EQ(kmx_model_save(model, path.c_str()), KMX_OK) << kmx_last_error();
        kmx_model *loaded = nullptr;
        ASSERT_EQ(kmx_model_load(&loaded, path.c_str()), KMX_OK) << kmx_last_error();
        expect_same_predictions(model, loaded, data, rows.n());
        const std::vector<unsigned char> bytes = saved_bytes(model);
        kmx_model *from_buffer = nullptr;
        ASSERT_EQ(kmx_model_load_from_buffer(&from_buffer, bytes.data(), int64_t(bytes.size())), KMX_OK);
        expect_same_predictions(model, from_buffer, data, rows.n());
        EXPECT_EQ(saved_bytes(from_buffer), bytes);  // saving is deterministic
        std::remove(path.c_str());
        kmx_model_free(from_buffer);
        kmx_model_free(loaded);
        kmx_model_free(model);
    }
}

TEST_F(SmallModels, EveryFlippedByteIsAFormatError) {
    for (kmx_model *model : models()) {
        ASSERT_NE(model, nullptr);
        std::vector<unsigned char> bytes = saved_bytes(model);
        for (size_t i = 0; i < bytes.size(); ++i) {
            const unsigned char flip = static_cast<unsigned char>(1u << (i % 8));
            bytes[i] ^= flip;
            ASSERT_EQ(load_bytes(bytes, bytes.size()), KMX_E_FORMAT) << "byte " << i << " of " << bytes.size();
            bytes[i] ^= flip;
        }
        EXPECT_EQ(load_bytes(bytes, bytes.size()), KMX_OK);
        kmx_model_free(model);
    }
}

uint64_t get_le(const std::vector<unsigned char> &b, size_t at, int bytes) {
    uint64_t v = 0;
    for (int i = 0; i < bytes; ++i) v |= uint64_t(b[at + size_t(i)]) << (8 * i);
    return v;
}

void put_le32(std::vector<unsigned char> &b, size_t at, uint32_t v) {
    for (int i = 0; i < 4; ++i) b[at + size_t(i)] = static_cast<unsigned char>(v >> (8 * i));
}

// Recomputes every section checksum and the header checksum (16-byte header
// whose last word is the section count s, s table entries of 24 bytes, then
// the header CRC), so that the checks behind the checksums are what a change meets.
size_t table_end(const std::vector<unsigned char> &b) { return 16 + 24 * size_t(get_le(b, 12, 4)); }

void refresh_checksums(std::vector<unsigned char> &b, size_t table) {
    for (size_t s = 0; 16 + 24 * s < table; ++s) {
        const size_t entry = 16 + 24 * s;
        const uint64_t offset = get_le(b, entry + 8, 8), length = get_le(b, entry + 16, 8);
        if (offset <= b.size() && length <= b.size() - offset)
            put_le32(b, entry + 4, kmx::crc32(b.data() + offset, size_t(length)));
    }
    put_le32(b, table, kmx::crc32(b.data(), table));
}

TEST_F(SmallModels, ChangesBehindValidChecksumsAreCaughtOrHarmless) {
    for (kmx_model *model : models()) {
        ASSERT_NE(model, nullptr);
        const std::vector<unsigned char> bytes = saved_bytes(model);
        Rows few = rows;
        few.y.resize(8);
        few.x.resize(8 * size_t(few.d));
        kmx_dataset *few_data = make_dataset(few);
        std::vector<double> out(8 * 3);
        int accepted = 0;
        // Every structural byte; one in 13 of the points (plain values).
        const size_t points_begin = size_t(get_le(bytes, 16 + 24 * 2 + 8, 8));
        const size_t points_end = points_begin + size_t(get_le(bytes, 16 + 24 * 2 + 16, 8));
        const size_t table = table_end(bytes);
        for (size_t i = table + 4; i < bytes.size(); ++i) {
            if (i >= points_begin && i < points_end && i % 13 != 0) continue;
            std::vector<unsigned char> changed = bytes;
            changed[i] ^= static_cast<unsigned char>(1u << (i % 8));
            refresh_checksums(changed, table);
            kmx_model *loaded = nullptr;
            const kmx_status status = kmx_model_load_from_buffer(&loaded, changed.data(), int64_t(changed.size()));
            ASSERT_TRUE(status == KMX_OK || status == KMX_E_FORMAT) << "byte " << i << ": " << kmx_last_error();
            if (loaded) {
                ++accepted;  // a changed value that is still a valid model must predict
                const kmx_status predicted =
                    kmx_model_decision_values(out.data(), int64_t(out.size()), nullptr, loaded, few_data);
                EXPECT_TRUE(predicted == KMX_OK || predicted == KMX_E_INVALID_ARGUMENT) << "byte " << i;
            }
            kmx_model_free(loaded);
        }
        EXPECT_GT(accepted, 0);
        kmx_dataset_free(few_data);
        kmx_model_free(model);
    }
}

TEST_F(SmallModels, EveryTruncationIsAFormatError) {
    for (kmx_model *model : models()) {
        ASSERT_NE(model, nullptr);
        const std::vector<unsigned char> bytes = saved_bytes(model);
        for (size_t len = 0; len < bytes.size(); ++len)
            ASSERT_EQ(load_bytes(bytes, len), KMX_E_FORMAT) << "length " << len;
        std::vector<unsigned char> longer = bytes;
        longer.push_back(0);
        EXPECT_EQ(load_bytes(longer, longer.size()), KMX_OK);  // sections are located by the table
        kmx_model_free(model);
    }
}

TEST_F(SmallModels, BufferSizeQueryAndShortBuffer) {
    kmx_model *model = train("method=svm C=4", kernel, data);
    ASSERT_NE(model, nullptr);
    int64_t size = 0;
    ASSERT_EQ(kmx_model_save_to_buffer(nullptr, 0, &size, model), KMX_OK);
    ASSERT_GT(size, 16);
    std::vector<unsigned char> small(static_cast<size_t>(size - 1));
    int64_t reported = 0;
    EXPECT_EQ(kmx_model_save_to_buffer(small.data(), size - 1, &reported, model), KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(reported, size);
    EXPECT_EQ(kmx_model_save_to_buffer(nullptr, 0, nullptr, model), KMX_E_INVALID_ARGUMENT);
    kmx_model_free(model);
}

TEST(ModelFile, ForeignAndMissingFiles) {
    kmx_model *model = nullptr;
    EXPECT_EQ(kmx_model_load(&model, example_path("letter_bin.test.libsvm").c_str()), KMX_E_FORMAT);
    EXPECT_NE(std::string(kmx_last_error()).find("not a kmx model"), std::string::npos) << kmx_last_error();
    EXPECT_EQ(model, nullptr);
    EXPECT_EQ(kmx_model_load(&model, "/nonexistent/model.kmx"), KMX_E_IO);
    const char text[] = "KMXMODEL but then nothing sensible";
    EXPECT_EQ(kmx_model_load_from_buffer(&model, text, sizeof text), KMX_E_FORMAT);
    EXPECT_EQ(kmx_model_load_from_buffer(&model, text, 0), KMX_E_FORMAT);
    EXPECT_EQ(kmx_model_load_from_buffer(&model, nullptr, 10), KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(kmx_model_load_from_buffer(&model, text, -1), KMX_E_INVALID_ARGUMENT);
}

TEST_F(SmallModels, SavingToAMissingFolderIsAnIoErrorAndLeavesNothing) {
    kmx_model *model = train("method=svm C=4", kernel, data);
    ASSERT_NE(model, nullptr);
    EXPECT_EQ(kmx_model_save(model, "/nonexistent/folder/model.kmx"), KMX_E_IO);
    EXPECT_NE(std::string(kmx_last_error()).find("/nonexistent/folder/"), std::string::npos);
    EXPECT_EQ(kmx_model_save(nullptr, "x"), KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(kmx_model_save(model, nullptr), KMX_E_INVALID_ARGUMENT);
    kmx_model_free(model);
}

// A file from a newer kmx (a higher format version, its checksums valid) is
// named as such, not as corrupt.
TEST_F(SmallModels, NewerFormatVersionIsNamed) {
    kmx_model *model = train("method=svm C=4", kernel, data);
    ASSERT_NE(model, nullptr);
    std::vector<unsigned char> bytes = saved_bytes(model);
    EXPECT_EQ(get_le(bytes, 8, 4), 2u);  // no class names: the version older kmx reads
    put_le32(bytes, 8, 6);
    refresh_checksums(bytes, table_end(bytes));
    kmx_model *loaded = nullptr;
    EXPECT_EQ(kmx_model_load_from_buffer(&loaded, bytes.data(), int64_t(bytes.size())), KMX_E_FORMAT);
    const std::string expected = "model format version 6; this kmx reads versions 2 to 5";
    EXPECT_NE(std::string(kmx_last_error()).find(expected), std::string::npos) << kmx_last_error();
    EXPECT_EQ(loaded, nullptr);
    kmx_model_free(model);
}

std::string class_names(const kmx_model *model) {
    int64_t size = 0;
    if (kmx_model_class_names(nullptr, 0, &size, model) != KMX_OK) return "<error>";
    std::string names(size_t(size), '\0');
    if (kmx_model_class_names(names.data(), size, &size, model) != KMX_OK) return "<error>";
    names.pop_back();  // the NUL
    return names;
}

// Class names (R's factor levels, Java's String labels) travel with the model:
// saved as format version 3, loaded with it; without names the file stays version 2.
TEST_F(SmallModels, ClassNamesSurviveSavingAndLoading) {
    kmx_model *model = train("method=svm C=4", kernel, data);
    ASSERT_NE(model, nullptr);
    EXPECT_EQ(class_names(model), "");
    const std::vector<unsigned char> plain = saved_bytes(model);
    const std::string names = "setosa\nversicolor \xc3\xa9\nvirginica";
    ASSERT_EQ(kmx_model_set_class_names(model, names.c_str()), KMX_OK) << kmx_last_error();
    const std::vector<unsigned char> named = saved_bytes(model);
    EXPECT_EQ(get_le(plain, 8, 4), 2u);
    EXPECT_EQ(get_le(named, 8, 4), 3u);
    const std::string path = temp_path("named.kmx");
    ASSERT_EQ(kmx_model_save(model, path.c_str()), KMX_OK) << kmx_last_error();
    kmx_model *loaded = nullptr;
    ASSERT_EQ(kmx_model_load(&loaded, path.c_str()), KMX_OK) << kmx_last_error();
    expect_same_predictions(model, loaded, data, rows.n());
    EXPECT_EQ(class_names(loaded), names);
    // Too small a buffer still reports the size.
    char small[4];
    int64_t size = 0;
    EXPECT_EQ(kmx_model_class_names(small, 4, &size, loaded), KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(size, int64_t(names.size() + 1));
    // Removing them gives back the version-2 bytes; a trailing newline is allowed.
    ASSERT_EQ(kmx_model_set_class_names(loaded, ""), KMX_OK);
    EXPECT_EQ(saved_bytes(loaded), plain);
    EXPECT_EQ(class_names(loaded), "");
    ASSERT_EQ(kmx_model_set_class_names(loaded, "a\nb\nc\n"), KMX_OK);
    EXPECT_EQ(class_names(loaded), "a\nb\nc");
    ASSERT_EQ(kmx_model_set_class_names(loaded, nullptr), KMX_OK);
    EXPECT_EQ(class_names(loaded), "");
    std::remove(path.c_str());
    kmx_model_free(loaded);
    kmx_model_free(model);
}

TEST_F(SmallModels, BadClassNamesAreRefusedAndLeaveTheNamesAlone) {
    kmx_model *model = train("method=svm C=4", kernel, data);
    ASSERT_NE(model, nullptr);
    ASSERT_EQ(kmx_model_set_class_names(model, "a\nb\nc"), KMX_OK);
    const std::string too_long = "a\n" + std::string(256, 'x') + "\nc";
    const std::pair<std::string, const char *> cases[] = {{"a\nb\na", "same name"},
                                                          {"a\n\nc", "1 to 255 bytes"},
                                                          {"a\nb\tc\nd", "control character"},
                                                          {too_long, "1 to 255 bytes"},
                                                          {"a\nb", "one name per class is needed (2 names for 3"},
                                                          {"a\nb\nc\nd", "(4 names for 3 classes)"}};
    for (const auto &[names, reason] : cases) {
        EXPECT_EQ(kmx_model_set_class_names(model, names.c_str()), KMX_E_INVALID_ARGUMENT) << reason;
        EXPECT_NE(std::string(kmx_last_error()).find(reason), std::string::npos) << kmx_last_error();
    }
    EXPECT_EQ(kmx_model_set_class_names(nullptr, "a\nb\nc"), KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(class_names(model), "a\nb\nc");  // unchanged by the refusals
    kmx_model_free(model);
}

// A names section that does not fit the classes, behind valid checksums, is
// a format error naming it.
TEST_F(SmallModels, ClassNamesThatDoNotFitTheClassesAreAFormatError) {
    kmx_model *model = train("method=svm C=4", kernel, data);
    ASSERT_NE(model, nullptr);
    ASSERT_EQ(kmx_model_set_class_names(model, "a\nb\na2"), KMX_OK);
    std::vector<unsigned char> bytes = saved_bytes(model);
    ASSERT_EQ(bytes.back(), '2');
    bytes.back() = '\0';  // "a2" becomes "a" and a NUL: a control character
    refresh_checksums(bytes, table_end(bytes));
    kmx_model *loaded = nullptr;
    EXPECT_EQ(kmx_model_load_from_buffer(&loaded, bytes.data(), int64_t(bytes.size())), KMX_E_FORMAT);
    EXPECT_NE(std::string(kmx_last_error()).find("class names section: a class name holds a control character"),
              std::string::npos)
        << kmx_last_error();
    EXPECT_EQ(loaded, nullptr);
    kmx_model_free(model);
}

std::vector<double> probabilities(const kmx_model *model, const kmx_dataset *data, int64_t n) {
    std::vector<double> p(size_t(n * 3));
    EXPECT_EQ(kmx_model_predict_probability(p.data(), int64_t(p.size()), nullptr, model, data), KMX_OK)
        << kmx_last_error();
    return p;
}

// Probability sigmoids travel with the model as format version 4 (with or
// without class names); a model trained without them is still version 2.
TEST_F(SmallModels, SigmoidsSurviveSavingAndLoading) {
    kmx_model *model = train("method=svm C=2 probability=1", kernel, data);
    ASSERT_NE(model, nullptr);
    const std::vector<unsigned char> bytes = saved_bytes(model);
    EXPECT_EQ(get_le(bytes, 8, 4), 4u);
    EXPECT_EQ(get_le(bytes, 12, 4), 7u);  // sections
    kmx_model *loaded = nullptr;
    ASSERT_EQ(kmx_model_load_from_buffer(&loaded, bytes.data(), int64_t(bytes.size())), KMX_OK) << kmx_last_error();
    EXPECT_EQ(probabilities(model, data, rows.n()), probabilities(loaded, data, rows.n()));
    double has = 0;
    ASSERT_EQ(kmx_model_info(&has, loaded, KMX_INFO_PROBABILITY), KMX_OK);
    EXPECT_EQ(has, 1);
    EXPECT_EQ(class_names(loaded), "");
    ASSERT_EQ(kmx_model_set_class_names(loaded, "a\nb\nc"), KMX_OK);
    kmx_model *named = nullptr;
    const std::vector<unsigned char> named_bytes = saved_bytes(loaded);
    EXPECT_EQ(get_le(named_bytes, 8, 4), 4u);
    ASSERT_EQ(kmx_model_load_from_buffer(&named, named_bytes.data(), int64_t(named_bytes.size())), KMX_OK);
    EXPECT_EQ(class_names(named), "a\nb\nc");
    EXPECT_EQ(probabilities(named, data, rows.n()), probabilities(model, data, rows.n()));
    kmx_model *plain = train("method=svm C=2", kernel, data);
    ASSERT_NE(plain, nullptr);
    EXPECT_EQ(get_le(saved_bytes(plain), 8, 4), 2u);
    kmx_model_free(plain);
    kmx_model_free(named);
    kmx_model_free(loaded);
    kmx_model_free(model);
}

// The sigmoids section is the file's last (id 7): its fields behind valid
// checksums are checked and named.
TEST_F(SmallModels, SigmoidsThatDoNotFitAreAFormatError) {
    kmx_model *model = train("method=svm C=2 probability=1", kernel, data);
    ASSERT_NE(model, nullptr);
    const std::vector<unsigned char> bytes = saved_bytes(model);
    const size_t sigmoids = size_t(get_le(bytes, 16 + 24 * 6 + 8, 8));  // section 7's offset
    ASSERT_EQ(get_le(bytes, sigmoids, 8), 3u);                          // one sigmoid per machine
    const auto expect_error = [&](std::vector<unsigned char> changed, const char *message) {
        refresh_checksums(changed, table_end(changed));
        kmx_model *loaded = nullptr;
        EXPECT_EQ(kmx_model_load_from_buffer(&loaded, changed.data(), int64_t(changed.size())), KMX_E_FORMAT);
        EXPECT_NE(std::string(kmx_last_error()).find(message), std::string::npos) << kmx_last_error();
        EXPECT_EQ(loaded, nullptr);
    };
    std::vector<unsigned char> changed = bytes;
    changed[sigmoids] = 2;
    expect_error(changed, "sigmoids section: the sigmoids do not match the machines");
    changed = bytes;
    for (int i = 0; i < 8; ++i) changed[sigmoids + 8 + size_t(i)] = i == 7 ? 0x7f : i == 6 ? 0xf0 : 0;  // A = inf
    expect_error(changed, "sigmoids section: a sigmoid's A is not finite");
    changed = bytes;
    changed.resize(bytes.size() - 8);  // the last B cut off
    put_le32(changed, 16 + 24 * 6 + 16, uint32_t(get_le(bytes, 16 + 24 * 6 + 16, 8) - 8));
    expect_error(changed, "model sigmoids section");
    kmx_model_free(model);
}

// A model without stored points (an SVR whose tube holds every row) may
// declare any column count: a crafted one declaring 5 million columns must not
// make prediction widen each row to them (issue 21: 1.57 GB, 11 s). Its values
// are its bias, computed with no row workspace.
TEST_F(SmallModels, AModelWithoutPointsDeclaringMillionsOfColumnsPredictsWithoutWideningRows) {
    kmx_model *model = train("method=svr C=1 epsilon_svr=100", kernel, data);  // labels are 1..26: all inside
    ASSERT_NE(model, nullptr);
    double support_vectors = -1;
    ASSERT_EQ(kmx_model_info(&support_vectors, model, KMX_INFO_SUPPORT_VECTORS), KMX_OK);
    ASSERT_EQ(support_vectors, 0);
    std::vector<unsigned char> bytes = saved_bytes(model);
    const size_t meta = size_t(get_le(bytes, 16 + 8, 8));  // section 1's offset
    const size_t d_at = meta + 4 * 4 + 8 * 2 + 4;          // after method..kernel, gamma, coef0, degree
    ASSERT_EQ(get_le(bytes, d_at, 8), uint64_t(rows.d));
    for (int i = 0; i < 8; ++i) bytes[d_at + size_t(i)] = static_cast<unsigned char>(uint64_t(5000000) >> (8 * i));
    refresh_checksums(bytes, table_end(bytes));
    kmx_model *wide = nullptr;
    ASSERT_EQ(kmx_model_load_from_buffer(&wide, bytes.data(), int64_t(bytes.size())), KMX_OK) << kmx_last_error();
    double columns = 0;
    ASSERT_EQ(kmx_model_info(&columns, wide, KMX_INFO_COLUMNS), KMX_OK);
    EXPECT_EQ(columns, 5e6);
    const char text[] = "3 1:0.5 7:1\n4 2:0.25\n";
    kmx_context *ctx = nullptr;
    ASSERT_EQ(kmx_context_create(&ctx), KMX_OK);
    kmx_dataset *narrow = nullptr;
    ASSERT_EQ(kmx_dataset_parse(&narrow, ctx, text, int64_t(sizeof text - 1), KMX_FORMAT_LIBSVM, "narrow"), KMX_OK);
    std::vector<double> expected(2), predicted(2, NAN);
    ASSERT_EQ(kmx_model_predict(expected.data(), 2, nullptr, model, narrow), KMX_OK) << kmx_last_error();
    ASSERT_EQ(kmx_model_predict(predicted.data(), 2, ctx, wide, narrow), KMX_OK) << kmx_last_error();
    EXPECT_EQ(predicted, expected);
    EXPECT_EQ(predicted[0], predicted[1]);  // the bias, for every row
    int64_t peak = 0;
    ASSERT_EQ(kmx_context_peak_bytes(&peak, ctx), KMX_OK);
    EXPECT_LT(peak, 1 << 20) << "rows widened to the declared columns";  // 5e6 columns: 40 MB a row
    kmx_dataset_free(narrow);
    kmx_context_free(ctx);
    kmx_model_free(wide);
    kmx_model_free(model);
}

// KMX_INFO_MEMORY_BYTES: at least the points, support-vector indices and
// coefficients a loaded model must hold, and not far above them.
TEST_F(SmallModels, MemoryBytesCoverWhatTheModelHolds) {
    for (kmx_model *model : models()) {
        ASSERT_NE(model, nullptr);
        double memory = 0, support_vectors = 0, columns = 0, machines = 0;
        ASSERT_EQ(kmx_model_info(&memory, model, KMX_INFO_MEMORY_BYTES), KMX_OK);
        ASSERT_EQ(kmx_model_info(&support_vectors, model, KMX_INFO_SUPPORT_VECTORS), KMX_OK);
        ASSERT_EQ(kmx_model_info(&columns, model, KMX_INFO_COLUMNS), KMX_OK);
        ASSERT_EQ(kmx_model_info(&machines, model, KMX_INFO_DECISION_VALUES), KMX_OK);
        const std::vector<unsigned char> bytes = saved_bytes(model);
        const double points = double(get_le(bytes, 16 + 24 * 2 + 16, 8));  // the points section's length
        EXPECT_GE(memory, points) << "the points alone";
        EXPECT_GE(memory, support_vectors * columns * 8);
        EXPECT_LE(memory, 2.0 * double(bytes.size()) + machines * 256 + 4096) << bytes.size() << " bytes saved";
        kmx_model_free(model);
    }
}

// kmx_model_load of a file this process may not read: an I/O error naming the
// reason, true when it was.
bool load_is_permission_error(const std::string &path) {
    kmx_model *model = nullptr;
    const bool io = kmx_model_load(&model, path.c_str()) == KMX_E_IO;
    return io && model == nullptr && std::string(kmx_last_error()).find("Permission denied") != std::string::npos;
}

// A file kmx may not read (permissions) is an I/O error naming it. Root reads
// every file, so as root the load runs in a child that has become `nobody`.
TEST(ModelFile, UnreadableFileIsAnIoError) {
    const std::string path = testing::TempDir() + "/kmx_unreadable.kmx";
    std::FILE *file = std::fopen(path.c_str(), "wb");
    ASSERT_NE(file, nullptr);
    std::fputs("KMXMODEL", file);
    std::fclose(file);
    ASSERT_EQ(chmod(path.c_str(), 0), 0);
    if (geteuid() != 0) {
        EXPECT_TRUE(load_is_permission_error(path)) << kmx_last_error();
    } else {
        constexpr uid_t kNobody = 65534;
        const pid_t child = fork();
        ASSERT_GE(child, 0);
        if (child == 0) {
            if (setgid(kNobody) != 0 || setuid(kNobody) != 0) _exit(2);
            _exit(load_is_permission_error(path) ? 0 : 1);
        }
        int status = 0;
        ASSERT_EQ(waitpid(child, &status, 0), child);
        ASSERT_TRUE(WIFEXITED(status));
        EXPECT_EQ(WEXITSTATUS(status), 0) << "1: not a permission error; 2: could not become nobody";
    }
    std::remove(path.c_str());
}

// ------------------------------------------------------------ wide sparse data

// Letter's 16 features spread over 4000 columns (feature k at column
// 250k + 7 + label-dependent shift, so rows share some columns and not
// others) as CSR: 0.4% of the cells stored, so rows stay sparse in kernels
// and the model keeps its support vectors as CSR (format version 5). The
// same rows densified train the reference model.
struct WideSparse : ::testing::Test {
    static constexpr int64_t kColumns = 4000;
    Rows rows = load_rows("letter_mc.train.libsvm", 3, 240);
    std::vector<int64_t> row_ptr{0};
    std::vector<int32_t> col;
    std::vector<double> values, dense;
    kmx_dataset *sparse = nullptr, *wide_dense = nullptr;
    kmx_kernel *kernel = rbf(4);

    void SetUp() override {
        dense.assign(size_t(rows.n() * kColumns), 0.0);
        for (int64_t i = 0; i < rows.n(); ++i) {
            for (int64_t k = 0; k < rows.d; ++k) {
                const double v = rows.x[size_t(i * rows.d + k)];
                if (v == 0) continue;
                const int32_t c = int32_t(250 * k + 7 + (k % 2 ? int64_t(rows.y[size_t(i)]) : 0));
                col.push_back(c);
                values.push_back(v);
                dense[size_t(i * kColumns + c)] = v;
            }
            row_ptr.push_back(int64_t(col.size()));
        }
        ASSERT_EQ(kmx_dataset_create_csr(&sparse, nullptr, row_ptr.data(), col.data(), values.data(), rows.n(),
                                         kColumns, rows.y.data(), KMX_BORROW),
                  KMX_OK)
            << kmx_last_error();
        ASSERT_EQ(kmx_dataset_create(&wide_dense, dense.data(), rows.n(), kColumns, rows.y.data(), KMX_BORROW), KMX_OK);
    }
    void TearDown() override {
        kmx_dataset_free(sparse);
        kmx_dataset_free(wide_dense);
        kmx_kernel_free(kernel);
    }
};

TEST_F(WideSparse, SparseRowsTrainTheDenseModelAndSaveItAsVersion5) {
    kmx_model *from_sparse = train("method=svm C=4 eps=1e-6", kernel, sparse);
    kmx_model *from_dense = train("method=svm C=4 eps=1e-6", kernel, wide_dense);
    ASSERT_NE(from_sparse, nullptr);
    ASSERT_NE(from_dense, nullptr);
    for (const kmx_model_info_key key : {KMX_INFO_SUPPORT_VECTORS, KMX_INFO_COLUMNS}) {
        double a = 0, b = 0;
        kmx_model_info(&a, from_sparse, key);
        kmx_model_info(&b, from_dense, key);
        EXPECT_EQ(a, b) << "info key " << int(key);
    }
    // The same dual, its kernel columns summed in another order: decision
    // values agree to the solver's tolerance, on sparse and on dense rows.
    const std::vector<double> want = decision_values(from_dense, wide_dense, rows.n());
    for (const kmx_dataset *data : {sparse, wide_dense}) {
        const std::vector<double> got = decision_values(from_sparse, data, rows.n());
        ASSERT_EQ(got.size(), want.size());
        for (size_t e = 0; e < got.size(); ++e) EXPECT_NEAR(got[e], want[e], 1e-5) << "value " << e;
    }
    const std::vector<unsigned char> bytes = saved_bytes(from_sparse), dense_bytes = saved_bytes(from_dense);
    EXPECT_EQ(get_le(bytes, 8, 4), 5u);
    EXPECT_EQ(get_le(dense_bytes, 8, 4), 2u);
    EXPECT_LT(bytes.size() * 20, dense_bytes.size()) << "sparse points should cost their nonzeros";
    kmx_model *loaded = nullptr;
    ASSERT_EQ(kmx_model_load_from_buffer(&loaded, bytes.data(), int64_t(bytes.size())), KMX_OK) << kmx_last_error();
    expect_same_predictions(from_sparse, loaded, sparse, rows.n());
    expect_same_predictions(from_sparse, loaded, wide_dense, rows.n());
    kmx_model_free(loaded);
    kmx_model_free(from_sparse);
    kmx_model_free(from_dense);
}

TEST_F(WideSparse, DamagedSparsePointsAreFormatErrors) {
    kmx_model *model = train("method=svm C=4", kernel, sparse);
    ASSERT_NE(model, nullptr);
    const std::vector<unsigned char> bytes = saved_bytes(model);
    for (size_t len = 0; len < bytes.size(); len += 7) ASSERT_EQ(load_bytes(bytes, len), KMX_E_FORMAT) << len;
    for (size_t i = 0; i < bytes.size(); i += 3) {
        std::vector<unsigned char> flipped = bytes;
        flipped[i] ^= static_cast<unsigned char>(1u << (i % 8));
        ASSERT_EQ(load_bytes(flipped, flipped.size()), KMX_E_FORMAT) << "byte " << i;
    }
    // Behind valid checksums: the sparse points section is table entry 8.
    const size_t table = table_end(bytes), entry = 16 + 24 * 7;
    ASSERT_EQ(get_le(bytes, entry, 4), 8u);
    const size_t section = size_t(get_le(bytes, entry + 8, 8));
    const uint64_t stored = get_le(bytes, section, 8);
    double points = 0;
    kmx_model_info(&points, model, KMX_INFO_SUPPORT_VECTORS);
    const size_t offsets = section + 8, entries = offsets + 8 * (size_t(points) + 1);
    struct Damage {
        size_t at;
        uint32_t value;
        const char *message;
    };
    const Damage damages[] = {
        {entries, uint32_t(kColumns), "columns are not increasing and below d"},       // first column = d
        {entries + 12, 0, "columns are not increasing and below d"},                   // second column ≤ first
        {offsets, 1, "row offsets do not span the stored values"},                     // first offset 1
        {offsets + 8, uint32_t(stored + 1), "row offset is out of range"},             // past the values
        {section, uint32_t(stored + 5), "row offsets do not span the stored values"},  // more than the offsets say
        {section, 0xFFFFFF00u, "sparse point values"},                                 // more than the bytes hold
    };
    for (const Damage &damage : damages) {
        std::vector<unsigned char> changed = bytes;
        put_le32(changed, damage.at, damage.value);
        refresh_checksums(changed, table);
        kmx_model *loaded = nullptr;
        EXPECT_EQ(kmx_model_load_from_buffer(&loaded, changed.data(), int64_t(changed.size())), KMX_E_FORMAT)
            << damage.message;
        EXPECT_NE(std::string(kmx_last_error()).find(damage.message), std::string::npos) << kmx_last_error();
        kmx_model_free(loaded);
    }
    kmx_model_free(model);
}

TEST_F(WideSparse, EarlyModelsPredictSparseRowsAsTheirWidenedRows) {
    // Sparse rows go through the kernel partition and the clusters on their
    // nonzeros; the same rows densified are widened: the same values.
    for (const char *params : {"method=dcsvm_early C=4 levels=1 early_level=1 clusters_per_level=3 sample_size=60",
                               "method=bka C=4 levels=1 clusters_per_level=3 sample_size=60"}) {
        kmx_model *model = train(params, kernel, sparse);
        ASSERT_NE(model, nullptr) << params;
        const std::vector<double> in_place = decision_values(model, sparse, rows.n());
        const std::vector<double> widened = decision_values(model, wide_dense, rows.n());
        ASSERT_EQ(in_place.size(), widened.size());
        for (size_t e = 0; e < in_place.size(); ++e) EXPECT_NEAR(in_place[e], widened[e], 1e-12) << params << " " << e;
        EXPECT_GT(accuracy(model, sparse, rows), 0.9) << params;
        kmx_model_free(model);
    }
}

}  // namespace
