// train_krr.cpp — the KRR methods behind kmx_solver_train (see train_krr.h).
#include "train_krr.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <vector>

#include "approx/approx_defaults.h"
#include "core/context.h"
#include "core/dataset.h"
#include "core/error.h"
#include "core/row_shards.h"
#include "expansion_model.h"
#include "falkon.h"
#include "krr.h"
#include "krr_path_cache.h"

namespace kmx {

namespace {

LandmarkMethod landmark_method(kmx_center_method method) {
    switch (method) {
        case KMX_CENTERS_KMEANS:
            return LandmarkMethod::kmeans;
        case KMX_CENTERS_LEVERAGE:
            return LandmarkMethod::leverage;
        default:
            return LandmarkMethod::uniform;
    }
}

FalkonOptions falkon_options(const TrainOptions &o, int64_t n) {
    FalkonOptions f;
    f.centers = o.centers > 0 ? o.centers : auto_centers(n);
    f.lambda = o.lambda;
    f.center_method = landmark_method(o.center_method);
    f.iterations = o.iterations;
    f.tolerance = o.tolerance;
    f.validation_fraction = o.validation;
    f.auto_cache = true;                   // K_nM kept across passes as far as the budget allows,
    f.kernel_cache_bytes = o.cache_bytes;  // at most cache_size bytes of it if that is nonzero
    f.kernel_float32 = o.kernel_float32;
    f.reproducible_sums = o.reproducible;
    return f;
}

ApproxOptions approx_options(const TrainOptions &o, int64_t n) {
    ApproxOptions a;
    if (o.method == KMX_METHOD_MEKA_KRR) {
        a.method = ApproxMethod::meka;
        a.clusters = o.clusters > 0 ? o.clusters : auto_meka_clusters(n);
        a.rank = o.rank > 0 ? o.rank : auto_meka_rank(n, a.clusters);
        a.eps = o.threshold;
        a.rho = o.oversampling;
        a.proportional_rank = o.rank_by_size;
    } else {
        a.method = o.center_method == KMX_CENTERS_KMEANS ? ApproxMethod::kmeans_nystrom : ApproxMethod::nystrom;
        a.landmarks = o.centers > 0 ? o.centers : auto_centers(n);
        a.rank = o.rank;
        a.landmark_method = landmark_method(o.center_method);
        a.leverage_lambda = o.lambda;
    }
    return a;
}

KrrOptions krr_options(const TrainOptions &o, int64_t n) {
    KrrOptions k;
    k.lambda = o.lambda;
    switch (o.method) {
        case KMX_METHOD_KRR:
            k.method = KrrMethod::exact;
            break;
        case KMX_METHOD_MEKA_KRR:
            k.method = KrrMethod::meka;
            break;
        default:
            k.method = o.center_method == KMX_CENTERS_KMEANS ? KrrMethod::kmeans_nystrom : KrrMethod::nystrom;
    }
    if (o.method != KMX_METHOD_KRR) k.approx = approx_options(o, n);
    return k;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

KrrTask resolve_task(kmx_task task, const double *labels, int64_t n) {
    if (task == KMX_TASK_REGRESSION) return KrrTask::regression;
    if (task == KMX_TASK_CLASSIFICATION) return KrrTask::classification;
    std::vector<double> distinct;
    for (int64_t i = 0; i < n; ++i) {
        if (labels[i] != std::floor(labels[i])) return KrrTask::regression;
        distinct.push_back(labels[i]);
    }
    std::sort(distinct.begin(), distinct.end());
    const int64_t classes = int64_t(std::unique(distinct.begin(), distinct.end()) - distinct.begin());
    return classes > kAutoTaskMaxClasses ? KrrTask::regression : KrrTask::classification;
}

namespace {

void check_labels(const Dataset &data) {
    if (!data.y) fail(KMX_E_INVALID_ARGUMENT, "the training data has no labels or targets");
    for (int64_t i = 0; i < data.n; ++i)
        if (!std::isfinite(data.y[i])) fail(KMX_E_INVALID_ARGUMENT, "label/target %lld is not finite", (long long)i);
}

// The targets of this rank's rows, with the task and the classes resolved
// over every rank's labels (this process's alone when it is the only rank).
KrrTargets agreed_targets(const Communicator &comm, const Dataset &data, kmx_task task) {
    if (!comm.distributed()) return krr_targets(data.y, data.n, resolve_task(task, data.y, data.n));
    double fractional = 0;
    for (int64_t i = 0; i < data.n && fractional == 0; ++i) fractional = data.y[i] != std::floor(data.y[i]);
    comm.max(&fractional, 1);
    KrrTask resolved = KrrTask::classification;
    if (task == KMX_TASK_REGRESSION || (task == KMX_TASK_AUTO && fractional != 0)) resolved = KrrTask::regression;
    std::vector<double> classes;
    if (resolved == KrrTask::classification) {
        const int64_t limit = task == KMX_TASK_AUTO ? kAutoTaskMaxClasses : INT64_MAX;
        classes = agree_distinct_values(comm, data.y, data.n, limit);
        if (classes.empty() && task == KMX_TASK_AUTO) resolved = KrrTask::regression;  // over 256 distinct labels
    }
    return krr_targets(data.y, data.n, resolved, classes);
}

}  // namespace

Model train_krr_model(Context &ctx, const TrainOptions &options, const KernelSpec &kernel, const Dataset &data,
                      KrrPathCache *path) {
    if (!(options.lambda > 0) || !std::isfinite(options.lambda))
        fail(KMX_E_INVALID_ARGUMENT, "parameter lambda = %g must be positive and finite", options.lambda);
    if (ctx.comm.distributed() && options.method != KMX_METHOD_FALKON)
        fail(KMX_E_UNSUPPORTED, "this KRR method runs in one process only; across %d ranks use falkon or nystrom-tron",
             ctx.comm.size());
    const auto start = std::chrono::steady_clock::now();
    // Every rank's shape, then this rank's rows with every rank's columns.
    const RowShards shards = agree_row_shards(ctx.comm, data);
    std::unique_ptr<Dataset> widened;
    run_agreed(ctx.comm, [&] {
        check_labels(data);
        widened = widen_columns(ctx, data, shards.columns);
    });
    const Dataset &rows = widened ? *widened : data;
    const KrrTargets targets = agreed_targets(ctx.comm, rows, options.task);
    KernelSpec resolved = kernel;
    resolved.gamma = kernel.gamma_for(rows.d);
    TrainStats stats;
    CenterExpansion expansion;
    if (options.method == KMX_METHOD_FALKON) {
        FalkonStats falkon;
        expansion = falkon_fit(ctx, resolved, rows, targets, falkon_options(options, shards.total_rows), &falkon,
                               path ? path->falkon() : nullptr);
        stats.iterations = falkon.iterations;
    } else {
        const KrrOptions krr = krr_options(options, data.n);
        KrrFit fit = path ? path->fit(ctx, resolved, data, targets, krr) : fit_krr(ctx, resolved, data, targets, krr);
        stats.iterations = fit.cg_iterations;
        expansion = std::move(fit.expansion);
    }
    Model model = model_from_expansion(expansion, targets, options.method, options.lambda);
    stats.seconds = seconds_since(start);
    model.stats = stats;
    return model;
}

}  // namespace kmx
