#include "cross_validation.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>

#include "core/context.h"
#include "core/dataset.h"
#include "core/error.h"
#include "core/parallel.h"
#include "core/rng.h"
#include "core/row_subset.h"
#include "core/step_context.h"
#include "krr/krr_path_cache.h"
#include "krr/train_krr.h"
#include "libsvm_folds.h"
#include "model/model.h"
#include "svm/multiclass.h"
#include "train.h"

namespace kmx {

namespace {

// Fisher–Yates with the library's seeded generator.
void shuffle(std::vector<int64_t> &rows, Rng &rng) {
    for (size_t i = rows.size(); i > 1; --i) std::swap(rows[i - 1], rows[size_t(rng.below(i))]);
}

// Runs of `rows` as near-equal as can be: run f is [f·m/k, (f+1)·m/k).
void cut_into_folds(const std::vector<int64_t> &rows, int folds, std::vector<int> &fold_of) {
    const int64_t m = int64_t(rows.size());
    for (int f = 0; f < folds; ++f)
        for (int64_t i = f * m / folds; i < (f + 1) * m / folds; ++i) fold_of[size_t(rows[size_t(i)])] = f;
}

// Each fold's rows (increasing), and the rows of the other folds.
struct FoldRows {
    std::vector<int64_t> held_out, training;
};
FoldRows rows_of_fold(const std::vector<int> &fold_of, int fold) {
    FoldRows rows;
    for (size_t i = 0; i < fold_of.size(); ++i)
        (fold_of[i] == fold ? rows.held_out : rows.training).push_back(int64_t(i));
    return rows;
}

void check_folds(const Dataset &data, int64_t folds) {
    if (!data.y) fail(KMX_E_INVALID_ARGUMENT, "cross-validation needs labels or targets: the data has none");
    if (folds < 2) fail(KMX_E_INVALID_ARGUMENT, "cross-validation needs at least 2 folds, not %lld", (long long)folds);
    if (folds > data.n)
        fail(KMX_E_INVALID_ARGUMENT, "%lld folds need at least %lld rows; the data has %lld", (long long)folds,
             (long long)folds, (long long)data.n);
    if (folds > INT32_MAX) fail(KMX_E_INVALID_ARGUMENT, "%lld folds: at most 2^31 - 1", (long long)folds);
}

void check_path(const ValuePath &path) {
    if (path.param != 0 && path.param != KMX_PARAM_C && path.param != KMX_PARAM_LAMBDA)
        fail(KMX_E_INVALID_ARGUMENT, "cross-validation goes along C or lambda, not parameter %d", int(path.param));
    if (path.values.empty())
        fail(KMX_E_INVALID_ARGUMENT, "cross-validation along %s needs at least one value",
             path.param == KMX_PARAM_C ? "C" : "lambda");
    for (double value : path.values)
        if (path.param != 0 && !(value > 0 && std::isfinite(value)))
            fail(KMX_E_INVALID_ARGUMENT, "%s = %g: the values of a cross-validation path must be positive and finite",
                 path.param == KMX_PARAM_C ? "C" : "lambda", value);
}

// Options with `param` (C or lambda; 0: none) set to value.
TrainOptions with_value(TrainOptions options, kmx_param param, double value) {
    if (param == KMX_PARAM_C) options.C = value;
    if (param == KMX_PARAM_LAMBDA) options.lambda = value;
    return options;
}

// The order to train a path's values in: increasing, so that each SVM
// solution is a feasible warm start for the next (a larger C).
std::vector<size_t> increasing_order(const ValuePath &path) {
    std::vector<size_t> order(path.values.size());
    for (size_t v = 0; v < order.size(); ++v) order[v] = v;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return path.values[a] < path.values[b]; });
    return order;
}

// Trains on the other folds, once per value of the path (warm started along
// increasing C), and predicts fold `fold`'s rows into out (value v's at
// out + v·n); the task of the models it trained.
kmx_task run_fold(Context &worker, const TrainOptions &options, const KernelSpec &kernel, const Dataset &data,
                  const std::vector<int> &fold_of, int fold, const ValuePath &path, double *out) {
    const FoldRows rows = rows_of_fold(fold_of, fold);
    const std::unique_ptr<Dataset> held_out = copy_row_subset(
        worker, data, rows.held_out.data(), int64_t(rows.held_out.size()), "the held-out rows of one fold");
    const std::unique_ptr<Dataset> training = copy_row_subset(
        worker, data, rows.training.data(), int64_t(rows.training.size()), "the training rows of one fold");
    SvmWarmStart warm;
    KrrPathCache krr_path(path.values.size());  // what the KRR methods keep across lambda
    kmx_task task = KMX_TASK_CLASSIFICATION;
    std::vector<double> predicted(rows.held_out.size());
    for (size_t v : increasing_order(path)) {
        worker.begin_call();  // the copies are held: what the fold's training may use is what they leave
        const Model model =
            train(worker, with_value(options, path.param, path.values[v]), kernel, *training, &warm, &krr_path);
        worker.begin_call();
        model_predict(worker, model, *held_out, predicted.data());
        double *values_out = out + int64_t(v) * data.n;
        for (size_t i = 0; i < predicted.size(); ++i) values_out[rows.held_out[i]] = predicted[i];
        task = model.regression() ? KMX_TASK_REGRESSION : KMX_TASK_CLASSIFICATION;
    }
    return task;
}

// Folds that train at once: one per thread, as long as each worker's share
// of the budget holds a copy of the data twice over (its fold's rows and
// room to train on them).
int concurrent_folds(const Context &ctx, const Dataset &data, int folds) {
    const double copy = double(data.stored_bytes()), left = double(ctx.left_bytes());
    const int by_budget = copy > 0 ? int(std::min(left / (2 * copy), 1e6)) : folds;
    return std::max(1, std::min({folds, std::max(ctx.threads, 1), by_budget}));
}

}  // namespace

std::vector<int> cross_validation_folds(const double *y, int64_t n, int folds, bool stratified, uint64_t seed) {
    std::vector<int> fold_of(size_t(n), 0);
    Rng rng(seed);
    if (!stratified) {
        std::vector<int64_t> rows(static_cast<size_t>(n));
        for (int64_t i = 0; i < n; ++i) rows[size_t(i)] = i;
        shuffle(rows, rng);
        cut_into_folds(rows, folds, fold_of);
        return fold_of;
    }
    std::map<double, std::vector<int64_t>> rows_of_label;
    for (int64_t i = 0; i < n; ++i) rows_of_label[y[i]].push_back(i);
    for (auto &[label, rows] : rows_of_label) {
        shuffle(rows, rng);
        cut_into_folds(rows, folds, fold_of);
    }
    return fold_of;
}

bool stratified_folds_for(const TrainOptions &options, const Dataset &data) {
    if (options.method == KMX_METHOD_SVR || options.method == KMX_METHOD_ONE_CLASS) return false;
    if (options.method >= KMX_METHOD_KRR && options.method <= KMX_METHOD_NYSTROM_TRON)
        return resolve_task(options.task, data.y, data.n) == KrrTask::classification;
    return true;
}

kmx_task cross_validate(Context &ctx, const TrainOptions &options, const KernelSpec &kernel, const Dataset &data,
                        int64_t folds, double *out) {
    return cross_validate_path(ctx, options, kernel, data, folds, ValuePath{kmx_param(0), {0.0}}, out);
}

kmx_task cross_validate_path(Context &ctx, const TrainOptions &options, const KernelSpec &kernel, const Dataset &data,
                             int64_t fold_count, const ValuePath &path, double *out) {
    check_folds(data, fold_count);
    check_path(path);
    const int folds = int(fold_count);  // checked: fits
    const bool stratified = stratified_folds_for(options, data);
    const std::vector<int> fold_of = options.libsvm_folds
                                         ? libsvm_folds(data.y, data.n, folds, stratified)
                                         : cross_validation_folds(data.y, data.n, folds, stratified, ctx.seed);
    const int workers = concurrent_folds(ctx, data, folds);
    std::vector<std::unique_ptr<Context>> contexts = worker_contexts(ctx, workers);
    for (auto &worker : contexts) worker->memory_budget = ctx.left_bytes() / size_t(workers);
    std::vector<kmx_task> tasks(static_cast<size_t>(folds));
    for (int first = 0; first < folds; first += workers) {
        const int round = std::min(workers, folds - first);
        parallel_for(round, round, [&](int64_t w) {
            const int fold = first + int(w);
            try {
                tasks[size_t(fold)] = run_fold(*contexts[size_t(w)], options, kernel, data, fold_of, fold, path, out);
            } catch (const Error &e) {
                fail(e.status(), "fold %d of %d: %s", fold + 1, folds, e.what());
            }
        });
        ctx.progress(double(first + round) / folds, "cross-validation");
    }
    return tasks[0];
}

}  // namespace kmx
