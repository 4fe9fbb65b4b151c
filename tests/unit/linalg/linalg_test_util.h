// linalg_test_util.h — small dense helpers for the linalg tests: a padded
// row-major matrix, naive reference products, norms, random matrices with a
// chosen rank or spectrum, and an exception-status matcher. Deliberately
// independent of BLIS and libFLAME.
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "core/error.h"

namespace kmx::linalg::testing {

// Value in the padding columns (ld > cols): any write there is a bug.
constexpr double kPad = -777.25;

// Row-major rows x cols with leading dimension cols + pad; padding = kPad.
struct Matrix {
    int64_t rows = 0, cols = 0, ld = 1;
    std::vector<double> data;

    Matrix(int64_t r, int64_t c, int64_t pad = 3)
        : rows(r), cols(c), ld(std::max<int64_t>(1, c + pad)), data(size_t(std::max<int64_t>(1, r) * ld), kPad) {
        for (int64_t i = 0; i < rows; ++i)
            for (int64_t j = 0; j < cols; ++j) (*this)(i, j) = 0;
    }
    double &operator()(int64_t i, int64_t j) { return data[size_t(i * ld + j)]; }
    double operator()(int64_t i, int64_t j) const { return data[size_t(i * ld + j)]; }
    double *p() { return data.data(); }
    const double *p() const { return data.data(); }
};

inline bool padding_intact(const Matrix &m) {
    for (int64_t i = 0; i < m.rows; ++i)
        for (int64_t j = m.cols; j < m.ld; ++j)
            if (m(i, j) != kPad) return false;
    return true;
}

inline Matrix random_matrix(int64_t rows, int64_t cols, std::mt19937_64 &rng, int64_t pad = 3) {
    std::normal_distribution<double> normal;
    Matrix m(rows, cols, pad);
    for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < cols; ++j) m(i, j) = normal(rng);
    return m;
}

inline Matrix identity(int64_t n) {
    Matrix m(n, n);
    for (int64_t i = 0; i < n; ++i) m(i, i) = 1;
    return m;
}

inline Matrix transpose(const Matrix &a) {
    Matrix t(a.cols, a.rows);
    for (int64_t i = 0; i < a.rows; ++i)
        for (int64_t j = 0; j < a.cols; ++j) t(j, i) = a(i, j);
    return t;
}

// Naive triple loop, accumulated in long double.
inline Matrix multiply(const Matrix &a, const Matrix &b) {
    Matrix c(a.rows, b.cols);
    for (int64_t i = 0; i < a.rows; ++i)
        for (int64_t j = 0; j < b.cols; ++j) {
            long double sum = 0;
            for (int64_t l = 0; l < a.cols; ++l) sum += (long double)a(i, l) * b(l, j);
            c(i, j) = double(sum);
        }
    return c;
}

inline Matrix subtract(const Matrix &a, const Matrix &b) {
    Matrix c(a.rows, a.cols);
    for (int64_t i = 0; i < a.rows; ++i)
        for (int64_t j = 0; j < a.cols; ++j) c(i, j) = a(i, j) - b(i, j);
    return c;
}

inline double frobenius(const Matrix &a) {
    long double sum = 0;
    for (int64_t i = 0; i < a.rows; ++i)
        for (int64_t j = 0; j < a.cols; ++j) sum += (long double)a(i, j) * a(i, j);
    return double(std::sqrt(sum));
}

// ‖a − b‖_F / ‖b‖_F (or the absolute norm when b is zero).
inline double relative_difference(const Matrix &a, const Matrix &b) {
    const double scale = frobenius(b);
    return frobenius(subtract(a, b)) / (scale > 0 ? scale : 1);
}

// Random orthogonal n x n matrix: a product of n Householder reflections.
inline Matrix random_orthogonal(int64_t n, std::mt19937_64 &rng) {
    std::normal_distribution<double> normal;
    Matrix q = identity(n);
    std::vector<double> v(static_cast<size_t>(n)), qv(static_cast<size_t>(n));
    for (int64_t reflection = 0; reflection < n; ++reflection) {
        double norm2 = 0;
        for (auto &x : v) {
            x = normal(rng);
            norm2 += x * x;
        }
        for (int64_t i = 0; i < n; ++i) {  // Q ← Q (I − 2 v vᵀ / vᵀv)
            qv[i] = 0;
            for (int64_t j = 0; j < n; ++j) qv[i] += q(i, j) * v[j];
        }
        for (int64_t i = 0; i < n; ++i)
            for (int64_t j = 0; j < n; ++j) q(i, j) -= 2 * qv[i] * v[j] / norm2;
    }
    return q;
}

// Q diag(values) Qᵀ for a random orthogonal Q.
inline Matrix with_spectrum(const std::vector<double> &values, std::mt19937_64 &rng) {
    const int64_t n = int64_t(values.size());
    const Matrix q = random_orthogonal(n, rng);
    Matrix scaled = q;
    for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < n; ++j) scaled(i, j) *= values[size_t(j)];
    return multiply(scaled, transpose(q));
}

// Random m x n matrix of rank r (a product of Gaussian m x r and r x n factors).
inline Matrix random_of_rank(int64_t m, int64_t n, int64_t r, std::mt19937_64 &rng) {
    return multiply(random_matrix(m, r, rng), random_matrix(r, n, rng));
}

// Symmetric positive definite: X Xᵀ / n + I.
inline Matrix random_spd(int64_t n, std::mt19937_64 &rng) {
    const Matrix x = random_matrix(n, n, rng);
    Matrix a = multiply(x, transpose(x));
    for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < n; ++j) a(i, j) = a(i, j) / double(n) + (i == j ? 1 : 0);
    return a;
}

// The `lower` (or upper) triangle of a, the rest zero.
inline Matrix triangle(const Matrix &a, bool lower) {
    Matrix t(a.rows, a.cols);
    for (int64_t i = 0; i < a.rows; ++i)
        for (int64_t j = 0; j < a.cols; ++j)
            if (lower ? j <= i : j >= i) t(i, j) = a(i, j);
    return t;
}

// Runs f, expecting a kmx::Error with `status`; returns its message.
template <class F>
std::string expect_status(kmx_status status, F &&f) {
    try {
        f();
    } catch (const kmx::Error &e) {
        EXPECT_EQ(e.status(), status) << e.what();
        return e.what();
    }
    ADD_FAILURE() << "expected an error with status " << status << ", got none";
    return {};
}

}  // namespace kmx::linalg::testing
