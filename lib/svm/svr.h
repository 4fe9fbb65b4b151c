// svr.h — ε-support vector regression (LIBSVM's svm-train -s 3):
//
//   min_{w,b} ½‖w‖² + C Σ_i max(0, |wᵀφ(x_i) + b − z_i| − ε)
//
// by its dual over 2n variables, α_i (y = +1) and α*_i (y = −1) per row,
//
//   min ½ (α − α*)ᵀK(α − α*) + ε Σ_i (α_i + α*_i) − Σ_i z_i (α_i − α*_i),
//   0 ≤ α_i, α*_i ≤ C_i,  with bias also Σ_i (α_i − α*_i) = 0,
//
// which is the dual solver's problem (svm_dual.h) with each row twice,
// y = [+1…; −1…] and the linear term p = [ε − z; ε + z] (LIBSVM's
// solve_epsilon_svr). The model predicts f(x) = Σ_i (α_i − α*_i) K(x_i, x) + b;
// its support vectors are the rows with α_i ≠ α*_i.
#pragma once
#include <cstddef>
#include <cstdint>

#include "core/arena.h"
#include "kernel/kernel.h"
#include "model/model.h"
#include "model/train_options.h"
#include "dual_arrays.h"
#include "svm_dual.h"

namespace kmx {

class Context;
class Dataset;

// The dual's arrays: 2m variables for the m rows of positive sample weight
// (every row when there are no weights), α's first, then the α*'s.
// rows: r_1 … r_m, r_1 … r_m; y: +1 (α), −1 (α*); upper: C × sample weight;
// linear: ε − z_r, then ε + z_r; alpha: zeros (a cold start), the solution.
struct SvrDual : DualArrays {
    int64_t rows_used = 0;  // m

    int64_t variables() const { return 2 * rows_used; }
    // α_k − α*_k of the k-th row used: its coefficient in f.
    double coefficient(int64_t k) const { return alpha[k] - alpha[k + rows_used]; }
};

// Arena bytes of carve_svr_dual for a dataset of n rows.
size_t svr_dual_bytes(int64_t n);
// The dual of ε-SVR on the labelled `data` with cost C and tube ε, carved
// from `arena` (svr_dual_bytes(data.n) free). Fails with
// KMX_E_INVALID_ARGUMENT if C ≤ 0, ε < 0, either is not finite, there are
// no labels, or no row has a positive weight.
SvrDual carve_svr_dual(Arena &arena, const Dataset &data, double C, double epsilon);
// The dual as the solver's problem (rows of `data`, this kernel).
SvmProblem svr_problem(const SvrDual &dual, const Dataset &data, const KernelSpec &kernel);

// Trains options.method == KMX_METHOD_SVR (C, epsilon_svr, eps, bias,
// shrinking, cache_bytes) into a regression Model: by the dual solver, or
// with options.svr_dcsvm by train_dcsvm (levels, clusters_per_level,
// sample_size; full DC-SVM, no early prediction) unless the kernel is
// precomputed or a callback (no feature vectors to cluster).
Model train_svr_model(Context &ctx, const TrainOptions &options, const KernelSpec &kernel, const Dataset &data);

}  // namespace kmx
