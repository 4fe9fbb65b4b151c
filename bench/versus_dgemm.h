// versus_dgemm.h — times one of kmx's GEMM-based loops against BLIS dgemm of
// the same shape, C = A Bᵀ (A m x k, B n x k, both row-major), alternately in
// one run so that both see the same machine load; best of `reps` each.
#pragma once
#include <blis.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <vector>

namespace bench {

template <class Fn>
double seconds(Fn &&fn) {
    const auto start = std::chrono::steady_clock::now();
    fn();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

struct VersusDgemm {
    double ours = 1e300, dgemm = 1e300;  // best seconds
};

template <class Fn>
VersusDgemm time_versus_dgemm(int reps, int threads, int64_t m, int64_t n, int64_t k, const double *a, const double *b,
                              Fn &&ours) {
    std::vector<double> c(size_t(m * n));
    rntm_t rntm = BLIS_RNTM_INITIALIZER;
    bli_rntm_set_num_threads(threads, &rntm);
    double one = 1.0, zero = 0.0;
    VersusDgemm best;
    for (int rep = 0; rep < reps; ++rep) {
        best.ours = std::min(best.ours, seconds(ours));
        best.dgemm =
            std::min(best.dgemm, seconds([&] {
                         bli_dgemm_ex(BLIS_NO_TRANSPOSE, BLIS_TRANSPOSE, m, n, k, &one, const_cast<double *>(a), k, 1,
                                      const_cast<double *>(b), k, 1, &zero, c.data(), n, 1, nullptr, &rntm);
                     }));
    }
    return best;
}

}  // namespace bench
