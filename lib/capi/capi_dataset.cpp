// kmx_dataset: dense data from caller memory, LIBSVM/CSV/.kmxd files, .kmxd writing, queries.
#include <algorithm>
#include <climits>
#include <cstring>
#include <numeric>
#include <vector>

#include "firewall.h"
#include "core/row_subset.h"
#include "handles.h"
#include "io/kmxd_format.h"
#include "io/text_reader.h"
#include "io/text_shard.h"

namespace kmx::capi {

const Dataset &dataset_of(const kmx_dataset *ds, const char *name) {
    require_pointer(ds, name);
    return *ds->impl;
}

void require_row_range(const Dataset &ds, int64_t begin, int64_t end, const char *name) {
    if (begin < 0 || end > ds.n || begin >= end)
        fail(KMX_E_INVALID_ARGUMENT, "rows [%lld, %lld) of %s are not a non-empty range in [0, %lld)", (long long)begin,
             (long long)end, name, (long long)ds.n);
}

namespace {

kmx_dataset *wrap(std::unique_ptr<Dataset> impl) {
    kmx_dataset *ds = new kmx_dataset();
    ds->impl = std::move(impl);
    return ds;
}

// A dataset made with a context: its memory counts against the context's
// budget for as long as it lives (Context::hold).
kmx_dataset *wrap_held(Context &ctx, std::unique_ptr<Dataset> impl) {
    impl->keep_alive(ctx.hold(impl->stored_bytes()));
    return wrap(std::move(impl));
}

void check_dense_input(const double *x, int64_t n, int64_t d, const double *y) {
    require_pointer(x, "x");
    if (n <= 0) fail(KMX_E_INVALID_ARGUMENT, "n = %lld rows: a dataset needs at least one", (long long)n);
    if (d <= 0) fail(KMX_E_INVALID_ARGUMENT, "d = %lld columns: a dataset needs at least one", (long long)d);
    checked_product(n, d, "n*d");
    check_finite(x, n, d, "x");
    if (y) check_finite(y, n, 1, "y");
}

void require_ownership(kmx_ownership ownership) {
    if (ownership != KMX_COPY && ownership != KMX_BORROW)
        fail(KMX_E_INVALID_ARGUMENT, "ownership %d is neither KMX_COPY (0) nor KMX_BORROW (1)", int(ownership));
}

// Row r's entries: columns increasing, in [0, d).
void check_csr_row(const int64_t *row_ptr, const int32_t *col, int64_t r, int64_t d) {
    for (int64_t e = row_ptr[r]; e < row_ptr[r + 1]; ++e) {
        if (col[e] < 0 || col[e] >= d)
            fail(KMX_E_INVALID_ARGUMENT, "col[%lld] = %d (row %lld) is outside the columns [0, %lld)", (long long)e,
                 int(col[e]), (long long)r, (long long)d);
        if (e > row_ptr[r] && col[e] <= col[e - 1])
            fail(KMX_E_INVALID_ARGUMENT, "row %lld's columns are not increasing: col[%lld] = %d follows %d",
                 (long long)r, (long long)e, int(col[e]), int(col[e - 1]));
    }
}

void check_csr_input(const int64_t *row_ptr, const int32_t *col, const double *values, int64_t n, int64_t d,
                     const double *y) {
    require_pointer(row_ptr, "row_ptr");
    if (n <= 0) fail(KMX_E_INVALID_ARGUMENT, "n = %lld rows: a dataset needs at least one", (long long)n);
    if (d <= 0 || d > int64_t(INT32_MAX) + 1)
        fail(KMX_E_INVALID_ARGUMENT, "d = %lld columns: CSR data has 1 to 2^31 columns (32-bit column indices)",
             (long long)d);
    if (row_ptr[0] != 0) fail(KMX_E_INVALID_ARGUMENT, "row_ptr[0] = %lld: CSR rows start at 0", (long long)row_ptr[0]);
    for (int64_t r = 0; r < n; ++r)
        if (row_ptr[r + 1] < row_ptr[r])
            fail(KMX_E_INVALID_ARGUMENT, "row_ptr[%lld] = %lld is less than row_ptr[%lld] = %lld", (long long)(r + 1),
                 (long long)row_ptr[r + 1], (long long)r, (long long)row_ptr[r]);
    if (row_ptr[n] > 0) {
        require_pointer(col, "col");
        require_pointer(values, "values");
    }
    for (int64_t r = 0; r < n; ++r) check_csr_row(row_ptr, col, r, d);
    check_finite(values, row_ptr[n], 1, "values");
    if (y) check_finite(y, n, 1, "y");
}

// Sorted distinct labels with counts; returns the number of classes.
int64_t count_classes(const Dataset &ds, double *labels, int64_t *counts, int64_t capacity) {
    std::unique_ptr<double[]> sorted(new double[size_t(ds.n)]);
    std::copy(ds.y, ds.y + ds.n, sorted.get());
    std::sort(sorted.get(), sorted.get() + ds.n);
    int64_t classes = 0;
    for (int64_t i = 0; i < ds.n;) {
        int64_t j = i;
        while (j < ds.n && sorted[j] == sorted[i]) ++j;
        if (classes < capacity) {
            labels[classes] = sorted[i];
            counts[classes] = j - i;
        }
        ++classes;
        i = j;
    }
    return classes;
}

}  // namespace
}  // namespace kmx::capi

using namespace kmx::capi;

extern "C" {

KMX_API kmx_status kmx_dataset_create(kmx_dataset **out, const double *x, int64_t n, int64_t d, const double *y,
                                      kmx_ownership ownership) {
    return KMX_GUARDED({
        require_pointer(out, "out");
        *out = nullptr;
        check_dense_input(x, n, d, y);
        require_ownership(ownership);
        *out =
            wrap(ownership == KMX_COPY ? kmx::Dataset::dense_copy(x, n, d, y) : kmx::Dataset::dense_borrow(x, n, d, y));
    });
}

KMX_API kmx_status kmx_dataset_create_csr(kmx_dataset **out, kmx_context *ctx, const int64_t *row_ptr,
                                          const int32_t *col, const double *values, int64_t n, int64_t d,
                                          const double *y, kmx_ownership ownership) {
    return KMX_GUARDED({
        require_pointer(out, "out");
        *out = nullptr;
        check_csr_input(row_ptr, col, values, n, d, y);
        require_ownership(ownership);
        std::unique_ptr<kmx::Dataset> borrowed = kmx::Dataset::csr_borrow(n, d, row_ptr, col, values, y);
        if (ownership == KMX_BORROW) {
            *out = wrap(std::move(borrowed));
            return;
        }
        CallContext call(ctx);
        std::vector<int64_t> every_row(static_cast<size_t>(n));
        std::iota(every_row.begin(), every_row.end(), int64_t(0));
        *out = wrap(kmx::copy_row_subset(*call, *borrowed, every_row.data(), n, "kmx_dataset_create_csr"));
    });
}

KMX_API kmx_status kmx_dataset_load(kmx_dataset **out, kmx_context *ctx, const char *path, kmx_format format) {
    return KMX_GUARDED({
        require_pointer(out, "out");
        *out = nullptr;
        require_pointer(path, "path");
        CallContext call(ctx);
        *out = wrap_held(*call, kmx::read_dataset_file(*call, path, format));
    });
}

KMX_API kmx_status kmx_dataset_load_shard(kmx_dataset **out, kmx_context *ctx, const char *path, kmx_format format,
                                          int64_t shard, int64_t shards) {
    return KMX_GUARDED({
        require_pointer(out, "out");
        *out = nullptr;
        CallContext call(ctx);
        std::unique_ptr<kmx::Dataset> loaded;
        kmx::run_agreed(call->comm, [&] {
            require_pointer(path, "path");
            loaded = kmx::read_dataset_shard(*call, path, format, shard, shards);
        });
        *out = wrap_held(*call, std::move(loaded));
    });
}

KMX_API kmx_status kmx_dataset_parse(kmx_dataset **out, kmx_context *ctx, const char *text, int64_t text_len,
                                     kmx_format format, const char *name) {
    return KMX_GUARDED({
        require_pointer(out, "out");
        *out = nullptr;
        require_pointer(text, "text");
        if (text_len < 0) kmx::fail(KMX_E_INVALID_ARGUMENT, "text_len = %lld is negative", (long long)text_len);
        CallContext call(ctx);
        *out = wrap_held(*call, kmx::parse_dataset(*call, text, size_t(text_len), format, name ? name : "<memory>"));
    });
}

KMX_API void kmx_dataset_free(kmx_dataset *ds) { delete ds; }

KMX_API kmx_status kmx_dataset_save(const kmx_dataset *ds, const char *path, kmx_precision precision) {
    return KMX_GUARDED({
        const kmx::Dataset &data = dataset_of(ds, "ds");
        require_pointer(path, "path");
        if (precision != KMX_PRECISION_FLOAT64 && precision != KMX_PRECISION_FLOAT32)
            kmx::fail(KMX_E_INVALID_ARGUMENT,
                      "precision %d is neither KMX_PRECISION_FLOAT64 (0) nor KMX_PRECISION_FLOAT32 (1)",
                      int(precision));
        kmx::write_kmxd_file(data, path, precision == KMX_PRECISION_FLOAT32);
    });
}

KMX_API kmx_status kmx_dataset_set_weights(kmx_dataset *ds, const double *w, int64_t n) {
    return KMX_GUARDED({
        require_pointer(ds, "ds");
        require_pointer(w, "w");
        if (n != ds->impl->n)
            kmx::fail(KMX_E_INVALID_ARGUMENT, "%lld weights for %lld rows", (long long)n, (long long)ds->impl->n);
        ds->impl->set_weights(w);
    });
}

KMX_API kmx_status kmx_dataset_rows(int64_t *out, const kmx_dataset *ds) {
    return KMX_GUARDED(require_pointer(out, "out"); *out = dataset_of(ds, "ds").n);
}

KMX_API kmx_status kmx_dataset_cols(int64_t *out, const kmx_dataset *ds) {
    return KMX_GUARDED(require_pointer(out, "out"); *out = dataset_of(ds, "ds").d);
}

KMX_API kmx_status kmx_dataset_nnz(int64_t *out, const kmx_dataset *ds) {
    return KMX_GUARDED(require_pointer(out, "out"); *out = dataset_of(ds, "ds").nnz());
}

KMX_API kmx_status kmx_dataset_is_sparse(int *out, const kmx_dataset *ds) {
    return KMX_GUARDED(require_pointer(out, "out"); *out = dataset_of(ds, "ds").sparse() ? 1 : 0);
}

KMX_API kmx_status kmx_dataset_is_float32(int *out, const kmx_dataset *ds) {
    return KMX_GUARDED(require_pointer(out, "out"); *out = dataset_of(ds, "ds").float32() ? 1 : 0);
}

KMX_API kmx_status kmx_dataset_has_labels(int *out, const kmx_dataset *ds) {
    return KMX_GUARDED(require_pointer(out, "out"); *out = dataset_of(ds, "ds").y ? 1 : 0);
}

KMX_API kmx_status kmx_dataset_has_weights(int *out, const kmx_dataset *ds) {
    return KMX_GUARDED(require_pointer(out, "out"); *out = dataset_of(ds, "ds").w ? 1 : 0);
}

KMX_API kmx_status kmx_dataset_get_rows(double *out, int64_t out_len, const kmx_dataset *ds, int64_t row_begin,
                                        int64_t row_end) {
    return KMX_GUARDED({
        require_pointer(out, "out");
        const kmx::Dataset &data = dataset_of(ds, "ds");
        require_row_range(data, row_begin, row_end, "ds");
        require_length(out_len, (row_end - row_begin) * data.d, "out");
        data.copy_rows(row_begin, row_end, out);
    });
}

KMX_API kmx_status kmx_dataset_get_labels(double *out, int64_t out_len, const kmx_dataset *ds) {
    return KMX_GUARDED({
        require_pointer(out, "out");
        const kmx::Dataset &data = dataset_of(ds, "ds");
        if (!data.y) kmx::fail(KMX_E_INVALID_ARGUMENT, "the dataset has no labels");
        require_length(out_len, data.n, "out");
        std::memcpy(out, data.y, sizeof(double) * size_t(data.n));
    });
}

KMX_API kmx_status kmx_dataset_classes(int64_t *out_count, double *out_labels, int64_t *out_counts, int64_t out_len,
                                       const kmx_dataset *ds) {
    return KMX_GUARDED({
        require_pointer(out_count, "out_count");
        const kmx::Dataset &data = dataset_of(ds, "ds");
        if (!data.y) kmx::fail(KMX_E_INVALID_ARGUMENT, "the dataset has no labels");
        if (out_len < 0) kmx::fail(KMX_E_INVALID_ARGUMENT, "out_len = %lld is negative", (long long)out_len);
        if (out_len > 0) {
            require_pointer(out_labels, "out_labels");
            require_pointer(out_counts, "out_counts");
        }
        *out_count = count_classes(data, out_labels, out_counts, out_len);
    });
}

KMX_API kmx_status kmx_dataset_to_dense(kmx_dataset **out, kmx_context *ctx, const kmx_dataset *ds) {
    return KMX_GUARDED({
        require_pointer(out, "out");
        *out = nullptr;
        const kmx::Dataset &data = dataset_of(ds, "ds");
        CallContext call(ctx);
        call->check_budget(kmx::Dataset::dense_bytes(data.n, data.d, data.y != nullptr, data.w != nullptr),
                           "a dense copy of the dataset");
        *out = wrap_held(*call, data.to_dense());
    });
}

}  // extern "C"
