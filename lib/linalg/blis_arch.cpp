// blis_arch.cpp — kmx's choice of BLIS kernel set (see blis_arch.h) and the
// two linker-wrapped BLIS entry points through which BLIS asks for it.
#include "blis_arch.h"

#include <blis.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>

#include "linalg.h"

namespace kmx::linalg {

namespace {

// The x86-64 kernel sets Debian's BLIS 0.9 is built with, and what each needs.
struct KernelSet {
    arch_t id;
    const char *name;  // as bli_arch_string(id)
    bool (*runs_on)(const CpuFeatures &);
};

bool has_skx(const CpuFeatures &c) { return c.avx512f && c.avx512dq && c.avx512bw && c.avx512vl; }
bool has_knl(const CpuFeatures &c) { return c.avx512f && c.avx512er; }
bool has_avx2_fma(const CpuFeatures &c) { return c.avx2 && c.fma; }
bool has_avx_fma3(const CpuFeatures &c) { return c.avx && c.fma; }
bool has_avx_fma4(const CpuFeatures &c) { return c.avx && c.fma4; }
bool has_avx(const CpuFeatures &c) { return c.avx; }
bool always(const CpuFeatures &) { return true; }

constexpr KernelSet kKernelSets[] = {
    {BLIS_ARCH_SKX, "skx", has_skx},
    {BLIS_ARCH_KNL, "knl", has_knl},
    {BLIS_ARCH_HASWELL, "haswell", has_avx2_fma},
    {BLIS_ARCH_SANDYBRIDGE, "sandybridge", has_avx},
    {BLIS_ARCH_PENRYN, "penryn", always},
    {BLIS_ARCH_ZEN3, "zen3", has_avx2_fma},
    {BLIS_ARCH_ZEN2, "zen2", has_avx2_fma},
    {BLIS_ARCH_ZEN, "zen", has_avx2_fma},
    {BLIS_ARCH_EXCAVATOR, "excavator", has_avx_fma3},
    {BLIS_ARCH_STEAMROLLER, "steamroller", has_avx_fma3},
    {BLIS_ARCH_PILEDRIVER, "piledriver", has_avx_fma3},
    {BLIS_ARCH_BULLDOZER, "bulldozer", has_avx_fma4},
    {BLIS_ARCH_GENERIC, "generic", always},
};

const KernelSet *find_by_name(const char *name) {
    for (const KernelSet &set : kKernelSets)
        if (std::strcmp(set.name, name) == 0) return &set;
    return nullptr;
}

const KernelSet *find_by_id(long id) {
    for (const KernelSet &set : kKernelSets)
        if (long(set.id) == id) return &set;
    return nullptr;
}

// skx with AVX-512 F/DQ/BW/VL; with AVX2 and FMA zen3 on AMD, haswell
// otherwise; else generic (entries of kKernelSets).
const KernelSet &chosen_kernel_set(const CpuFeatures &cpu) {
    const arch_t id = has_skx(cpu)        ? BLIS_ARCH_SKX
                      : has_avx2_fma(cpu) ? (cpu.amd ? BLIS_ARCH_ZEN3 : BLIS_ARCH_HASWELL)
                                          : BLIS_ARCH_GENERIC;
    return *find_by_id(long(id));
}

// What the wrapped BLIS_ARCH_TYPE look-up found, for kernel_set_origin().
// Written once, inside BLIS's own one-time initialisation.
char g_origin[200] = "";

}  // namespace

CpuFeatures this_cpu_features() {
    CpuFeatures cpu;
#if defined(__x86_64__)
    __builtin_cpu_init();
    cpu.amd = __builtin_cpu_is("amd");
    cpu.avx = __builtin_cpu_supports("avx");
    cpu.fma = __builtin_cpu_supports("fma");
    cpu.fma4 = __builtin_cpu_supports("fma4");
    cpu.avx2 = __builtin_cpu_supports("avx2");
    cpu.avx512f = __builtin_cpu_supports("avx512f");
    cpu.avx512dq = __builtin_cpu_supports("avx512dq");
    cpu.avx512bw = __builtin_cpu_supports("avx512bw");
    cpu.avx512vl = __builtin_cpu_supports("avx512vl");
    cpu.avx512er = __builtin_cpu_supports("avx512er");
#endif
    return cpu;
}

const char *choose_kernel_set(const CpuFeatures &cpu) { return chosen_kernel_set(cpu).name; }

int kernel_set_from_user(const char *value, const CpuFeatures &cpu, const char **why) {
    *why = nullptr;
    const KernelSet *set = find_by_name(value);
    if (!set) {
        char *end = nullptr;
        const long id = std::strtol(value, &end, 10);
        if (end == value || *end != '\0') {
            *why = "not a BLIS kernel set name or number";
            return -1;
        }
        set = find_by_id(id);
    }
    if (!set) {
        *why = "this BLIS has no such kernel set";
        return -1;
    }
    if (!set->runs_on(cpu)) {
        *why = "this CPU cannot run that kernel set";
        return -1;
    }
    return int(set->id);
}

// BLIS's kernel-set id, decided on first use. BLIS must be initialised
// first: a user's BLIS_ARCH_TYPE is checked against its table of contexts.
arch_t kernel_set_id() {
    bli_init();
    return bli_arch_query_id();
}

const char *kernel_set_in_use() { return bli_arch_string(kernel_set_id()); }

const char *kernel_set_origin() {
    kernel_set_id();
    return g_origin[0] ? g_origin : "BLIS's own choice";
}

double measure_dgemm_gflops() {
    constexpr int64_t n = 1000;
    auto a = std::make_unique<double[]>(n * n), b = std::make_unique<double[]>(n * n),
         c = std::make_unique<double[]>(n * n);
    std::mt19937_64 rng(1);
    std::uniform_real_distribution<double> uniform(-1, 1);
    for (int64_t i = 0; i < n * n; ++i) a[i] = uniform(rng), b[i] = uniform(rng);
    double best = 1e300;
    for (int rep = 0; rep < 3; ++rep) {
        const auto start = std::chrono::steady_clock::now();
        gemm(Trans::No, Trans::No, n, n, n, 1.0, a.get(), n, b.get(), n, 0.0, c.get(), n, 1);
        best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    return 2.0 * double(n) * double(n) * double(n) / best * 1e-9;
}

}  // namespace kmx::linalg

#ifdef KMX_BLIS_WRAPPED
// The linker's --wrap (meson.build, with a static BLIS) sends BLIS's own calls
// here; __real_* are BLIS's originals. Both run inside BLIS's one-time
// initialisation, under its pthread_once.
extern "C" {
arch_t __real_bli_cpuid_query_id(void);
gint_t __real_bli_env_get_var(const char *env, gint_t fallback);

// BLIS asks for this only when BLIS_ARCH_TYPE gave nothing usable.
arch_t __wrap_bli_cpuid_query_id(void) {
    using namespace kmx::linalg;
    if (!g_origin[0]) std::snprintf(g_origin, sizeof g_origin, "cpu features");
    return chosen_kernel_set(this_cpu_features()).id;
}

// BLIS_ARCH_TYPE as a number, a name, or -1 (then BLIS asks cpuid, above)
// when unset or unusable; every other variable is BLIS's as before.
gint_t __wrap_bli_env_get_var(const char *env, gint_t fallback) {
    using namespace kmx::linalg;
    if (std::strcmp(env, "BLIS_ARCH_TYPE") != 0) return __real_bli_env_get_var(env, fallback);
    const char *value = std::getenv(env);
    if (!value || !*value) return fallback;
    const char *why = nullptr;
    const int id = kernel_set_from_user(value, this_cpu_features(), &why);
    if (id >= 0) {
        std::snprintf(g_origin, sizeof g_origin, "BLIS_ARCH_TYPE");
        return id;
    }
    std::snprintf(g_origin, sizeof g_origin, "cpu features (BLIS_ARCH_TYPE=%.40s ignored: %s)", value, why);
    return fallback;
}
}
#endif
