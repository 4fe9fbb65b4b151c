// kmeans.cpp — times kmx k-means (through the public C ABI) on a dense
// matrix read from a file, per Lloyd iteration: the progress callback fires at
// the start of every iteration, so the time from its first call to the end,
// divided by the iterations, is one iteration (center update + assignment
// pass; the final exact-objective pass is spread over them). The time before
// the first call is the k-means++ seeding plus the first assignment pass.
// Each figure is the best of --repeats runs (the runs are identical).
// bench/run_kmeans.sh runs this beside scikit-learn on the same file.
//
//   bench_kmeans --data FILE --k K [--max-iter N] [--threads T] [--seed S] [--repeats R]
//   bench_kmeans --assign [--rows N] [--k K] [--d D]... [--threads T] [--repeats R]
//
// --assign times the assignment step alone (kmx_kmeans_assign: GEMM plus
// argmin over the centers) against BLIS dgemm of the same shape (rows x d
// times d x k), alternately, best of --repeats (default 7), both counted as
// 2·rows·k·d flops, on uniform random data (default: 20000 rows, k = 100,
// d = 16, 64, 256, 784); the ratio is the fraction of dgemm's rate reached.
//
// FILE: int64 n, int64 d, then n·d float64 row-major (little-endian), as
// written by bench/kmeans_sklearn.py --write-data.
#include <kmx/kmx.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "versus_dgemm.h"

namespace {

struct Options {
    std::string data;
    int64_t k = 0;  // 0: 10 for a k-means run, 100 with --assign
    int max_iter = 20;
    int threads = 1;
    long long seed = 0;
    int repeats = 3;
    bool assign = false;  // --assign: assignment vs dgemm
    int64_t rows = 20000;
    std::vector<int64_t> dims;
};

[[noreturn]] void usage(const char *program) {
    std::fprintf(stderr,
                 "usage: %s --data FILE --k K [--max-iter N] [--threads T] [--seed S] [--repeats R]\n"
                 "       %s --assign [--rows N] [--k K] [--d D]... [--threads T] [--repeats R]\n",
                 program, program);
    std::exit(2);
}

Options parse_options(int argc, char **argv) {
    Options options;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--assign")) {
            options.assign = true;
            options.repeats = 7;
            continue;
        }
        if (i + 1 >= argc) usage(argv[0]);
        const char *value = argv[++i];
        if (!std::strcmp(argv[i - 1], "--data"))
            options.data = value;
        else if (!std::strcmp(argv[i - 1], "--k"))
            options.k = std::atoll(value);
        else if (!std::strcmp(argv[i - 1], "--max-iter"))
            options.max_iter = std::atoi(value);
        else if (!std::strcmp(argv[i - 1], "--threads"))
            options.threads = std::atoi(value);
        else if (!std::strcmp(argv[i - 1], "--seed"))
            options.seed = std::atoll(value);
        else if (!std::strcmp(argv[i - 1], "--repeats"))
            options.repeats = std::atoi(value);
        else if (!std::strcmp(argv[i - 1], "--rows"))
            options.rows = std::atoll(value);
        else if (!std::strcmp(argv[i - 1], "--d"))
            options.dims.push_back(std::atoll(value));
        else
            usage(argv[0]);
    }
    if (options.dims.empty()) options.dims = {16, 64, 256, 784};
    if (options.k == 0) options.k = options.assign ? 100 : 10;
    if ((options.data.empty() && !options.assign) || options.rows < options.k || options.k < 1 ||
        options.max_iter < 1 || options.threads < 1 || options.repeats < 1)
        usage(argv[0]);
    return options;
}

struct Matrix {
    int64_t n = 0, d = 0;
    std::vector<double> values;
};

Matrix read_matrix(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    Matrix m;
    in.read(reinterpret_cast<char *>(&m.n), sizeof m.n);
    in.read(reinterpret_cast<char *>(&m.d), sizeof m.d);
    if (!in || m.n <= 0 || m.d <= 0) {
        std::fprintf(stderr, "%s: not a matrix file (int64 n, int64 d, float64 values)\n", path.c_str());
        std::exit(1);
    }
    m.values.resize(size_t(m.n * m.d));
    in.read(reinterpret_cast<char *>(m.values.data()), std::streamsize(sizeof(double) * m.values.size()));
    if (!in) {
        std::fprintf(stderr, "%s: shorter than %lld x %lld values\n", path.c_str(), (long long)m.n, (long long)m.d);
        std::exit(1);
    }
    return m;
}

void check(kmx_status status) {
    if (status == KMX_OK) return;
    std::fprintf(stderr, "%s: %s\n", kmx_status_name(status), kmx_last_error());
    std::exit(1);
}

using Clock = std::chrono::steady_clock;

// Start times of the Lloyd iterations, from the progress callback.
struct IterationClock {
    std::vector<Clock::time_point> starts;
};

int record_iteration(void *user, double, const char *) {
    static_cast<IterationClock *>(user)->starts.push_back(Clock::now());
    return 0;
}

double seconds_between(Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double>(b - a).count();
}

struct Timing {
    int iterations = 0;
    double per_iteration = 0;  // s
    double before_first = 0;   // s: seeding + first assignment pass
    double total = 0;          // s
    double objective = 0;
};

// One kmx_kmeans call, timed through the progress callback.
Timing time_kmeans(kmx_context *ctx, const kmx_dataset *data, const Options &options, int64_t n, int64_t d) {
    IterationClock clock;
    check(kmx_context_set_progress_callback(ctx, record_iteration, &clock));
    std::vector<double> centers(size_t(options.k * d));
    std::vector<int32_t> assignment(static_cast<size_t>(n));
    const std::string params = "max_iter=" + std::to_string(options.max_iter) + " tol=0";
    Timing t;
    const Clock::time_point start = Clock::now();
    check(kmx_kmeans(centers.data(), int64_t(centers.size()), assignment.data(), n, &t.objective, ctx, data, options.k,
                     params.c_str()));
    const Clock::time_point end = Clock::now();
    t.iterations = int(clock.starts.size());
    t.total = seconds_between(start, end);
    t.per_iteration = t.iterations ? seconds_between(clock.starts.front(), end) / t.iterations : 0;
    t.before_first = t.iterations ? seconds_between(start, clock.starts.front()) : t.total;
    return t;
}

// Best times (s) of kmx_kmeans_assign and of dgemm X Cᵀ (rows x k), run alternately.
void time_assignment(kmx_context *ctx, const Options &options, int64_t d, double &best_assign, double &best_gemm) {
    std::mt19937_64 rng(42);
    std::uniform_real_distribution<double> uniform(0.0, 1.0);
    std::vector<double> x(size_t(options.rows * d));
    for (double &v : x) v = uniform(rng);
    const std::vector<double> centers(x.begin(), x.begin() + options.k * d);  // the first k rows
    std::vector<int32_t> assignment(size_t(options.rows));
    kmx_dataset *data = nullptr;
    check(kmx_dataset_create(&data, x.data(), options.rows, d, nullptr, KMX_BORROW));
    const bench::VersusDgemm best = bench::time_versus_dgemm(
        options.repeats, options.threads, options.rows, options.k, d, x.data(), centers.data(), [&] {
            check(kmx_kmeans_assign(assignment.data(), options.rows, nullptr, 0, ctx, data, centers.data(), options.k));
        });
    kmx_dataset_free(data);
    best_assign = best.ours;
    best_gemm = best.dgemm;
}

void assignment_table(kmx_context *ctx, const Options &options) {
    std::printf(
        "k-means assignment (GEMM + argmin) vs BLIS dgemm (X Ct, same shape), rows=%lld k=%lld "
        "threads=%d, best of %d\n",
        (long long)options.rows, (long long)options.k, options.threads, options.repeats);
    std::printf("%5s | %10s %8s | %10s %8s | %6s\n", "d", "assign ms", "GFLOP/s", "dgemm ms", "GFLOP/s", "ratio");
    for (int64_t d : options.dims) {
        double assign_s, gemm_s;
        time_assignment(ctx, options, d, assign_s, gemm_s);
        const double gflop = 2.0 * double(options.rows) * double(options.k) * double(d) * 1e-9;
        std::printf("%5lld | %10.3f %8.2f | %10.3f %8.2f | %6.3f\n", (long long)d, assign_s * 1e3, gflop / assign_s,
                    gemm_s * 1e3, gflop / gemm_s, gemm_s / assign_s);
    }
}

}  // namespace

int main(int argc, char **argv) {
    const Options options = parse_options(argc, argv);
    if (options.assign) {
        kmx_context *ctx = nullptr;
        check(kmx_context_create(&ctx));
        check(kmx_context_set_param(ctx, KMX_PARAM_THREADS, options.threads));
        assignment_table(ctx, options);
        kmx_context_free(ctx);
        return 0;
    }
    const Matrix m = read_matrix(options.data);
    kmx_dataset *data = nullptr;
    check(kmx_dataset_create(&data, m.values.data(), m.n, m.d, nullptr, KMX_BORROW));
    kmx_context *ctx = nullptr;
    check(kmx_context_create(&ctx));
    check(kmx_context_set_param(ctx, KMX_PARAM_THREADS, options.threads));
    check(kmx_context_set_param(ctx, KMX_PARAM_SEED, double(options.seed)));

    Timing best = time_kmeans(ctx, data, options, m.n, m.d);
    for (int run = 1; run < options.repeats; ++run) {
        const Timing t = time_kmeans(ctx, data, options, m.n, m.d);
        best.per_iteration = std::min(best.per_iteration, t.per_iteration);
        best.before_first = std::min(best.before_first, t.before_first);
        best.total = std::min(best.total, t.total);
    }
    int64_t workspace = 0;
    check(kmx_context_peak_bytes(&workspace, ctx));
    std::printf(
        "kmx   n=%lld d=%lld k=%lld threads=%d: %d iterations, %.4f s/iteration, "
        "seeding+first pass %.3f s, total %.3f s, objective %.10g, workspace %.1f MB (best of %d runs)\n",
        (long long)m.n, (long long)m.d, (long long)options.k, options.threads, best.iterations, best.per_iteration,
        best.before_first, best.total, best.objective, double(workspace) / 1e6, options.repeats);
    std::printf(
        "RESULT side=kmx k=%lld iterations=%d per_iteration=%.6f seeding_plus_pass=%.6f total=%.6f "
        "objective=%.10g\n",
        (long long)options.k, best.iterations, best.per_iteration, best.before_first, best.total, best.objective);
    kmx_context_free(ctx);
    kmx_dataset_free(data);
    return 0;
}
