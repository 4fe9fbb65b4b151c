// falkon.cpp — one FALKON fit (and optionally exact KRR on the same data)
// with test error and times, as one JSON line for bench/run_falkon.py.
//
//   bench_falkon --train FILE --test FILE --task clf|reg --gamma G --lambda L --centers M
//                [--method uniform|kmeans|leverage] [--iterations T] [--tolerance TOL]
//                [--threads N] [--exact] [--rows R] [--cache-mb MB] [--validation F] [--patience P]
//   bench_falkon --synthetic N D CLASSES ...   (fixed-seed Gaussian mixture, no files)
//
// Error: classification error rate (krr_label of the outputs) or, for
// regression, RMSE. Fit time includes choosing the centers; predict time is
// center_expansion_predict over the test rows.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <memory>
#include <string>
#include <vector>

#include "core/context.h"
#include "core/dataset.h"
#include "core/error.h"
#include "core/rng.h"
#include "io/text_reader.h"
#include "krr/falkon.h"
#include "krr/krr.h"

namespace {

struct Args {
    std::string train, test, task = "clf", method = "uniform";
    double gamma = 1, lambda = 1e-6, tolerance = 1e-7, validation = 0;
    int64_t centers = 1000, rows = 0, synthetic_n = 0, synthetic_d = 0, synthetic_classes = 0;
    int iterations = 20, threads = 1, patience = 3;
    double cache_mb = 0;
    bool exact = false;
};

Args parse(int argc, char **argv) {
    Args a;
    for (int i = 1; i < argc; ++i) {
        const std::string k = argv[i];
        auto next = [&]() -> const char * {
            if (i + 1 >= argc) kmx::fail(KMX_E_INVALID_ARGUMENT, "%s needs a value", k.c_str());
            return argv[++i];
        };
        if (k == "--train")
            a.train = next();
        else if (k == "--test")
            a.test = next();
        else if (k == "--task")
            a.task = next();
        else if (k == "--method")
            a.method = next();
        else if (k == "--gamma")
            a.gamma = std::atof(next());
        else if (k == "--lambda")
            a.lambda = std::atof(next());
        else if (k == "--tolerance")
            a.tolerance = std::atof(next());
        else if (k == "--centers")
            a.centers = std::atoll(next());
        else if (k == "--rows")
            a.rows = std::atoll(next());
        else if (k == "--iterations")
            a.iterations = std::atoi(next());
        else if (k == "--threads")
            a.threads = std::atoi(next());
        else if (k == "--cache-mb")
            a.cache_mb = std::atof(next());
        else if (k == "--validation")
            a.validation = std::atof(next());
        else if (k == "--patience")
            a.patience = std::atoi(next());
        else if (k == "--exact")
            a.exact = true;
        else if (k == "--synthetic") {
            a.synthetic_n = std::atoll(next());
            a.synthetic_d = std::atoll(next());
            a.synthetic_classes = std::atoll(next());
        } else
            kmx::fail(KMX_E_INVALID_ARGUMENT, "unknown option %s", k.c_str());
    }
    return a;
}

// Processor time of the whole process (all threads): robust on a shared machine.
double cpu_seconds() { return double(std::clock()) / CLOCKS_PER_SEC; }

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::unique_ptr<kmx::Dataset> load(kmx::Context &ctx, const std::string &path, int64_t rows) {
    const auto all = kmx::read_dataset_file(ctx, path.c_str(), KMX_FORMAT_AUTO);
    const auto dense = all->to_dense();
    const int64_t n = rows > 0 && rows < dense->n ? rows : dense->n;
    return kmx::Dataset::dense_copy(dense->x, n, dense->d, dense->y);
}

// A fixed-seed Gaussian mixture: class c around a random center in [0,1]^d
// (the centers come from `center_seed`, shared by the training and test sets).
struct Synthetic {
    std::vector<double> x, y;
    std::unique_ptr<kmx::Dataset> data;
};
Synthetic synthetic(int64_t n, int64_t d, int64_t classes, uint64_t center_seed, uint64_t seed) {
    kmx::Rng center_rng(center_seed), rng(seed);
    std::vector<double> centers(size_t(classes * d));
    for (double &v : centers) v = center_rng.uniform();
    Synthetic s;
    s.x.resize(size_t(n * d));
    s.y.resize(size_t(n));
    for (int64_t i = 0; i < n; ++i) {
        const int64_t c = int64_t(rng.below(uint64_t(classes)));
        s.y[size_t(i)] = double(c);
        for (int64_t j = 0; j < d; ++j) {
            const double u = 1.0 - rng.uniform(),
                         g = std::sqrt(-2 * std::log(u)) * std::cos(6.283185307 * rng.uniform());
            s.x[size_t(i * d + j)] = centers[size_t(c * d + j)] + 0.35 * g;
        }
    }
    s.data = kmx::Dataset::dense_borrow(s.x.data(), n, d, s.y.data());
    return s;
}

kmx::LandmarkMethod method_of(const std::string &name) {
    if (name == "kmeans") return kmx::LandmarkMethod::kmeans;
    if (name == "leverage") return kmx::LandmarkMethod::leverage;
    return kmx::LandmarkMethod::uniform;
}

// Error rate (classification) or RMSE (regression) of an expansion on `test`.
double test_error(kmx::Context &ctx, const kmx::CenterExpansion &f, const kmx::KrrTargets &t, const kmx::Dataset &test,
                  double *predict_seconds) {
    std::vector<double> out(size_t(test.n * f.outputs));
    const auto t0 = std::chrono::steady_clock::now();
    kmx::center_expansion_predict(ctx, f, test, out.data());
    *predict_seconds = seconds_since(t0);
    double total = 0;
    for (int64_t i = 0; i < test.n; ++i) {
        const double label = kmx::krr_label(t, out.data() + i * f.outputs);
        total += t.task == kmx::KrrTask::classification ? double(label != test.y[i])
                                                        : (label - test.y[i]) * (label - test.y[i]);
    }
    total /= double(test.n);
    return t.task == kmx::KrrTask::classification ? total : std::sqrt(total);
}

int run(const Args &a) {
    kmx::Context ctx;
    ctx.threads = a.threads;
    ctx.seed = 1;
    Synthetic train_s, test_s;
    std::unique_ptr<kmx::Dataset> train_f, test_f;
    if (a.synthetic_n > 0) {
        train_s = synthetic(a.synthetic_n, a.synthetic_d, a.synthetic_classes, 41, 42);
        test_s = synthetic(a.synthetic_n / 6, a.synthetic_d, a.synthetic_classes, 41, 43);
    } else {
        train_f = load(ctx, a.train, a.rows);
        test_f = load(ctx, a.test, 0);
    }
    const kmx::Dataset &train = train_f ? *train_f : *train_s.data, &test = test_f ? *test_f : *test_s.data;
    const kmx::KrrTask task = a.task == "reg" ? kmx::KrrTask::regression : kmx::KrrTask::classification;
    const kmx::KrrTargets targets = kmx::krr_targets(train.y, train.n, task);
    kmx::KernelSpec kernel;
    kernel.type = KMX_KERNEL_RBF;
    kernel.gamma = a.gamma;

    kmx::FalkonOptions o;
    o.centers = a.centers;
    o.lambda = a.lambda;
    o.center_method = method_of(a.method);
    o.iterations = a.iterations;
    o.tolerance = a.tolerance;
    o.kernel_cache_bytes = size_t(a.cache_mb * 1048576.0);
    o.validation_fraction = a.validation;
    o.patience = a.patience;
    kmx::FalkonStats stats;
    ctx.begin_call();
    const double cpu0 = cpu_seconds();
    const kmx::CenterExpansion f = kmx::falkon_fit(ctx, kernel, train, targets, o, &stats);
    const double falkon_cpu = cpu_seconds() - cpu0;
    double predict_seconds = 0;
    const double error = test_error(ctx, f, targets, test, &predict_seconds);
    std::printf(
        "{\"n\": %lld, \"d\": %lld, \"outputs\": %lld, \"M\": %lld, \"falkon_error\": %.6g, "
        "\"falkon_seconds\": %.4g, \"falkon_cpu\": %.4g, \"center_seconds\": %.4g, \"predict_seconds\": %.4g, "
        "\"iterations\": %d, \"best_iteration\": %d, "
        "\"condition\": %.4g, \"rank\": %lld, \"workspace_bytes\": %zu, \"peak_bytes\": %zu",
        (long long)train.n, (long long)train.d, (long long)f.outputs, (long long)f.m, error, stats.seconds, falkon_cpu,
        stats.center_seconds, predict_seconds, stats.iterations, stats.best_iteration, stats.condition_estimate, (long long)stats.rank,
        stats.workspace_bytes, stats.peak_bytes);
    if (a.exact) {
        ctx.begin_call();
        const auto t0 = std::chrono::steady_clock::now();
        const double exact_cpu0 = cpu_seconds();
        const kmx::CenterExpansion exact = kmx::fit_krr_exact(ctx, kernel, train, targets, a.lambda);
        const double exact_seconds = seconds_since(t0), exact_cpu = cpu_seconds() - exact_cpu0;
        std::printf(", \"exact_error\": %.6g, \"exact_seconds\": %.4g, \"exact_cpu\": %.4g",
                    test_error(ctx, exact, targets, test, &predict_seconds), exact_seconds, exact_cpu);
    }
    std::printf("}\n");
    return 0;
}

}  // namespace

int main(int argc, char **argv) {
    try {
        return run(parse(argc, argv));
    } catch (const std::exception &e) {
        std::fprintf(stderr, "bench_falkon: %s\n", e.what());
        return 1;
    }
}
