// bench_predictor_probability — what probabilities cost and keep after
// compression (issue 16): an SVM trained with probability=1 on Letter's first
// --rows training rows (26 classes, one-vs-one: 325 sigmoids), compressed to a
// compact predictor (kmx's default: no larger than the model; or --params),
// then on every test row: labels and probabilities of the model and of the
// predictor (the C API, all rows at once) and of the inference subset (one
// row at a time, the caller's scratch), µs per row, best of 3 passes, one
// thread; and how far the predictor's probabilities are from the model's
// (largest and mean |Δp|, test log-loss, accuracy of the most probable
// class). Not a test: run build/bench/bench_predictor_probability
// [--data DIR] [--rows N] [--params "leaves=... landmarks=..."].
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "kmx/kmx.h"
#include "kmx/kmx_infer.h"

namespace {

void check(kmx_status status, const char *what) {
    if (status == KMX_OK) return;
    std::fprintf(stderr, "%s: %s\n", what, kmx_last_error());
    std::exit(1);
}

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The fastest of three runs of f, in µs per row.
template <class F>
double best_us(int64_t rows, F f) {
    double best = INFINITY;
    for (int pass = 0; pass < 3; ++pass) {
        const auto start = std::chrono::steady_clock::now();
        f();
        best = std::min(best, seconds_since(start));
    }
    return best / double(rows) * 1e6;
}

struct Quality {
    double log_loss = 0, accuracy = 0;
};

Quality quality(const std::vector<double> &p, const std::vector<double> &y, const std::vector<double> &classes) {
    const size_t k = classes.size(), n = y.size();
    Quality q;
    for (size_t i = 0; i < n; ++i) {
        const double *row = p.data() + i * k;
        const size_t truth = size_t(std::lower_bound(classes.begin(), classes.end(), y[i]) - classes.begin());
        q.log_loss -= std::log(std::max(row[truth], 1e-15)) / double(n);
        q.accuracy += (size_t(std::max_element(row, row + k) - row) == truth) / double(n);
    }
    return q;
}

}  // namespace

int main(int argc, char **argv) {
    std::string dir = "../shared/data", params;
    int64_t train_rows = 3000;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--data")) dir = argv[i + 1];
        if (!std::strcmp(argv[i], "--rows")) train_rows = std::atoll(argv[i + 1]);
        if (!std::strcmp(argv[i], "--params")) params = argv[i + 1];
    }
    kmx_context *ctx = nullptr;
    check(kmx_context_create(&ctx), "context");
    check(kmx_context_set_param(ctx, KMX_PARAM_THREADS, 1), "threads");
    check(kmx_context_set_param(ctx, KMX_PARAM_SEED, 1), "seed");
    kmx_dataset *all = nullptr, *test = nullptr, *train = nullptr;
    check(kmx_dataset_load(&all, ctx, (dir + "/letter/letter_mc.train.libsvm").c_str(), KMX_FORMAT_LIBSVM), "train");
    check(kmx_dataset_load(&test, ctx, (dir + "/letter/letter_mc.test.libsvm").c_str(), KMX_FORMAT_LIBSVM), "test");
    int64_t n = 0, d = 0, n_test = 0;
    check(kmx_dataset_rows(&n, all), "rows");
    check(kmx_dataset_cols(&d, all), "cols");
    check(kmx_dataset_rows(&n_test, test), "rows");
    train_rows = std::min(train_rows, n);
    std::vector<double> x(size_t(train_rows * d)), y(static_cast<size_t>(n)), xt(size_t(n_test * d)),
        yt(static_cast<size_t>(n_test));
    check(kmx_dataset_get_rows(x.data(), int64_t(x.size()), all, 0, train_rows), "rows");
    check(kmx_dataset_get_labels(y.data(), n, all), "labels");
    check(kmx_dataset_get_rows(xt.data(), int64_t(xt.size()), test, 0, n_test), "test rows");
    check(kmx_dataset_get_labels(yt.data(), n_test, test), "test labels");
    y.resize(size_t(train_rows));
    check(kmx_dataset_create(&train, x.data(), train_rows, d, y.data(), KMX_COPY), "train subset");

    kmx_kernel *kernel = nullptr;
    kmx_solver *solver = nullptr;
    kmx_model *model = nullptr;
    check(kmx_kernel_create_from_string(&kernel, "kernel=rbf gamma=2"), "kernel");
    check(kmx_solver_create_from_string(&solver, "method=svm C=8 probability=1"), "solver");
    auto start = std::chrono::steady_clock::now();
    check(kmx_solver_train(&model, ctx, solver, kernel, train), "train");
    const double train_s = seconds_since(start);
    kmx_predictor *predictor = nullptr;
    start = std::chrono::steady_clock::now();
    check(kmx_predictor_build(&predictor, ctx, model, train, params.c_str()), "compress");
    const double compress_s = seconds_since(start);

    double classes_count = 0, bytes = 0, arena = 0, outputs = 0;
    check(kmx_predictor_info(&classes_count, predictor, KMX_PREDICTOR_CLASSES), "info");
    check(kmx_predictor_info(&bytes, predictor, KMX_PREDICTOR_BYTES), "info");
    check(kmx_predictor_info(&arena, predictor, KMX_PREDICTOR_ARENA_BYTES), "info");
    check(kmx_predictor_info(&outputs, predictor, KMX_PREDICTOR_OUTPUTS), "info");
    const int64_t k = int64_t(classes_count);
    std::vector<double> classes(static_cast<size_t>(k)), labels(static_cast<size_t>(n_test));
    std::vector<double> model_p(size_t(n_test * k)), predictor_p(size_t(n_test * k)), subset_p(size_t(n_test * k));
    check(kmx_predictor_classes(classes.data(), k, predictor), "classes");

    const double model_label_us =
        best_us(n_test, [&] { check(kmx_model_predict(labels.data(), n_test, ctx, model, test), "predict"); });
    const double model_p_us = best_us(n_test, [&] {
        check(kmx_model_predict_probability(model_p.data(), n_test * k, ctx, model, test), "probability");
    });
    double model_accuracy = 0, predictor_accuracy = 0;
    for (int64_t i = 0; i < n_test; ++i) model_accuracy += (labels[size_t(i)] == yt[size_t(i)]) / double(n_test);
    const double predictor_label_us =
        best_us(n_test, [&] { check(kmx_predictor_predict(labels.data(), n_test, ctx, predictor, test), "predict"); });
    for (int64_t i = 0; i < n_test; ++i) predictor_accuracy += (labels[size_t(i)] == yt[size_t(i)]) / double(n_test);
    const double predictor_p_us = best_us(n_test, [&] {
        check(kmx_predictor_predict_probability(predictor_p.data(), n_test * k, ctx, predictor, test), "probability");
    });

    // The inference subset on the same blob, one row at a time.
    int64_t blob_bytes = 0;
    check(kmx_predictor_save_to_buffer(nullptr, 0, &blob_bytes, predictor), "blob size");
    std::vector<uint64_t> blob(size_t(blob_bytes) / 8 + 1), arena_words(size_t(arena) / 8 + 1);
    check(kmx_predictor_save_to_buffer(blob.data(), blob_bytes, &blob_bytes, predictor), "blob");
    kmx_infer_predictor *edge = nullptr;
    if (kmx_infer_open(&edge, blob.data(), blob_bytes, arena_words.data(), int64_t(arena)) != KMX_INFER_OK) return 1;
    double label = 0;
    const double subset_label_us = best_us(n_test, [&] {
        for (int64_t i = 0; i < n_test; ++i) kmx_infer_predict(&label, nullptr, 0, edge, xt.data() + i * d, d);
    });
    const double subset_p_us = best_us(n_test, [&] {
        for (int64_t i = 0; i < n_test; ++i)
            kmx_infer_predict_probability(subset_p.data() + i * k, k, edge, xt.data() + i * d, d);
    });

    double largest = 0, mean = 0, subset_gap = 0;
    for (size_t i = 0; i < model_p.size(); ++i) {
        largest = std::max(largest, std::fabs(predictor_p[i] - model_p[i]));
        mean += std::fabs(predictor_p[i] - model_p[i]) / double(model_p.size());
        subset_gap = std::max(subset_gap, std::fabs(subset_p[i] - predictor_p[i]));
    }
    const Quality mq = quality(model_p, yt, classes), pq = quality(predictor_p, yt, classes);
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    std::printf("letter_mc: %lld training rows, %lld test rows, %lld classes (%.0f sigmoids), one thread\n",
                (long long)train_rows, (long long)n_test, (long long)k, outputs);
    std::printf("train %.1f s (probability=1), compress %.1f s (params '%s'): %.0f bytes, arena %.0f bytes\n", train_s,
                compress_s, params.c_str(), bytes, arena);
    std::printf("us/row            labels   probabilities\n");
    std::printf("model         %9.2f %15.2f\n", model_label_us, model_p_us);
    std::printf("predictor     %9.2f %15.2f\n", predictor_label_us, predictor_p_us);
    std::printf("kmx_infer     %9.2f %15.2f   (one row at a time)\n", subset_label_us, subset_p_us);
    std::printf("test accuracy of the votes: model %.2f%%, predictor %.2f%%\n", 100 * model_accuracy,
                100 * predictor_accuracy);
    std::printf(
        "test log-loss: model %.4f, predictor %.4f; most probable class right: model %.2f%%, predictor "
        "%.2f%%\n",
        mq.log_loss, pq.log_loss, 100 * mq.accuracy, 100 * pq.accuracy);
    std::printf("|p_predictor - p_model|: largest %.3g, mean %.3g; |p_infer - p_predictor| largest %.3g\n", largest,
                mean, subset_gap);
    std::printf("peak memory (max RSS) %.1f MB\n", double(usage.ru_maxrss) / 1024);
    kmx_predictor_free(predictor);
    kmx_model_free(model);
    kmx_solver_free(solver);
    kmx_kernel_free(kernel);
    kmx_dataset_free(train);
    kmx_dataset_free(test);
    kmx_dataset_free(all);
    kmx_context_free(ctx);
    return 0;
}
