// nystrom_objective.h — the Nyström kernel machine's primal objective, as
// the distributed Nyström paper writes it without K_BB's pseudo-inverse:
//
//   f(β) = ½ βᵀ W β + Σ_i c_i ℓ(y_i, z_i),   z = C β,
//   ∇f(β) = W β + Cᵀ (c ∘ ℓ'(y, z)),
//   ∇²f(β) v = W v + Cᵀ D C v,   D = diag(c_i ℓ''(y_i, z_i)),
//
// with W = K(B, B), C = K(X, B) (basis_columns.h) and c_i = C · class weight
// · sample weight, the cost of row i. (The paper's λ/2 βᵀWβ + Σ ℓ is this
// with C = 1/λ.) Losses (LIBLINEAR's forms):
//   squared hinge  max(0, 1 − y z)²          (y = ±1; generalised Hessian)
//   logistic       log(1 + exp(−y z))        (y = ±1)
//   squared        (z − y)²                  (real y)
//
// Every sum over rows is binned (core/reproducible_sum.h): its bits do not
// depend on how the rows are split among ranks, so f, ∇f and ∇²f v, and
// therefore TRON's iterates, are the same on every rank and for every number
// of ranks. One pass over C per call (c_iᵀβ or c_iᵀv by a fixed-order dot,
// then the row's terms binned), one agreed maximum (the bins' bound) and one
// AllReduce of the bins (value(): the loss, ∇f's data term and ∇²f's
// diagonal together, 3(1 + 2m) values; hessian_times: 3m).
#pragma once
#include <cstdint>
#include <vector>

#include "basis_columns.h"
#include "core/communicator.h"
#include "core/reproducible_sum.h"
#include "optim/tron.h"

namespace kmx {

enum class TronLoss { squared_hinge, logistic, squared };

// ℓ, ℓ' and ℓ'' (w.r.t. z) of one row.
struct LossTerms {
    double value, first, second;
};
LossTerms loss_terms(TronLoss loss, double y, double z);

class NystromObjective : public TronFunction {
public:
    // y, cost: this rank's n labels (±1, or targets) and costs. row_scratch:
    // n values (D). with_diagonal: value() also sums ∇²f's diagonal.
    // total_rows: every rank's rows together.
    NystromObjective(const Communicator &comm, BasisColumns &columns, TronLoss loss, const double *y,
                     const double *cost, double *row_scratch, bool with_diagonal, int threads, int64_t total_rows);

    int64_t size() const override { return columns_.m(); }
    double value(const double *beta) override;
    void gradient(double *g) override;
    void hessian_times(const double *v, double *hv) override;
    bool hessian_diagonal(double *diagonal) override;

    // Row scratch values the objective needs for n rows.
    static int64_t row_scratch_values(int64_t n) { return n; }

private:
    void add_gram_times(const double *v, double *out) const;  // out += W v
    void bin_value_rows(const double *beta);                  // this rank's rows into the value() sums

    const Communicator &comm_;
    BasisColumns &columns_;
    TronLoss loss_;
    const double *y_, *cost_;
    double *curvature_;  // n: D = c ∘ ℓ''
    bool with_diagonal_;
    int threads_;
    int64_t total_rows_;
    BinnedSum loss_sum_, gradient_sum_, diagonal_sum_, product_sum_;
    double loss_value_ = 0;  // Σ c_i ℓ_i at the last value() point
    std::vector<double> gradient_, diagonal_, products_;
};

}  // namespace kmx
