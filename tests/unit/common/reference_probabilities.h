// reference_probabilities.h — LIBSVM's -b 1 from one row's decision values,
// written from the formulas for the tests (not lib/infer's code): each
// output's Platt sigmoid 1 / (1 + exp(A f + B)); two classes take
// (1 − r, r) with r clamped to [1e-7, 1 − 1e-7]; one-vs-one pairs (i < j, in
// LIBSVM's order, positive = i) are clamped so and coupled by solving Wu,
// Lin & Weng's optimality system [Q e; eᵀ 0] [p; b] = [0; 1] directly (the
// library iterates until max_t |(Qp)_t − pᵀQp| < 0.005 / k, so it agrees to
// about 0.01 / k); one-vs-rest outputs are floored at 1e-7 and normalised.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "dense_solve.h"

namespace test_common {

// sigmoids: (A_k, B_k) per output; f: one row's outputs.
inline std::vector<double> reference_probabilities(int64_t k, bool ovr, const std::vector<double> &sigmoids,
                                                   const double *f) {
    auto sigmoid = [&](size_t m) { return 1 / (1 + std::exp(sigmoids[2 * m] * f[m] + sigmoids[2 * m + 1])); };
    auto clamp = [](double v) { return std::min(std::max(v, 1e-7), 1 - 1e-7); };
    const size_t n = size_t(k);
    if (k == 2) return {1 - clamp(sigmoid(0)), clamp(sigmoid(0))};
    std::vector<double> p(n);
    if (ovr) {
        double sum = 0;
        for (size_t c = 0; c < n; ++c) sum += p[c] = std::max(sigmoid(c), 1e-7);
        for (double &v : p) v /= sum;
        return p;
    }
    std::vector<double> r(n * n, 0.0), a((n + 1) * (n + 1), 0.0), rhs(n + 1, 0.0);
    for (size_t i = 0, m = 0; i < n; ++i)
        for (size_t j = i + 1; j < n; ++j, ++m) r[j * n + i] = 1 - (r[i * n + j] = clamp(sigmoid(m)));
    for (size_t t = 0; t < n; ++t) {
        for (size_t j = 0; j < n; ++j)
            if (j != t) {
                a[t * (n + 1) + t] += r[j * n + t] * r[j * n + t];
                a[t * (n + 1) + j] = -r[j * n + t] * r[t * n + j];
            }
        a[t * (n + 1) + n] = a[n * (n + 1) + t] = 1;
    }
    rhs[n] = 1;
    p = dense_solve(a, rhs);
    p.pop_back();
    return p;
}

}  // namespace test_common
