// normal_product.cpp — see normal_product.h.
#include "linalg/normal_product.h"

#include <algorithm>
#include <cstring>
#include <type_traits>

#include "core/parallel.h"

namespace kmx::linalg {

namespace {

constexpr int kLanes = 8;                   // doubles summed side by side: one AVX-512 vector, two AVX2
constexpr int64_t kSlabBytes = 384 * 1024;  // a slab of rows per thread: within L2 (Zen 3's is 512 KB)

// kLanes values from p as doubles: p itself, or float rows converted into
// `wide` as one vector (a lane-by-lane conversion does not vectorise, and
// two half-width ones stored and reloaded whole stall the load).
template <class T>
KMX_ALWAYS_INLINE const double *lanes_as_double(const T *p, double (&wide)[kLanes]) {
    if constexpr (std::is_same_v<T, double>) {
        return p;
    } else {
        typedef float Floats __attribute__((vector_size(kLanes * sizeof(float))));
        typedef double Doubles __attribute__((vector_size(kLanes * sizeof(double))));
        Floats narrow;
        std::memcpy(&narrow, p, sizeof narrow);
        const Doubles widened = __builtin_convertvector(narrow, Doubles);
        std::memcpy(wide, &widened, sizeof wide);
        return wide;
    }
}

// ------------------------------------------------------------ z = K v

// Columns go in chunks of kChunk (a multiple of kLanes): a chunk of v's KB
// columns and of kGroup rows of K stay in L1 while each row's dots go
// through it (v whole, KB x m, would be read from L2 for every row).
constexpr int64_t kChunk = 256;
constexpr int kGroup = 8;

// One row's lane sums for KB outputs: lane l sums the columns j ≡ l (mod
// kLanes) in increasing order, whatever the chunks.
template <int KB>
using LaneSums = double[KB][kLanes];

// acc[r][o] += K_r[j0, j1) ⊙ v_o[j0, j1) lane by lane; j1 = m takes the
// last m mod kLanes columns into the first lanes.
template <class T, bool kFma, int R, int KB>
KMX_ALWAYS_INLINE void dots_chunk(const T *k_rows, int64_t m, int64_t ld, int64_t j0, int64_t j1, const double *v_t,
                                  LaneSums<KB> *sums) {
    double acc[R][KB][kLanes];
    for (int r = 0; r < R; ++r)
        for (int o = 0; o < KB; ++o)
            for (int l = 0; l < kLanes; ++l) acc[r][o][l] = sums[r][o][l];
    int64_t j = j0;
    for (; j + kLanes <= j1; j += kLanes) {
        double wide[R][kLanes];
        const double *row_values[R];
        for (int r = 0; r < R; ++r) row_values[r] = lanes_as_double(k_rows + r * ld + j, wide[r]);
        for (int o = 0; o < KB; ++o)
            for (int r = 0; r < R; ++r)
#pragma omp simd
                for (int l = 0; l < kLanes; ++l)
                    acc[r][o][l] = mul_add<kFma>(row_values[r][l], v_t[o * m + j + l], acc[r][o][l]);
    }
    for (int l = 0; j + l < j1; ++l)
        for (int o = 0; o < KB; ++o)
            for (int r = 0; r < R; ++r)
                acc[r][o][l] = mul_add<kFma>(double(k_rows[r * ld + j + l]), v_t[o * m + j + l], acc[r][o][l]);
    for (int r = 0; r < R; ++r)
        for (int o = 0; o < KB; ++o)
            for (int l = 0; l < kLanes; ++l) sums[r][o][l] = acc[r][o][l];
}

// z[i][o] = K_i · v_o for the `rows` (≤ kGroup) rows of a group and KB
// outputs: the chunks in order, R rows at a time, then the lanes added in order.
template <class T, bool kFma, int R, int KB>
KMX_ALWAYS_INLINE void group_dots(const T *k_rows, int64_t rows, int64_t m, int64_t ld, const double *v_t, double *z,
                                  int64_t k) {
    LaneSums<KB> sums[kGroup] = {};
    for (int64_t j0 = 0; j0 < m; j0 += kChunk) {
        const int64_t j1 = m - j0 <= kChunk + kLanes ? m : j0 + kChunk;  // no chunk of only the tail
        int64_t r = 0;
        for (; r + R <= rows; r += R) dots_chunk<T, kFma, R, KB>(k_rows + r * ld, m, ld, j0, j1, v_t, sums + r);
        for (; r < rows; ++r) dots_chunk<T, kFma, 1, KB>(k_rows + r * ld, m, ld, j0, j1, v_t, sums + r);
        if (j1 == m) break;
    }
    for (int64_t r = 0; r < rows; ++r)
        for (int o = 0; o < KB; ++o) {
            double sum = sums[r][o][0];
            for (int l = 1; l < kLanes; ++l) sum += sums[r][o][l];
            z[r * k + o] = sum;
        }
}

// The same for the last `outputs` (< KB) of k.
template <class T, bool kFma, int R, int KB>
KMX_ALWAYS_INLINE void group_dots_upto(int64_t outputs, const T *k_rows, int64_t rows, int64_t m, int64_t ld,
                                       const double *v_t, double *z, int64_t k) {
    if constexpr (KB > 1)
        if (outputs < KB) return group_dots_upto<T, kFma, R, KB - 1>(outputs, k_rows, rows, m, ld, v_t, z, k);
    group_dots<T, kFma, R, KB>(k_rows, rows, m, ld, v_t, z, k);
}

// z of `rows` rows: kGroup rows and KB outputs at a time.
template <class T, bool kFma, int R, int KB>
KMX_ALWAYS_INLINE void rows_times_v(const T *kb, int64_t rows, int64_t m, int64_t ld, int64_t k, const double *v_t,
                                    double *z) {
    for (int64_t i = 0; i < rows; i += kGroup)
        for (int64_t o = 0; o < k; o += KB)
            group_dots_upto<T, kFma, R, KB>(std::min<int64_t>(KB, k - o), kb + i * ld,
                                            std::min<int64_t>(kGroup, rows - i), m, ld, v_t + o * m, z + i * k + o, k);
}

// ------------------------------------------------------------ w += Kᵀ z

// w_t[o][j0, j0 + G·kLanes) += Σ_i z_io K_i[j0, ...) for KB outputs, the
// rows in order, skipped rows left out.
template <class T, bool kFma, int KB, int G>
KMX_ALWAYS_INLINE void add_columns(const T *kb, int64_t rows, int64_t m, int64_t ld, int64_t j0, const double *z,
                                   int64_t k, const uint8_t *skip, double *w_t) {
    constexpr int kWidth = G * kLanes;
    double acc[KB][kWidth];
    for (int o = 0; o < KB; ++o)
        for (int l = 0; l < kWidth; ++l) acc[o][l] = w_t[o * m + j0 + l];
    for (int64_t i = 0; i < rows; ++i) {
        if (skip && skip[i]) continue;
        const T *row = kb + i * ld + j0;
        double wide[G][kLanes];
        const double *row_values[G];
        for (int g = 0; g < G; ++g) row_values[g] = lanes_as_double(row + g * kLanes, wide[g]);
        for (int o = 0; o < KB; ++o) {
            const double z_io = z[i * k + o];
            for (int g = 0; g < G; ++g)
#pragma omp simd
                for (int l = 0; l < kLanes; ++l)
                    acc[o][g * kLanes + l] = mul_add<kFma>(z_io, row_values[g][l], acc[o][g * kLanes + l]);
        }
    }
    for (int o = 0; o < KB; ++o)
        for (int l = 0; l < kWidth; ++l) w_t[o * m + j0 + l] = acc[o][l];
}

template <class T, bool kFma, int KB, int G>
KMX_ALWAYS_INLINE void add_columns_upto(int64_t outputs, const T *kb, int64_t rows, int64_t m, int64_t ld, int64_t j0,
                                        const double *z, int64_t k, const uint8_t *skip, double *w_t) {
    if constexpr (KB > 1)
        if (outputs < KB) return add_columns_upto<T, kFma, KB - 1, G>(outputs, kb, rows, m, ld, j0, z, k, skip, w_t);
    add_columns<T, kFma, KB, G>(kb, rows, m, ld, j0, z, k, skip, w_t);
}

// One column j, all outputs: the same operations in the same order.
template <class T, bool kFma>
KMX_ALWAYS_INLINE void add_column(const T *kb, int64_t rows, int64_t m, int64_t ld, int64_t j, const double *z,
                                  int64_t k, const uint8_t *skip, double *w_t) {
    for (int64_t o = 0; o < k; ++o) {
        double sum = w_t[o * m + j];
        for (int64_t i = 0; i < rows; ++i)
            if (!skip || !skip[i]) sum = mul_add<kFma>(z[i * k + o], double(kb[i * ld + j]), sum);
        w_t[o * m + j] = sum;
    }
}

// Columns [begin, end) of w_t: G·kLanes columns and KB outputs at a time.
// Meanwhile the same columns of the next slab's rows are fetched into L2,
// so that memory keeps streaming K while this slab is worked from cache.
template <class T, bool kFma, int KB, int G>
KMX_ALWAYS_INLINE void add_kt_z(const T *kb, int64_t rows, int64_t m, int64_t ld, int64_t k, int64_t begin, int64_t end,
                                const double *z, const uint8_t *skip, double *w_t, const T *next, int64_t next_rows) {
    constexpr int kWidth = G * kLanes;
    int64_t j = begin;
    for (; j + kWidth <= end; j += kWidth) {
        for (int64_t i = 0; i < next_rows; ++i)
            for (int64_t c = 0; c < kWidth; c += 64 / int64_t(sizeof(T)))
                __builtin_prefetch(next + i * ld + j + c, 0, 2);
        for (int64_t o = 0; o < k; o += KB)
            add_columns_upto<T, kFma, KB, G>(std::min<int64_t>(KB, k - o), kb, rows, m, ld, j, z + o, k, skip,
                                             w_t + o * m);
    }
    for (; j < end; ++j) add_column<T, kFma>(kb, rows, m, ld, j, z, k, skip, w_t);
}

// ------------------------------------------------------------ codings

// How many rows, outputs and column groups each coding keeps in registers
// (AVX-512: 32 vector registers; AVX2 and SSE2: 16 of half and a quarter
// the width).
template <class T>
struct Coding {
    void (*times_v)(const T *kb, int64_t rows, int64_t m, int64_t ld, int64_t k, const double *v_t, double *z);
    void (*add_kt_z)(const T *kb, int64_t rows, int64_t m, int64_t ld, int64_t k, int64_t begin, int64_t end,
                     const double *z, const uint8_t *skip, double *w_t, const T *next, int64_t next_rows);
    int64_t column_step;
    int64_t most_outputs;  // above, two BLIS GEMMs are faster (double rows; float rows have no other way)
};

#define KMX_NORMAL_PRODUCT_CODING(T, suffix, attributes, fma, rows, outputs, column_outputs, groups, most)           \
    attributes void times_v_##suffix(const T *kb, int64_t n, int64_t m, int64_t ld, int64_t k, const double *v_t,    \
                                     double *z) {                                                                    \
        rows_times_v<T, fma, rows, outputs>(kb, n, m, ld, k, v_t, z);                                                \
    }                                                                                                                \
    attributes void add_kt_z_##suffix(const T *kb, int64_t n, int64_t m, int64_t ld, int64_t k, int64_t begin,       \
                                      int64_t end, const double *z, const uint8_t *skip, double *w_t, const T *next, \
                                      int64_t next_rows) {                                                           \
        add_kt_z<T, fma, column_outputs, groups>(kb, n, m, ld, k, begin, end, z, skip, w_t, next, next_rows);        \
    }                                                                                                                \
    constexpr Coding<T> kCoding_##suffix = {times_v_##suffix, add_kt_z_##suffix, groups * kLanes, most};

// (double K, then float K widened as it is read)
KMX_NORMAL_PRODUCT_CODING(double, baseline, , false, 1, 2, 2, 1, 8)
KMX_NORMAL_PRODUCT_CODING(float, baseline_f32, , false, 1, 2, 2, 1, 8)
#if defined(__x86_64__)
KMX_NORMAL_PRODUCT_CODING(double, avx2, __attribute__((target("avx2,fma"))), true, 2, 3, 3, 1, 6)
KMX_NORMAL_PRODUCT_CODING(float, avx2_f32, __attribute__((target("avx2,fma"))), true, 2, 3, 3, 1, 6)
KMX_NORMAL_PRODUCT_CODING(double, avx512, __attribute__((target("avx512f"))), true, 2, 8, 8, 2, 32)
KMX_NORMAL_PRODUCT_CODING(float, avx512_f32, __attribute__((target("avx512f"))), true, 2, 8, 8, 2, 32)
#endif
#undef KMX_NORMAL_PRODUCT_CODING

// The codings by IsaLevel (Baseline, Avx2, Avx512f); off x86-64 only the baseline one.
#if defined(__x86_64__)
constexpr const Coding<double> *kDoubleCodings[] = {&kCoding_baseline, &kCoding_avx2, &kCoding_avx512};
constexpr const Coding<float> *kFloatCodings[] = {&kCoding_baseline_f32, &kCoding_avx2_f32, &kCoding_avx512_f32};
#else
constexpr const Coding<double> *kDoubleCodings[] = {&kCoding_baseline, &kCoding_baseline, &kCoding_baseline};
constexpr const Coding<float> *kFloatCodings[] = {&kCoding_baseline_f32, &kCoding_baseline_f32, &kCoding_baseline_f32};
#endif

// The coding for `level`, at most what the CPU runs (cpu_isa_level: KMX_ISA's cap included).
template <class T>
const Coding<T> &coding_for(IsaLevel level) {
    const int index = std::min(int(level), int(cpu_isa_level()));
    if constexpr (std::is_same_v<T, double>)
        return *kDoubleCodings[index];
    else
        return *kFloatCodings[index];
}

// fn(begin, end) on `team` threads for contiguous parts of [0, count),
// their boundaries multiples of `step`.
template <class Fn>
void in_parts(int team, int64_t count, int64_t step, Fn &&fn) {
    const int64_t units = (count + step - 1) / step;
    parallel_for(team, team, [&](int64_t t) {
        const int64_t begin = std::min(count, t * units / team * step);
        const int64_t end = std::min(count, (t + 1) * units / team * step);
        if (begin < end) fn(begin, end);
    });
}

template <class T>
void run(const Coding<T> &coding, int64_t rows, int64_t m, int64_t ld, int64_t k, const T *kb, const double *v_t,
         double *z, const uint8_t *skip, double *w_t, int threads) {
    if (rows <= 0 || m <= 0 || k <= 0) return;
    const int team = threads_for_work(threads, 4.0 * double(rows) * double(m) * double(k));
    const int64_t slab = team * std::max<int64_t>(2, kSlabBytes / (int64_t(sizeof(T)) * ld));
    for (int64_t first = 0; first < rows; first += slab) {
        const int64_t count = std::min(slab, rows - first);
        const T *slab_rows = kb + first * ld;
        double *slab_z = z + first * k;
        const uint8_t *slab_skip = skip ? skip + first : nullptr;
        if (v_t)
            in_parts(team, count, 1, [&](int64_t begin, int64_t end) {
                coding.times_v(slab_rows + begin * ld, end - begin, m, ld, k, v_t, slab_z + begin * k);
            });
        const int64_t next_rows = v_t ? std::min(slab, rows - first - count) : 0;  // z given: no first read
        in_parts(team, m, coding.column_step, [&](int64_t begin, int64_t end) {
            coding.add_kt_z(slab_rows, count, m, ld, k, begin, end, slab_z, slab_skip, w_t, slab_rows + count * ld,
                            next_rows);
        });
    }
}

// The CPU's coding (capped by KMX_ISA).
template <class T>
const Coding<T> &coding_in_use() {
    static const Coding<T> &coding = coding_for<T>(IsaLevel::Avx512f);
    return coding;
}

}  // namespace

void add_normal_product(IsaLevel level, int64_t rows, int64_t m, int64_t ld, int64_t k, const double *kb,
                        const double *v_t, double *z, const uint8_t *skip, double *w_t, int threads) {
    run(coding_for<double>(level), rows, m, ld, k, kb, v_t, z, skip, w_t, threads);
}

void add_normal_product(IsaLevel level, int64_t rows, int64_t m, int64_t ld, int64_t k, const float *kb,
                        const double *v_t, double *z, const uint8_t *skip, double *w_t, int threads) {
    run(coding_for<float>(level), rows, m, ld, k, kb, v_t, z, skip, w_t, threads);
}

void add_normal_product(int64_t rows, int64_t m, int64_t ld, int64_t k, const double *kb, const double *v_t, double *z,
                        const uint8_t *skip, double *w_t, int threads) {
    run(coding_in_use<double>(), rows, m, ld, k, kb, v_t, z, skip, w_t, threads);
}

void add_normal_product(int64_t rows, int64_t m, int64_t ld, int64_t k, const float *kb, const double *v_t, double *z,
                        const uint8_t *skip, double *w_t, int threads) {
    run(coding_in_use<float>(), rows, m, ld, k, kb, v_t, z, skip, w_t, threads);
}

bool normal_product_pays(int64_t k) { return k <= coding_in_use<double>().most_outputs; }

}  // namespace kmx::linalg
