// kernel_callback.cpp — the caller's kernel function (kmx_kernel_create_callback):
// a block handed to it as contiguous row-major a, b and out (copied when the
// caller's strides are wider), its failure turned into kmx's, its values
// checked finite before the solver sees them.
#include <cmath>
#include <cstring>
#include <vector>

#include "core/error.h"
#include "kernel_blocks.h"

namespace kmx::kernel_detail {

namespace {

constexpr int64_t kMessageBytes = 512;

bool is_status(kmx_status status) {
#define KMX_IS_STATUS_(name, value) status == name ||
    return KMX_STATUS_LIST(KMX_IS_STATUS_) false;
#undef KMX_IS_STATUS_
}

// rows x cols of src (row stride ld) into a contiguous copy.
std::vector<double> contiguous(const double *src, int64_t rows, int64_t cols, int64_t ld) {
    std::vector<double> copy(size_t(rows * cols));
    for (int64_t r = 0; r < rows; ++r) std::memcpy(copy.data() + r * cols, src + r * ld, sizeof(double) * size_t(cols));
    return copy;
}

void call_back(const KernelSpec &spec, const double *a, int64_t na, const double *b, int64_t nb, int64_t d,
               double *out) {
    if (!spec.callback) fail(KMX_E_INVALID_ARGUMENT, "callback kernel has no function");
    char message[kMessageBytes] = "";
    const kmx_status status = spec.callback(spec.callback_data, out, a, na, b, nb, d, message, kMessageBytes);
    if (status == KMX_OK) return;
    message[kMessageBytes - 1] = '\0';
    fail(is_status(status) ? status : KMX_E_INVALID_ARGUMENT, "kernel callback failed (status %d): %s", int(status),
         message[0] ? message : "(no message)");
}

void require_finite_block(const double *out, int64_t na, int64_t nb) {
    for (int64_t k = 0; k < na * nb; ++k)
        if (!std::isfinite(out[k]))
            fail(KMX_E_INVALID_ARGUMENT, "kernel callback gave a non-finite value %g at (%lld, %lld)", out[k],
                 (long long)(k / nb), (long long)(k % nb));
}

}  // namespace

void callback_kernel_block(const KernelSpec &spec, const double *a, int64_t na, int64_t lda, const double *b,
                           int64_t nb, int64_t ldb, int64_t d, double *out, int64_t ldo) {
    if (lda == d && ldb == d && ldo == nb) {
        call_back(spec, a, na, b, nb, d, out);
        require_finite_block(out, na, nb);
        return;
    }
    const std::vector<double> ca = contiguous(a, na, d, lda), cb = contiguous(b, nb, d, ldb);
    std::vector<double> block(size_t(na * nb));
    call_back(spec, ca.data(), na, cb.data(), nb, d, block.data());
    require_finite_block(block.data(), na, nb);
    for (int64_t i = 0; i < na; ++i) std::memcpy(out + i * ldo, block.data() + i * nb, sizeof(double) * size_t(nb));
}

}  // namespace kmx::kernel_detail
