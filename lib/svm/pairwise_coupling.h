// pairwise_coupling.h — class probabilities p (k) from pairwise estimates
// r_ij ≈ P(y = i | y ∈ {i, j}), by the second method of Wu, Lin & Weng
// ("Probability estimates for multi-class classification by pairwise
// coupling", JMLR 2004), as LIBSVM's multiclass_probability:
//   min_p ½ pᵀQ p  subject to  Σ_i p_i = 1,
//   Q_tt = Σ_{j≠t} r_jt²,  Q_tj = −r_jt r_tj (j ≠ t),
// solved by the fixed-point iteration of their Theorem (each p_t moved to
// satisfy (Qp)_t = pᵀQp, then p renormalised) until max_t |(Qp)_t − pᵀQp|
// < 0.005 / k, or max(100, k) sweeps.
#pragma once
#include <cstdint>

namespace kmx {

// r: k x k row-major, r[i][j] + r[j][i] = 1 off the diagonal (the diagonal is
// not read); p: k outputs, non-negative, summing to 1.
void couple_pairwise(int64_t k, const double *r, double *p);

}  // namespace kmx
