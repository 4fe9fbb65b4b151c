// fast_exp_detail.h — the constants of fast_exp.cpp's table-driven e^x and
// its AVX-512 coding of 8 lanes and AVX2 coding of 4, for code that fuses
// the exponential into a loop of its own (the compact predictor's row path)
// and must give the same bits as exp_in_place. Not an interface: use
// fast_exp.h.
#pragma once
#include <algorithm>
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

// ------------------------------------------------------------ AVX2 coding
constexpr double kAvx2N = 4;
constexpr double kAvx2InvLn2N = kInvLn2N * (kAvx2N / kTableSize);  // 4/ln2 (scaled by a power of 2: exact)
constexpr double kAvx2Ln2HiN = kLn2HiN * (kTableSize / kAvx2N);    // k · this is exact, as above
constexpr double kAvx2Ln2LoN = kLn2LoN * (kTableSize / kAvx2N);
// The arguments whose e^x the vector steps make: 2^n·2^(j/4)·p(r) is normal
// (n ≥ −1020) and finite.
constexpr double kAvx2Lowest = -707.0, kAvx2Highest = 709.0;
// e^r ≈ Σ c_i r^i on |r| ≤ ln2/8 (mpmath.chebyfit(exp, [−ln2/8, ln2/8], 9): error 3e-18).
constexpr double kAvx2Poly[9] = {
    1.0,
    0.9999999999999997,
    0.49999999999999994,
    0.16666666666721325,
    0.04166666666672132,
    0.008333333071224837,
    0.0013888888626786271,
    0.00019845925004267854,
    2.4806242385160905e-05,
};

// e^x for G vectors of 4 arguments in [kAvx2Lowest, kAvx2Highest], each
// step taken for all G in turn (independent work side by side: the steps of
// one vector form a chain of dependent instructions).
template <int G>
__attribute__((target("avx2,fma"), always_inline)) inline void exp4_normal(__m256d (&x)[G]) {
    __m256d shifted[G], k[G], r[G], p[G];
    for (int g = 0; g < G; ++g) {
        // shifted = 1.5·2^52 + k, k = round(4x/ln2) = 4n + j, in its low mantissa bits.
        shifted[g] = _mm256_fmadd_pd(x[g], _mm256_set1_pd(kAvx2InvLn2N), _mm256_set1_pd(kRoundShifter));
        k[g] = _mm256_sub_pd(shifted[g], _mm256_set1_pd(kRoundShifter));
    }
    for (int g = 0; g < G; ++g) r[g] = _mm256_fnmadd_pd(k[g], _mm256_set1_pd(kAvx2Ln2HiN), x[g]);
    for (int g = 0; g < G; ++g) r[g] = _mm256_fnmadd_pd(k[g], _mm256_set1_pd(kAvx2Ln2LoN), r[g]);
    for (int g = 0; g < G; ++g)
        p[g] = _mm256_fmadd_pd(_mm256_set1_pd(kAvx2Poly[8]), r[g], _mm256_set1_pd(kAvx2Poly[7]));
    for (int i = 6; i >= 0; --i)
        for (int g = 0; g < G; ++g) p[g] = _mm256_fmadd_pd(p[g], r[g], _mm256_set1_pd(kAvx2Poly[i]));
    for (int g = 0; g < G; ++g) {
        // 2^(j/4): vpermilpd picks within each 128-bit half by bit 1 of its
        // selector (there: j's bit 0), the blend by j's bit 1 (moved to the sign).
        const __m256i bits = _mm256_castpd_si256(shifted[g]);
        const __m256i select = _mm256_add_epi64(bits, bits);
        const __m256d table =
            _mm256_blendv_pd(_mm256_permutevar_pd(_mm256_setr_pd(kTable[0], kTable[4], kTable[0], kTable[4]), select),
                             _mm256_permutevar_pd(_mm256_setr_pd(kTable[8], kTable[12], kTable[8], kTable[12]), select),
                             _mm256_castsi256_pd(_mm256_slli_epi64(bits, 62)));
        // n·2^52 = (k − j)·2^50: the low bits of 1.5·2^52's pattern shift out.
        const __m256i two_n = _mm256_slli_epi64(_mm256_andnot_si256(_mm256_set1_epi64x(3), bits), 50);
        x[g] = _mm256_castsi256_pd(_mm256_add_epi64(_mm256_castpd_si256(_mm256_mul_pd(table, p[g])), two_n));
    }
}

// All ones in the lanes of x outside the vector steps' range, or NaN.
__attribute__((target("avx2"), always_inline)) inline __m256d outside4(__m256d x) {
    return _mm256_or_pd(_mm256_cmp_pd(x, _mm256_set1_pd(kAvx2Lowest), _CMP_NGE_UQ),
                        _mm256_cmp_pd(x, _mm256_set1_pd(kAvx2Highest), _CMP_NLE_UQ));
}

// e^x for 4 arguments of which some lie outside the vector steps' range:
// those by the portable coding (fast_exp.cpp), the others by the vector
// steps (the same bits as in any other vector).
__attribute__((target("avx2,fma"))) __m256d exp4_with_outside(__m256d x);

// e^x for G vectors of 4 arguments, in place.
template <int G>
__attribute__((target("avx2,fma"), always_inline)) inline void exp4(__m256d (&x)[G]) {
    __m256d outside = _mm256_setzero_pd();
    for (int g = 0; g < G; ++g) outside = _mm256_or_pd(outside, outside4(x[g]));
    if (!_mm256_testz_pd(outside, outside)) {  // rare in kernels (γ·D > 707): a branch that the CPU predicts
        for (int g = 0; g < G; ++g) x[g] = exp4_with_outside(x[g]);
        return;
    }
    exp4_normal(x);
}

// The lanes of the group of 4 from i that lie inside [0, n) (as masks).
__attribute__((target("avx2"), always_inline)) inline __m256i lanes4_from(int64_t i, int64_t n) {
    return _mm256_cmpgt_epi64(_mm256_set1_epi64x(std::min<int64_t>(n - i, 4)), _mm256_setr_epi64x(0, 1, 2, 3));
}

#endif  // KMX_X86_64

}  // namespace fast_exp_detail
}  // namespace kmx
