// row_subset.h — a dataset of some of another dataset's rows, copied: the
// rows one cross-validation fold trains on or is tested on. The copy keeps
// the source's storage (dense or CSR, float64 or float32), its columns
// (absent columns stay zeros), labels and sample weights.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace kmx {

class Context;
class Dataset;

// Bytes copy_row_subset allocates for rows[0..count) of data.
size_t row_subset_bytes(const Dataset &data, const int64_t *rows, int64_t count);

// Rows rows[0..count) of data (indices in [0, data.n), in the order given),
// copied into one block charged to ctx (Context::hold) while the copy lives;
// KMX_E_OUT_OF_MEMORY naming `what` before copying if ctx's budget does not
// have the bytes.
std::unique_ptr<Dataset> copy_row_subset(Context &ctx, const Dataset &data, const int64_t *rows, int64_t count,
                                         const char *what);

// Rows a result keeps from its data (a model's support vectors, landmarks,
// centers): dense row-major `values` (n x d), or CSR when the data's rows
// stay sparse in kernel blocks (sparse_kernel_rows), so that keeping rows of
// a 10⁷-column file costs their nonzeros: row r's values
// values[row_ptr[r], row_ptr[r + 1]) at columns col[...] (increasing).
struct KeptRows {
    std::vector<double> values;
    std::vector<int64_t> row_ptr;  // n + 1 offsets when CSR, else empty
    std::vector<int32_t> col;

    bool sparse() const { return !row_ptr.empty(); }
    // Rows rows[0..count) of CSR data (rows nullptr: its first count rows) as
    // CSR, ctx's budget checked first (KMX_E_OUT_OF_MEMORY naming `what`).
    void gather_csr(Context &ctx, const Dataset &data, const int64_t *rows, int64_t count, const char *what);
    // A dataset of n rows and d columns borrowing these arrays.
    std::unique_ptr<Dataset> view(int64_t n, int64_t d) const;
    // Row r as d dense values.
    void widen_row(int64_t r, int64_t d, double *out) const;
};

}  // namespace kmx
