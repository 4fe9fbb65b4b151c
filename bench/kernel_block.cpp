// kernel_block.cpp — the Gaussian kernel block against BLIS dgemm of the
// same shape (na x d times d x nb), timed alternately in one run, best of
// several repetitions. Both count 2·na·nb·d flops, so the ratio of rates is
// the fraction of GEMM speed the block reaches (goal: >= 0.85 for d >= 64).
//
//   bench_kernel_block [--threads N] [--reps R] [--d D]...   (default d: 16, 64, 256, 784)
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
    std::vector<int64_t> dims;
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
        } else {
            std::fprintf(stderr, "usage: %s [--threads N] [--reps R] [--d D]...\n", argv[0]);
            std::exit(2);
        }
    }
    if (options.dims.empty()) options.dims = {16, 64, 256, 784};
    return options;
}

std::vector<double> random_matrix(int64_t rows, int64_t cols, std::mt19937_64 &rng) {
    std::uniform_real_distribution<double> uniform(0.0, 1.0);
    std::vector<double> m(size_t(rows * cols));
    for (double &v : m) v = uniform(rng);
    return m;
}

// The exp implementation kmx picks on this CPU (the fastest supported).
const char *exp_path_name() {
    if (kmx::exp_path_supported(kmx::ExpPath::Avx512)) return "avx512";
    if (kmx::exp_path_supported(kmx::ExpPath::Avx2Fma)) return "avx2+fma";
    return "baseline";
}

struct Shape {
    int64_t na, nb, d;
};

// Best times (s) of the Gaussian block and of dgemm C = A Bᵀ, run alternately.
void time_shape(const Shape &s, const Options &options, double &best_kernel, double &best_gemm) {
    std::mt19937_64 rng(42);
    const std::vector<double> a = random_matrix(s.na, s.d, rng), b = random_matrix(s.nb, s.d, rng);
    std::vector<double> out(size_t(s.na * s.nb));
    const kmx::KernelSpec spec;  // RBF, gamma = 1/d
    kmx::Arena scratch(kmx::kernel_block_workspace_bytes(spec, s.na, s.nb, s.d));
    const bench::VersusDgemm best =
        bench::time_versus_dgemm(options.reps, options.threads, s.na, s.nb, s.d, a.data(), b.data(), [&] {
            kmx::kernel_block(spec, a.data(), s.na, s.d, b.data(), s.nb, s.d, s.d, out.data(), s.nb, scratch,
                              options.threads);
        });
    best_kernel = best.ours;
    best_gemm = best.dgemm;
}

}  // namespace

int main(int argc, char **argv) {
    const Options options = parse_options(argc, argv);
    std::printf("Gaussian kernel block vs BLIS dgemm (A Bt, same shape), threads=%d, best of %d, exp: %s\n",
                options.threads, options.reps, exp_path_name());
    std::printf("%5s %11s | %10s %8s | %10s %8s | %6s\n", "d", "na x nb", "kernel ms", "GFLOP/s", "dgemm ms", "GFLOP/s",
                "ratio");
    const Shape blocks[] = {{1024, 1024, 0}, {4096, 1024, 0}};
    for (int64_t d : options.dims)
        for (Shape s : blocks) {
            s.d = d;
            double kernel_s, gemm_s;
            time_shape(s, options, kernel_s, gemm_s);
            const double gflop = 2.0 * double(s.na) * double(s.nb) * double(s.d) * 1e-9;
            std::printf("%5lld %5lldx%-5lld | %10.3f %8.2f | %10.3f %8.2f | %6.3f\n", (long long)d, (long long)s.na,
                        (long long)s.nb, kernel_s * 1e3, gflop / kernel_s, gemm_s * 1e3, gflop / gemm_s,
                        gemm_s / kernel_s);
        }
    return 0;
}
