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
    // KMX_KERNEL_CALLBACK: the caller's function and its data (kernel_callback.cpp).
    kmx_kernel_fn callback = nullptr;
    void *callback_data = nullptr;

    double gamma_for(int64_t d) const { return gamma > 0 ? gamma : 1.0 / double(d > 0 ? d : 1); }
    // True for kernels that depend on a−b only (RBF, Laplacian).
    bool stationary() const { return type == KMX_KERNEL_RBF || type == KMX_KERNEL_LAPLACIAN; }
    // False for the caller's kernels (a precomputed matrix, a callback), whose
    // values are all kmx may use: no feature vectors to cluster, sample or compress.
    bool on_features() const { return type != KMX_KERNEL_PRECOMPUTED && type != KMX_KERNEL_CALLBACK; }
    // Columns of a stored point (support vector) of a model with d columns:
    // a precomputed kernel's point is its serial number alone.
    int64_t point_columns(int64_t d) const { return type == KMX_KERNEL_PRECOMPUTED ? 1 : d; }
};

// Whether a and b are the same function on rows of d columns: type, γ (0
// resolved as 1/d), coef0, degree, and a callback's function and data.
bool same_kernel(const KernelSpec &a, const KernelSpec &b, int64_t d);

// Fails (KMX_E_INVALID_ARGUMENT) with a message naming `method` unless the
// kernel is a function of feature vectors, which `method` needs.
void require_feature_kernel(const KernelSpec &spec, const char *method);

// Fails (KMX_E_INVALID_ARGUMENT, saying what is wrong) unless `data` is
// training rows of a precomputed kernel (kernel_precomputed.cpp): each row's
// serial number (column 0) a whole number in 1..d−1, no two alike (so no more
// rows than kernel columns: a square matrix, or a subset of its rows such as
// a fold), and K symmetric on them: K(x_i, x_j) = K(x_j, x_i) within 1e-6 of
// the larger of the two and the largest |K(x_i, x_i)|.
void check_precomputed_training(const Dataset &data);

// K(a, b) for two vectors of length d, by the direct formula.
double kernel_eval(const KernelSpec &spec, const double *a, const double *b, int64_t d);

// out[i*ldo + j] = K(a_i, b_j) for a (na x d, row stride lda) and b (nb x d,
// row stride ldb; a precomputed kernel reads only b's serial numbers, column 0,
// so there ldb ≥ 1 will do). Scratch (row norms, tiles) comes from `scratch` and is
// released before returning; size it with kernel_block_workspace_bytes.
void kernel_block(const KernelSpec &spec, const double *a, int64_t na, int64_t lda, const double *b, int64_t nb,
                  int64_t ldb, int64_t d, double *out, int64_t ldo, Arena &scratch, int threads);
size_t kernel_block_workspace_bytes(const KernelSpec &spec, int64_t na, int64_t nb, int64_t d);

// Whether rows of `data` stay sparse in kernel blocks: CSR with fewer than
// 1/16 of its cells stored (kernel_sparse.cpp). Widening such rows to d
// columns would cost more than their nonzeros (at 10⁷ columns, 80 MB a row),
// so code that keeps rows of the data (support vectors, centers, a solver's
// rows) keeps them in CSR (copy_row_subset) when this holds.
bool sparse_kernel_rows(const Dataset &data);
// Whether kernel_block_rows computes K(a, b) on the nonzeros: a kernel of
// feature vectors, and both sides' rows stay sparse (sparse_kernel_rows).
bool sparse_kernel_block(const KernelSpec &spec, const Dataset &a, const Dataset &b);

// K(a_i, b_j) into out[i*ldo + j] for rows listed by index (a_rows[0..na) of
// a, b_rows[0..nb) of b; nullptr: rows 0, 1, ...) of two datasets whose rows
// stay sparse (sparse_kernel_rows), on their nonzeros: a solver's variables
// in its own order. The side with fewer rows is indexed by column; scratch:
// sparse_kernel_block_listed_workspace_bytes(min(na, nb), the widest row's
// nonzeros on that side) at most.
void sparse_kernel_block_listed(const KernelSpec &spec, const Dataset &a, const int64_t *a_rows, int64_t na,
                                const Dataset &b, const int64_t *b_rows, int64_t nb, double *out, int64_t ldo,
                                Arena &scratch, int threads);
size_t sparse_kernel_block_listed_workspace_bytes(int64_t indexed_rows, int64_t widest);
// The most values a row of data stores (d for dense data).
int64_t widest_row(const Dataset &data);

// The same for row ranges of datasets: on the nonzeros when
// sparse_kernel_block says so, else with CSR rows (and rows in the other
// precision) expanded tile by tile into scratch.
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
