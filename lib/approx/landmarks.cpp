// landmarks.cpp — the m points a Nyström approximation expands over: uniform
// rows, (weighted) k-means centroids, leverage-score rows, or given points.
#include "landmarks.h"

#include <algorithm>
#include <cmath>
#include <unordered_set>

#include "cluster/kmeans.h"
#include "core/context.h"
#include "core/dataset.h"
#include "core/error.h"
#include "core/rng.h"
#include "leverage_scores.h"

namespace kmx {

std::vector<int64_t> sample_rows(Rng &rng, int64_t n, int64_t m) {
    require(m >= 0 && m <= n, "sample_rows: m must be in [0, n]");
    std::vector<int64_t> rows;
    if (m * 4 >= n) {  // dense draw: partial Fisher–Yates over all indices
        std::vector<int64_t> all(static_cast<size_t>(n));
        for (int64_t i = 0; i < n; ++i) all[size_t(i)] = i;
        for (int64_t i = 0; i < m; ++i) std::swap(all[size_t(i)], all[size_t(i + int64_t(rng.below(uint64_t(n - i))))]);
        rows.assign(all.begin(), all.begin() + m);
    } else {  // sparse draw: Floyd's algorithm
        std::unordered_set<int64_t> chosen;
        for (int64_t j = n - m; j < n; ++j) {
            const int64_t t = int64_t(rng.below(uint64_t(j + 1)));
            chosen.insert(chosen.count(t) ? j : t);
        }
        rows.assign(chosen.begin(), chosen.end());
    }
    std::sort(rows.begin(), rows.end());
    return rows;
}

namespace {

Landmarks uniform_landmarks(Context &ctx, const Dataset &data, int64_t m) {
    ctx.check_budget(size_t(m) * size_t(data.d + 1) * sizeof(double), "uniform landmarks");
    Rng rng(ctx.seed);
    Landmarks result;
    result.m = m;
    result.d = data.d;
    result.rows = sample_rows(rng, data.n, m);
    result.points.resize(size_t(m * data.d));
    gather_rows(data, result.rows.data(), m, result.points.data());
    return result;
}

void check_weights(const double *weights, int64_t n) {
    require(weights != nullptr, "weighted_kmeans landmarks need weights");
    double total = 0;
    for (int64_t i = 0; i < n; ++i) {
        if (!std::isfinite(weights[i]) || weights[i] < 0)
            fail(KMX_E_INVALID_ARGUMENT, "landmark weight %lld is negative or not finite", (long long)i);
        total += weights[i];
    }
    require(total > 0, "landmark weights are all zero");
}

// Centroids of (weighted) k-means; clusters that end empty are dropped.
Landmarks kmeans_landmarks(Context &ctx, const Dataset &data, const LandmarkOptions &options, const double *weights) {
    const int64_t m = options.m, d = data.d;
    Dataset view = data.view();  // the same rows, with the caller's weights
    view.w = weights;
    ctx.check_budget(size_t(m * d) * sizeof(double) + size_t(data.n) * sizeof(int32_t), "k-means landmarks");
    Arena scratch = ctx.reserve(kmeans_workspace_bytes(view, m, ctx.threads), "k-means landmarks scratch");
    KMeansOptions kmeans_options;
    kmeans_options.k = m;
    kmeans_options.max_iter = std::max(1, options.kmeans_iterations);
    std::vector<double> centers(static_cast<size_t>(m * d));
    std::vector<int32_t> assignment(static_cast<size_t>(data.n));
    kmeans(ctx, scratch, view, kmeans_options, centers.data(), assignment.data());

    std::vector<int64_t> members(static_cast<size_t>(m), 0);
    for (int32_t a : assignment) ++members[size_t(a)];
    Landmarks result;
    result.d = d;
    for (int64_t c = 0; c < m; ++c)
        if (members[size_t(c)] > 0)
            result.points.insert(result.points.end(), centers.begin() + c * d, centers.begin() + (c + 1) * d);
    result.m = int64_t(result.points.size()) / std::max<int64_t>(d, 1);
    return result;
}

Landmarks given_landmarks(const Dataset &data, const LandmarkOptions &options) {
    require(options.given != nullptr, "given landmarks: no points");
    check_finite(options.given, options.m, data.d, "given landmarks");
    Landmarks result;
    result.m = options.m;
    result.d = data.d;
    result.points.assign(options.given, options.given + options.m * data.d);
    return result;
}

}  // namespace

Landmarks select_landmarks(Context &ctx, const KernelSpec &kernel, const Dataset &data,
                           const LandmarkOptions &options) {
    require(data.n > 0 && data.d > 0, "landmarks: the dataset is empty");
    if (options.m < 1 || options.m > data.n)
        fail(KMX_E_INVALID_ARGUMENT, "landmarks: m=%lld must be in [1, n=%lld]", (long long)options.m,
             (long long)data.n);
    switch (options.method) {
        case LandmarkMethod::uniform:
            return uniform_landmarks(ctx, data, options.m);
        case LandmarkMethod::kmeans:
            return kmeans_landmarks(ctx, data, options, nullptr);
        case LandmarkMethod::weighted_kmeans:
            check_weights(options.weights, data.n);
            return kmeans_landmarks(ctx, data, options, options.weights);
        case LandmarkMethod::leverage:
            require(options.leverage_lambda > 0, "leverage landmarks need leverage_lambda > 0");
            return leverage_landmarks(ctx, kernel, data, options);
        case LandmarkMethod::given:
            return given_landmarks(data, options);
    }
    fail(KMX_E_INVALID_ARGUMENT, "landmarks: unknown method %d", int(options.method));
}

}  // namespace kmx
