// landmarks.cpp — the m points a Nyström approximation expands over: uniform
// rows, (weighted) k-means centroids, leverage-score rows, or given points.
#include "landmarks.h"

#include <algorithm>
#include <cmath>
#include <memory>
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

int64_t kmeans_sample_size(int64_t n, int64_t m) { return std::min(n, kKMeansRowsPerLandmark * m); }

namespace {

Landmarks uniform_landmarks(Context &ctx, const KernelSpec &kernel, const Dataset &data, int64_t m, bool keep_sparse) {
    Rng rng(ctx.seed);
    Landmarks result;
    result.m = m;
    result.d = data.d;
    if (keep_sparse && kernel.on_features() && sparse_kernel_rows(data)) {
        result.rows = sample_rows(rng, data.n, m);
        result.csr.gather_csr(ctx, data, result.rows.data(), m, "uniform landmarks");
        return result;
    }
    ctx.check_budget(size_t(m) * size_t(data.d + 1) * sizeof(double), "uniform landmarks");
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

// The rows k-means may draw from: those of positive weight (all without weights).
std::vector<int64_t> candidate_rows(const Dataset &data, const double *weights) {
    std::vector<int64_t> rows;
    for (int64_t i = 0; i < data.n; ++i)
        if (!weights || weights[i] > 0) rows.push_back(i);
    return rows;
}

// `draws` of the candidate rows uniformly, and the seed rows, in increasing order.
std::vector<int64_t> sample_with_seeds(Rng &rng, const std::vector<int64_t> &candidates, int64_t draws,
                                       const std::vector<int64_t> &seed_rows) {
    std::vector<int64_t> rows = sample_rows(rng, int64_t(candidates.size()), draws);
    for (int64_t &row : rows) row = candidates[size_t(row)];
    rows.insert(rows.end(), seed_rows.begin(), seed_rows.end());
    std::sort(rows.begin(), rows.end());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    return rows;
}

// The k-means sample: its rows (dense copies) and their weights (if any).
struct KMeansSample {
    std::vector<double> points, weights;
    std::unique_ptr<Dataset> rows;
};

KMeansSample gather_sample(Context &ctx, const Dataset &data, const double *weights, const std::vector<int64_t> &rows) {
    const int64_t count = int64_t(rows.size());
    ctx.check_budget(size_t(count) * size_t(data.d + 1) * sizeof(double), "k-means landmarks: the sample");
    KMeansSample sample;
    sample.points.resize(size_t(count * data.d));
    gather_rows(data, rows.data(), count, sample.points.data());
    if (weights)
        for (int64_t row : rows) sample.weights.push_back(weights[row]);
    sample.rows = Dataset::dense_borrow(sample.points.data(), count, data.d, nullptr);
    if (weights) sample.rows->w = sample.weights.data();
    return sample;
}

// Seeds m centers on every row (D² in rounds: rows far from the rest, the
// rare ones too, get centers) and returns a uniform sample of `draws` rows
// with those seed rows added; seeds (m x d) gets the centers.
KMeansSample seeded_sample(Context &ctx, const Dataset &all, const KMeansOptions &options, int64_t draws,
                           std::vector<double> &seeds) {
    std::vector<int64_t> seed_rows(size_t(options.k));
    {
        Arena scratch =
            ctx.reserve(kmeans_seeds_workspace_bytes(all, options.k, ctx.threads), "k-means landmarks seeds");
        kmeans_seeds(ctx, scratch, all, options, seeds.data(), seed_rows.data());
    }
    Rng rng = Rng(ctx.seed).split(2);
    const std::vector<int64_t> rows = sample_with_seeds(rng, candidate_rows(all, all.w), draws, seed_rows);
    return gather_sample(ctx, all, all.w, rows);
}

// Lloyd iterations on `rows` (all rows, or a sample) into centers (m x d);
// returns how many rows each center ends with.
std::vector<int64_t> lloyd(Context &ctx, const Dataset &rows, const KMeansOptions &options, double *centers) {
    ctx.check_budget(size_t(rows.n) * sizeof(int32_t), "k-means landmarks: assignment");
    std::vector<int32_t> assignment(static_cast<size_t>(rows.n));
    Arena scratch = ctx.reserve(kmeans_workspace_bytes(rows, options.k, ctx.threads), "k-means landmarks scratch");
    kmeans(ctx, scratch, rows, options, centers, assignment.data());
    std::vector<int64_t> members(static_cast<size_t>(options.k), 0);
    for (int32_t a : assignment) ++members[size_t(a)];
    return members;
}

// Centroids of (weighted) k-means, at about the cost of the n x m kernel
// block: m centers seeded by D² sampling in rounds over every row, a few
// Lloyd iterations on a uniform sample of kmeans_sample_size rows (plus the
// seed rows), then one on every row. Each iteration lowers the k-means
// objective, which bounds the Nyström error (Zhang, Tsang & Kwok 2008).
// Clusters that end empty are dropped.
Landmarks kmeans_landmarks(Context &ctx, const Dataset &data, const LandmarkOptions &options, const double *weights) {
    const int64_t m = options.m, d = data.d;
    Dataset all = data.view();  // the same rows, with the caller's weights
    all.w = weights;
    const int64_t candidates = weights ? int64_t(candidate_rows(data, weights).size()) : data.n;
    const int64_t draws = options.kmeans_sample > 0 ? options.kmeans_sample : kmeans_sample_size(candidates, m);
    KMeansOptions kmeans_options;
    kmeans_options.k = m;
    kmeans_options.max_iter = std::max(1, options.kmeans_iterations);
    kmeans_options.seeding = KMeansSeeding::rounds;
    ctx.check_budget(size_t(2 * m * d) * sizeof(double), "k-means landmarks");
    std::vector<double> start(static_cast<size_t>(m * d)), centers(static_cast<size_t>(m * d));
    if (draws < candidates) {
        const KMeansSample sample = seeded_sample(ctx, all, kmeans_options, draws, start);
        kmeans_options.initial_centers = start.data();
        lloyd(ctx, *sample.rows, kmeans_options, centers.data());
        start = centers;
        kmeans_options.max_iter = 1;
    }
    const std::vector<int64_t> members = lloyd(ctx, all, kmeans_options, centers.data());
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

std::unique_ptr<Dataset> Landmarks::dataset() const {
    if (sparse()) return csr.view(m, d);
    return Dataset::dense_borrow(points.data(), m, d, nullptr);
}

Landmarks select_landmarks(Context &ctx, const KernelSpec &kernel, const Dataset &data,
                           const LandmarkOptions &options) {
    require(data.n > 0 && data.d > 0, "landmarks: the dataset is empty");
    if (options.m < 1 || options.m > data.n)
        fail(KMX_E_INVALID_ARGUMENT, "landmarks: m=%lld must be in [1, n=%lld]", (long long)options.m,
             (long long)data.n);
    switch (options.method) {
        case LandmarkMethod::uniform:
            return uniform_landmarks(ctx, kernel, data, options.m, options.keep_sparse);
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
