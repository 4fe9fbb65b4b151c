// falkon_preconditioner.h — FALKON's preconditioner (paper eq. 13, Alg. 1)
//
//   B = (1/√n) T⁻¹ A⁻¹,   T = chol(K_MM + εM I),   A = chol(T Tᵀ/M + λ I),
//
// both factors upper triangular (TᵀT = K_MM + εM I, AᵀA = T Tᵀ/M + λ I), so
// B Bᵀ = (n/M K_MM² + λn K_MM)⁻¹ approximates H⁻¹ and equals it when M = n.
// B is never formed: it is applied by triangular solves.
//
// A singular K_MM (duplicate centers, a low-rank kernel) can make K_MM + εM I
// fail to factor. Then T is taken on K_MM's numerical rank q, as the paper's
// appendix does for a non-invertible K_MM: K_MM = Q Λ Qᵀ, T = Λ_q^{1/2} Q_qᵀ
// (q x M), so T⁻¹ becomes Q_q Λ_q^{-1/2} (M x q), T Tᵀ = Λ_q and A is
// diagonal. CG then runs on q unknowns instead of M.
#pragma once
#include <cstddef>
#include <cstdint>

#include "core/arena.h"

namespace kmx {

struct FalkonPreconditioner {
    int64_t m = 0;          // centers M
    int64_t rank = 0;       // q, the unknowns of the preconditioned system (M unless low_rank)
    bool low_rank = false;  // T from K_MM's eigen-decomposition (the singular case)
    double *t = nullptr;    // full rank: T (M x M upper); low rank: Q_q Λ_q^{-1/2} (M x q)
    double *a = nullptr;    // A (q x q upper, ld q)
    // Low rank: K_MM's q kept eigenvalues, from which A is rebuilt for another λ.
    const double *kept_values = nullptr;
};

// Arena bytes falkon_preconditioner carves (T, A and its scratch).
size_t falkon_preconditioner_workspace_bytes(int64_t m);

// Builds the preconditioner from K_MM (m x m, full symmetric, overwritten:
// its storage becomes `t`), carving A and scratch from `arena`.
FalkonPreconditioner falkon_preconditioner(double *kmm, int64_t m, double lambda, double epsilon, Arena &arena,
                                           int threads);

// A for another λ on the same T (T does not depend on λ): the next value of
// a λ path (FalkonPath) refactors only the q x q A.
void refactor_for_lambda(FalkonPreconditioner &p, double lambda, int threads);

// out (M x k) = T⁻¹ A⁻¹ u for u (q x k); u is overwritten with A⁻¹ u.
void apply_t_a_inverse(const FalkonPreconditioner &p, double *u, int64_t k, double *out, int threads);

// out (q x k) = A⁻ᵀ T⁻ᵀ v for v (M x k); v is overwritten (scratch).
void apply_a_t_inverse_transpose(const FalkonPreconditioner &p, double *v, int64_t k, double *out, int threads);

// u (q x k) = A⁻ᵀ u in place.
void apply_a_inverse_transpose(const FalkonPreconditioner &p, double *u, int64_t k);

}  // namespace kmx
