// Two-step kernel k-means (lib/cluster/kernel_kmeans), against direct
// feature-space computations.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "../common/kernel_spec.h"
#include "cluster/kernel_kmeans.h"
#include "cluster/kmeans.h"
#include "core/context.h"
#include "core/dataset.h"
#include "core/rng.h"
#include "../svm/test_support.h"

namespace {

using dcsvm_test::Blobs;
using dcsvm_test::direct_kernel_matrix;
using dcsvm_test::make_blobs;
using dcsvm_test::partition_disagreement;

using test_common::rbf;

kmx::KernelSpec linear() {
    kmx::KernelSpec k;
    k.type = KMX_KERNEL_LINEAR;
    return k;
}

// J(π) = Σ_i ‖φ(x_i) − μ_π(i)‖², expanded pair by pair from the kernel matrix.
double direct_feature_objective(const std::vector<double> &gram, const std::vector<int32_t> &assignment, int64_t k) {
    const int64_t m = int64_t(assignment.size());
    double objective = 0;
    for (int64_t c = 0; c < k; ++c) {
        std::vector<int64_t> members;
        for (int64_t i = 0; i < m; ++i)
            if (assignment[size_t(i)] == c) members.push_back(i);
        if (members.empty()) continue;
        const double size = double(members.size());
        double within = 0;
        for (int64_t p : members)
            for (int64_t q : members) within += gram[size_t(p * m + q)];
        for (int64_t i : members) {
            double cross = 0;
            for (int64_t j : members) cross += gram[size_t(i * m + j)];
            objective += gram[size_t(i * m + i)] - 2 * cross / size + within / (size * size);
        }
    }
    return objective;
}

// J(π) for the linear kernel in input space: Σ_i ‖x_i − mean of its cluster‖².
double input_space_objective(const Blobs &b, const std::vector<int32_t> &assignment, int64_t k) {
    std::vector<double> sums(size_t(k * b.d), 0.0), counts(size_t(k), 0.0);
    for (int64_t i = 0; i < b.n; ++i) {
        counts[size_t(assignment[size_t(i)])] += 1;
        for (int64_t j = 0; j < b.d; ++j) sums[size_t(assignment[size_t(i)] * b.d + j)] += b.x[size_t(i * b.d + j)];
    }
    double objective = 0;
    for (int64_t i = 0; i < b.n; ++i)
        for (int64_t j = 0; j < b.d; ++j) {
            const int64_t c = assignment[size_t(i)];
            const double diff = b.x[size_t(i * b.d + j)] - sums[size_t(c * b.d + j)] / counts[size_t(c)];
            objective += diff * diff;
        }
    return objective;
}

std::vector<int> as_int(const std::vector<int32_t> &v) { return std::vector<int>(v.begin(), v.end()); }

// Runs Lloyd on the gram of blobs; returns the objective history.
struct LloydRun {
    std::vector<int32_t> assignment;
    std::vector<double> history;
    int iterations;
};

LloydRun run_lloyd(const std::vector<double> &gram, int64_t m, int64_t k, uint64_t seed) {
    kmx::Rng rng(seed);
    kmx::Arena scratch(kmx::kernel_kmeans_gram_workspace_bytes(m, k));
    LloydRun run;
    run.assignment.resize(size_t(m));
    run.history.assign(size_t(kmx::kKernelKMeansMaxIter + 1), std::numeric_limits<double>::quiet_NaN());
    run.iterations = kmx::kernel_kmeans_gram(gram.data(), m, k, kmx::kKernelKMeansMaxIter, rng, scratch, 1,
                                             run.assignment.data(), run.history.data());
    return run;
}

TEST(KernelKMeans, ObjectiveNeverIncreasesAndMatchesDirectComputation) {
    // Overlapping blobs so that Lloyd needs several iterations.
    const Blobs b = make_blobs(240, 3, 6, 1.0, 0.25, 11);
    for (const kmx::KernelSpec &kernel : {rbf(2.0), linear()}) {
        const std::vector<double> gram = direct_kernel_matrix(*b.data, nullptr, b.n, kernel);
        for (uint64_t seed : {1u, 2u, 3u}) {
            const LloydRun run = run_lloyd(gram, b.n, 5, seed);
            ASSERT_GE(run.iterations, 1);
            for (int t = 1; t <= run.iterations; ++t)
                EXPECT_LE(run.history[size_t(t)], run.history[size_t(t - 1)] * (1 + 1e-12)) << "iteration " << t;
            const double direct = direct_feature_objective(gram, run.assignment, 5);
            EXPECT_NEAR(run.history[size_t(run.iterations)], direct, 1e-9 * std::fabs(direct));
            if (kernel.type == KMX_KERNEL_LINEAR) {
                EXPECT_NEAR(direct, input_space_objective(b, run.assignment, 5), 1e-9 * direct);
            }
        }
    }
}

// Nearest cluster by the full dist² formula, kernel values by kernel_eval.
// Each row's nearest and second-nearest cluster by dist²(x, S_c), computed
// point by point, and the difference of the two distances.
constexpr int kChoices = 3;  // runner-ups checked: second, third and fourth nearest

struct DirectAssignment {
    std::vector<int32_t> nearest, next;  // next: n × kChoices, as RunnerUp
    std::vector<double> margin;          // n × kChoices
};

DirectAssignment direct_assign(const kmx::Dataset &data, const kmx::KernelPartition &p, const kmx::KernelSpec &kernel) {
    DirectAssignment a;
    a.nearest.resize(size_t(data.n));
    a.next.resize(size_t(data.n) * kChoices);
    a.margin.resize(size_t(data.n) * kChoices);
    const size_t m = p.sample_rows.size();
    for (int64_t i = 0; i < data.n; ++i) {
        const double *x = data.x + i * data.d;
        std::vector<double> cross(size_t(p.k), 0.0);
        for (size_t j = 0; j < m; ++j)
            cross[size_t(p.sample_cluster[j])] +=
                kmx::kernel_eval(kernel, x, data.x + p.sample_rows[j] * data.d, data.d);
        std::vector<double> dist2(size_t(p.k));
        for (int64_t c = 0; c < p.k; ++c)
            dist2[size_t(c)] = kmx::kernel_eval(kernel, x, x, data.d) -
                               2 * cross[size_t(c)] / double(p.cluster_size[size_t(c)]) + p.cluster_self[size_t(c)];
        std::vector<int32_t> order(size_t(p.k));
        for (int64_t c = 0; c < p.k; ++c) order[size_t(c)] = int32_t(c);
        std::stable_sort(order.begin(), order.end(),
                         [&](int32_t u, int32_t v) { return dist2[size_t(u)] < dist2[size_t(v)]; });
        a.nearest[size_t(i)] = order[0];
        for (size_t r = 0; r < kChoices; ++r) {
            a.next[size_t(i) * kChoices + r] = order[r + 1];
            a.margin[size_t(i) * kChoices + r] = dist2[size_t(order[r + 1])] - dist2[size_t(order[0])];
        }
    }
    return a;
}

// The same rows as CSR.
struct SparseCopy {
    std::vector<int64_t> row_ptr{0};
    std::vector<int32_t> col;
    std::vector<double> values;
    kmx::Dataset data;
};

std::unique_ptr<SparseCopy> sparse_copy(const kmx::Dataset &dense) {
    auto s = std::make_unique<SparseCopy>();
    for (int64_t i = 0; i < dense.n; ++i) {
        for (int64_t j = 0; j < dense.d; ++j)
            if (dense.x[i * dense.d + j] != 0) {
                s->col.push_back(int32_t(j));
                s->values.push_back(dense.x[i * dense.d + j]);
            }
        s->row_ptr.push_back(int64_t(s->col.size()));
    }
    s->data.n = dense.n;
    s->data.d = dense.d;
    s->data.row_ptr = s->row_ptr.data();
    s->data.col = s->col.data();
    s->data.values = s->values.data();
    return s;
}

TEST(KernelKMeans, AssignmentAgreesWithDirectNearestCenter) {
    const std::unique_ptr<kmx::Dataset> letter = dcsvm_test::load_example("letter_bin.train.libsvm", 1500);
    const std::unique_ptr<SparseCopy> sparse = sparse_copy(*letter);
    kmx::KernelSpec poly;
    poly.type = KMX_KERNEL_POLYNOMIAL;
    poly.gamma = 0.5;
    poly.coef0 = 1;
    for (const kmx::KernelSpec &kernel : {rbf(2.0), poly}) {
        kmx::Context ctx;
        ctx.threads = 2;
        const kmx::KernelPartition p = kmx::kernel_kmeans_sample(ctx, *letter, nullptr, letter->n, {}, kernel, 8, 300);
        ASSERT_EQ(p.sample_rows.size(), 300u);
        ASSERT_GE(p.k, 2);
        std::vector<int32_t> assigned(size_t(letter->n)), assigned_sparse(size_t(letter->n));
        kmx::kernel_partition_assign(ctx, *letter, p, *letter, nullptr, letter->n, kernel, assigned.data());
        kmx::kernel_partition_assign(ctx, sparse->data, p, sparse->data, nullptr, letter->n, kernel,
                                     assigned_sparse.data());
        const DirectAssignment direct = direct_assign(*letter, p, kernel);
        int64_t differ = 0;
        for (int64_t i = 0; i < letter->n; ++i) differ += assigned[size_t(i)] != direct.nearest[size_t(i)];
        EXPECT_LE(differ, 2) << "near-ties only";  // rounding may flip an exact tie
        EXPECT_EQ(assigned, assigned_sparse);
        // The runner-ups and their margins (the arena form, which balance_clusters uses).
        kmx::Arena scratch(kmx::kernel_partition_assign_workspace_bytes(*letter, 300, p.k, *letter, kernel));
        std::vector<int32_t> again(size_t(letter->n)), next(size_t(letter->n) * kChoices);
        std::vector<float> margin(size_t(letter->n) * kChoices);
        kmx::kernel_partition_assign(ctx, scratch, *letter, p, *letter, nullptr, letter->n, kernel, again.data(),
                                     {next.data(), margin.data(), kChoices});
        EXPECT_EQ(again, assigned);
        int64_t next_differ = 0;
        for (int64_t i = 0; i < letter->n; ++i) {
            if (assigned[size_t(i)] != direct.nearest[size_t(i)]) continue;
            for (size_t at = size_t(i) * kChoices; at < size_t(i + 1) * kChoices; ++at) {
                next_differ += next[at] != direct.next[at];
                EXPECT_NEAR(margin[at], direct.margin[at], 1e-6 + 1e-5 * direct.margin[at]) << i;
                EXPECT_GE(margin[at], at % kChoices ? margin[at - 1] : 0.0f) << "increasing";
            }
        }
        EXPECT_LE(next_differ, 4) << "near-ties only";
        // The sample points' own clusters are where step 2 puts them (Lloyd converged).
        for (size_t j = 0; j < p.sample_rows.size(); ++j)
            EXPECT_EQ(assigned[size_t(p.sample_rows[j])], p.sample_cluster[j]);
    }
}

TEST(KernelKMeans, SubsetRowsAndAdaptivePool) {
    const Blobs b = make_blobs(400, 2, 4, 20.0, 0.5, 5);
    kmx::Context ctx;
    std::vector<int64_t> rows;
    for (int64_t i = 1; i < b.n; i += 2) rows.push_back(i);
    const kmx::KernelPartition p =
        kmx::kernel_kmeans_sample(ctx, *b.data, rows.data(), int64_t(rows.size()), {}, rbf(0.1), 4, 50);
    for (int64_t r : p.sample_rows) EXPECT_EQ(r % 2, 1) << "sampled outside the given rows";
    // Adaptive clustering: the sample comes from the pool (taken whole when smaller than m).
    std::vector<int64_t> pool;
    for (int64_t i = 0; i < 120; i += 3) pool.push_back(i);
    const kmx::KernelPartition whole =
        kmx::kernel_kmeans_sample(ctx, *b.data, rows.data(), int64_t(rows.size()), pool, rbf(0.1), 4, 50);
    EXPECT_EQ(whole.sample_rows, pool);
    const kmx::KernelPartition part =
        kmx::kernel_kmeans_sample(ctx, *b.data, rows.data(), int64_t(rows.size()), pool, rbf(0.1), 4, 25);
    ASSERT_EQ(part.sample_rows.size(), 25u);
    for (int64_t r : part.sample_rows) EXPECT_EQ(r % 3, 0) << "sampled outside the pool";
    EXPECT_EQ(part.k, 4);
}

TEST(KernelKMeans, RbfRecoversSeparatedBlobs) {
    const Blobs b = make_blobs(2000, 5, 6, 30.0, 0.6, 21);
    kmx::Context ctx;
    ctx.seed = 4;
    const kmx::KernelPartition p = kmx::kernel_kmeans_sample(ctx, *b.data, nullptr, b.n, {}, rbf(0.05), 6, 400);
    ASSERT_EQ(p.k, 6);
    std::vector<int32_t> assigned(size_t(b.n));
    kmx::kernel_partition_assign(ctx, *b.data, p, *b.data, nullptr, b.n, rbf(0.05), assigned.data());
    EXPECT_EQ(partition_disagreement(b.truth, as_int(assigned)), 0.0);
    EXPECT_EQ(partition_disagreement(as_int(assigned), b.truth), 0.0);
}

TEST(KernelKMeans, LinearKernelBehavesLikeKMeans) {
    const Blobs b = make_blobs(1200, 4, 5, 25.0, 0.8, 8);
    kmx::Context ctx;
    ctx.seed = 3;
    const kmx::KernelPartition p = kmx::kernel_kmeans_sample(ctx, *b.data, nullptr, b.n, {}, linear(), 5, 1200);
    std::vector<int32_t> kernel_assigned(size_t(b.n));
    kmx::kernel_partition_assign(ctx, *b.data, p, *b.data, nullptr, b.n, linear(), kernel_assigned.data());

    kmx::KMeansOptions options;
    options.k = 5;
    kmx::Arena scratch(kmx::kmeans_workspace_bytes(*b.data, 5, 1));
    std::vector<double> centers(size_t(5 * b.d));
    std::vector<int32_t> kmeans_assigned(size_t(b.n));
    const kmx::KMeansResult km = kmx::kmeans(ctx, scratch, *b.data, options, centers.data(), kmeans_assigned.data());

    EXPECT_EQ(partition_disagreement(as_int(kmeans_assigned), as_int(kernel_assigned)), 0.0);
    EXPECT_EQ(partition_disagreement(as_int(kernel_assigned), as_int(kmeans_assigned)), 0.0);
    EXPECT_NEAR(input_space_objective(b, kernel_assigned, p.k), km.objective, 1e-9 * km.objective);
}

TEST(KernelKMeans, MoreClustersThanPointsAndDuplicates) {
    std::vector<double> x = {0, 0, 0, 0, 1, 1, 1, 1, 5, 5};  // five points, three distinct
    const std::unique_ptr<kmx::Dataset> data = kmx::Dataset::dense_borrow(x.data(), 5, 2, nullptr);
    kmx::Context ctx;
    const kmx::KernelPartition p = kmx::kernel_kmeans_sample(ctx, *data, nullptr, 5, {}, rbf(1.0), 16, 1000);
    EXPECT_EQ(p.sample_rows.size(), 5u);
    EXPECT_EQ(p.k, 3) << "k-means++ stops when every point sits on a seed";
    std::vector<int32_t> assigned(5);
    kmx::kernel_partition_assign(ctx, *data, p, *data, nullptr, 5, rbf(1.0), assigned.data());
    EXPECT_EQ(assigned[0], assigned[1]);
    EXPECT_EQ(assigned[2], assigned[3]);
    EXPECT_NE(assigned[0], assigned[2]);
    EXPECT_NE(assigned[0], assigned[4]);
}

}  // namespace
