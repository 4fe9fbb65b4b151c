// test_flame_init.cpp — libFLAME's one-time initialisation, which must be the
// first FLAME use in its process: meson runs each test here in a process of
// its own (--gtest_filter); run together, every test after the first skips.
//
// FLA_Init sets flush-to-zero in the calling thread's MXCSR and is not
// thread-safe; ensure_flame_initialized must hide both.
#include <gtest/gtest.h>
#include <xmmintrin.h>

#include <atomic>
#include <thread>
#include <vector>

#include "linalg/linalg.h"
#include "linalg_test_util.h"

namespace kmx::linalg::testing {
namespace {

constexpr unsigned int kFlushToZero = _MM_FLUSH_ZERO_ON;  // MXCSR bit 15
constexpr unsigned int kDenormalsAreZero = 0x0040;        // MXCSR bit 6

// MXCSR without its sticky exception flags (bits 0-5), which arithmetic sets.
unsigned int fp_mode() { return _mm_getcsr() & ~0x3Fu; }

// True for the first test of the process to call this.
bool first_flame_use_in_process() {
    static std::atomic<bool> used{false};
    return !used.exchange(true);
}

// Factors a random SPD matrix and returns ‖L Lᵀ − A‖ / ‖A‖.
double factor_and_check(uint64_t seed) {
    std::mt19937_64 rng(seed);
    const Matrix a0 = random_spd(64, rng);
    Matrix a = a0;
    cholesky(Uplo::Lower, 64, a.p(), a.ld);
    const Matrix l = triangle(a, true);
    return relative_difference(multiply(l, transpose(l)), a0);
}

TEST(FlameInit, FirstCallKeepsTheCallersMxcsr) {
    if (!first_flame_use_in_process()) GTEST_SKIP() << "needs a fresh process (run with --gtest_filter)";
    const unsigned int before = fp_mode();
    ASSERT_EQ(before & (kFlushToZero | kDenormalsAreZero), 0u) << "test expects the default FP mode";
    EXPECT_LT(factor_and_check(1), 1e-12);
    EXPECT_EQ(fp_mode(), before);
    volatile double tiny = 1e-300;
    volatile double subnormal = tiny * 1e-10;  // 1e-310: flushed to 0 under FTZ
    EXPECT_NE(subnormal, 0.0);
}

TEST(FlameInit, ConcurrentFirstUseFromTwoThreads) {
    if (!first_flame_use_in_process()) GTEST_SKIP() << "needs a fresh process (run with --gtest_filter)";
    const unsigned int main_before = fp_mode();
    std::atomic<int> ready{0};
    std::vector<double> residual(2, 1.0);
    std::vector<unsigned int> before(2), after(2);
    std::vector<std::thread> threads;
    for (int t = 0; t < 2; ++t)
        threads.emplace_back([&, t] {
            if (t == 1) _mm_setcsr(_mm_getcsr() | kDenormalsAreZero);  // a non-default mode must survive too
            before[size_t(t)] = fp_mode();
            ready.fetch_add(1);
            while (ready.load() < 2) {
            }  // both threads enter libFLAME at once
            residual[size_t(t)] = factor_and_check(uint64_t(t) + 10);
            after[size_t(t)] = fp_mode();
        });
    for (auto &thread : threads) thread.join();
    for (int t = 0; t < 2; ++t) {
        EXPECT_LT(residual[size_t(t)], 1e-12) << "thread " << t;
        EXPECT_EQ(after[size_t(t)], before[size_t(t)]) << "thread " << t;
    }
    EXPECT_EQ(fp_mode(), main_before);
}

}  // namespace
}  // namespace kmx::linalg::testing
