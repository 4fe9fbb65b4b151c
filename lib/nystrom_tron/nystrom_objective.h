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
// Every sum over rows is this rank's sum followed by one comm.sum, one
// AllReduce per call (value() reduces the loss, the gradient's data term
// and the Hessian's diagonal together), so f, ∇f and ∇²f v, and therefore
// TRON's iterates, are the same on every rank.
#pragma once
#include <cstdint>
#include <vector>

#include "basis_columns.h"
#include "core/communicator.h"
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
    // 3 n values (z, c ∘ ℓ', D). with_diagonal: value() also sums ∇²f's diagonal.
    NystromObjective(const Communicator &comm, BasisColumns &columns, TronLoss loss, const double *y,
                     const double *cost, double *row_scratch, bool with_diagonal, int threads);

    int64_t size() const override { return columns_.m(); }
    double value(const double *beta) override;
    void gradient(double *g) override;
    void hessian_times(const double *v, double *hv) override;
    bool hessian_diagonal(double *diagonal) override;

    // Row scratch values the objective needs for n rows.
    static int64_t row_scratch_values(int64_t n) { return 3 * n; }

private:
    void add_gram_times(const double *v, double *out) const;  // out += W v

    const Communicator &comm_;
    BasisColumns &columns_;
    TronLoss loss_;
    const double *y_, *cost_;
    double *z_, *first_, *curvature_;  // n each: C β, c ∘ ℓ', c ∘ ℓ''
    bool with_diagonal_;
    int threads_;
    std::vector<double> reduced_;  // [loss, ∇f's data term (m), diagonal (m)], AllReduced
    std::vector<double> gradient_, diagonal_, products_;
};

}  // namespace kmx
