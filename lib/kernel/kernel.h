// kernel.h — kernel functions and blocked kernel-matrix evaluation.
//
// A Gaussian block is one GEMM: ‖a‖² + ‖b‖² − 2 A Bᵀ, clamped at 0, then exp;
// polynomial and sigmoid blocks are a GEMM plus an elementwise map; the
// Laplacian (L1) kernel has no GEMM form and runs a tiled direct loop.
#pragma once
#include <cstddef>
#include <cstdint>

#include "core/arena.h"
#include "kmx/kmx.h"

namespace kmx {

class Dataset;

struct KernelSpec {
    kmx_kernel_type type = KMX_KERNEL_RBF;
    double gamma = 0;  // 0 = auto: 1/d (LIBSVM's default)
    double coef0 = 0;
    int degree = 3;

    double gamma_for(int64_t d) const { return gamma > 0 ? gamma : 1.0 / double(d > 0 ? d : 1); }
    // True for kernels that depend on a−b only (RBF, Laplacian).
    bool stationary() const { return type == KMX_KERNEL_RBF || type == KMX_KERNEL_LAPLACIAN; }
};

// K(a, b) for two vectors of length d, by the direct formula.
double kernel_eval(const KernelSpec &spec, const double *a, const double *b, int64_t d);

// out[i*ldo + j] = K(a_i, b_j) for a (na x d, row stride lda) and b (nb x d,
// row stride ldb). Scratch (row norms, tiles) comes from `scratch` and is
// released before returning; size it with kernel_block_workspace_bytes.
void kernel_block(const KernelSpec &spec, const double *a, int64_t na, int64_t lda, const double *b, int64_t nb,
                  int64_t ldb, int64_t d, double *out, int64_t ldo, Arena &scratch, int threads);
size_t kernel_block_workspace_bytes(const KernelSpec &spec, int64_t na, int64_t nb, int64_t d);

// The same for row ranges of datasets (dense or sparse; sparse rows are
// expanded tile by tile into scratch).
void kernel_block_rows(const KernelSpec &spec, const Dataset &a, int64_t a_begin, int64_t a_end, const Dataset &b,
                       int64_t b_begin, int64_t b_end, double *out, int64_t ldo, Arena &scratch, int threads);
size_t kernel_block_rows_workspace_bytes(const KernelSpec &spec, const Dataset &a, int64_t na, const Dataset &b,
                                         int64_t nb);

// The same in float32 (kernel_block_f32.cpp): float rows in, a float block
// out in half the memory, its GEMM at sgemm's rate, about twice dgemm's
// (FALKON's K_nM with kernel_float32). The dot products come from sgemm, each within about
// d·2⁻²⁴·‖a‖‖b‖ of exact; the norms, γ and the elementwise maps (exp, tanh,
// powers) compute in double from the floats, and each value is rounded to
// float once. The Laplacian has no GEMM form: it is computed in double from
// the floats (kernel_block's loop) and rounded.
void kernel_block_f32(const KernelSpec &spec, const float *a, int64_t na, int64_t lda, const float *b, int64_t nb,
                      int64_t ldb, int64_t d, float *out, int64_t ldo, Arena &scratch, int threads);
size_t kernel_block_f32_workspace_bytes(const KernelSpec &spec, int64_t na, int64_t nb, int64_t d);

// kernel_block_f32 for row ranges of datasets: float32 dense rows are used in
// place, others (doubles rounded to float, sparse rows) are expanded tile by
// tile into scratch.
void kernel_block_rows_f32(const KernelSpec &spec, const Dataset &a, int64_t a_begin, int64_t a_end, const Dataset &b,
                           int64_t b_begin, int64_t b_end, float *out, int64_t ldo, Arena &scratch, int threads);
size_t kernel_block_rows_f32_workspace_bytes(const KernelSpec &spec, const Dataset &a, int64_t na, const Dataset &b,
                                             int64_t nb);

}  // namespace kmx
