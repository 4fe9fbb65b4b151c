#include "row_subset.h"

#include <algorithm>
#include <cstring>

#include "arena.h"
#include "context.h"
#include "dataset.h"
#include "error.h"

namespace kmx {

namespace {

int64_t stored_entries(const Dataset &data, const int64_t *rows, int64_t count) {
    if (!data.sparse()) return count * data.d;
    int64_t entries = 0;
    for (int64_t i = 0; i < count; ++i) entries += data.row_ptr[rows[i] + 1] - data.row_ptr[rows[i]];
    return entries;
}

// The copy's arrays in its block, in this order; sizing and carving share it
// (block == nullptr: sizing only).
struct SubsetLayout {
    unsigned char *block = nullptr;
    size_t bytes = 0;
    void *take(size_t size) {
        void *at = block ? block + bytes : nullptr;
        bytes += align_up(size);
        return at;
    }
};

void lay_out(SubsetLayout &layout, Dataset &copy, const Dataset &data, int64_t count, int64_t entries) {
    const size_t values = size_t(entries);
    if (data.sparse()) {
        copy.row_ptr = static_cast<int64_t *>(layout.take(sizeof(int64_t) * size_t(count + 1)));
        copy.col = static_cast<int32_t *>(layout.take(sizeof(int32_t) * values));
    }
    void *stored = layout.take(data.value_bytes() * values);
    if (data.sparse() && data.float32()) copy.values32 = static_cast<float *>(stored);
    if (data.sparse() && !data.float32()) copy.values = static_cast<double *>(stored);
    if (!data.sparse() && data.float32()) copy.x32 = static_cast<float *>(stored);
    if (!data.sparse() && !data.float32()) copy.x = static_cast<double *>(stored);
    if (data.y) copy.y = static_cast<double *>(layout.take(sizeof(double) * size_t(count)));
    if (data.w) copy.w = static_cast<double *>(layout.take(sizeof(double) * size_t(count)));
}

template <class T>
void copy_dense(const T *from, T *to, const int64_t *rows, int64_t count, int64_t d) {
    for (int64_t i = 0; i < count; ++i) std::memcpy(to + i * d, from + rows[i] * d, sizeof(T) * size_t(d));
}

template <class T>
void copy_sparse(const Dataset &data, const T *from, Dataset &copy, T *to, const int64_t *rows, int64_t count) {
    int64_t *row_ptr = const_cast<int64_t *>(copy.row_ptr);
    int32_t *col = const_cast<int32_t *>(copy.col);
    row_ptr[0] = 0;
    for (int64_t i = 0; i < count; ++i) {
        const int64_t begin = data.row_ptr[rows[i]], length = data.row_ptr[rows[i] + 1] - begin;
        row_ptr[i + 1] = row_ptr[i] + length;
        if (length == 0) continue;  // an empty matrix's col and values may be NULL
        std::memcpy(col + row_ptr[i], data.col + begin, sizeof(int32_t) * size_t(length));
        std::memcpy(to + row_ptr[i], from + begin, sizeof(T) * size_t(length));
    }
}

void copy_values(const Dataset &data, Dataset &copy, const int64_t *rows, int64_t count) {
    if (data.sparse() && data.float32())
        copy_sparse(data, data.values32, copy, const_cast<float *>(copy.values32), rows, count);
    if (data.sparse() && !data.float32())
        copy_sparse(data, data.values, copy, const_cast<double *>(copy.values), rows, count);
    if (!data.sparse() && data.float32()) copy_dense(data.x32, const_cast<float *>(copy.x32), rows, count, data.d);
    if (!data.sparse() && !data.float32()) copy_dense(data.x, const_cast<double *>(copy.x), rows, count, data.d);
}

void copy_column(const double *from, const double *to, const int64_t *rows, int64_t count) {
    if (!from) return;
    double *out = const_cast<double *>(to);
    for (int64_t i = 0; i < count; ++i) out[i] = from[rows[i]];
}

}  // namespace

size_t row_subset_bytes(const Dataset &data, const int64_t *rows, int64_t count) {
    Dataset shape;
    SubsetLayout layout;
    lay_out(layout, shape, data, count, stored_entries(data, rows, count));
    return layout.bytes;
}

std::unique_ptr<Dataset> copy_row_subset(Context &ctx, const Dataset &data, const int64_t *rows, int64_t count,
                                         const char *what) {
    for (int64_t i = 0; i < count; ++i)
        require(rows[i] >= 0 && rows[i] < data.n, "copy_row_subset: a row index outside the dataset");
    const int64_t entries = stored_entries(data, rows, count);
    const size_t bytes = row_subset_bytes(data, rows, count);
    ctx.check_budget(bytes, what);
    auto copy = std::make_unique<Dataset>();
    copy->n = count;
    copy->d = data.d;
    copy->absent_columns_are_zeros = data.absent_columns_are_zeros;
    copy->adopt_block(bytes);
    SubsetLayout layout{copy->block()};
    lay_out(layout, *copy, data, count, entries);
    copy_values(data, *copy, rows, count);
    copy_column(data.y, copy->y, rows, count);
    copy_column(data.w, copy->w, rows, count);
    copy->keep_alive(ctx.hold(bytes));
    return copy;
}

void KeptRows::gather_csr(Context &ctx, const Dataset &data, const int64_t *rows, int64_t count, const char *what) {
    const int64_t stored = rows ? stored_entries(data, rows, count) : data.row_ptr[count] - data.row_ptr[0];
    ctx.check_budget(size_t(stored) * (sizeof(double) + sizeof(int32_t)) + size_t(count + 1) * sizeof(int64_t), what);
    values.resize(size_t(stored));
    col.resize(size_t(stored));
    row_ptr.assign(1, 0);
    int64_t next = 0;
    for (int64_t i = 0; i < count; ++i) {
        const int64_t r = rows ? rows[i] : i;
        for (int64_t e = data.row_ptr[r]; e < data.row_ptr[r + 1]; ++e, ++next) {
            col[size_t(next)] = data.col[e];
            values[size_t(next)] = data.value(e);
        }
        row_ptr.push_back(next);
    }
}

std::unique_ptr<Dataset> KeptRows::view(int64_t n, int64_t d) const {
    if (sparse()) return Dataset::csr_borrow(n, d, row_ptr.data(), col.data(), values.data(), nullptr);
    return Dataset::dense_borrow(values.data(), n, d, nullptr);
}

void KeptRows::widen_row(int64_t r, int64_t d, double *out) const {
    if (!sparse()) {
        std::memcpy(out, values.data() + r * d, sizeof(double) * size_t(d));
        return;
    }
    std::fill(out, out + d, 0.0);
    for (int64_t e = row_ptr[size_t(r)]; e < row_ptr[size_t(r) + 1]; ++e) out[col[size_t(e)]] = values[size_t(e)];
}

}  // namespace kmx
