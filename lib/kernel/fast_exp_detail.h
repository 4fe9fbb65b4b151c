// fast_exp_detail.h — the constants of fast_exp.cpp's table-driven e^x and
// its AVX-512 coding of 8 lanes, for code that fuses the exponential into a
// loop of its own (the compact predictor's row path) and must give the same
// bits as exp_in_place. Not an interface: use fast_exp.h.
#pragma once
#include <cstdint>

#if defined(__x86_64__)
#include <immintrin.h>
#define KMX_X86_64 1
#endif

namespace kmx {
namespace fast_exp_detail {

constexpr int kTableBits = 4;
constexpr int kTableSize = 1 << kTableBits;                          // N
constexpr double kInvLn2N = 23.083120654223414;                      // N / ln2
constexpr double kLn2HiN = 6.93147180369123816490e-01 / kTableSize;  // 21 significant bits: k · kLn2HiN is exact
constexpr double kLn2LoN = 1.90821492927058770002e-10 / kTableSize;  // ln2/N − kLn2HiN
// Adding 1.5·2^52 rounds to an integer and leaves it in the low mantissa bits.
constexpr double kRoundShifter = 0x1.8p52;
constexpr uint64_t kRoundShifterBits = 0x4338000000000000;
constexpr double kLowest = -746.0;  // e^x rounds to 0 below −745.14
// 2^n is normal for n ≥ −1022; below, e^x is subnormal (or 0), made from
// 2^(n + 1074) times the rest, rounded to an integer number of 2^−1074.
constexpr double kSmallestNormalN = -1022.0;
constexpr double kSubnormalShift = 1074.0;
// Above this, e^x is a normal number (ln DBL_MIN = −708.396...).
constexpr double kMayUnderflowBelow = -708.0;

// e^r ≈ Σ c_i r^i on |r| ≤ ln2/32 (mpmath.chebyfit(exp, [−ln2/32, ln2/32], 7)).
constexpr double kPoly[7] = {
    1.0,
    1.0000000000000022,
    0.5000000000000003,
    0.16666666662844726,
    0.04166666666188925,
    0.008333496248686918,
    0.0013889092532749104,
};

// 2^(j/16), rounded to nearest.
alignas(64) constexpr double kTable[kTableSize] = {
    1.0,
    1.0442737824274138,
    1.0905077326652577,
    1.1387886347566916,
    1.189207115002721,
    1.241857812073484,
    1.2968395546510096,
    1.3542555469368927,
    1.4142135623730951,
    1.4768261459394993,
    1.5422108254079407,
    1.6104903319492543,
    1.681792830507429,
    1.7562521603732995,
    1.8340080864093424,
    1.9152065613971474,
};

#ifdef KMX_X86_64
// (The maskz_ forms with all lanes set are the plain operations; GCC 12's
// plain _mm512_max_pd/_mm512_scalef_pd trip -Wmaybe-uninitialized.)
constexpr __mmask8 kAllLanes = 0xFF;

// Lanes of the 8-wide group starting at i that lie inside [0, n).
inline __mmask8 lanes_from(int64_t i, int64_t n) { return n - i >= 8 ? kAllLanes : __mmask8((1u << (n - i)) - 1); }

// Here k/N itself comes out of the rounding: adding 1.5·2^48 (whose ulp is
// 2^−4 = 1/N) to x/ln2 rounds it to k/N, the same k as round(x·N/ln2), and
// leaves j = k mod N in the low 4 mantissa bits; k/N · ln2 splits as before
// (N is a power of 2, so the products are the same, exact ones).
constexpr double kInvLn2 = kInvLn2N / kTableSize;
constexpr double kRoundShifterN = 0x1.8p48;
constexpr double kLn2Hi = kLn2HiN * kTableSize, kLn2Lo = kLn2LoN * kTableSize;

// e^x for the lanes of x (clamped to kLowest) where some result may be
// subnormal or 0: as exp8, but the lanes with n < −1022 are left out of the
// vscalefpd (one that underflows is a microcode assist on Intel, ~27x a
// normal lane's time). For those, v = (table·p)·2^(n+1074) is normal and
// exact, and adding 2^52 rounds it to the integer whose bits, as a double,
// are the subnormal correctly rounded (DBL_MIN where it rounds up; 0 below).
__attribute__((target("avx512f"))) __m512d exp8_underflowing(__m512d x);

// The steps of exp8 up to 2^n: k/N and table·p.
__attribute__((target("avx512f"), always_inline)) inline void exp8_parts(__m512d x, __m512d &k_over_n,
                                                                         __m512d &scaled) {
    const __m512d shifted = _mm512_fmadd_pd(x, _mm512_set1_pd(kInvLn2), _mm512_set1_pd(kRoundShifterN));
    k_over_n = _mm512_sub_pd(shifted, _mm512_set1_pd(kRoundShifterN));
    __m512d r = _mm512_fnmadd_pd(k_over_n, _mm512_set1_pd(kLn2Hi), x);
    r = _mm512_fnmadd_pd(k_over_n, _mm512_set1_pd(kLn2Lo), r);
    __m512d p = _mm512_fmadd_pd(_mm512_set1_pd(kPoly[6]), r, _mm512_set1_pd(kPoly[5]));
    for (int i = 4; i >= 0; --i) p = _mm512_fmadd_pd(p, r, _mm512_set1_pd(kPoly[i]));
    // vpermt2pd reads the low 4 bits of each index: those of `shifted` are j.
    const __m512i bits = _mm512_castpd_si512(shifted);
    const __m512d table = _mm512_permutex2var_pd(_mm512_load_pd(kTable), bits, _mm512_load_pd(kTable + 8));
    scaled = _mm512_mul_pd(table, p);
}

// x clamped below to kLowest (NaN kept), and whether a lane may give a
// subnormal result (below ln(DBL_MIN) ≈ −708.4: rare in kernels, γ·D > 708).
__attribute__((target("avx512f"), always_inline)) inline __m512d exp8_clamped(__m512d x, __mmask8 &tiny) {
    x = _mm512_maskz_max_pd(kAllLanes, _mm512_set1_pd(kLowest), x);  // keeps NaN
    tiny = _mm512_cmp_pd_mask(x, _mm512_set1_pd(kMayUnderflowBelow), _CMP_LT_OQ);
    return x;
}

// e^x for clamped lanes of which none may be subnormal.
__attribute__((target("avx512f"), always_inline)) inline __m512d exp8_normal(__m512d x) {
    __m512d k_over_n, scaled;
    exp8_parts(x, k_over_n, scaled);
    // scalef(v, k/N) multiplies v by 2^floor(k/N) = 2^n.
    return _mm512_maskz_scalef_pd(kAllLanes, scaled, k_over_n);
}

__attribute__((target("avx512f"), always_inline)) inline __m512d exp8(__m512d x) {
    __mmask8 tiny;
    x = exp8_clamped(x, tiny);
    if (tiny) return exp8_underflowing(x);  // a branch that the CPU predicts
    return exp8_normal(x);
}

#endif  // KMX_X86_64

}  // namespace fast_exp_detail
}  // namespace kmx
