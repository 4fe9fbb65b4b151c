// White-box tests of the LIBSVM/CSV reader (lib/io).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "core/context.h"
#include "core/dataset.h"
#include "core/error.h"
#include "io/text_reader.h"

namespace {

using DatasetPtr = std::unique_ptr<kmx::Dataset>;

DatasetPtr parse(const std::string &text, kmx_format format = KMX_FORMAT_AUTO) {
    kmx::Context ctx;
    ctx.begin_call();
    return kmx::parse_dataset(ctx, text.data(), text.size(), format, "t");
}

std::string data_path(const char *variable, const char *file) {
    const char *dir = std::getenv(variable);
    if (!dir) ADD_FAILURE() << variable << " is not set: run the tests through `meson test`";
    return std::string(dir ? dir : ".") + "/" + file;
}

DatasetPtr load(const std::string &path, kmx_format format = KMX_FORMAT_AUTO) {
    kmx::Context ctx;
    ctx.begin_call();
    return kmx::read_dataset_file(ctx, path.c_str(), format);
}

struct Failure {
    kmx_status status = KMX_OK;
    std::string message;
};

template <class Call>
Failure failure_of(Call &&call) {
    try {
        call();
    } catch (const kmx::Error &e) {
        return Failure{e.status(), e.what()};
    }
    return Failure{};
}

Failure parse_failure(const std::string &text, kmx_format format = KMX_FORMAT_AUTO) {
    return failure_of([&] { parse(text, format); });
}

// Parsing `text` fails with KMX_E_FORMAT, a message starting "t:line:column: "
// and containing `what`.
void expect_format_error(const std::string &text, const std::string &location, const std::string &what,
                         kmx_format format = KMX_FORMAT_AUTO) {
    const Failure failure = parse_failure(text, format);
    EXPECT_EQ(failure.status, KMX_E_FORMAT) << failure.message;
    EXPECT_EQ(failure.message.rfind("t:" + location + ": ", 0), 0u) << failure.message;
    EXPECT_NE(failure.message.find(what), std::string::npos) << failure.message;
}

std::vector<double> dense_rows(const kmx::Dataset &ds) {
    std::vector<double> out(size_t(ds.n * ds.d));
    ds.copy_rows(0, ds.n, out.data());
    return out;
}

// A random n x d matrix with about `zero_share` exact zeros and values over
// many magnitudes, plus labels.
struct Matrix {
    int64_t n, d;
    std::vector<double> x, y;
};

Matrix random_matrix(int64_t n, int64_t d, double zero_share, uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    std::normal_distribution<double> normal;
    Matrix m{n, d, std::vector<double>(size_t(n * d)), std::vector<double>(size_t(n))};
    for (double &v : m.x)
        v = unit(rng) < zero_share ? 0.0 : normal(rng) * std::pow(10.0, std::floor(unit(rng) * 40 - 20));
    for (double &label : m.y) label = unit(rng) < 0.5 ? normal(rng) * 1e3 : std::floor(unit(rng) * 5) - 2;
    return m;
}

std::string libsvm_text(const Matrix &m) {
    std::string text;
    char token[64];
    for (int64_t i = 0; i < m.n; ++i) {
        std::snprintf(token, sizeof token, "%.17g", m.y[size_t(i)]);
        text += token;
        for (int64_t j = 0; j < m.d; ++j) {
            const double v = m.x[size_t(i * m.d + j)];
            if (v == 0) continue;
            std::snprintf(token, sizeof token, " %lld:%.17g", (long long)(j + 1), v);
            text += token;
        }
        text += '\n';
    }
    return text;
}

std::string csv_text(const Matrix &m) {
    std::string text;
    char token[64];
    for (int64_t i = 0; i < m.n; ++i) {
        std::snprintf(token, sizeof token, "%.17g", m.y[size_t(i)]);
        text += token;
        for (int64_t j = 0; j < m.d; ++j) {
            std::snprintf(token, sizeof token, ",%.17g", m.x[size_t(i * m.d + j)]);
            text += token;
        }
        text += '\n';
    }
    return text;
}

void expect_matches(const kmx::Dataset &ds, const Matrix &m) {
    ASSERT_EQ(ds.n, m.n);
    ASSERT_EQ(ds.d, m.d);
    ASSERT_NE(ds.y, nullptr);
    EXPECT_EQ(std::vector<double>(ds.y, ds.y + ds.n), m.y);
    EXPECT_EQ(dense_rows(ds), m.x);
}

// ------------------------------------------------------------ round trips

TEST(ReaderRoundTrip, LibsvmDenseIsExact) {
    Matrix m = random_matrix(60, 9, 0.3, 1);
    m.x[size_t(8)] = 1.7976931348623157e308;
    m.x[size_t(9)] = -4.9406564584124654e-324;  // smallest subnormal
    const DatasetPtr ds = parse(libsvm_text(m));
    EXPECT_FALSE(ds->sparse());
    expect_matches(*ds, m);
}

TEST(ReaderRoundTrip, CsvIsExact) {
    const Matrix m = random_matrix(45, 7, 0.2, 2);
    const DatasetPtr ds = parse(csv_text(m));
    EXPECT_FALSE(ds->sparse());
    expect_matches(*ds, m);
}

TEST(ReaderRoundTrip, LibsvmAndCsvOfTheSameMatrixAgree) {
    const Matrix m = random_matrix(30, 12, 0.5, 3);
    const DatasetPtr from_libsvm = parse(libsvm_text(m), KMX_FORMAT_LIBSVM);
    const DatasetPtr from_csv = parse(csv_text(m), KMX_FORMAT_CSV);
    EXPECT_EQ(dense_rows(*from_libsvm), dense_rows(*from_csv));
    EXPECT_EQ(std::vector<double>(from_libsvm->y, from_libsvm->y + 30),
              std::vector<double>(from_csv->y, from_csv->y + 30));
}

TEST(ReaderRoundTrip, WideSparseLibsvmStaysCsrAndDensifiesToTheReference) {
    Matrix m = random_matrix(40, 5000, 0.99, 4);
    m.x[size_t(m.d - 1)] = 1.25;  // LIBSVM's d is the largest index present
    const DatasetPtr ds = parse(libsvm_text(m));
    ASSERT_TRUE(ds->sparse());
    int64_t nonzeros = 0;
    for (double v : m.x) nonzeros += v != 0;
    EXPECT_EQ(ds->nnz(), nonzeros);
    EXPECT_EQ(ds->row_ptr[0], 0);
    for (int64_t r = 0; r < ds->n; ++r) {
        for (int64_t e = ds->row_ptr[r]; e < ds->row_ptr[r + 1]; ++e) {
            EXPECT_EQ(ds->values[e], m.x[size_t(r * m.d + ds->col[e])]);  // 0-based columns
            if (e > ds->row_ptr[r]) {
                EXPECT_LT(ds->col[e - 1], ds->col[e]);
            }
        }
    }
    expect_matches(*ds, m);
    std::vector<double> middle(size_t(4 * m.d));
    ds->copy_rows(5, 9, middle.data());
    EXPECT_EQ(middle, std::vector<double>(m.x.begin() + 5 * m.d, m.x.begin() + 9 * m.d));
}

TEST(ReaderRoundTrip, WideSparseCsvAlsoBecomesCsr) {
    const Matrix m = random_matrix(10, 1500, 0.98, 5);
    const DatasetPtr ds = parse(csv_text(m));
    EXPECT_TRUE(ds->sparse());
    expect_matches(*ds, m);
}

TEST(ReaderRoundTrip, WideButDenseDataBecomesDenseRows) {
    const Matrix m = random_matrix(10, 2000, 0.7, 6);
    const DatasetPtr ds = parse(libsvm_text(m));
    EXPECT_FALSE(ds->sparse());
    expect_matches(*ds, m);
}

TEST(ReaderRoundTrip, FileOnDiskReadsLikeMemory) {
    const Matrix m = random_matrix(25, 6, 0.4, 7);
    const std::string path = testing::TempDir() + "kmx_io_round_trip.libsvm";
    std::FILE *file = std::fopen(path.c_str(), "wb");
    ASSERT_NE(file, nullptr);
    const std::string text = libsvm_text(m);
    ASSERT_EQ(std::fwrite(text.data(), 1, text.size(), file), text.size());
    std::fclose(file);
    expect_matches(*load(path), m);
    std::remove(path.c_str());
}

// -------------------------------------------------------- format details

TEST(ReaderFormat, AutoDetectsLibsvmAndCsv) {
    const DatasetPtr libsvm = parse("# header comment, with a comma\n1 2:5\n");
    EXPECT_EQ(libsvm->d, 2);
    EXPECT_EQ(libsvm->x[1], 5.0);
    const DatasetPtr csv = parse("\n# c\n1,2,5\n");
    EXPECT_EQ(csv->d, 2);
    EXPECT_EQ(csv->x[1], 5.0);
}

TEST(ReaderFormat, FirstLineWithOnlyALabelIsLibsvm) {
    const DatasetPtr ds = parse("7\n-1 3:2.5\n");
    ASSERT_EQ(ds->n, 2);
    ASSERT_EQ(ds->d, 3);
    EXPECT_EQ(dense_rows(*ds), (std::vector<double>{0, 0, 0, 0, 0, 2.5}));
    EXPECT_EQ(ds->y[0], 7.0);
}

TEST(ReaderFormat, CrlfBlankAndCommentLinesFromFile) {
    const DatasetPtr ds = load(data_path("KMX_TEST_DATA", "crlf_comments.libsvm"));
    ASSERT_EQ(ds->n, 5);
    ASSERT_EQ(ds->d, 4);
    EXPECT_EQ(std::vector<double>(ds->y, ds->y + 5), (std::vector<double>{1, -1, 1, -1, 2.5}));
    EXPECT_EQ(dense_rows(*ds), (std::vector<double>{0.5, 0,    -2, 0,  //
                                                    0,   1e-3, 0,  7,  //
                                                    0,   0,    0,  0,  //
                                                    1,   2,    3,  4,  //
                                                    0,   0,    0,  -0.25}));
}

TEST(ReaderFormat, CsvWithBlanksAroundFieldsAndCrlf) {
    const DatasetPtr ds = load(data_path("KMX_TEST_DATA", "spaces_crlf.csv"));
    ASSERT_EQ(ds->n, 3);
    ASSERT_EQ(ds->d, 3);
    EXPECT_EQ(std::vector<double>(ds->y, ds->y + 3), (std::vector<double>{3, -1, 7}));
    EXPECT_EQ(dense_rows(*ds), (std::vector<double>{0.5, -1, 2, 0, 0, 0, 100, 3, -4.25}));
}

TEST(ReaderFormat, ByteOrderMarkTabsTrailingCommentAndNoFinalNewline) {
    const DatasetPtr ds = parse("\xEF\xBB\xBF+1\t1:2\t 2:3   # svmlight-style note\n-1 2:4");
    ASSERT_EQ(ds->n, 2);
    EXPECT_EQ(dense_rows(*ds), (std::vector<double>{2, 3, 0, 4}));
}

TEST(ReaderFormat, TinyValuesUnderflowToZeroSubnormalsSurvive) {
    const DatasetPtr ds = parse("1 1:1e-400 2:4e-320 3:-0.0000000000000000000000000000000000000001e-300\n");
    ASSERT_EQ(ds->d, 3);
    EXPECT_EQ(ds->x[0], 0.0);
    EXPECT_EQ(ds->x[1], 4e-320);
    EXPECT_EQ(ds->x[2], 0.0);
}

TEST(ReaderFormat, LargestIndexIsAcceptedAsCsr) {
    const DatasetPtr ds = parse("1 2147483647:1.5\n");
    EXPECT_EQ(ds->d, 2147483647);
    ASSERT_TRUE(ds->sparse());
    EXPECT_EQ(ds->col[0], 2147483646);
    EXPECT_EQ(ds->values[0], 1.5);
}

TEST(ReaderFormat, TextNeedsNoTerminatingNul) {
    const std::string source = "1 1:25\n2,3";  // parse only "1 1:25" — no NUL after it
    std::unique_ptr<char[]> exact(new char[6]);
    std::copy(source.begin(), source.begin() + 6, exact.get());
    kmx::Context ctx;
    ctx.begin_call();
    const DatasetPtr ds = kmx::parse_dataset(ctx, exact.get(), 6, KMX_FORMAT_AUTO, "t");
    EXPECT_EQ(ds->x[0], 25.0);
}

TEST(ReaderFormat, BlockIsSizedExactlyAndChargedToTheBudget) {
    kmx::Context ctx;
    ctx.begin_call();
    const std::string dense_text = "1 1:1 2:2\n2 2:3\n3 1:4\n";  // labels 24 B, x 48 B: 64 + 64
    kmx::parse_dataset(ctx, dense_text.data(), dense_text.size(), KMX_FORMAT_AUTO, "t");
    EXPECT_EQ(ctx.peak_bytes(), 128u);
    ctx.begin_call();
    const std::string csr_text = "1 1:1\n2 2000:3\n";  // labels, row_ptr, cols, values: 4 x 64
    EXPECT_TRUE(kmx::parse_dataset(ctx, csr_text.data(), csr_text.size(), KMX_FORMAT_AUTO, "t")->sparse());
    EXPECT_EQ(ctx.peak_bytes(), 256u);
}

TEST(ReaderChoice, DenseUnlessWideAndSparse) {
    EXPECT_TRUE(kmx::choose_dense(1000, 16, 100));        // narrow: always dense
    EXPECT_TRUE(kmx::choose_dense(1000000, 1024, 1000));  // d at the limit: dense
    EXPECT_FALSE(kmx::choose_dense(100, 1025, 100));      // wide, 0.1% filled: CSR
    EXPECT_FALSE(kmx::choose_dense(100, 10000, 99999));   // just under 10%
    EXPECT_TRUE(kmx::choose_dense(100, 10000, 100000));   // 10%: dense
    EXPECT_TRUE(kmx::choose_dense(0, 5000, 0));
}

// ------------------------------------------------------------- real data

TEST(ReaderRealData, LetterBinaryTrain) {
    const DatasetPtr ds = load(data_path("KMX_EXAMPLE_DATA", "letter_bin.train.libsvm"));
    ASSERT_EQ(ds->n, 12000);
    ASSERT_EQ(ds->d, 16);
    EXPECT_FALSE(ds->sparse());
    std::map<double, int> counts;
    for (int64_t i = 0; i < ds->n; ++i) ++counts[ds->y[i]];
    EXPECT_EQ(counts, (std::map<double, int>{{-1.0, 5998}, {1.0, 6002}}));
    // First line: "-1 1:0.214286 2:0.2 ... 16:0.333333"
    EXPECT_EQ(ds->y[0], -1.0);
    EXPECT_EQ(ds->x[0], 0.214286);
    EXPECT_EQ(ds->x[15], 0.333333);
}

TEST(ReaderRealData, BostonCsvAndLibsvmTwinsAgree) {
    const DatasetPtr csv = load(data_path("KMX_TEST_DATA", "boston_reg.test.csv"));
    const DatasetPtr libsvm = load(data_path("KMX_TEST_DATA", "boston_reg.test.libsvm"));
    ASSERT_EQ(csv->n, 106);
    ASSERT_EQ(csv->d, 13);
    ASSERT_EQ(libsvm->n, 106);
    ASSERT_EQ(libsvm->d, 13);
    EXPECT_EQ(dense_rows(*csv), dense_rows(*libsvm));
    EXPECT_EQ(std::vector<double>(csv->y, csv->y + 106), std::vector<double>(libsvm->y, libsvm->y + 106));
}

// ------------------------------------------------------------ bad input

// CR-only line endings (classic Mac OS) make the file one line: the error
// names the bare carriage return, not a value spoiled by it.
TEST(ReaderErrors, CrOnlyLineEndingsAreNamed) {
    expect_format_error("1 1:0.333333\r-1 1:0.5\r", "1:13", "carriage return (CR) without a line feed");
    expect_format_error("1,0.333333\r-1,0.5\r", "1:11", "CR-only line endings");
}

// Binary files and UTF-16 text (NUL bytes) are named as such.
TEST(ReaderErrors, NulBytesAreNamedAsNotText) {
    const std::string utf16le(
        "\xFF\xFE"
        "1\0 \0"
        "1\0:\0"
        "2\0\n\0",
        14);
    expect_format_error(utf16le, "1:4", "NUL byte: not ASCII or UTF-8 text");
    expect_format_error(std::string("1 1:2\n\x7F"
                                    "ELF\0\x01\x02\n",
                                    14),
                        "2:5", "UTF-16/UTF-32");
}

TEST(ReaderErrors, NonNumericLabel) { expect_format_error("1 1:2\nabc 1:2\n", "2:1", "label 'abc' is not a number"); }

TEST(ReaderErrors, NonNumericCsvLabel) { expect_format_error("1,2\n  yes ,3\n", "2:3", "label 'yes' is not a number"); }

TEST(ReaderErrors, ValueNotANumber) { expect_format_error("1 1:2\n1 3:abc\n", "2:5", "value 'abc' is not a number"); }

TEST(ReaderErrors, MissingValue) { expect_format_error("1 2:1 3:\n", "1:9", "missing value after ':'"); }

TEST(ReaderErrors, MissingIndex) { expect_format_error("1 :4\n", "1:3", "missing index before ':'"); }

TEST(ReaderErrors, IndexNotAnInteger) {
    expect_format_error("1 x:1\n", "1:3", "index 'x' is not a positive integer");
    expect_format_error("1 1.5:1\n", "1:3", "index '1.5' is not a positive integer");
}

TEST(ReaderErrors, TokenWithoutColon) { expect_format_error("1 1:1 0.5\n", "1:7", "expected index:value, got '0.5'"); }

TEST(ReaderErrors, IndicesOutOfOrder) { expect_format_error("1 3:1 2:1\n", "1:7", "index 2 comes after index 3"); }

TEST(ReaderErrors, IndexRepeated) { expect_format_error("1 1:1\n1 3:1 3:2\n", "2:7", "index 3 repeats"); }

TEST(ReaderErrors, IndexZeroOrNegative) {
    expect_format_error("1 0:1\n", "1:3", "index '0' is not positive");
    expect_format_error("1 -2:1\n", "1:3", "index '-2' is not positive");
}

TEST(ReaderErrors, IndexTooLarge) {
    expect_format_error("1 2147483648:1\n", "1:3", "index '2147483648' is too large");
    expect_format_error("1 99999999999999999999999:1\n", "1:3", "is too large");
}

TEST(ReaderErrors, CsvRowTooShort) {
    expect_format_error("1,2,3\n1,2\n", "2:4", "expected 3 fields as on line 1, got 2");
}

TEST(ReaderErrors, CsvRowTooLong) {
    expect_format_error("1,2,3\n\n1,2,3,4,5\n", "3:7", "expected 3 fields as on line 1, got 5");
}

TEST(ReaderErrors, CsvEmptyField) {
    expect_format_error("1,,2\n", "1:3", "missing value");
    expect_format_error("1,2,\n", "1:5", "missing value");
}

TEST(ReaderErrors, NaNValues) {
    expect_format_error("1 1:nan\n", "1:5", "value 'nan' is NaN");
    expect_format_error("1,2\n1,NaN\n", "2:3", "value 'NaN' is NaN");
    expect_format_error("nan 1:1\n", "1:1", "label 'nan' is NaN");
}

TEST(ReaderErrors, InfiniteValues) {
    expect_format_error("1 1:inf\n", "1:5", "value 'inf' is infinite");
    expect_format_error("1,-Infinity\n", "1:3", "value '-Infinity' is infinite");
    expect_format_error("+inf 1:1\n", "1:1", "label '+inf' is infinite");
}

TEST(ReaderErrors, Overflow) {
    expect_format_error("1 1:1e400\n", "1:5", "value '1e400' overflows a double");
    expect_format_error("-1e309 1:1\n", "1:1", "label '-1e309' overflows a double");
    expect_format_error("1,0.001e312\n", "1:3", "overflows a double");
}

TEST(ReaderErrors, MalformedNumbers) {
    expect_format_error("1 1:0x10\n", "1:5", "value '0x10' is not a number");
    expect_format_error("1 1:1e\n", "1:5", "value '1e' is not a number");
    expect_format_error("1 1:+-1\n", "1:5", "value '+-1' is not a number");
    expect_format_error("1 1:1.2.3\n", "1:5", "value '1.2.3' is not a number");
}

TEST(ReaderErrors, EmptyText) {
    expect_format_error("", "1:1", "no data rows");
    expect_format_error("# only\n\n   \n# comments\n", "5:1", "no data rows");
    expect_format_error("# no newline at the end", "1:24", "no data rows");
}

TEST(ReaderErrors, NoFeatureColumns) {
    expect_format_error("# c\n  1\n-1\n", "2:3", "no features: all 2 rows hold only a label");
}

TEST(ReaderErrors, CsvWithOnlyLabels) {
    expect_format_error("1\n2\n", "1:2", "needs a label and at least one feature", KMX_FORMAT_CSV);
}

TEST(ReaderErrors, CsvTextReadAsLibsvm) {
    expect_format_error("1,2,3\n", "1:1", "label '1,2,3' is not a number", KMX_FORMAT_LIBSVM);
}

TEST(ReaderErrors, LocationCountsCrlfCommentsAndBlanks) {
    expect_format_error("# c\r\n\r\n  1 1:2\r\n1 1:x\r\n", "4:5", "value 'x' is not a number");
}

TEST(ReaderErrors, LongTokensAreQuotedShort) {
    const Failure failure = parse_failure("1 1:" + std::string(300, '7') + "z\n");
    EXPECT_EQ(failure.status, KMX_E_FORMAT);
    EXPECT_NE(failure.message.find("...' is not a number"), std::string::npos) << failure.message;
    EXPECT_LT(failure.message.size(), 200u);
}

TEST(ReaderErrors, UnknownFormat) {
    // 5 is inside kmx_format's value range (it holds KMX_FORMAT_FORCE_INT_)
    // but names no format (4 is KMX_FORMAT_PRECOMPUTED).
    const Failure failure = parse_failure("1 1:1\n", kmx_format(5));
    EXPECT_EQ(failure.status, KMX_E_INVALID_ARGUMENT);
    EXPECT_NE(failure.message.find("format 5"), std::string::npos) << failure.message;
}

TEST(ReaderErrors, FileErrorNamesPathLineAndColumn) {
    const std::string path = data_path("KMX_TEST_DATA", "bad_order.libsvm");
    const Failure failure = failure_of([&] { load(path); });
    EXPECT_EQ(failure.status, KMX_E_FORMAT);
    EXPECT_EQ(failure.message, path + ":4:15: index 2 comes after index 3: indices must increase");
}

TEST(ReaderErrors, MissingFile) {
    const Failure failure = failure_of([] { load("/nonexistent/kmx/data.libsvm"); });
    EXPECT_EQ(failure.status, KMX_E_IO);
    EXPECT_EQ(failure.message, "cannot open '/nonexistent/kmx/data.libsvm': No such file or directory");
}

TEST(ReaderErrors, DirectoryIsNotAFile) {
    const Failure failure = failure_of([] { load(testing::TempDir()); });
    EXPECT_EQ(failure.status, KMX_E_IO);
    EXPECT_NE(failure.message.find("not a regular file"), std::string::npos) << failure.message;
}

TEST(ReaderErrors, BudgetTooSmallForTheFile) {
    kmx::Context ctx;
    ctx.memory_budget = 100000;
    ctx.begin_call();
    const std::string path = data_path("KMX_EXAMPLE_DATA", "letter_bin.train.libsvm");
    const Failure failure = failure_of([&] { kmx::read_dataset_file(ctx, path.c_str(), KMX_FORMAT_AUTO); });
    EXPECT_EQ(failure.status, KMX_E_OUT_OF_MEMORY);
    EXPECT_NE(failure.message.find("reading '" + path + "' needs 1.8 MB"), std::string::npos) << failure.message;
    EXPECT_EQ(ctx.peak_bytes(), 0u);
}

TEST(ReaderErrors, BudgetTooSmallForTheDataset) {
    std::string text;
    for (int i = 0; i < 100; ++i) text += "1 1000:1\n";  // 100 x 1000 dense: 800000 bytes
    kmx::Context ctx;
    ctx.memory_budget = 500000;
    ctx.begin_call();
    const Failure failure =
        failure_of([&] { kmx::parse_dataset(ctx, text.data(), text.size(), KMX_FORMAT_AUTO, "t"); });
    EXPECT_EQ(failure.status, KMX_E_OUT_OF_MEMORY);
    EXPECT_NE(failure.message.find("loading 't' needs 782.1 KB"), std::string::npos) << failure.message;
    EXPECT_EQ(ctx.peak_bytes(), 0u);
}

TEST(ReaderErrors, BudgetFileAndDatasetTogether) {
    const std::string path = data_path("KMX_EXAMPLE_DATA", "letter_bin.train.libsvm");
    const size_t file_bytes = 1915948;
    const size_t dataset_bytes = 12000 * 8 + 12000 * 16 * 8;  // both multiples of 64
    kmx::Context ctx;
    ctx.memory_budget = file_bytes + dataset_bytes - 1;
    ctx.begin_call();
    EXPECT_EQ(failure_of([&] { kmx::read_dataset_file(ctx, path.c_str(), KMX_FORMAT_AUTO); }).status,
              KMX_E_OUT_OF_MEMORY);
    ctx.memory_budget = file_bytes + dataset_bytes;
    ctx.begin_call();
    EXPECT_EQ(kmx::read_dataset_file(ctx, path.c_str(), KMX_FORMAT_AUTO)->n, 12000);
    EXPECT_EQ(ctx.peak_bytes(), file_bytes + dataset_bytes);
}

}  // namespace
