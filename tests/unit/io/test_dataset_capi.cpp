// kmx_dataset_* through the public C ABI (links the shared library).
#include <gtest/gtest.h>
#include <kmx/kmx.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace {

// Owns a kmx_dataset for the length of a test.
struct DatasetHandle {
    kmx_dataset *ds = nullptr;
    ~DatasetHandle() { kmx_dataset_free(ds); }
};

struct ContextHandle {
    kmx_context *ctx = nullptr;
    ContextHandle() { EXPECT_EQ(kmx_context_create(&ctx), KMX_OK); }
    ~ContextHandle() { kmx_context_free(ctx); }
};

std::string example_path(const char *file) {
    const char *dir = std::getenv("KMX_EXAMPLE_DATA");
    if (!dir) ADD_FAILURE() << "KMX_EXAMPLE_DATA is not set: run the tests through `meson test`";
    return std::string(dir ? dir : ".") + "/" + file;
}

// The call returned `status` and kmx_last_error() contains `text`.
void expect_error(kmx_status got, kmx_status status, const std::string &text) {
    EXPECT_EQ(got, status) << kmx_status_name(got) << ": " << kmx_last_error();
    EXPECT_NE(std::string(kmx_last_error()).find(text), std::string::npos) << kmx_last_error();
}

const double kX[6] = {1, 2, 3, 4, 5, 6};  // 3 x 2
const double kY[3] = {1, -1, 1};

int64_t rows_of(const kmx_dataset *ds) {
    int64_t n = -1;
    EXPECT_EQ(kmx_dataset_rows(&n, ds), KMX_OK);
    return n;
}

std::vector<double> all_rows(const kmx_dataset *ds) {
    int64_t n = 0, d = 0;
    EXPECT_EQ(kmx_dataset_rows(&n, ds), KMX_OK);
    EXPECT_EQ(kmx_dataset_cols(&d, ds), KMX_OK);
    std::vector<double> out(size_t(n * d));
    EXPECT_EQ(kmx_dataset_get_rows(out.data(), int64_t(out.size()), ds, 0, n), KMX_OK) << kmx_last_error();
    return out;
}

// ds is stored sparse, with `nnz` stored values, and its rows are `dense`.
void expect_sparse_rows(const kmx_dataset *ds, int64_t nnz, const std::vector<double> &dense) {
    int sparse = 0;
    int64_t stored = 0;
    EXPECT_EQ(kmx_dataset_is_sparse(&sparse, ds), KMX_OK);
    EXPECT_EQ(sparse, 1);
    EXPECT_EQ(kmx_dataset_nnz(&stored, ds), KMX_OK);
    EXPECT_EQ(stored, nnz);
    EXPECT_EQ(all_rows(ds), dense);
}

// A wide sparse text: row i has value i+1 at column 100*i (1-based 100*i+1).
std::string wide_sparse_text(int rows, int64_t d, std::vector<double> &dense) {
    std::string text;
    dense.assign(size_t(rows * d), 0.0);
    for (int i = 0; i < rows; ++i) {
        text += std::to_string(i % 2 ? 1 : -1) + " " + std::to_string(100 * i + 1) + ":" + std::to_string(i + 1);
        text += " " + std::to_string(d) + ":0.5\n";
        dense[size_t(i * d + 100 * i)] = i + 1;
        dense[size_t(i * d + d - 1)] = 0.5;
    }
    return text;
}

// ------------------------------------------------------------- creation

TEST(DatasetCapi, CreateCopyOwnsItsValues) {
    std::vector<double> x(kX, kX + 6);
    DatasetHandle h;
    ASSERT_EQ(kmx_dataset_create(&h.ds, x.data(), 3, 2, kY, KMX_COPY), KMX_OK) << kmx_last_error();
    x[0] = 100;
    EXPECT_EQ(all_rows(h.ds), std::vector<double>(kX, kX + 6));
    int64_t value = 0;
    int flag = -1;
    EXPECT_EQ(kmx_dataset_cols(&value, h.ds), KMX_OK);
    EXPECT_EQ(value, 2);
    EXPECT_EQ(kmx_dataset_nnz(&value, h.ds), KMX_OK);
    EXPECT_EQ(value, 6);
    EXPECT_EQ(kmx_dataset_is_sparse(&flag, h.ds), KMX_OK);
    EXPECT_EQ(flag, 0);
    EXPECT_EQ(kmx_dataset_has_labels(&flag, h.ds), KMX_OK);
    EXPECT_EQ(flag, 1);
    EXPECT_EQ(kmx_dataset_has_weights(&flag, h.ds), KMX_OK);
    EXPECT_EQ(flag, 0);
    double labels[3];
    ASSERT_EQ(kmx_dataset_get_labels(labels, 3, h.ds), KMX_OK);
    EXPECT_EQ(std::vector<double>(labels, labels + 3), std::vector<double>(kY, kY + 3));
}

TEST(DatasetCapi, CreateBorrowSeesTheCallersArray) {
    std::vector<double> x(kX, kX + 6);
    DatasetHandle h;
    ASSERT_EQ(kmx_dataset_create(&h.ds, x.data(), 3, 2, nullptr, KMX_BORROW), KMX_OK);
    x[5] = -7;
    double row[2];
    ASSERT_EQ(kmx_dataset_get_rows(row, 2, h.ds, 2, 3), KMX_OK);
    EXPECT_EQ(row[0], 5);
    EXPECT_EQ(row[1], -7);
    int flag = -1;
    EXPECT_EQ(kmx_dataset_has_labels(&flag, h.ds), KMX_OK);
    EXPECT_EQ(flag, 0);
}

TEST(DatasetCapi, WeightsAreCopiedAndKeptByToDense) {
    DatasetHandle h, dense;
    ASSERT_EQ(kmx_dataset_create(&h.ds, kX, 3, 2, kY, KMX_COPY), KMX_OK);
    std::vector<double> w = {0.5, 0, 2};
    ASSERT_EQ(kmx_dataset_set_weights(h.ds, w.data(), 3), KMX_OK) << kmx_last_error();
    int flag = 0;
    EXPECT_EQ(kmx_dataset_has_weights(&flag, h.ds), KMX_OK);
    EXPECT_EQ(flag, 1);
    ASSERT_EQ(kmx_dataset_to_dense(&dense.ds, nullptr, h.ds), KMX_OK);
    EXPECT_EQ(kmx_dataset_has_weights(&flag, dense.ds), KMX_OK);
    EXPECT_EQ(flag, 1);
}

// ---------------------------------------------------------------- files

TEST(DatasetCapi, LoadLetterBinary) {
    DatasetHandle h;
    ASSERT_EQ(kmx_dataset_load(&h.ds, nullptr, example_path("letter_bin.train.libsvm").c_str(), KMX_FORMAT_AUTO),
              KMX_OK)
        << kmx_last_error();
    int64_t d = 0, nnz = 0, count = 0;
    EXPECT_EQ(rows_of(h.ds), 12000);
    EXPECT_EQ(kmx_dataset_cols(&d, h.ds), KMX_OK);
    EXPECT_EQ(d, 16);
    EXPECT_EQ(kmx_dataset_nnz(&nnz, h.ds), KMX_OK);
    EXPECT_EQ(nnz, 12000 * 16);
    ASSERT_EQ(kmx_dataset_classes(&count, nullptr, nullptr, 0, h.ds), KMX_OK);
    EXPECT_EQ(count, 2);
    double labels[2];
    int64_t counts[2];
    ASSERT_EQ(kmx_dataset_classes(&count, labels, counts, 2, h.ds), KMX_OK);
    EXPECT_EQ(labels[0], -1.0);
    EXPECT_EQ(labels[1], 1.0);
    EXPECT_EQ(counts[0], 5998);
    EXPECT_EQ(counts[1], 6002);
}

TEST(DatasetCapi, LetterMulticlassHas26ClassesWithTheManifestCounts) {
    const int64_t expected[26] = {455, 460, 455, 493, 458, 496, 464, 432, 454, 472, 419, 453, 491,
                                  449, 449, 475, 464, 470, 429, 465, 484, 458, 474, 481, 469, 431};
    DatasetHandle h;
    ASSERT_EQ(kmx_dataset_load(&h.ds, nullptr, example_path("letter_mc.train.libsvm").c_str(), KMX_FORMAT_LIBSVM),
              KMX_OK)
        << kmx_last_error();
    double labels[30];
    int64_t counts[30];
    int64_t count = 0;
    ASSERT_EQ(kmx_dataset_classes(&count, labels, counts, 30, h.ds), KMX_OK);
    ASSERT_EQ(count, 26);
    for (int c = 0; c < 26; ++c) {
        EXPECT_EQ(labels[c], c + 1.0);
        EXPECT_EQ(counts[c], expected[c]) << "class " << c + 1;
    }
}

TEST(DatasetCapi, ParseSparseGetRowsAndToDense) {
    std::vector<double> dense;
    const int64_t d = 3000;
    const std::string text = wide_sparse_text(8, d, dense);
    DatasetHandle sparse, copy;
    ContextHandle ctx;
    ASSERT_EQ(kmx_dataset_parse(&sparse.ds, ctx.ctx, text.data(), int64_t(text.size()), KMX_FORMAT_AUTO, "wide"),
              KMX_OK)
        << kmx_last_error();
    expect_sparse_rows(sparse.ds, 16, dense);
    int flag = 0;
    int64_t nnz = 0;

    std::vector<double> two_rows(size_t(2 * d));
    ASSERT_EQ(kmx_dataset_get_rows(two_rows.data(), 2 * d, sparse.ds, 3, 5), KMX_OK);
    EXPECT_EQ(two_rows, std::vector<double>(dense.begin() + 3 * d, dense.begin() + 5 * d));

    ASSERT_EQ(kmx_dataset_to_dense(&copy.ds, ctx.ctx, sparse.ds), KMX_OK) << kmx_last_error();
    EXPECT_EQ(kmx_dataset_is_sparse(&flag, copy.ds), KMX_OK);
    EXPECT_EQ(flag, 0);
    EXPECT_EQ(kmx_dataset_nnz(&nnz, copy.ds), KMX_OK);
    EXPECT_EQ(nnz, 8 * d);
    EXPECT_EQ(all_rows(copy.ds), dense);
    double labels[8];
    ASSERT_EQ(kmx_dataset_get_labels(labels, 8, copy.ds), KMX_OK);
    EXPECT_EQ(labels[0], -1.0);
    EXPECT_EQ(labels[7], 1.0);
}

// The CSR arrays of wide_sparse_text's rows (0-based columns).
struct WideCsr {
    std::vector<int64_t> row_ptr{0};
    std::vector<int32_t> col;
    std::vector<double> values, labels;
    explicit WideCsr(int rows, int64_t d) {
        for (int i = 0; i < rows; ++i) {
            col.insert(col.end(), {int32_t(100 * i), int32_t(d - 1)});
            values.insert(values.end(), {double(i + 1), 0.5});
            row_ptr.push_back(int64_t(col.size()));
            labels.push_back(i % 2 ? 1 : -1);
        }
    }
};

TEST(DatasetCapi, CreateCsrIsTheSparseFileItMirrors) {
    std::vector<double> dense;
    const int64_t d = 3000;
    const std::string text = wide_sparse_text(8, d, dense);
    WideCsr csr(8, d);
    ContextHandle ctx;
    for (kmx_ownership ownership : {KMX_COPY, KMX_BORROW}) {
        DatasetHandle made, parsed;
        ASSERT_EQ(kmx_dataset_create_csr(&made.ds, ctx.ctx, csr.row_ptr.data(), csr.col.data(), csr.values.data(), 8, d,
                                         csr.labels.data(), ownership),
                  KMX_OK)
            << kmx_last_error();
        ASSERT_EQ(kmx_dataset_parse(&parsed.ds, ctx.ctx, text.data(), int64_t(text.size()), KMX_FORMAT_AUTO, "wide"),
                  KMX_OK);
        expect_sparse_rows(made.ds, 16, dense);
        double labels[8];
        ASSERT_EQ(kmx_dataset_get_labels(labels, 8, made.ds), KMX_OK);
        EXPECT_EQ(std::vector<double>(labels, labels + 8), csr.labels);
        csr.values[0] = 42;  // a copy keeps its own values; a borrowed dataset sees the caller's
        EXPECT_EQ(all_rows(made.ds)[0], ownership == KMX_COPY ? 1.0 : 42.0);
        csr.values[0] = 1;
    }
}

// An SVM trained on CSR arrays is the one trained on the same rows dense: the
// same decision values on every row.
TEST(DatasetCapi, TrainingOnCsrEqualsTrainingOnDenseRows) {
    const int64_t d = 1200;
    std::vector<double> dense;
    wide_sparse_text(12, d, dense);
    WideCsr csr(12, d);
    DatasetHandle sparse, full;
    ASSERT_EQ(kmx_dataset_create_csr(&sparse.ds, nullptr, csr.row_ptr.data(), csr.col.data(), csr.values.data(), 12, d,
                                     csr.labels.data(), KMX_BORROW),
              KMX_OK);
    ASSERT_EQ(kmx_dataset_create(&full.ds, dense.data(), 12, d, csr.labels.data(), KMX_BORROW), KMX_OK);
    kmx_kernel *kernel = nullptr;
    kmx_solver *solver = nullptr;
    ASSERT_EQ(kmx_kernel_create_from_string(&kernel, "kernel=rbf gamma=0.02"), KMX_OK);
    ASSERT_EQ(kmx_solver_create_from_string(&solver, "method=svm C=10"), KMX_OK);
    std::vector<std::vector<double>> values;
    for (const kmx_dataset *data : {sparse.ds, full.ds}) {
        kmx_model *model = nullptr;
        ASSERT_EQ(kmx_solver_train(&model, nullptr, solver, kernel, data), KMX_OK) << kmx_last_error();
        values.emplace_back(12);
        EXPECT_EQ(kmx_model_decision_values(values.back().data(), 12, nullptr, model, full.ds), KMX_OK);
        kmx_model_free(model);
    }
    for (int i = 0; i < 12; ++i) EXPECT_NEAR(values[0][size_t(i)], values[1][size_t(i)], 1e-12) << i;
    EXPECT_GT(std::abs(values[0][0]), 0.1);
    kmx_solver_free(solver);
    kmx_kernel_free(kernel);
}

// nnz counts stored values, nonzeros leaves out the explicit zeros (the text
// reader stores none: "1:0" is left out of its CSR rows).
TEST(DatasetCapi, NonzerosLeaveOutExplicitZeros) {
    const std::string text = "1 1:0 3:2 2000:0\n-1 2:0.5 4:0\n";
    const double dense_values[6] = {0, 1, 0, 2, 0, 0};
    const int64_t row_ptr[3] = {0, 2, 3};
    const int32_t col[3] = {0, 1, 1};
    const double csr_values[3] = {0, 2, 0.5};
    DatasetHandle parsed, dense, csr;
    ASSERT_EQ(kmx_dataset_parse(&parsed.ds, nullptr, text.data(), int64_t(text.size()), KMX_FORMAT_LIBSVM, "zeros"),
              KMX_OK);
    ASSERT_EQ(kmx_dataset_create(&dense.ds, dense_values, 2, 3, nullptr, KMX_BORROW), KMX_OK);
    ASSERT_EQ(kmx_dataset_create_csr(&csr.ds, nullptr, row_ptr, col, csr_values, 2, 3, nullptr, KMX_BORROW), KMX_OK);
    const std::pair<const kmx_dataset *, std::pair<int64_t, int64_t>> expected[] = {
        {parsed.ds, {2, 2}}, {dense.ds, {6, 2}}, {csr.ds, {3, 2}}};
    for (const auto &[data, counts] : expected) {
        int64_t nnz = 0, nonzeros = 0;
        EXPECT_EQ(kmx_dataset_nnz(&nnz, data), KMX_OK);
        EXPECT_EQ(kmx_dataset_nonzeros(&nonzeros, data), KMX_OK);
        EXPECT_EQ(std::make_pair(nnz, nonzeros), counts);
    }
    EXPECT_EQ(kmx_dataset_nonzeros(nullptr, dense.ds), KMX_E_INVALID_ARGUMENT);
}

TEST(DatasetCapi, ParseCsv) {
    const std::string text = "1, 0.5, 2\n-1, 3, 4\n";
    DatasetHandle h;
    ASSERT_EQ(kmx_dataset_parse(&h.ds, nullptr, text.data(), int64_t(text.size()), KMX_FORMAT_CSV, nullptr), KMX_OK);
    EXPECT_EQ(all_rows(h.ds), (std::vector<double>{0.5, 2, 3, 4}));
}

// ------------------------------------------------------------ bad input

TEST(DatasetCapiErrors, CreateNullOut) {
    expect_error(kmx_dataset_create(nullptr, kX, 3, 2, kY, KMX_COPY), KMX_E_INVALID_ARGUMENT, "out is NULL");
}

TEST(DatasetCapiErrors, CreateNullX) {
    DatasetHandle h;
    expect_error(kmx_dataset_create(&h.ds, nullptr, 3, 2, kY, KMX_COPY), KMX_E_INVALID_ARGUMENT, "x is NULL");
    EXPECT_EQ(h.ds, nullptr);
}

TEST(DatasetCapiErrors, CreateZeroRows) {
    DatasetHandle h;
    expect_error(kmx_dataset_create(&h.ds, kX, 0, 2, kY, KMX_COPY), KMX_E_INVALID_ARGUMENT, "n = 0 rows");
}

TEST(DatasetCapiErrors, CreateZeroColumns) {
    DatasetHandle h;
    expect_error(kmx_dataset_create(&h.ds, kX, 3, 0, kY, KMX_COPY), KMX_E_INVALID_ARGUMENT, "d = 0 columns");
}

// n*d beyond int64_t: refused before any value is read.
TEST(DatasetCapiErrors, CreateSizeOverflow) {
    DatasetHandle h;
    expect_error(kmx_dataset_create(&h.ds, kX, int64_t(1) << 40, int64_t(1) << 40, nullptr, KMX_BORROW),
                 KMX_E_INVALID_ARGUMENT, "n*d: size overflows");
    EXPECT_EQ(h.ds, nullptr);
}

TEST(DatasetCapiErrors, CreateBadOwnership) {
    DatasetHandle h;
    expect_error(kmx_dataset_create(&h.ds, kX, 3, 2, kY, kmx_ownership(2)), KMX_E_INVALID_ARGUMENT,
                 "ownership 2 is neither KMX_COPY (0) nor KMX_BORROW (1)");
    EXPECT_EQ(h.ds, nullptr);
}

TEST(DatasetCapiErrors, CreateNaNInXNamesTheElement) {
    std::vector<double> x(10, 1.0);
    x[3 * 2 + 1] = std::nan("");
    DatasetHandle h;
    expect_error(kmx_dataset_create(&h.ds, x.data(), 5, 2, nullptr, KMX_COPY), KMX_E_INVALID_ARGUMENT, "x[3,1] is NaN");
    EXPECT_EQ(h.ds, nullptr);
}

TEST(DatasetCapiErrors, CreateInfInXNamesTheElement) {
    std::vector<double> x(10, 1.0);
    x[4 * 2] = -std::numeric_limits<double>::infinity();
    DatasetHandle h;
    expect_error(kmx_dataset_create(&h.ds, x.data(), 5, 2, nullptr, KMX_BORROW), KMX_E_INVALID_ARGUMENT,
                 "x[4,0] is infinite");
}

TEST(DatasetCapiErrors, CreateNaNLabel) {
    const double y[3] = {1, std::nan(""), 1};
    DatasetHandle h;
    expect_error(kmx_dataset_create(&h.ds, kX, 3, 2, y, KMX_COPY), KMX_E_INVALID_ARGUMENT, "y[1] is NaN");
}

// Each CSR mistake is named; nothing is made.
TEST(DatasetCapiErrors, CsrArraysThatBreakTheLayout) {
    const int64_t d = 500;
    struct Case {
        const char *words;
        void (*spoil)(WideCsr &);
    };
    const Case cases[] = {
        {"row_ptr[0] = 1: CSR rows start at 0", [](WideCsr &c) { c.row_ptr[0] = 1; }},
        {"row_ptr[2] = 1 is less than row_ptr[1] = 2", [](WideCsr &c) { c.row_ptr[2] = 1; }},
        {"col[2] = 500 (row 1) is outside the columns [0, 500)", [](WideCsr &c) { c.col[2] = 500; }},
        {"col[2] = -1 (row 1) is outside the columns", [](WideCsr &c) { c.col[2] = -1; }},
        {"row 1's columns are not increasing: col[3] = 100 follows 100", [](WideCsr &c) { c.col[3] = 100; }},
        {"values[3] is NaN", [](WideCsr &c) { c.values[3] = std::nan(""); }},
        {"y[2] is infinite", [](WideCsr &c) { c.labels[2] = INFINITY; }},
    };
    for (const Case &spoilt : cases) {
        WideCsr csr(4, d);
        spoilt.spoil(csr);
        DatasetHandle h;
        expect_error(kmx_dataset_create_csr(&h.ds, nullptr, csr.row_ptr.data(), csr.col.data(), csr.values.data(), 4, d,
                                            csr.labels.data(), KMX_COPY),
                     KMX_E_INVALID_ARGUMENT, spoilt.words);
        EXPECT_EQ(h.ds, nullptr);
    }
    WideCsr csr(4, d);
    DatasetHandle h;
    expect_error(kmx_dataset_create_csr(&h.ds, nullptr, csr.row_ptr.data(), csr.col.data(), csr.values.data(), 0, d,
                                        nullptr, KMX_COPY),
                 KMX_E_INVALID_ARGUMENT, "n = 0 rows");
    expect_error(kmx_dataset_create_csr(&h.ds, nullptr, csr.row_ptr.data(), csr.col.data(), csr.values.data(), 4,
                                        int64_t(1) << 32, nullptr, KMX_COPY),
                 KMX_E_INVALID_ARGUMENT, "CSR data has 1 to 2^31 columns");
    expect_error(
        kmx_dataset_create_csr(&h.ds, nullptr, csr.row_ptr.data(), nullptr, csr.values.data(), 4, d, nullptr, KMX_COPY),
        KMX_E_INVALID_ARGUMENT, "col");
    expect_error(kmx_dataset_create_csr(&h.ds, nullptr, csr.row_ptr.data(), csr.col.data(), csr.values.data(), 4, d,
                                        nullptr, kmx_ownership(2)),
                 KMX_E_INVALID_ARGUMENT, "ownership 2");
    ContextHandle ctx;
    ASSERT_EQ(kmx_context_set_param(ctx.ctx, KMX_PARAM_MEMORY_BUDGET, 65536), KMX_OK);
    WideCsr big(3000, 300000);  // 6000 entries: 94 KB copied
    expect_error(kmx_dataset_create_csr(&h.ds, ctx.ctx, big.row_ptr.data(), big.col.data(), big.values.data(), 3000,
                                        300000, nullptr, KMX_COPY),
                 KMX_E_OUT_OF_MEMORY, "kmx_dataset_create_csr");
    EXPECT_EQ(h.ds, nullptr);
    // An empty matrix has no entries to point at.
    const int64_t no_entries[3] = {0, 0, 0};
    ASSERT_EQ(kmx_dataset_create_csr(&h.ds, nullptr, no_entries, nullptr, nullptr, 2, d, nullptr, KMX_COPY), KMX_OK)
        << kmx_last_error();
    EXPECT_EQ(all_rows(h.ds), std::vector<double>(size_t(2 * d), 0.0));
}

TEST(DatasetCapiErrors, LoadNullOutOrPath) {
    DatasetHandle h;
    expect_error(kmx_dataset_load(nullptr, nullptr, "x.libsvm", KMX_FORMAT_AUTO), KMX_E_INVALID_ARGUMENT,
                 "out is NULL");
    expect_error(kmx_dataset_load(&h.ds, nullptr, nullptr, KMX_FORMAT_AUTO), KMX_E_INVALID_ARGUMENT, "path is NULL");
}

TEST(DatasetCapiErrors, LoadMissingFile) {
    DatasetHandle h;
    expect_error(kmx_dataset_load(&h.ds, nullptr, "/no/such/dir/data.libsvm", KMX_FORMAT_AUTO), KMX_E_IO,
                 "kmx_dataset_load: cannot open '/no/such/dir/data.libsvm': No such file or directory");
    EXPECT_EQ(h.ds, nullptr);
}

TEST(DatasetCapiErrors, LoadWithTooSmallBudget) {
    ContextHandle ctx;
    ASSERT_EQ(kmx_context_set_param(ctx.ctx, KMX_PARAM_MEMORY_BUDGET, 65536), KMX_OK);
    DatasetHandle h;
    expect_error(kmx_dataset_load(&h.ds, ctx.ctx, example_path("letter_bin.train.libsvm").c_str(), KMX_FORMAT_AUTO),
                 KMX_E_OUT_OF_MEMORY, "needs 1.8 MB");
    EXPECT_EQ(h.ds, nullptr);
}

TEST(DatasetCapiErrors, ParseWithTooSmallBudgetFailsBeforeFilling) {
    std::string text;
    for (int i = 0; i < 100; ++i) text += "1 1000:1\n";
    ContextHandle ctx;
    ASSERT_EQ(kmx_context_set_param(ctx.ctx, KMX_PARAM_MEMORY_BUDGET, 65536), KMX_OK);
    DatasetHandle h;
    expect_error(kmx_dataset_parse(&h.ds, ctx.ctx, text.data(), int64_t(text.size()), KMX_FORMAT_AUTO, "big"),
                 KMX_E_OUT_OF_MEMORY, "loading 'big' needs 782.1 KB");
    int64_t peak = -1;
    EXPECT_EQ(kmx_context_peak_bytes(&peak, ctx.ctx), KMX_OK);
    EXPECT_EQ(peak, 0);
}

TEST(DatasetCapiErrors, ParseNullTextOrNegativeLength) {
    DatasetHandle h;
    expect_error(kmx_dataset_parse(&h.ds, nullptr, nullptr, 3, KMX_FORMAT_AUTO, "t"), KMX_E_INVALID_ARGUMENT,
                 "text is NULL");
    expect_error(kmx_dataset_parse(&h.ds, nullptr, "1 1:1", -1, KMX_FORMAT_AUTO, "t"), KMX_E_INVALID_ARGUMENT,
                 "text_len = -1 is negative");
}

TEST(DatasetCapiErrors, ParseMalformedNamesLineAndColumn) {
    const std::string text = "1 1:1\n# comment\n-1 2:1 1:3\n";
    DatasetHandle h;
    expect_error(kmx_dataset_parse(&h.ds, nullptr, text.data(), int64_t(text.size()), KMX_FORMAT_AUTO, "mem"),
                 KMX_E_FORMAT, "kmx_dataset_parse: mem:3:8: index 1 comes after index 2");
    EXPECT_EQ(h.ds, nullptr);
}

TEST(DatasetCapiErrors, ParseUnnamedTextIsCalledMemory) {
    const std::string text = "1 1:nan\n";
    DatasetHandle h;
    expect_error(kmx_dataset_parse(&h.ds, nullptr, text.data(), int64_t(text.size()), KMX_FORMAT_LIBSVM, nullptr),
                 KMX_E_FORMAT, "<memory>:1:5: value 'nan' is NaN");
}

TEST(DatasetCapiErrors, WeightsNegative) {
    DatasetHandle h;
    ASSERT_EQ(kmx_dataset_create(&h.ds, kX, 3, 2, kY, KMX_COPY), KMX_OK);
    const double w[3] = {1, -1, 1};
    expect_error(kmx_dataset_set_weights(h.ds, w, 3), KMX_E_INVALID_ARGUMENT, "weights[1] = -1 is negative");
    int flag = 1;
    EXPECT_EQ(kmx_dataset_has_weights(&flag, h.ds), KMX_OK);
    EXPECT_EQ(flag, 0);
}

TEST(DatasetCapiErrors, WeightsNaN) {
    DatasetHandle h;
    ASSERT_EQ(kmx_dataset_create(&h.ds, kX, 3, 2, kY, KMX_COPY), KMX_OK);
    const double w[3] = {1, 1, std::nan("")};
    expect_error(kmx_dataset_set_weights(h.ds, w, 3), KMX_E_INVALID_ARGUMENT, "weights[2] is NaN");
}

TEST(DatasetCapiErrors, WeightsAllZero) {
    DatasetHandle h;
    ASSERT_EQ(kmx_dataset_create(&h.ds, kX, 3, 2, kY, KMX_COPY), KMX_OK);
    const double w[3] = {0, 0, 0};
    expect_error(kmx_dataset_set_weights(h.ds, w, 3), KMX_E_INVALID_ARGUMENT, "weights are all zero");
}

TEST(DatasetCapiErrors, WeightsWrongCountOrNull) {
    DatasetHandle h;
    ASSERT_EQ(kmx_dataset_create(&h.ds, kX, 3, 2, kY, KMX_COPY), KMX_OK);
    const double w[4] = {1, 1, 1, 1};
    expect_error(kmx_dataset_set_weights(h.ds, w, 4), KMX_E_INVALID_ARGUMENT, "4 weights for 3 rows");
    expect_error(kmx_dataset_set_weights(h.ds, nullptr, 3), KMX_E_INVALID_ARGUMENT, "w is NULL");
    expect_error(kmx_dataset_set_weights(nullptr, w, 3), KMX_E_INVALID_ARGUMENT, "ds is NULL");
}

TEST(DatasetCapiErrors, QueriesRejectNullPointers) {
    DatasetHandle h;
    ASSERT_EQ(kmx_dataset_create(&h.ds, kX, 3, 2, kY, KMX_COPY), KMX_OK);
    int64_t value = 0;
    int flag = 0;
    expect_error(kmx_dataset_rows(&value, nullptr), KMX_E_INVALID_ARGUMENT, "ds is NULL");
    expect_error(kmx_dataset_cols(nullptr, h.ds), KMX_E_INVALID_ARGUMENT, "out is NULL");
    expect_error(kmx_dataset_nnz(nullptr, h.ds), KMX_E_INVALID_ARGUMENT, "out is NULL");
    expect_error(kmx_dataset_is_sparse(&flag, nullptr), KMX_E_INVALID_ARGUMENT, "ds is NULL");
}

TEST(DatasetCapiErrors, RowRangeOutOfBounds) {
    DatasetHandle h;
    ASSERT_EQ(kmx_dataset_create(&h.ds, kX, 3, 2, kY, KMX_COPY), KMX_OK);
    double out[8];
    expect_error(kmx_dataset_get_rows(out, 8, h.ds, 1, 4), KMX_E_INVALID_ARGUMENT, "rows [1, 4) of ds");
    expect_error(kmx_dataset_get_rows(out, 8, h.ds, -1, 2), KMX_E_INVALID_ARGUMENT, "rows [-1, 2) of ds");
    expect_error(kmx_dataset_get_rows(out, 8, h.ds, 2, 2), KMX_E_INVALID_ARGUMENT, "not a non-empty range");
}

TEST(DatasetCapiErrors, OutputTooSmall) {
    DatasetHandle h;
    ASSERT_EQ(kmx_dataset_create(&h.ds, kX, 3, 2, kY, KMX_COPY), KMX_OK);
    double out[6];
    EXPECT_EQ(kmx_dataset_get_rows(out, 5, h.ds, 0, 3), KMX_E_INVALID_ARGUMENT);
    EXPECT_NE(std::string(kmx_last_error()).find("out"), std::string::npos) << kmx_last_error();
    EXPECT_EQ(kmx_dataset_get_labels(out, 2, h.ds), KMX_E_INVALID_ARGUMENT);
    int64_t count = 0;
    expect_error(kmx_dataset_classes(&count, nullptr, nullptr, 2, h.ds), KMX_E_INVALID_ARGUMENT, "out_labels is NULL");
}

TEST(DatasetCapiErrors, LabelsOfAnUnlabelledDataset) {
    DatasetHandle h;
    ASSERT_EQ(kmx_dataset_create(&h.ds, kX, 3, 2, nullptr, KMX_COPY), KMX_OK);
    double out[3];
    int64_t count = 0;
    expect_error(kmx_dataset_get_labels(out, 3, h.ds), KMX_E_INVALID_ARGUMENT, "has no labels");
    expect_error(kmx_dataset_classes(&count, nullptr, nullptr, 0, h.ds), KMX_E_INVALID_ARGUMENT, "has no labels");
}

TEST(DatasetCapiErrors, ToDenseOverBudget) {
    std::vector<double> dense;
    const std::string text = wide_sparse_text(8, 3000, dense);  // dense copy: 192064 bytes
    ContextHandle ctx;
    ASSERT_EQ(kmx_context_set_param(ctx.ctx, KMX_PARAM_MEMORY_BUDGET, 65536), KMX_OK);
    DatasetHandle sparse, copy;
    ASSERT_EQ(kmx_dataset_parse(&sparse.ds, ctx.ctx, text.data(), int64_t(text.size()), KMX_FORMAT_AUTO, "w"), KMX_OK)
        << kmx_last_error();
    expect_error(kmx_dataset_to_dense(&copy.ds, ctx.ctx, sparse.ds), KMX_E_OUT_OF_MEMORY,
                 "a dense copy of the dataset needs");
    EXPECT_EQ(copy.ds, nullptr);
}

}  // namespace
