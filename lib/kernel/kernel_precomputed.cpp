// kernel_precomputed.cpp — the caller's kernel matrix (LIBSVM's -t 4). A row
// x is (s, K(x, x_1), ..., K(x, x_l)): its serial number s in column 0, its
// kernel values against the l training rows after it; K(x, x') = x[s'], the
// column of x that x''s serial number names. So a block needs only the serial
// numbers of b, and a subset of the training rows (a fold, a support vector)
// keeps its kernel values through them.
#include <algorithm>
#include <cmath>
#include <vector>

#include "core/dataset.h"
#include "core/error.h"
#include "kernel_blocks.h"

namespace kmx {

namespace kernel_detail {

int64_t precomputed_column(double serial, int64_t d) {
    if (!(serial >= 1 && serial <= double(d - 1)) || serial != std::floor(serial))
        fail(KMX_E_INVALID_ARGUMENT,
             "precomputed kernel: serial number %.17g is not a whole number in 1..%lld (the columns of kernel "
             "values; 0 or absent: the row has no serial number)",
             serial, (long long)(d - 1));
    return int64_t(serial);
}

void precomputed_kernel_block(const double *a, int64_t na, int64_t lda, const double *b, int64_t nb, int64_t ldb,
                              int64_t d, double *out, int64_t ldo) {
    for (int64_t j = 0; j < nb; ++j) {
        const int64_t column = precomputed_column(b[j * ldb], d);
        for (int64_t i = 0; i < na; ++i) out[i * ldo + j] = a[i * lda + column];
    }
}

}  // namespace kernel_detail

namespace {

// The rows' kernel columns (serial numbers), each checked: in range, distinct.
std::vector<int64_t> training_columns(const Dataset &data) {
    if (data.n > data.d - 1)
        fail(KMX_E_INVALID_ARGUMENT,
             "precomputed kernel: %lld training rows but %lld columns of kernel values: the training matrix must be "
             "square (row i: 0:i, then K(x_i, x_1) ... K(x_i, x_l))",
             (long long)data.n, (long long)(data.d - 1));
    std::vector<int64_t> columns(size_t(data.n)), row_of(size_t(data.d), -1);
    for (int64_t i = 0; i < data.n; ++i) {
        const double serial = data.at(i, 0);
        if (serial == 0)
            fail(KMX_E_INVALID_ARGUMENT, "precomputed kernel: training row %lld has no serial number (0:i)",
                 (long long)(i + 1));
        try {
            columns[size_t(i)] = kernel_detail::precomputed_column(serial, data.d);
        } catch (const Error &e) {
            fail(KMX_E_INVALID_ARGUMENT, "training row %lld: %s", (long long)(i + 1), e.what());
        }
        int64_t &first = row_of[size_t(columns[size_t(i)])];
        if (first >= 0)
            fail(KMX_E_INVALID_ARGUMENT,
                 "precomputed kernel: training rows %lld and %lld have the same serial number %lld",
                 (long long)(first + 1), (long long)(i + 1), (long long)columns[size_t(i)]);
        first = i;
    }
    return columns;
}

}  // namespace

void check_precomputed_training(const Dataset &data) {
    const std::vector<int64_t> columns = training_columns(data);
    double largest_diagonal = 0;
    for (int64_t i = 0; i < data.n; ++i)
        largest_diagonal = std::max(largest_diagonal, std::fabs(data.at(i, columns[size_t(i)])));
    for (int64_t i = 0; i < data.n; ++i)
        for (int64_t j = i + 1; j < data.n; ++j) {
            const double kij = data.at(i, columns[size_t(j)]), kji = data.at(j, columns[size_t(i)]);
            const double scale = std::max({std::fabs(kij), std::fabs(kji), largest_diagonal});
            if (std::fabs(kij - kji) > 1e-6 * scale)
                fail(KMX_E_INVALID_ARGUMENT,
                     "precomputed kernel: the matrix is not symmetric: training row %lld has %.17g in column %lld, "
                     "training row %lld has %.17g in column %lld",
                     (long long)(i + 1), kij, (long long)columns[size_t(j)], (long long)(j + 1), kji,
                     (long long)columns[size_t(i)]);
        }
}

}  // namespace kmx
