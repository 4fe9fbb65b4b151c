// meka_blocks.h — MEKA's link matrix L (internal to lib/approx): the
// off-diagonal blocks L^(s,t) by least squares on sampled submatrices, and
// L's eigendecomposition with the PSD repair (meka_blocks.cpp).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/arena.h"

namespace kmx {

class Context;
class Dataset;
class MekaApproximation;
struct MekaOptions;

// link (R x R, row-major) = L: diagonal blocks diag(D_s) (the cluster
// bases W^(s) are orthonormal); for s ≠ t, the least-squares fit of
// Ĝ = K(X_vs, X_vt) on (1+ρ)r sampled rows of each cluster (one sample per
// cluster, shared by its blocks), or 0 when K(center_s, center_t) < ε.
// Returns how many blocks (s < t) were skipped.
int64_t fill_link_matrix(Context &ctx, const MekaApproximation &meka, const Dataset &data, const MekaOptions &options,
                         double *link, Arena &scratch);
size_t link_matrix_workspace_bytes(const MekaApproximation &meka, const MekaOptions &options);

// L = B J Bᵀ from L = V Λ Vᵀ: B = V_kept |Λ_kept|^{1/2}, J = sign(Λ_kept);
// eigenvalues with |λ| <= R·eps·max|λ| are dropped, and with psd_repair the
// negative ones too (counted in `clipped`), so that J = I.
struct LinkFactor {
    std::vector<double> b;      // R x rank
    std::vector<double> signs;  // rank entries, or empty when all +1
    int64_t rank = 0;
    int64_t clipped = 0;
};
LinkFactor factor_link_matrix(int64_t R, double *link, bool psd_repair, Arena &scratch);
size_t factor_link_workspace_bytes(int64_t R);

}  // namespace kmx
