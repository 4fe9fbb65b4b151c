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

constexpr double kUnitRoundoff = 0x1p-53;  // u of double, half the machine epsilon

// The Gaussian map over tiles of a block.
struct GaussianTerms {
    double gamma;
    const GaussianNorms &norms;
    double *out;
    int64_t ldo;

    // The tile out[i0:i1, j0:j1], holding −2 a_i·b_j, becomes exp(−γ D_ij).
    void operator()(int64_t i0, int64_t i1, int64_t j0, int64_t j1) const {
        for (int64_t i = i0; i < i1; ++i)
            gaussian_row_from_gram(out + i * ldo + j0, j1 - j0, gamma, norms.sq_a[i], norms.sq_b + j0,
                                   norms.noise * norms.sq_a[i], norms.floor_b + j0);
    }
};

//   K_ij = exp(−γ D_ij),  D_ij = ‖a_i‖² + ‖b_j‖² − 2 a_i·b_j
// The GEMM (−2 A Bᵀ) hands over each tile of out while it is in cache, and
// the map runs on it there (linalg::gemm_abt_tiles).
void gaussian_block(const KernelSpec &spec, const double *a, int64_t na, int64_t lda, const double *b, int64_t nb,
                    int64_t ldb, int64_t d, double *out, int64_t ldo, Arena &scratch, int threads) {
    ArenaScope scope(scratch);
    const GaussianNorms norms(a, na, lda, b, nb, ldb, d, kUnitRoundoff, scratch, threads);
    GaussianTerms terms{spec.gamma_for(d), norms, out, ldo};
    linalg::gemm_abt_tiles(na, nb, d, -2.0, a, lda, b, ldb, out, ldo, scratch, threads, linalg::tile_visitor(terms));
}

}  // namespace

void gram_kernel_block(const KernelSpec &spec, const double *a, int64_t na, int64_t lda, const double *b, int64_t nb,
                       int64_t ldb, int64_t d, double *out, int64_t ldo, Arena &scratch, int threads) {
    switch (spec.type) {
        case KMX_KERNEL_RBF:
            gaussian_block(spec, a, na, lda, b, nb, ldb, d, out, ldo, scratch, threads);
            return;
        case KMX_KERNEL_POLYNOMIAL:
        case KMX_KERNEL_SIGMOID:
            linalg::gemm(linalg::Trans::No, linalg::Trans::Yes, na, nb, d, spec.gamma_for(d), a, lda, b, ldb, 0.0, out,
                         ldo, threads);
            with_dot_kernel_map(spec, [&](auto map) { map_block(out, na, nb, ldo, threads, map); });
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
    // the norms and floors, and the GEMM's packed panels
    return WorkspacePlan()
        .add_bytes(GaussianNorms::workspace_bytes(na, nb))
        .add_bytes(linalg::gemm_tiles_workspace_bytes(na, nb, d))
        .bytes();
}

}  // namespace kmx::kernel_detail
