#include "distances.h"

#include <algorithm>
#include <limits>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "core/isa_dispatch.h"
#include "linalg/gemm_tiles.h"
#include "linalg/linalg.h"

namespace kmx::cluster {

namespace {

// Σ_j term(j) for j in [0, d) with kLanes independent partial sums (so the
// additions pipeline and vectorise), combined in a fixed order.
template <class Term>
double lane_sum(int64_t d, const Term &term) {
    constexpr int kLanes = 8;
    double lanes[kLanes] = {};
    int64_t j = 0;
    for (; j + kLanes <= d; j += kLanes)
        for (int lane = 0; lane < kLanes; ++lane) lanes[lane] += term(j + lane);
    for (; j < d; ++j) lanes[0] += term(j);
    return ((lanes[0] + lanes[1]) + (lanes[2] + lanes[3])) + ((lanes[4] + lanes[5]) + (lanes[6] + lanes[7]));
}

}  // namespace

double squared_distance(const double *a, const double *b, int64_t d) {
    return lane_sum(d, [&](int64_t j) {
        const double diff = a[j] - b[j];
        return diff * diff;
    });
}

double squared_norm(const double *a, int64_t d) {
    return lane_sum(d, [&](int64_t j) { return a[j] * a[j]; });
}

double row_squared_norm(const Dataset &data, int64_t i) {
    if (data.x) return squared_norm(data.x + i * data.d, data.d);
    if (data.x32)
        return lane_sum(data.d, [&](int64_t j) { return double(data.x32[i * data.d + j]) * data.x32[i * data.d + j]; });
    const int64_t begin = data.row_ptr[i];
    if (data.values32)
        return lane_sum(data.row_ptr[i + 1] - begin,
                        [&](int64_t e) { return data.value(begin + e) * data.value(begin + e); });
    return squared_norm(data.values + begin, data.row_ptr[i + 1] - begin);
}

void center_squared_norms(const double *centers, int64_t k, int64_t d, double *sqnorms) {
    for (int64_t c = 0; c < k; ++c) sqnorms[c] = squared_norm(centers + c * d, d);
}

void add_scaled(double alpha, const double *x, double *y, int64_t d) {
    for (int64_t j = 0; j < d; ++j) y[j] += alpha * x[j];
}

void center_dot_products(const double *x, int64_t m, const CenterSet &centers, double *dots) {
    linalg::gemm(linalg::Trans::No, linalg::Trans::Yes, m, centers.k, centers.d, 1.0, x, centers.d, centers.rows,
                 centers.d, 0.0, dots, centers.k, 1);
}

// The lowest c minimising score_c = ‖c‖² − 2⟨x, c⟩ over one row of dots, and
// that score. Two passes, both vectorised: the minimum (a min-reduction), then
// the first c reaching it (the same expression, so bit-identical). NaN scores
// never win; a row of NaNs gives c = 0.
KMX_ALWAYS_INLINE int64_t nearest_in_row_body(const double *row_dots, const double *sqnorms, int64_t k,
                                              double &best_score) {
    double lowest = std::numeric_limits<double>::infinity();
#pragma omp simd reduction(min : lowest)
    for (int64_t c = 0; c < k; ++c) lowest = std::min(lowest, sqnorms[c] - 2 * row_dots[c]);
    for (int64_t c = 0; c < k; ++c)
        if (sqnorms[c] - 2 * row_dots[c] == lowest) {
            best_score = lowest;
            return c;
        }
    best_score = sqnorms[0] - 2 * row_dots[0];
    return 0;
}

#if defined(__x86_64__)
// The same in one pass over SIMD lanes: each lane keeps its lowest score and
// the first c reaching it (only a strictly lower score replaces it), then the
// lanes' lowest score with the lowest such c wins. Two sets of lanes take
// alternate vectors, so that two compare-and-keep chains run at once. ‖c‖² −
// 2⟨x, c⟩ as one fused step rounds as the body's (2⟨x, c⟩ is exact).
struct Lanes8 {
    __m512d best;
    __m512i center;
};

__attribute__((target("avx512f"))) inline void keep_lower(Lanes8 &lanes, const double *row_dots, const double *sqnorms,
                                                          int64_t c, __mmask8 valid) {
    const __m512d score = _mm512_fnmadd_pd(_mm512_set1_pd(2.0), _mm512_maskz_loadu_pd(valid, row_dots + c),
                                           _mm512_maskz_loadu_pd(valid, sqnorms + c));
    const __mmask8 lower = _mm512_mask_cmp_pd_mask(valid, score, lanes.best, _CMP_LT_OQ);
    lanes.best = _mm512_mask_mov_pd(lanes.best, lower, score);
    lanes.center = _mm512_mask_mov_epi64(
        lanes.center, lower, _mm512_add_epi64(_mm512_set1_epi64(c), _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0)));
}

__attribute__((target("avx512f"))) int64_t nearest_in_row_avx512f(const double *row_dots, const double *sqnorms,
                                                                  int64_t k, double &best_score) {
    const __m512d none = _mm512_set1_pd(std::numeric_limits<double>::infinity());
    Lanes8 even{none, _mm512_setzero_si512()}, odd = even;
    int64_t c = 0;
    for (; c + 16 <= k; c += 16) {
        keep_lower(even, row_dots, sqnorms, c, 0xff);
        keep_lower(odd, row_dots, sqnorms, c + 8, 0xff);
    }
    for (; c < k; c += 8) keep_lower(even, row_dots, sqnorms, c, k - c >= 8 ? 0xff : __mmask8((1u << (k - c)) - 1));
    const __mmask8 odd_wins =
        _mm512_cmp_pd_mask(odd.best, even.best, _CMP_LT_OQ) |
        (_mm512_cmp_pd_mask(odd.best, even.best, _CMP_EQ_OQ) & _mm512_cmplt_epi64_mask(odd.center, even.center));
    const __m512d best = _mm512_mask_mov_pd(even.best, odd_wins, odd.best);
    const __m512i center = _mm512_mask_mov_epi64(even.center, odd_wins, odd.center);
    // The lowest score in every lane (halves, quarters, pairs; the maskz_
    // forms: GCC 12's _mm512_reduce_min_pd trips -Wuninitialized).
    constexpr __mmask8 kAll = 0xff;
    __m512d low =
        _mm512_maskz_min_pd(kAll, best, _mm512_maskz_shuffle_f64x2(kAll, best, best, _MM_SHUFFLE(1, 0, 3, 2)));
    low = _mm512_maskz_min_pd(kAll, low, _mm512_maskz_shuffle_f64x2(kAll, low, low, _MM_SHUFFLE(2, 3, 0, 1)));
    low = _mm512_maskz_min_pd(kAll, low, _mm512_maskz_permute_pd(kAll, low, 0x55));
    const double lowest = _mm512_cvtsd_f64(low);
    if (!(lowest < std::numeric_limits<double>::infinity()))  // no score below +∞: rare, as the body does it
        return nearest_in_row_body(row_dots, sqnorms, k, best_score);
    // The lowest center among the lanes reaching it (usually one lane).
    alignas(64) int64_t centers[8];
    _mm512_store_si512(centers, center);
    int64_t nearest = INT64_MAX;
    for (unsigned reaching = _mm512_cmp_pd_mask(best, low, _CMP_EQ_OQ); reaching; reaching &= reaching - 1)
        nearest = std::min<int64_t>(nearest, centers[__builtin_ctz(reaching)]);
    best_score = lowest;
    return nearest;
}

// As nearest_in_row_avx512f, in 4 lanes (a center's index kept as a double:
// exact below 2^53).
struct Lanes4 {
    __m256d best, center;
};

// Lane by lane: a strictly lower score replaces the lane's, with its center
// (first: the lanes' centers, from c).
__attribute__((target("avx2,fma"))) inline void keep_lower(Lanes4 &lanes, const double *row_dots, const double *sqnorms,
                                                           int64_t c, __m256d first) {
    const __m256d score =
        _mm256_fnmadd_pd(_mm256_set1_pd(2.0), _mm256_loadu_pd(row_dots + c), _mm256_loadu_pd(sqnorms + c));
    const __m256d lower = _mm256_cmp_pd(score, lanes.best, _CMP_LT_OQ);
    lanes.best = _mm256_blendv_pd(lanes.best, score, lower);
    lanes.center = _mm256_blendv_pd(lanes.center, first, lower);
}

// Where b has the lower score, or the same score from a lower center: b's lanes, else a's.
__attribute__((target("avx2"))) inline Lanes4 lower_of(const Lanes4 &a, const Lanes4 &b) {
    const __m256d b_wins = _mm256_or_pd(
        _mm256_cmp_pd(b.best, a.best, _CMP_LT_OQ),
        _mm256_and_pd(_mm256_cmp_pd(b.best, a.best, _CMP_EQ_OQ), _mm256_cmp_pd(b.center, a.center, _CMP_LT_OQ)));
    return {_mm256_blendv_pd(a.best, b.best, b_wins), _mm256_blendv_pd(a.center, b.center, b_wins)};
}

__attribute__((target("avx2,fma"))) int64_t nearest_in_row_avx2(const double *row_dots, const double *sqnorms,
                                                                int64_t k, double &best_score) {
    const __m256d none = _mm256_set1_pd(std::numeric_limits<double>::infinity());
    Lanes4 even{none, _mm256_setzero_pd()}, odd = even;
    __m256d first = _mm256_set_pd(3, 2, 1, 0);
    const __m256d four = _mm256_set1_pd(4), eight = _mm256_set1_pd(8);
    int64_t c = 0;
    for (; c + 8 <= k; c += 8, first = _mm256_add_pd(first, eight)) {
        keep_lower(even, row_dots, sqnorms, c, first);
        keep_lower(odd, row_dots, sqnorms, c + 4, _mm256_add_pd(first, four));
    }
    if (c + 4 <= k) {
        keep_lower(even, row_dots, sqnorms, c, first);
        c += 4;
    }
    // The lanes' (score, center) pairs in lexicographic order: halves, then pairs.
    Lanes4 lanes = lower_of(even, odd);
    lanes = lower_of(lanes, {_mm256_permute2f128_pd(lanes.best, lanes.best, 1),
                             _mm256_permute2f128_pd(lanes.center, lanes.center, 1)});
    lanes = lower_of(lanes, {_mm256_permute_pd(lanes.best, 0x5), _mm256_permute_pd(lanes.center, 0x5)});
    double lowest = _mm256_cvtsd_f64(lanes.best);
    int64_t nearest = int64_t(_mm256_cvtsd_f64(lanes.center));
    for (; c < k; ++c) {  // later than every lane's centers: only a strictly lower score wins
        const double score = sqnorms[c] - 2 * row_dots[c];
        if (score < lowest) {
            lowest = score;
            nearest = c;
        }
    }
    if (!(lowest < std::numeric_limits<double>::infinity()))  // no score below +∞: rare, as the body does it
        return nearest_in_row_body(row_dots, sqnorms, k, best_score);
    best_score = lowest;
    return nearest;
}

int64_t nearest_in_row(const double *row_dots, const double *sqnorms, int64_t k, double &best_score) {
    static const auto variant =
        pick_isa_variant(cpu_isa_level(), nearest_in_row_avx512f, nearest_in_row_avx2, nearest_in_row_body);
    return variant(row_dots, sqnorms, k, best_score);
}
#else
int64_t nearest_in_row(const double *row_dots, const double *sqnorms, int64_t k, double &best_score) {
    return nearest_in_row_body(row_dots, sqnorms, k, best_score);
}
#endif

bool centers_in_panels(int64_t m, int64_t k, int64_t d) { return !linalg::gemm_reads_rows_in_place(m, k, d); }

linalg::PackedRows carve_center_panels(ScratchCarver &carver, int64_t k, int64_t d) {
    constexpr auto kPanels = linalg::PackedRows::Layout::panels;
    Arena memory = carver.take_arena(linalg::PackedRows::bytes(k, d, kPanels));
    return memory.capacity() > 0 ? linalg::PackedRows(memory, k, d, kPanels) : linalg::PackedRows();
}

void pack_centers(const double *centers, linalg::PackedRows &panels) {
    for (int64_t c = 0; c < panels.rows(); ++c) panels.set_row(c, centers + c * panels.columns());
}

namespace {

constexpr int64_t kGemmPieceRows = 256;  // rows per GEMM: their packed panels (and C's tiles) stay in L2

// Rows per GEMM call, a multiple of the micro-kernel's rows.
int64_t gemm_piece_rows() {
    const int64_t lanes = linalg::gemm_abt_packed_a_rows();
    return (kGemmPieceRows + lanes - 1) / lanes * lanes;
}

}  // namespace

size_t nearest_centers_gemm_bytes(int64_t m, int64_t d) {
    const int64_t rows = std::min(m, gemm_piece_rows());
    return WorkspacePlan()
        .add_bytes(linalg::gemm_abt_packed_workspace_bytes(rows, d))
        .add<double>(size_t(rows))
        .bytes();
}

namespace {

// The argmin over a GEMM's tiles as each is finished: tiles of a row come in
// increasing center order, so a strictly lower score keeps ties at the
// lowest center.
struct RunningNearest {
    const double *dots, *sqnorms;
    int64_t k;
    double *best;  // per row: the lowest score so far (+∞ before any)
    int32_t *nearest;

    void operator()(int64_t i0, int64_t i1, int64_t j0, int64_t j1) const {
        for (int64_t i = i0; i < i1; ++i) {
            double score;
            const int64_t c = j0 + nearest_in_row(dots + i * k + j0, sqnorms + j0, j1 - j0, score);
            if (score < best[i]) {
                best[i] = score;
                nearest[i] = int32_t(c);
            }
        }
    }
};

// Rows [r0, r0 + rows) of x, whose products go to the first rows of `dots`
// (every piece reuses them, so they stay in cache) and lowest scores to `best`.
void nearest_in_piece(const double *x, int64_t r0, int64_t rows, const CenterSet &centers, double *dots,
                      int32_t *nearest, double *best, double *best_scores, Arena &gemm) {
    const int64_t k = centers.k;
    std::fill(best, best + rows, std::numeric_limits<double>::infinity());
    std::fill(nearest + r0, nearest + r0 + rows, 0);
    RunningNearest running{dots, centers.sqnorms, k, best, nearest + r0};
    linalg::gemm_abt_packed(rows, 1.0, x + r0 * centers.d, centers.d, *centers.panels, 0, k, dots, k, gemm, 1,
                            linalg::tile_visitor(running));
    if (!best_scores) return;
    for (int64_t r = 0; r < rows; ++r)  // a row of NaN scores: center 0 and its score, as nearest_in_row
        best_scores[r0 + r] =
            best[r] < std::numeric_limits<double>::infinity() ? best[r] : centers.sqnorms[0] - 2 * dots[r * k];
}

void nearest_by_tiles(const double *x, int64_t m, const CenterSet &centers, double *dots, int32_t *nearest,
                      double *best_scores, Arena &gemm) {
    const ArenaScope scope(gemm);
    const int64_t piece = std::min(m, gemm_piece_rows());
    double *best = gemm.alloc<double>(size_t(piece));
    for (int64_t r0 = 0; r0 < m; r0 += piece)
        nearest_in_piece(x, r0, std::min(piece, m - r0), centers, dots, nearest, best, best_scores, gemm);
}

}  // namespace

void nearest_centers(const double *x, int64_t m, const CenterSet &centers, double *dots, int32_t *nearest,
                     double *best_scores, Arena *gemm) {
    if (centers.panels && gemm) return nearest_by_tiles(x, m, centers, dots, nearest, best_scores, *gemm);
    center_dot_products(x, m, centers, dots);
    for (int64_t r = 0; r < m; ++r) {
        double best_score;
        nearest[r] = int32_t(nearest_in_row(dots + r * centers.k, centers.sqnorms, centers.k, best_score));
        if (best_scores) best_scores[r] = best_score;
    }
}

void row_squared_norms(const Dataset &data, const RowPartition &partition, double *row_sqnorms) {
    for_each_block(partition, [&](int, int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i) row_sqnorms[i] = row_squared_norm(data, i);
    });
}

}  // namespace kmx::cluster
