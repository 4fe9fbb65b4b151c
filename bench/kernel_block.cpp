// kernel_block.cpp — the Gaussian kernel block against BLIS dgemm of the
// same shape (na x d times d x nb), timed alternately in one run, best of
// several repetitions. Both count 2·na·nb·d flops, so the ratio of rates is
// the fraction of GEMM speed the block reaches (goal: >= 0.85 for d >= 64).
// Wall-clock rates and ratio; "cpu ratio" is the ratio of best CPU times
// (steadier on a shared machine with one thread; with more, it counts the
// time threads spend waiting at barriers).
//
//   bench_kernel_block [--threads N] [--reps R] [--d D]... [--na NA]... [--pass [--pass-gamma G]]
//   (default d: 16, 64, 256, 784; default na: 1024, 4096; nb = 1024)
//
// --pass times the Gaussian pass alone instead (gaussian_row_from_gram on a
// 16 x 256 tile in L1, each exp path the CPU runs, one thread, CPU time) and
// dgemm's time per entry of a 1024 x 1024 product at each d: the ratio a
// block could reach if its GEMM ran at dgemm's rate and the pass were all
// it added is dgemm / (dgemm + pass) per entry. --pass-gamma G sets the
// pass's γ (default 1/64; above 17.7 some of its γD pass 708, where e^{−γD}
// is subnormal or 0).
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
    bool pass = false;
    double pass_gamma = 1.0 / 64;  // γ of --pass (its distances D lie in [0, 40])
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
        } else if (!std::strcmp(argv[i], "--pass")) {
            options.pass = true;
        } else if (!std::strcmp(argv[i], "--pass-gamma") && i + 1 < argc) {
            options.pass_gamma = std::atof(argv[++i]);
        } else if (!std::strcmp(argv[i], "--na") && i + 1 < argc) {
            options.rows.push_back(std::max(1, std::atoi(argv[++i])));
        } else {
            std::fprintf(stderr,
                         "usage: %s [--threads N] [--reps R] [--d D]... [--na NA]... [--pass [--pass-gamma G]]\n",
                         argv[0]);
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

const char *path_name(kmx::ExpPath path) {
    return path == kmx::ExpPath::Avx512 ? "avx512" : path == kmx::ExpPath::Avx2Fma ? "avx2+fma" : "baseline";
}

// Best CPU seconds of fn over `reps` runs.
template <class Fn>
double best_cpu_seconds(int reps, Fn &&fn) {
    double best = 1e300;
    for (int rep = 0; rep < reps; ++rep) {
        const double start = bench::process_cpu_seconds();
        fn();
        best = std::min(best, bench::process_cpu_seconds() - start);
    }
    return best;
}

// Nanoseconds per entry of the Gaussian pass on a tile in L1 (the tile is
// restored from a copy before each pass; the copy's own time is subtracted).
double pass_ns_per_entry(kmx::ExpPath path, int reps, double gamma) {
    constexpr int64_t kRows = 16, kCols = 256, kPasses = 200;
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> norm(5.0, 30.0), dist(0.0, 40.0);
    std::vector<double> sq_a(kRows), sq_b(kCols), floor_b(kCols), source(kRows * kCols), tile(kRows * kCols);
    for (double &v : sq_a) v = norm(rng);
    for (int64_t j = 0; j < kCols; ++j) sq_b[size_t(j)] = norm(rng), floor_b[size_t(j)] = 1e-14 * sq_b[size_t(j)];
    for (int64_t i = 0; i < kRows; ++i)
        for (int64_t j = 0; j < kCols; ++j)
            source[size_t(i * kCols + j)] = dist(rng) - sq_a[size_t(i)] - sq_b[size_t(j)];
    auto restore = [&] { std::memcpy(tile.data(), source.data(), sizeof(double) * source.size()); };
    const double copy = best_cpu_seconds(reps, [&] {
        for (int64_t p = 0; p < kPasses; ++p) restore();
    });
    const double with_pass = best_cpu_seconds(reps, [&] {
        for (int64_t p = 0; p < kPasses; ++p) {
            restore();
            for (int64_t i = 0; i < kRows; ++i)
                kmx::gaussian_row_from_gram(path, tile.data() + i * kCols, kCols, gamma, sq_a[size_t(i)], sq_b.data(),
                                            1e-14 * sq_a[size_t(i)], floor_b.data());
        }
    });
    return (with_pass - copy) / double(kPasses * kRows * kCols) * 1e9;
}

// --pass: the pass per entry for each path, and what it caps the ratio at.
void report_pass(const Options &options) {
    std::vector<std::pair<kmx::ExpPath, double>> passes;
    for (kmx::ExpPath path : {kmx::ExpPath::Baseline, kmx::ExpPath::Avx2Fma, kmx::ExpPath::Avx512})
        if (kmx::exp_path_supported(path))
            passes.push_back({path, pass_ns_per_entry(path, options.reps, options.pass_gamma)});
    std::printf("Gaussian pass alone (16 x 256 tile in L1, gamma %g, D in [0, 40]), best of %d, CPU time\n",
                options.pass_gamma, options.reps);
    for (const auto &[path, ns] : passes) std::printf("  %-9s %6.3f ns per entry\n", path_name(path), ns);
    std::printf("%5s | %14s | ratio cap: dgemm / (dgemm + pass) per entry\n", "d", "dgemm ns/entry");
    const int64_t n = 1024;
    for (int64_t d : options.dims) {
        std::mt19937_64 rng(42);
        const std::vector<double> a = random_matrix(n, d, rng), b = random_matrix(n, d, rng);
        const bench::VersusDgemm best = bench::time_versus_dgemm(options.reps, 1, n, n, d, a.data(), b.data(), [] {});
        const double gemm_ns = best.dgemm_cpu / double(n * n) * 1e9;
        std::printf("%5lld | %14.3f |", (long long)d, gemm_ns);
        for (const auto &[path, ns] : passes) std::printf(" %s %.3f", path_name(path), gemm_ns / (gemm_ns + ns));
        std::printf("\n");
    }
}

}  // namespace

int main(int argc, char **argv) {
    const Options options = parse_options(argc, argv);
    if (options.pass) {
        report_pass(options);
        return 0;
    }
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
