// test_blis_arch.cpp — the BLIS kernel-set choice (blis_arch.h) on faked CPU
// features, a user's BLIS_ARCH_TYPE, and the choice this process ran with.
// Agreement of the results across kernel sets is blis_arch_agreement.py's.
#include <gtest/gtest.h>

#include <blis.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include "linalg/blis_arch.h"

namespace kmx::linalg {
namespace {

CpuFeatures avx2_fma(bool amd) {
    CpuFeatures cpu;
    cpu.amd = amd;
    cpu.avx = cpu.fma = cpu.avx2 = true;
    return cpu;
}

CpuFeatures avx512(bool amd) {
    CpuFeatures cpu = avx2_fma(amd);
    cpu.avx512f = cpu.avx512dq = cpu.avx512bw = cpu.avx512vl = true;
    return cpu;
}

TEST(BlisArch, AvxFiveTwelveWithDqBwVlGetsSkxOnAmdAndIntel) {
    EXPECT_STREQ(choose_kernel_set(avx512(true)), "skx");  // e.g. EPYC family 26, unknown to BLIS 0.9
    EXPECT_STREQ(choose_kernel_set(avx512(false)), "skx");
}

TEST(BlisArch, AvxFiveTwelveWithoutBwFallsBackToAvx2) {
    CpuFeatures cpu = avx512(true);
    cpu.avx512bw = false;
    EXPECT_STREQ(choose_kernel_set(cpu), "zen3");
    cpu = avx512(false);
    cpu.avx512vl = false;
    EXPECT_STREQ(choose_kernel_set(cpu), "haswell");
}

TEST(BlisArch, Avx2AndFmaGetZen3OnAmdHaswellElsewhere) {
    EXPECT_STREQ(choose_kernel_set(avx2_fma(true)), "zen3");
    EXPECT_STREQ(choose_kernel_set(avx2_fma(false)), "haswell");
}

TEST(BlisArch, NeitherGetsGeneric) {
    CpuFeatures cpu = avx2_fma(false);
    cpu.fma = false;  // AVX2 without FMA
    EXPECT_STREQ(choose_kernel_set(cpu), "generic");
    EXPECT_STREQ(choose_kernel_set(CpuFeatures{}), "generic");
}

TEST(BlisArch, UserValueByNumberOrName) {
    const char *why = nullptr;
    EXPECT_EQ(kernel_set_from_user("0", avx512(true), &why), int(BLIS_ARCH_SKX));
    EXPECT_EQ(why, nullptr);
    EXPECT_EQ(kernel_set_from_user("skx", avx512(true), &why), int(BLIS_ARCH_SKX));
    EXPECT_EQ(kernel_set_from_user("zen3", avx512(true), &why), int(BLIS_ARCH_ZEN3));
    EXPECT_EQ(kernel_set_from_user("generic", CpuFeatures{}, &why), int(BLIS_ARCH_GENERIC));
    EXPECT_EQ(kernel_set_from_user(std::to_string(int(BLIS_ARCH_GENERIC)).c_str(), CpuFeatures{}, &why),
              int(BLIS_ARCH_GENERIC));
}

TEST(BlisArch, UserValueTheCpuCannotRunIsRefused) {
    const char *why = nullptr;
    EXPECT_EQ(kernel_set_from_user("skx", avx2_fma(true), &why), -1);  // would be SIGILL
    EXPECT_STREQ(why, "this CPU cannot run that kernel set");
    EXPECT_EQ(kernel_set_from_user("haswell", CpuFeatures{}, &why), -1);
}

TEST(BlisArch, UnknownOrMissingKernelSetIsRefused) {
    const char *why = nullptr;
    EXPECT_EQ(kernel_set_from_user("2", avx512(false), &why), -1);  // knc: not in this BLIS
    EXPECT_STREQ(why, "this BLIS has no such kernel set");
    EXPECT_EQ(kernel_set_from_user("99", avx512(false), &why), -1);
    EXPECT_EQ(kernel_set_from_user("-1", avx512(false), &why), -1);
    EXPECT_EQ(kernel_set_from_user("zen4", avx512(false), &why), -1);
    EXPECT_STREQ(why, "not a BLIS kernel set name or number");
    EXPECT_EQ(kernel_set_from_user("0x", avx512(false), &why), -1);
}

// This process: unless the test runs with BLIS_ARCH_TYPE, BLIS runs exactly
// the set chosen from this CPU's features (with a static, wrapped BLIS).
TEST(BlisArch, ThisProcessRunsTheChosenKernelSet) {
#ifdef KMX_BLIS_WRAPPED
    const char *user = std::getenv("BLIS_ARCH_TYPE");
    if (user && *user) GTEST_SKIP() << "BLIS_ARCH_TYPE is set: " << user;
    EXPECT_STREQ(kernel_set_in_use(), choose_kernel_set(this_cpu_features()));
    EXPECT_STREQ(kernel_set_origin(), "cpu features");
#else
    GTEST_SKIP() << "shared BLIS: BLIS chooses its kernel set itself";
#endif
}

TEST(BlisArch, DgemmRateIsMeasured) {
    const double gflops = measure_dgemm_gflops();
    EXPECT_GT(gflops, 0.1);
    EXPECT_LT(gflops, 1e5);
}

}  // namespace
}  // namespace kmx::linalg
