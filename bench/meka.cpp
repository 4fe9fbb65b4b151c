// meka.cpp — MEKA against uniform and k-means Nyström at equal memory
// (the MEKA paper's Table 7 comparison), and KRR on each at equal memory.
//
//   bench_meka [--data DIR] [--threads T] [--sample-rows R] [--only NAME]
//
// DIR (default ../shared/data) holds <name>/<name>_<task>.train.libsvm. For
// each data set and γ: MEKA (c clusters, rank k per cluster) is built first;
// its exact byte count fixes the Nyström rank m with the same memory (m x n
// features + m x d landmarks + m x m basis). Time is the build (k-means,
// kernel blocks, eigendecompositions); the relative error ‖G − G̃‖_F/‖G‖_F is
// estimated on the same R sampled rows (default 1000) for every method.
// Then KRR (λ fixed) on the regression set: test RMSE at equal memory.
//
//   bench_meka --auto [--no-reference] [--digits16 DIR] [--data DIR] [--threads T] [--sample-rows R] [--only NAME]
//
// MEKA's automatic sizes (issue 17) against the reference sizes c₀ x k₀
// they replace (what "auto" built before: the same code path as given
// sizes; left out with --no-reference), each against uniform Nyström at its
// own memory, on high- and low-dimensional sets at several γ; DIR holds
// make_digits_large.py's digits16_bin.train.libsvm (skipped when not given).
// Build times are CPU seconds of the process.
//
//   bench_meka --file PATH --gamma G --clusters C --rank K [--rho R] [--eps E] [--tau T] [--no-psd] [--seed S]
//
// One MEKA build on a whole LIBSVM file and its exact relative error (every
// row): what bench/meka_reference.py compares its numpy Algorithm 1 with.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "approx/approx_defaults.h"
#include "approx/approximation.h"
#include "approx/meka.h"
#include "core/context.h"
#include "core/dataset.h"
#include "core/error.h"
#include "io/text_reader.h"
#include "krr/krr.h"

namespace {

struct Options {
    std::string data = "../shared/data";
    int threads = 1;
    int64_t sample_rows = 1000;
    std::string only;
    // Overrides of the settings below (0 / negative: keep them).
    double gamma = 0;
    int64_t clusters = 0, rank = 0;
    double rho = -1, eps = -1, tau = -2;
    uint64_t seed = 0;
    bool no_krr = false;
    bool automatic = false;
    bool no_reference = false;  // --auto without the reference sizes' columns
    bool no_psd = false;
    std::string digits16, file;
};

struct Setting {
    const char *name;  // folder and file prefix
    const char *task;  // bin / reg
    double gammas[3];  // close to low rank … close to block diagonal
    int64_t clusters;
    int64_t rank;
};

const Setting kSettings[] = {
    {"letter", "bin", {1.0, 4.0, 16.0}, 10, 64},
    {"shuttle", "bin", {1.0, 100.0, 1000.0}, 10, 64},
    {"diamonds", "reg", {1.0, 10.0, 100.0}, 10, 64},
};

// The automatic sizes' comparison: (file under DIR, or digits16's DIR) and γ values (0 ends).
struct AutoSetting {
    const char *name;
    const char *task;
    double gammas[4];
};

const AutoSetting kAutoSettings[] = {
    {"digits16", "bin", {0.01, 0.03, 0.1, 0.3}}, {"digits", "bin", {0.03, 0.1, 0.3, 1.0}},
    {"spam", "bin", {0.3, 3.0, 30.0, 0}},        {"letter", "bin", {1.0, 4.0, 16.0, 0}},
    {"shuttle", "bin", {1.0, 100.0, 1000.0, 0}}, {"diamonds", "reg", {1.0, 10.0, 100.0, 0}},
};

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The process's CPU seconds (user + system, every thread): what the automatic
// sizes' table compares, as the wall time varies with other work on the machine.
double cpu_seconds() {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

std::unique_ptr<kmx::Dataset> load_file(const std::string &dir, const char *name, const char *task, const char *split) {
    kmx::Context ctx;
    const std::string path = dir + "/" + name + "_" + task + "." + split + ".libsvm";
    return kmx::read_dataset_file(ctx, path.c_str(), KMX_FORMAT_AUTO)->to_dense();
}

std::unique_ptr<kmx::Dataset> load(const Options &o, const Setting &s, const char *split) {
    return load_file(o.data + "/" + s.name, s.name, s.task, split);
}

kmx::KernelSpec rbf(double gamma) {
    kmx::KernelSpec k;
    k.type = KMX_KERNEL_RBF;
    k.gamma = gamma;
    return k;
}

// The largest Nyström rank m whose features, landmarks and basis fit `bytes`.
int64_t equal_memory_rank(int64_t n, int64_t d, size_t bytes) {
    int64_t m = 1;
    while (size_t(8 * ((m + 1) * n + (m + 1) * d + (m + 1) * (m + 1) + (m + 1))) <= bytes) ++m;
    return m;
}

Options g_options;

kmx::ApproxOptions meka_options(const Setting &s) {
    kmx::ApproxOptions a;
    a.method = kmx::ApproxMethod::meka;
    a.clusters = g_options.clusters > 0 ? g_options.clusters : s.clusters;
    a.rank = g_options.rank > 0 ? g_options.rank : s.rank;
    a.rho = g_options.rho >= 0 ? g_options.rho : 2;
    a.eps = g_options.eps >= 0 ? g_options.eps : 0;
    if (g_options.tau > -2) a.link_tolerance = g_options.tau;
    return a;
}

kmx::ApproxOptions nystrom_options(kmx::ApproxMethod method, int64_t m) {
    kmx::ApproxOptions a;
    a.method = method;
    a.landmarks = m;
    a.rank = m;
    return a;
}

const char *method_name(kmx::ApproxMethod m) {
    return m == kmx::ApproxMethod::meka      ? "MEKA"
           : m == kmx::ApproxMethod::nystrom ? "Nystrom (uniform)"
                                             : "k-means Nystrom";
}

struct Built {
    std::unique_ptr<kmx::KernelApproximation> approx;
    double seconds;
    double cpu_seconds;
};

// With KMX_BENCH_PHASES set, prints the time of every progress report (phase timings).
int print_phase(void *user, double fraction, const char *phase) {
    const auto *start = static_cast<const std::chrono::steady_clock::time_point *>(user);
    std::fprintf(stderr, "  %6.3f s  %3.0f%%  %s\n", seconds_since(*start), 100 * fraction, phase);
    return 0;
}

// With KMX_BENCH_PHASES set, the library's informational messages too.
void print_log(void *, kmx_log_level, const char *message) { std::fprintf(stderr, "  %s\n", message); }

Built build(const Options &o, const kmx::KernelSpec &k, const kmx::Dataset &data, const kmx::ApproxOptions &a) {
    kmx::Context ctx;
    ctx.threads = o.threads;
    ctx.seed = o.seed;
    static std::chrono::steady_clock::time_point phase_start;
    phase_start = std::chrono::steady_clock::now();
    if (std::getenv("KMX_BENCH_PHASES")) {
        ctx.progress_fn = print_phase;
        ctx.progress_user = &phase_start;
        ctx.log_fn = print_log;
        ctx.log_level = KMX_LOG_INFO;
    }
    const auto start = std::chrono::steady_clock::now();
    const double cpu_start = cpu_seconds();
    Built b{kmx::make_approximation(ctx, k, data, a), 0, 0};
    b.seconds = seconds_since(start);
    b.cpu_seconds = cpu_seconds() - cpu_start;
    if (std::getenv("KMX_BENCH_PHASES"))
        if (const auto *meka = dynamic_cast<const kmx::MekaApproximation *>(b.approx.get()))
            std::fprintf(stderr, "  MEKA: R=%lld rank=%lld clipped=%lld skipped=%lld\n", (long long)meka->link_size(),
                         (long long)meka->rank(), (long long)meka->clipped_eigenvalues(),
                         (long long)meka->skipped_blocks());
    return b;
}

void approximation_rows(const Options &o, const Setting &s, const kmx::Dataset &train) {
    for (double gamma : s.gammas) {
        if (o.gamma > 0 && gamma != s.gammas[0]) continue;
        if (o.gamma > 0) gamma = o.gamma;
        const kmx::KernelSpec k = rbf(gamma);
        Built meka = build(o, k, train, meka_options(s));
        const int64_t m = equal_memory_rank(train.n, train.d, meka.approx->bytes());
        for (kmx::ApproxMethod method :
             {kmx::ApproxMethod::nystrom, kmx::ApproxMethod::kmeans_nystrom, kmx::ApproxMethod::meka}) {
            Built b =
                method == kmx::ApproxMethod::meka ? std::move(meka) : build(o, k, train, nystrom_options(method, m));
            kmx::Context ctx;
            ctx.threads = o.threads;
            const double error = b.approx->relative_error(ctx, train, o.sample_rows);
            std::printf(
                "| %s | %lld | %g | %s | %s | %lld | %.1f | %.2f | %.3g |\n", s.name, (long long)train.n, gamma,
                method_name(method),
                method == kmx::ApproxMethod::meka
                    ? (std::to_string(meka_options(s).clusters) + " x " + std::to_string(meka_options(s).rank)).c_str()
                    : std::to_string(m).c_str(),
                (long long)b.approx->rank(), double(b.approx->bytes()) / 1e6, b.seconds, error);
            std::fflush(stdout);
        }
    }
}

struct Measured {
    std::string sizes;  // "c x k" or "m"
    size_t bytes = 0;
    double seconds = 0, error = 0;
};

Measured measure(const Options &o, const kmx::KernelSpec &k, const kmx::Dataset &data, const kmx::ApproxOptions &a) {
    Built b = build(o, k, data, a);
    kmx::Context ctx;
    ctx.threads = o.threads;
    Measured m{std::to_string(a.landmarks), b.approx->bytes(), b.cpu_seconds,
               b.approx->relative_error(ctx, data, o.sample_rows)};
    if (const auto *meka = dynamic_cast<const kmx::MekaApproximation *>(b.approx.get())) {
        const kmx::MekaCluster &first = meka->cluster_list()[0];
        m.sizes = meka->clusters() == 1
                      ? "1 x " + std::to_string(first.rank) + " (m " + std::to_string(first.columns.size()) + ")"
                      : std::to_string(meka->clusters()) + " x " + std::to_string(first.columns.size() / 2);
    }
    return m;
}

kmx::ApproxOptions meka_sizes(int64_t c, int64_t k) {
    kmx::ApproxOptions a;
    a.method = kmx::ApproxMethod::meka;
    a.clusters = c;
    a.rank = k;
    a.rho = g_options.rho >= 0 ? g_options.rho : 2;
    a.eps = g_options.eps >= 0 ? g_options.eps : 0;
    return a;
}

// MEKA's automatic sizes and uniform Nyström at its memory, measured one after the other.
void automatic_row(const Options &o, const char *name, const kmx::Dataset &train, const kmx::KernelSpec &k) {
    const Measured meka = measure(o, k, train, meka_sizes(0, 0));
    const Measured nystrom = measure(
        o, k, train, nystrom_options(kmx::ApproxMethod::nystrom, equal_memory_rank(train.n, train.d, meka.bytes)));
    std::printf("| %s | %lld × %lld | %g | %s | %.1f | %.3g / %.3g = **%.2f** | %.2f / %.2f = **%.1f** |\n", name,
                (long long)train.n, (long long)train.d, k.gamma, meka.sizes.c_str(), double(meka.bytes) / 1e6,
                meka.error, nystrom.error, meka.error / nystrom.error, meka.seconds, nystrom.seconds,
                meka.seconds / nystrom.seconds);
    std::fflush(stdout);
}

// One row: MEKA at the reference sizes (before) and automatic (after), each
// with uniform Nyström at its memory, measured one after the other.
void auto_row(const Options &o, const char *name, const kmx::Dataset &train, double gamma) {
    const kmx::KernelSpec k = rbf(gamma);
    if (o.no_reference) return automatic_row(o, name, train, k);
    const int64_t c0 = kmx::meka_reference_clusters(train.n), k0 = kmx::meka_reference_rank(train.n, c0);
    Measured before;
    try {
        before = measure(o, k, train, meka_sizes(c0, k0));
    } catch (const kmx::Error &e) {  // e.g. a cluster smaller than k₀ (spam)
        std::printf("| %s | %lld × %lld | %g | %lld x %lld refused: %s |\n", name, (long long)train.n,
                    (long long)train.d, gamma, (long long)c0, (long long)k0, e.what());
        before.bytes = 0;
    }
    const Measured before_nystrom =
        before.bytes == 0
            ? before
            : measure(o, k, train,
                      nystrom_options(kmx::ApproxMethod::nystrom, equal_memory_rank(train.n, train.d, before.bytes)));
    const Measured after = measure(o, k, train, meka_sizes(0, 0));
    const Measured after_nystrom = measure(
        o, k, train, nystrom_options(kmx::ApproxMethod::nystrom, equal_memory_rank(train.n, train.d, after.bytes)));
    std::printf(
        "| %s | %lld × %lld | %g | %s | %.1f | %.3g / %.3g = **%.2f** | %.2f / %.2f = %.1f | %s | %.1f | %.3g / %.3g = "
        "**%.2f** | %.2f / %.2f = %.1f |\n",
        name, (long long)train.n, (long long)train.d, gamma, before.sizes.c_str(), double(before.bytes) / 1e6,
        before.error, before_nystrom.error, before.error / before_nystrom.error, before.seconds, before_nystrom.seconds,
        before.seconds / before_nystrom.seconds, after.sizes.c_str(), double(after.bytes) / 1e6, after.error,
        after_nystrom.error, after.error / after_nystrom.error, after.seconds, after_nystrom.seconds,
        after.seconds / after_nystrom.seconds);
    std::fflush(stdout);
}

void one_file(const Options &o) {
    kmx::Context ctx;
    ctx.threads = o.threads;
    ctx.seed = o.seed;
    const auto data = kmx::read_dataset_file(ctx, o.file.c_str(), KMX_FORMAT_AUTO)->to_dense();
    kmx::ApproxOptions a = meka_sizes(o.clusters, o.rank);
    if (o.tau > -2) a.link_tolerance = o.tau;
    a.psd_repair = !o.no_psd;
    const Built b = build(o, rbf(o.gamma), *data, a);
    std::printf("error %.6g rank %lld bytes %zu seconds %.3f\n", b.approx->relative_error(ctx, *data, data->n),
                (long long)b.approx->rank(), b.approx->bytes(), b.seconds);
}

void auto_table(const Options &o) {
    if (o.no_reference) {
        std::printf(
            "| data | n × d | γ | c × k | MB | error: MEKA / Nyström = ratio | build CPU s: MEKA / Nyström = "
            "ratio |\n|---|---|---:|---|---:|---|---|\n");
    } else {
        std::printf(
            "| data | n × d | γ | before: c × k | MB | error: MEKA / Nyström = ratio | build CPU s: MEKA / Nyström = "
            "ratio | after: c × k | MB | error: MEKA / Nyström = ratio | build CPU s: MEKA / Nyström = ratio |\n");
        std::printf("|---|---|---:|---|---:|---|---|---|---:|---|---|\n");
    }
    for (const AutoSetting &s : kAutoSettings) {
        if (!o.only.empty() && o.only != s.name) continue;
        const bool digits16 = !std::strcmp(s.name, "digits16");
        if (digits16 && o.digits16.empty()) continue;
        const auto train = load_file(digits16 ? o.digits16 : o.data + "/" + s.name, s.name, s.task, "train");
        for (double gamma : s.gammas)
            if (gamma > 0 && (o.gamma <= 0 || o.gamma == gamma)) auto_row(o, s.name, *train, gamma);
    }
}

// y standardised for the fit; RMSE in the data's units.
double test_rmse(const kmx::CenterExpansion &e, const kmx::Dataset &test, double mean, double scale, int threads) {
    kmx::Context ctx;
    ctx.threads = threads;
    std::vector<double> out(size_t(test.n));
    kmx::center_expansion_predict(ctx, e, test, out.data());
    double sse = 0;
    for (int64_t i = 0; i < test.n; ++i) {
        const double diff = out[size_t(i)] * scale + mean - test.y[i];
        sse += diff * diff;
    }
    return std::sqrt(sse / double(test.n));
}

void krr_rows(const Options &o, const Setting &s, const kmx::Dataset &train, const kmx::Dataset &test, double gamma,
              double lambda) {
    double mean = 0, scale = 0;
    for (int64_t i = 0; i < train.n; ++i) mean += train.y[i] / double(train.n);
    for (int64_t i = 0; i < train.n; ++i) scale += (train.y[i] - mean) * (train.y[i] - mean) / double(train.n);
    scale = std::sqrt(scale);
    std::vector<double> y(size_t(train.n));
    for (int64_t i = 0; i < train.n; ++i) y[size_t(i)] = (train.y[i] - mean) / scale;
    const kmx::KrrTargets targets = kmx::krr_targets(y.data(), train.n, kmx::KrrTask::regression);
    const kmx::KernelSpec k = rbf(gamma);
    Built meka = build(o, k, train, meka_options(s));
    const int64_t m = equal_memory_rank(train.n, train.d, meka.approx->bytes());
    for (kmx::ApproxMethod method :
         {kmx::ApproxMethod::nystrom, kmx::ApproxMethod::kmeans_nystrom, kmx::ApproxMethod::meka}) {
        Built b = method == kmx::ApproxMethod::meka ? std::move(meka) : build(o, k, train, nystrom_options(method, m));
        kmx::Context ctx;
        ctx.threads = o.threads;
        kmx::KrrOptions options;
        options.lambda = lambda;
        const auto start = std::chrono::steady_clock::now();
        const kmx::KrrFit fit = kmx::fit_krr_approx(ctx, *b.approx, targets, options);
        const double solve_seconds = seconds_since(start);
        std::printf("| %s | %g | %g | %s | %lld | %.1f | %.2f | %.2f | %.1f |\n", s.name, gamma, lambda,
                    method_name(method), (long long)b.approx->rank(), double(b.approx->bytes()) / 1e6, b.seconds,
                    solve_seconds, test_rmse(fit.expansion, test, mean, scale, o.threads));
        std::fflush(stdout);
    }
}

Options parse(int argc, char **argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const bool has_value = i + 1 < argc;
        if (!std::strcmp(argv[i], "--data") && has_value)
            o.data = argv[++i];
        else if (!std::strcmp(argv[i], "--threads") && has_value)
            o.threads = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--sample-rows") && has_value)
            o.sample_rows = std::atoll(argv[++i]);
        else if (!std::strcmp(argv[i], "--only") && has_value)
            o.only = argv[++i];
        else if (!std::strcmp(argv[i], "--gamma") && has_value)
            o.gamma = std::atof(argv[++i]);
        else if (!std::strcmp(argv[i], "--clusters") && has_value)
            o.clusters = std::atoll(argv[++i]);
        else if (!std::strcmp(argv[i], "--rank") && has_value)
            o.rank = std::atoll(argv[++i]);
        else if (!std::strcmp(argv[i], "--rho") && has_value)
            o.rho = std::atof(argv[++i]);
        else if (!std::strcmp(argv[i], "--eps") && has_value)
            o.eps = std::atof(argv[++i]);
        else if (!std::strcmp(argv[i], "--tau") && has_value)
            o.tau = std::atof(argv[++i]);
        else if (!std::strcmp(argv[i], "--seed") && has_value)
            o.seed = std::strtoull(argv[++i], nullptr, 10);
        else if (!std::strcmp(argv[i], "--no-krr"))
            o.no_krr = true;
        else if (!std::strcmp(argv[i], "--no-psd"))
            o.no_psd = true;
        else if (!std::strcmp(argv[i], "--file") && has_value)
            o.file = argv[++i];
        else if (!std::strcmp(argv[i], "--auto"))
            o.automatic = true;
        else if (!std::strcmp(argv[i], "--no-reference"))
            o.no_reference = true;
        else if (!std::strcmp(argv[i], "--digits16") && has_value)
            o.digits16 = argv[++i];
        else {
            std::fprintf(stderr,
                         "usage: %s [--data DIR] [--threads T] [--sample-rows R] [--only NAME] [--gamma G] "
                         "[--clusters C] [--rank K] [--rho R] [--eps E] [--tau T] [--seed S] [--no-krr] [--auto] "
                         "[--no-reference] [--digits16 DIR] [--file PATH] [--no-psd]\n",
                         argv[0]);
            std::exit(2);
        }
    }
    return o;
}

}  // namespace

int main(int argc, char **argv) {
    const Options o = parse(argc, argv);
    g_options = o;
    try {
        if (o.automatic) {
            auto_table(o);
            return 0;
        }
        if (!o.file.empty()) {
            one_file(o);
            return 0;
        }
        std::printf("| data | n | γ | method | c x k / m | rank | memory MB | build s | rel. error |\n");
        std::printf("|---|---:|---:|---|---:|---:|---:|---:|---:|\n");
        for (const Setting &s : kSettings)
            if (o.only.empty() || o.only == s.name) approximation_rows(o, s, *load(o, s, "train"));
        if (!o.no_krr && (o.only.empty() || o.only == "diamonds")) {
            const Setting &s = kSettings[2];
            std::printf("\n| data | γ | λ | method | rank | memory MB | build s | solve s | test RMSE |\n");
            std::printf("|---|---:|---:|---|---:|---:|---:|---:|---:|\n");
            const auto train = load(o, s, "train"), test = load(o, s, "test");
            for (double lambda : {1e-5, 1e-7})
                krr_rows(o, s, *train, *test, o.gamma > 0 ? o.gamma : s.gammas[1], lambda);
        }
    } catch (const kmx::Error &e) {
        std::fprintf(stderr, "bench_meka: %s\n", e.what());
        return 1;
    }
    return 0;
}
