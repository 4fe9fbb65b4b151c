// blis_arch.h — which BLIS kernel set kmx's private BLIS runs.
//
// BLIS picks its kernels by CPU family and model. On a CPU it does not know
// (e.g. AMD EPYC family 26) it falls back to its generic reference kernels,
// 5× slower than its AVX-512 ones. kmx therefore decides from the CPU's
// feature flags instead: AVX-512 F/DQ/BW/VL → skx; AVX2 + FMA → zen3 on AMD,
// haswell otherwise; else generic. A BLIS_ARCH_TYPE set by the user (a BLIS
// number, or a name such as "zen3") always wins, as long as this BLIS has that
// kernel set and the CPU can run it; otherwise it is ignored and said so.
//
// The decision is wired into BLIS's own selection point: BLIS is linked
// statically and hidden, and the linker's --wrap sends its calls to
// bli_cpuid_query_id and bli_env_get_var (the latter only for BLIS_ARCH_TYPE)
// to blis_arch.cpp. It takes effect once, before BLIS's first computation,
// and never touches the process environment or a host process's own BLAS.
// With a shared, system BLIS (-Dblis_static=false) BLIS chooses by itself.
#pragma once

namespace kmx::linalg {

// What the kernel sets need, as the CPU and the OS (saved vector state) allow.
struct CpuFeatures {
    bool amd = false;
    bool avx = false, fma = false, fma4 = false, avx2 = false;
    bool avx512f = false, avx512dq = false, avx512bw = false, avx512vl = false, avx512er = false;
};

// This machine's features (GCC's cpu model, which checks XGETBV too).
CpuFeatures this_cpu_features();

// The kernel set kmx chooses for `cpu`: BLIS's name for it ("skx", "zen3",
// "haswell" or "generic").
const char *choose_kernel_set(const CpuFeatures &cpu);

// A BLIS_ARCH_TYPE value as BLIS would use it: the BLIS arch number of a
// kernel set that this BLIS has and `cpu` can run, or -1 (with `why` set to
// a sentence) for an unknown name or number, a kernel set this BLIS lacks,
// or one the CPU cannot run. Accepts numbers ("0") and names ("skx").
int kernel_set_from_user(const char *value, const CpuFeatures &cpu, const char **why);

// The kernel set BLIS runs in this process, e.g. "skx".
const char *kernel_set_in_use();
// Where it came from: "cpu features", "BLIS_ARCH_TYPE", "BLIS's own choice"
// (shared BLIS), or "cpu features (BLIS_ARCH_TYPE=... ignored: ...)".
const char *kernel_set_origin();

// One-thread dgemm rate in GFLOP/s, measured now (square n = 1000, best of
// three; about 0.1 s with fast kernels).
double measure_dgemm_gflops();

}  // namespace kmx::linalg
