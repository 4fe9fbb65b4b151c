// compact_predict.cpp — the batched and single-row predictors of a
// CompactPredictor (the rule in compact_predictor.h).
//
// Batched, where leaves are small: rows one at a time through the
// single-row predictor, chunks of rows shared among threads. Otherwise rows
// come in blocks; each row is routed (direct squared
// differences, as the rule and the C runtime do, so near-ties resolve the
// same way), the block is sorted by leaf, and each leaf's rows get one kernel
// block C = K(X_l, U_l) (GEMM speed), the pseudo-landmark expansion
// C̄ = [C, C_tri, C_prod], and one GEMM O = C̄ β + bias.
// Triangle pseudo-landmarks need r_j = ‖x − u_j‖ accurately, also when x is
// close to u_j, where the GEMM form ‖x‖² + ‖u‖² − 2x·u cancels: r is computed
// by direct differences for the leaves that have them.
#include "compact_predict.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <type_traits>
#include <vector>

#include "core/context.h"
#include "core/dataset.h"
#include "core/error.h"
#include "core/isa_dispatch.h"
#include "core/parallel.h"
#include "kernel/fast_exp.h"
#include "kernel/fast_exp_detail.h"
#include "linalg/linalg.h"
#include "predictor_storage.h"
#include "pseudo_landmarks.h"

namespace kmx {

namespace {

constexpr int64_t kRowBlock = 1024;

bool all_finite(const std::vector<double> &values) {
    for (double v : values)
        if (!std::isfinite(v)) return false;
    return true;
}

// int4: d x 16 codebook values, and every landmark value one of its feature's.
bool codebook_holds_landmarks(const PredictorLeaf &leaf) {
    const size_t d = leaf.center.size();
    if (leaf.codebook.size() != d * kCodebookValues) return false;
    for (size_t i = 0; i < leaf.landmarks.size(); ++i) {
        const double *table = &leaf.codebook[(i % d) * kCodebookValues];
        if (table[codebook_code(leaf.landmarks[i], table)] != leaf.landmarks[i]) return false;
    }
    return true;
}

void check_leaf(const CompactPredictor &p, const PredictorLeaf &leaf, int64_t index) {
    const int64_t d = p.d;
    auto bad = [&](const char *what) {
        fail(KMX_E_INVALID_ARGUMENT, "compact predictor: leaf %lld: %s", static_cast<long long>(index), what);
    };
    if (leaf.center.size() != size_t(d)) bad("center must have d values");
    if (leaf.m < 1 || leaf.landmarks.size() != size_t(leaf.m * d)) bad("landmarks must be m x d with m >= 1");
    if (leaf.triangle < 0 || leaf.triangle_dist.size() != size_t(leaf.triangle * leaf.m))
        bad("triangle_dist must be p_tri x m");
    if (leaf.triangle > 0 && !p.kernel.stationary()) bad("triangle pseudo-landmarks need a stationary kernel");
    if (leaf.products < 0 || leaf.product_pairs.size() != size_t(2 * leaf.products))
        bad("product_pairs must hold 2 p_prod indices");
    for (int64_t q = 0; q < leaf.products; ++q) {
        const int32_t i = leaf.product_pairs[size_t(2 * q)], j = leaf.product_pairs[size_t(2 * q + 1)];
        if (i < 0 || i > j || j >= leaf.m) bad("product pair out of range (need 0 <= i <= j < m)");
    }
    if (leaf.beta.size() != size_t(leaf.features() * p.outputs)) bad("beta must be features() x outputs");
    if (leaf.bias.size() != size_t(p.outputs)) bad("bias must have `outputs` values");
    if (quantizes_landmarks(p.storage) ? !valid_landmark_scale(leaf.landmark_scale) : leaf.landmark_scale != 0)
        bad("landmark_scale must be a float in [FLT_MIN, 1e30] for int16/int8 storage, else 0");
    if (!all_finite(leaf.center) || !all_finite(leaf.landmarks) || !all_finite(leaf.triangle_dist) ||
        !all_finite(leaf.beta) || !all_finite(leaf.bias) || !all_finite(leaf.codebook))
        bad("non-finite value");
    if (uses_codebook(p.storage) ? !codebook_holds_landmarks(leaf) : !leaf.codebook.empty())
        bad("int4 storage needs a codebook of 16 values per feature holding every landmark value; others none");
}

int64_t expected_outputs(const CompactPredictor &p) {
    if (p.task == PredictorTask::regression) return 1;
    const int64_t c = int64_t(p.classes.size());
    if (c == 2) return 1;
    return p.multiclass == KMX_MULTICLASS_OVR ? c : c * (c - 1) / 2;
}

}  // namespace

void check_compact_predictor(const CompactPredictor &p) {
    require(p.d >= 1, "compact predictor: d must be >= 1");
    require(int(p.storage) >= 0 && int(p.storage) <= int(PredictorStorage::int4), "compact predictor: unknown storage");
    require(p.kernel.gamma_for(p.d) > 0 && std::isfinite(p.kernel.gamma_for(p.d)), "compact predictor: bad gamma");
    if (p.task == PredictorTask::classification) {
        require(p.classes.size() >= 2, "compact predictor: classification needs at least 2 classes");
        for (size_t c = 1; c < p.classes.size(); ++c)
            require(p.classes[c - 1] < p.classes[c], "compact predictor: classes must be increasing");
    }
    require(p.outputs == expected_outputs(p), "compact predictor: outputs do not match task, classes and multiclass");
    require(
        p.sigmoids.empty() || (p.task == PredictorTask::classification && p.sigmoids.size() == size_t(2 * p.outputs)),
        "compact predictor: sigmoids must be a classifier's, two per output");
    require(all_finite(p.sigmoids), "compact predictor: non-finite sigmoid");
    const int64_t top = p.top();
    require(top >= 1 && p.top_centers.size() == size_t(top * p.d),
            "compact predictor: top_centers must be top x d with top >= 1");
    require(all_finite(p.top_centers), "compact predictor: non-finite top center");
    require(p.top_leaf_begin.front() == 0 && p.top_leaf_begin.back() == int64_t(p.leaves.size()),
            "compact predictor: top_leaf_begin must run from 0 to the number of leaves");
    for (int64_t t = 0; t < top; ++t)
        require(p.top_leaf_begin[size_t(t)] < p.top_leaf_begin[size_t(t + 1)],
                "compact predictor: every top node needs at least one leaf");
    for (size_t l = 0; l < p.leaves.size(); ++l) check_leaf(p, p.leaves[l], int64_t(l));
}

// The rule's ‖a − b‖² (compact_predictor.h): four partial sums, each over
// the features f ≡ r (mod 4) in order, then (s0 + s1) + (s2 + s3).
static double squared_distance(const double *a, const double *b, int64_t d) {
    double sum[4] = {0, 0, 0, 0};
    for (int64_t f = 0; f < d; ++f) {
        const double diff = a[f] - b[f];
        sum[f % 4] += diff * diff;
    }
    return (sum[0] + sum[1]) + (sum[2] + sum[3]);
}

int64_t compact_route(const CompactPredictor &p, const double *x) {
    const int64_t top = p.top();
    int64_t best_top = 0;
    double best = std::numeric_limits<double>::infinity();
    for (int64_t t = 0; t < top; ++t) {
        const double dist = squared_distance(x, p.top_centers.data() + t * p.d, p.d);
        if (dist < best) best = dist, best_top = t;
    }
    int64_t best_leaf = p.top_leaf_begin[size_t(best_top)];
    best = std::numeric_limits<double>::infinity();
    for (int64_t l = best_leaf; l < p.top_leaf_begin[size_t(best_top + 1)]; ++l) {
        const double dist = squared_distance(x, p.leaves[size_t(l)].center.data(), p.d);
        if (dist < best) best = dist, best_leaf = l;
    }
    return best_leaf;
}

double compact_label(const CompactPredictor &p, const double *o) {
    if (p.task == PredictorTask::regression) return o[0];
    const int64_t classes = int64_t(p.classes.size());
    if (classes == 2) return p.classes[size_t(o[0] > 0)];  // an index, not a branch: the sign is the data's
    if (p.multiclass == KMX_MULTICLASS_OVR)
        return p.classes[size_t(std::max_element(o, o + classes) - o)];  // first maximum
    int64_t few[64];
    std::vector<int64_t> many;
    int64_t *votes = few;
    if (classes > 64) many.resize(static_cast<size_t>(classes)), votes = many.data();
    std::fill(votes, votes + classes, 0);
    int64_t k = 0;
    for (int64_t i = 0; i < classes; ++i)
        for (int64_t j = i + 1; j < classes; ++j) ++votes[o[k++] > 0 ? i : j];
    return p.classes[size_t(std::max_element(votes, votes + classes) - votes)];  // first maximum
}

static int64_t max_over_leaves(const CompactPredictor &p, int64_t (*field)(const PredictorLeaf &)) {
    int64_t best = 0;
    for (const PredictorLeaf &leaf : p.leaves) best = std::max(best, field(leaf));
    return best;
}
static int64_t leaf_m(const PredictorLeaf &leaf) { return leaf.m; }
static int64_t leaf_features(const PredictorLeaf &leaf) { return leaf.features(); }

size_t compact_row_scratch(const CompactPredictor &p) {
    return size_t(2 * max_over_leaves(p, leaf_m) + max_over_leaves(p, leaf_features));
}

// c_j = K(x, u_j) for one row; r_j too for stationary kernels (then c_j = κ(r_j)).
static void landmark_values_row(const CompactPredictor &p, const PredictorLeaf &leaf, double gamma, const double *x,
                                double *c, double *r) {
    if (p.kernel.stationary()) {
        landmark_distances(p.kernel, x, leaf.landmarks.data(), leaf.m, p.d, r);
        for (int64_t j = 0; j < leaf.m; ++j) c[j] = stationary_kernel_of_distance(p.kernel, gamma, r[j]);
    } else {
        for (int64_t j = 0; j < leaf.m; ++j) c[j] = kernel_eval(p.kernel, x, leaf.landmarks.data() + j * p.d, p.d);
    }
}

// o = bias + c̄ᵀ β for one row.
static void outputs_row(const CompactPredictor &p, const PredictorLeaf &leaf, const double *cbar, double *o) {
    const int64_t k = p.outputs;
    std::copy(leaf.bias.begin(), leaf.bias.end(), o);
    for (int64_t f = 0; f < leaf.features(); ++f)
        for (int64_t j = 0; j < k; ++j) o[j] += cbar[f] * leaf.beta[size_t(f * k + j)];
}

double compact_predict_row(const CompactPredictor &p, const double *x, double *outputs, double *scratch) {
    const PredictorLeaf &leaf = p.leaves[size_t(compact_route(p, x))];
    const double gamma = p.kernel.gamma_for(p.d);
    double *cbar = scratch, *r = scratch + leaf.features();
    landmark_values_row(p, leaf, gamma, x, cbar, r);
    expand_pseudo_landmarks(p.kernel, gamma, p.triangle_estimate, leaf, r, cbar);
    outputs_row(p, leaf, cbar, outputs);
    return compact_label(p, outputs);
}

// ---------------------------------------------------- the prepared row path
namespace {

// Σ_f a_f b_f with four partial sums.
double dot4(const double *a, const double *b, int64_t n) {
    double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    int64_t f = 0;
    for (; f + 4 <= n; f += 4)
        s0 += a[f] * b[f], s1 += a[f + 1] * b[f + 1], s2 += a[f + 2] * b[f + 2], s3 += a[f + 3] * b[f + 3];
    for (; f < n; ++f) s0 += a[f] * b[f];
    return (s0 + s1) + (s2 + s3);
}

constexpr int64_t kLanes = 8;  // points per block of the distance loop (two AVX2 registers)

int64_t padded(int64_t count) { return (count + kLanes - 1) / kLanes * kLanes; }
// The most points the row path's AVX-512 and AVX2 codings take for a nearest.
constexpr int64_t kWidestFusedBlock = 4 * kLanes;
// ‖x‖² + ‖p‖² below this: the product and norm form of ‖x − p‖² neither
// overflows nor loses its error bound (and the rule's sums stay finite).
constexpr double kLargestScreened = 1e300;

// Points point(0), …, point(count − 1) of cols values each, transposed into
// out: cols x padded(count), the padding +∞ (its distances come out +∞ and
// are never read). Returns the end of what it wrote.
template <class Point>
double *transpose_into(int64_t count, int64_t cols, const Point &point, double *out) {
    const int64_t width = padded(count);
    std::fill(out, out + width * cols, INFINITY);
    for (int64_t i = 0; i < count; ++i) {
        const double *values = point(i);
        for (int64_t j = 0; j < cols; ++j) out[j * width + i] = values[j];
    }
    return out + width * cols;
}

// Rows of a row-major matrix of `cols` columns, as transpose_into's points.
auto rows_of(const double *a, int64_t cols) {
    return [a, cols](int64_t i) { return a + i * cols; };
}

// Vectors of doubles (GCC vector extension) of kWidth lanes; aligned(8)
// allows unaligned rows. (A typedef's attributes do not survive as a
// template argument, so the lane count is the parameter.)
template <int kWidth>
struct Doubles {
    typedef double type __attribute__((vector_size(kWidth * sizeof(double)), aligned(8)));
};
typedef Doubles<4>::type V4;
typedef int64_t V4i __attribute__((vector_size(32), aligned(8)));
// A register's lanes in each variant: eight in AVX-512, four in AVX2, two in
// SSE2 (a vector wider than the ISA's registers compiles to spills).
template <IsaLevel kLevel>
constexpr int kRegisterLanes = kLevel == IsaLevel::Avx512f ? 8
                               : kLevel == IsaLevel::Avx2  ? 4
                                                           : 2;

// out[j] = ‖x − p_j‖² (or ‖x − p_j‖₁) for N·8 consecutive points of a
// transposed block (row stride `width`) in vectors of kWidth lanes, all accumulators in
// registers across the d features; each distance sums its terms as the rule
// does (compact_predictor.h: four partial sums over the features k mod 4,
// each in order, then (s0 + s1) + (s2 + s3)), as the direct loop does.
template <int kWidth, int N, bool L1>
__attribute__((always_inline)) inline void distances_block(const double *x, const double *points, int64_t width,
                                                           int64_t d, double *out) {
    typedef typename Doubles<kWidth>::type V;
    typedef int64_t Vi __attribute__((vector_size(sizeof(V)), aligned(8)));
    constexpr int kVectors = N * kLanes / kWidth;
    V acc[4][kVectors];  // the rule's four partial sums (features f ≡ r mod 4): independent chains
    for (int r = 0; r < 4; ++r)
        for (int i = 0; i < kVectors; ++i) acc[r][i] = V{} + 0.0;
    auto add = [&](int r, int64_t f) {
        const V xf = V{} + x[f];
        const V *row = reinterpret_cast<const V *>(points + f * width);
        for (int i = 0; i < kVectors; ++i) {
            V diff = xf - row[i];
            if (L1) {
                acc[r][i] += V(Vi(diff) & INT64_MAX);
            } else {
                diff *= diff;
                acc[r][i] += diff;
            }
        }
    };
    int64_t f = 0;
    for (; f + 4 <= d; f += 4)
        for (int r = 0; r < 4; ++r) add(r, f + r);
    for (int r = 0; f < d; ++f, ++r) add(r, f);
    for (int i = 0; i < kVectors; ++i)
        reinterpret_cast<V *>(out)[i] = (acc[0][i] + acc[1][i]) + (acc[2][i] + acc[3][i]);
}

// out[j] = x · p_j for N·8 consecutive points of a transposed block (row
// stride `width`): one fused multiply-add per point and feature, in eight
// vectors of independent chains (features f ≡ c mod the chains per vector).
template <int kWidth, int N>
__attribute__((always_inline)) inline void dots_block(const double *x, const double *points, int64_t width, int64_t d,
                                                      double *out) {
    typedef typename Doubles<kWidth>::type V;
    constexpr int kVectors = N * kLanes / kWidth, kChains = kVectors >= 8 ? 1 : 8 / kVectors;
    V acc[kChains][kVectors];
    for (int c = 0; c < kChains; ++c)
        for (int i = 0; i < kVectors; ++i) acc[c][i] = V{} + 0.0;
    auto add = [&](int c, int64_t f) {
        const V xf = V{} + x[f];
        const V *row = reinterpret_cast<const V *>(points + f * width);
        for (int i = 0; i < kVectors; ++i) acc[c][i] += xf * row[i];
    };
    // (every index into acc a constant once unrolled: the accumulators stay in registers)
    int64_t f = 0;
    for (; f + kChains <= d; f += kChains)
#pragma GCC unroll 8
        for (int c = 0; c < kChains; ++c) add(c, f + c);
#pragma GCC unroll 8
    for (int c = 0; c < kChains; ++c)
        if (f + c < d) add(c, f + c);
#pragma GCC unroll 8
    for (int c = 1; c < kChains; ++c)
#pragma GCC unroll 8
        for (int i = 0; i < kVectors; ++i) acc[0][i] += acc[c][i];
#pragma GCC unroll 8
    for (int i = 0; i < kVectors; ++i) reinterpret_cast<V *>(out)[i] = acc[0][i];
}

// out[j] = ‖x − p_j‖₁ (L1) for N·8 consecutive points of a transposed block
// as distances_block, or ‖x − p_j‖² as ‖x‖² + ‖p_j‖² − 2 x · p_j (x_norm,
// norms: ‖p_j‖² from the block's first point), at least 0: a third of the
// work for the kernel's values, where the cancellation's error (a few ulp of
// ‖x‖² + ‖p_j‖², as in the batched path's kernel blocks) is within their
// tolerance. (Routing takes this form only as a screen: nearest_screened_avx2.)
template <int kWidth, int N, bool L1>
__attribute__((always_inline)) inline void kernel_distances_block(const double *x, double x_norm, const double *points,
                                                                  const double *norms, int64_t width, int64_t d,
                                                                  double *out) {
    if (L1) return distances_block<kWidth, N, true>(x, points, width, d, out);
    typedef typename Doubles<kWidth>::type V;
    dots_block<kWidth, N>(x, points, width, d, out);
    const V *norm = reinterpret_cast<const V *>(norms);
    for (int i = 0; i < N * kLanes / kWidth; ++i) {
        V &r = reinterpret_cast<V *>(out)[i];
        r = (x_norm + norm[i]) - 2 * r;
        r = r > 0 ? r : 0;
    }
}

// out[j] for all points of a transposed block (d x padded(count)), up to
// 16 points per pass. out: padded(count).
template <int kWidth, bool L1>
__attribute__((always_inline)) inline void distances_all(const double *x, const double *points_t, int64_t count,
                                                         int64_t d, double *out) {
    const int64_t width = padded(count);
    int64_t j0 = 0;
    for (; j0 + 16 <= width; j0 += 16) distances_block<kWidth, 2, L1>(x, points_t + j0, width, d, out + j0);
    if (width - j0 == 8) distances_block<kWidth, 1, L1>(x, points_t + j0, width, d, out + j0);
}

// ‖x − u_j‖₁ (l1) or ‖x − u_j‖² for the points of a transposed block.
template <IsaLevel kLevel>
KMX_ALWAYS_INLINE void distances_t_body(bool l1, const double *x, const double *points_t, int64_t count, int64_t d,
                                        double *out) {
    if (l1)
        distances_all<kRegisterLanes<kLevel>, true>(x, points_t, count, d, out);
    else
        distances_all<kRegisterLanes<kLevel>, false>(x, points_t, count, d, out);
}
KMX_ISA_LEVEL_VARIANTS(void, distances_t,
                       (bool l1, const double *x, const double *points_t, int64_t count, int64_t d, double *out),
                       (l1, x, points_t, count, d, out))

// The index the rule's scan picks among the first n of v (v holds
// padded(n) values, the padding +∞): best = +∞, then `if (v_j < best)` for
// j = 0, 1, …; 0 when no value is below +∞. Branch-free: per lane the
// running minimum over blocks of 4 (a later block replaces it only when
// strictly smaller, or when it is NaN, so each lane keeps its first
// minimum), then the lanes by (value, index).
__attribute__((always_inline)) inline int64_t nearest_of(const double *v, int64_t n) {
    const int64_t blocks = padded(n) / 4;
    const V4 *vec = reinterpret_cast<const V4 *>(v);
    V4 low = vec[0];
    V4i at = {0, 1, 2, 3};
    const V4i step = {4, 4, 4, 4};
    V4i index = at;
    for (int64_t i = 1; i < blocks; ++i) {
        index += step;
        const V4i take = (vec[i] < low) | (low != low);
        low = take ? vec[i] : low;
        at = take ? index : at;
    }
    double best = INFINITY;
    int64_t best_at = 0;
    for (int k = 0; k < 4; ++k) {  // the lanes' indices are not ordered: compare (value, index)
        const bool take = (low[k] < best) | ((low[k] == best) & (at[k] < best_at));
        best = take ? low[k] : best;
        best_at = take ? at[k] : best_at;
    }
    return best < INFINITY ? best_at : 0;
}

// The rule's nearest of the points of a transposed block (d x padded(count)).
// scratch: padded(count).
template <IsaLevel kLevel>
KMX_ALWAYS_INLINE int64_t nearest_t_body(const double *x, const double *points_t, int64_t count, int64_t d,
                                         double *scratch) {
    distances_all<kRegisterLanes<kLevel>, false>(x, points_t, count, d, scratch);
    return nearest_of(scratch, count);
}
KMX_ISA_LEVEL_VARIANTS(int64_t, nearest_t,
                       (const double *x, const double *points_t, int64_t count, int64_t d, double *scratch),
                       (x, points_t, count, d, scratch))

// lower_t = max_j |r_j − D_tj|, upper_t = min_j (r_j + D_tj), vectorised
// across t (D transposed: m x padded(p)); lower and upper hold padded(p).
KMX_ALWAYS_INLINE void triangle_bounds_t_body(const double *r, const double *dist_t, int64_t m, int64_t p,
                                              double *lower, double *upper) {
    const int64_t width = padded(p);
    const V4i abs_mask = {INT64_MAX, INT64_MAX, INT64_MAX, INT64_MAX};
    for (int64_t t0 = 0; t0 < width; t0 += 4) {
        V4 lo = {0, 0, 0, 0}, hi = {INFINITY, INFINITY, INFINITY, INFINITY};
        for (int64_t j = 0; j < m; ++j) {
            const V4 rj = {r[j], r[j], r[j], r[j]};
            const V4 dist = *reinterpret_cast<const V4 *>(dist_t + j * width + t0);
            const V4 gap = V4(V4i(rj - dist) & abs_mask), sum = rj + dist;
            lo = lo < gap ? gap : lo;
            hi = hi > sum ? sum : hi;
        }
        *reinterpret_cast<V4 *>(lower + t0) = lo;
        *reinterpret_cast<V4 *>(upper + t0) = hi;
    }
}
KMX_ISA_VARIANTS(void, triangle_bounds_t,
                 (const double *r, const double *dist_t, int64_t m, int64_t p, double *lower, double *upper),
                 (r, dist_t, m, p, lower, upper))

#ifdef KMX_X86_64
// The row path's AVX-512 coding for the common shapes: the distances of one
// row to up to 16 points per pass stay in registers and go straight into
// the argmin or into fast_exp's exp8, so the numbers are the rule's (the
// same distances_block) and the exponentials the bits exp_in_place gives.

// Horizontal minimum and sum of eight lanes (the maskz_ forms: GCC 12's
// plain ones, and its _mm512_reduce_*, trip -Wuninitialized).
__attribute__((target("avx512f"), always_inline)) inline __m512d lanes_combine(__m512d a, __m512d b, bool sum) {
    using fast_exp_detail::kAllLanes;
    return sum ? _mm512_maskz_add_pd(kAllLanes, a, b) : _mm512_maskz_min_pd(kAllLanes, a, b);
}
__attribute__((target("avx512f"), always_inline)) inline __m512d lanes_combined(__m512d v, bool sum) {
    using fast_exp_detail::kAllLanes;
    v = lanes_combine(v, _mm512_maskz_shuffle_f64x2(kAllLanes, v, v, _MM_SHUFFLE(1, 0, 3, 2)), sum);  // halves
    v = lanes_combine(v, _mm512_maskz_shuffle_f64x2(kAllLanes, v, v, _MM_SHUFFLE(2, 3, 0, 1)), sum);  // quarters
    return lanes_combine(v, _mm512_maskz_permute_pd(kAllLanes, v, 0x55), sum);                        // pairs
}

// The rule's nearest (nearest_of's answer) of the points of a transposed
// block of width N·kLanes: the lanes' minimum (a NaN distance is never taken:
// vminpd returns its second operand, the running minimum, when the first is
// NaN), then the first lane equal to it; 0 when none is below +∞.
template <int N>
__attribute__((target("avx512f"))) int64_t nearest_avx512(const double *x, const double *points_t, int64_t d) {
    alignas(64) double dist[N * kLanes];
    distances_block<8, N, false>(x, points_t, N * kLanes, d, dist);
    __m512d low = _mm512_set1_pd(INFINITY);
    for (int i = 0; i < N; ++i)
        low = _mm512_maskz_min_pd(fast_exp_detail::kAllLanes, _mm512_load_pd(dist + i * kLanes), low);
    const double best = _mm512_cvtsd_f64(lanes_combined(low, false));
    if (!(best < INFINITY)) return 0;
    const __m512d best8 = _mm512_set1_pd(best);
    uint32_t equal = 0;
    for (int i = 0; i < N; ++i)
        equal |= uint32_t(_mm512_cmp_pd_mask(_mm512_load_pd(dist + i * kLanes), best8, _CMP_EQ_OQ)) << (i * kLanes);
    // (the padding's distances are +∞: never equal to best)
    return __builtin_ctz(equal);
}

// c_j = e^{−γ r_j} (r_j = ‖x − u_j‖₁ or ‖x − u_j‖²) for the m points of a
// transposed block, written to c (m values); returns Σ_j β_j c_j when beta
// (m values) is given, summed across eight lanes, else 0.
template <bool L1>
__attribute__((target("avx512f"))) double kernel_values_avx512(const double *x, const double *points_t, int64_t m,
                                                               int64_t d, double gamma, double *c, const double *beta) {
    using fast_exp_detail::exp8;
    using fast_exp_detail::lanes_from;
    const int64_t width = padded(m);
    const __m512d minus_gamma = _mm512_set1_pd(-gamma);
    __m512d dot = _mm512_setzero_pd();
    alignas(64) double r[2 * kLanes];
    for (int64_t j0 = 0; j0 < width; j0 += 2 * kLanes) {
        const int blocks = width - j0 >= 2 * kLanes ? 2 : 1;
        if (blocks == 2)
            distances_block<8, 2, L1>(x, points_t + j0, width, d, r);
        else
            distances_block<8, 1, L1>(x, points_t + j0, width, d, r);
        for (int i = 0; i < blocks; ++i) {
            const int64_t j = j0 + i * kLanes;
            const __mmask8 lanes = lanes_from(j, m);
            // Padding lanes (r = +∞) take e^0, not e^{−∞}, which would send
            // every block with padding down exp8's path for underflowing lanes.
            const __m512d v = exp8(_mm512_maskz_mul_pd(lanes, minus_gamma, _mm512_load_pd(r + i * kLanes)));
            if (c) _mm512_mask_storeu_pd(c + j, lanes, v);
            if (beta) dot = _mm512_fmadd_pd(_mm512_maskz_loadu_pd(lanes, beta + j), v, dot);
        }
    }
    return _mm512_cvtsd_f64(lanes_combined(dot, true));
}

// The row path's AVX2 coding (CPUs without AVX-512: AMD Zen 2 and 3, most
// Intel client ones): the same, four lanes a register, fast_exp's exp4.

// The minimum of v's four lanes, in every lane.
__attribute__((target("avx2"), always_inline)) inline __m256d lanes_minimum4(__m256d v) {
    v = _mm256_min_pd(v, _mm256_permute2f128_pd(v, v, 1));  // halves
    return _mm256_min_pd(v, _mm256_permute_pd(v, 5));       // pairs
}

// Bit 4i + k set where lane k of v[i] compares to t by kCompare (_CMP_*).
template <int kCompare, int kVectors>
__attribute__((target("avx2"), always_inline)) inline uint32_t lanes_where4(const __m256d (&v)[kVectors], __m256d t) {
    uint32_t bits = 0;
    for (int i = 0; i < kVectors; ++i)
        bits |= uint32_t(_mm256_movemask_pd(_mm256_cmp_pd(v[i], t, kCompare))) << (4 * i);
    return bits;
}

// nearest_avx512 in four lanes: the lanes' minimum (vminpd keeps the running
// minimum when a distance is NaN), then the first lane equal to it. (Not
// nearest_of's running (value, index) pairs: with their blends and the
// branches of its last scan, Letter's route took 99 ns a row, now 70.)
template <int N>
__attribute__((target("avx2"))) int64_t nearest_avx2(const double *x, const double *points_t, int64_t d) {
    constexpr int kVectors = N * kLanes / 4;
    alignas(32) double dist[N * kLanes];
    distances_block<4, N, false>(x, points_t, N * kLanes, d, dist);
    __m256d dists[kVectors], low = _mm256_set1_pd(INFINITY);
    for (int i = 0; i < kVectors; ++i) low = _mm256_min_pd(dists[i] = _mm256_load_pd(dist + 4 * i), low);
    const __m256d best = lanes_minimum4(low);
    if (!(_mm256_cvtsd_f64(best) < INFINITY)) return 0;
    return __builtin_ctz(lanes_where4<_CMP_EQ_OQ>(dists, best));  // (the padding's +∞ never equals best)
}

// The rule's nearest of a block of count centers (centers_into) where a
// screen decides it: S_j = ‖x‖² + ‖c_j‖² − 2 x·c_j, one fused multiply-add
// per point and feature (the rule's sums take a subtraction, a product and
// a sum, on AVX2's two add pipes), within E_j = (4d + 64)·u·(‖x‖² + ‖c_j‖²)
// of the rule's R_j (u = 2^−53: the dot product's and the norms' rounding,
// (1.25d + 6)·u·(‖x‖² + ‖c‖²), plus the rule's own sums', (0.5d + 14)·u·
// (‖x‖² + ‖c‖²), each bound a factor 1.01 over its first-order term, and
// doubled). A point with S_j − E_j > t = min_k (S_k + E_k) has R_j > R_k for
// the k giving t, so it is not the rule's nearest: when one point is left, it
// is; otherwise (a tie within rounding) −1, for the rule's own sums. Needs
// ‖x‖² + ‖c_j‖² far from overflow (kLargestScreened).
template <int N>
__attribute__((target("avx2,fma"))) int64_t nearest_screened_avx2(const double *x, double x_norm,
                                                                  const double *points_t, const double *norms,
                                                                  int64_t count, int64_t d) {
    using fast_exp_detail::lanes4_from;
    constexpr int kVectors = N * kLanes / 4;
    alignas(32) double dots[N * kLanes];
    dots_block<4, N>(x, points_t, N * kLanes, d, dots);
    const __m256d bound = _mm256_set1_pd(double(4 * d + 64) * 0x1p-53), infinity = _mm256_set1_pd(INFINITY);
    __m256d lower[kVectors], least = infinity;  // S_j − E_j; min_k (S_k + E_k)
    for (int i = 0; i < kVectors; ++i) {
        const __m256d norm_sum = _mm256_add_pd(_mm256_set1_pd(x_norm), _mm256_load_pd(norms + 4 * i));
        __m256d screen = _mm256_fnmadd_pd(_mm256_set1_pd(2.0), _mm256_load_pd(dots + 4 * i), norm_sum);
        screen = _mm256_blendv_pd(infinity, screen, _mm256_castsi256_pd(lanes4_from(4 * i, count)));  // padding: +∞
        const __m256d error = _mm256_mul_pd(bound, norm_sum);
        lower[i] = _mm256_sub_pd(screen, error);
        least = _mm256_min_pd(_mm256_add_pd(screen, error), least);
    }
    const uint32_t candidates = lanes_where4<_CMP_LE_OQ>(lower, lanes_minimum4(least));
    return __builtin_popcount(candidates) == 1 ? __builtin_ctz(candidates) : -1;
}

// c_j = e^{−γ r_j} for the G·4 points from j0 of m whose r_j are in r, to c
// and/or into the lanes of dot (Σ_j β_j c_j).
template <int G>
__attribute__((target("avx2,fma"), always_inline)) inline void kernel_values4(const double *r, int64_t j0, int64_t m,
                                                                              __m256d minus_gamma, double *c,
                                                                              const double *beta, __m256d &dot) {
    using fast_exp_detail::lanes4_from;
    __m256i lanes[G];
    __m256d v[G];
    for (int g = 0; g < G; ++g) {
        lanes[g] = lanes4_from(j0 + 4 * g, m);
        // Padding lanes (r = +∞) take e^0, not e^{−∞}, which would send every
        // vector with padding down exp4's path for outside lanes.
        v[g] = _mm256_and_pd(_mm256_castsi256_pd(lanes[g]), _mm256_mul_pd(minus_gamma, _mm256_load_pd(r + 4 * g)));
    }
    fast_exp_detail::exp4(v);
    for (int g = 0; g < G; ++g) {
        if (c) _mm256_maskstore_pd(c + j0 + 4 * g, lanes[g], v[g]);
        if (beta) dot = _mm256_fmadd_pd(_mm256_maskload_pd(beta + j0 + 4 * g, lanes[g]), v[g], dot);
    }
}

// kernel_values_avx512 in four lanes: c_j = e^{−γ r_j} for the m points of
// a transposed block, to c (m values) and/or Σ_j β_j c_j (beta: m values).
template <bool L1>
__attribute__((target("avx2,fma"))) double kernel_values_avx2(const double *x, double x_norm, const double *points_t,
                                                              const double *norms, int64_t m, int64_t d, double gamma,
                                                              double *c, const double *beta) {
    const int64_t width = padded(m);
    const __m256d minus_gamma = _mm256_set1_pd(-gamma);
    __m256d dot = _mm256_setzero_pd();
    alignas(32) double r[2 * kLanes];
    int64_t j0 = 0;
    for (; j0 + 2 * kLanes <= width; j0 += 2 * kLanes) {
        kernel_distances_block<4, 2, L1>(x, x_norm, points_t + j0, norms + j0, width, d, r);
        kernel_values4<4>(r, j0, m, minus_gamma, c, beta, dot);
    }
    if (j0 < width) {
        kernel_distances_block<4, 1, L1>(x, x_norm, points_t + j0, norms + j0, width, d, r);
        kernel_values4<2>(r, j0, m, minus_gamma, c, beta, dot);
    }
    const __m128d pairs = _mm_add_pd(_mm256_castpd256_pd128(dot), _mm256_extractf128_pd(dot, 1));
    return _mm_cvtsd_f64(_mm_add_sd(pairs, _mm_unpackhi_pd(pairs, pairs)));
}

// The row path's coding: fast_exp's path in use (the CPU's widest, within
// KMX_ISA's cap), or none (the portable steps).
enum class RowPath { Avx512, Avx2, Portable };
RowPath row_path() {
    static const RowPath path = exp_path_in_use() == ExpPath::Avx512    ? RowPath::Avx512
                                : exp_path_in_use() == ExpPath::Avx2Fma ? RowPath::Avx2
                                                                        : RowPath::Portable;
    return path;
}

// ‖x‖² where the row path's coding uses it (AVX2: the route's screen and the
// Gaussian kernel's distances), else 0.
double row_path_norm(const double *x, int64_t d) { return row_path() == RowPath::Avx2 ? dot4(x, x, d) : 0.0; }

// The rule's nearest of the points of a transposed block of width N·kLanes
// (its padding +∞) by the row path's coding (not Portable).
template <int N>
int64_t nearest_fused(const double *x, const double *points_t, int64_t d) {
    return row_path() == RowPath::Avx512 ? nearest_avx512<N>(x, points_t, d) : nearest_avx2<N>(x, points_t, d);
}

// c_j = e^{−γ r_j} (and Σ_j β_j c_j) by the row path's coding (not
// Portable); x_norm and norms (‖u_j‖², padded(m)) for the Gaussian kernel.
double kernel_values_fused(bool l1, const double *x, double x_norm, const double *points_t, const double *norms,
                           int64_t m, int64_t d, double gamma, double *c, const double *beta) {
    if (row_path() == RowPath::Avx512)
        return l1 ? kernel_values_avx512<true>(x, points_t, m, d, gamma, c, beta)
                  : kernel_values_avx512<false>(x, points_t, m, d, gamma, c, beta);
    return l1 ? kernel_values_avx2<true>(x, x_norm, points_t, norms, m, d, gamma, c, beta)
              : kernel_values_avx2<false>(x, x_norm, points_t, norms, m, d, gamma, c, beta);
}
#else
double row_path_norm(const double *, int64_t) { return 0.0; }
#endif

}  // namespace

// Doubles of a block of count centers: transposed, then their squared norms.
static size_t centers_doubles(int64_t count, int64_t d) { return size_t((d + 1) * padded(count)); }

// ‖p_j‖² of points point(0), …, point(count − 1) of d values into out
// (padded(count), the padding 0); raises largest to the largest. Returns the
// end of what it wrote.
template <class Point>
double *norms_into(int64_t count, int64_t d, const Point &point, double *out, double &largest) {
    std::fill(out, out + padded(count), 0.0);
    for (int64_t j = 0; j < count; ++j) {
        out[j] = dot4(point(j), point(j), d);
        largest = std::max(largest, out[j]);
    }
    return out + padded(count);
}

// A block of centers (centers_doubles): transposed (transpose_into), then
// their squared norms (norms_into).
template <class Point>
double *centers_into(int64_t count, int64_t d, const Point &point, double *out, double &largest) {
    return norms_into(count, d, point, transpose_into(count, d, point, out), largest);
}

// Doubles of a leaf's block in the row predictor's data_ (landmarks
// transposed, β, bias, triangle distances transposed, the landmarks'
// squared norms), rounded up so that each block starts on a cache line.
static size_t leaf_block_doubles(const PredictorLeaf &leaf, int64_t d, int64_t outputs) {
    const size_t size =
        centers_doubles(leaf.m, d) + size_t(leaf.features() * outputs + outputs + leaf.m * padded(leaf.triangle));
    return (size + kLanes - 1) / kLanes * kLanes;
}

size_t CompactRowPredictor::scratch_doubles(const CompactPredictor &p) {
    int64_t widest = padded(p.top()), most = 0;  // a nearest's distances; c̄, r and the triangle bounds
    for (int64_t t = 0; t < p.top(); ++t)
        widest = std::max(widest, padded(p.top_leaf_begin[size_t(t + 1)] - p.top_leaf_begin[size_t(t)]));
    for (const PredictorLeaf &leaf : p.leaves)
        most = std::max(most, leaf.features() + padded(leaf.m) + 2 * padded(leaf.triangle));
    return size_t(std::max(widest, most));
}

// Doubles of the row predictor's groups_t_: each top node's leaf centers.
static size_t groups_doubles(const CompactPredictor &p) {
    size_t doubles = 0;
    for (int64_t t = 0; t < p.top(); ++t)
        doubles += centers_doubles(p.top_leaf_begin[size_t(t + 1)] - p.top_leaf_begin[size_t(t)], p.d);
    return doubles;
}

size_t CompactRowPredictor::footprint_bytes(const CompactPredictor &p) {
    size_t doubles = centers_doubles(p.top(), p.d) + groups_doubles(p);
    for (const PredictorLeaf &leaf : p.leaves) doubles += leaf_block_doubles(leaf, p.d, p.outputs);
    return doubles * sizeof(double) + p.leaves.size() * sizeof(Leaf) + size_t(p.top()) * sizeof(size_t);
}

CompactRowPredictor::CompactRowPredictor(const CompactPredictor &p) : p_(p) {
    check_compact_predictor(p);
    const int64_t d = p.d;
    top_t_.resize(centers_doubles(p.top(), d));
    centers_into(p.top(), d, rows_of(p.top_centers.data(), d), top_t_.data(), largest_center_norm_);
    groups_t_.resize(groups_doubles(p));
    double *group = groups_t_.data();
    for (int64_t t = 0; t < p.top(); ++t) {
        const int64_t begin = p.top_leaf_begin[size_t(t)], count = p.top_leaf_begin[size_t(t + 1)] - begin;
        group_offset_.push_back(size_t(group - groups_t_.data()));
        group = centers_into(
            count, d, [&](int64_t l) { return p.leaves[size_t(begin + l)].center.data(); }, group,
            largest_center_norm_);
    }
    std::vector<size_t> offsets;
    size_t total = 0;
    for (const PredictorLeaf &leaf : p.leaves) {
        offsets.push_back(total);
        total += leaf_block_doubles(leaf, d, p.outputs);
    }
    data_.assign(total, 0.0);
    for (size_t l = 0; l < p.leaves.size(); ++l) {
        const PredictorLeaf &leaf = p.leaves[l];
        double *block = data_.data() + offsets[l];
        Leaf prepared{};
        prepared.landmarks_t = block;
        block = transpose_into(leaf.m, d, rows_of(leaf.landmarks.data(), d), block);
        prepared.beta = block;
        block = std::copy(leaf.beta.begin(), leaf.beta.end(), block);
        prepared.bias = block;
        block = std::copy(leaf.bias.begin(), leaf.bias.end(), block);
        prepared.dist_t = block;
        block = transpose_into(leaf.triangle, leaf.m, rows_of(leaf.triangle_dist.data(), leaf.m), block);
        prepared.norms = block;  // (last: the AVX-512 path does not read them)
        norms_into(leaf.m, d, rows_of(leaf.landmarks.data(), d), block, prepared.largest_norm);
        prepared.pairs = leaf.product_pairs.data();
        prepared.m = leaf.m, prepared.triangle = leaf.triangle, prepared.products = leaf.products;
        leaves_.push_back(prepared);
    }
    scratch_ = scratch_doubles(p);
}

#ifdef KMX_X86_64
// f(std::integral_constant<int, N>{}) for the N = padded(count) / kLanes
// (1 to 4) of a block the fused codings take.
template <class F>
KMX_ALWAYS_INLINE int64_t with_blocks(int64_t count, const F &f) {
    switch (padded(count) / kLanes) {
        case 1:
            return f(std::integral_constant<int, 1>{});
        case 2:
            return f(std::integral_constant<int, 2>{});
        case 3:
            return f(std::integral_constant<int, 3>{});
        default:
            return f(std::integral_constant<int, 4>{});
    }
}
#endif

// The rule's nearest of a block of count centers (centers_into), by the
// AVX-512 or AVX2 coding up to kWidestFusedBlock points; on AVX2 first by
// the screen (nearest_screened_avx2) where the norms are far from overflow
// (screenable). dist: padded(count) doubles of scratch.
KMX_ALWAYS_INLINE static int64_t nearest_row(const double *x, double x_norm, const double *points_t, int64_t count,
                                             int64_t d, bool screenable, double *dist) {
#ifdef KMX_X86_64
    if (count <= kWidestFusedBlock && row_path() == RowPath::Avx2 && screenable) {
        const double *norms = points_t + d * padded(count);
        const int64_t nearest = with_blocks(count, [&](auto blocks) {
            return nearest_screened_avx2<decltype(blocks)::value>(x, x_norm, points_t, norms, count, d);
        });
        if (nearest >= 0) return nearest;
    }
    if (count <= kWidestFusedBlock && row_path() != RowPath::Portable)
        return with_blocks(count, [&](auto blocks) { return nearest_fused<decltype(blocks)::value>(x, points_t, d); });
#endif
    return nearest_t(x, points_t, count, d, dist);
}

int64_t CompactRowPredictor::route(const double *x, double x_norm, double *dist) const {
    const bool screenable = x_norm + largest_center_norm_ < kLargestScreened;
    const int64_t t = p_.top() == 1 ? 0 : nearest_row(x, x_norm, top_t_.data(), p_.top(), p_.d, screenable, dist);
    const int64_t begin = p_.top_leaf_begin[size_t(t)], count = p_.top_leaf_begin[size_t(t + 1)] - begin;
    if (count == 1) return begin;
    return begin + nearest_row(x, x_norm, groups_t_.data() + group_offset_[size_t(t)], count, p_.d, screenable, dist);
}

// Whether the leaf's kernel values take the row path's fused coding: a
// stationary kernel on x86-64 with AVX2 or AVX-512 and, for the Gaussian
// kernel on AVX2 (its distances by ‖x‖² + ‖u‖² − 2 x · u), norms far from
// overflow.
bool CompactRowPredictor::fused(const Leaf &leaf, double x_norm) const {
#ifdef KMX_X86_64
    if (!p_.kernel.stationary() || row_path() == RowPath::Portable) return false;
    return row_path() == RowPath::Avx512 || p_.kernel.type == KMX_KERNEL_LAPLACIAN ||
           x_norm + leaf.largest_norm < kLargestScreened;
#else
    (void)leaf, (void)x_norm;
    return false;
#endif
}

// c_j (and r_j for stationary kernels) for one row.
void CompactRowPredictor::landmark_values(int64_t l, const Leaf &leaf, const double *x, double x_norm, double *c,
                                          double *r) const {
    const int64_t m = leaf.m;
    const double gamma = p_.kernel.gamma_for(p_.d);
    if (!p_.kernel.stationary()) {
        const double *landmarks = p_.leaves[size_t(l)].landmarks.data();
        for (int64_t j = 0; j < m; ++j) c[j] = kernel_eval(p_.kernel, x, landmarks + j * p_.d, p_.d);
        return;
    }
    const bool l1 = p_.kernel.type == KMX_KERNEL_LAPLACIAN;
#ifdef KMX_X86_64
    if (leaf.triangle == 0 && fused(leaf, x_norm)) {  // r is not needed
        kernel_values_fused(l1, x, x_norm, leaf.landmarks_t, leaf.norms, m, p_.d, gamma, c, nullptr);
        return;
    }
#endif
    distances_t(l1, x, leaf.landmarks_t, m, p_.d, r);  // ‖x − u_j‖₁ or ‖x − u_j‖²
    for (int64_t j = 0; j < m; ++j) c[j] = -gamma * r[j];
    exp_in_place(c, m);
    if (leaf.triangle > 0 && !l1)
        for (int64_t j = 0; j < m; ++j) r[j] = std::sqrt(r[j]);
}

void CompactRowPredictor::triangle_values(const Leaf &leaf, const double *r, double *c_tri) const {
    const int64_t p = leaf.triangle;
    // lower and upper (padded(p) each) in the scratch after c̄ and r.
    double *lower = c_tri + p + leaf.products + padded(leaf.m), *upper = lower + padded(p);
    triangle_bounds_t(r, leaf.dist_t, leaf.m, p, lower, upper);
    const double gamma = p_.kernel.gamma_for(p_.d);
    const bool l1 = p_.kernel.type == KMX_KERNEL_LAPLACIAN;
    for (int64_t t = 0; t < p; ++t) {
        const double rho = p_.triangle_estimate == TriangleEstimate::lower   ? lower[t]
                           : p_.triangle_estimate == TriangleEstimate::upper ? upper[t]
                                                                             : 0.5 * (lower[t] + upper[t]);
        c_tri[t] = l1 ? -gamma * rho : -gamma * rho * rho;
    }
    exp_in_place(c_tri, p);
}

double CompactRowPredictor::predict(const double *x, double *outputs, double *scratch) const {
    const double x_norm = row_path_norm(x, p_.d);
    const int64_t l = route(x, x_norm, scratch);
    const Leaf &leaf = leaves_[size_t(l)];
    const int64_t F = leaf.m + leaf.triangle + leaf.products, k = p_.outputs;
    double *cbar = scratch, *r = scratch + F;
#ifdef KMX_X86_64
    if (k == 1 && F == leaf.m && fused(leaf, x_norm)) {  // c̄ = c: fused with its dot
        const double gamma = p_.kernel.gamma_for(p_.d);
        const bool l1 = p_.kernel.type == KMX_KERNEL_LAPLACIAN;
        outputs[0] = leaf.bias[0] + kernel_values_fused(l1, x, x_norm, leaf.landmarks_t, leaf.norms, leaf.m, p_.d,
                                                        gamma, nullptr, leaf.beta);
        return compact_label(p_, outputs);
    }
#endif
    landmark_values(l, leaf, x, x_norm, cbar, r);
    if (leaf.triangle > 0) triangle_values(leaf, r, cbar + leaf.m);
    const int32_t *pairs = leaf.pairs;
    double *c_prod = cbar + leaf.m + leaf.triangle;
    for (int64_t q = 0; q < leaf.products; ++q) c_prod[q] = cbar[pairs[2 * q]] * cbar[pairs[2 * q + 1]];
    if (k == 1) {
        outputs[0] = leaf.bias[0] + dot4(cbar, leaf.beta, F);
    } else {
        std::copy(leaf.bias, leaf.bias + k, outputs);
        for (int64_t f = 0; f < F; ++f)
            for (int64_t j = 0; j < k; ++j) outputs[j] += cbar[f] * leaf.beta[size_t(f * k + j)];
    }
    return compact_label(p_, outputs);
}

size_t compact_leaf_features_workspace_bytes(const CompactPredictor &p, int64_t rows, int64_t m) {
    return WorkspacePlan()
        .add_bytes(kernel_block_workspace_bytes(p.kernel, rows, m, p.d))
        .add<double>(size_t(m))
        .bytes();
}

void compact_leaf_features(const CompactPredictor &p, const PredictorLeaf &leaf, const double *x, int64_t rows,
                           double *cbar, Arena &scratch, int threads) {
    const int64_t F = leaf.features(), d = p.d;
    kernel_block(p.kernel, x, rows, d, leaf.landmarks.data(), leaf.m, d, d, cbar, F, scratch, threads);
    if (F == leaf.m) return;
    ArenaScope scope(scratch);
    double *r = scratch.alloc<double>(size_t(leaf.m));
    const double gamma = p.kernel.gamma_for(d);
    for (int64_t i = 0; i < rows; ++i) {
        if (leaf.triangle > 0) landmark_distances(p.kernel, x + i * d, leaf.landmarks.data(), leaf.m, d, r);
        expand_pseudo_landmarks(p.kernel, gamma, p.triangle_estimate, leaf, r, cbar + i * F);
    }
}

namespace {

// The buffers of one row block, carved once from the call's arena.
struct BlockBuffers {
    double *rows;         // B x d, in dataset order
    double *sorted;       // B x d, grouped by leaf
    int64_t *leaf_of;     // B
    int64_t *order;       // B: sorted position -> row in block
    int64_t *leaf_start;  // leaves + 1
    double *cbar;         // B x max features
    double *o;            // B x outputs
};

// Rows [begin, end) of data into rows (B x d), padding missing columns with zeros.
void load_rows(const Dataset &data, int64_t begin, int64_t end, int64_t d, double *rows) {
    data.copy_rows(begin, end, rows);
    if (data.d == d) return;
    for (int64_t i = end - begin - 1; i >= 0; --i) {  // spread backwards: rows only move to larger offsets
        std::copy_backward(rows + i * data.d, rows + (i + 1) * data.d, rows + i * d + data.d);
        std::fill(rows + i * d + data.d, rows + (i + 1) * d, 0.0);
    }
}

// Counting sort of the block's rows by leaf into b.order / b.leaf_start, and the rows gathered in that order.
void group_by_leaf(const CompactPredictor &p, int64_t count, BlockBuffers &b) {
    const int64_t leaves = int64_t(p.leaves.size());
    std::fill(b.leaf_start, b.leaf_start + leaves + 1, 0);
    for (int64_t i = 0; i < count; ++i) {
        b.leaf_of[i] = compact_route(p, b.rows + i * p.d);
        ++b.leaf_start[b.leaf_of[i] + 1];
    }
    for (int64_t l = 0; l < leaves; ++l) b.leaf_start[l + 1] += b.leaf_start[l];
    std::vector<int64_t> next(b.leaf_start, b.leaf_start + leaves);
    for (int64_t i = 0; i < count; ++i) {
        const int64_t pos = next[size_t(b.leaf_of[i])]++;
        b.order[pos] = i;
        std::copy(b.rows + i * p.d, b.rows + (i + 1) * p.d, b.sorted + pos * p.d);
    }
}

// O (rows x outputs) = bias + C̄ β for `rows` consecutive sorted rows of one leaf.
void predict_leaf_rows(Context &ctx, Arena &arena, const CompactPredictor &p, const PredictorLeaf &leaf,
                       const double *x, int64_t rows, BlockBuffers &b) {
    const int64_t F = leaf.features();
    compact_leaf_features(p, leaf, x, rows, b.cbar, arena, ctx.threads);
    for (int64_t i = 0; i < rows; ++i) std::copy(leaf.bias.begin(), leaf.bias.end(), b.o + i * p.outputs);
    linalg::gemm(linalg::Trans::No, linalg::Trans::No, rows, p.outputs, F, 1.0, b.cbar, F, leaf.beta.data(), p.outputs,
                 1.0, b.o, p.outputs, ctx.threads);
}

// Multiply-adds of one row's distances (top centers, a group, a leaf's
// landmarks), about.
double row_multiply_adds(const CompactPredictor &p) {
    int64_t landmarks = 0;
    for (const PredictorLeaf &leaf : p.leaves) landmarks += leaf.m;
    const double leaves = double(p.leaves.size()), top = double(p.top());
    return (top + leaves / top + double(landmarks) / leaves) * double(p.d);
}

// Whether rows go one at a time through a CompactRowPredictor rather than
// in blocks sorted by leaf: when a block's rows of one leaf times a row's
// multiply-adds come under kRowPathWork, the leaf's kernel block and GEMM
// are mostly call overhead. Measured one thread, Intel Xeon (AVX-512), on
// DC-Pred++ predictors of Letter (d = 16; 5 x 56 to 128 x 24, 0.04-0.2
// million: the rows 1.1-4.2x faster) and of 5000 rows of the digits (d =
// 256: the rows 1.8-2.1x faster at 0.06-0.14 million, equal at 0.4, the
// blocks 1.7-4x faster from 1.4 million up). And only for at least one row
// per leaf: the row predictor's copies cost about what that many rows do.
// (A prepared row predictor costs nothing to use: then any number of rows.)
constexpr double kRowPathWork = 3e5;
bool one_row_at_a_time(const CompactPredictor &p, int64_t n, const PreparedRows *prepared) {
    const double leaves = double(p.leaves.size());
    const double rows_per_leaf = double(std::min(n, kRowBlock)) / leaves;
    const double multiply_adds = prepared ? prepared->row_multiply_adds() : row_multiply_adds(p);
    return (prepared || double(n) >= leaves) && rows_per_leaf * multiply_adds < kRowPathWork;
}

// compact_predict one row at a time (CompactRowPredictor: the prepared one,
// else one made for the call), chunks of rows shared among the threads, each
// with its own rows, scratch and outputs.
constexpr int64_t kRowChunk = 256;
void predict_rows_one_at_a_time(Context &ctx, const CompactPredictor &p, const Dataset &data, double *outputs,
                                double *labels, const PreparedRows *prepared) {
    const int64_t n = data.n, d = p.d, k = p.outputs;
    const int64_t chunks = (n + kRowChunk - 1) / kRowChunk;
    const double multiply_adds = prepared ? prepared->row_multiply_adds() : row_multiply_adds(p);
    const int threads = int(std::min<int64_t>(threads_for_work(ctx.threads, 2 * double(n) * multiply_adds), chunks));
    const bool making = !prepared || !prepared->made();  // then its copies count against the budget
    const size_t scratch = making ? CompactRowPredictor::scratch_doubles(p) : prepared->get().scratch_size();
    const size_t per_thread = size_t(std::min(n, kRowChunk) * d + k) + scratch;
    WorkspacePlan plan;
    if (making) plan.add_bytes(CompactRowPredictor::footprint_bytes(p));
    plan.add<double>(size_t(threads) * per_thread);
    Arena arena = ctx.reserve(plan.bytes(), "compact predict");
    std::optional<CompactRowPredictor> made;  // (after the budget's check: it is most of the memory)
    const CompactRowPredictor &rows = prepared ? prepared->get() : made.emplace(p);
    double *buffers = arena.alloc<double>(size_t(threads) * per_thread);
    parallel_for(chunks, threads, [&](int64_t chunk) {
        double *x = buffers + size_t(thread_index()) * per_thread, *o = x + std::min(n, kRowChunk) * d, *work = o + k;
        const int64_t begin = chunk * kRowChunk, end = std::min(n, begin + kRowChunk);
        load_rows(data, begin, end, d, x);
        for (int64_t i = begin; i < end; ++i) {
            const double label = rows.predict(x + (i - begin) * d, o, work);
            if (outputs) std::copy(o, o + k, outputs + i * k);
            if (labels) labels[i] = label;
        }
        if (thread_index() == 0) ctx.progress(double(end) / double(n), "compact predict");
    });
}

}  // namespace

PreparedRows::PreparedRows(const CompactPredictor &predictor)
    : p_(predictor), row_multiply_adds_((check_compact_predictor(predictor), kmx::row_multiply_adds(predictor))) {}

void compact_predict(Context &ctx, const CompactPredictor &p, const Dataset &data, double *outputs, double *labels,
                     CompactPredictPath path, const PreparedRows *prepared) {
    if (!prepared) check_compact_predictor(p);  // (PreparedRows checked it once)
    check_columns(data, p.d, "predictor");
    const int64_t n = data.n, d = p.d, leaves = int64_t(p.leaves.size());
    if (n == 0) return;
    if (path == CompactPredictPath::rows ||
        (path == CompactPredictPath::automatic && one_row_at_a_time(p, n, prepared)))
        return predict_rows_one_at_a_time(ctx, p, data, outputs, labels, prepared);
    const int64_t B = std::min(n, kRowBlock);
    const int64_t max_m = max_over_leaves(p, leaf_m), max_f = max_over_leaves(p, leaf_features);
    WorkspacePlan plan;
    plan.add<double>(size_t(B * d)).add<double>(size_t(B * d)).add<int64_t>(size_t(B)).add<int64_t>(size_t(B));
    plan.add<int64_t>(size_t(leaves + 1)).add<double>(size_t(B * max_f)).add<double>(size_t(B * p.outputs));
    plan.add_bytes(compact_leaf_features_workspace_bytes(p, B, max_m));
    plan.add_bytes(size_t(leaves) * sizeof(int64_t));  // group_by_leaf's cursor (std::vector, counted here)
    Arena arena = ctx.reserve(plan.bytes(), "compact predict");
    BlockBuffers b{arena.alloc<double>(size_t(B * d)),        arena.alloc<double>(size_t(B * d)),
                   arena.alloc<int64_t>(size_t(B)),           arena.alloc<int64_t>(size_t(B)),
                   arena.alloc<int64_t>(size_t(leaves + 1)),  arena.alloc<double>(size_t(B * max_f)),
                   arena.alloc<double>(size_t(B * p.outputs))};
    for (int64_t begin = 0; begin < n; begin += B) {
        const int64_t count = std::min(B, n - begin);
        load_rows(data, begin, begin + count, d, b.rows);
        group_by_leaf(p, count, b);
        for (int64_t l = 0; l < leaves; ++l) {
            const int64_t first = b.leaf_start[l], rows = b.leaf_start[l + 1] - first;
            if (rows == 0) continue;
            predict_leaf_rows(ctx, arena, p, p.leaves[size_t(l)], b.sorted + first * d, rows, b);
            for (int64_t s = 0; s < rows; ++s) {
                const int64_t row = begin + b.order[first + s];
                const double *o = b.o + s * p.outputs;
                if (outputs) std::copy(o, o + p.outputs, outputs + row * p.outputs);
                if (labels) labels[row] = compact_label(p, o);
            }
        }
        ctx.progress(double(begin + count) / double(n), "compact predict");
    }
}

}  // namespace kmx
