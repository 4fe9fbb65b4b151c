// dataset.h — rows of features (dense row-major or CSR), optional labels or
// targets, optional sample weights. Immutable once built. Feature values are
// doubles, or floats for a dataset loaded with precision=float32 (half the
// memory); readers that need doubles get them from copy_rows/gather_rows,
// which widen floats exactly, so kernels still compute in double.
#pragma once
#include <cstdint>
#include <cstddef>
#include <memory>
#include <vector>

namespace kmx {

class Context;

class Dataset {
public:
    int64_t n = 0;  // rows
    int64_t d = 0;  // columns

    // Dense storage (row_ptr == nullptr): n*d row-major values in x, or in
    // x32 for a float32 dataset (then x == nullptr).
    const double *x = nullptr;
    const float *x32 = nullptr;
    // Sparse storage (CSR, row_ptr != nullptr): row r holds entries
    // [row_ptr[r], row_ptr[r+1]) of col/values, columns increasing, 0-based;
    // the values are in values32 instead for a float32 dataset.
    const int64_t *row_ptr = nullptr;
    const int32_t *col = nullptr;
    const double *values = nullptr;
    const float *values32 = nullptr;

    const double *y = nullptr;  // n labels/targets, or nullptr
    const double *w = nullptr;  // n weights, or nullptr
    // LIBSVM rows: a column past a row's last index is a zero, so a model
    // trained on more columns may pad them. Dense data (CSV, arrays) names
    // every column: fewer than a model's is an error (check_columns).
    bool absent_columns_are_zeros = false;

    bool sparse() const { return row_ptr != nullptr; }
    bool float32() const { return x32 != nullptr || values32 != nullptr; }
    // Dense double rows, usable in place; other rows (CSR, float32) are
    // expanded to doubles by copy_rows into the reader's buffer.
    bool rows_in_place() const { return x != nullptr; }
    // Bytes of one stored feature value (8, or 4 for float32).
    size_t value_bytes() const { return float32() ? sizeof(float) : sizeof(double); }
    // Value e of a CSR dataset, as a double.
    double value(int64_t e) const { return values32 ? double(values32[e]) : values[e]; }
    // The value at (row, column), dense or sparse (a binary search in the
    // row's columns), either precision, as a double.
    double at(int64_t row, int64_t column) const;
    int64_t nnz() const { return sparse() ? row_ptr[n] - row_ptr[0] : n * d; }
    // The stored values that are not zero (nnz() but explicit zeros).
    int64_t nonzeros() const;
    // Bytes of the arrays it points to (values, columns, row pointers, labels,
    // weights), owned or not: what holding it in memory costs.
    size_t stored_bytes() const;

    // The same rows, labels and weights, borrowed (every array pointer, in
    // either precision; no ownership): valid while this dataset lives.
    Dataset view() const;
    // Rows [begin, end) with their labels and weights, borrowed in place (a
    // CSR view keeps indexing col/values from the start of the arrays).
    Dataset row_range(int64_t begin, int64_t end) const;

    // Writes rows [begin, end) as dense row-major values into out ((end-begin)*d).
    void copy_rows(int64_t begin, int64_t end, double *out) const;
    // The same as floats (doubles rounded to the nearest float).
    void copy_rows(int64_t begin, int64_t end, float *out) const;

    // A dataset that owns one block holding everything it points to.
    static std::unique_ptr<Dataset> dense_copy(const double *x, int64_t n, int64_t d, const double *y);
    // A dataset pointing into caller memory (which must outlive it).
    static std::unique_ptr<Dataset> dense_borrow(const double *x, int64_t n, int64_t d, const double *y);
    // A CSR dataset pointing into caller memory (which must outlive it); the
    // arrays are as documented above, with row_ptr[0] = 0. Columns past a
    // row's entries are zeros, and so are columns past d when predicting.
    static std::unique_ptr<Dataset> csr_borrow(int64_t n, int64_t d, const int64_t *row_ptr, const int32_t *col,
                                               const double *values, const double *y);
    // An owned dense copy of any dataset (labels and weights too).
    std::unique_ptr<Dataset> to_dense() const;
    // Bytes that dense_copy/to_dense would allocate.
    static size_t dense_bytes(int64_t n, int64_t d, bool with_labels, bool with_weights);
    // Copies w (n finite non-negative values, not all zero) in as sample weights.
    void set_weights(const double *weights);

    // Owned storage for loaders: one block of `bytes`.
    void adopt_block(size_t bytes);
    unsigned char *block() { return block_.get(); }
    // Keeps `owner` (e.g. a file mapping the arrays point into) alive as long
    // as the dataset.
    void keep_alive(std::shared_ptr<const void> owner) { owners_.push_back(std::move(owner)); }

private:
    struct FreeBlock {
        void operator()(unsigned char *p) const;
    };
    std::unique_ptr<unsigned char, FreeBlock> block_;
    std::unique_ptr<double[]> weights_;
    std::vector<std::shared_ptr<const void>> owners_;
};

// Fails with KMX_E_INVALID_ARGUMENT naming the first non-finite value of a
// matrix (rows x cols, row-major) or vector, e.g. "x[12,3] is NaN".
void check_finite(const double *values, int64_t rows, int64_t cols, const char *name);
// KMX_E_INVALID_ARGUMENT naming the first non-finite feature of data (dense or sparse).
void check_finite_dataset(const Dataset &data, const char *name);

// Fails with KMX_E_INVALID_ARGUMENT unless data can be predicted by a `what`
// (e.g. "model") trained on `expected` columns: more columns is an error, and
// so is fewer unless data.absent_columns_are_zeros (then they are padded).
void check_columns(const Dataset &data, int64_t expected, const char *what);
// The columns predicting data with `expected` columns adds as zeros (0 when none).
int64_t padded_columns(const Dataset &data, int64_t expected);
// Rows `rows[0..count)` of data (dense or sparse) as dense row-major values (count x d).
void gather_rows(const Dataset &data, const int64_t *rows, int64_t count, double *out);

}  // namespace kmx
