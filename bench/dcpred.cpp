// dcpred.cpp — DC-Pred++ compact predictors against the full kernel model
// and a linear model, on one train/test split (bench/run_dcpred.py runs it
// beside LIBSVM). The full model is kmx's DC-SVM (exact) with C and γ given;
// a model file passed with --model is loaded instead of trained (and written
// there when it does not exist yet).
//
// Prediction time per sample is measured one row at a time, as an edge device
// predicts: the linear model is a dot product per row (its weights from ridge
// regression on the labels, so its accuracy means something), the compact
// predictor is the library's prepared row predictor (CompactRowPredictor,
// what kmx_predictor_predict runs for rows one at a time) and the inference
// subset's kmx_infer_predict_r on the blob (an edge device's, a
// predictor-only binding's); each called through a non-inlined function per
// row, alternated, median of --repeat runs. The full model and the batched
// compact predictor are timed over the whole test set.
//
//   bench_dcpred TRAIN TEST --C 8 --gamma 16 [--model FILE] [--leaves K] [--top T]
//                [--landmarks M] [--pseudo P] [--kind auto|triangle|products|both]
//                [--estimate -1|0|1|2] [--refine ITERATIONS] [--gamma-scale S] [--repeat R] [--seed S]
//                [--max-bytes B | --max-bytes-fraction F] [--max-us T | --max-us-linear R]
// Prints key=value lines. With a budget (B bytes, or F × the model file's
// bytes; T µs per row, or R × the linear model's) it runs compress_to_budget
// instead of the storages: one `candidate=` line per explored predictor (knobs, bytes,
// validation µs and accuracy, test accuracy, within the budget), then the
// chosen one reported as `budget_*` like the others.
#include <kmx/kmx_infer.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "core/context.h"
#include "core/dataset.h"
#include "model/model_file.h"
#include "io/text_reader.h"
#include "linalg/linalg.h"
#include "predict/compact_predict.h"
#include "predict/compress_to_budget.h"
#include "predict/dcpred.h"
#include "predict/predictor_blob.h"
#include "predict/predictor_storage.h"
#include "model/model.h"
#include "svm/multiclass.h"

namespace {

struct Args {
    std::string train, test, model;
    double C = 8, gamma = 16;
    kmx::DcpredOptions dcpred;
    int repeat = 5;
    uint64_t seed = 1;
    kmx::PredictorBudget budget;
    double max_bytes_fraction = 0;
    double max_us_linear = 0;  // the time budget as a multiple of the linear model's µs per row
};

[[noreturn]] void usage() {
    std::fprintf(stderr,
                 "usage: bench_dcpred TRAIN TEST --C c --gamma g [--model FILE] [--leaves k] [--top t] "
                 "[--landmarks m] [--pseudo p] [--kind auto|triangle|products|both] [--estimate e] "
                 "[--submatrix s] [--repeat r] [--seed s]\n");
    std::exit(2);
}

Args parse(int argc, char **argv) {
    Args a;
    std::vector<std::string> positional;
    for (int i = 1; i < argc; ++i) {
        const std::string key = argv[i];
        if (key.rfind("--", 0) != 0) {
            positional.push_back(key);
            continue;
        }
        if (i + 1 >= argc) usage();
        const char *value = argv[++i];
        if (key == "--C")
            a.C = std::atof(value);
        else if (key == "--gamma")
            a.gamma = std::atof(value);
        else if (key == "--model")
            a.model = value;
        else if (key == "--leaves")
            a.dcpred.leaves = std::atoll(value);
        else if (key == "--top")
            a.dcpred.top = std::atoll(value);
        else if (key == "--landmarks")
            a.dcpred.landmarks = std::atoll(value);
        else if (key == "--pseudo")
            a.dcpred.pseudo = std::atoll(value);
        else if (key == "--estimate")
            a.dcpred.triangle_estimate = std::atoi(value);
        else if (key == "--submatrix")
            a.dcpred.submatrix = std::atoll(value);
        else if (key == "--fit")
            a.dcpred.fit = std::string(value) == "svm"     ? kmx::DcpredFit::svm
                           : std::string(value) == "model" ? kmx::DcpredFit::distill_model
                                                           : kmx::DcpredFit::distill_local;
        else if (key == "--ridge")
            a.dcpred.ridge = std::atof(value);
        else if (key == "--gamma-scale")
            a.dcpred.gamma_scale = std::atof(value);
        else if (key == "--refine")
            a.dcpred.refine_iterations = std::atoi(value);
        else if (key == "--overlap")
            a.dcpred.overlap = std::atoi(value) != 0;
        else if (key == "--repeat")
            a.repeat = std::max(1, std::atoi(value));
        else if (key == "--seed")
            a.seed = std::strtoull(value, nullptr, 10);
        else if (key == "--max-bytes")
            a.budget.max_bytes = std::atof(value);
        else if (key == "--max-bytes-fraction")
            a.max_bytes_fraction = std::atof(value);
        else if (key == "--max-us-linear")
            a.max_us_linear = std::atof(value);
        else if (key == "--max-us")
            a.budget.max_us = std::atof(value);
        else if (key == "--kind") {
            const std::string k = value;
            a.dcpred.pseudo_kind = k == "triangle"   ? kmx::PseudoKind::triangle
                                   : k == "products" ? kmx::PseudoKind::products
                                   : k == "both"     ? kmx::PseudoKind::both
                                                     : kmx::PseudoKind::automatic;
        } else
            usage();
    }
    if (positional.size() != 2) usage();
    a.train = positional[0];
    a.test = positional[1];
    a.dcpred.C = a.C;
    return a;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

bool file_exists(const std::string &path) {
    struct stat st;
    return !path.empty() && stat(path.c_str(), &st) == 0;
}

kmx::Model full_model(kmx::Context &ctx, const Args &a, const kmx::Dataset &train, double &train_seconds) {
    if (file_exists(a.model)) {
        train_seconds = 0;
        return kmx::load_model_file(a.model.c_str());
    }
    kmx::TrainOptions options;
    options.method = KMX_METHOD_DCSVM;
    options.C = a.C;
    kmx::KernelSpec kernel;
    kernel.type = KMX_KERNEL_RBF;
    kernel.gamma = a.gamma;
    const auto start = std::chrono::steady_clock::now();
    kmx::Model model = kmx::train_svm_model(ctx, options, kernel, train);
    train_seconds = seconds_since(start);
    if (!a.model.empty()) kmx::save_model_file(model, a.model.c_str());
    return model;
}

// The linear model: w = (XᵀX + λI)⁻¹ Xᵀy on [x, 1] (ridge regression on the ±1 labels).
struct Linear {
    std::vector<double> w;  // d weights, then the bias
};

Linear fit_linear(const kmx::Dataset &train) {
    const int64_t d = train.d, e = d + 1;
    std::vector<double> gram(size_t(e * e), 0.0), w(size_t(e), 0.0);
    for (int64_t i = 0; i < train.n; ++i) {
        const double *x = train.x + i * d;
        const double positive = train.y[i] > 0 ? 1.0 : -1.0;
        for (int64_t a = 0; a < e; ++a) {
            const double xa = a < d ? x[a] : 1.0;
            w[size_t(a)] += xa * positive;
            for (int64_t b = 0; b < e; ++b) gram[size_t(a * e + b)] += xa * (b < d ? x[b] : 1.0);
        }
    }
    for (int64_t a = 0; a < e; ++a) gram[size_t(a * e + a)] += 1e-6 * double(train.n);
    kmx::linalg::cholesky(kmx::linalg::Uplo::Lower, e, gram.data(), e);
    kmx::linalg::trsv(kmx::linalg::Uplo::Lower, kmx::linalg::Trans::No, e, gram.data(), e, w.data());
    kmx::linalg::trsv(kmx::linalg::Uplo::Lower, kmx::linalg::Trans::Yes, e, gram.data(), e, w.data());
    return {w};
}

__attribute__((noinline)) double linear_row(const Linear &model, const double *x, int64_t d) {
    double s = model.w[size_t(d)];
    for (int64_t f = 0; f < d; ++f) s += x[f] * model.w[size_t(f)];
    return s > 0 ? 1.0 : -1.0;
}

__attribute__((noinline)) double compact_row(const kmx::CompactRowPredictor &p, const double *x, double *o,
                                             double *scratch) {
    return p.predict(x, o, scratch);
}

// The predictor's blob opened by the inference subset, with its scratch.
struct InferenceRows {
    std::vector<unsigned char> blob;
    std::vector<double> arena, scratch;  // (doubles: 8-byte aligned)
    kmx_infer_predictor *p = nullptr;
    explicit InferenceRows(const kmx::CompactPredictor &predictor) : blob(kmx::write_predictor_blob(predictor)) {
        int64_t bytes = 0;
        if (kmx_infer_required_bytes(&bytes, blob.data(), int64_t(blob.size())) != KMX_INFER_OK) std::abort();
        arena.resize(size_t(bytes) / sizeof(double) + 1);
        if (kmx_infer_open(&p, blob.data(), int64_t(blob.size()), arena.data(), bytes) != KMX_INFER_OK) std::abort();
        scratch.resize(size_t(kmx_infer_scratch_bytes(p)) / sizeof(double) + 1);
    }
};

__attribute__((noinline)) double inference_row(InferenceRows &rows, const double *x, int64_t d) {
    double label = 0;
    kmx_infer_predict_r(&label, nullptr, 0, rows.p, x, d, rows.scratch.data(),
                        int64_t(rows.scratch.size() * sizeof(double)));
    return label;
}

double accuracy(const std::vector<double> &labels, const double *truth) {
    int64_t right = 0;
    for (size_t i = 0; i < labels.size(); ++i) right += labels[i] == truth[i];
    return double(right) / double(labels.size());
}

// Row-at-a-time seconds per sample of the linear and compact predictors
// (the library's row path and the inference subset): each repeat alternates
// them over chunks of 500 rows (so all see the same machine load), giving one
// time each and their ratios to the linear model's; medians over repeats.
struct RowTimes {
    double linear = 0, compact = 0, ratio = 0, inference = 0, inference_ratio = 0;
};

RowTimes time_rows(const Args &a, const kmx::Dataset &test, const Linear &linear, const kmx::CompactPredictor &p,
                   std::vector<double> &labels, std::vector<double> &inference_labels) {
    const kmx::CompactRowPredictor prepared(p);
    InferenceRows inference(p);
    std::vector<double> lin_labels(size_t(test.n)), scratch(prepared.scratch_size()), o(size_t(p.outputs));
    std::vector<double> lin_times, compact_times, ratios, inference_times, inference_ratios;
    labels.assign(size_t(test.n), 0.0);
    inference_labels.assign(size_t(test.n), 0.0);
    constexpr int64_t kChunk = 500;
    for (int r = 0; r < a.repeat; ++r) {
        double lin = 0, compact = 0, infer = 0;
        for (int64_t begin = 0; begin < test.n; begin += kChunk) {
            const int64_t end = std::min(test.n, begin + kChunk);
            auto start = std::chrono::steady_clock::now();
            for (int64_t i = begin; i < end; ++i)
                lin_labels[size_t(i)] = linear_row(linear, test.x + i * test.d, test.d);
            lin += seconds_since(start);
            start = std::chrono::steady_clock::now();
            for (int64_t i = begin; i < end; ++i)
                labels[size_t(i)] = compact_row(prepared, test.x + i * test.d, o.data(), scratch.data());
            compact += seconds_since(start);
            start = std::chrono::steady_clock::now();
            for (int64_t i = begin; i < end; ++i)
                inference_labels[size_t(i)] = inference_row(inference, test.x + i * test.d, test.d);
            infer += seconds_since(start);
        }
        lin_times.push_back(lin / double(test.n));
        compact_times.push_back(compact / double(test.n));
        ratios.push_back(compact / lin);
        inference_times.push_back(infer / double(test.n));
        inference_ratios.push_back(infer / lin);
    }
    std::printf("linear_accuracy=%.4f\n", accuracy(lin_labels, test.y));
    return {median(lin_times), median(compact_times), median(ratios), median(inference_times),
            median(inference_ratios)};
}

// The linear model's µs per row, one row at a time: the median of 21 passes
// over the test rows (as the budget search times its candidates).
double median_linear_us(const kmx::Dataset &test, const Linear &linear) {
    std::vector<double> passes;
    double sum = 0;
    for (int pass = 0; pass < 21; ++pass) {
        const auto start = std::chrono::steady_clock::now();
        for (int64_t i = 0; i < test.n; ++i) sum += linear_row(linear, test.x + i * test.d, test.d);
        passes.push_back(seconds_since(start) / double(test.n));
    }
    volatile double keep = sum;
    (void)keep;
    const double us = median(passes) * 1e6;
    std::printf("linear_median_us_per_sample=%.5f\n", us);
    return us;
}

void report_predictor(kmx::Context &ctx, const Args &a, const char *name, const kmx::CompactPredictor &p,
                      const kmx::Dataset &test, const Linear &linear) {
    std::vector<double> row_labels, inference_labels, batch_labels(size_t(test.n));
    const RowTimes rows = time_rows(a, test, linear, p, row_labels, inference_labels);
    std::vector<double> batch_times;
    for (int r = 0; r < a.repeat; ++r) {
        const auto start = std::chrono::steady_clock::now();
        kmx::compact_predict(ctx, p, test, nullptr, batch_labels.data());
        batch_times.push_back(seconds_since(start) / double(test.n));
    }
    int64_t features = 0, landmarks = 0;
    for (const kmx::PredictorLeaf &leaf : p.leaves) features += leaf.features(), landmarks += leaf.m;
    std::printf("%s_accuracy=%.4f\n%s_batch_accuracy=%.4f\n", name, accuracy(row_labels, test.y), name,
                accuracy(batch_labels, test.y));
    std::printf("%s_leaves=%zu\n%s_mean_landmarks=%.1f\n%s_mean_features=%.1f\n%s_triangle_estimate=%d\n", name,
                p.leaves.size(), name, double(landmarks) / double(p.leaves.size()), name,
                double(features) / double(p.leaves.size()), name, int(p.triangle_estimate));
    std::printf("%s_bytes=%zu\n", name, kmx::compact_predictor_bytes(p, p.storage));
    std::printf("linear_us_per_sample=%.5f\n%s_row_us_per_sample=%.5f\n%s_batch_us_per_sample=%.5f\n",
                rows.linear * 1e6, name, rows.compact * 1e6, name, median(batch_times) * 1e6);
    std::printf("%s_row_vs_linear=%.2f\n%s_batch_vs_linear=%.2f\n", name, rows.ratio, name,
                median(batch_times) / rows.linear);
    std::printf("%s_inference_accuracy=%.4f\n%s_inference_row_us_per_sample=%.5f\n%s_inference_row_vs_linear=%.2f\n",
                name, accuracy(inference_labels, test.y), name, rows.inference * 1e6, name, rows.inference_ratio);
}

// The budget search: every candidate with its test accuracy, then the chosen one in full.
void run_budget(kmx::Context &ctx, const Args &a, const kmx::Model &model, const kmx::Dataset &train,
                const kmx::Dataset &test, const Linear &linear, const kmx::PredictorBudget &budget) {
    std::printf("budget_max_bytes=%.0f\nbudget_max_us=%g\n", budget.max_bytes, budget.max_us);
    std::vector<double> labels(size_t(test.n));
    const auto observe = [&](const kmx::BudgetCandidate &c, const kmx::CompactPredictor &p) {
        kmx::compact_predict(ctx, p, test, nullptr, labels.data());
        std::printf("candidate=%s,%lld,%lld,%lld,%zu,%.5f,%.5f,%.5f,%d,%g,%g\n",
                    kmx::storage_name(kmx::PredictorStorage(c.storage)), static_cast<long long>(c.leaves),
                    static_cast<long long>(c.landmarks), static_cast<long long>(c.pseudo), c.bytes, c.us, c.accuracy,
                    accuracy(labels, test.y), c.fits, c.gamma_scale, c.ridge_scale);
        std::fflush(stdout);
    };
    const auto start = std::chrono::steady_clock::now();
    const kmx::BudgetSearch r = kmx::compress_to_budget(ctx, model, train, a.dcpred, budget, observe);
    const kmx::BudgetCandidate &c = r.explored[r.chosen];
    std::printf("budget_search_seconds=%.3f\nbudget_chosen=%zu\nbudget_blob_bytes=%zu\n", seconds_since(start),
                r.chosen, r.blob.size());
    std::printf(
        "budget_validation_accuracy=%.5f\nbudget_folds_accuracy=%.5f\nbudget_validation_us=%.5f\n"
        "budget_landmarks=%lld\n",
        c.accuracy, c.folds_accuracy, c.us, static_cast<long long>(c.landmarks));
    report_predictor(ctx, a, "budget", r.predictor, test, linear);
}

}  // namespace

int main(int argc, char **argv) {
    const Args a = parse(argc, argv);
    kmx::Context ctx;
    ctx.seed = a.seed;
    const auto train = kmx::read_dataset_file(ctx, a.train.c_str(), KMX_FORMAT_AUTO)->to_dense();
    const auto test = kmx::read_dataset_file(ctx, a.test.c_str(), KMX_FORMAT_AUTO)->to_dense();
    double train_s = 0;
    const kmx::Model model = full_model(ctx, a, *train, train_s);
    std::printf("d=%lld\n", static_cast<long long>(train->d));
    std::printf("model_train_seconds=%.3f\nmodel_support_vectors=%lld\nmodel_bytes=%zu\n", train_s,
                static_cast<long long>(model.support_vectors), kmx::model_to_bytes(model).size());
    std::vector<double> full(size_t(test->n));
    std::vector<double> full_times;
    for (int r = 0; r < std::min(a.repeat, 3); ++r) {
        const auto start = std::chrono::steady_clock::now();
        kmx::model_predict(ctx, model, *test, full.data());
        full_times.push_back(seconds_since(start) / double(test->n));
    }
    std::printf("model_accuracy=%.4f\nmodel_us_per_sample=%.4f\n", accuracy(full, test->y), median(full_times) * 1e6);
    const Linear linear = fit_linear(*train);
    if (a.max_bytes_fraction > 0 || a.budget.max_bytes > 0 || a.budget.max_us > 0 || a.max_us_linear > 0) {
        kmx::PredictorBudget budget = a.budget;
        if (a.max_us_linear > 0) budget.max_us = a.max_us_linear * median_linear_us(*test, linear);
        if (a.max_bytes_fraction > 0)
            budget.max_bytes = std::floor(a.max_bytes_fraction * double(kmx::model_to_bytes(model).size()));
        run_budget(ctx, a, model, *train, *test, linear, budget);
        return 0;
    }
    kmx::DcpredOptions options = a.dcpred;
    const std::pair<kmx::PredictorStorage, const char *> storages[] = {{kmx::PredictorStorage::float64, "dcpred64"},
                                                                       {kmx::PredictorStorage::float32, "dcpred32"},
                                                                       {kmx::PredictorStorage::int16, "dcpred16"},
                                                                       {kmx::PredictorStorage::int8, "dcpred8"}};
    for (const auto &[storage, name] : storages) {
        options.storage = storage;
        const auto start = std::chrono::steady_clock::now();
        const kmx::CompactPredictor p = kmx::build_dcpred(ctx, model, *train, options);
        std::printf("%s_build_seconds=%.3f\n", name, seconds_since(start));
        report_predictor(ctx, a, name, p, *test, linear);
    }
    return 0;
}
