// row_subset.h — a dataset of some of another dataset's rows, copied: the
// rows one cross-validation fold trains on or is tested on. The copy keeps
// the source's storage (dense or CSR, float64 or float32), its columns
// (absent columns stay zeros), labels and sample weights.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>

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

}  // namespace kmx
