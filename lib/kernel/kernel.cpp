// kernel.cpp — kernel values by the direct formulas, and kernel_block's
// choice of block algorithm (GEMM-based in kernel_gram.cpp, direct L1 loop in
// kernel_l1.cpp).
#include "kernel.h"

#include <cmath>

#include "core/error.h"
#include "core/parallel.h"
#include "kernel_blocks.h"

namespace kmx {

namespace {

double dot(const double *a, const double *b, int64_t d) {
    double sum = 0;
    for (int64_t k = 0; k < d; ++k) sum += a[k] * b[k];
    return sum;
}

double squared_distance(const double *a, const double *b, int64_t d) {
    double sum = 0;
    for (int64_t k = 0; k < d; ++k) sum += (a[k] - b[k]) * (a[k] - b[k]);
    return sum;
}

double l1_distance(const double *a, const double *b, int64_t d) {
    double sum = 0;
    for (int64_t k = 0; k < d; ++k) sum += std::fabs(a[k] - b[k]);
    return sum;
}

}  // namespace

namespace kernel_detail {

void require_block_shape(const KernelSpec &spec, int64_t na, int64_t lda, int64_t nb, int64_t ldb, int64_t d,
                         int64_t ldo) {
    if (na < 0 || nb < 0 || d < 0)
        fail(KMX_E_INVALID_ARGUMENT, "kernel block: negative size (na=%lld, nb=%lld, d=%lld)", (long long)na,
             (long long)nb, (long long)d);
    const int64_t b_columns = spec.point_columns(d);  // a precomputed kernel reads b's serial numbers only
    if (lda < d || ldb < b_columns || ldo < nb)
        fail(KMX_E_INVALID_ARGUMENT, "kernel block: row strides lda=%lld, ldb=%lld, ldo=%lld below d=%lld, nb=%lld",
             (long long)lda, (long long)ldb, (long long)ldo, (long long)d, (long long)nb);
    if (spec.type == KMX_KERNEL_POLYNOMIAL && spec.degree < 1)
        fail(KMX_E_INVALID_ARGUMENT, "polynomial degree %d must be at least 1", spec.degree);
}

}  // namespace kernel_detail

bool same_kernel(const KernelSpec &a, const KernelSpec &b, int64_t d) {
    return a.type == b.type && a.gamma_for(d) == b.gamma_for(d) && a.coef0 == b.coef0 && a.degree == b.degree &&
           a.callback == b.callback && a.callback_data == b.callback_data;
}

void require_feature_kernel(const KernelSpec &spec, const char *method) {
    if (spec.on_features()) return;
    fail(KMX_E_INVALID_ARGUMENT,
         "%s needs feature vectors, which a %s kernel does not give: use the dual solver's methods (svm, svr, "
         "one_class) with it",
         method, spec.type == KMX_KERNEL_PRECOMPUTED ? "precomputed" : "callback");
}

double kernel_eval(const KernelSpec &spec, const double *a, const double *b, int64_t d) {
    const double gamma = spec.gamma_for(d);
    switch (spec.type) {
        case KMX_KERNEL_RBF:
            return std::exp(-gamma * squared_distance(a, b, d));
        case KMX_KERNEL_LAPLACIAN:
            return std::exp(-gamma * l1_distance(a, b, d));
        case KMX_KERNEL_POLYNOMIAL:
            return std::pow(gamma * dot(a, b, d) + spec.coef0, spec.degree);
        case KMX_KERNEL_LINEAR:
            return dot(a, b, d);
        case KMX_KERNEL_SIGMOID:
            return std::tanh(gamma * dot(a, b, d) + spec.coef0);
        case KMX_KERNEL_PRECOMPUTED:
            return a[kernel_detail::precomputed_column(b[0], d)];
        case KMX_KERNEL_CALLBACK: {
            double value = 0;
            kernel_detail::callback_kernel_block(spec, a, 1, d, b, 1, d, d, &value, 1);
            return value;
        }
        default:
            fail(KMX_E_INVALID_ARGUMENT, "unknown kernel type %d", int(spec.type));
    }
}

void kernel_block(const KernelSpec &spec, const double *a, int64_t na, int64_t lda, const double *b, int64_t nb,
                  int64_t ldb, int64_t d, double *out, int64_t ldo, Arena &scratch, int threads) {
    kernel_detail::require_block_shape(spec, na, lda, nb, ldb, d, ldo);
    if (na == 0 || nb == 0) return;
    if (spec.type == KMX_KERNEL_PRECOMPUTED)
        return kernel_detail::precomputed_kernel_block(a, na, lda, b, nb, ldb, d, out, ldo);
    if (spec.type == KMX_KERNEL_CALLBACK)
        return kernel_detail::callback_kernel_block(spec, a, na, lda, b, nb, ldb, d, out, ldo);
    threads = kernel_detail::kernel_block_threads(threads, na, nb, d);
    if (spec.type == KMX_KERNEL_LAPLACIAN)
        kernel_detail::l1_kernel_block(spec, a, na, lda, b, nb, ldb, d, out, ldo, threads);
    else
        kernel_detail::gram_kernel_block(spec, a, na, lda, b, nb, ldb, d, out, ldo, scratch, threads);
}

size_t kernel_block_workspace_bytes(const KernelSpec &spec, int64_t na, int64_t nb, int64_t d) {
    if (spec.type == KMX_KERNEL_LAPLACIAN || !spec.on_features()) return 0;
    return kernel_detail::gram_kernel_block_workspace_bytes(spec, na, nb, d);
}

}  // namespace kmx
