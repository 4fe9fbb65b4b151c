// DC-SVM on the whole Letter training set (slow suite): the exact solution
// against the plain solver (objective, timings, levels; the 400 MB cache
// holds less than the whole Q, so DC-SVM divides), and early prediction at
// early level 3 (12 clusters of ~1000 rows) against the exact model on the test set.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <vector>

#include "cluster/kernel_kmeans.h"
#include "core/context.h"
#include "core/dataset.h"
#include "kernel/kernel.h"
#include "svm/dcsvm.h"
#include "svm/svm_dual.h"
#include "test_support.h"

using dcsvm_test::seconds_since;

namespace {

constexpr size_t kCacheBytes = size_t(400) << 20;

struct Letter {
    std::unique_ptr<kmx::Dataset> train = dcsvm_test::load_example("letter_bin.train.libsvm", 12000);
    std::unique_ptr<kmx::Dataset> test = dcsvm_test::load_example("letter_bin.test.libsvm", 6000);
    std::vector<double> upper;
    kmx::SvmProblem problem;

    Letter(double C, double gamma) {
        upper.assign(size_t(train->n), C);
        problem = dcsvm_test::rbf_problem(*train, upper, gamma);
    }
};

// Test accuracy of f(x) = Σ_{i∈V_π(x)} y_i α_i K(x_i, x) (one cluster: the exact model).
double test_accuracy(const Letter &l, const std::vector<double> &alpha, const std::vector<int32_t> &train_cluster,
                     const std::vector<int32_t> &test_cluster) {
    const kmx::Dataset &train = *l.train, &test = *l.test;
    int64_t right = 0;
    for (int64_t t = 0; t < test.n; ++t) {
        double value = 0;
        for (int64_t i = 0; i < train.n; ++i)
            if (alpha[size_t(i)] > 0 && train_cluster[size_t(i)] == test_cluster[size_t(t)])
                value += train.y[i] * alpha[size_t(i)] *
                         kmx::kernel_eval(l.problem.kernel, train.x + i * train.d, test.x + t * test.d, train.d);
        right += (value > 0) == (test.y[t] > 0);
    }
    return double(right) / double(test.n);
}

TEST(DcsvmLetter, ExactAndEarlyAgainstPlainSolver) {
    const Letter l(8, 16);
    kmx::Context ctx;
    ctx.threads = 2;
    kmx::SvmOptions svm;
    svm.bias = false;
    svm.cache_bytes = kCacheBytes;

    std::vector<double> plain_alpha(size_t(l.problem.n), 0.0);
    auto start = std::chrono::steady_clock::now();
    kmx::Arena arena(kmx::svm_dual_workspace_bytes(l.problem.n, l.train->d, kCacheBytes));
    const kmx::SvmSolution plain = kmx::solve_svm_dual(ctx, arena, l.problem, svm, plain_alpha.data());
    const double plain_seconds = seconds_since(start);

    kmx::DcsvmOptions options;
    options.svm = svm;
    std::vector<double> dc_alpha(size_t(l.problem.n));
    start = std::chrono::steady_clock::now();
    const kmx::DcsvmResult dc = kmx::train_dcsvm(ctx, l.problem, options, dc_alpha.data());
    const double dc_seconds = seconds_since(start);
    std::printf("plain: %.10g in %.2f s (%lld SVs); DC-SVM: %.10g in %.2f s\n", plain.objective, plain_seconds,
                (long long)plain.support_vectors, dc.solution.objective, dc_seconds);
    for (const kmx::DcsvmLevelStats &s : dc.levels)
        std::printf("  step %d level %d: %lld clusters, %lld rows, %lld SVs, objective %.8g, %.2f s\n", int(s.step),
                    s.level, (long long)s.clusters, (long long)s.rows, (long long)s.support_vectors, s.objective,
                    s.seconds);
    EXPECT_NEAR(dc.solution.objective, plain.objective, 1e-3 * std::fabs(plain.objective));

    options.early_level = 3;
    std::vector<double> early_alpha(size_t(l.problem.n));
    start = std::chrono::steady_clock::now();
    const kmx::DcsvmResult early = kmx::train_dcsvm(ctx, l.problem, options, early_alpha.data());
    const double early_seconds = seconds_since(start);
    std::vector<int32_t> test_cluster(size_t(l.test->n));
    kmx::kernel_partition_assign(ctx, *l.train, early.partition, *l.test, nullptr, l.test->n, l.problem.kernel,
                                 test_cluster.data());
    const std::vector<int32_t> one_cluster_train(size_t(l.problem.n), 0), one_cluster_test(size_t(l.test->n), 0);
    const double exact = test_accuracy(l, plain_alpha, one_cluster_train, one_cluster_test);
    const double early_accuracy = test_accuracy(l, early_alpha, early.cluster_of, test_cluster);
    std::printf("test accuracy: exact %.4f; early (%lld clusters, %.2f s) %.4f\n", exact, (long long)early.partition.k,
                early_seconds, early_accuracy);
    EXPECT_EQ(early.partition.k, l.problem.n / options.min_early_cluster_rows);  // 12, not 4^3
    EXPECT_GE(early_accuracy, exact - 0.03);
}

}  // namespace
