// kernel_blocks.h — the block algorithms behind kernel_block (internal to
// lib/kernel). Arguments are as for kernel_block and already checked.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "core/arena.h"
#include "core/parallel.h"
#include "kernel.h"

namespace kmx::kernel_detail {

// Kernels of a·b or ‖a−b‖² (RBF, polynomial, sigmoid, linear): one GEMM into
// `out`, then an elementwise map (kernel_gram.cpp).
void gram_kernel_block(const KernelSpec &spec, const double *a, int64_t na, int64_t lda, const double *b, int64_t nb,
                       int64_t ldb, int64_t d, double *out, int64_t ldo, Arena &scratch, int threads);
size_t gram_kernel_block_workspace_bytes(const KernelSpec &spec, int64_t na, int64_t nb, int64_t d);

// The Laplacian kernel exp(−γ‖a−b‖₁) by a tiled direct loop; no scratch
// (kernel_l1.cpp).
void l1_kernel_block(const KernelSpec &spec, const double *a, int64_t na, int64_t lda, const double *b, int64_t nb,
                     int64_t ldb, int64_t d, double *out, int64_t ldo, int threads);

// The caller's kernels. A precomputed block: out[i*ldo + j] = a_i[s_j] for
// b_j's serial number s_j = b[j*ldb] (kernel_precomputed.cpp), which
// precomputed_column checks: a whole number in 1..d−1, else
// KMX_E_INVALID_ARGUMENT. A callback block: the caller's function
// (kernel_callback.cpp); its failure or a non-finite value fails the block.
int64_t precomputed_column(double serial, int64_t d);
void precomputed_kernel_block(const double *a, int64_t na, int64_t lda, const double *b, int64_t nb, int64_t ldb,
                              int64_t d, double *out, int64_t ldo);
void callback_kernel_block(const KernelSpec &spec, const double *a, int64_t na, int64_t lda, const double *b,
                           int64_t nb, int64_t ldb, int64_t d, double *out, int64_t ldo);

// Kernel blocks between row ranges of two CSR datasets on their nonzeros
// (kernel_sparse.cpp; kernel_block_rows uses them when sparse_kernel_block
// says so), into double or float blocks, and the scratch they take.
void sparse_kernel_block_rows(const KernelSpec &spec, const Dataset &a, int64_t a_begin, int64_t a_end,
                              const Dataset &b, int64_t b_begin, int64_t b_end, double *out, int64_t ldo,
                              Arena &scratch, int threads);
void sparse_kernel_block_rows(const KernelSpec &spec, const Dataset &a, int64_t a_begin, int64_t a_end,
                              const Dataset &b, int64_t b_begin, int64_t b_end, float *out, int64_t ldo, Arena &scratch,
                              int threads);
size_t sparse_kernel_block_workspace_bytes(const Dataset &a, int64_t na, const Dataset &b, int64_t nb);

// Fails unless the block's sizes and strides are valid for `spec`
// (kernel.cpp; kernel_block and kernel_block_f32 check with it).
void require_block_shape(const KernelSpec &spec, int64_t na, int64_t lda, int64_t nb, int64_t ldb, int64_t d,
                         int64_t ldo);

// Threads worth using for a kernel block: a dot product (2d flops) per entry
// and its map (norms, exp: ~16 more).
inline int kernel_block_threads(int threads, int64_t na, int64_t nb, int64_t d) {
    return threads_for_work(threads, double(na) * double(nb) * (2.0 * double(d) + 16));
}

// Calls body(begin, end) for consecutive ranges of `tile` rows covering
// [0, rows), spread over `threads` threads. Every row belongs to exactly one
// range whatever the thread count, so results never depend on it.
template <class Body>
void for_each_row_tile(int64_t rows, int64_t tile, int threads, Body &&body) {
    const int64_t tiles = (rows + tile - 1) / tile;
    parallel_for(tiles, threads, [&](int64_t t) { body(t * tile, std::min(rows, (t + 1) * tile)); });
}

constexpr int64_t kMapRowTile = 16;  // rows per parallel task of an elementwise pass

// sq[i] = ‖x_i‖² in double for the n rows of x (row stride ld; T is double or
// float: a float's square is exact in double).
template <class T>
void squared_norms(const T *x, int64_t n, int64_t ld, int64_t d, double *sq, int threads) {
    for_each_row_tile(n, 256, threads, [&](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i) {
            const T *row = x + i * ld;
            double sum = 0;
#pragma omp simd reduction(+ : sum)
            for (int64_t k = 0; k < d; ++k) sum += double(row[k]) * double(row[k]);
            sq[i] = sum;
        }
    });
}

// Rounding-error floor of D = ‖a‖² + ‖b‖² − 2 a·b computed that way, relative
// to ‖a‖² + ‖b‖², when the dot products round to unit roundoff u. With
// γ_n = n u / (1 − n u) (Higham, Accuracy and Stability, §3.1), fl(‖a‖²) is
// within γ_d ‖a‖² of exact, likewise ‖b‖², and 2 fl(a·b) within
// 2 γ_d ‖a‖‖b‖ ≤ γ_d (‖a‖² + ‖b‖²); with the two additions,
// |fl(D) − D| ≤ 2 γ_{d+2} (‖a‖² + ‖b‖²). A computed D below that floor is
// indistinguishable from 0 and becomes 0 (the clamp): identical rows give
// exactly K = 1, and K never exceeds 1.
inline double distance_noise_factor(int64_t d, double unit_roundoff) {
    const double nu = double(d + 2) * unit_roundoff;
    return 2 * nu / (1 - nu);
}

// What a Gaussian block's map needs besides the GEMM's −2 a_i·b_j, in
// double whatever the rows' type: ‖a_i‖², ‖b_j‖² and the clamp floors of the
// b_j (noise · ‖b_j‖²), carved from scratch (the caller's ArenaScope frees them).
struct GaussianNorms {
    double noise;  // distance_noise_factor for the GEMM's rounding
    double *sq_a, *sq_b, *floor_b;

    template <class T>
    GaussianNorms(const T *a, int64_t na, int64_t lda, const T *b, int64_t nb, int64_t ldb, int64_t d,
                  double unit_roundoff, Arena &scratch, int threads)
        : noise(distance_noise_factor(d, unit_roundoff)),
          sq_a(scratch.alloc<double>(size_t(na))),
          sq_b(scratch.alloc<double>(size_t(nb))),
          floor_b(scratch.alloc<double>(size_t(nb))) {
        squared_norms(a, na, lda, d, sq_a, threads);
        squared_norms(b, nb, ldb, d, sq_b, threads);
        for (int64_t j = 0; j < nb; ++j) floor_b[j] = noise * sq_b[j];
    }
    static size_t workspace_bytes(int64_t na, int64_t nb) {
        return WorkspacePlan().add<double>(size_t(na)).add<double>(size_t(nb)).add<double>(size_t(nb)).bytes();
    }
};

// u^degree by repeated squaring (degree ≥ 1).
inline double integer_power(double u, int degree) {
    double result = 1;
    for (; degree > 0; degree >>= 1, u *= u)
        if (degree & 1) result *= u;
    return result;
}

// out[i*ldo + j] ← map(out[i*ldo + j]) over an na x nb block, rows in
// parallel tiles; the map computes in double whatever T is.
template <class T, class Map>
void map_block(T *out, int64_t na, int64_t nb, int64_t ldo, int threads, Map &&map) {
    for_each_row_tile(na, kMapRowTile, threads, [&](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i)
            for (T *row = out + i * ldo, *last = row + nb; row != last; ++row) *row = T(map(double(*row)));
    });
}

// Calls apply(map) with the elementwise map of a scaled-dot-product kernel,
// K = map(γ a·b): polynomial (γ a·b + c0)^deg or sigmoid tanh(γ a·b + c0).
template <class Apply>
void with_dot_kernel_map(const KernelSpec &spec, Apply &&apply) {
    const double coef0 = spec.coef0;
    const int degree = spec.degree;
    if (spec.type == KMX_KERNEL_POLYNOMIAL)
        apply([=](double scaled_dot) { return integer_power(scaled_dot + coef0, degree); });
    else
        apply([=](double scaled_dot) { return std::tanh(scaled_dot + coef0); });
}

}  // namespace kmx::kernel_detail
