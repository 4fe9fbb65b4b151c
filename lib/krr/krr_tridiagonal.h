// krr_tridiagonal.h — exact kernel ridge regression along a path of λ
// values on one training set, from one reduction of the kernel matrix to
// tridiagonal form:
//
//   G = Q T Qᵀ   (once: LAPACK's dsytrd, (4/3) n³ flops, in G's storage)
//   α(λ) = Q (T + nλI)⁻¹ Qᵀ Y   (per λ: QᵀY is kept, T + nλI is tridiagonal
//                                and factored in O(n), Q applied in 2n²k flops)
//
// instead of the kernel matrix (n² d) and a Cholesky of G + nλI (n³/3) at
// every λ. An eigen-decomposition G = V diag(e) Vᵀ would serve too, but
// dsyevd's eigenvectors cost 15-18 Choleskys here (n = 1000-3000, libFLAME)
// against 3-6 for dsytrd, and need 2n² more scratch. It holds Q's reflectors
// (n x n), T, and QᵀY; its bytes are checked against the budget first
// (krr_tridiagonal_fits), and it stays charged to the context that built it
// (Context::hold) while it lives.
#pragma once
#include <cstdint>
#include <memory>

#include "core/arena.h"
#include "kernel/kernel.h"
#include "krr_targets.h"
#include "model/center_expansion.h"

namespace kmx {

class Context;
class Dataset;

struct KrrTridiagonal {
    int64_t n = 0, outputs = 0;
    KernelSpec kernel;                   // gamma resolved
    Arena storage;                       // everything below
    double *reflectors = nullptr;        // n x n: Q's Householder vectors (LAPACK's layout)
    double *diagonal = nullptr;          // n: T's diagonal
    double *off_diagonal = nullptr;      // n: T(i, i+1) for i < n − 1
    double *tau = nullptr;               // n: the reflectors' scales
    double *qt_targets = nullptr;        // n x outputs: Qᵀ Y
    std::shared_ptr<const void> charge;  // storage, charged to the context across calls
};

// Whether krr_tridiagonal's bytes (its storage, then its scratch or a λ's
// fit) fit what ctx's budget leaves, and n is within LAPACK's 32-bit
// workspace sizes.
bool krr_tridiagonal_fits(const Context &ctx, const KernelSpec &kernel, const Dataset &data, int64_t outputs);

// G's tridiagonal form and QᵀY for data (dense or sparse, finite; kernel's
// gamma resolved) and targets (n x outputs).
std::unique_ptr<KrrTridiagonal> krr_tridiagonal(Context &ctx, const KernelSpec &kernel, const Dataset &data,
                                                const KrrTargets &targets);

// Exact KRR at lambda from the tridiagonal form, over data's rows (those it
// was built from) as centers; false (out untouched) when T + nλI is not
// numerically positive definite (nλ below G's rounding), where a Cholesky
// with jitter is the caller's way.
bool krr_tridiagonal_fit(Context &ctx, const KrrTridiagonal &form, const Dataset &data, double lambda,
                         CenterExpansion &out);

}  // namespace kmx
