// falkon_preconditioner.cpp — T = chol(K_MM + εM I), A = chol(T Tᵀ/M + λI),
// with the eigen-decomposition route for a K_MM that does not factor.
#include "falkon_preconditioner.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/error.h"
#include "linalg/linalg.h"

namespace kmx {
namespace {

using linalg::Side;
using linalg::Trans;
using linalg::Uplo;

void zero_strict_lower(int64_t n, double *a) {
    for (int64_t i = 1; i < n; ++i) std::fill(a + i * n, a + i * n + i, 0.0);
}

// A = chol(T Tᵀ/M + λ I) for the full-rank T (upper, strict lower zeroed).
void factor_a_full_rank(const FalkonPreconditioner &p, double lambda, int threads) {
    const int64_t m = p.m;
    linalg::syrk(Uplo::Upper, Trans::No, m, m, 1.0 / double(m), p.t, m, 0.0, p.a, m, threads);
    for (int64_t i = 0; i < m; ++i) p.a[i * m + i] += lambda;
    linalg::cholesky(Uplo::Upper, m, p.a, m);
    zero_strict_lower(m, p.a);
}

// A = diag(√(λ_j/M + λ)) over the kept eigenvalues λ_j.
void factor_a_low_rank(const FalkonPreconditioner &p, double lambda) {
    const int64_t q = p.rank;
    std::fill(p.a, p.a + q * q, 0.0);
    for (int64_t j = 0; j < q; ++j) p.a[j * q + j] = std::sqrt(p.kept_values[j] / double(p.m) + lambda);
}

// K_MM = Q Λ Qᵀ; keeps the q eigenvalues above M·eps·λ_max: t becomes
// Q_q Λ_q^{-1/2} (M x q), A = diag(√(λ_j/M + λ)).
void factor_low_rank(FalkonPreconditioner &p, double lambda, double *values, Arena &arena) {
    const int64_t m = p.m;
    linalg::eig_sym(m, p.t, m, values, p.t, m, arena);
    const double cutoff = double(m) * std::numeric_limits<double>::epsilon() * std::max(values[m - 1], 0.0);
    int64_t first = m;  // eigenvalues ascend: the kept ones are the last q
    while (first > 0 && values[first - 1] > cutoff) --first;
    const int64_t q = m - first;
    if (q == 0) fail(KMX_E_NUMERICAL, "FALKON: the kernel matrix of the centers is zero (rank 0)");
    for (int64_t i = 0; i < m; ++i)  // compact columns [first, m) to ld q, scaling by λ^{-1/2}
        for (int64_t j = 0; j < q; ++j) p.t[i * q + j] = p.t[i * m + first + j] / std::sqrt(values[first + j]);
    p.rank = q;
    p.low_rank = true;
    p.kept_values = values + first;
    factor_a_low_rank(p, lambda);
}

}  // namespace

size_t falkon_preconditioner_workspace_bytes(int64_t m) {
    WorkspacePlan plan;
    plan.add<double>(size_t(m * m)).add<double>(size_t(m));
    plan.add_bytes(linalg::eig_sym_workspace_bytes(m));
    return plan.bytes();
}

FalkonPreconditioner falkon_preconditioner(double *kmm, int64_t m, double lambda, double epsilon, Arena &arena,
                                           int threads) {
    require(m >= 1 && lambda > 0 && epsilon >= 0, "FALKON preconditioner: needs M >= 1, lambda > 0, epsilon >= 0");
    FalkonPreconditioner p;
    p.m = m;
    p.rank = m;
    p.t = kmm;
    p.a = arena.alloc<double>(size_t(m * m));
    double *diagonal = arena.alloc<double>(size_t(m));
    for (int64_t i = 0; i < m; ++i) {
        diagonal[i] = kmm[i * m + i];
        kmm[i * m + i] += epsilon * double(m);
    }
    try {
        linalg::cholesky(Uplo::Upper, m, kmm, m, 0.0);
    } catch (const Error &e) {
        if (e.status() != KMX_E_NUMERICAL) throw;
        // The strict lower triangle still mirrors K_MM (cholesky's backup).
        for (int64_t i = 0; i < m; ++i) kmm[i * m + i] = diagonal[i];
        factor_low_rank(p, lambda, diagonal, arena);
        return p;
    }
    zero_strict_lower(m, kmm);
    factor_a_full_rank(p, lambda, threads);
    return p;
}

void refactor_for_lambda(FalkonPreconditioner &p, double lambda, int threads) {
    require(lambda > 0 && std::isfinite(lambda), "FALKON preconditioner: lambda must be finite and > 0");
    if (p.low_rank)
        factor_a_low_rank(p, lambda);
    else
        factor_a_full_rank(p, lambda, threads);
}

void apply_t_a_inverse(const FalkonPreconditioner &p, double *u, int64_t k, double *out, int threads) {
    const int64_t m = p.m, q = p.rank;
    linalg::trsm(Side::Left, Uplo::Upper, Trans::No, q, k, 1.0, p.a, q, u, k);
    if (p.low_rank) {
        linalg::gemm(Trans::No, Trans::No, m, k, q, 1.0, p.t, q, u, k, 0.0, out, k, threads);
        return;
    }
    std::copy(u, u + m * k, out);
    linalg::trsm(Side::Left, Uplo::Upper, Trans::No, m, k, 1.0, p.t, m, out, k);
}

void apply_a_t_inverse_transpose(const FalkonPreconditioner &p, double *v, int64_t k, double *out, int threads) {
    const int64_t m = p.m, q = p.rank;
    if (p.low_rank) {
        linalg::gemm(Trans::Yes, Trans::No, q, k, m, 1.0, p.t, q, v, k, 0.0, out, k, threads);
    } else {
        linalg::trsm(Side::Left, Uplo::Upper, Trans::Yes, m, k, 1.0, p.t, m, v, k);
        std::copy(v, v + m * k, out);
    }
    apply_a_inverse_transpose(p, out, k);
}

void apply_a_inverse_transpose(const FalkonPreconditioner &p, double *u, int64_t k) {
    linalg::trsm(Side::Left, Uplo::Upper, Trans::Yes, p.rank, k, 1.0, p.a, p.rank, u, k);
}

}  // namespace kmx
