// blis_ops.cpp — the BLAS-level half of linalg.h through BLIS's typed API,
// which takes row and column strides explicitly: row-major data needs no
// copies or transposition tricks. Threads are set per call in a rntm_t, so
// no global BLIS state is touched.
#include <blis.h>

#include <algorithm>
#include <cmath>

#include "core/error.h"
#include "core/parallel.h"
#include "linalg.h"

namespace kmx::linalg {

namespace {

trans_t blis_trans(Trans t) { return t == Trans::Yes ? BLIS_TRANSPOSE : BLIS_NO_TRANSPOSE; }
uplo_t blis_uplo(Uplo u) { return u == Uplo::Lower ? BLIS_LOWER : BLIS_UPPER; }

// BLIS's threads wait for each other at several barriers per call, spinning
// (bli_thrcomm_barrier_atomic: no OpenMP wait policy applies). On a busy
// machine a spinning thread burns its whole time slice while the one it waits
// for is descheduled: measured, two 2-thread budget searches side by side
// took 11x their time alone. So a BLIS thread joins only for ~50 MFLOP (a
// few milliseconds) of its own; kmx's own loops, whose workers sleep, split
// finer (kFlopsPerThread).
constexpr double kBlisFlopsPerThread = 5e7;

// BLIS's run-time settings for a call of `flops` on at most `threads` threads.
rntm_t runtime_for(int threads, double flops) {
    const int used = threads_for_work(threads, flops, kBlisFlopsPerThread);
    rntm_t rntm = BLIS_RNTM_INITIALIZER;
    bli_rntm_set_num_threads(used, &rntm);
    return rntm;
}

void require_sizes(int64_t a, int64_t b, int64_t c, const char *op) {
    if (a < 0 || b < 0 || c < 0)
        fail(KMX_E_INVALID_ARGUMENT, "%s: negative size (%lld, %lld, %lld)", op, (long long)a, (long long)b,
             (long long)c);
}

// A row-major matrix with `cols` columns needs ld >= cols (and ld >= 1).
void require_ld(int64_t ld, int64_t cols, const char *name, const char *op) {
    if (ld < (cols > 1 ? cols : 1))
        fail(KMX_E_INVALID_ARGUMENT, "%s: leading dimension of %s is %lld, less than its %lld columns", op, name,
             (long long)ld, (long long)cols);
}

void require_data(const void *p, int64_t elements, const char *name, const char *op) {
    if (elements > 0 && !p) fail(KMX_E_INVALID_ARGUMENT, "%s: %s is NULL", op, name);
}

// gemm's and sgemm's checks: sizes, leading dimensions, non-null operands.
void require_gemm_args(Trans trans_a, Trans trans_b, int64_t m, int64_t n, int64_t k, const void *a, int64_t lda,
                       const void *b, int64_t ldb, const void *c, int64_t ldc, const char *op) {
    require_sizes(m, n, k, op);
    require_ld(lda, trans_a == Trans::No ? k : m, "A", op);
    require_ld(ldb, trans_b == Trans::No ? n : k, "B", op);
    require_ld(ldc, n, "C", op);
    require_data(a, m * k, "A", op);
    require_data(b, k * n, "B", op);
    require_data(c, m * n, "C", op);
}

}  // namespace

void gemm(Trans trans_a, Trans trans_b, int64_t m, int64_t n, int64_t k, double alpha, const double *a, int64_t lda,
          const double *b, int64_t ldb, double beta, double *c, int64_t ldc, int threads) {
    require_gemm_args(trans_a, trans_b, m, n, k, a, lda, b, ldb, c, ldc, "gemm");
    if (m == 0 || n == 0) return;
    rntm_t rntm = runtime_for(threads, 2.0 * double(m) * double(n) * double(k));
    bli_dgemm_ex(blis_trans(trans_a), blis_trans(trans_b), m, n, k, &alpha, const_cast<double *>(a), lda, 1,
                 const_cast<double *>(b), ldb, 1, &beta, c, ldc, 1, nullptr, &rntm);
}

void sgemm(Trans trans_a, Trans trans_b, int64_t m, int64_t n, int64_t k, float alpha, const float *a, int64_t lda,
           const float *b, int64_t ldb, float beta, float *c, int64_t ldc, int threads) {
    require_gemm_args(trans_a, trans_b, m, n, k, a, lda, b, ldb, c, ldc, "sgemm");
    if (m == 0 || n == 0) return;
    // Threads by time, as for gemm: a float32 flop takes half a float64 one's.
    rntm_t rntm = runtime_for(threads, double(m) * double(n) * double(k));
    bli_sgemm_ex(blis_trans(trans_a), blis_trans(trans_b), m, n, k, &alpha, const_cast<float *>(a), lda, 1,
                 const_cast<float *>(b), ldb, 1, &beta, c, ldc, 1, nullptr, &rntm);
}

void syrk(Uplo uplo, Trans trans, int64_t n, int64_t k, double alpha, const double *a, int64_t lda, double beta,
          double *c, int64_t ldc, int threads) {
    require_sizes(n, k, 0, "syrk");
    require_ld(lda, trans == Trans::No ? k : n, "A", "syrk");
    require_ld(ldc, n, "C", "syrk");
    require_data(a, n * k, "A", "syrk");
    require_data(c, n * n, "C", "syrk");
    if (n == 0) return;
    rntm_t rntm = runtime_for(threads, double(n) * double(n) * double(k));
    bli_dsyrk_ex(blis_uplo(uplo), blis_trans(trans), n, k, &alpha, const_cast<double *>(a), lda, 1, &beta, c, ldc, 1,
                 nullptr, &rntm);
}

void gemv(Trans trans, int64_t m, int64_t n, double alpha, const double *a, int64_t lda, const double *x, double beta,
          double *y, int threads) {
    require_sizes(m, n, 0, "gemv");
    require_ld(lda, n, "A", "gemv");
    require_data(a, m * n, "A", "gemv");
    require_data(x, trans == Trans::No ? n : m, "x", "gemv");
    require_data(y, trans == Trans::No ? m : n, "y", "gemv");
    if (m == 0 || n == 0) {
        const int64_t ny = trans == Trans::No ? m : n;
        for (int64_t i = 0; i < ny; ++i) y[i] = beta == 0 ? 0 : beta * y[i];
        return;
    }
    rntm_t rntm = runtime_for(threads, 2.0 * double(m) * double(n));
    bli_dgemv_ex(blis_trans(trans), BLIS_NO_CONJUGATE, m, n, &alpha, const_cast<double *>(a), lda, 1,
                 const_cast<double *>(x), 1, &beta, y, 1, nullptr, &rntm);
}

void transpose(const double *a, int64_t rows, int64_t cols, double *out) {
    for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < cols; ++j) out[j * rows + i] = a[i * cols + j];
}

void symmetrize(Uplo from, int64_t n, double *a, int64_t lda) {
    require_sizes(n, 0, 0, "symmetrize");
    require_ld(lda, n, "A", "symmetrize");
    require_data(a, n * n, "A", "symmetrize");
    for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < i; ++j) {
            if (from == Uplo::Lower)
                a[j * lda + i] = a[i * lda + j];
            else
                a[i * lda + j] = a[j * lda + i];
        }
}

void trsm(Side side, Uplo uplo, Trans trans, int64_t m, int64_t n, double alpha, const double *t, int64_t ldt,
          double *b, int64_t ldb) {
    require_sizes(m, n, 0, "trsm");
    const int64_t order = side == Side::Left ? m : n;
    require_ld(ldt, order, "T", "trsm");
    require_ld(ldb, n, "B", "trsm");
    require_data(t, order * order, "T", "trsm");
    require_data(b, m * n, "B", "trsm");
    if (m == 0 || n == 0) return;
    rntm_t rntm = runtime_for(1, 0);
    bli_dtrsm_ex(side == Side::Left ? BLIS_LEFT : BLIS_RIGHT, blis_uplo(uplo), blis_trans(trans), BLIS_NONUNIT_DIAG, m,
                 n, &alpha, const_cast<double *>(t), ldt, 1, b, ldb, 1, nullptr, &rntm);
}

void trsv(Uplo uplo, Trans trans, int64_t n, const double *t, int64_t ldt, double *x) {
    require_sizes(n, 0, 0, "trsv");
    require_ld(ldt, n, "T", "trsv");
    require_data(t, n * n, "T", "trsv");
    require_data(x, n, "x", "trsv");
    if (n == 0) return;
    double one = 1.0;
    rntm_t rntm = runtime_for(1, 0);
    bli_dtrsv_ex(blis_uplo(uplo), blis_trans(trans), BLIS_NONUNIT_DIAG, n, &one, const_cast<double *>(t), ldt, 1, x, 1,
                 nullptr, &rntm);
}

}  // namespace kmx::linalg
