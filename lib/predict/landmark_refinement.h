// landmark_refinement.h — reduced-set refinement of a DC-Pred++ leaf's
// landmarks (Burges 1996, "Simplified support vector decision rules";
// Schölkopf & Smola, "Learning with Kernels", ch. 18).
//
// DC-Pred++ places a leaf's m landmarks by weighted k-means and fits β on
// them; with few landmarks per leaf (a small byte or time budget) k-means
// centroids of a very local kernel are a poor basis. Here the landmarks
// u_1..u_m themselves move to minimise the leaf's fit
//
//   L(U) = min_{β, b} (1/n) Σ_i ‖Σ_j β_j k(x_i, u_j) + b − t_i‖² + λ ‖β‖²
//
// over the leaf's rows x_i and targets t_i (one column per output: the exact
// local model's decision values, or regression targets). Variable
// projection: β and b are solved in closed form at every U, so ∇_U L is the
// partial gradient at the optimal β,
//   ∂L/∂u_j = (2/n) Σ_i (Σ_k r_ik β_jk) ∂k(x_i, u_j)/∂u_j,   r = residuals,
// and U takes gradient steps with backtracking (a step is kept only if L
// falls). Any kmx kernel: its gradient in the second argument is exact.
#pragma once
#include <cstdint>
#include <vector>

#include "kernel/kernel.h"

namespace kmx {

// β (m x outputs, row-major) and the bias per output that fit the targets on
// the given landmarks, and the objective L there.
struct LandmarkFit {
    std::vector<double> beta;
    std::vector<double> bias;
    double loss = 0;
};

// The closed-form fit of β and b for fixed landmarks (m x d). x: n x d rows,
// targets: n x outputs. ridge: λ above (> 0).
LandmarkFit fit_landmark_weights(const KernelSpec &kernel, const double *x, int64_t n, int64_t d,
                                 const double *targets, int64_t outputs, const std::vector<double> &landmarks,
                                 double ridge, int threads);

// ∂L/∂U (m x d) at `landmarks`, β and b solved there.
std::vector<double> landmark_loss_gradient(const KernelSpec &kernel, const double *x, int64_t n, int64_t d,
                                           const double *targets, int64_t outputs,
                                           const std::vector<double> &landmarks, double ridge, int threads);

// Moves `landmarks` (m x d, in place) by at most `iterations` gradient steps
// of L; returns the fit at the final landmarks (L never above the start's).
// kernel.gamma must be set (not 0 = auto).
LandmarkFit refine_landmarks(const KernelSpec &kernel, const double *x, int64_t n, int64_t d, const double *targets,
                             int64_t outputs, std::vector<double> &landmarks, double ridge, int iterations,
                             int threads);

}  // namespace kmx
