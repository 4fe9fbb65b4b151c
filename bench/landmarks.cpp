// landmarks.cpp — Nyström landmark selection compared: uniform rows, k-means
// centroids and leverage-score rows, each timed alone and with the Nyström
// approximation built on it, and judged by that approximation's relative
// error ‖G − G̃‖_F / ‖G‖_F (estimated on the same R sampled rows for every
// method, as `kmx approx` does) and by the k-means objective Σ_i min_u ‖x_i − u‖²
// of the landmarks over all rows (which bounds the Nyström error).
//
//   bench_landmarks --data FILE --gamma G [--m M] [--threads T] [--sample-rows R]
//                   [--methods uniform,kmeans,leverage] [--lambda L]
//                   [--kmeans-sample S] [--kmeans-iterations I] [--seed S]
//
// M defaults to auto_centers(n) (what `kmx approx` takes); L (leverage
// scores' ridge, default 1e-6) is FALKON's λ; S and I override the k-means
// landmarks' sample rows and Lloyd iterations (0: the library's choice).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "approx/approx_defaults.h"
#include "approx/landmarks.h"
#include "approx/nystrom.h"
#include "cluster/kmeans.h"
#include "core/context.h"
#include "core/dataset.h"
#include "core/error.h"
#include "io/text_reader.h"
#include "linalg/blis_arch.h"

namespace {

struct Options {
    std::string data;
    double gamma = 0;
    int64_t m = 0;
    int threads = 1;
    int64_t sample_rows = 2000;
    std::string methods = "uniform,kmeans,leverage";
    double lambda = 1e-6;
    int64_t kmeans_sample = 0;
    int kmeans_iterations = 0;
    uint64_t seed = 0;
};

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void configure(const Options &o, kmx::Context &ctx) {
    ctx.threads = o.threads;
    ctx.seed = o.seed;
}

kmx::LandmarkOptions landmark_options(const Options &o, const std::string &method, int64_t m) {
    kmx::LandmarkOptions l;
    l.method = method == "kmeans"     ? kmx::LandmarkMethod::kmeans
               : method == "leverage" ? kmx::LandmarkMethod::leverage
                                      : kmx::LandmarkMethod::uniform;
    l.m = m;
    l.leverage_lambda = o.lambda;
    if (o.kmeans_sample > 0) l.kmeans_sample = o.kmeans_sample;
    if (o.kmeans_iterations > 0) l.kmeans_iterations = o.kmeans_iterations;
    return l;
}

// Σ_i min_u ‖x_i − u‖² over every row of data.
double kmeans_objective(const Options &o, const kmx::Dataset &data, const kmx::Landmarks &l) {
    kmx::Context ctx;
    configure(o, ctx);
    kmx::Arena scratch = ctx.reserve(kmx::kmeans_assign_workspace_bytes(data, l.m, ctx.threads), "objective");
    std::vector<int32_t> assignment(size_t(data.n));
    std::vector<double> sqdist(size_t(data.n));
    kmx::kmeans_assign(ctx, scratch, data, l.points.data(), l.m, assignment.data(), sqdist.data());
    return std::accumulate(sqdist.begin(), sqdist.end(), 0.0);
}

void compare(const Options &o, const kmx::Dataset &data, const std::string &method, int64_t m) {
    const kmx::KernelSpec kernel{KMX_KERNEL_RBF, o.gamma};
    kmx::Context ctx;
    configure(o, ctx);
    auto start = std::chrono::steady_clock::now();
    const kmx::Landmarks l = kmx::select_landmarks(ctx, kernel, data, landmark_options(o, method, m));
    const double select_seconds = seconds_since(start);
    kmx::NystromOptions nystrom;
    nystrom.landmarks.method = kmx::LandmarkMethod::given;
    nystrom.landmarks.m = l.m;
    nystrom.landmarks.given = l.points.data();
    start = std::chrono::steady_clock::now();
    const kmx::NystromApproximation approx(ctx, kernel, data, nystrom);
    const double build_seconds = seconds_since(start);
    const double error = approx.relative_error(ctx, data, o.sample_rows);
    const std::string name = o.data.substr(o.data.find_last_of('/') + 1);
    std::printf("| %s | %lld × %lld | %g | %s | %lld | %.3f | %.3f | %.3f | %.4g | %.4g |\n", name.c_str(),
                (long long)data.n, (long long)data.d, o.gamma, method.c_str(), (long long)l.m, select_seconds,
                build_seconds, select_seconds + build_seconds, error, kmeans_objective(o, data, l) / double(data.n));
    std::fflush(stdout);
}

[[noreturn]] void usage(const char *program) {
    std::fprintf(stderr,
                 "usage: %s --data FILE --gamma G [--m M] [--threads T] [--sample-rows R] [--methods LIST] "
                 "[--lambda L] [--kmeans-sample S] [--kmeans-iterations I] [--seed S]\n",
                 program);
    std::exit(2);
}

// Each option's setter from its value's text.
std::map<std::string, std::function<void(Options &, const char *)>> option_setters() {
    return {
        {"--data", [](Options &o, const char *v) { o.data = v; }},
        {"--gamma", [](Options &o, const char *v) { o.gamma = std::atof(v); }},
        {"--m", [](Options &o, const char *v) { o.m = std::atoll(v); }},
        {"--threads", [](Options &o, const char *v) { o.threads = std::atoi(v); }},
        {"--sample-rows", [](Options &o, const char *v) { o.sample_rows = std::atoll(v); }},
        {"--methods", [](Options &o, const char *v) { o.methods = v; }},
        {"--lambda", [](Options &o, const char *v) { o.lambda = std::atof(v); }},
        {"--kmeans-sample", [](Options &o, const char *v) { o.kmeans_sample = std::atoll(v); }},
        {"--kmeans-iterations", [](Options &o, const char *v) { o.kmeans_iterations = std::atoi(v); }},
        {"--seed", [](Options &o, const char *v) { o.seed = std::strtoull(v, nullptr, 10); }},
    };
}

Options parse(int argc, char **argv) {
    Options o;
    const auto setters = option_setters();
    for (int i = 1; i < argc; i += 2) {
        const auto setter = setters.find(argv[i]);
        if (setter == setters.end() || i + 1 >= argc) {
            o.data.clear();
            break;
        }
        setter->second(o, argv[i + 1]);
    }
    if (o.data.empty() || !(o.gamma > 0)) usage(argv[0]);
    return o;
}

// Every method of o.methods on o.data, one table row each.
void run(const Options &o) {
    kmx::Context ctx;
    configure(o, ctx);
    const auto data = kmx::read_dataset_file(ctx, o.data.c_str(), KMX_FORMAT_AUTO)->to_dense();
    const int64_t m = o.m > 0 ? o.m : kmx::auto_centers(data->n);
    for (std::string rest = o.methods; !rest.empty();) {
        const size_t comma = rest.find(',');
        compare(o, *data, rest.substr(0, comma), m);
        rest = comma == std::string::npos ? "" : rest.substr(comma + 1);
    }
    std::fprintf(stderr, "BLIS kernel set %s, %d thread(s)\n", kmx::linalg::kernel_set_in_use(), o.threads);
}

}  // namespace

int main(int argc, char **argv) {
    try {
        run(parse(argc, argv));
        return 0;
    } catch (const kmx::Error &e) {
        std::fprintf(stderr, "bench_landmarks: %s\n", e.what());
        return 1;
    }
}
