// kmx_kmeans and kmx_kmeans_assign through the public C ABI.
#include <gtest/gtest.h>
#include <kmx/kmx.h>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

namespace {

std::string last_error() { return kmx_last_error(); }

bool mentions(const std::string &text, const char *word) { return text.find(word) != std::string::npos; }

// n rows around `clusters` well-separated centers; row i in cluster i % clusters.
std::vector<double> separated_rows(int64_t n, int64_t d, int clusters) {
    std::vector<double> x(size_t(n * d));
    uint64_t state = 12345;
    const auto noise = [&state] {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        return double(state >> 11) * 0x1.0p-53 - 0.5;
    };
    for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < d; ++j) x[size_t(i * d + j)] = 20.0 * double((i % clusters + j) % clusters) + noise();
    return x;
}

struct KMeansCapi : ::testing::Test {
    kmx_context *ctx = nullptr;
    kmx_dataset *data = nullptr;
    std::vector<double> x;
    int64_t n = 600, d = 4;

    void SetUp() override {
        ASSERT_EQ(kmx_context_create(&ctx), KMX_OK);
        x = separated_rows(n, d, 3);
        ASSERT_EQ(kmx_dataset_create(&data, x.data(), n, d, nullptr, KMX_COPY), KMX_OK);
    }
    void TearDown() override {
        kmx_dataset_free(data);
        kmx_context_free(ctx);
    }
};

// Σ w_i ‖x_i − c_a(i)‖² recomputed from the dataset's rows.
double recomputed_objective(const kmx_dataset *ds, const std::vector<double> &centers,
                            const std::vector<int32_t> &assignment, const double *weights) {
    int64_t n = 0, d = 0;
    EXPECT_EQ(kmx_dataset_rows(&n, ds), KMX_OK);
    EXPECT_EQ(kmx_dataset_cols(&d, ds), KMX_OK);
    std::vector<double> rows(size_t(n * d));
    EXPECT_EQ(kmx_dataset_get_rows(rows.data(), n * d, ds, 0, n), KMX_OK);
    double total = 0;
    for (int64_t i = 0; i < n; ++i) {
        double s = 0;
        for (int64_t j = 0; j < d; ++j) {
            const double diff = rows[size_t(i * d + j)] - centers[size_t(assignment[size_t(i)] * d + j)];
            s += diff * diff;
        }
        total += (weights ? weights[i] : 1.0) * s;
    }
    return total;
}

int stop_at_second_report(void *user, double, const char *) { return ++*static_cast<int *>(user) >= 2; }

}  // namespace

TEST_F(KMeansCapi, ClustersAndReportsAConsistentObjective) {
    std::vector<double> centers(size_t(3 * d));
    std::vector<int32_t> assignment(static_cast<size_t>(n));
    double objective = -1;
    ASSERT_EQ(kmx_kmeans(centers.data(), 3 * d, assignment.data(), n, &objective, ctx, data, 3, "max_iter=50 tol=0"),
              KMX_OK)
        << last_error();
    EXPECT_NEAR(objective, recomputed_objective(data, centers, assignment, nullptr), 1e-12 * objective);
    for (int64_t i = 0; i < n; ++i) EXPECT_EQ(assignment[size_t(i)], assignment[size_t(i % 3)]) << "row " << i;

    std::vector<int32_t> again(static_cast<size_t>(n));
    std::vector<double> sqdist(static_cast<size_t>(n));
    ASSERT_EQ(kmx_kmeans_assign(again.data(), n, sqdist.data(), n, ctx, data, centers.data(), 3), KMX_OK);
    EXPECT_EQ(again, assignment);
    double total = 0;
    for (double s : sqdist) total += s;
    EXPECT_NEAR(total, objective, 1e-12 * objective);
}

TEST_F(KMeansCapi, AnyOutputMayBeNull) {
    double objective = -1;
    EXPECT_EQ(kmx_kmeans(nullptr, 0, nullptr, 0, &objective, ctx, data, 3, nullptr), KMX_OK) << last_error();
    EXPECT_GT(objective, 0);
    EXPECT_EQ(kmx_kmeans(nullptr, 0, nullptr, 0, nullptr, nullptr, data, 3, nullptr), KMX_OK) << last_error();
}

TEST_F(KMeansCapi, WeightsScaleTheObjective) {
    double plain = 0, weighted = 0;
    ASSERT_EQ(kmx_kmeans(nullptr, 0, nullptr, 0, &plain, ctx, data, 3, nullptr), KMX_OK);
    ASSERT_EQ(kmx_dataset_set_weights(data, std::vector<double>(size_t(n), 2.0).data(), n), KMX_OK);
    ASSERT_EQ(kmx_kmeans(nullptr, 0, nullptr, 0, &weighted, ctx, data, 3, nullptr), KMX_OK);
    EXPECT_EQ(weighted, 2 * plain);
}

TEST_F(KMeansCapi, SameSeedSameResultAcrossCalls) {
    ASSERT_EQ(kmx_context_set_params(ctx, "threads=2 seed=5"), KMX_OK);
    std::vector<double> a(size_t(5 * d)), b(size_t(5 * d));
    ASSERT_EQ(kmx_kmeans(a.data(), 5 * d, nullptr, 0, nullptr, ctx, data, 5, nullptr), KMX_OK);
    ASSERT_EQ(kmx_kmeans(b.data(), 5 * d, nullptr, 0, nullptr, ctx, data, 5, nullptr), KMX_OK);
    EXPECT_EQ(a, b);
}

TEST_F(KMeansCapi, RejectsBadArguments) {
    std::vector<double> centers(size_t(3 * d));
    std::vector<int32_t> assignment(static_cast<size_t>(n));
    const auto run = [&](int64_t k, const char *params) {
        return kmx_kmeans(centers.data(), int64_t(centers.size()), assignment.data(), n, nullptr, ctx, data, k, params);
    };
    EXPECT_EQ(run(0, nullptr), KMX_E_INVALID_ARGUMENT);
    EXPECT_TRUE(mentions(last_error(), "k = 0")) << last_error();
    EXPECT_EQ(run(n + 1, nullptr), KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(run(3, "clusters=3"), KMX_E_INVALID_ARGUMENT);
    EXPECT_TRUE(mentions(last_error(), "clusters")) << last_error();
    EXPECT_EQ(run(3, "tol=2"), KMX_E_INVALID_ARGUMENT);
    EXPECT_TRUE(mentions(last_error(), "tol")) << last_error();
    EXPECT_EQ(run(3, "max_iter=0"), KMX_E_INVALID_ARGUMENT);
    EXPECT_TRUE(mentions(last_error(), "max_iter")) << last_error();
    EXPECT_EQ(run(3, "gamma=1"), KMX_E_INVALID_ARGUMENT) << "a kernel parameter is not a k-means one";
    EXPECT_EQ(kmx_kmeans(centers.data(), 3 * d - 1, nullptr, 0, nullptr, ctx, data, 3, nullptr),
              KMX_E_INVALID_ARGUMENT);
    EXPECT_TRUE(mentions(last_error(), "out_centers")) << last_error();
    EXPECT_EQ(kmx_kmeans(nullptr, 0, assignment.data(), n - 1, nullptr, ctx, data, 3, nullptr), KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(kmx_kmeans(centers.data(), 3 * d, nullptr, 0, nullptr, ctx, nullptr, 3, nullptr), KMX_E_INVALID_ARGUMENT);
    EXPECT_TRUE(mentions(last_error(), "data")) << last_error();

    kmx_dataset *one_row = nullptr;
    ASSERT_EQ(kmx_dataset_create(&one_row, x.data(), 1, d, nullptr, KMX_COPY), KMX_OK);
    EXPECT_EQ(kmx_kmeans(centers.data(), 3 * d, nullptr, 0, nullptr, ctx, one_row, 2, nullptr), KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(kmx_kmeans(centers.data(), 3 * d, nullptr, 0, nullptr, ctx, one_row, 1, nullptr), KMX_OK);
    for (int64_t j = 0; j < d; ++j) EXPECT_EQ(centers[size_t(j)], x[size_t(j)]);
    kmx_dataset_free(one_row);
}

TEST_F(KMeansCapi, AssignRejectsBadArguments) {
    std::vector<double> centers(size_t(3 * d), 1.0);
    std::vector<int32_t> assignment(static_cast<size_t>(n));
    std::vector<double> sqdist(static_cast<size_t>(n));
    EXPECT_EQ(kmx_kmeans_assign(assignment.data(), n, sqdist.data(), n, ctx, data, centers.data(), 3), KMX_OK);
    centers[5] = std::numeric_limits<double>::quiet_NaN();
    EXPECT_EQ(kmx_kmeans_assign(assignment.data(), n, nullptr, 0, ctx, data, centers.data(), 3),
              KMX_E_INVALID_ARGUMENT);
    EXPECT_TRUE(mentions(last_error(), "NaN")) << last_error();
    centers[5] = 1.0;
    EXPECT_EQ(kmx_kmeans_assign(nullptr, n, nullptr, 0, ctx, data, centers.data(), 3), KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(kmx_kmeans_assign(assignment.data(), n - 1, nullptr, 0, ctx, data, centers.data(), 3),
              KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(kmx_kmeans_assign(assignment.data(), n, sqdist.data(), n - 1, ctx, data, centers.data(), 3),
              KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(kmx_kmeans_assign(assignment.data(), n, nullptr, 0, ctx, data, nullptr, 3), KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(kmx_kmeans_assign(assignment.data(), n, nullptr, 0, ctx, data, centers.data(), 0),
              KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(kmx_kmeans_assign(assignment.data(), n, nullptr, 0, ctx, nullptr, centers.data(), 3),
              KMX_E_INVALID_ARGUMENT);
}

TEST_F(KMeansCapi, MemoryBudgetTooSmall) {
    kmx_dataset *big = nullptr;
    const int64_t rows = 20000;
    const std::vector<double> big_x = separated_rows(rows, d, 3);
    ASSERT_EQ(kmx_dataset_create(&big, big_x.data(), rows, d, nullptr, KMX_BORROW), KMX_OK);
    ASSERT_EQ(kmx_context_set_param(ctx, KMX_PARAM_MEMORY_BUDGET, 65536), KMX_OK);
    ASSERT_EQ(kmx_context_set_param(ctx, KMX_PARAM_THREADS, 1), KMX_OK);  // scratch is per thread
    EXPECT_EQ(kmx_kmeans(nullptr, 0, nullptr, 0, nullptr, ctx, big, 3, nullptr), KMX_E_OUT_OF_MEMORY);
    const std::string message = last_error();
    EXPECT_TRUE(mentions(message, "needs") && mentions(message, " KB") && mentions(message, "allows")) << message;
    EXPECT_TRUE(mentions(message, "memory_budget = 64.0 KB")) << message;
    std::vector<double> centers(size_t(3 * d), 0.0);
    std::vector<int32_t> assignment(static_cast<size_t>(rows));
    EXPECT_EQ(kmx_kmeans_assign(assignment.data(), rows, nullptr, 0, ctx, big, centers.data(), 3), KMX_OK)
        << "assignment needs no n-sized scratch: " << last_error();

    ASSERT_EQ(kmx_context_set_param(ctx, KMX_PARAM_MEMORY_BUDGET, 1 << 22), KMX_OK);
    EXPECT_EQ(kmx_kmeans(nullptr, 0, nullptr, 0, nullptr, ctx, big, 3, nullptr), KMX_OK) << last_error();
    int64_t peak = 0;
    ASSERT_EQ(kmx_context_peak_bytes(&peak, ctx), KMX_OK);
    EXPECT_GT(peak, 0);
    EXPECT_LE(peak, 1 << 22);
    kmx_dataset_free(big);
}

TEST_F(KMeansCapi, ProgressCallbackCancels) {
    int reports = 0;
    ASSERT_EQ(kmx_context_set_progress_callback(ctx, stop_at_second_report, &reports), KMX_OK);
    EXPECT_EQ(kmx_kmeans(nullptr, 0, nullptr, 0, nullptr, ctx, data, 3, "max_iter=50 tol=0"), KMX_E_CANCELLED);
    EXPECT_TRUE(mentions(last_error(), "k-means")) << last_error();
    EXPECT_EQ(reports, 2);
    ASSERT_EQ(kmx_context_set_progress_callback(ctx, nullptr, nullptr), KMX_OK);
    EXPECT_EQ(kmx_kmeans(nullptr, 0, nullptr, 0, nullptr, ctx, data, 3, nullptr), KMX_OK);
}

TEST(KMeansCapiLetter, ClustersTheLetterData) {
    const char *dir = std::getenv("KMX_EXAMPLE_DATA");
    ASSERT_NE(dir, nullptr) << "KMX_EXAMPLE_DATA is not set";
    const std::string path = std::string(dir) + "/letter_mc.train.libsvm";
    kmx_dataset *letter = nullptr;
    ASSERT_EQ(kmx_dataset_load(&letter, nullptr, path.c_str(), KMX_FORMAT_AUTO), KMX_OK) << last_error();
    int64_t n = 0, d = 0;
    ASSERT_EQ(kmx_dataset_rows(&n, letter), KMX_OK);
    ASSERT_EQ(kmx_dataset_cols(&d, letter), KMX_OK);
    ASSERT_EQ(n, 12000);
    ASSERT_EQ(d, 16);

    kmx_context *ctx = nullptr;
    ASSERT_EQ(kmx_context_create(&ctx), KMX_OK);
    ASSERT_EQ(kmx_context_set_params(ctx, "threads=2 seed=3"), KMX_OK);
    std::vector<double> centers(size_t(26 * d));
    std::vector<int32_t> assignment(static_cast<size_t>(n));
    double objective = 0;
    ASSERT_EQ(
        kmx_kmeans(centers.data(), 26 * d, assignment.data(), n, &objective, ctx, letter, 26, "max_iter=50 tol=0"),
        KMX_OK)
        << last_error();
    EXPECT_NEAR(objective, recomputed_objective(letter, centers, assignment, nullptr), 1e-12 * objective);
    std::vector<int64_t> sizes(26, 0);
    for (int32_t a : assignment) ++sizes[size_t(a)];
    for (int64_t size : sizes) EXPECT_GT(size, 0) << "no cluster is empty";

    double fewer = 0;  // fewer clusters cannot fit as well
    ASSERT_EQ(kmx_kmeans(nullptr, 0, nullptr, 0, &fewer, ctx, letter, 13, "max_iter=50 tol=0"), KMX_OK);
    EXPECT_GT(fewer, objective);
    kmx_context_free(ctx);
    kmx_dataset_free(letter);
}
