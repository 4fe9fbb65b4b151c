// Reading a text in pieces (parse_dataset_pieces): every split gives the
// dataset and the error a one-piece read gives, on 1 and 2 threads.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>

#include "core/context.h"
#include "core/dataset.h"
#include "core/error.h"
#include "io/text_reader.h"

namespace {

using DatasetPtr = std::unique_ptr<kmx::Dataset>;

DatasetPtr parse_in(const std::string &text, int pieces, int threads, kmx_format format = KMX_FORMAT_AUTO) {
    kmx::Context ctx;
    ctx.threads = threads;
    ctx.begin_call();
    return kmx::parse_dataset_pieces(ctx, text.data(), text.size(), format, "t", pieces);
}

std::string error_of(const std::string &text, int pieces, int threads) {
    try {
        parse_in(text, pieces, threads);
    } catch (const kmx::Error &e) {
        return e.what();
    }
    return "no error";
}

// Rows of random values (about a third zero), with blank and comment lines.
std::string random_text(bool csv, int rows, int cols, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> coin(0, 2), label(0, 3);
    std::uniform_real_distribution<double> value(-5, 5);
    std::string text;
    for (int r = 0; r < rows; ++r) {
        if (coin(rng) == 0 && r % 7 == 0) text += r % 2 ? "# a comment\n" : "   \n";
        text += std::to_string(label(rng));
        for (int c = 0; c < cols; ++c) {
            const double v = coin(rng) == 0 ? 0.0 : value(rng);
            char field[48];
            if (csv)
                std::snprintf(field, sizeof field, ",%.17g", v);
            else if (v != 0)
                std::snprintf(field, sizeof field, " %d:%.17g", c + 1, v);
            else
                field[0] = '\0';
            text += field;
        }
        text += r % 5 == 0 ? "\r\n" : "\n";
    }
    return text;
}

void expect_same(const kmx::Dataset &a, const kmx::Dataset &b) {
    ASSERT_EQ(a.n, b.n);
    ASSERT_EQ(a.d, b.d);
    ASSERT_EQ(a.sparse(), b.sparse());
    EXPECT_EQ(0, std::memcmp(a.y, b.y, sizeof(double) * size_t(a.n)));
    if (!a.sparse()) {
        EXPECT_EQ(0, std::memcmp(a.x, b.x, sizeof(double) * size_t(a.n * a.d)));
        return;
    }
    EXPECT_EQ(0, std::memcmp(a.row_ptr, b.row_ptr, sizeof(int64_t) * size_t(a.n + 1)));
    EXPECT_EQ(0, std::memcmp(a.col, b.col, sizeof(int32_t) * size_t(a.nnz())));
    EXPECT_EQ(0, std::memcmp(a.values, b.values, sizeof(double) * size_t(a.nnz())));
}

TEST(TextPieces, EverySplitGivesTheOnePieceDataset) {
    for (bool csv : {false, true}) {
        const std::string text = random_text(csv, 300, 9, csv ? 1u : 2u);
        const DatasetPtr whole = parse_in(text, 1, 1);
        ASSERT_EQ(whole->n, 300);
        for (int pieces : {2, 3, 7, 64, 1000})  // 1000: most pieces empty or one line
            for (int threads : {1, 2}) {
                SCOPED_TRACE(testing::Message()
                             << (csv ? "csv" : "libsvm") << " pieces=" << pieces << " threads=" << threads);
                expect_same(*whole, *parse_in(text, pieces, threads));
            }
    }
}

TEST(TextPieces, WideSparseRowsStayCsrAcrossPieces) {
    std::string text;
    for (int r = 0; r < 200; ++r)
        text += std::to_string(r % 2) + " " + std::to_string(1 + r * 37 % 5000) + ":1.5 " + std::to_string(5001 + r) +
                ":-2\n";
    const DatasetPtr whole = parse_in(text, 1, 1);
    ASSERT_TRUE(whole->sparse());
    for (int pieces : {2, 5, 33}) expect_same(*whole, *parse_in(text, pieces, 2));
}

// A bad token in a later piece is reported at its line in the whole text;
// with several bad lines, the first one is reported, whatever the split.
TEST(TextPieces, ErrorsNameTheWholeTextsLineAndTheFirstError) {
    std::string text = random_text(false, 400, 5, 3u);
    const std::string whole_error = error_of(text + "1 1:x\n", 1, 1);
    ASSERT_NE(whole_error.find("t:"), std::string::npos);
    for (int pieces : {2, 4, 9})
        for (int threads : {1, 2}) EXPECT_EQ(error_of(text + "1 1:x\n", pieces, threads), whole_error);

    std::string two_errors = text;
    two_errors.insert(text.find('\n', text.size() / 2) + 1, "1 3:2 2:1\n");  // indices decrease: the first error
    two_errors += "1 1:nan\n";
    const std::string first = error_of(two_errors, 1, 1);
    EXPECT_NE(first.find("comes after index 3"), std::string::npos) << first;
    for (int pieces : {2, 3, 8}) EXPECT_EQ(error_of(two_errors, pieces, 2), first);
}

// CSV: the first row fixes the field count for every piece.
TEST(TextPieces, RaggedCsvRowInALaterPieceNamesTheFirstRow) {
    std::string text = "# header comment\n" + random_text(true, 200, 4, 4u) + "1,2\n";
    const std::string whole_error = error_of(text, 1, 1);
    EXPECT_NE(whole_error.find("expected 5 fields as on line 2, got 2"), std::string::npos) << whole_error;
    for (int pieces : {2, 6, 50}) EXPECT_EQ(error_of(text, pieces, 2), whole_error);
}

TEST(TextPieces, EmptyAndFeaturelessTextsFailAsWhole) {
    for (const std::string text : {"", "\n# only\n  \n", "1\n2\n3\n"}) {
        const std::string whole_error = error_of(text, 1, 1);
        EXPECT_NE(whole_error, "no error");
        for (int pieces : {2, 3}) EXPECT_EQ(error_of(text, pieces, 2), whole_error);
    }
}

// Only the whole text's start may hold a byte-order mark.
TEST(TextPieces, ByteOrderMarkOnlyAtTheStart) {
    std::string text =
        "\xEF\xBB\xBF"
        "1 1:1\n";
    for (int r = 0; r < 50; ++r) text += "2 1:2\n";
    expect_same(*parse_in(text, 1, 1), *parse_in(text, 4, 2));
    std::string later = text +
                        "\xEF\xBB\xBF"
                        "1 1:1\n";
    EXPECT_EQ(error_of(later, 4, 2), error_of(later, 1, 1));
    EXPECT_NE(error_of(later, 1, 1), "no error");
}

}  // namespace

// Pass 1 counts nonzeros from the digits (without converting values) and
// pass 2 stores what the conversion makes nonzero: the two must agree on
// every spelling of zero, on values that underflow to zero and on values
// that only look small, or CSR rows would overlap. Checked against a count by
// strtod, on wide rows (stored as CSR) split every way.
TEST(TextPieces, NonzeroCountsAgreeWithTheConvertedValues) {
    const char *const spellings[] = {"0",   "0.0",   "-0",     "+0.000", "0e7",    "0.0E-3", "1e-400", "-2.5e-999",
                                     "1e-5", "3E+2", "0.0001", "+7",     "-0.5e1", "1e-320", ".5",     "00012"};
    std::string text;
    int64_t expected_nonzeros = 0;
    for (int r = 0; r < 120; ++r) {
        text += r % 2 ? "1" : "-1";
        for (int t = 0; t < 5; ++t) {
            const char *value = spellings[(r * 5 + t) % 16];
            text += " " + std::to_string(1 + t * 700 + r) + ":" + value;
            expected_nonzeros += std::strtod(value, nullptr) != 0;
        }
        text += "\n";
    }
    const DatasetPtr whole = parse_in(text, 1, 1);
    ASSERT_TRUE(whole->sparse());
    EXPECT_EQ(whole->nnz(), expected_nonzeros);
    for (int pieces : {2, 3, 7, 40})
        for (int threads : {1, 2}) expect_same(*whole, *parse_in(text, pieces, threads));
}

// A bad value is found only when values are converted (pass 2 of a plain
// text): the first one in the text is still the one reported, in any split,
// and it is the same error the validating parse reports.
TEST(TextPieces, BadValuesOfAPlainTextAreReportedFirstFirst) {
    std::string text = random_text(false, 600, 6, 5u);
    std::string two = text;
    two.insert(text.find('\n', text.size() / 3) + 1, "1 2:1.5x\n");
    two += "1 1:inf\n";
    const std::string first = error_of(two, 1, 1);
    EXPECT_NE(first.find("value '1.5x' is not a number"), std::string::npos) << first;
    for (int pieces : {2, 3, 8, 30})
        for (int threads : {1, 2}) EXPECT_EQ(error_of(two, pieces, threads), first);
    // The same text with a structural error after the bad value: the validating
    // pass reads it, and the bad value (earlier) is still the error.
    std::string mixed = two + "1 5:1 4:1\n";
    EXPECT_EQ(error_of(mixed, 4, 2), first);
}
