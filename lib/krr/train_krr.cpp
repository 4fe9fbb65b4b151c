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
#include "expansion_model.h"
#include "falkon.h"
#include "krr.h"

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

Model train_krr_model(Context &ctx, const TrainOptions &options, const KernelSpec &kernel, const Dataset &data) {
    if (!data.y) fail(KMX_E_INVALID_ARGUMENT, "the training data has no labels or targets");
    if (!(options.lambda > 0) || !std::isfinite(options.lambda))
        fail(KMX_E_INVALID_ARGUMENT, "parameter lambda = %g must be positive and finite", options.lambda);
    const auto start = std::chrono::steady_clock::now();
    const KrrTargets targets = krr_targets(data.y, data.n, resolve_task(options.task, data.y, data.n));
    KernelSpec resolved = kernel;
    resolved.gamma = kernel.gamma_for(data.d);
    TrainStats stats;
    CenterExpansion expansion;
    if (options.method == KMX_METHOD_FALKON) {
        FalkonStats falkon;
        expansion = falkon_fit(ctx, resolved, data, targets, falkon_options(options, data.n), &falkon);
        stats.iterations = falkon.iterations;
    } else {
        KrrFit fit = fit_krr(ctx, resolved, data, targets, krr_options(options, data.n));
        stats.iterations = fit.cg_iterations;
        expansion = std::move(fit.expansion);
    }
    Model model = model_from_expansion(expansion, targets, options.method, options.lambda);
    stats.seconds = seconds_since(start);
    model.stats = stats;
    return model;
}

}  // namespace kmx
