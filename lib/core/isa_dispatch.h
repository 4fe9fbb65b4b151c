// isa_dispatch.h — one function compiled for AVX-512, AVX2 and baseline
// x86-64, the CPU's variant chosen at run time through a plain function
// pointer.
//
// GCC's and clang's target_clones resolve through IFUNCs, which ld.so runs
// while it relocates libkmx.so, before a sanitizer's runtime is ready (a GCC
// ThreadSanitizer build segfaulted in ld.so there). Here nothing runs at load
// time: the first call reads the CPU's features (__builtin_cpu_supports) and
// keeps the chosen variant in a function-local static.
//
// The environment variable KMX_ISA=avx2 or KMX_ISA=baseline caps the level
// (read at each variant's first call; never above what the CPU runs): a test
// runs the AVX2 code, e.g. an AMD Zen 3's, on an AVX-512 machine that way.
//
// Usage, for `ret name(params)` whose body is the always_inline function
// `name_body` (so each variant compiles the whole body for its ISA):
//     KMX_ISA_VARIANTS(int64_t, nearest, (const double *x, int64_t n), (x, n))
// (KMX_ISA_LEVEL_VARIANTS: the body a template on the IsaLevel, below.)
#pragma once
#include <cstdlib>
#include <cstring>

namespace kmx {

enum class IsaLevel { Baseline, Avx2, Avx512f };

// The cap KMX_ISA sets (Avx512f when unset or unknown).
inline IsaLevel isa_level_cap() {
    const char *value = std::getenv("KMX_ISA");
    if (value && !std::strcmp(value, "avx2")) return IsaLevel::Avx2;
    if (value && !std::strcmp(value, "baseline")) return IsaLevel::Baseline;
    return IsaLevel::Avx512f;
}

// The widest of the three the CPU runs (Baseline off x86-64), capped by KMX_ISA.
inline IsaLevel cpu_isa_level() {
    IsaLevel level = IsaLevel::Baseline;
#if defined(__x86_64__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f"))
        level = IsaLevel::Avx512f;
    else if (__builtin_cpu_supports("avx2"))
        level = IsaLevel::Avx2;
#endif
    const IsaLevel cap = isa_level_cap();
    return int(cap) < int(level) ? cap : level;
}

// The variant for `level`.
template <class Fn>
Fn pick_isa_variant(IsaLevel level, Fn avx512f, Fn avx2, Fn baseline) {
    return level == IsaLevel::Avx512f ? avx512f : level == IsaLevel::Avx2 ? avx2 : baseline;
}

}  // namespace kmx

#define KMX_ALWAYS_INLINE __attribute__((always_inline)) inline

namespace kmx {

// a·b + c, fused (one rounding) where the variant has FMA.
template <bool kFma>
KMX_ALWAYS_INLINE double mul_add(double a, double b, double c) {
    if constexpr (kFma)
        return __builtin_fma(a, b, c);
    else
        return a * b + c;
}

}  // namespace kmx

#if defined(__x86_64__)
#define KMX_ISA_VARIANTS(ret, name, params, args)                                                          \
    __attribute__((target("avx512f"))) ret name##_avx512f params { return name##_body args; }              \
    __attribute__((target("avx2"))) ret name##_avx2 params { return name##_body args; }                    \
    ret name##_baseline params { return name##_body args; }                                                \
    ret name params {                                                                                      \
        static const auto variant =                                                                        \
            ::kmx::pick_isa_variant(::kmx::cpu_isa_level(), name##_avx512f, name##_avx2, name##_baseline); \
        return variant args;                                                                               \
    }
// As KMX_ISA_VARIANTS, for a body that is a template on the IsaLevel it is
// compiled for (to choose, say, its vector width: `name_body<level>`).
#define KMX_ISA_LEVEL_VARIANTS(ret, name, params, args)                                                        \
    __attribute__((target("avx512f"))) ret name##_avx512f params {                                             \
        return name##_body<::kmx::IsaLevel::Avx512f> args;                                                     \
    }                                                                                                          \
    __attribute__((target("avx2"))) ret name##_avx2 params { return name##_body<::kmx::IsaLevel::Avx2> args; } \
    ret name##_baseline params { return name##_body<::kmx::IsaLevel::Baseline> args; }                         \
    ret name params {                                                                                          \
        static const auto variant =                                                                            \
            ::kmx::pick_isa_variant(::kmx::cpu_isa_level(), name##_avx512f, name##_avx2, name##_baseline);     \
        return variant args;                                                                                   \
    }
#else
#define KMX_ISA_VARIANTS(ret, name, params, args) \
    ret name params { return name##_body args; }
#define KMX_ISA_LEVEL_VARIANTS(ret, name, params, args) \
    ret name params { return name##_body<::kmx::IsaLevel::Baseline> args; }
#endif
