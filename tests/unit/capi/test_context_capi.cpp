// kmx_context through the C ABI.
#define KMX_EXPERIMENTAL_API  // kmx_system_*: the machine probe
#include <gtest/gtest.h>
#include <kmx/kmx.h>

#include <fstream>
#include <string>
#include <thread>
#include <vector>

namespace {
struct ContextFixture : ::testing::Test {
    kmx_context *ctx = nullptr;
    void SetUp() override { ASSERT_EQ(kmx_context_create(&ctx), KMX_OK); }
    void TearDown() override { kmx_context_free(ctx); }
    double get(kmx_param p) {
        double v = -1;
        EXPECT_EQ(kmx_context_get_param(&v, ctx, p), KMX_OK);
        return v;
    }
};
}  // namespace

// The machine's: every usable core (never more than the hardware has) and
// 80% of the memory available now (read independently here, /proc/meminfo).
TEST_F(ContextFixture, DefaultsAreDocumentedValues) {
    double cores = 0, budget = 0;
    ASSERT_EQ(kmx_system_info(&cores, KMX_SYSTEM_CORES), KMX_OK);
    ASSERT_EQ(kmx_system_info(&budget, KMX_SYSTEM_MEMORY_BUDGET), KMX_OK);
    EXPECT_EQ(get(KMX_PARAM_THREADS), cores);
    EXPECT_GE(cores, 1);
    EXPECT_LE(cores, double(std::thread::hardware_concurrency()));
    EXPECT_EQ(get(KMX_PARAM_SEED), 0);
    EXPECT_EQ(get(KMX_PARAM_MEMORY_BUDGET), budget);
    std::ifstream meminfo("/proc/meminfo");
    std::string key;
    double kib = 0;
    while (meminfo >> key >> kib && key != "MemAvailable:") meminfo.ignore(256, '\n');
    if (key == "MemAvailable:") EXPECT_NEAR(budget, 0.8 * kib * 1024, 0.05 * kib * 1024) << "cgroup limit?";
    EXPECT_EQ(get(KMX_PARAM_LOG_LEVEL), KMX_LOG_WARNING);
}

TEST_F(ContextFixture, ZeroThreadsMeansEveryUsableCore) {
    double cores = 0;
    ASSERT_EQ(kmx_system_info(&cores, KMX_SYSTEM_CORES), KMX_OK);
    EXPECT_EQ(kmx_context_set_param(ctx, KMX_PARAM_THREADS, 1), KMX_OK);
    EXPECT_EQ(get(KMX_PARAM_THREADS), 1);
    EXPECT_EQ(kmx_context_set_params(ctx, "threads=0"), KMX_OK);
    EXPECT_EQ(get(KMX_PARAM_THREADS), cores);
}

TEST_F(ContextFixture, SetAndGetEachParameter) {
    EXPECT_EQ(kmx_context_set_param(ctx, KMX_PARAM_THREADS, 2), KMX_OK);
    EXPECT_EQ(kmx_context_set_param(ctx, KMX_PARAM_SEED, 12345), KMX_OK);
    EXPECT_EQ(kmx_context_set_param(ctx, KMX_PARAM_MEMORY_BUDGET, 1e9), KMX_OK);
    EXPECT_EQ(get(KMX_PARAM_THREADS), 2);
    EXPECT_EQ(get(KMX_PARAM_SEED), 12345);
    EXPECT_EQ(get(KMX_PARAM_MEMORY_BUDGET), 1e9);
}

TEST_F(ContextFixture, StringFormIsAllOrNothing) {
    EXPECT_EQ(kmx_context_set_params(ctx, "threads=2 seed=9 log_level=debug"), KMX_OK);
    EXPECT_EQ(get(KMX_PARAM_THREADS), 2);
    EXPECT_EQ(get(KMX_PARAM_LOG_LEVEL), KMX_LOG_DEBUG);
    EXPECT_EQ(kmx_context_set_params(ctx, "threads=1 seed=-3"), KMX_E_INVALID_ARGUMENT);
    EXPECT_NE(std::string(kmx_last_error()).find("seed"), std::string::npos);
    EXPECT_EQ(get(KMX_PARAM_THREADS), 2) << "a failed string must change nothing";
    EXPECT_EQ(get(KMX_PARAM_SEED), 9);
}

TEST_F(ContextFixture, RejectsImpossibleValuesAndForeignParameters) {
    EXPECT_EQ(kmx_context_set_param(ctx, KMX_PARAM_THREADS, -1), KMX_E_INVALID_ARGUMENT);
    EXPECT_NE(std::string(kmx_last_error()).find("threads"), std::string::npos);
    EXPECT_EQ(kmx_context_set_param(ctx, KMX_PARAM_THREADS, 1.5), KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(kmx_context_set_param(ctx, KMX_PARAM_THREADS, 5000), KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(kmx_context_set_param(ctx, KMX_PARAM_MEMORY_BUDGET, -1), KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(kmx_context_set_param(ctx, KMX_PARAM_GAMMA, 1), KMX_E_INVALID_ARGUMENT);
    EXPECT_NE(std::string(kmx_last_error()).find("does not apply to a context"), std::string::npos);
    EXPECT_EQ(kmx_context_set_params(ctx, "gamma=1"), KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(kmx_context_set_param(nullptr, KMX_PARAM_THREADS, 1), KMX_E_INVALID_ARGUMENT);
    double v;
    EXPECT_EQ(kmx_context_get_param(nullptr, ctx, KMX_PARAM_THREADS), KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(kmx_context_get_param(&v, nullptr, KMX_PARAM_THREADS), KMX_E_INVALID_ARGUMENT);
}

TEST_F(ContextFixture, CallbacksCanBeSetAndRemoved) {
    EXPECT_EQ(kmx_context_set_log_callback(
                  ctx, [](void *, kmx_log_level, const char *) {}, nullptr),
              KMX_OK);
    EXPECT_EQ(kmx_context_set_log_callback(ctx, nullptr, nullptr), KMX_OK);
    EXPECT_EQ(kmx_context_set_progress_callback(
                  ctx, [](void *, double, const char *) { return 0; }, nullptr),
              KMX_OK);
    EXPECT_EQ(kmx_context_set_progress_callback(nullptr, nullptr, nullptr), KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(kmx_context_cancel(ctx), KMX_OK);
    EXPECT_EQ(kmx_context_cancel(nullptr), KMX_E_INVALID_ARGUMENT);
}

TEST_F(ContextFixture, PeakBytesReportsTheLastCallsWorkspace) {
    kmx_kernel *kernel = nullptr;
    ASSERT_EQ(kmx_kernel_create(&kernel, KMX_KERNEL_RBF), KMX_OK);
    std::vector<double> a(64 * 8, 0.5), out(64 * 64);
    ASSERT_EQ(kmx_kernel_block(out.data(), int64_t(out.size()), ctx, kernel, a.data(), 64, a.data(), 64, 8), KMX_OK);
    int64_t peak = -1;
    ASSERT_EQ(kmx_context_peak_bytes(&peak, ctx), KMX_OK);
    EXPECT_GT(peak, 0);
    EXPECT_LT(peak, 64 * 64 * 8) << "a kernel block needs only O(na+nb) scratch besides the caller's output";
    kmx_kernel_free(kernel);
}
