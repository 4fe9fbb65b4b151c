// k-means and k-means assignment (lib/cluster), white-box.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <tuple>
#include <memory>
#include <vector>

#include "cluster/distances.h"
#include "cluster/kmeans.h"
#include "core/context.h"
#include "core/dataset.h"
#include "core/error.h"
#include "core/rng.h"
#include "linalg/gemm_tiles.h"
#include "../common/blobs.h"

namespace {

using Points = test_common::BlobPoints;

Points blobs(int64_t n, int64_t d, int clusters, double spread, double noise, uint64_t seed) {
    return test_common::make_blob_points(n, d, clusters, spread, noise, seed);
}

std::unique_ptr<kmx::Dataset> dense(const Points &p) {
    return kmx::Dataset::dense_borrow(p.x.data(), p.n, p.d, nullptr);
}

// A CSR dataset holding the nonzeros of p (the arrays live beside it).
struct SparseData {
    std::vector<int64_t> row_ptr;
    std::vector<int32_t> col;
    std::vector<double> values;
    kmx::Dataset data;
};

std::unique_ptr<SparseData> sparse(const Points &p) {
    auto s = std::make_unique<SparseData>();
    s->row_ptr.push_back(0);
    for (int64_t i = 0; i < p.n; ++i) {
        for (int64_t j = 0; j < p.d; ++j) {
            const double v = p.x[size_t(i * p.d + j)];
            if (v == 0) continue;
            s->col.push_back(int32_t(j));
            s->values.push_back(v);
        }
        s->row_ptr.push_back(int64_t(s->values.size()));
    }
    s->data.n = p.n;
    s->data.d = p.d;
    s->data.row_ptr = s->row_ptr.data();
    s->data.col = s->col.data();
    s->data.values = s->values.data();
    return s;
}

// Zeroes about `fraction` of the entries, so that the data is worth storing sparse.
void sparsify(Points &p, double fraction, uint64_t seed) {
    kmx::Rng rng(seed);
    for (double &v : p.x)
        if (rng.uniform() < fraction) v = 0;
}

struct Clustering {
    std::vector<double> centers;
    std::vector<int32_t> assignment;
    std::vector<double> history;
    kmx::KMeansResult result;
    size_t arena_peak = 0;
};

struct RunOptions {
    int threads = 1;
    uint64_t seed = 1;
    int max_iter = 100;
    double tol = 1e-6;
    kmx::KMeansSeeding seeding = kmx::KMeansSeeding::greedy_plus_plus;
};

Clustering run_kmeans(const kmx::Dataset &data, int64_t k, const RunOptions &o = RunOptions()) {
    kmx::Context ctx;
    ctx.threads = o.threads;
    ctx.seed = o.seed;
    kmx::Arena arena(kmx::kmeans_workspace_bytes(data, k, o.threads));
    kmx::KMeansOptions options;
    options.k = k;
    options.max_iter = o.max_iter;
    options.tol = o.tol;
    options.seeding = o.seeding;
    Clustering run;
    run.centers.resize(size_t(k * data.d));
    run.assignment.resize(size_t(data.n));
    run.history.assign(size_t(o.max_iter + 1), std::numeric_limits<double>::quiet_NaN());
    run.result = kmx::kmeans(ctx, arena, data, options, run.centers.data(), run.assignment.data(), run.history.data());
    run.arena_peak = arena.peak();
    return run;
}

std::vector<double> row(const kmx::Dataset &data, int64_t i) {
    std::vector<double> r(size_t(data.d));
    data.copy_rows(i, i + 1, r.data());
    return r;
}

double sqdist(const std::vector<double> &x, const double *c) {
    double s = 0;
    for (size_t j = 0; j < x.size(); ++j) s += (x[j] - c[j]) * (x[j] - c[j]);
    return s;
}

double weight(const kmx::Dataset &data, int64_t i) { return data.w ? data.w[i] : 1.0; }

double brute_objective(const kmx::Dataset &data, const std::vector<double> &centers,
                       const std::vector<int32_t> &assignment) {
    double total = 0;
    for (int64_t i = 0; i < data.n; ++i)
        total += weight(data, i) * sqdist(row(data, i), centers.data() + assignment[size_t(i)] * data.d);
    return total;
}

// Every row's assigned center is (up to rounding) its nearest.
void expect_nearest(const kmx::Dataset &data, const std::vector<double> &centers, int64_t k,
                    const std::vector<int32_t> &assignment) {
    for (int64_t i = 0; i < data.n; ++i) {
        const std::vector<double> x = row(data, i);
        double nearest = std::numeric_limits<double>::infinity();
        for (int64_t c = 0; c < k; ++c) nearest = std::min(nearest, sqdist(x, centers.data() + c * data.d));
        const double assigned = sqdist(x, centers.data() + assignment[size_t(i)] * data.d);
        ASSERT_LE(assigned, nearest + 1e-9 * (1 + nearest)) << "row " << i;
    }
}

// True if a and b are the same partition up to renaming the clusters.
bool same_partition(const std::vector<int32_t> &a, const std::vector<int> &b) {
    std::map<int32_t, int> forward;
    std::map<int, int32_t> backward;
    for (size_t i = 0; i < a.size(); ++i) {
        const auto f = forward.emplace(a[i], b[i]).first;
        const auto g = backward.emplace(b[i], a[i]).first;
        if (f->second != b[i] || g->second != a[i]) return false;
    }
    return true;
}

std::vector<int> as_labels(const std::vector<int32_t> &a) { return std::vector<int>(a.begin(), a.end()); }

kmx_status status_of(const std::function<void()> &body) {
    try {
        body();
    } catch (const kmx::Error &e) {
        return e.status();
    }
    return KMX_OK;
}

}  // namespace

TEST(KMeans, ObjectiveHistoryNeverIncreases) {
    const Points p = blobs(3000, 6, 8, 1.0, 0.3, 11);  // overlapping blobs: many iterations
    const auto data = dense(p);
    RunOptions o;
    o.tol = 0;
    o.max_iter = 200;
    const Clustering run = run_kmeans(*data, 8, o);
    ASSERT_GE(run.result.iterations, 3);
    for (int t = 1; t <= run.result.iterations; ++t)
        EXPECT_LE(run.history[size_t(t)], run.history[size_t(t - 1)] * (1 + 1e-12)) << "iteration " << t;
    EXPECT_NEAR(run.history[size_t(run.result.iterations)], run.result.objective, 1e-12 * run.result.objective)
        << "the tracked and the exact objective differ only by rounding";
    if (run.result.iterations < o.max_iter) {
        EXPECT_TRUE(std::isnan(run.history[size_t(run.result.iterations + 1)]))
            << "entries after the stop are untouched";
    }
}

TEST(KMeans, ObjectiveAndAssignmentMatchBruteForce) {
    const Points p = blobs(2500, 7, 5, 1.0, 0.4, 12);
    const auto data = dense(p);
    const Clustering run = run_kmeans(*data, 5);
    EXPECT_NEAR(run.result.objective, brute_objective(*data, run.centers, run.assignment),
                1e-12 * run.result.objective);
    expect_nearest(*data, run.centers, 5, run.assignment);
}

TEST(KMeans, StopsWhenTheRelativeDecreaseIsBelowTol) {
    const Points p = blobs(3000, 6, 8, 1.0, 0.3, 13);
    const auto data = dense(p);
    RunOptions o;
    o.tol = 1e-2;
    const Clustering run = run_kmeans(*data, 8, o);
    ASSERT_LT(run.result.iterations, o.max_iter);
    const int last = run.result.iterations;
    EXPECT_LE(run.history[size_t(last - 1)] - run.history[size_t(last)], o.tol * run.history[size_t(last - 1)]);
    for (int t = 1; t < last; ++t)
        EXPECT_GT(run.history[size_t(t - 1)] - run.history[size_t(t)], o.tol * run.history[size_t(t - 1)]);
}

TEST(KMeans, EqualWeightsGiveTheUnweightedClustering) {
    const Points p = blobs(1500, 5, 4, 1.0, 0.3, 14);
    const auto plain = dense(p);
    const Clustering unweighted = run_kmeans(*plain, 4);

    // Weight 2 scales every sum exactly: bitwise the same clustering, objective exactly doubled.
    auto doubled = dense(p);
    doubled->set_weights(std::vector<double>(size_t(p.n), 2.0).data());
    const Clustering by_two = run_kmeans(*doubled, 4);
    EXPECT_EQ(by_two.assignment, unweighted.assignment);
    EXPECT_EQ(by_two.centers, unweighted.centers);
    EXPECT_EQ(by_two.result.objective, 2 * unweighted.result.objective);

    // Weight 3 rounds differently: the same partition, centers equal to rounding.
    auto tripled = dense(p);
    tripled->set_weights(std::vector<double>(size_t(p.n), 3.0).data());
    const Clustering by_three = run_kmeans(*tripled, 4);
    EXPECT_EQ(by_three.assignment, unweighted.assignment);
    for (size_t j = 0; j < unweighted.centers.size(); ++j)
        EXPECT_NEAR(by_three.centers[j], unweighted.centers[j], 1e-12 * (1 + std::fabs(unweighted.centers[j])));
    EXPECT_NEAR(by_three.result.objective, 3 * unweighted.result.objective, 1e-12 * by_three.result.objective);
}

TEST(KMeans, IntegerWeightsEqualReplicatedRows) {
    const Points p = blobs(900, 4, 3, 10.0, 0.5, 15);
    std::vector<double> weights(size_t(p.n));
    Points replicated;
    replicated.d = p.d;
    kmx::Rng rng(16);
    for (int64_t i = 0; i < p.n; ++i) {
        weights[size_t(i)] = double(1 + rng.below(3));
        for (int copy = 0; copy < int(weights[size_t(i)]); ++copy) {
            replicated.x.insert(replicated.x.end(), p.x.begin() + i * p.d, p.x.begin() + (i + 1) * p.d);
            replicated.truth.push_back(p.truth[size_t(i)]);
        }
    }
    replicated.n = int64_t(replicated.truth.size());
    auto weighted = dense(p);
    weighted->set_weights(weights.data());
    const auto copies = dense(replicated);
    const Clustering a = run_kmeans(*weighted, 3);
    const Clustering b = run_kmeans(*copies, 3);
    EXPECT_TRUE(same_partition(a.assignment, p.truth));
    EXPECT_TRUE(same_partition(b.assignment, replicated.truth));
    EXPECT_NEAR(a.result.objective, b.result.objective, 1e-10 * b.result.objective);
    for (int64_t c = 0; c < 3; ++c) {  // each center of a is one of b's
        double nearest = std::numeric_limits<double>::infinity();
        for (int64_t e = 0; e < 3; ++e)
            nearest = std::min(
                nearest, sqdist(std::vector<double>(a.centers.begin() + c * p.d, a.centers.begin() + (c + 1) * p.d),
                                b.centers.data() + e * p.d));
        EXPECT_LT(nearest, 1e-20);
    }
}

// Three blobs far apart are found exactly from five seeds.
void expect_separated_blobs_recovered(kmx::KMeansSeeding seeding) {
    for (uint64_t seed : {1u, 2u, 3u, 4u, 5u}) {
        const Points p = blobs(3000, 8, 3, 100.0, 1.0, 17 + seed);
        const auto data = dense(p);
        RunOptions o;
        o.seed = seed;
        o.seeding = seeding;
        const Clustering run = run_kmeans(*data, 3, o);
        EXPECT_TRUE(same_partition(run.assignment, p.truth)) << "seed " << seed;
    }
}

TEST(KMeans, RecoversWellSeparatedBlobsExactly) {
    expect_separated_blobs_recovered(kmx::KMeansSeeding::greedy_plus_plus);
}

TEST(KMeans, SameSeedAndThreadsAreBitwiseIdentical) {
    const Points p = blobs(6000, 6, 7, 1.0, 0.4, 18);
    const auto data = dense(p);
    RunOptions o;
    o.threads = 2;
    o.seed = 99;
    const Clustering a = run_kmeans(*data, 7, o);
    const Clustering b = run_kmeans(*data, 7, o);
    EXPECT_EQ(a.assignment, b.assignment);
    EXPECT_EQ(0, std::memcmp(a.centers.data(), b.centers.data(), sizeof(double) * a.centers.size()));
    EXPECT_EQ(0, std::memcmp(&a.result.objective, &b.result.objective, sizeof(double)));
    EXPECT_EQ(a.result.iterations, b.result.iterations);
    o.seed = 100;
    const Clustering other_seed = run_kmeans(*data, 7, o);
    EXPECT_NE(0, std::memcmp(a.centers.data(), other_seed.centers.data(), sizeof(double) * a.centers.size()));
}

TEST(KMeans, OneAndTwoThreadsFindTheSamePartition) {
    const Points p = blobs(9000, 8, 4, 50.0, 1.0, 19);  // several blocks per slot
    const auto data = dense(p);
    RunOptions o;
    const Clustering one = run_kmeans(*data, 4, o);
    o.threads = 2;
    const Clustering two = run_kmeans(*data, 4, o);
    EXPECT_TRUE(same_partition(one.assignment, as_labels(two.assignment)));
    EXPECT_TRUE(same_partition(one.assignment, p.truth));
    EXPECT_NEAR(one.result.objective, two.result.objective, 1e-12 * one.result.objective);
}

TEST(KMeans, OneClusterIsTheWeightedMean) {
    const Points p = blobs(700, 5, 3, 1.0, 0.5, 20);
    auto data = dense(p);
    std::vector<double> weights(size_t(p.n));
    kmx::Rng rng(21);
    for (double &w : weights) w = rng.uniform() < 0.2 ? 0.0 : rng.uniform();  // some rows weigh nothing
    data->set_weights(weights.data());
    const Clustering run = run_kmeans(*data, 1);
    std::vector<double> mean(size_t(p.d), 0.0);
    double total = 0;
    for (int64_t i = 0; i < p.n; ++i) {
        total += weights[size_t(i)];
        for (int64_t j = 0; j < p.d; ++j) mean[size_t(j)] += weights[size_t(i)] * p.x[size_t(i * p.d + j)];
    }
    for (int64_t j = 0; j < p.d; ++j) EXPECT_NEAR(run.centers[size_t(j)], mean[size_t(j)] / total, 1e-12);
    EXPECT_EQ(run.assignment, std::vector<int32_t>(size_t(p.n), 0));
    EXPECT_NEAR(run.result.objective, brute_objective(*data, run.centers, run.assignment),
                1e-12 * run.result.objective);
}

TEST(KMeans, AsManyClustersAsRowsGivesZeroObjective) {
    const Points p = blobs(60, 3, 60, 1.0, 0.0, 22);  // 60 distinct points
    const auto data = dense(p);
    const Clustering run = run_kmeans(*data, 60);
    EXPECT_EQ(run.result.objective, 0.0);
    std::vector<int32_t> sorted = run.assignment;
    std::sort(sorted.begin(), sorted.end());
    for (int32_t c = 0; c < 60; ++c) EXPECT_EQ(sorted[size_t(c)], c) << "every row its own cluster";
}

TEST(KMeans, MoreClustersThanDistinctRowsStillTerminates) {
    Points p = blobs(40, 3, 4, 1.0, 0.0, 23);  // 4 distinct rows, each 10 times
    const auto data = dense(p);
    const Clustering run = run_kmeans(*data, 6);
    EXPECT_LT(run.result.objective, 1e-20);  // a mean of equal rows may round in the last bit
    EXPECT_TRUE(same_partition(run.assignment, p.truth));
    for (double v : run.centers) EXPECT_TRUE(std::isfinite(v));
}

TEST(KMeans, ReseatsAnEmptyClusterAtTheFarthestRow) {
    // A weighted case (found by search) where, with seed 130412, a cluster
    // loses all its rows in iteration 2 and is re-seated.
    const std::vector<double> x = {24, 21, 14, 15, 1, 25, 14, 0,  11, 23, 15, 27, 1,  20, 9,
                                   22, 18, 19, 5,  2, 21, 7,  6,  23, 13, 6,  8,  16, 13, 27,
                                   18, 2,  7,  16, 2, 3,  22, 12, 22, 5,  26, 27, 24, 22};
    const std::vector<double> weights = {0.09, 0.54, 0.2,  0.12, 0.69, 0.46,  0.96,  0.14, 11.17, 0.76, 0.81,
                                         0.05, 0.38, 0.69, 0.41, 5.11, 19.28, 14.12, 0.37, 0.94,  0.15, 0.52};
    auto data = kmx::Dataset::dense_borrow(x.data(), 22, 2, nullptr);
    data->set_weights(weights.data());
    kmx::Context ctx;
    ctx.seed = 130412;
    ctx.log_level = KMX_LOG_DEBUG;
    int reseats = 0;
    ctx.log_user = &reseats;
    ctx.log_fn = [](void *user, kmx_log_level, const char *message) {
        if (std::strstr(message, "re-seated")) ++*static_cast<int *>(user);
    };
    const int64_t k = 11;
    kmx::Arena arena(kmx::kmeans_workspace_bytes(*data, k, 1));
    kmx::KMeansOptions options;
    options.k = k;
    options.tol = 0;
    std::vector<double> centers(size_t(k * 2)), history(size_t(options.max_iter + 1));
    std::vector<int32_t> assignment(22);
    const kmx::KMeansResult result =
        kmx::kmeans(ctx, arena, *data, options, centers.data(), assignment.data(), history.data());
    ASSERT_GE(reseats, 1) << "precondition: this case no longer re-seats (did the seeding change?); find a new one";
    for (int t = 1; t <= result.iterations; ++t) EXPECT_LE(history[size_t(t)], history[size_t(t - 1)] * (1 + 1e-12));
    EXPECT_NEAR(result.objective, brute_objective(*data, centers, assignment), 1e-12 * result.objective);
    expect_nearest(*data, centers, k, assignment);
    std::vector<int> sizes(size_t(k), 0);
    for (int32_t a : assignment) ++sizes[size_t(a)];
    for (int64_t c = 0; c < k; ++c) EXPECT_GT(sizes[size_t(c)], 0) << "cluster " << c << " is empty";
}

TEST(KMeans, SparseDataGivesTheDenseResult) {
    Points p = blobs(5000, 40, 5, 3.0, 0.5, 24);
    sparsify(p, 0.6, 25);
    const auto as_dense = dense(p);
    const auto as_sparse = sparse(p);
    std::vector<double> weights(size_t(p.n));
    kmx::Rng rng(26);
    for (double &w : weights) w = 0.5 + rng.uniform();
    for (bool weighted : {false, true}) {
        if (weighted) {
            as_dense->set_weights(weights.data());
            as_sparse->data.set_weights(weights.data());
        }
        for (int threads : {1, 2}) {
            RunOptions o;
            o.threads = threads;
            const Clustering a = run_kmeans(*as_dense, 5, o);
            const Clustering b = run_kmeans(as_sparse->data, 5, o);
            EXPECT_EQ(a.assignment, b.assignment) << "weighted " << weighted << ", threads " << threads;
            for (size_t j = 0; j < a.centers.size(); ++j) EXPECT_NEAR(a.centers[j], b.centers[j], 1e-12);
            EXPECT_NEAR(a.result.objective, b.result.objective, 1e-12 * a.result.objective);
        }
    }
}

TEST(KMeansAssign, MatchesBruteForce) {
    const Points p = blobs(3000, 9, 6, 1.0, 0.3, 27);
    Points sparse_points = p;
    sparsify(sparse_points, 0.5, 28);
    const auto sparse_data = sparse(sparse_points);
    const auto dense_data = dense(p);
    const Points centers = blobs(13, 9, 13, 1.0, 0.0, 29);
    for (const kmx::Dataset *data : {dense_data.get(), &sparse_data->data}) {
        for (int threads : {1, 2}) {
            kmx::Context ctx;
            ctx.threads = threads;
            kmx::Arena arena(kmx::kmeans_assign_workspace_bytes(*data, 13, threads));
            std::vector<int32_t> assignment(size_t(p.n), -1);
            std::vector<double> distances(size_t(p.n), -1);
            kmx::kmeans_assign(ctx, arena, *data, centers.x.data(), 13, assignment.data(), distances.data());
            EXPECT_EQ(arena.peak(), arena.capacity());
            expect_nearest(*data, centers.x, 13, assignment);
            for (int64_t i = 0; i < p.n; ++i)
                EXPECT_NEAR(distances[size_t(i)], sqdist(row(*data, i), centers.x.data() + assignment[size_t(i)] * p.d),
                            1e-12);
            std::vector<int32_t> without_distances(size_t(p.n), -1);
            kmx::kmeans_assign(ctx, arena, *data, centers.x.data(), 13, without_distances.data(), nullptr);
            EXPECT_EQ(without_distances, assignment);
        }
    }
}

namespace {

// Every row of p (whole numbers) sits nearest to the duplicated pair (low,
// high) of k centers: the first row's twins, every other center far away.
// The lower index must win.
void expect_ties_go_to_the_lower_index(const Points &p, int64_t k,
                                       std::initializer_list<std::pair<int64_t, int64_t>> pairs) {
    const int64_t d = p.d;
    const auto data = dense(p);
    for (auto [low, high] : pairs) {
        std::vector<double> centers(size_t(k * d));
        for (int64_t c = 0; c < k; ++c)
            for (int64_t j = 0; j < d; ++j) centers[size_t(c * d + j)] = 1e3 * double(c + 1) + double(j);
        for (int64_t j = 0; j < d; ++j) centers[size_t(low * d + j)] = centers[size_t(high * d + j)] = p.x[size_t(j)];
        kmx::Context ctx;
        kmx::Arena arena(kmx::kmeans_assign_workspace_bytes(*data, k, 1));
        std::vector<int32_t> assignment(size_t(p.n), -1);
        kmx::kmeans_assign(ctx, arena, *data, centers.data(), k, assignment.data(), nullptr);
        for (int64_t i = 0; i < p.n; ++i) ASSERT_EQ(assignment[size_t(i)], low) << "pair " << low << "," << high;
    }
}

}  // namespace

// Duplicated centers tie exactly: the lower index must win, wherever the
// pair falls in the vector lanes of the argmin (k = 37: lanes 0–7, 8–15, …,
// and the tail). The coordinates are small whole numbers, so every inner
// product and norm is exact and the pair's scores tie in any summation order
// (BLIS's zen3 dgemm computes an edge tile's columns, here 32–36, otherwise
// than the full tiles', so random values gave column 36 a lower last bit).
TEST(KMeansAssign, TiesGoToTheLowerIndex) {
    Points p = blobs(400, 5, 4, 1.0, 0.3, 31);
    for (double &v : p.x) v = std::round(8 * v);
    expect_ties_go_to_the_lower_index(p, 37, {{0, 1}, {3, 12}, {9, 30}, {20, 36}, {33, 35}});
}

// The same with more centers than one tile of the GEMM on centers in panels
// covers (skx: blocks of about MC = 240 centers), so that a tie spans tiles
// and the lower index must survive the running argmin.
TEST(KMeansAssign, TiesAcrossTilesGoToTheLowerIndex) {
    Points p = blobs(300, 3, 3, 1.0, 0.3, 33);
    for (double &v : p.x) v = std::round(8 * v);
    expect_ties_go_to_the_lower_index(p, 700, {{2, 650}, {239, 240}, {250, 699}});
}

// Centers in the GEMM's panels (the argmin on each tile as it is finished)
// and rows multiplied by BLIS's gemm (the argmin after) choose the nearest
// center by the scores written out: k over one tile, d over one kc-slice, k
// not a multiple of the lanes, and a center so far out that its squared norm
// overflows (its scores +∞: never chosen). Where BLIS's gemm runs the same
// micro-kernel (skx packs the centers too) the two agree bit for bit; where
// it reads rows in place (zen3's small-matrix kernels) its sums are ordered
// otherwise.
TEST(NearestCenters, CentersInPanelsChooseAsTheGemm) {
    for (auto [m, k, d] :
         {std::tuple<int64_t, int64_t, int64_t>{50, 7, 4}, {333, 101, 64}, {130, 700, 9}, {70, 37, 300}}) {
        const Points p = blobs(m, d, 5, 1.0, 0.4, 40 + uint64_t(k));
        Points centers = blobs(k, d, int(std::min<int64_t>(k, 9)), 1.0, 0.4, 50 + uint64_t(k));
        for (int64_t j = 0; j < d; ++j) centers.x[size_t((k / 2) * d + j)] = 1e200;
        std::vector<double> sqnorms(static_cast<size_t>(k));
        kmx::cluster::center_squared_norms(centers.x.data(), k, d, sqnorms.data());
        kmx::Arena arena(kmx::linalg::PackedRows::bytes(k, d, kmx::linalg::PackedRows::Layout::panels) +
                         kmx::cluster::nearest_centers_gemm_bytes(m, d) + 4096);
        kmx::cluster::ScratchCarver carver(arena);
        kmx::linalg::PackedRows panels = kmx::cluster::carve_center_panels(carver, k, d);
        kmx::cluster::pack_centers(centers.x.data(), panels);
        kmx::Arena gemm(arena, kmx::cluster::nearest_centers_gemm_bytes(m, d));
        const kmx::cluster::CenterSet by_gemm{centers.x.data(), sqnorms.data(), k, d};
        kmx::cluster::CenterSet by_tiles = by_gemm;
        by_tiles.panels = &panels;
        const size_t rows = static_cast<size_t>(m);
        std::vector<double> dots(rows * size_t(k)), scores_gemm(rows), scores_tiles(rows);
        std::vector<int32_t> nearest_gemm(rows, -1), nearest_tiles(rows, -1);
        kmx::cluster::nearest_centers(p.x.data(), m, by_gemm, dots.data(), nearest_gemm.data(), scores_gemm.data());
        kmx::cluster::nearest_centers(p.x.data(), m, by_tiles, dots.data(), nearest_tiles.data(), scores_tiles.data(),
                                      &gemm);
        if (!kmx::linalg::gemm_reads_rows_in_place(m, k, d)) {
            EXPECT_EQ(nearest_tiles, nearest_gemm) << "k = " << k << ", d = " << d;
            EXPECT_EQ(scores_tiles, scores_gemm) << "k = " << k << ", d = " << d;
        }
        for (int64_t i = 0; i < m; ++i) {
            std::vector<double> written_out(static_cast<size_t>(k));
            for (int64_t c = 0; c < k; ++c) {
                double dot = 0;
                for (int64_t j = 0; j < d; ++j) dot += p.x[size_t(i * d + j)] * centers.x[size_t(c * d + j)];
                written_out[size_t(c)] = sqnorms[size_t(c)] - 2 * dot;
            }
            const double lowest = *std::min_element(written_out.begin(), written_out.end());
            const double tolerance = 1e-10 * (1 + std::abs(lowest));
            for (const auto &[nearest, score] : {std::pair{nearest_gemm[size_t(i)], scores_gemm[size_t(i)]},
                                                 std::pair{nearest_tiles[size_t(i)], scores_tiles[size_t(i)]}}) {
                ASSERT_NEAR(score, lowest, tolerance) << "row " << i << ", k = " << k;
                ASSERT_NEAR(written_out[size_t(nearest)], lowest, tolerance) << "row " << i << ", k = " << k;
            }
        }
    }
}

TEST(KMeans, WorkspaceBytesAreExact) {
    Points p = blobs(5000, 30, 4, 2.0, 0.5, 30);
    sparsify(p, 0.5, 31);
    const auto dense_data = dense(p);
    const auto sparse_data = sparse(p);
    for (const kmx::Dataset *data : {dense_data.get(), &sparse_data->data})
        for (int64_t k : {1, 2, 9, 200})
            for (int threads : {1, 2, 3}) {
                const size_t bytes = kmx::kmeans_workspace_bytes(*data, k, threads);
                RunOptions o;
                o.threads = threads;
                o.max_iter = 3;
                EXPECT_EQ(run_kmeans(*data, k, o).arena_peak, bytes) << "k " << k << ", threads " << threads;

                kmx::Context ctx;
                ctx.threads = threads;
                kmx::Arena short_arena(bytes - kmx::kArenaAlignment);
                kmx::KMeansOptions options;
                options.k = k;
                std::vector<double> centers(size_t(k * data->d));
                std::vector<int32_t> assignment(size_t(data->n));
                EXPECT_EQ(status_of([&] {
                              kmx::kmeans(ctx, short_arena, *data, options, centers.data(), assignment.data());
                          }),
                          KMX_E_INTERNAL);
            }
}

TEST(KMeans, RejectsBadArguments) {
    const Points p = blobs(10, 2, 2, 1.0, 0.1, 32);
    const auto data = dense(p);
    kmx::Context ctx;
    kmx::Arena arena(1 << 20);
    std::vector<double> centers(100);
    std::vector<int32_t> assignment(10);
    const auto run_with = [&](int64_t k, int max_iter, double tol) {
        kmx::KMeansOptions options;
        options.k = k;
        options.max_iter = max_iter;
        options.tol = tol;
        return status_of([&] { kmx::kmeans(ctx, arena, *data, options, centers.data(), assignment.data()); });
    };
    EXPECT_EQ(run_with(0, 10, 0), KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(run_with(11, 10, 0), KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(run_with(2, 0, 0), KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(run_with(2, 10, 1), KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(run_with(2, 10, -1), KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(run_with(10, 10, 0), KMX_OK);
    EXPECT_EQ(status_of([&] { kmx::kmeans_workspace_bytes(*data, 0, 1); }), KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(status_of([&] { kmx::kmeans_assign_workspace_bytes(*data, 0, 1); }), KMX_E_INVALID_ARGUMENT);
}

TEST(KMeans, CancellationStopsTheIterations) {
    const Points p = blobs(500, 3, 3, 1.0, 0.3, 33);
    const auto data = dense(p);
    kmx::Context ctx;
    int calls = 0;
    ctx.progress_user = &calls;
    ctx.progress_fn = [](void *user, double fraction, const char *phase) {
        EXPECT_STREQ(phase, "k-means");
        EXPECT_GE(fraction, 0.0);
        EXPECT_LT(fraction, 1.0);
        return ++*static_cast<int *>(user) == 2 ? 1 : 0;
    };
    kmx::Arena arena(kmx::kmeans_workspace_bytes(*data, 3, 1));
    kmx::KMeansOptions options;
    options.k = 3;
    options.tol = 0;
    std::vector<double> centers(9);
    std::vector<int32_t> assignment(size_t(p.n));
    EXPECT_EQ(status_of([&] { kmx::kmeans(ctx, arena, *data, options, centers.data(), assignment.data()); }),
              KMX_E_CANCELLED);
    EXPECT_EQ(calls, 2);
}

// ------------------------------------------------------ seeding in rounds

namespace {

// kmeans_seeds with D² sampling in rounds: centers, the rows they are, the arena's peak.
struct Seeds {
    std::vector<double> centers;
    std::vector<int64_t> rows;
    size_t arena_peak = 0;
};

Seeds seeds_in_rounds(const kmx::Dataset &data, int64_t k, uint64_t seed, int threads = 1) {
    kmx::Context ctx;
    ctx.seed = seed;
    ctx.threads = threads;
    kmx::Arena arena(kmx::kmeans_seeds_workspace_bytes(data, k, threads));
    kmx::KMeansOptions options;
    options.k = k;
    options.seeding = kmx::KMeansSeeding::rounds;
    Seeds s;
    s.centers.resize(size_t(k * data.d));
    s.rows.resize(size_t(k));
    kmx::kmeans_seeds(ctx, arena, data, options, s.centers.data(), s.rows.data());
    s.arena_peak = arena.peak();
    return s;
}

}  // namespace

TEST(KMeansSeedingInRounds, CentersAreDistinctRowsAndFitTheWorkspace) {
    const Points p = blobs(5000, 6, 40, 10.0, 0.5, 40);
    const auto data = dense(p);
    for (int64_t k : {1, 2, 3, 37, 200}) {
        const Seeds s = seeds_in_rounds(*data, k, 7);
        std::vector<int64_t> sorted = s.rows;
        std::sort(sorted.begin(), sorted.end());
        EXPECT_EQ(std::unique(sorted.begin(), sorted.end()), sorted.end()) << "k " << k;
        for (int64_t c = 0; c < k; ++c)
            ASSERT_EQ(row(*data, s.rows[size_t(c)]),
                      std::vector<double>(s.centers.begin() + c * p.d, s.centers.begin() + (c + 1) * p.d));
        EXPECT_LE(s.arena_peak, kmx::kmeans_seeds_workspace_bytes(*data, k, 1));
    }
    // The same seed gives the same centers on one and two threads (draws are serial, D² per row).
    EXPECT_EQ(seeds_in_rounds(*data, 37, 7).rows, seeds_in_rounds(*data, 37, 7, 2).rows);
}

TEST(KMeansSeedingInRounds, FarRowsGetTheirOwnCenters) {
    // 2000 rows in one blob and three rows far from it and from each other:
    // D² sampling must seat a center on each of them (a uniform start would
    // almost never draw them).
    Points p = blobs(2000, 3, 1, 1.0, 1.0, 41);
    const std::vector<std::vector<double>> far = {{1000, 0, 0}, {0, 1000, 0}, {0, 0, 1000}};
    for (const auto &x : far) p.x.insert(p.x.end(), x.begin(), x.end());
    p.n += 3;
    const auto data = dense(p);
    for (uint64_t seed : {1u, 2u, 3u, 4u}) {
        const Seeds s = seeds_in_rounds(*data, 8, seed);
        for (int64_t i = 2000; i < 2003; ++i)
            EXPECT_NE(std::find(s.rows.begin(), s.rows.end(), i), s.rows.end()) << "row " << i << ", seed " << seed;
    }
}

TEST(KMeansSeedingInRounds, LloydFromThemRecoversSeparatedBlobsAndNearsGreedySeeding) {
    expect_separated_blobs_recovered(kmx::KMeansSeeding::rounds);
    // 60 clusters: greedy k-means++ picks the best of 6 draws per center and
    // rounds draw up to k/8 at once, so some clusters share a seed; after
    // Lloyd the objective stays within 25% of greedy seeding's (17% measured).
    const Points p = blobs(6000, 5, 60, 10.0, 0.6, 42);
    const auto data = dense(p);
    RunOptions o;
    const double greedy = run_kmeans(*data, 60, o).result.objective;
    o.seeding = kmx::KMeansSeeding::rounds;
    const Clustering rounds = run_kmeans(*data, 60, o);
    EXPECT_LE(rounds.result.objective, 1.25 * greedy);
    EXPECT_NEAR(rounds.result.objective, brute_objective(*data, rounds.centers, rounds.assignment),
                1e-9 * rounds.result.objective);
}

TEST(KMeans, InitialCentersAreWhereLloydStarts) {
    const Points p = blobs(900, 4, 3, 50.0, 1.0, 43);
    const auto data = dense(p);
    std::vector<double> start(p.x.begin(), p.x.begin() + 3 * p.d);  // rows 0, 1, 2: one per blob
    kmx::Context ctx;
    kmx::Arena arena(kmx::kmeans_workspace_bytes(*data, 3, 1));
    kmx::KMeansOptions options;
    options.k = 3;
    options.max_iter = 1;
    options.tol = 0;
    options.initial_centers = start.data();
    std::vector<double> centers(size_t(3 * p.d));
    std::vector<int32_t> assignment(size_t(p.n));
    kmx::kmeans(ctx, arena, *data, options, centers.data(), assignment.data());
    // One iteration from one row per blob: each center is its blob's mean.
    for (int c = 0; c < 3; ++c)
        for (int64_t j = 0; j < p.d; ++j) {
            double mean = 0;
            for (int64_t i = c; i < p.n; i += 3) mean += p.x[size_t(i * p.d + j)] / double(p.n / 3);
            EXPECT_NEAR(centers[size_t(c * p.d + j)], mean, 1e-9);
        }
    start[0] = std::numeric_limits<double>::quiet_NaN();
    EXPECT_EQ(status_of([&] { kmx::kmeans(ctx, arena, *data, options, centers.data(), assignment.data()); }),
              KMX_E_INVALID_ARGUMENT);
}
