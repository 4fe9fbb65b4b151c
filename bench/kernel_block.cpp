// kernel_block.cpp — the Gaussian kernel block against BLIS dgemm of the
// same shape (na x d times d x nb), timed alternately in one run, best of
// several repetitions. Both count 2·na·nb·d flops, so the ratio of rates is
// the fraction of GEMM speed the block reaches (goal: >= 0.85 for d >= 64).
// Wall-clock rates and ratio; "cpu ratio" is the ratio of best CPU times
// (steadier on a shared machine with one thread; with more, it counts the
// time threads spend waiting at barriers).
//
//   bench_kernel_block [--threads N] [--reps R] [--d D]... [--na NA]...
//   (default d: 16, 64, 256, 784; default na: 1024, 4096; nb = 1024)
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "kernel/fast_exp.h"
#include "kernel/kernel.h"
#include "versus_dgemm.h"

namespace {

struct Options {
    int threads = 1;
    int reps = 7;
    std::vector<int64_t> dims, rows;
};

Options parse_options(int argc, char **argv) {
    Options options;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--threads") && i + 1 < argc) {
            options.threads = std::max(1, std::atoi(argv[++i]));
        } else if (!std::strcmp(argv[i], "--reps") && i + 1 < argc) {
            options.reps = std::max(1, std::atoi(argv[++i]));
        } else if (!std::strcmp(argv[i], "--d") && i + 1 < argc) {
            options.dims.push_back(std::max(1, std::atoi(argv[++i])));
        } else if (!std::strcmp(argv[i], "--na") && i + 1 < argc) {
            options.rows.push_back(std::max(1, std::atoi(argv[++i])));
        } else {
            std::fprintf(stderr, "usage: %s [--threads N] [--reps R] [--d D]... [--na NA]...\n", argv[0]);
            std::exit(2);
        }
    }
    if (options.dims.empty()) options.dims = {16, 64, 256, 784};
    if (options.rows.empty()) options.rows = {1024, 4096};
    return options;
}

std::vector<double> random_matrix(int64_t rows, int64_t cols, std::mt19937_64 &rng) {
    std::uniform_real_distribution<double> uniform(0.0, 1.0);
    std::vector<double> m(size_t(rows * cols));
    for (double &v : m) v = uniform(rng);
    return m;
}

// The exp implementation kmx uses (the fastest supported, within KMX_ISA).
const char *exp_path_name() {
    switch (kmx::exp_path_in_use()) {
        case kmx::ExpPath::Avx512:
            return "avx512";
        case kmx::ExpPath::Avx2Fma:
            return "avx2+fma";
        default:
            return "baseline";
    }
}

struct Shape {
    int64_t na, nb, d;
};

// Best times of the Gaussian block and of dgemm C = A Bᵀ, run alternately.
bench::VersusDgemm time_shape(const Shape &s, const Options &options) {
    std::mt19937_64 rng(42);
    const std::vector<double> a = random_matrix(s.na, s.d, rng), b = random_matrix(s.nb, s.d, rng);
    std::vector<double> out(size_t(s.na * s.nb));
    const kmx::KernelSpec spec;  // RBF, gamma = 1/d
    kmx::Arena scratch(kmx::kernel_block_workspace_bytes(spec, s.na, s.nb, s.d));
    return bench::time_versus_dgemm(options.reps, options.threads, s.na, s.nb, s.d, a.data(), b.data(), [&] {
        kmx::kernel_block(spec, a.data(), s.na, s.d, b.data(), s.nb, s.d, s.d, out.data(), s.nb, scratch,
                          options.threads);
    });
}

}  // namespace

int main(int argc, char **argv) {
    const Options options = parse_options(argc, argv);
    std::printf("Gaussian kernel block vs BLIS dgemm (A Bt, same shape), threads=%d, best of %d, exp: %s\n",
                options.threads, options.reps, exp_path_name());
    std::printf("%5s %11s | %10s %8s | %10s %8s | %6s | %9s\n", "d", "na x nb", "kernel ms", "GFLOP/s", "dgemm ms",
                "GFLOP/s", "ratio", "cpu ratio");
    for (int64_t d : options.dims)
        for (int64_t na : options.rows) {
            const Shape s{na, 1024, d};
            const bench::VersusDgemm best = time_shape(s, options);
            const double gflop = 2.0 * double(s.na) * double(s.nb) * double(s.d) * 1e-9;
            std::printf("%5lld %5lldx%-5lld | %10.3f %8.2f | %10.3f %8.2f | %6.3f | %9.3f\n", (long long)d,
                        (long long)s.na, (long long)s.nb, best.ours * 1e3, gflop / best.ours, best.dgemm * 1e3,
                        gflop / best.dgemm, best.dgemm / best.ours, best.dgemm_cpu / best.ours_cpu);
        }
    return 0;
}
