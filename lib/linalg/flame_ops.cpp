// flame_ops.cpp — the LAPACK-level half of linalg.h (Cholesky, symmetric
// eigen-decomposition and tridiagonal reduction, pseudo-inverses) through
// libFLAME's LAPACK interface.
// This is the only translation unit that includes FLAME.h.
//
// Row-major storage meets column-major LAPACK without copies: a row-major
// m x n matrix with leading dimension ld is the column-major n x m matrix Aᵀ
// with the same ld. For symmetric A that is A itself, with the triangles
// swapped: the row-major lower triangle is LAPACK's upper one.
//
// libFLAME aborts the process on invalid arguments and LAPACK counts in int,
// so every entry point validates sizes, pointers and values before calling in.

// Every standard header must come before FLAME.h, whose min/max macros break them.
#include <xmmintrin.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <memory>
#include <mutex>

#include "core/error.h"
#include "linalg.h"

#include <FLAME.h>
#undef min
#undef max

// LAPACK routines libFLAME exports but FLAME.h does not declare (in its
// non-const style). dpotrf_, dsyevd_ and dgesvd_ are declared by FLAME.h.
extern "C" double dlamch_(char *cmach);

namespace kmx::linalg {

namespace {

constexpr double kEpsilon = std::numeric_limits<double>::epsilon();

// ------------------------------------------------------------------ checks

// A row-major rows x cols matrix: non-negative sizes, ld >= max(1, cols),
// data present when it has elements, and sizes LAPACK's int can hold.
void require_matrix(const char *op, const char *name, int64_t rows, int64_t cols, const void *data, int64_t ld) {
    if (rows < 0 || cols < 0)
        fail(KMX_E_INVALID_ARGUMENT, "%s: %s has negative size %lld x %lld", op, name, (long long)rows,
             (long long)cols);
    if (ld < std::max<int64_t>(1, cols))
        fail(KMX_E_INVALID_ARGUMENT, "%s: leading dimension of %s is %lld, less than its %lld columns", op, name,
             (long long)ld, (long long)cols);
    if (rows > INT_MAX || cols > INT_MAX || ld > INT_MAX)
        fail(KMX_E_INVALID_ARGUMENT, "%s: %s (%lld x %lld, ld %lld) exceeds LAPACK's 32-bit sizes", op, name,
             (long long)rows, (long long)cols, (long long)ld);
    if (rows > 0 && cols > 0 && !data) fail(KMX_E_INVALID_ARGUMENT, "%s: %s is NULL", op, name);
}

// A matrix dimension: 0 <= n <= INT_MAX.
void require_order(const char *op, int64_t n) {
    if (n < 0 || n > INT_MAX)
        fail(KMX_E_INVALID_ARGUMENT, "%s: size %lld is negative or exceeds LAPACK's 32-bit sizes", op, (long long)n);
}

void require_square(const char *op, const char *name, int64_t n, const void *data, int64_t ld) {
    require_matrix(op, name, n, n, data, ld);
}

// libFLAME's f2c-translated LAPACK indexes arrays with int arithmetic, so
// the last element of an array (rows * ld away) must be addressable in int.
void require_int_addressable(const char *op, const char *name, int64_t rows, int64_t ld) {
    if ((rows + 1) * ld > INT_MAX)
        fail(KMX_E_UNSUPPORTED, "%s: %s spans %lld x %lld elements, beyond LAPACK's 32-bit indexing", op, name,
             (long long)rows, (long long)ld);
}

// The row-major `uplo` triangle (with the diagonal) of an n x n matrix.
void require_finite_triangle(const char *op, Uplo uplo, int64_t n, const double *a, int64_t lda) {
    for (int64_t i = 0; i < n; ++i) {
        const int64_t first = uplo == Uplo::Lower ? 0 : i, last = uplo == Uplo::Lower ? i : n - 1;
        for (int64_t j = first; j <= last; ++j)
            if (!std::isfinite(a[i * lda + j]))
                fail(KMX_E_INVALID_ARGUMENT, "%s: A(%lld,%lld) = %g is not finite", op, (long long)i, (long long)j,
                     a[i * lda + j]);
    }
}

void require_finite_matrix(const char *op, int64_t rows, int64_t cols, const double *a, int64_t lda) {
    for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < cols; ++j)
            if (!std::isfinite(a[i * lda + j]))
                fail(KMX_E_INVALID_ARGUMENT, "%s: A(%lld,%lld) = %g is not finite", op, (long long)i, (long long)j,
                     a[i * lda + j]);
}

// rcond < 0 selects the default; NaN or infinity is an error.
void require_rcond(const char *op, double rcond) {
    if (!std::isfinite(rcond)) fail(KMX_E_INVALID_ARGUMENT, "%s: rcond = %g is not finite", op, rcond);
}

// Values at or below rcond * largest count as zero; rcond < 0 means dimension * eps.
double zero_cutoff(double rcond, int64_t dimension, double largest) {
    const double relative = rcond < 0 ? double(dimension) * kEpsilon : rcond;
    return relative * largest;
}

// Converts a LAPACK workspace query answer (a double) to int.
int queried_count(double answer, const char *op) {
    if (!(answer >= 0) || answer > double(INT_MAX))
        fail(KMX_E_UNSUPPORTED, "%s: LAPACK asks for %g workspace elements, beyond its 32-bit sizes", op, answer);
    return int(answer);
}

// ---------------------------------------------------------------- Cholesky

// The row-major `uplo` triangle is LAPACK's opposite one.
char lapack_uplo(Uplo uplo) { return uplo == Uplo::Lower ? 'U' : 'L'; }

// dpotrf_ on the row-major `uplo` triangle; returns LAPACK's info (> 0: the
// order of the leading minor that is not positive definite). A factor whose
// diagonal is not finite and positive (overflow) also counts as failed there.
int factorize(Uplo uplo, int64_t n, double *a, int64_t lda) {
    char triangle = lapack_uplo(uplo);
    int order = int(n), ld = int(lda), info = 0;
    dpotrf_(&triangle, &order, a, &ld, &info);
    if (info < 0) fail(KMX_E_INTERNAL, "cholesky: dpotrf rejected argument %d", -info);
    if (info > 0) return info;
    for (int64_t i = 0; i < n; ++i)
        if (!(std::isfinite(a[i * lda + i]) && a[i * lda + i] > 0)) return int(i + 1);
    return 0;
}

// Keeps the input of a Cholesky factorization so it can be retried with
// jitter: the strict `uplo` triangle is mirrored into the other (unused)
// triangle, the diagonal goes to a heap array of n doubles (cholesky has no
// Arena; n doubles are negligible next to the n² matrix).
class CholeskyInput {
public:
    CholeskyInput(Uplo uplo, int64_t n, double *a, int64_t lda)
        : uplo_(uplo), n_(n), a_(a), lda_(lda), diagonal_(new double[size_t(n)]) {
        for (int64_t i = 0; i < n_; ++i) {
            diagonal_[i] = a_[i * lda_ + i];
            for (int64_t j = 0; j < i; ++j) spare(i, j) = factor(i, j);
        }
    }

    double mean_diagonal() const {
        double sum = 0;
        for (int64_t i = 0; i < n_; ++i) sum += diagonal_[i];
        return sum / double(n_);
    }

    // Puts the input back into the factor's triangle, plus `jitter` on the diagonal.
    void restore(double jitter) {
        for (int64_t i = 0; i < n_; ++i) {
            a_[i * lda_ + i] = diagonal_[i] + jitter;
            for (int64_t j = 0; j < i; ++j) factor(i, j) = spare(i, j);
        }
    }

private:
    // Element (i, j), i > j, of the lower triangle in the factor's triangle / the spare one.
    double &factor(int64_t i, int64_t j) { return uplo_ == Uplo::Lower ? a_[i * lda_ + j] : a_[j * lda_ + i]; }
    double &spare(int64_t i, int64_t j) { return uplo_ == Uplo::Lower ? a_[j * lda_ + i] : a_[i * lda_ + j]; }

    Uplo uplo_;
    int64_t n_;
    double *a_;
    int64_t lda_;
    std::unique_ptr<double[]> diagonal_;
};

// Relative jitters to try: 1e-10, 1e-9, ... while <= max_relative, then
// max_relative itself if the decades stepped over it. Returns 0 when done.
double next_relative_jitter(double tried, double max_relative) {
    const double slack = 1 + 1e-9;  // 10^k is not exact in binary
    const double decade = tried == 0 ? 1e-10 : std::pow(10.0, std::round(std::log10(tried)) + 1);
    if (decade <= max_relative * slack) return decade;
    return tried * slack < max_relative ? max_relative : 0;
}

// ------------------------------------------------------- eigen-decomposition

// dsyevd computes its minimum workspace 1 + 6n + 2n² in int: keep it representable.
void require_syevd_order(const char *op, int64_t n) {
    if (1 + 6 * double(n) + 2 * double(n) * double(n) > INT_MAX)
        fail(KMX_E_UNSUPPORTED, "%s: n = %lld is beyond LAPACK's 32-bit workspace sizes (at most %lld)", op,
             (long long)n, (long long)kLargestSymmetricOrder);
}

// dsyevd_'s work and iwork lengths for order n with eigenvectors (also
// enough without them), from LAPACK's workspace query.
struct SyevdWorkspace {
    int work = 0;
    int iwork = 0;

    explicit SyevdWorkspace(int64_t n) {
        require_syevd_order("eig_sym", n);
        ensure_flame_initialized();
        char jobz = 'V', uplo = 'U';
        int order = int(n), ld = int(std::max<int64_t>(1, n)), query = -1, info = 0, iwork_answer = 0;
        double dummy = 0, work_answer = 0;
        dsyevd_(&jobz, &uplo, &order, &dummy, &ld, &dummy, &work_answer, &query, &iwork_answer, &query, &info);
        if (info != 0) fail(KMX_E_INTERNAL, "eig_sym: dsyevd workspace query failed (info %d)", info);
        work = queried_count(work_answer, "eig_sym");
        iwork = iwork_answer;
    }

    size_t bytes() const { return WorkspacePlan().add<double>(size_t(work)).add<int>(size_t(iwork)).bytes(); }
};

// Eigenvalues of the symmetric A (lower triangle read) into `values`,
// ascending; with want_vectors, A is overwritten by the eigenvectors as its
// ROWS (LAPACK's columns). Workspace comes from, and goes back to, scratch.
void syevd(int64_t n, double *a, int64_t lda, double *values, bool want_vectors, Arena &scratch) {
    const SyevdWorkspace size(n);
    ArenaScope scope(scratch);
    double *work = scratch.alloc<double>(size_t(size.work));
    int *iwork = scratch.alloc<int>(size_t(size.iwork));
    char jobz = want_vectors ? 'V' : 'N', uplo = 'U';
    int order = int(n), ld = int(lda), work_length = size.work, iwork_length = size.iwork, info = 0;
    dsyevd_(&jobz, &uplo, &order, a, &ld, values, work, &work_length, iwork, &iwork_length, &info);
    if (info < 0) fail(KMX_E_INTERNAL, "eig_sym: dsyevd rejected argument %d", -info);
    if (info > 0)
        fail(KMX_E_NUMERICAL, "eig_sym: the eigenvalue iteration did not converge (dsyevd info %d, n = %lld)", info,
             (long long)n);
}

// to = fromᵀ for n x n matrices; to == from (with equal ld) transposes in place.
void transpose_square(int64_t n, const double *from, int64_t ld_from, double *to, int64_t ld_to) {
    if (to == from) {
        for (int64_t i = 0; i < n; ++i)
            for (int64_t j = 0; j < i; ++j) std::swap(to[i * ld_to + j], to[j * ld_to + i]);
        return;
    }
    for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < n; ++j) to[i * ld_to + j] = from[j * ld_from + i];
}

void check_eig_arguments(const char *op, int64_t n, const double *a, int64_t lda) {
    require_square(op, "A", n, a, lda);
    require_int_addressable(op, "A", n, lda);
    require_syevd_order(op, n);
    require_finite_triangle(op, Uplo::Lower, n, a, lda);
}

// ------------------------------------------------------ tridiagonal form

// LAPACK's optimal lwork for dsytrd_ (uplo 'U': the row-major lower triangle).
int sytrd_work(int64_t n) {
    ensure_flame_initialized();
    char uplo = 'U';
    int order = int(n), ld = int(std::max<int64_t>(1, n)), query = -1, info = 0;
    double dummy = 0, answer = 0;
    dsytrd_(&uplo, &order, &dummy, &ld, &dummy, &dummy, &dummy, &answer, &query, &info);
    if (info != 0) fail(KMX_E_INTERNAL, "tridiagonalize: dsytrd workspace query failed (info %d)", info);
    return std::max(1, queried_count(answer, "tridiagonalize"));
}

// Row-major B (n x k) is the column-major Bᵀ (k x n): Q B = (Bᵀ Qᵀ)ᵀ, so Q
// is applied from the right, transposed (and Qᵀ B untransposed).
struct OrmtrCall {
    char side = 'R', uplo = 'U', trans;
    int rows, cols;  // of the column-major Bᵀ: k x n
    OrmtrCall(Trans t, int64_t n, int64_t k) : trans(t == Trans::No ? 'T' : 'N'), rows(int(k)), cols(int(n)) {}

    int work() {
        ensure_flame_initialized();
        int ld = std::max(1, cols), ldc = std::max(1, rows), query = -1, info = 0;
        double dummy = 0, answer = 0;
        dormtr_(&side, &uplo, &trans, &rows, &cols, &dummy, &ld, &dummy, &dummy, &ldc, &answer, &query, &info);
        if (info != 0) fail(KMX_E_INTERNAL, "apply_tridiagonal_q: dormtr workspace query failed (info %d)", info);
        return std::max({1, rows, queried_count(answer, "apply_tridiagonal_q")});
    }
};

// ------------------------------------------------------------------- SVD

// Thin SVD of a column-major matrix: s descending (k = min(rows, cols)),
// U rows x k with ld rows, Vᵀ k x cols with ld k, both column-major.
struct SvdFactors {
    double *s;
    double *u;
    double *vt;
};

// dgesvd_ computing the thin factors of the column-major rows x cols matrix.
// libFLAME's dgesvd runs FLA_Svd_ext, which ignores `work` and mallocs its
// own workspace (outside the arena), so `work` gets LAPACK's documented
// minimum, max(3 min(m,n) + max(m,n), 5 min(m,n)): enough for its argument
// check, and valid (if slower) for any other LAPACK.
class ThinSvd {
public:
    ThinSvd(int64_t rows, int64_t cols) : rows_(int(rows)), cols_(int(cols)), k_(int(std::min(rows, cols))) {}

    // Arrays carved by factor(), in its order.
    size_t bytes() const {
        return WorkspacePlan()
            .add<double>(size_t(k_))
            .add<double>(size_t(rows_) * size_t(k_))
            .add<double>(size_t(k_) * size_t(cols_))
            .add<double>(size_t(work_length()))
            .bytes();
    }

    // Factors a (destroyed) with arrays carved from scratch.
    SvdFactors factor(double *a, int64_t lda, Arena &scratch) const {
        ensure_flame_initialized();
        const int length = work_length();
        SvdFactors f;
        f.s = scratch.alloc<double>(size_t(k_));
        f.u = scratch.alloc<double>(size_t(rows_) * size_t(k_));
        f.vt = scratch.alloc<double>(size_t(k_) * size_t(cols_));
        double *work = scratch.alloc<double>(size_t(length));
        char job = 'S';
        int m = rows_, n = cols_, ld_a = int(lda), ld_u = rows_, ld_vt = k_, work_size = length, info = 0;
        dgesvd_(&job, &job, &m, &n, a, &ld_a, f.s, f.u, &ld_u, f.vt, &ld_vt, work, &work_size, &info);
        if (info < 0) fail(KMX_E_INTERNAL, "pinv: dgesvd rejected argument %d", -info);
        // libFLAME's dgesvd reports info 0 even when it fails: check the result too.
        for (int l = 0; l < k_; ++l)
            if (info > 0 || !(std::isfinite(f.s[l]) && f.s[l] >= 0))
                fail(KMX_E_NUMERICAL, "pinv: the SVD did not converge (info %d, singular value %d is %g)", info, l,
                     f.s[l]);
        return f;
    }

    int k() const { return k_; }

private:
    int work_length() const {
        const int64_t k = k_, larger = std::max(rows_, cols_);
        const int64_t length = std::max<int64_t>({1, 3 * k + larger, 5 * k});
        if (length > INT_MAX)
            fail(KMX_E_UNSUPPORTED, "pinv: %d x %d is beyond LAPACK's 32-bit workspace sizes", cols_, rows_);
        return int(length);
    }

    int rows_, cols_, k_;
};

// Row-major A (m x n) is the column-major Aᵀ (n x m) = U Σ Vᵀ, so the SVD
// of that gives A⁺ = U Σ⁺ Vᵀ (n x m) with no transposition.
ThinSvd svd_of_row_major(int64_t m, int64_t n) { return ThinSvd(n, m); }

}  // namespace

// ------------------------------------------------------------------- API

void ensure_flame_initialized() {
    static std::once_flag once;
    std::call_once(once, [] {
        const unsigned int caller_fp_mode = _mm_getcsr();  // FLA_Init sets flush-to-zero in MXCSR
        FLA_Init();
        char epsilon = 'E';
        dlamch_(&epsilon);  // fills dlamch's first-call cache before threads can race on it
        _mm_setcsr(caller_fp_mode);
    });
}

double cholesky(Uplo uplo, int64_t n, double *a, int64_t lda, double max_relative_jitter) {
    require_square("cholesky", "A", n, a, lda);
    if (!(std::isfinite(max_relative_jitter) && max_relative_jitter >= 0))
        fail(KMX_E_INVALID_ARGUMENT, "cholesky: max_relative_jitter = %g must be finite and >= 0", max_relative_jitter);
    require_finite_triangle("cholesky", uplo, n, a, lda);
    if (n == 0) return 0;
    ensure_flame_initialized();

    CholeskyInput input(uplo, n, a, lda);
    int failed_pivot = factorize(uplo, n, a, lda);
    if (failed_pivot == 0) return 0;

    const double mean_diagonal = input.mean_diagonal();
    if (!(mean_diagonal > 0))
        fail(KMX_E_NUMERICAL,
             "cholesky: matrix is not positive definite (pivot %d of %lld failed) and its mean diagonal %g is not "
             "positive, so no jitter can help",
             failed_pivot, (long long)n, mean_diagonal);
    double jitter = 0;
    for (double relative = next_relative_jitter(0, max_relative_jitter); relative > 0;
         relative = next_relative_jitter(relative, max_relative_jitter)) {
        jitter = relative * mean_diagonal;
        input.restore(jitter);
        failed_pivot = factorize(uplo, n, a, lda);
        if (failed_pivot == 0) return jitter;
    }
    fail(KMX_E_NUMERICAL,
         "cholesky: matrix is not positive definite: pivot %d of %lld failed, even with jitter %g (%g x the mean "
         "diagonal %g)",
         failed_pivot, (long long)n, jitter, max_relative_jitter, mean_diagonal);
}

void eig_sym(int64_t n, double *a, int64_t lda, double *values, double *vectors, int64_t ldv, Arena &scratch) {
    check_eig_arguments("eig_sym", n, a, lda);
    if (n > 0 && !values) fail(KMX_E_INVALID_ARGUMENT, "eig_sym: values is NULL");
    if (vectors) require_square("eig_sym", "vectors", n, vectors, ldv);
    if (vectors == a && ldv != lda)
        fail(KMX_E_INVALID_ARGUMENT, "eig_sym: vectors is A but ldv %lld differs from lda %lld", (long long)ldv,
             (long long)lda);
    if (n == 0) return;
    syevd(n, a, lda, values, vectors != nullptr, scratch);
    if (vectors) transpose_square(n, a, lda, vectors, ldv);  // eigenvectors: rows of A -> columns
}

int64_t pinv_sym(int64_t n, double *a, int64_t lda, double *out, int64_t ldo, Arena &scratch, double rcond) {
    check_eig_arguments("pinv_sym", n, a, lda);
    require_square("pinv_sym", "out", n, out, ldo);
    require_rcond("pinv_sym", rcond);
    if (n > 0 && out == a) fail(KMX_E_INVALID_ARGUMENT, "pinv_sym: out must not be A");
    if (n == 0) return 0;

    ArenaScope scope(scratch);
    double *values = scratch.alloc<double>(size_t(n));
    syevd(n, a, lda, values, true, scratch);  // row k of A: eigenvector k
    const double cutoff = zero_cutoff(rcond, n, std::max(std::fabs(values[0]), std::fabs(values[n - 1])));
    const int64_t rank = std::count_if(values, values + n, [&](double v) { return std::fabs(v) > cutoff; });

    // A⁺ = Σ v_k v_kᵀ / λ_k over the kept k = Rᵀ (D⁺ R): R, the kept rows of
    // A, is moved to its top (row r <= k, so no needed row is overwritten),
    // D⁺ R goes to `scaled`.
    double *scaled = scratch.alloc<double>(size_t(rank) * size_t(n));
    for (int64_t k = 0, r = 0; k < n; ++k) {
        if (!(std::fabs(values[k]) > cutoff)) continue;
        const double *eigenvector = a + k * lda;
        for (int64_t j = 0; j < n; ++j) scaled[r * n + j] = eigenvector[j] / values[k];
        if (r != k) std::copy(eigenvector, eigenvector + n, a + r * lda);
        ++r;
    }
    gemm(Trans::Yes, Trans::No, n, n, rank, 1.0, a, lda, scaled, n, 0.0, out, ldo, 1);
    symmetrize(Uplo::Lower, n, out, ldo);  // exact symmetry, whatever gemm's summation order
    return rank;
}

int64_t pinv(int64_t m, int64_t n, double *a, int64_t lda, double *out, int64_t ldo, Arena &scratch, double rcond) {
    require_matrix("pinv", "A", m, n, a, lda);
    require_matrix("pinv", "out", n, m, out, ldo);
    require_int_addressable("pinv", "A", m, lda);
    require_rcond("pinv", rcond);
    if (m == 0 || n == 0) return 0;
    if (out == a) fail(KMX_E_INVALID_ARGUMENT, "pinv: out must not be A");
    require_finite_matrix("pinv", m, n, a, lda);

    ArenaScope scope(scratch);
    const ThinSvd svd = svd_of_row_major(m, n);
    const SvdFactors f = svd.factor(a, lda, scratch);
    const double cutoff = zero_cutoff(rcond, std::max(m, n), f.s[0]);
    const int64_t rank = std::count_if(f.s, f.s + svd.k(), [&](double sigma) { return sigma > cutoff; });

    // A⁺ = U_r Σ_r⁻¹ V_rᵀ: scale the first `rank` columns of U (rows of the
    // row-major view, ld n) and multiply by the first `rank` rows of Vᵀ
    // (columns of its row-major view, m x k with ld k).
    for (int64_t l = 0; l < rank; ++l)
        for (int64_t i = 0; i < n; ++i) f.u[l * n + i] /= f.s[l];
    gemm(Trans::Yes, Trans::Yes, n, m, rank, 1.0, f.u, n, f.vt, svd.k(), 0.0, out, ldo, 1);
    return rank;
}

void tridiagonalize(int64_t n, double *a, int64_t lda, double *diagonal, double *off_diagonal, double *tau,
                    Arena &scratch) {
    check_eig_arguments("tridiagonalize", n, a, lda);
    if (n > 0 && (!diagonal || (n > 1 && (!off_diagonal || !tau))))
        fail(KMX_E_INVALID_ARGUMENT, "tridiagonalize: diagonal, off_diagonal or tau is NULL");
    if (n == 0) return;
    ArenaScope scope(scratch);
    int length = sytrd_work(n), order = int(n), ld = int(lda), info = 0;
    double *work = scratch.alloc<double>(size_t(length));
    double unused = 0;  // e and tau hold n − 1 values; LAPACK reads none for n = 1
    char uplo = 'U';
    dsytrd_(&uplo, &order, a, &ld, diagonal, n > 1 ? off_diagonal : &unused, n > 1 ? tau : &unused, work, &length,
            &info);
    if (info != 0) fail(KMX_E_INTERNAL, "tridiagonalize: dsytrd rejected argument %d", -info);
}

void apply_tridiagonal_q(Trans trans, int64_t n, int64_t k, const double *a, int64_t lda, const double *tau, double *b,
                         int64_t ldb, Arena &scratch) {
    require_square("apply_tridiagonal_q", "A", n, a, lda);
    require_matrix("apply_tridiagonal_q", "B", n, k, b, ldb);
    require_int_addressable("apply_tridiagonal_q", "B", n, ldb);
    if (n > 1 && !tau) fail(KMX_E_INVALID_ARGUMENT, "apply_tridiagonal_q: tau is NULL");
    if (n <= 1 || k == 0) return;  // Q = I
    ArenaScope scope(scratch);
    OrmtrCall call(trans, n, k);
    int length = call.work(), ld = int(lda), ldc = int(ldb), info = 0;
    double *work = scratch.alloc<double>(size_t(length));
    dormtr_(&call.side, &call.uplo, &call.trans, &call.rows, &call.cols, const_cast<double *>(a), &ld,
            const_cast<double *>(tau), b, &ldc, work, &length, &info);
    if (info != 0) fail(KMX_E_INTERNAL, "apply_tridiagonal_q: dormtr rejected argument %d", -info);
}

size_t eig_sym_workspace_bytes(int64_t n) {
    require_order("eig_sym_workspace_bytes", n);
    if (n == 0) return 0;
    return SyevdWorkspace(n).bytes();
}

size_t pinv_sym_workspace_bytes(int64_t n) {
    require_order("pinv_sym_workspace_bytes", n);
    if (n == 0) return 0;
    // values, then the eigen-solver's workspace (released) or `scaled` (at most n x n).
    const size_t after_values =
        std::max(eig_sym_workspace_bytes(n), WorkspacePlan().add<double>(size_t(n) * size_t(n)).bytes());
    return WorkspacePlan().add<double>(size_t(n)).add_bytes(after_values).bytes();
}

size_t pinv_workspace_bytes(int64_t m, int64_t n) {
    require_order("pinv_workspace_bytes", m);
    require_order("pinv_workspace_bytes", n);
    if (m == 0 || n == 0) return 0;
    return svd_of_row_major(m, n).bytes();
}

size_t tridiagonalize_workspace_bytes(int64_t n) {
    require_order("tridiagonalize_workspace_bytes", n);
    if (n == 0) return 0;
    require_syevd_order("tridiagonalize_workspace_bytes", n);
    return WorkspacePlan().add<double>(size_t(sytrd_work(n))).bytes();
}

size_t apply_tridiagonal_q_workspace_bytes(int64_t n, int64_t k) {
    require_order("apply_tridiagonal_q_workspace_bytes", n);
    require_order("apply_tridiagonal_q_workspace_bytes", k);
    if (n <= 1 || k == 0) return 0;
    return WorkspacePlan().add<double>(size_t(OrmtrCall(Trans::No, n, k).work())).bytes();
}

}  // namespace kmx::linalg
