#include "dataset.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "arena.h"
#include "big_blocks.h"
#include "error.h"

namespace kmx {

void Dataset::FreeBlock::operator()(unsigned char *p) const { std::free(p); }

void check_finite(const double *values, int64_t rows, int64_t cols, const char *name) {
    for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < cols; ++j) {
            const double v = values[i * cols + j];
            if (std::isfinite(v)) continue;
            const char *kind = std::isnan(v) ? "NaN" : "infinite";
            if (cols == 1) fail(KMX_E_INVALID_ARGUMENT, "%s[%lld] is %s", name, (long long)i, kind);
            fail(KMX_E_INVALID_ARGUMENT, "%s[%lld,%lld] is %s", name, (long long)i, (long long)j, kind);
        }
}

Dataset Dataset::view() const {
    Dataset view;
    view.n = n;
    view.d = d;
    view.x = x;
    view.x32 = x32;
    view.row_ptr = row_ptr;
    view.col = col;
    view.values = values;
    view.values32 = values32;
    view.y = y;
    view.w = w;
    view.absent_columns_are_zeros = absent_columns_are_zeros;
    return view;
}

Dataset Dataset::row_range(int64_t begin, int64_t end) const {
    require(0 <= begin && begin <= end && end <= n, "row_range: rows outside the dataset");
    Dataset part = view();
    part.n = end - begin;
    if (row_ptr) part.row_ptr = row_ptr + begin;
    if (x) part.x = x + begin * d;
    if (x32) part.x32 = x32 + begin * d;
    if (y) part.y = y + begin;
    if (w) part.w = w + begin;
    return part;
}

namespace {

// Rows [begin, end) of `data` as dense row-major T values (double: exact;
// float: doubles rounded to the nearest float).
template <class T>
void copy_rows_as(const Dataset &data, int64_t begin, int64_t end, T *out) {
    const int64_t d = data.d, rows = end - begin;
    if (data.x) {
        std::copy(data.x + begin * d, data.x + end * d, out);
        return;
    }
    if (data.x32) {  // float to double is exact: the rows are the float32 values
        std::copy(data.x32 + begin * d, data.x32 + end * d, out);
        return;
    }
    std::fill(out, out + rows * d, T(0));
    for (int64_t r = begin; r < end; ++r)
        for (int64_t e = data.row_ptr[r]; e < data.row_ptr[r + 1]; ++e)
            out[(r - begin) * d + data.col[e]] = T(data.value(e));
}

}  // namespace

void Dataset::copy_rows(int64_t begin, int64_t end, double *out) const { copy_rows_as(*this, begin, end, out); }

void Dataset::copy_rows(int64_t begin, int64_t end, float *out) const { copy_rows_as(*this, begin, end, out); }

size_t Dataset::dense_bytes(int64_t n, int64_t d, bool with_labels, bool with_weights) {
    WorkspacePlan plan;
    plan.add<double>(size_t(n) * size_t(d));
    if (with_labels) plan.add<double>(size_t(n));
    if (with_weights) plan.add<double>(size_t(n));
    return plan.bytes();
}

size_t Dataset::stored_bytes() const {
    size_t bytes = size_t(nnz()) * value_bytes();
    if (sparse()) bytes += size_t(n + 1) * sizeof(int64_t) + size_t(nnz()) * sizeof(int32_t);
    if (y) bytes += size_t(n) * sizeof(double);
    if (w) bytes += size_t(n) * sizeof(double);
    return bytes;
}

void Dataset::adopt_block(size_t bytes) {
    void *p = allocate_block(bytes ? bytes : 1, kArenaAlignment);
    if (!p) fail(KMX_E_OUT_OF_MEMORY, "the system could not provide %zu bytes for a dataset", bytes);
    block_.reset(static_cast<unsigned char *>(p));
}

std::unique_ptr<Dataset> Dataset::dense_copy(const double *src, int64_t n, int64_t d, const double *labels) {
    auto ds = std::make_unique<Dataset>();
    ds->n = n;
    ds->d = d;
    ds->adopt_block(dense_bytes(n, d, labels != nullptr, false));
    double *xs = reinterpret_cast<double *>(ds->block());
    std::memcpy(xs, src, sizeof(double) * size_t(n * d));
    ds->x = xs;
    if (labels) {
        double *ys = reinterpret_cast<double *>(ds->block() + align_up(sizeof(double) * size_t(n * d)));
        std::memcpy(ys, labels, sizeof(double) * size_t(n));
        ds->y = ys;
    }
    return ds;
}

std::unique_ptr<Dataset> Dataset::dense_borrow(const double *src, int64_t n, int64_t d, const double *labels) {
    auto ds = std::make_unique<Dataset>();
    ds->n = n;
    ds->d = d;
    ds->x = src;
    ds->y = labels;
    return ds;
}

namespace {
template <class T>
int64_t count_nonzeros(const T *values, int64_t count) {
    int64_t nonzero = 0;
    for (int64_t i = 0; i < count; ++i) nonzero += values[i] != 0;
    return nonzero;
}
}  // namespace

double Dataset::at(int64_t row, int64_t column) const {
    if (x) return x[row * d + column];
    if (x32) return double(x32[row * d + column]);
    const int32_t *first = col + row_ptr[row], *last = col + row_ptr[row + 1];
    const int32_t *found = std::lower_bound(first, last, int32_t(column));
    return found != last && *found == column ? value(found - col) : 0.0;
}

int64_t Dataset::nonzeros() const {
    const int64_t first = sparse() ? row_ptr[0] : 0;
    if (values32 || x32) return count_nonzeros((values32 ? values32 : x32) + first, nnz());
    return count_nonzeros((values ? values : x) + first, nnz());
}

std::unique_ptr<Dataset> Dataset::csr_borrow(int64_t n, int64_t d, const int64_t *row_ptr, const int32_t *col,
                                             const double *values, const double *labels) {
    auto ds = std::make_unique<Dataset>();
    ds->n = n;
    ds->d = d;
    ds->row_ptr = row_ptr;
    ds->col = col;
    ds->values = values;
    ds->y = labels;
    ds->absent_columns_are_zeros = true;
    return ds;
}

std::unique_ptr<Dataset> Dataset::to_dense() const {
    auto ds = std::make_unique<Dataset>();
    ds->n = n;
    ds->d = d;
    ds->adopt_block(dense_bytes(n, d, y != nullptr, false));
    double *xs = reinterpret_cast<double *>(ds->block());
    copy_rows(0, n, xs);
    ds->x = xs;
    if (y) {
        double *ys = reinterpret_cast<double *>(ds->block() + align_up(sizeof(double) * size_t(n * d)));
        std::memcpy(ys, y, sizeof(double) * size_t(n));
        ds->y = ys;
    }
    if (w) ds->set_weights(w);
    ds->absent_columns_are_zeros = absent_columns_are_zeros;
    return ds;
}

void Dataset::set_weights(const double *weights) {
    check_finite(weights, n, 1, "weights");
    double total = 0;
    for (int64_t i = 0; i < n; ++i) {
        if (weights[i] < 0) fail(KMX_E_INVALID_ARGUMENT, "weights[%lld] = %g is negative", (long long)i, weights[i]);
        total += weights[i];
    }
    if (!(total > 0)) fail(KMX_E_INVALID_ARGUMENT, "weights are all zero");
    weights_.reset(new double[size_t(n)]);
    std::memcpy(weights_.get(), weights, sizeof(double) * size_t(n));
    w = weights_.get();
}

void gather_rows(const Dataset &data, const int64_t *rows, int64_t count, double *out) {
    for (int64_t j = 0; j < count; ++j) data.copy_rows(rows[j], rows[j] + 1, out + j * data.d);
}

void check_finite_dataset(const Dataset &data, const char *name) {
    if (data.x) {
        check_finite(data.x, data.n, data.d, name);
        return;
    }
    if (data.x32) {
        for (int64_t i = 0; i < data.n * data.d; ++i)
            if (!std::isfinite(data.x32[i]))
                fail(KMX_E_INVALID_ARGUMENT, "%s[%lld,%lld] is not finite", name, (long long)(i / data.d),
                     (long long)(i % data.d));
        return;
    }
    for (int64_t r = 0; r < data.n; ++r)
        for (int64_t p = data.row_ptr[r]; p < data.row_ptr[r + 1]; ++p)
            if (!std::isfinite(data.value(p)))
                fail(KMX_E_INVALID_ARGUMENT, "%s[%lld,%d] is not finite", name, (long long)r, data.col[p]);
}

void check_columns(const Dataset &data, int64_t expected, const char *what) {
    if (data.d > expected)
        fail(KMX_E_INVALID_ARGUMENT, "the data has %lld columns but the %s was trained on %lld", (long long)data.d,
             what, (long long)expected);
    if (data.d < expected && !data.absent_columns_are_zeros)
        fail(KMX_E_INVALID_ARGUMENT,
             "the data has %lld columns but the %s was trained on %lld; dense data (CSV, arrays) must have them all "
             "(only LIBSVM's sparse rows may leave trailing columns out, as zeros)",
             (long long)data.d, what, (long long)expected);
}

int64_t padded_columns(const Dataset &data, int64_t expected) { return data.d < expected ? expected - data.d : 0; }

}  // namespace kmx
