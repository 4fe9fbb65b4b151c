// pseudo_landmarks.h — DC-Pred++'s pseudo-landmark points (paper §4): extra
// columns of the Nyström factor whose kernel values are estimated from the m
// landmark kernel values c_j = K(x, u_j) instead of computed in O(d).
//
//   triangle (stationary kernels, §4.1): for a point v_t with stored
//     D_tj = ‖v_t − u_j‖, the triangle inequality (paper eq. 6) bounds
//       lower_t = max_j |r_j − D_tj| ≤ ‖x − v_t‖ ≤ min_j (r_j + D_tj) = upper_t,
//     r_j = ‖x − u_j‖; ρ_t (lower, upper or their midpoint) gives κ(ρ_t).
//   products (any kernel, §4.2): sampled degree-2 monomials c_i c_j of the
//     landmark values ("Nys-dp"), i <= j.
//
// Both the predictors (compact_predict.cpp) and the builder (dcpred.cpp)
// expand through expand_pseudo_landmarks, so training and prediction see the
// same features.
#pragma once
#include <cstdint>

#include "compact_predictor.h"
#include "core/rng.h"

namespace kmx {

// r_j = ‖x − u_j‖ (L2 for RBF, L1 for Laplacian) for the m landmarks
// (m x d row-major), by direct differences.
void landmark_distances(const KernelSpec &kernel, const double *x, const double *landmarks, int64_t m, int64_t d,
                        double *r);

// κ(ρ) of a stationary kernel: exp(−γρ²) (RBF) or exp(−γρ) (Laplacian).
double stationary_kernel_of_distance(const KernelSpec &kernel, double gamma, double rho);

// The distance estimate ρ_t of one triangle pseudo-landmark from r (m) and its
// row D_t (m) of stored distances.
double triangle_distance_estimate(TriangleEstimate estimate, const double *r, const double *dist_row, int64_t m);

// Step 3 of compact_predictor.h for one row of `leaf`: cbar[0, m) holds c on
// entry; cbar[m, features()) receives c_tri then c_prod. r (m) is read only
// when leaf.triangle > 0. gamma: the kernel's resolved γ.
void expand_pseudo_landmarks(const KernelSpec &kernel, double gamma, TriangleEstimate estimate,
                             const PredictorLeaf &leaf, const double *r, double *cbar);

// Builder side. Triangle pseudo-landmarks: p of the n candidate points
// (n x d row-major) drawn uniformly without replacement (the paper samples
// them from the data set); sets leaf.triangle = p and leaf.triangle_dist
// (D_tj) from leaf.landmarks. p <= n.
void choose_triangle_pseudo_landmarks(Rng &rng, const KernelSpec &kernel, const double *candidates, int64_t n,
                                      int64_t d, int64_t p, PredictorLeaf &leaf);

// Product pseudo-landmarks: p distinct pairs (i, j), 0 <= i <= j < leaf.m,
// drawn uniformly without replacement (p <= m(m+1)/2), in increasing order.
void choose_product_pairs(Rng &rng, int64_t p, PredictorLeaf &leaf);

}  // namespace kmx
