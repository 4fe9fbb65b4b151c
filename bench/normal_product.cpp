// normal_product.cpp — FALKON's CG pass kernel, Kᵀ(K v) over the row blocks
// of a cached n x M matrix K with k outputs, by linalg::add_normal_product
// (each ISA coding the CPU runs) against the two BLIS products it replaced
// (z = K v, then w += Kᵀ z per block: GEMMs, or GEMVs for k = 1), one
// after the other for each shape, best of --repeats passes each (4·n·M·k
// flops a pass). Prints a markdown table of ms per pass.
//
//   bench_normal_product [--rows N] [--m M]... [--k K]... [--threads T] [--repeats R] [--float32]
//
// K is filled with uniform values in [0, 1) (a Gaussian kernel's range),
// rows M values apart rounded up to 8 as FALKON stores them, blocks of
// FALKON's size (2^22 values). --float32 stores K in float32 (FALKON's
// kernel_precision=float32; the BLIS side then reads a double copy).
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "core/arena.h"
#include "linalg/linalg.h"
#include "linalg/normal_product.h"

namespace {

using kmx::IsaLevel;
using Clock = std::chrono::steady_clock;

struct Options {
    int64_t rows = 20000;
    std::vector<int64_t> ms, ks;
    int threads = 1, repeats = 5;
    bool float32 = false;
};

Options parse(int argc, char **argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto next = [&] {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "bench_normal_product: %s needs a value\n", a.c_str());
                std::exit(2);
            }
            return std::atoll(argv[++i]);
        };
        if (a == "--rows")
            o.rows = next();
        else if (a == "--m")
            o.ms.push_back(next());
        else if (a == "--k")
            o.ks.push_back(next());
        else if (a == "--threads")
            o.threads = int(next());
        else if (a == "--repeats")
            o.repeats = int(next());
        else if (a == "--float32")
            o.float32 = true;
        else {
            std::fprintf(stderr, "bench_normal_product: unknown option %s\n", a.c_str());
            std::exit(2);
        }
    }
    if (o.ms.empty()) o.ms = {2000, 2001};
    if (o.ks.empty()) o.ks = {1, 10, 26, 48};
    return o;
}

// Buffers from an arena: 64-byte aligned, as FALKON's.
struct Buffers {
    kmx::Arena arena;
    double *k_double, *v, *v_t, *z, *w, *w_t;
    float *k_float;
    Buffers(int64_t rows, int64_t ld, int64_t m, int64_t k, bool float32)
        : arena(kmx::WorkspacePlan()
                    .add<double>(size_t(rows * ld))
                    .add<float>(size_t(float32 ? rows * ld : 0))
                    .add<double>(size_t(m * k))
                    .add<double>(size_t(m * k))
                    .add<double>(size_t(rows * k))
                    .add<double>(size_t(m * k))
                    .add<double>(size_t(m * k))
                    .bytes()) {
        k_double = arena.alloc<double>(size_t(rows * ld));
        k_float = arena.alloc<float>(size_t(float32 ? rows * ld : 0));
        v = arena.alloc<double>(size_t(m * k));
        v_t = arena.alloc<double>(size_t(m * k));
        z = arena.alloc<double>(size_t(rows * k));
        w = arena.alloc<double>(size_t(m * k));
        w_t = arena.alloc<double>(size_t(m * k));
        std::mt19937_64 rng(1);
        std::uniform_real_distribution<double> uniform(0.0, 1.0);
        for (int64_t i = 0; i < rows * ld; ++i) {
            k_double[i] = uniform(rng);
            if (float32) {
                k_float[i] = float(k_double[i]);
                k_double[i] = double(k_float[i]);
            }
        }
        for (int64_t i = 0; i < m * k; ++i) v[i] = v_t[i] = uniform(rng) - 0.5;
    }
};

template <class Pass>
double best_seconds(int repeats, Pass &&pass) {
    double best = 1e300;
    for (int r = 0; r < repeats; ++r) {
        const auto start = Clock::now();
        pass();
        best = std::min(best, std::chrono::duration<double>(Clock::now() - start).count());
    }
    return best;
}

}  // namespace

int main(int argc, char **argv) {
    const Options o = parse(argc, argv);
    std::printf("| M | k | kmx avx512 ms | kmx avx2 ms | kmx baseline ms | BLIS ms | BLIS / kmx (CPU's coding) |\n");
    std::printf("|---:|---:|---:|---:|---:|---:|---:|\n");
    const IsaLevel cpu = kmx::cpu_isa_level();
    for (int64_t m : o.ms)
        for (int64_t k : o.ks) {
            const int64_t ld = (m + 7) / 8 * 8, block = std::max<int64_t>(1, std::min(o.rows, (int64_t(1) << 22) / m));
            Buffers b(o.rows, ld, m, k, o.float32);
            double kmx_ms[3] = {0, 0, 0};  // baseline, avx2, avx512
            for (int level = 0; level <= int(cpu); ++level)
                kmx_ms[level] =
                    1e3 * best_seconds(o.repeats, [&] {
                        for (int64_t first = 0; first < o.rows; first += block) {
                            const int64_t rows = std::min(block, o.rows - first);
                            if (o.float32)
                                kmx::linalg::add_normal_product(IsaLevel(level), rows, m, ld, k, b.k_float + first * ld,
                                                                b.v_t, b.z, nullptr, b.w_t, o.threads);
                            else
                                kmx::linalg::add_normal_product(IsaLevel(level), rows, m, ld, k,
                                                                b.k_double + first * ld, b.v_t, b.z, nullptr, b.w_t,
                                                                o.threads);
                        }
                    });
            using kmx::linalg::Trans;
            const double blis_ms =
                1e3 * best_seconds(o.repeats, [&] {
                    for (int64_t first = 0; first < o.rows; first += block) {
                        const int64_t rows = std::min(block, o.rows - first);
                        const double *kb = b.k_double + first * ld;
                        if (k == 1) {
                            kmx::linalg::gemv(Trans::No, rows, m, 1.0, kb, ld, b.v, 0.0, b.z, o.threads);
                            kmx::linalg::gemv(Trans::Yes, rows, m, 1.0, kb, ld, b.z, 1.0, b.w, o.threads);
                        } else {
                            kmx::linalg::gemm(Trans::No, Trans::No, rows, k, m, 1.0, kb, ld, b.v, k, 0.0, b.z, k,
                                              o.threads);
                            kmx::linalg::gemm(Trans::Yes, Trans::No, m, k, rows, 1.0, kb, ld, b.z, k, 1.0, b.w, k,
                                              o.threads);
                        }
                    }
                });
            auto cell = [](double ms) { return ms > 0 ? std::to_string(ms).substr(0, 6) : std::string("-"); };
            std::printf("| %lld | %lld | %s | %s | %s | %.1f | %.2f |\n", (long long)m, (long long)k,
                        cell(kmx_ms[2]).c_str(), cell(kmx_ms[1]).c_str(), cell(kmx_ms[0]).c_str(), blis_ms,
                        blis_ms / kmx_ms[int(cpu)]);
            std::fflush(stdout);
        }
    return 0;
}
