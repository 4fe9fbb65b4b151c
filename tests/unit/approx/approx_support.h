// approx_support.h — independent dense references for the approximation and
// KRR tests: kernel matrices by kernel_eval loops, a Jacobi eigensolver,
// Gaussian elimination, and blob data. Nothing here goes through linalg.h.
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "../common/kernel_spec.h"
#include "../common/blobs.h"
#include "../common/status_of.h"
#include "core/dataset.h"
#include "core/error.h"
#include "kernel/kernel.h"

namespace approx_test {

using Matrix = std::vector<double>;  // row-major

using test_common::rbf;

// K(a_i, b_j) (na x nb) by kernel_eval.
inline Matrix kernel_matrix(const kmx::KernelSpec &k, const double *a, int64_t na, const double *b, int64_t nb,
                            int64_t d) {
    Matrix out(static_cast<size_t>(na * nb));
    for (int64_t i = 0; i < na; ++i)
        for (int64_t j = 0; j < nb; ++j) out[size_t(i * nb + j)] = kmx::kernel_eval(k, a + i * d, b + j * d, d);
    return out;
}

inline Matrix rows_of(const double *x, const std::vector<int64_t> &rows, int64_t d) {
    Matrix out;
    for (int64_t r : rows) out.insert(out.end(), x + r * d, x + (r + 1) * d);
    return out;
}

inline Matrix multiply(const Matrix &a, const Matrix &b, int64_t m, int64_t k, int64_t n) {
    Matrix c(static_cast<size_t>(m * n), 0.0);
    for (int64_t i = 0; i < m; ++i)
        for (int64_t p = 0; p < k; ++p) {
            const double aip = a[size_t(i * k + p)];
            for (int64_t j = 0; j < n; ++j) c[size_t(i * n + j)] += aip * b[size_t(p * n + j)];
        }
    return c;
}

inline Matrix transpose(const Matrix &a, int64_t m, int64_t n) {
    Matrix t(static_cast<size_t>(m * n));
    for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j) t[size_t(j * m + i)] = a[size_t(i * n + j)];
    return t;
}

// X = A⁻¹ B (A n x n, B n x cols) by Gaussian elimination with partial pivoting.
inline Matrix solve(Matrix a, Matrix b, int64_t n, int64_t cols) {
    for (int64_t k = 0; k < n; ++k) {
        int64_t pivot = k;
        for (int64_t i = k + 1; i < n; ++i)
            if (std::abs(a[size_t(i * n + k)]) > std::abs(a[size_t(pivot * n + k)])) pivot = i;
        for (int64_t j = 0; j < n; ++j) std::swap(a[size_t(k * n + j)], a[size_t(pivot * n + j)]);
        for (int64_t j = 0; j < cols; ++j) std::swap(b[size_t(k * cols + j)], b[size_t(pivot * cols + j)]);
        for (int64_t i = k + 1; i < n; ++i) {
            const double f = a[size_t(i * n + k)] / a[size_t(k * n + k)];
            for (int64_t j = k; j < n; ++j) a[size_t(i * n + j)] -= f * a[size_t(k * n + j)];
            for (int64_t j = 0; j < cols; ++j) b[size_t(i * cols + j)] -= f * b[size_t(k * cols + j)];
        }
    }
    for (int64_t k = n - 1; k >= 0; --k)
        for (int64_t j = 0; j < cols; ++j) {
            double v = b[size_t(k * cols + j)];
            for (int64_t p = k + 1; p < n; ++p) v -= a[size_t(k * n + p)] * b[size_t(p * cols + j)];
            b[size_t(k * cols + j)] = v / a[size_t(k * n + k)];
        }
    return b;
}

// Cyclic Jacobi: A = V diag(values) Vᵀ, values descending, V's columns the eigenvectors.
struct Eigen {
    std::vector<double> values;
    Matrix vectors;  // n x n, column j = eigenvector j
};

inline Eigen jacobi_eigen(Matrix a, int64_t n) {
    Matrix v(static_cast<size_t>(n * n), 0.0);
    for (int64_t i = 0; i < n; ++i) v[size_t(i * n + i)] = 1;
    for (int sweep = 0; sweep < 100; ++sweep) {
        double off = 0;
        for (int64_t p = 0; p < n; ++p)
            for (int64_t q = p + 1; q < n; ++q) off += a[size_t(p * n + q)] * a[size_t(p * n + q)];
        if (off < 1e-30) break;
        for (int64_t p = 0; p < n; ++p)
            for (int64_t q = p + 1; q < n; ++q) {
                const double apq = a[size_t(p * n + q)];
                if (std::abs(apq) < 1e-300) continue;
                const double theta = (a[size_t(q * n + q)] - a[size_t(p * n + p)]) / (2 * apq);
                const double t = (theta >= 0 ? 1 : -1) / (std::abs(theta) + std::sqrt(theta * theta + 1));
                const double c = 1 / std::sqrt(t * t + 1), s = t * c;
                for (int64_t k = 0; k < n; ++k) {  // A ← Jᵀ A J
                    const double akp = a[size_t(k * n + p)], akq = a[size_t(k * n + q)];
                    a[size_t(k * n + p)] = c * akp - s * akq;
                    a[size_t(k * n + q)] = s * akp + c * akq;
                }
                for (int64_t k = 0; k < n; ++k) {
                    const double apk = a[size_t(p * n + k)], aqk = a[size_t(q * n + k)];
                    a[size_t(p * n + k)] = c * apk - s * aqk;
                    a[size_t(q * n + k)] = s * apk + c * aqk;
                }
                for (int64_t k = 0; k < n; ++k) {
                    const double vkp = v[size_t(k * n + p)], vkq = v[size_t(k * n + q)];
                    v[size_t(k * n + p)] = c * vkp - s * vkq;
                    v[size_t(k * n + q)] = s * vkp + c * vkq;
                }
            }
    }
    std::vector<int64_t> order(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) order[size_t(i)] = i;
    std::sort(order.begin(), order.end(),
              [&](int64_t x, int64_t y) { return a[size_t(x * n + x)] > a[size_t(y * n + y)]; });
    Eigen e;
    e.vectors.resize(size_t(n * n));
    for (int64_t j = 0; j < n; ++j) {
        e.values.push_back(a[size_t(order[size_t(j)] * (n + 1))]);
        for (int64_t i = 0; i < n; ++i) e.vectors[size_t(i * n + j)] = v[size_t(i * n + order[size_t(j)])];
    }
    return e;
}

// V_k diag(f(λ)) V_kᵀ over the top k eigenpairs with λ > tol·λ_max.
template <class F>
Matrix spectral(const Eigen &e, int64_t n, int64_t k, F f, double tol = 1e-12) {
    Matrix out(static_cast<size_t>(n * n), 0.0);
    for (int64_t j = 0; j < k; ++j) {
        if (e.values[size_t(j)] <= tol * e.values[0]) break;
        const double w = f(e.values[size_t(j)]);
        for (int64_t a = 0; a < n; ++a)
            for (int64_t b = 0; b < n; ++b)
                out[size_t(a * n + b)] += w * e.vectors[size_t(a * n + j)] * e.vectors[size_t(b * n + j)];
    }
    return out;
}

inline double max_abs(const Matrix &a) {
    double m = 0;
    for (double v : a) m = std::max(m, std::abs(v));
    return m;
}

inline double max_abs_diff(const Matrix &a, const Matrix &b) {
    EXPECT_EQ(a.size(), b.size());
    double m = 0;
    for (size_t i = 0; i < std::min(a.size(), b.size()); ++i) m = std::max(m, std::abs(a[i] - b[i]));
    return m;
}

inline double frobenius_diff(const Matrix &a, const Matrix &b) {
    double s = 0;
    for (size_t i = 0; i < a.size(); ++i) s += (a[i] - b[i]) * (a[i] - b[i]);
    return std::sqrt(s);
}

// Points a test made (n rows of x) and a dataset borrowing them.
struct OwnedPoints {
    Matrix x;
    int64_t n = 0;
    std::unique_ptr<kmx::Dataset> data;
};

// Blob points with their dataset (borrowing x).
struct Blobs : test_common::BlobPoints {
    std::unique_ptr<kmx::Dataset> data;
};

inline Blobs blobs(int64_t n, int64_t d, int clusters, double spread, double noise, uint64_t seed) {
    Blobs b;
    static_cast<test_common::BlobPoints &>(b) = test_common::make_blob_points(n, d, clusters, spread, noise, seed);
    b.data = kmx::Dataset::dense_borrow(b.x.data(), n, d, nullptr);
    return b;
}

// The status of the kmx::Error `body` throws (KMX_OK if none).
using test_common::status_of;

}  // namespace approx_test
