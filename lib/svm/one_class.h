// one_class.h — the one-class SVM (Schölkopf et al.; LIBSVM's svm-train -s 2):
//
//   min_α ½ αᵀKα,  0 ≤ α_i ≤ 1,  Σ_i α_i = ν n,
//
// the dual solver's problem (svm_dual.h) with y = +1, the linear term p = 0
// and LIBSVM's feasible start (solve_one_class: the first ⌊νn⌋ α's at 1, the
// next at νn − ⌊νn⌋, the rest 0), whose sum the solver keeps. The decision is
// f(x) = Σ_i α_i K(x_i, x) − ρ: +1 (inlier) when f > 0, else −1 (outlier),
// as LIBSVM. ν bounds the fraction of training rows with f < 0 from above
// and that of support vectors from below.
//
// Labels are ignored (data may have none), as LIBSVM does. Sample weights,
// which LIBSVM does not have, scale the bounds as in LIBSVM's weighted
// variant (libsvm-weights): 0 ≤ α_i ≤ w_i, Σ α_i = ν Σ w_i, the start filled
// in row order; rows of weight 0 are left out. Without weights (or with all 1)
// the problem is LIBSVM's.
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

// The dual's arrays over the m rows of positive weight (every row when there
// are no weights), in row order.
// y: +1; upper: the row's weight (1 without weights); linear: 0; alpha:
// LIBSVM's feasible start, the solution after the solve.
struct OneClassDual : DualArrays {
    int64_t rows_used = 0;  // m
};

// Arena bytes of carve_one_class_dual for a dataset of n rows.
size_t one_class_dual_bytes(int64_t n);
// The one-class dual of `data` (labels not read) with this ν, carved from
// `arena` (one_class_dual_bytes(data.n) free). Fails with
// KMX_E_INVALID_ARGUMENT if ν is not in (0, 1], or fewer than two rows have a
// positive weight (no rows, one row: f would be ≤ 0 on the row itself).
OneClassDual carve_one_class_dual(Arena &arena, const Dataset &data, double nu);
// The dual as the solver's problem (rows of `data`, this kernel).
SvmProblem one_class_problem(const OneClassDual &dual, const Dataset &data, const KernelSpec &kernel);

// Trains options.method == KMX_METHOD_ONE_CLASS (nu, eps, shrinking,
// cache_bytes) into a Model of classes {−1, +1}: one machine, coefficients
// α_i of the rows with α_i > 0, bias −ρ.
Model train_one_class_model(Context &ctx, const TrainOptions &options, const KernelSpec &kernel, const Dataset &data);

}  // namespace kmx
