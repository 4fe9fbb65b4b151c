// fast_exp.cpp — table-driven e^x (Tang, "Table-driven implementation of
// the exponential function in IEEE floating-point arithmetic", ACM TOMS 1989),
// with N = 16 table entries:
//
//   k = round(x · N/ln2) = N·n + j  (0 ≤ j < N),   r = x − k·ln2/N,  |r| ≤ ln2/(2N)
//   e^x = 2^n · 2^(j/N) · e^r,   e^r ≈ p(r)
//
// ln2/N is split in two (Cody & Waite) so that k·ln2/N is exact; p has degree
// 6 (Chebyshev fit on [−ln2/32, ln2/32], error 7e-18, below double rounding);
// 2^(j/N) comes from a table of 16 doubles. Errors: table entry 0.5 ulp,
// polynomial and products about 1 ulp together.
//
// One algorithm, three codings:
//  - portable C++ that the compiler vectorises, built for the baseline ISA.
//    2^n is written into the exponent bits as 2^(n+60), and the table holds
//    2^(j/N)·2^−60;
//  - AVX2+FMA intrinsics with N = 4 (kAvx2...): the table is one register
//    read by two in-lane permutes and a blend, where N = 16 would need a
//    gather (as the portable coding compiled for AVX2 did: 1.8x slower), and p
//    has degree 8 on the wider |r| ≤ ln2/8. 2^n is added to the exponent
//    bits of 2^(j/N)·p(r) as an integer, for vectors whose every argument
//    lies in [−707, 709] (there the result is normal); any other vector
//    (rare in kernels: γ·D > 707) goes lane by lane through the portable
//    coding;
//  - AVX-512 intrinsics: the rounding yields k/N directly (below), the table
//    sits in two registers (vpermt2pd) and vscalefpd applies 2^n.
// Results below DBL_MIN (n < −1022: subnormal or 0) are made without an
// instruction that underflows, which on Intel is a microcode assist (15-60x
// a normal entry's time): 2^(n+1074)·2^(j/N)·p(r) is normal and exact, and
// adding 2^52 rounds it to the integer whose bits are the subnormal's. The
// codings take that path only for a block (32 entries; AVX-512: 8; AVX2: 4)
// holding an argument below −708 (AVX2: −707); the portable one also for a
// block holding one above 667, beyond its biased exponent's range (there it
// scales in two multiplies, which overflow to +∞ where e^x does).
// The fastest one the CPU supports is chosen once, at first use.
#include "fast_exp.h"

#include <algorithm>
#include <cstring>

#include "core/isa_dispatch.h"
#include "fast_exp_detail.h"

namespace kmx {

namespace {

using namespace fast_exp_detail;

// ------------------------------------------------------------ portable coding
constexpr int kScaleBias = 60;  // 2^(n + bias) is a normal number for every n ≥ −1077
// … and for n ≤ 963: x ≤ 667 (above, kTiny's path scales in two steps); past
// kHighest, e^x is +∞ (ln DBL_MAX = 709.78…).
constexpr double kBiasedAbove = 667.0, kHighest = 710.0;

struct ScaledTable {
    double v[kTableSize];
    constexpr ScaledTable() : v{} {
        for (int j = 0; j < kTableSize; ++j) v[j] = kTable[j] * 0x1p-60;  // exact
    }
};
alignas(64) constexpr ScaledTable kScaledTable;

inline uint64_t bits_of(double v) {
    uint64_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    return bits;
}

inline double double_of(uint64_t bits) {
    double v;
    std::memcpy(&v, &bits, sizeof v);
    return v;
}

template <bool kFma>
inline double polynomial(double r) {
    double p = kPoly[6];
    p = mul_add<kFma>(p, r, kPoly[5]);
    p = mul_add<kFma>(p, r, kPoly[4]);
    p = mul_add<kFma>(p, r, kPoly[3]);
    p = mul_add<kFma>(p, r, kPoly[2]);
    p = mul_add<kFma>(p, r, kPoly[1]);
    return mul_add<kFma>(p, r, kPoly[0]);
}

// kTiny: some results may be subnormal or 0 (x < kMayUnderflowBelow), or
// beyond 2^(n + bias)'s range (x > kBiasedAbove).
template <bool kFma, bool kTiny>
inline double exp_portable(double x) {
    x = x < kLowest ? kLowest : x > kHighest ? kHighest : x;
    const double shifted = mul_add<kFma>(x, kInvLn2N, kRoundShifter);  // 1.5·2^52 + k
    const double k = shifted - kRoundShifter;
    double r = mul_add<kFma>(-k, kLn2HiN, x);
    r = mul_add<kFma>(-k, kLn2LoN, r);
    const uint64_t bits = bits_of(shifted);
    const double table = kScaledTable.v[bits % kTableSize];  // j = k mod N
    // floor(k / N) + 1023 + bias, in the exponent field (wraps correctly for k < 0).
    const uint64_t exponent = (bits >> kTableBits) - (kRoundShifterBits >> kTableBits) + 1023 + kScaleBias;
    if constexpr (!kTiny) return table * polynomial<kFma>(r) * double_of(exponent << 52);
    // n < −1022 (k < −1022·N): the result is subnormal or 0, and a multiply
    // that underflows is a microcode assist on Intel (15-60x a normal entry's
    // time). There the product is scaled by 2^1074 more (normal and exact),
    // and adding 2^52 rounds it to the integer whose bits, as a double, are
    // the subnormal (DBL_MIN where it rounds up). NaN is not tiny.
    // (Selections by masks: a branch in the loop would keep it from vectorising.)
    // All ones where k < −1022·N (the sign of the exact k + 1022·N), else 0.
    const uint64_t tiny = uint64_t(0) - (bits_of(k - kSmallestNormalN * kTableSize) >> 63);
    // Where n + bias would leave the exponent field, 2^(n + bias − 120) and
    // then 2^120, which overflows to +∞ where e^x does.
    const uint64_t big = uint64_t(0) - uint64_t(x > kBiasedAbove);
    const double product = table * polynomial<kFma>(r) * double_of((exponent + (tiny & 1074) - (big & 120)) << 52) *
                           double_of(bits_of(1.0) + (big & (uint64_t(120) << 52)));
    const uint64_t subnormal = bits_of(product + 0x1p52) - bits_of(0x1p52);
    return double_of((tiny & subnormal) | (~tiny & bits_of(product)));
}

// The loops go in blocks of kBlock arguments: a block with none below
// kMayUnderflowBelow or above kBiasedAbove (in kernels, nearly all: γ·D > 708
// is rare, and arguments are ≤ 0) takes the coding without the kTiny path
// (its masks cost 25-40% more per entry).
constexpr int64_t kBlock = 32;

// Whether any of x[0, n) is below kMayUnderflowBelow or above kBiasedAbove
// (NaN is not): whether the block needs the kTiny path.
inline bool needs_tiny_path(const double *x, int64_t n) {
    bool any = false;
#pragma omp simd reduction(| : any)
    for (int64_t i = 0; i < n; ++i) any |= (x[i] < kMayUnderflowBelow) | (x[i] > kBiasedAbove);
    return any;
}

// The portable coding's loops (the baseline path; the AVX2 one takes
// exp_portable<true, true> for odd lanes only).
template <bool kTiny>
inline void exp_block(double *x, int64_t n) {
#pragma omp simd
    for (int64_t i = 0; i < n; ++i) x[i] = exp_portable<false, kTiny>(x[i]);
}

// One block (n ≤ kBlock): with the kTiny path only where it may be needed.
inline void exp_checked_block(double *x, int64_t n) {
    if (needs_tiny_path(x, n))
        exp_block<true>(x, n);
    else
        exp_block<false>(x, n);
}

void exp_baseline(double *x, int64_t n) {
    for (int64_t i = 0; i < n; i += kBlock) exp_checked_block(x + i, std::min(kBlock, n - i));
}

void gaussian_baseline(double *row, int64_t n, double gamma, double sq_a, const double *sq_b, double floor_a,
                       const double *floor_b) {
    for (int64_t j0 = 0; j0 < n; j0 += kBlock) {
        const int64_t count = std::min(kBlock, n - j0);
        double *out = row + j0;
#pragma omp simd
        for (int64_t j = 0; j < count; ++j) {
            const double dist2 = out[j] + (sq_a + sq_b[j0 + j]);
            out[j] = -gamma * (dist2 > floor_a + floor_b[j0 + j] ? dist2 : 0.0);
        }
        exp_checked_block(out, count);
    }
}

#ifdef KMX_X86_64
// --------------------------------------------------------------- AVX2 coding
// (the steps: fast_exp_detail.h)
}  // namespace

// (fast_exp_detail.h says what it does.)
__attribute__((target("avx2,fma"))) __m256d fast_exp_detail::exp4_with_outside(__m256d x) {
    const __m256d outside = outside4(x);
    __m256d inside[1] = {_mm256_andnot_pd(outside, x)};  // outside lanes: e^0 there
    exp4_normal(inside);
    alignas(32) double args[4], values[4];
    _mm256_store_pd(args, x);
    _mm256_store_pd(values, inside[0]);
    const int outside_lanes = _mm256_movemask_pd(outside);
    for (int i = 0; i < 4; ++i)
        if (outside_lanes >> i & 1) values[i] = exp_portable<true, true>(args[i]);
    return _mm256_load_pd(values);
}

namespace {

// The 4 doubles at p: all (kWhole), or the lanes (the others read as 0).
template <bool kWhole>
__attribute__((target("avx2"), always_inline)) inline __m256d load4(const double *p, __m256i lanes) {
    return kWhole ? _mm256_loadu_pd(p) : _mm256_maskload_pd(p, lanes);
}

template <bool kWhole>
__attribute__((target("avx2"), always_inline)) inline void store4(double *p, __m256i lanes, __m256d v) {
    if (kWhole)
        _mm256_storeu_pd(p, v);
    else
        _mm256_maskstore_pd(p, lanes, v);
}

// e^x for the G·4 arguments at x (a partial group of 4: the lanes).
template <int G, bool kWhole>
__attribute__((target("avx2,fma"), always_inline)) inline void exp4_at(double *x, __m256i lanes) {
    __m256d v[G];
    for (int g = 0; g < G; ++g) v[g] = load4<kWhole>(x + 4 * g, lanes);
    exp4(v);
    for (int g = 0; g < G; ++g) store4<kWhole>(x + 4 * g, lanes, v[g]);
}

__attribute__((target("avx2,fma"))) void exp_avx2_fma(double *x, int64_t n) {
    const __m256i whole = _mm256_set1_epi64x(-1);
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) exp4_at<2, true>(x + i, whole);
    for (; i + 4 <= n; i += 4) exp4_at<1, true>(x + i, whole);
    if (i < n) exp4_at<1, false>(x + i, lanes4_from(i, n));
}

// The Gaussian pass on the G·4 entries at j of a row: D clamped to 0 at or
// below the floor, then e^{−γD} (a partial group of 4: the lanes).
template <int G, bool kWhole>
__attribute__((target("avx2,fma"), always_inline)) inline void gaussian4_at(double *row, const double *sq_b,
                                                                            const double *floor_b, int64_t j,
                                                                            __m256i lanes, __m256d minus_gamma,
                                                                            __m256d sq_a4, __m256d floor_a4) {
    __m256d x[G];
    for (int g = 0; g < G; ++g) {
        const int64_t at = j + 4 * g;
        const __m256d norms = _mm256_add_pd(sq_a4, load4<kWhole>(sq_b + at, lanes));
        const __m256d dist2 = _mm256_add_pd(load4<kWhole>(row + at, lanes), norms);
        const __m256d floor = _mm256_add_pd(floor_a4, load4<kWhole>(floor_b + at, lanes));
        const __m256d kept = _mm256_cmp_pd(dist2, floor, _CMP_GT_OQ);
        x[g] = _mm256_and_pd(kept, _mm256_mul_pd(dist2, minus_gamma));
    }
    exp4(x);
    for (int g = 0; g < G; ++g) store4<kWhole>(row + j + 4 * g, lanes, x[g]);
}

__attribute__((target("avx2,fma"))) void gaussian_avx2_fma(double *row, int64_t n, double gamma, double sq_a,
                                                           const double *sq_b, double floor_a, const double *floor_b) {
    const __m256d minus_gamma = _mm256_set1_pd(-gamma), sq_a4 = _mm256_set1_pd(sq_a);
    const __m256d floor_a4 = _mm256_set1_pd(floor_a);
    const __m256i whole = _mm256_set1_epi64x(-1);
    int64_t j = 0;
    for (; j + 8 <= n; j += 8) gaussian4_at<2, true>(row, sq_b, floor_b, j, whole, minus_gamma, sq_a4, floor_a4);
    for (; j + 4 <= n; j += 4) gaussian4_at<1, true>(row, sq_b, floor_b, j, whole, minus_gamma, sq_a4, floor_a4);
    if (j < n) gaussian4_at<1, false>(row, sq_b, floor_b, j, lanes4_from(j, n), minus_gamma, sq_a4, floor_a4);
}

// ------------------------------------------------------------ AVX-512 coding
// (exp8 and lanes_from: fast_exp_detail.h)
}  // namespace

__attribute__((target("avx512f"))) __m512d fast_exp_detail::exp8_underflowing(__m512d x) {
    __m512d k_over_n, scaled;
    exp8_parts(x, k_over_n, scaled);
    const __mmask8 tiny = _mm512_cmp_pd_mask(k_over_n, _mm512_set1_pd(kSmallestNormalN), _CMP_LT_OQ);
    const __m512d normal = _mm512_maskz_scalef_pd(__mmask8(~tiny), scaled, k_over_n);
    const __m512d v = _mm512_maskz_scalef_pd(tiny, scaled, _mm512_add_pd(k_over_n, _mm512_set1_pd(kSubnormalShift)));
    const __m512i bits = _mm512_sub_epi64(_mm512_castpd_si512(_mm512_add_pd(v, _mm512_set1_pd(0x1p52))),
                                          _mm512_castpd_si512(_mm512_set1_pd(0x1p52)));
    return _mm512_mask_mov_pd(normal, tiny, _mm512_castsi512_pd(bits));
}

namespace {

__attribute__((target("avx512f"))) void exp_avx512(double *x, int64_t n) {
    for (int64_t i = 0; i < n; i += 8) {
        const __mmask8 lanes = lanes_from(i, n);
        _mm512_mask_storeu_pd(x + i, lanes, exp8(_mm512_maskz_loadu_pd(lanes, x + i)));
    }
}

// −γ D for the 8 entries at j of a Gaussian row, D clamped to 0 at or below
// the floor (lanes: those inside the row).
__attribute__((target("avx512f"))) inline __m512d gaussian_argument8(const double *row, const double *sq_b,
                                                                     const double *floor_b, int64_t j, __mmask8 lanes,
                                                                     __m512d minus_gamma, __m512d sq_a8,
                                                                     __m512d floor_a8) {
    const __m512d norms = _mm512_add_pd(sq_a8, _mm512_maskz_loadu_pd(lanes, sq_b + j));
    const __m512d dist2 = _mm512_add_pd(_mm512_maskz_loadu_pd(lanes, row + j), norms);
    const __m512d floor = _mm512_add_pd(floor_a8, _mm512_maskz_loadu_pd(lanes, floor_b + j));
    const __mmask8 kept = _mm512_cmp_pd_mask(dist2, floor, _CMP_GT_OQ);
    return _mm512_maskz_mul_pd(kept, dist2, minus_gamma);
}

__attribute__((target("avx512f"))) void gaussian_avx512(double *row, int64_t n, double gamma, double sq_a,
                                                        const double *sq_b, double floor_a, const double *floor_b) {
    const __m512d minus_gamma = _mm512_set1_pd(-gamma), sq_a8 = _mm512_set1_pd(sq_a);
    const __m512d floor_a8 = _mm512_set1_pd(floor_a);
    int64_t j = 0;
    for (; j + 16 <= n; j += 16) {  // two independent groups per step, one branch for both
        __mmask8 tiny0, tiny1;
        const __m512d x0 =
            exp8_clamped(gaussian_argument8(row, sq_b, floor_b, j, kAllLanes, minus_gamma, sq_a8, floor_a8), tiny0);
        const __m512d x1 =
            exp8_clamped(gaussian_argument8(row, sq_b, floor_b, j + 8, kAllLanes, minus_gamma, sq_a8, floor_a8), tiny1);
        if (tiny0 | tiny1) {
            _mm512_storeu_pd(row + j, exp8_underflowing(x0));
            _mm512_storeu_pd(row + j + 8, exp8_underflowing(x1));
        } else {
            _mm512_storeu_pd(row + j, exp8_normal(x0));
            _mm512_storeu_pd(row + j + 8, exp8_normal(x1));
        }
    }
    for (; j < n; j += 8) {
        const __mmask8 lanes = lanes_from(j, n);
        _mm512_mask_storeu_pd(row + j, lanes,
                              exp8(gaussian_argument8(row, sq_b, floor_b, j, lanes, minus_gamma, sq_a8, floor_a8)));
    }
}
#endif  // KMX_X86_64

// ------------------------------------------------------------------ dispatch
using ExpFn = void (*)(double *, int64_t);
using GaussianFn = void (*)(double *, int64_t, double, double, const double *, double, const double *);

struct Implementation {
    ExpFn exp;
    GaussianFn gaussian;
};

Implementation implementation(ExpPath path) {
    switch (path) {
#ifdef KMX_X86_64
        case ExpPath::Avx512:
            return {exp_avx512, gaussian_avx512};
        case ExpPath::Avx2Fma:
            return {exp_avx2_fma, gaussian_avx2_fma};
#endif
        default:
            return {exp_baseline, gaussian_baseline};
    }
}

// The fastest path the CPU supports, within isa_dispatch.h's level (KMX_ISA).
ExpPath fastest_path() {
    const IsaLevel level = cpu_isa_level();
    if (level == IsaLevel::Avx512f && exp_path_supported(ExpPath::Avx512)) return ExpPath::Avx512;
    if (level != IsaLevel::Baseline && exp_path_supported(ExpPath::Avx2Fma)) return ExpPath::Avx2Fma;
    return ExpPath::Baseline;
}

const Implementation &chosen() {
    static const Implementation impl = implementation(exp_path_in_use());
    return impl;
}

}  // namespace

ExpPath exp_path_in_use() {
    static const ExpPath path = fastest_path();
    return path;
}

bool exp_path_supported(ExpPath path) {
#ifdef KMX_X86_64
    __builtin_cpu_init();
    switch (path) {
        case ExpPath::Avx512:
            return __builtin_cpu_supports("avx512f");
        case ExpPath::Avx2Fma:
            return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
        default:
            return true;
    }
#else
    return path == ExpPath::Baseline;
#endif
}

void exp_in_place(double *x, int64_t n) { chosen().exp(x, n); }

void gaussian_row_from_gram(double *row, int64_t n, double gamma, double sq_a, const double *sq_b, double floor_a,
                            const double *floor_b) {
    chosen().gaussian(row, n, gamma, sq_a, sq_b, floor_a, floor_b);
}

void exp_in_place(ExpPath path, double *x, int64_t n) { implementation(path).exp(x, n); }

void gaussian_row_from_gram(ExpPath path, double *row, int64_t n, double gamma, double sq_a, const double *sq_b,
                            double floor_a, const double *floor_b) {
    implementation(path).gaussian(row, n, gamma, sq_a, sq_b, floor_a, floor_b);
}

}  // namespace kmx
