// krr.h — kernel ridge regression, exact and on kernel approximations, every
// form returning a CenterExpansion so one predict path serves all.
//
//   min_f (1/n) Σ_i ‖f(x_i) − y_i‖² + λ ‖f‖²_H     (center_expansion.h)
//
//   exact     α = (G + nλI)⁻¹ Y by Cholesky (n² memory, budget-checked);
//             centers = the training rows, β = α
//   Nyström   α = (G̃ + nλI)⁻¹ Y, G̃ = ΦΦᵀ (Woodbury, r x r), which equals the
//             feature-map ridge θ = (ΦᵀΦ + nλI)⁻¹ΦᵀY and, for full-rank W,
//             β = (CᵀC + nλW)⁻¹CᵀY; centers = the landmarks, β = V_kΛ_k^{-1/2} θ
//   MEKA      α = (G̃ + nλI)⁻¹ Y by Woodbury or conjugate gradients; per
//             cluster s: centers U_s, β_s = M_s [L Wᵀ α]_s, f(x) = K(x, U_s) β_s
#pragma once
#include <cstdint>

#include "approx/approximation.h"
#include "model/center_expansion.h"
#include "krr_targets.h"

namespace kmx {

enum class KrrMethod { exact, nystrom, kmeans_nystrom, meka };
enum class KrrSolver { woodbury, cg };

struct KrrOptions {
    KrrMethod method = KrrMethod::exact;
    double lambda = 1e-6;                    // λ > 0
    ApproxOptions approx;                    // nystrom / kmeans_nystrom / meka (approx.method is set from `method`)
    KrrSolver solver = KrrSolver::woodbury;  // on approximations
    double cg_tolerance = 1e-10;             // CG: stop at ‖r‖ <= tol · ‖y‖ (per output column)
    int cg_max_iterations = 1000;
};

struct KrrFit {
    CenterExpansion expansion;
    int cg_iterations = 0;           // most iterations any output column took (CG only)
    size_t approximation_bytes = 0;  // what the approximation held (0 for exact)
};

// options.approx with its method set from options.method (Nyström,
// k-means Nyström or MEKA).
ApproxOptions approx_options_for(const KrrOptions &options);

// Fits targets (krr_targets(data.y, …), n x outputs) on data (dense or
// sparse). Options are validated before any work; the memory every step
// needs is checked against ctx's budget before it starts.
KrrFit fit_krr(Context &ctx, const KernelSpec &kernel, const Dataset &data, const KrrTargets &targets,
               const KrrOptions &options);

// Exact KRR alone: α = (G + nλI)⁻¹ Y (n x outputs).
CenterExpansion fit_krr_exact(Context &ctx, const KernelSpec &kernel, const Dataset &data, const KrrTargets &targets,
                              double lambda);

// KRR on a built approximation (of `targets`' n training rows).
KrrFit fit_krr_approx(Context &ctx, const KernelApproximation &approx, const KrrTargets &targets,
                      const KrrOptions &options);

}  // namespace kmx
