// versus_dgemm.h — times one of kmx's GEMM-based loops against BLIS dgemm of
// the same shape, C = A Bᵀ (A m x k, B n x k, both row-major), alternately in
// one run so that both see the same machine load; best of `reps` each, in
// wall-clock time and in the process's CPU time (all its threads). On a
// shared machine the CPU time leaves out the time slices other processes
// took; with one thread it is the steadier measure.
#pragma once
#include <blis.h>
#include <time.h>

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

inline double process_cpu_seconds() {
    timespec now{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
    return double(now.tv_sec) + 1e-9 * double(now.tv_nsec);
}

struct VersusDgemm {
    double ours = 1e300, dgemm = 1e300;          // best wall-clock seconds
    double ours_cpu = 1e300, dgemm_cpu = 1e300;  // best CPU seconds
};

// Runs fn, keeping the best wall-clock and CPU seconds seen.
template <class Fn>
void time_best(Fn &&fn, double &best_wall, double &best_cpu) {
    const double cpu0 = process_cpu_seconds();
    best_wall = std::min(best_wall, seconds(fn));
    best_cpu = std::min(best_cpu, process_cpu_seconds() - cpu0);
}

template <class Fn>
VersusDgemm time_versus_dgemm(int reps, int threads, int64_t m, int64_t n, int64_t k, const double *a, const double *b,
                              Fn &&ours) {
    std::vector<double> c(size_t(m * n));
    rntm_t rntm = BLIS_RNTM_INITIALIZER;
    bli_rntm_set_num_threads(threads, &rntm);
    double one = 1.0, zero = 0.0;
    VersusDgemm best;
    for (int rep = 0; rep < reps; ++rep) {
        time_best(ours, best.ours, best.ours_cpu);
        time_best(
            [&] {
                bli_dgemm_ex(BLIS_NO_TRANSPOSE, BLIS_TRANSPOSE, m, n, k, &one, const_cast<double *>(a), k, 1,
                             const_cast<double *>(b), k, 1, &zero, c.data(), n, 1, nullptr, &rntm);
            },
            best.dgemm, best.dgemm_cpu);
    }
    return best;
}

}  // namespace bench
