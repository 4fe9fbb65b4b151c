// kernel_gram.cpp — kernel blocks that come from one GEMM plus an
// elementwise map.
//
//   RBF        K_ij = exp(−γ D_ij),  D_ij = ‖a_i‖² + ‖b_j‖² − 2 a_i·b_j
//   polynomial K_ij = (γ a_i·b_j + c0)^deg
//   sigmoid    K_ij = tanh(γ a_i·b_j + c0)
//   linear     K_ij = a_i·b_j
//
// The GEMM writes straight into the caller's block; the map then runs over
// tiles of rows in parallel, except the Gaussian's, which runs on each tile
// of the GEMM as soon as it is final, while it is still in cache.
#include <algorithm>
#include <cmath>

#include "core/error.h"
#include "fast_exp.h"
#include "kernel_blocks.h"
#include "linalg/gemm_tiles.h"
#include "linalg/linalg.h"

namespace kmx::kernel_detail {

namespace {

constexpr int64_t kMapRowTile = 16;        // rows per parallel task of the elementwise pass
constexpr double kUnitRoundoff = 0x1p-53;  // u, half the machine epsilon

// sq[i] = ‖x_i‖² for the n rows of x (row stride ld).
void squared_norms(const double *x, int64_t n, int64_t ld, int64_t d, double *sq, int threads) {
    for_each_row_tile(n, 256, threads, [&](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i) {
            const double *row = x + i * ld;
            double sum = 0;
#pragma omp simd reduction(+ : sum)
            for (int64_t k = 0; k < d; ++k) sum += row[k] * row[k];
            sq[i] = sum;
        }
    });
}

// Rounding-error floor of D = ‖a‖² + ‖b‖² − 2 a·b computed that way. With
// γ_n = n u / (1 − n u) (Higham, Accuracy and Stability, §3.1), fl(‖a‖²) is
// within γ_d ‖a‖² of exact, likewise ‖b‖², and 2 fl(a·b) within
// 2 γ_d ‖a‖‖b‖ ≤ γ_d (‖a‖² + ‖b‖²); with the two additions,
// |fl(D) − D| ≤ 2 γ_{d+2} (‖a‖² + ‖b‖²). A computed D below that floor is
// indistinguishable from 0 and becomes 0 (the clamp): identical rows give
// exactly K = 1, and K never exceeds 1.
double distance_noise_factor(int64_t d) {
    const double nu = double(d + 2) * kUnitRoundoff;
    return 2 * nu / (1 - nu);
}

// What the Gaussian map needs besides the GEMM's −2 a_i·b_j.
struct GaussianTerms {
    double gamma, noise;
    const double *sq_a, *sq_b;  // ‖a_i‖², ‖b_j‖²
    const double *floor_b;      // noise · ‖b_j‖²
    double *out;
    int64_t ldo;

    // The tile out[i0:i1, j0:j1], holding −2 a_i·b_j, becomes exp(−γ D_ij).
    void operator()(int64_t i0, int64_t i1, int64_t j0, int64_t j1) const {
        for (int64_t i = i0; i < i1; ++i)
            gaussian_row_from_gram(out + i * ldo + j0, j1 - j0, gamma, sq_a[i], sq_b + j0, noise * sq_a[i],
                                   floor_b + j0);
    }
};

//   K_ij = exp(−γ D_ij),  D_ij = ‖a_i‖² + ‖b_j‖² − 2 a_i·b_j
// The GEMM (−2 A Bᵀ) hands over each tile of out while it is in cache, and
// the map runs on it there (linalg::gemm_abt_tiles).
void gaussian_block(const KernelSpec &spec, const double *a, int64_t na, int64_t lda, const double *b, int64_t nb,
                    int64_t ldb, int64_t d, double *out, int64_t ldo, Arena &scratch, int threads) {
    ArenaScope scope(scratch);
    double *sq_a = scratch.alloc<double>(size_t(na));
    double *sq_b = scratch.alloc<double>(size_t(nb));
    double *floor_b = scratch.alloc<double>(size_t(nb));
    GaussianTerms terms{spec.gamma_for(d), distance_noise_factor(d), sq_a, sq_b, floor_b, out, ldo};
    squared_norms(a, na, lda, d, sq_a, threads);
    squared_norms(b, nb, ldb, d, sq_b, threads);
    for (int64_t j = 0; j < nb; ++j) floor_b[j] = terms.noise * sq_b[j];
    linalg::gemm_abt_tiles(na, nb, d, -2.0, a, lda, b, ldb, out, ldo, scratch, threads, linalg::tile_visitor(terms));
}

// u^degree by repeated squaring (degree ≥ 1).
double integer_power(double u, int degree) {
    double result = 1;
    for (; degree > 0; degree >>= 1, u *= u)
        if (degree & 1) result *= u;
    return result;
}

// Kernels of the scaled dot product: out ← γ A Bᵀ by the GEMM, then `map`
// on every entry.
template <class Map>
void dot_kernel_block(double scale, const double *a, int64_t na, int64_t lda, const double *b, int64_t nb, int64_t ldb,
                      int64_t d, double *out, int64_t ldo, int threads, Map &&map) {
    linalg::gemm(linalg::Trans::No, linalg::Trans::Yes, na, nb, d, scale, a, lda, b, ldb, 0.0, out, ldo, threads);
    for_each_row_tile(na, kMapRowTile, threads, [&](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i)
            for (double *row = out + i * ldo, *last = row + nb; row != last; ++row) *row = map(*row);
    });
}

}  // namespace

void gram_kernel_block(const KernelSpec &spec, const double *a, int64_t na, int64_t lda, const double *b, int64_t nb,
                       int64_t ldb, int64_t d, double *out, int64_t ldo, Arena &scratch, int threads) {
    const double gamma = spec.gamma_for(d), coef0 = spec.coef0;
    const int degree = spec.degree;
    switch (spec.type) {
        case KMX_KERNEL_RBF:
            gaussian_block(spec, a, na, lda, b, nb, ldb, d, out, ldo, scratch, threads);
            return;
        case KMX_KERNEL_POLYNOMIAL:
            dot_kernel_block(gamma, a, na, lda, b, nb, ldb, d, out, ldo, threads,
                             [=](double scaled_dot) { return integer_power(scaled_dot + coef0, degree); });
            return;
        case KMX_KERNEL_SIGMOID:
            dot_kernel_block(gamma, a, na, lda, b, nb, ldb, d, out, ldo, threads,
                             [=](double scaled_dot) { return std::tanh(scaled_dot + coef0); });
            return;
        case KMX_KERNEL_LINEAR:
            linalg::gemm(linalg::Trans::No, linalg::Trans::Yes, na, nb, d, 1.0, a, lda, b, ldb, 0.0, out, ldo, threads);
            return;
        default:
            fail(KMX_E_INVALID_ARGUMENT, "unknown kernel type %d", int(spec.type));
    }
}

size_t gram_kernel_block_workspace_bytes(const KernelSpec &spec, int64_t na, int64_t nb, int64_t d) {
    if (spec.type != KMX_KERNEL_RBF) return 0;
    // ‖a_i‖², ‖b_j‖², the floors of the b_j, and the GEMM's packed panels
    return WorkspacePlan()
        .add<double>(size_t(na))
        .add<double>(size_t(nb))
        .add<double>(size_t(nb))
        .add_bytes(linalg::gemm_tiles_workspace_bytes(na, nb, d))
        .bytes();
}

}  // namespace kmx::kernel_detail
