// falkon_reference.cpp — the direct computations of falkon_reference.h.
#include "falkon_reference.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "core/context.h"
#include "io/text_reader.h"
#include "linalg/linalg.h"

namespace falkon_test {

using kmx::linalg::Side;
using kmx::linalg::Trans;
using kmx::linalg::Uplo;

std::unique_ptr<kmx::Dataset> load(const char *file, bool example, int64_t rows) {
    const char *variable = example ? "KMX_EXAMPLE_DATA" : "KMX_TEST_DATA";
    const char *dir = std::getenv(variable);
    if (!dir) ADD_FAILURE() << variable << " is not set: run the tests through `meson test`";
    kmx::Context ctx;
    const std::string path = std::string(dir ? dir : ".") + "/" + file;
    const std::unique_ptr<kmx::Dataset> all = kmx::read_dataset_file(ctx, path.c_str(), KMX_FORMAT_AUTO);
    const std::unique_ptr<kmx::Dataset> dense = all->to_dense();
    return kmx::Dataset::dense_copy(dense->x, std::min(rows, dense->n), dense->d, dense->y);
}

std::vector<double> direct_kernel(const kmx::KernelSpec &kernel, const double *a, int64_t na, const double *b,
                                  int64_t nb, int64_t d) {
    std::vector<double> k(size_t(na * nb));
    for (int64_t i = 0; i < na; ++i)
        for (int64_t j = 0; j < nb; ++j) k[size_t(i * nb + j)] = kmx::kernel_eval(kernel, a + i * d, b + j * d, d);
    return k;
}

// Solves S X = B (S symmetric positive definite, n x n, destroyed; B n x k).
static void cholesky_solve(std::vector<double> &s, int64_t n, std::vector<double> &b, int64_t k) {
    kmx::linalg::cholesky(Uplo::Lower, n, s.data(), n, 0.0);
    kmx::linalg::trsm(Side::Left, Uplo::Lower, Trans::No, n, k, 1.0, s.data(), n, b.data(), k);
    kmx::linalg::trsm(Side::Left, Uplo::Lower, Trans::Yes, n, k, 1.0, s.data(), n, b.data(), k);
}

std::vector<double> exact_krr(const kmx::KernelSpec &kernel, const kmx::Dataset &train, const double *y, int64_t k,
                              double lambda) {
    const int64_t n = train.n;
    std::vector<double> g = direct_kernel(kernel, train.x, n, train.x, n, train.d);
    for (int64_t i = 0; i < n; ++i) g[size_t(i * n + i)] += lambda * double(n);
    std::vector<double> alpha(y, y + n * k);
    cholesky_solve(g, n, alpha, k);
    return alpha;
}

std::vector<double> direct_nystrom(const kmx::KernelSpec &kernel, const kmx::Dataset &train, const double *centers,
                                   int64_t m, const double *y, int64_t k, double lambda) {
    const int64_t n = train.n;
    const std::vector<double> knm = direct_kernel(kernel, train.x, n, centers, m, train.d);
    std::vector<double> h = direct_kernel(kernel, centers, m, centers, m, train.d);
    for (double &v : h) v *= lambda * double(n);
    kmx::linalg::gemm(Trans::Yes, Trans::No, m, m, n, 1.0, knm.data(), m, knm.data(), m, 1.0, h.data(), m, 1);
    std::vector<double> z(size_t(m * k)), alpha(size_t(m * k)), h_pinv(size_t(m * m));
    kmx::linalg::gemm(Trans::Yes, Trans::No, m, k, n, 1.0, knm.data(), m, y, k, 0.0, z.data(), k, 1);
    // H may be numerically singular (near-duplicate centers): its pseudo-inverse.
    kmx::Arena scratch(kmx::linalg::pinv_sym_workspace_bytes(m));
    kmx::linalg::pinv_sym(m, h.data(), m, h_pinv.data(), m, scratch);
    kmx::linalg::gemm(Trans::No, Trans::No, m, k, m, 1.0, h_pinv.data(), m, z.data(), k, 0.0, alpha.data(), k, 1);
    return alpha;
}

std::vector<double> predict(const kmx::KernelSpec &kernel, const double *centers, int64_t m, const double *coef,
                            int64_t k, const kmx::Dataset &query) {
    std::vector<double> f(size_t(query.n * k), 0.0);
    for (int64_t i = 0; i < query.n; ++i)
        for (int64_t j = 0; j < m; ++j) {
            const double kij = kmx::kernel_eval(kernel, query.x + i * query.d, centers + j * query.d, query.d);
            for (int64_t c = 0; c < k; ++c) f[size_t(i * k + c)] += kij * coef[j * k + c];
        }
    return f;
}

std::vector<double> exact_leverage(const kmx::KernelSpec &kernel, const kmx::Dataset &data, double lambda) {
    // ℓ = diag(G (G + λnI)⁻¹) = diag((G + λnI)⁻¹ G) (the two commute): solve for G's columns.
    const int64_t n = data.n;
    std::vector<double> s = direct_kernel(kernel, data.x, n, data.x, n, data.d);
    std::vector<double> g = s;
    for (int64_t i = 0; i < n; ++i) s[size_t(i * n + i)] += lambda * double(n);
    std::vector<double> x = g;
    cholesky_solve(s, n, x, n);
    std::vector<double> scores(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) scores[size_t(i)] = x[size_t(i * n + i)];
    return scores;
}

double relative_difference(const std::vector<double> &a, const std::vector<double> &b) {
    double diff = 0, norm = 0;
    for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
        diff += (a[i] - b[i]) * (a[i] - b[i]);
        norm += b[i] * b[i];
    }
    return a.size() == b.size() ? std::sqrt(diff / norm) : INFINITY;
}

}  // namespace falkon_test
