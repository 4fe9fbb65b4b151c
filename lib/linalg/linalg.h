// linalg.h — the dense linear algebra kmx needs, on row-major matrices.
//
// This header is the only way the rest of kmx reaches BLIS and libFLAME:
// blis_ops.cpp includes blis.h, flame_ops.cpp includes FLAME.h (the two
// headers cannot share a translation unit). Every function validates its
// arguments before calling into them, because libFLAME aborts the process on
// bad ones. Matrices are row-major with a leading dimension (row stride) ld.
#pragma once
#include <cstdint>

#include "core/arena.h"

namespace kmx::linalg {

enum class Trans { No, Yes };
enum class Uplo { Lower, Upper };
enum class Side { Left, Right };

// C (m x n) = alpha * op(A) * op(B) + beta * C, op(A) m x k, op(B) k x n.
void gemm(Trans trans_a, Trans trans_b, int64_t m, int64_t n, int64_t k, double alpha, const double *a, int64_t lda,
          const double *b, int64_t ldb, double beta, double *c, int64_t ldc, int threads);

// The same in float32 (BLIS's sgemm: twice dgemm's rate, 24-bit significands).
void sgemm(Trans trans_a, Trans trans_b, int64_t m, int64_t n, int64_t k, float alpha, const float *a, int64_t lda,
           const float *b, int64_t ldb, float beta, float *c, int64_t ldc, int threads);

// C (n x n) = alpha * A Aᵀ + beta * C (Trans::No, A n x k) or alpha * AᵀA + beta * C
// (Trans::Yes, A k x n). Only the `uplo` triangle of C is written.
void syrk(Uplo uplo, Trans trans, int64_t n, int64_t k, double alpha, const double *a, int64_t lda, double beta,
          double *c, int64_t ldc, int threads);

// y = alpha * op(A) x + beta * y, A m x n.
void gemv(Trans trans, int64_t m, int64_t n, double alpha, const double *a, int64_t lda, const double *x, double beta,
          double *y, int threads);

// Copies the `from` triangle of a square matrix onto the other one.
void symmetrize(Uplo from, int64_t n, double *a, int64_t lda);

// out (cols x rows) = aᵀ for a (rows x cols), both dense row-major.
void transpose(const double *a, int64_t rows, int64_t cols, double *out);

// Cholesky factorization of the symmetric positive definite A (n x n) in
// place: A = L Lᵀ (Uplo::Lower, L in the lower triangle) or A = Uᵀ U (Upper).
// Only the `uplo` triangle is read. The other strict triangle is overwritten
// with the mirror image of the input (the backup for retries), so a full
// symmetric A keeps its off-diagonal entries there.
// If A is not numerically positive definite, retries with jitter added to the
// diagonal: 1e-10, 1e-9, ... up to max_relative_jitter (then that value itself
// if the decades skip it), times the mean diagonal.
// Returns the jitter added (0 if none). Fails with KMX_E_NUMERICAL, naming the
// failing pivot, when even the largest jitter does not help; then A holds the
// failed attempt. Non-finite entries: KMX_E_INVALID_ARGUMENT.
double cholesky(Uplo uplo, int64_t n, double *a, int64_t lda, double max_relative_jitter = 1e-4);

// Solves op(T) X = alpha B (Side::Left) or X op(T) = alpha B (Side::Right) for
// triangular T; B (m x n) is overwritten with X.
void trsm(Side side, Uplo uplo, Trans trans, int64_t m, int64_t n, double alpha, const double *t, int64_t ldt,
          double *b, int64_t ldb);

// Solves op(T) x = b in place for triangular T (n x n).
void trsv(Uplo uplo, Trans trans, int64_t n, const double *t, int64_t ldt, double *x);

// Eigen-decomposition of symmetric A (n x n; the lower triangle is read, A is
// destroyed): eigenvalues ascending in `values` (n); if `vectors` is not
// null, the eigenvectors as its columns (n x n, ld ldv). `vectors` may be `a`
// itself (with ldv == lda), otherwise it must not overlap A. n is limited to
// 32765 by LAPACK's 32-bit workspace sizes (KMX_E_UNSUPPORTED beyond).
void eig_sym(int64_t n, double *a, int64_t lda, double *values, double *vectors, int64_t ldv, Arena &scratch);
// That limit: the largest n for which dsyevd's 1 + 6n + 2n² fits an int.
constexpr int64_t kLargestSymmetricOrder = 32765;

// Reduction of symmetric A (n x n; the lower triangle is read) to
// tridiagonal form A = Q T Qᵀ in place (LAPACK's dsytrd): T's diagonal
// (n values) and off-diagonal (n − 1; T(i, i+1) = off_diagonal[i]); Q, an
// orthogonal product of n − 1 Householder reflectors, is left in A's lower
// triangle and tau (n − 1) for apply_tridiagonal_q. About (4/3) n³ flops,
// a third of them matrix-vector products (dsyevd's eigenvectors cost several
// times more). n is limited as eig_sym's.
void tridiagonalize(int64_t n, double *a, int64_t lda, double *diagonal, double *off_diagonal, double *tau,
                    Arena &scratch);

// B (n x k, ld ldb) = Q B (Trans::No) or Qᵀ B (Trans::Yes) for the Q that
// tridiagonalize left in a and tau (LAPACK's dormtr): 2n²k flops.
void apply_tridiagonal_q(Trans trans, int64_t n, int64_t k, const double *a, int64_t lda, const double *tau, double *b,
                         int64_t ldb, Arena &scratch);

// Moore–Penrose pseudo-inverse of symmetric A (n x n, lower triangle read)
// into out (n x n, exactly symmetric, must not overlap A): eigenvalues with
// |λ| <= rcond * max|λ| are treated as zero. rcond < 0 means n * machine
// epsilon. A is destroyed. Returns the numerical rank.
int64_t pinv_sym(int64_t n, double *a, int64_t lda, double *out, int64_t ldo, Arena &scratch, double rcond = -1);

// Pseudo-inverse of a general A (m x n) into out (n x m, must not overlap A),
// through the SVD; singular values <= rcond * σ_max are treated as zero
// (rcond < 0: max(m,n) * eps). A is destroyed. Returns the numerical rank.
// libFLAME's SVD also mallocs internal workspace of its own, outside `scratch`.
int64_t pinv(int64_t m, int64_t n, double *a, int64_t lda, double *out, int64_t ldo, Arena &scratch, double rcond = -1);

// Scratch bytes eig_sym / pinv_sym / pinv / tridiagonalize /
// apply_tridiagonal_q carve from `scratch` (released before they return),
// for the caller's WorkspacePlan.
size_t eig_sym_workspace_bytes(int64_t n);
size_t pinv_sym_workspace_bytes(int64_t n);
size_t pinv_workspace_bytes(int64_t m, int64_t n);
size_t tridiagonalize_workspace_bytes(int64_t n);
size_t apply_tridiagonal_q_workspace_bytes(int64_t n, int64_t k);

// Makes sure libFLAME is initialised (exactly once, thread-safe, keeping the
// calling thread's floating-point control word). Called by every FLAME user.
void ensure_flame_initialized();

}  // namespace kmx::linalg
