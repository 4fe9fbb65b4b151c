// dense_solve.h — x = A⁻¹ b by Gaussian elimination with partial pivoting,
// the tests' independent linear solve (no BLAS, no libFLAME).
#pragma once
#include <cmath>
#include <utility>
#include <vector>

namespace test_common {

// A is n x n row-major (taken by value), b has n values.
inline std::vector<double> dense_solve(std::vector<double> a, std::vector<double> b) {
    const size_t n = b.size();
    for (size_t c = 0; c < n; ++c) {
        size_t pivot = c;
        for (size_t r = c + 1; r < n; ++r)
            if (std::fabs(a[r * n + c]) > std::fabs(a[pivot * n + c])) pivot = r;
        for (size_t k = 0; k < n; ++k) std::swap(a[c * n + k], a[pivot * n + k]);
        std::swap(b[c], b[pivot]);
        for (size_t r = c + 1; r < n; ++r) {
            const double factor = a[r * n + c] / a[c * n + c];
            for (size_t k = c; k < n; ++k) a[r * n + k] -= factor * a[c * n + k];
            b[r] -= factor * b[c];
        }
    }
    std::vector<double> x(n);
    for (size_t c = n; c-- > 0;) {
        double s = b[c];
        for (size_t k = c + 1; k < n; ++k) s -= a[c * n + k] * x[k];
        x[c] = s / a[c * n + c];
    }
    return x;
}

}  // namespace test_common
