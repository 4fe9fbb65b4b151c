// falkon.cpp — FALKON: Nyström KRR by preconditioned conjugate gradient
// (paper Alg. 1), several outputs per pass over K_nM, optional early
// stopping on held-out rows.
//
// Across ranks (ctx.comm spans several processes, each holding a shard of
// the rows, rank r's rows after those of ranks 0..r-1): every product over
// rows, K_nMᵀ(K_nM v) and K_nMᵀY, is binned (core/reproducible_sum.h: the
// bits do not depend on how the rows are split) and its bins AllReduced with
// each rank's largest term, 2 x M x outputs + ranks values; the centers are global rows sampled by
// the same seed, summed from the ranks that hold them; the preconditioner is
// rank 0's, broadcast. Every rank then holds the same bits of every CG vector
// and scalar, takes the same steps and stops at the same iteration. Every
// phase ends in an agreement (Communicator::agree), so a rank that fails
// (bad data, over its budget) stops them all with its message.
//
// kernel_float32: K_nM's blocks are computed (kernel_block_rows_f32) and
// cached as floats, and each row is widened to double just before it is used
// (one row buffer per thread), so everything after K_nM's values (the dots,
// the binned sums, CG) is the double computation on rounded kernel values.
//
// Notation (paper): n rows, M centers, Y (n x k targets), K_nM (n x M),
// H = K_nMᵀK_nM + λn K_MM, B = (1/√n) T⁻¹A⁻¹. CG solves, as Alg. 1 writes it,
//   (BᵀHB) β = r,   BᵀHB u = A⁻ᵀ(T⁻ᵀ K_nMᵀ K_nM T⁻¹A⁻¹u / n + λ A⁻¹u),
//   r = A⁻ᵀ T⁻ᵀ K_nMᵀ Y / n,   α = T⁻¹ A⁻¹ β.
#include "falkon.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>

#include "core/scratch_carver.h"
#include "core/context.h"
#include "core/dataset.h"
#include "core/error.h"
#include "core/fixed_order_dot.h"
#include "core/parallel.h"
#include "core/params.h"
#include "core/reproducible_sum.h"
#include "core/rng.h"
#include "core/row_shards.h"
#include "falkon_preconditioner.h"
#include "linalg/linalg.h"
#include "linalg/normal_product.h"

namespace kmx {
namespace {

using cluster::ScratchCarver;
using linalg::Trans;

constexpr int64_t kBlockValues = int64_t(1) << 22;  // one block of K_nM: 32 MB

int64_t block_rows_for(int64_t n, int64_t m) {  // at least 1: a rank may hold no rows
    return std::max<int64_t>(1, std::min(n, std::clamp<int64_t>(kBlockValues / std::max<int64_t>(m, 1), 64, 8192)));
}

// K_nM's row stride: M rounded up to 8 values, so that every row starts on
// a 64-byte line (the passes' vector loads; 15-25% faster than unaligned rows).
int64_t knm_stride(int64_t m) { return (m + 7) / 8 * 8; }

int64_t validation_rows_for(int64_t n, double fraction) { return int64_t(std::floor(fraction * double(n))); }

// Everything fixed for one fit: the data, its split, the centers.
struct Problem {
    KernelSpec kernel;  // gamma resolved
    const Dataset *data;
    const Dataset *centers;           // M x d, dense or CSR (uniform centers of rows that stay sparse)
    const double *y;                  // n x k targets
    int64_t n, m, k, block;           // n: this rank's rows
    int64_t total_rows, first_row;    // all ranks' rows; this rank's first in their numbering
    int64_t train_rows;               // all ranks' rows minus the validation rows
    bool kernel_float32;              // K_nM's blocks computed and cached in float32
    bool binned;                      // K_nM's row sums binned (several ranks or reproducible_sums)
    std::vector<uint8_t> held_out;    // n flags: 1 = validation row (empty: none)
    std::vector<int64_t> validation;  // this rank's validation rows, increasing
    int64_t validation_total = 0;     // all ranks' validation rows
};

// The CG state and the one kernel block, carved from the arena (the layout
// code sizes and carves, so falkon_workspace_bytes can never disagree).
struct Work {
    double *x, *r, *p, *ap, *tmp;  // q x k (carved M x k)
    double *v, *w;                 // M x k: T⁻¹A⁻¹p and K_nMᵀ K_nM v
    double *best_x;                // M x k: the best iterate on the validation rows
    double *kernel_block;          // block x M rows of K_nM (empty with kernel_float32)
    float *kernel_block32;         // the same in float32 (kernel_float32, else empty)
    double *cache;                 // the first cached_blocks blocks of K_nM (opt-in, else empty)
    float *cache32;                // the same in float32 (kernel_float32: cache is empty)
    int64_t cached_blocks;
    bool cache_ready;                   // filled by the first pass
    double *z;                          // block x k: K_b v (or Y_b)
    double *val_out, *val_dir;          // validation x k: f on the held-out rows, K_val v
    double *tridiagonal, *eigen;        // t x t and t: the Lanczos matrix of one output
    double *v_columns, *w_columns;      // k x M: the columns of v and of w, each contiguous
    std::vector<double> wide_rows;      // kernel_float32: one row of K_nM in double per thread
    BinnedSum target_sum, product_sum;  // K_nMᵀY and K_nMᵀK_nM v, binned
};

// The cache holds min(cache_bytes, all of K_nM), of which whole blocks are
// used (carving the unrounded size keeps the sizing an upper bound when
// k-means returns fewer centers than planned). Values are floats with
// kernel_float32: twice as many fit.
void carve_cache(ScratchCarver &c, Work &w, int64_t n, int64_t m, int64_t block, size_t cache_bytes, bool float32) {
    const size_t value_bytes = float32 ? sizeof(float) : sizeof(double);
    const int64_t ld = knm_stride(m), cache_values = std::min(int64_t(cache_bytes / value_bytes), n * ld);
    w.cached_blocks = cache_values / (block * ld) + (cache_values == n * ld && n % block != 0 ? 1 : 0);
    w.cache = c.take<double>(size_t(float32 ? 0 : cache_values));
    w.cache32 = c.take<float>(size_t(float32 ? cache_values : 0));
}

// The K_nM cache bytes carved with the rest of the workspace: the explicit
// cache; an auto cache is reserved later, from what is left.
size_t cache_in_workspace(const FalkonOptions &o) { return o.auto_cache ? 0 : o.kernel_cache_bytes; }

// validation: this rank's held-out rows (at most); early_stopping: whether
// any rank holds some.
Work carve_work(ScratchCarver &c, int64_t n, int64_t m, int64_t k, int64_t block, int64_t validation,
                bool early_stopping, int iterations, size_t cache_bytes, bool float32) {
    Work w{};
    carve_cache(c, w, n, m, block, cache_bytes, float32);
    for (double **vec : {&w.x, &w.r, &w.p, &w.ap, &w.tmp, &w.v, &w.w, &w.v_columns, &w.w_columns})
        *vec = c.take<double>(size_t(m * k));
    w.best_x = c.take<double>(size_t(early_stopping ? m * k : 0));
    w.kernel_block = c.take<double>(size_t(float32 ? 0 : block * knm_stride(m)));
    w.kernel_block32 = c.take<float>(size_t(float32 ? block * knm_stride(m) : 0));
    w.z = c.take<double>(size_t(block * k));
    w.val_out = c.take<double>(size_t(validation * k));
    w.val_dir = c.take<double>(size_t(validation * k));
    w.tridiagonal = c.take<double>(size_t(iterations) * size_t(iterations));
    w.eigen = c.take<double>(size_t(iterations));
    return w;
}

// K_nM's blocks (in float32 with kernel_float32) and K_MM's (double).
// Rows of data that stay sparse become CSR centers in one process (uniform
// centers) and dense ones across ranks or by k-means: a bound for either.
size_t kernel_scratch_bytes(const KernelSpec &kernel, const Dataset &data, int64_t block, int64_t m, bool float32) {
    const size_t sparse_centers = sparse_kernel_block(kernel, data, data)
                                      ? sparse_kernel_block_listed_workspace_bytes(std::min(block, m), widest_row(data))
                                      : 0;
    double dummy = 0;
    const auto centers = Dataset::dense_borrow(&dummy, m, data.d, nullptr);
    const size_t knm = float32 ? kernel_block_rows_f32_workspace_bytes(kernel, data, block, *centers, m)
                               : kernel_block_rows_workspace_bytes(kernel, data, block, *centers, m);
    return std::max({sparse_centers, knm, kernel_block_rows_workspace_bytes(kernel, *centers, m, *centers, m)});
}

// ------------------------------------------------------------ validation

// n: the rows of all ranks; data and targets: this rank's.
void check_arguments(const Dataset &data, int64_t n, const KrrTargets &targets, const FalkonOptions &o) {
    require(n >= 1 && data.d >= 1, "FALKON: the dataset has no rows or no columns");
    if (o.centers < 1 || o.centers > n)
        fail(KMX_E_INVALID_ARGUMENT, "FALKON: centers M = %lld must be in [1, n = %lld]", (long long)o.centers,
             (long long)n);
    if (!(o.lambda > 0 && std::isfinite(o.lambda)))
        fail(KMX_E_INVALID_ARGUMENT, "FALKON: lambda = %g must be finite and > 0", o.lambda);
    require(o.iterations >= 1, "FALKON: iterations must be >= 1");
    require(o.tolerance >= 0 && std::isfinite(o.tolerance), "FALKON: tolerance must be finite and >= 0");
    require(o.jitter >= 0 && std::isfinite(o.jitter), "FALKON: jitter must be finite and >= 0");
    require(o.patience >= 1, "FALKON: patience must be >= 1");
    check_param(*find_param(KMX_PARAM_VALIDATION), o.validation_fraction);  // the table's range, [0, 0.5)
    const int64_t held_out = validation_rows_for(n, o.validation_fraction);
    if (o.validation_fraction > 0 && (held_out < 1 || o.centers + held_out > n))
        fail(KMX_E_INVALID_ARGUMENT,
             "FALKON: validation_fraction %g holds out %lld rows; it needs >= 1 and M + held-out <= n = %lld",
             o.validation_fraction, (long long)held_out, (long long)n);
    require(o.center_method != LandmarkMethod::weighted_kmeans, "FALKON: weighted_kmeans centers are not supported");
    require(o.center_method != LandmarkMethod::given || o.given_centers,
            "FALKON: given centers need given_centers (M x d)");
    require(targets.outputs >= 1 && int64_t(targets.y.size()) == data.n * targets.outputs,
            "FALKON: targets must hold n x outputs values for the dataset's n rows");
    check_finite(targets.y.data(), data.n, targets.outputs, "targets");
    check_finite_dataset(data, "features");
}

// ------------------------------------------------------------ set-up

// Uniform centers over all ranks' rows: the rows sample_rows draws from the
// global numbering with ctx's seed (as select_landmarks draws them from one
// process's rows), each filled in by the rank that holds it, zero elsewhere,
// and summed.
Landmarks shared_uniform_centers(Context &ctx, const Problem &pr, int64_t m) {
    Landmarks centers;
    centers.m = m;
    centers.d = pr.data->d;
    Rng rng(ctx.seed);
    centers.rows = sample_rows(rng, pr.total_rows, m);
    run_agreed(ctx.comm, [&] {
        ctx.check_budget(size_t(m) * size_t(centers.d + 1) * sizeof(double), "uniform centers");
        centers.points.assign(size_t(m * centers.d), 0.0);
        for (int64_t j = 0; j < m; ++j) {
            const int64_t local = centers.rows[size_t(j)] - pr.first_row;
            if (local >= 0 && local < pr.n) gather_rows(*pr.data, &local, 1, centers.points.data() + j * centers.d);
        }
    });
    ctx.comm.sum(centers.points.data(), int64_t(centers.points.size()));
    return centers;
}

Landmarks choose_centers(Context &ctx, const KernelSpec &kernel, const Problem &pr, const FalkonOptions &o) {
    if (ctx.comm.distributed() && o.center_method == LandmarkMethod::uniform)
        return shared_uniform_centers(ctx, pr, o.centers);
    const Dataset &data = *pr.data;
    LandmarkOptions lo;
    lo.method = o.center_method;
    lo.m = o.centers;
    lo.given = o.given_centers;
    lo.leverage_lambda = o.lambda;
    lo.keep_sparse = true;  // read through Landmarks::dataset()
    return select_landmarks(ctx, kernel, data, lo);
}

// Held-out rows: uniformly among the rows that are not centers, drawn from
// all ranks' rows the same way on every rank; each keeps its own.
void split_validation(Problem &pr, const Landmarks &centers, double fraction, uint64_t seed) {
    const int64_t count = validation_rows_for(pr.total_rows, fraction);
    pr.train_rows = pr.total_rows - count;
    pr.validation_total = count;
    if (count == 0) return;
    std::vector<uint8_t> held_out(size_t(pr.total_rows), 0);
    for (int64_t row : centers.rows) held_out[size_t(row)] = 1;  // centers are not eligible
    std::vector<int64_t> pool;
    for (int64_t i = 0; i < pr.total_rows; ++i)
        if (held_out[size_t(i)] == 0) pool.push_back(i);
    Rng rng = Rng(seed).split(0xFA1C0);
    std::fill(held_out.begin(), held_out.end(), 0);
    for (int64_t index : sample_rows(rng, int64_t(pool.size()), count)) {
        const int64_t row = pool[size_t(index)];
        held_out[size_t(row)] = 1;
        if (row >= pr.first_row && row < pr.first_row + pr.n) pr.validation.push_back(row - pr.first_row);
    }
    std::sort(pr.validation.begin(), pr.validation.end());  // kernel_pass fills slots in row order
    pr.held_out.assign(held_out.begin() + pr.first_row, held_out.begin() + pr.first_row + pr.n);
}

// ------------------------------------------------------------ K_nM passes

// Rows [begin, end) of K_nM, as stored: doubles, or floats with
// kernel_float32.
struct KnmRows {
    const double *wide;
    const float *narrow;
};

// Rows [begin, end) of K_nM: from the cache (filling it on the first pass)
// or computed into the one block buffer, in the kernel's precision.
KnmRows knm_block(Context &ctx, const Problem &pr, int64_t begin, int64_t end, Work &work, Arena &arena) {
    const bool cached = begin / pr.block < work.cached_blocks, fill = !cached || !work.cache_ready;
    const int64_t ld = knm_stride(pr.m);
    if (pr.kernel_float32) {
        float *out = cached ? work.cache32 + begin * ld : work.kernel_block32;
        if (fill)
            kernel_block_rows_f32(pr.kernel, *pr.data, begin, end, *pr.centers, 0, pr.m, out, ld, arena, ctx.threads);
        return {nullptr, out};
    }
    double *out = cached ? work.cache + begin * ld : work.kernel_block;
    if (fill) kernel_block_rows(pr.kernel, *pr.data, begin, end, *pr.centers, 0, pr.m, out, ld, arena, ctx.threads);
    return {out, nullptr};
}

// Row r of a block as doubles: in place, or a float row widened (exactly)
// into the calling thread's row buffer just before it is used, so every
// product and sum after it is double.
const double *knm_row(const KnmRows &rows, int64_t r, int64_t m, Work &work) {
    const int64_t ld = knm_stride(m);
    if (rows.wide) return rows.wide + r * ld;
    double *wide = work.wide_rows.data() + int64_t(thread_index()) * m;
    std::copy(rows.narrow + r * ld, rows.narrow + r * ld + m, wide);
    return wide;
}

// z_i = K_i v (one row of K_nM, k outputs) by fixed-order dots, so a row's
// z does not depend on where the block boundaries fall.
void row_times(const double *row, int64_t m, int64_t k, const Work &work, double *z) {
    for (int64_t o = 0; o < k; ++o) z[o] = fixed_order_dot(row, work.v_columns + o * m, m);
}

// w = Σ_{training rows} K_iᵀ z_i with z_i = K_i v (v given) or Y_i (v null),
// over this rank's rows, one block of K_nM at a time, each row's terms
// binned into `sum` (one parallel region per block); with v, val_dir =
// K_val v on held-out rows.
void local_kernel_pass(Context &ctx, const Problem &pr, const double *v, Work &work, Arena &arena, BinnedSum &sum,
                       double scale) {
    const int64_t m = pr.m, k = pr.k;
    sum.start_scaled(m * k, pr.total_rows, scale);
    BinnedSum *const sums[] = {&sum};
    for (int64_t begin = 0; begin < pr.n; begin += pr.block) {
        const int64_t end = std::min(pr.n, begin + pr.block);
        const KnmRows kb = knm_block(ctx, pr, begin, end, work, arena);
        binned_rows(ctx.threads, begin, end, sums, 1, [&](int64_t i, BinnedSum *const *into) {
            const double *row = knm_row(kb, i - begin, m, work);
            double *z = work.z + (i - begin) * k;
            if (v)
                row_times(row, m, k, work, z);
            else
                std::copy(pr.y + i * k, pr.y + (i + 1) * k, z);
            if (pr.held_out.empty() || pr.held_out[size_t(i)] != 1) {
                into[0]->add_outer(row, m, z, k);
            } else if (v) {  // the slot: i's place among the validation rows (increasing)
                const auto slot = std::lower_bound(pr.validation.begin(), pr.validation.end(), i);
                std::copy(z, z + k, work.val_dir + (slot - pr.validation.begin()) * k);
            }
        });
        ctx.check_cancel();
    }
    work.cache_ready = true;
}

// out = op(K_b) x + beta·out for a block K_b (rows x m) and k columns x: a
// GEMM, or for one column a GEMV, which reads K_b once where the GEMM would
// first pack all of it for a single column.
void block_times(Trans trans, int64_t rows, int64_t m, int64_t k, const double *kb, const double *x, double beta,
                 double *out, int threads) {
    const int64_t ld = knm_stride(m);
    if (k == 1) return linalg::gemv(trans, rows, m, 1.0, kb, ld, x, beta, out, threads);
    if (trans == Trans::No)
        return linalg::gemm(Trans::No, Trans::No, rows, k, m, 1.0, kb, ld, x, k, beta, out, k, threads);
    linalg::gemm(Trans::Yes, Trans::No, m, k, rows, 1.0, kb, ld, x, k, beta, out, k, threads);
}

// K_val v of a block's held-out rows (z, rows of K_b v) into their slots of
// val_dir (the validation rows increasing).
void keep_validation_z(const Problem &pr, int64_t begin, int64_t end, const double *z, Work &work) {
    for (int64_t i = begin; i < end; ++i) {
        if (pr.held_out[size_t(i)] != 1) continue;
        const auto slot = std::lower_bound(pr.validation.begin(), pr.validation.end(), i);
        std::copy(z + (i - begin) * pr.k, z + (i - begin + 1) * pr.k,
                  work.val_dir + (slot - pr.validation.begin()) * pr.k);
    }
}

// The pass in one process for few outputs or float32 rows (linalg::add_normal_product):
// each block of K_nM (double or float32) read once, where it is; the bits
// depend neither on the thread count nor on the block size.
void local_thin_pass(Context &ctx, const Problem &pr, const double *v, Work &work, Arena &arena) {
    const int64_t m = pr.m, k = pr.k;
    if (v) linalg::transpose(v, m, k, work.v_columns);
    std::fill(work.w_columns, work.w_columns + m * k, 0.0);
    const uint8_t *held_out = pr.held_out.empty() ? nullptr : pr.held_out.data();
    for (int64_t begin = 0; begin < pr.n; begin += pr.block) {
        const int64_t end = std::min(pr.n, begin + pr.block);
        const KnmRows kb = knm_block(ctx, pr, begin, end, work, arena);
        if (!v) std::copy(pr.y + begin * k, pr.y + end * k, work.z);
        const double *v_t = v ? work.v_columns : nullptr;
        const uint8_t *skip = held_out ? held_out + begin : nullptr;
        if (kb.wide)
            linalg::add_normal_product(end - begin, m, knm_stride(m), k, kb.wide, v_t, work.z, skip, work.w_columns,
                                       ctx.threads);
        else
            linalg::add_normal_product(end - begin, m, knm_stride(m), k, kb.narrow, v_t, work.z, skip, work.w_columns,
                                       ctx.threads);
        if (v && held_out) keep_validation_z(pr, begin, end, work.z, work);
        ctx.check_cancel();
    }
    linalg::transpose(work.w_columns, k, m, work.w);
    work.cache_ready = true;
}

// The same for many outputs, by two GEMMs per block of K_nM (Z_b = K_b V,
// w += K_bᵀ Z_b; BLIS's packing pays there): the rows' terms are summed in
// BLIS's order, so the bits depend on the block size (fixed by n and M) and
// the thread count. Held-out rows put K_val v in val_dir and add nothing.
void local_gemm_pass(Context &ctx, const Problem &pr, const double *v, Work &work, Arena &arena) {
    const int64_t m = pr.m, k = pr.k;
    std::fill(work.w, work.w + m * k, 0.0);
    for (int64_t begin = 0; begin < pr.n; begin += pr.block) {
        const int64_t end = std::min(pr.n, begin + pr.block), rows = end - begin;
        const double *kb = knm_block(ctx, pr, begin, end, work, arena).wide;
        if (v)
            block_times(Trans::No, rows, m, k, kb, v, 0.0, work.z, ctx.threads);
        else
            std::copy(pr.y + begin * k, pr.y + end * k, work.z);
        if (!pr.held_out.empty()) {
            if (v) keep_validation_z(pr, begin, end, work.z, work);
            for (int64_t i = begin; i < end; ++i)
                if (pr.held_out[size_t(i)] == 1) std::fill(work.z + (i - begin) * k, work.z + (i - begin + 1) * k, 0.0);
        }
        block_times(Trans::Yes, rows, m, k, kb, work.z, 1.0, work.w, ctx.threads);
        ctx.check_cancel();
    }
    work.cache_ready = true;
}

// The same summed over all ranks' rows (one agreed bound and one AllReduce
// of the bins per pass; the bits do not depend on the number of ranks), or
// by local_thin_pass or local_gemm_pass (not Problem::binned).
void kernel_pass(Context &ctx, const Problem &pr, const double *v, Work &work, Arena &arena) {
    if (!pr.binned)  // float32 rows: never the GEMMs (they would need a widened copy of each block)
        return pr.kernel_float32 || linalg::normal_product_pays(pr.k) ? local_thin_pass(ctx, pr, v, work, arena)
                                                                      : local_gemm_pass(ctx, pr, v, work, arena);
    const int64_t m = pr.m, k = pr.k;
    double scale = 1;
    if (v) {
        linalg::transpose(v, m, k, work.v_columns);
        scale = 0;
        for (int64_t i = 0; i < m * k; ++i) scale = std::max(scale, std::fabs(v[i]));
    }
    BinnedSum &sum = v ? work.product_sum : work.target_sum;
    binned_pass(ctx.comm, {{&sum, work.w, scale}},
                [&] { run_agreed(ctx.comm, [&] { local_kernel_pass(ctx, pr, v, work, arena, sum, scale); }); });
}

// ap = BᵀHB p = A⁻ᵀ(T⁻ᵀ K_nMᵀ K_nM T⁻¹A⁻¹p / n + λ A⁻¹p); also val_dir = K_val T⁻¹A⁻¹p.
void apply_bhb(Context &ctx, const Problem &pr, const FalkonPreconditioner &pc, double lambda, Work &work,
               Arena &arena) {
    const int64_t qk = pc.rank * pr.k;
    std::copy(work.p, work.p + qk, work.tmp);
    apply_t_a_inverse(pc, work.tmp, pr.k, work.v, ctx.threads);  // tmp = A⁻¹p, v = T⁻¹A⁻¹p
    kernel_pass(ctx, pr, work.v, work, arena);
    apply_a_t_inverse_transpose(pc, work.w, pr.k, work.ap, ctx.threads);
    apply_a_inverse_transpose(pc, work.tmp, pr.k);
    const double inv_n = 1.0 / double(pr.train_rows);
    for (int64_t i = 0; i < qk; ++i) work.ap[i] = work.ap[i] * inv_n + lambda * work.tmp[i];
}

// RBF and Laplacian values are at most 1, so K_nMᵀY's terms are at most
// max|Y| and K_nMᵀK_nM v's at most M‖v‖∞: the binned sums' first bounds
// (one maximum), instead of a first pass that only finds them.
void seed_bounds(Context &ctx, const Problem &pr, Work &work) {
    if (!pr.kernel.stationary()) return;
    double largest = 0;
    for (int64_t i = 0; i < pr.n * pr.k; ++i) largest = std::max(largest, std::fabs(pr.y[i]));
    ctx.comm.max(&largest, 1);
    work.target_sum.seed(largest);
    work.product_sum.seed(double(pr.m));
}

// r = A⁻ᵀ T⁻ᵀ K_nMᵀ Y / n.
void right_hand_side(Context &ctx, const Problem &pr, const FalkonPreconditioner &pc, Work &work, Arena &arena) {
    kernel_pass(ctx, pr, nullptr, work, arena);
    apply_a_t_inverse_transpose(pc, work.w, pr.k, work.r, ctx.threads);
    const double inv_n = 1.0 / double(pr.train_rows);
    for (int64_t i = 0; i < pc.rank * pr.k; ++i) work.r[i] *= inv_n;
}

// ------------------------------------------------------------ CG

// One CG recurrence per output column, all sharing each BᵀHB product.
struct ColumnCg {
    double rr = 0, rr0 = 0;
    bool done = false;
    std::vector<double> step, ratio;  // Lanczos coefficients: α_i = rr/pᵀAp, β_i = rr_new/rr
};

double column_dot(const double *a, const double *b, int64_t q, int64_t k, int64_t j) {
    double s = 0;
    for (int64_t i = 0; i < q; ++i) s += a[i * k + j] * b[i * k + j];
    return s;
}

// One CG step on column j after ap = BᵀHB p; returns false if pᵀAp <= 0.
bool cg_step(ColumnCg &c, Work &work, int64_t q, int64_t k, int64_t validation, int64_t j) {
    const double pap = column_dot(work.p, work.ap, q, k, j);
    if (!(pap > 0)) return false;
    const double step = c.rr / pap;
    for (int64_t i = 0; i < q; ++i) {
        work.x[i * k + j] += step * work.p[i * k + j];
        work.r[i * k + j] -= step * work.ap[i * k + j];
    }
    for (int64_t i = 0; i < validation; ++i) work.val_out[i * k + j] += step * work.val_dir[i * k + j];
    const double rr = column_dot(work.r, work.r, q, k, j), ratio = rr / c.rr;
    for (int64_t i = 0; i < q; ++i) work.p[i * k + j] = work.r[i * k + j] + ratio * work.p[i * k + j];
    c.step.push_back(step);
    c.ratio.push_back(ratio);
    c.rr = rr;
    return true;
}

// cond of the Lanczos tridiagonal built from CG's coefficients (its extreme
// eigenvalues approach those of BᵀHB as CG proceeds).
double lanczos_condition(const ColumnCg &c, Work &work, Arena &arena) {
    const int64_t t = int64_t(c.step.size());
    if (t == 0) return 1;
    std::fill(work.tridiagonal, work.tridiagonal + t * t, 0.0);
    for (int64_t i = 0; i < t; ++i) {
        double &diagonal = work.tridiagonal[i * t + i];
        diagonal = 1 / c.step[size_t(i)] + (i > 0 ? c.ratio[size_t(i - 1)] / c.step[size_t(i - 1)] : 0);
        if (i + 1 < t) work.tridiagonal[(i + 1) * t + i] = std::sqrt(c.ratio[size_t(i)]) / c.step[size_t(i)];
    }
    linalg::eig_sym(t, work.tridiagonal, t, work.eigen, nullptr, t, arena);
    return work.eigen[0] > 0 ? work.eigen[t - 1] / work.eigen[0] : INFINITY;
}

// MSE (regression) or error rate (classification) of f on the held-out rows
// of every rank (binned: the same bits for any number of ranks).
double validation_error(const Context &ctx, const Problem &pr, const KrrTargets &targets, const Work &work) {
    const int64_t k = pr.k, count = int64_t(pr.validation.size());
    BinnedSum errors;
    double total = 0;
    binned_pass(ctx.comm, {{&errors, &total}}, [&] {
        errors.start_scaled(1, pr.validation_total * k, 1);
        for (int64_t s = 0; s < count; ++s) {
            const double *f = work.val_out + s * k, *y = pr.y + pr.validation[size_t(s)] * k;
            if (targets.task == KrrTask::classification) {
                errors.add(0, krr_label(targets, f) != krr_label(targets, y));
            } else {
                for (int64_t j = 0; j < k; ++j) errors.add(0, (f[j] - y[j]) * (f[j] - y[j]) / double(k));
            }
        }
    });
    return total / double(pr.validation_total);
}

struct EarlyStop {
    double best = INFINITY;
    int best_iteration = 0, since_best = 0;
};

// Records the validation error after `iteration`; true when patience ran out.
bool early_stop(EarlyStop &es, double error, int iteration, int patience, Work &work, int64_t size) {
    if (error < es.best) {
        es.best = error;
        es.best_iteration = iteration;
        es.since_best = 0;
        std::copy(work.x, work.x + size, work.best_x);
        return false;
    }
    return ++es.since_best >= patience;
}

void run_cg(Context &ctx, const Problem &pr, const FalkonPreconditioner &pc, const KrrTargets &targets,
            const FalkonOptions &o, Work &work, Arena &arena, FalkonStats &stats) {
    const int64_t q = pc.rank, k = pr.k, validation = int64_t(pr.validation.size());  // this rank's
    const bool early_stopping = pr.validation_total > 0;
    seed_bounds(ctx, pr, work);
    right_hand_side(ctx, pr, pc, work, arena);
    std::fill(work.x, work.x + q * k, 0.0);
    std::fill(work.val_out, work.val_out + validation * k, 0.0);
    std::copy(work.r, work.r + q * k, work.p);
    std::vector<ColumnCg> cols(static_cast<size_t>(k));
    for (int64_t j = 0; j < k; ++j) {
        ColumnCg &c = cols[size_t(j)];
        c.rr = c.rr0 = column_dot(work.r, work.r, q, k, j);
        c.done = !(c.rr0 > 0);
    }
    EarlyStop es;
    if (early_stopping) early_stop(es, validation_error(ctx, pr, targets, work), 0, o.patience, work, q * k);
    for (int it = 1; it <= o.iterations; ++it) {
        if (std::all_of(cols.begin(), cols.end(), [](const ColumnCg &c) { return c.done; })) break;
        apply_bhb(ctx, pr, pc, o.lambda, work, arena);
        double worst = 0;
        for (int64_t j = 0; j < k; ++j) {
            ColumnCg &c = cols[size_t(j)];
            if (!c.done && !cg_step(c, work, q, k, validation, j)) c.done = true;
            const double relative = c.rr0 > 0 ? std::sqrt(c.rr / c.rr0) : 0;
            if (relative <= o.tolerance) c.done = true;
            worst = std::max(worst, relative);
        }
        stats.iterations = it;
        stats.residuals.push_back(worst);
        run_agreed(ctx.comm, [&] { ctx.progress(double(it) / o.iterations, "FALKON"); });
        if (!early_stopping) continue;
        stats.validation_errors.push_back(validation_error(ctx, pr, targets, work));
        if (early_stop(es, stats.validation_errors.back(), it, o.patience, work, q * k)) break;
    }
    stats.best_iteration = stats.iterations;
    if (early_stopping) {
        std::copy(work.best_x, work.best_x + q * k, work.x);
        stats.best_iteration = es.best_iteration;
    }
    for (const ColumnCg &c : cols)
        stats.condition_estimate = std::max(stats.condition_estimate, lanczos_condition(c, work, arena));
}

}  // namespace

namespace {

// validation: the held-out rows of all ranks; this rank holds at most
// min(its rows, validation) of them.
size_t workspace_bytes(const KernelSpec &kernel, const Dataset &data, int64_t m, int64_t k, const FalkonOptions &o,
                       int64_t validation) {
    const int64_t block = block_rows_for(data.n, m);
    ScratchCarver carver;
    carver.take<double>(size_t(m * m));  // K_MM, then T
    carve_work(carver, data.n, m, k, block, std::min(data.n, validation), validation > 0, o.iterations,
               cache_in_workspace(o), o.kernel_float32);
    WorkspacePlan plan;
    plan.add_bytes(carver.bytes());
    plan.add_bytes(falkon_preconditioner_workspace_bytes(m));
    plan.add_bytes(std::max(kernel_scratch_bytes(kernel, data, block, m, o.kernel_float32),
                            linalg::eig_sym_workspace_bytes(o.iterations)));
    return plan.bytes();
}

}  // namespace

size_t falkon_workspace_bytes(const KernelSpec &kernel, const Dataset &data, int64_t m, int64_t k,
                              const FalkonOptions &o) {
    return workspace_bytes(kernel, data, m, k, o, validation_rows_for(data.n, o.validation_fraction));
}

namespace {

constexpr size_t kCacheHeadroom = size_t(1) << 20;  // left to the call's small allocations

// Bytes of one cached K_nM value.
size_t knm_value_bytes(const Problem &pr) { return pr.kernel_float32 ? sizeof(float) : sizeof(double); }

// auto_cache, once the workspace is reserved and the centers chosen: the
// bytes of K_nM (n x M doubles, or floats with kernel_float32) that fit what the budget leaves, also within
// the memory the machine can give now; at most options.kernel_cache_bytes
// when that is nonzero; `kept` (a path's set-up): at most half of what is left.
size_t auto_cache_bytes(const Context &ctx, const Problem &pr, const FalkonOptions &options, bool kept) {
    const size_t limit = std::min(ctx.memory_budget, machine_memory_budget());
    const size_t used = ctx.reserved_bytes() + kCacheHeadroom;
    const size_t left = limit > used ? limit - used : 0;
    size_t bytes = std::min(kept ? left / 2 : left, size_t(pr.n) * size_t(knm_stride(pr.m)) * knm_value_bytes(pr));
    if (options.kernel_cache_bytes > 0) bytes = std::min(bytes, options.kernel_cache_bytes);
    return bytes;
}

// auto_cache: K_nM's cache in an arena of its own, reserved from what is
// left (half of it when the set-up is kept for a path).
Arena reserve_auto_cache(Context &ctx, const Problem &pr, const FalkonOptions &options, Work &work, bool kept) {
    const size_t bytes = auto_cache_bytes(ctx, pr, options, kept);
    Arena arena = ctx.reserve(bytes, "FALKON K_nM cache");
    ScratchCarver carver(arena);
    carve_cache(carver, work, pr.n, pr.m, pr.block, bytes, pr.kernel_float32);
    return arena;
}

// -v: whether K_nM is kept across the CG passes, and why not.
void log_cache_choice(const Context &ctx, const Problem &pr, const Work &work, const FalkonOptions &options) {
    const int64_t blocks = (pr.n + pr.block - 1) / pr.block;
    const double whole_mb = double(pr.n) * double(pr.m) * double(knm_value_bytes(pr)) / 1048576.0;
    const char *precision = pr.kernel_float32 ? "float32" : "float64";
    if (work.cached_blocks >= blocks)
        ctx.log(KMX_LOG_INFO, "FALKON: K_nM cached (%s, %.0f MB, %lld x %lld)", precision, whole_mb, (long long)pr.n,
                (long long)pr.m);
    else
        ctx.log(
            KMX_LOG_INFO,
            "FALKON: K_nM (%s, %.0f MB) %s: %lld of %lld blocks of %lld rows cached, the rest recomputed every pass",
            precision, whole_mb, options.auto_cache ? "does not fit the memory budget" : "over cache_size",
            (long long)work.cached_blocks, (long long)blocks, (long long)pr.block);
}

}  // namespace

namespace {

// ε of T = chol(K_MM + εM I): with kernel_float32 at least float's epsilon,
// as the FALKON library takes its precision's. T⁻¹ multiplies K_nM's
// rounding errors, and near-duplicate centers make K_MM nearly singular:
// measured on 60 rows along a curve (λ = 1e-2, M = 20), double's ε let
// float32's 1e-7 errors move predictions by 5e-2.
double preconditioner_jitter(const FalkonOptions &o) {
    constexpr double kFloatEpsilon = 0x1p-23;
    return o.kernel_float32 ? std::max(o.jitter, kFloatEpsilon) : o.jitter;
}

// Only uniform or given centers are the same on every rank without one
// process seeing every row.
void check_distributed(const Communicator &comm, const FalkonOptions &o) {
    if (comm.distributed() && o.center_method != LandmarkMethod::uniform && o.center_method != LandmarkMethod::given)
        fail(KMX_E_UNSUPPORTED,
             "FALKON across %d ranks takes uniform (or given) centers; k-means and leverage-score centers need every "
             "row in one process",
             comm.size());
}

// Rank 0's preconditioner on every rank (all computed it from the same
// centers; this makes their bits certainly equal). T is M x M storage (M x q
// when low rank), A q x q.
void share_preconditioner(const Communicator &comm, FalkonPreconditioner &pc) {
    if (!comm.distributed()) return;
    double shape[2] = {double(pc.rank), pc.low_rank ? 1.0 : 0.0};
    comm.broadcast(shape, sizeof shape, 0);
    pc.rank = int64_t(shape[0]);
    pc.low_rank = shape[1] != 0;
    comm.broadcast(pc.t, int64_t(sizeof(double)) * pc.m * pc.m, 0);
    comm.broadcast(pc.a, int64_t(sizeof(double)) * pc.rank * pc.rank, 0);
}

}  // namespace

// The part of a fit that does not depend on λ (see FalkonPath).
struct FalkonSetup {
    Problem pr;
    Landmarks landmarks;
    std::unique_ptr<Dataset> centers;
    Arena arena, cache_arena;  // the workspace (K_MM/T, A, CG vectors); K_nM's auto cache
    FalkonPreconditioner pc;
    Work work{};
    FalkonStats stats;  // what the set-up measured (centers, workspace, cache, rank)
    FalkonOptions options;
    std::shared_ptr<const void> charge;  // arena and cache_arena, once kept across calls
};

FalkonPath::FalkonPath() = default;
FalkonPath::~FalkonPath() = default;
FalkonPath::FalkonPath(FalkonPath &&) noexcept = default;
FalkonPath &FalkonPath::operator=(FalkonPath &&) noexcept = default;
void FalkonPath::clear() { setup.reset(); }

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Whether `setup` was made for these rows, kernel and options apart from λ
// (and the CG's stopping rule, which the set-up does not use).
bool serves(const FalkonSetup &setup, const KernelSpec &kernel, const Dataset &data, int64_t outputs,
            const FalkonOptions &o) {
    const FalkonOptions &s = setup.options;
    const bool same_centers = s.centers == o.centers && s.center_method == o.center_method &&
                              s.given_centers == o.given_centers &&
                              (o.center_method != LandmarkMethod::leverage || s.lambda == o.lambda);
    return setup.pr.data == &data && setup.pr.n == data.n && setup.pr.k == outputs && same_centers &&
           same_kernel(setup.pr.kernel, kernel, data.d) && s.iterations == o.iterations &&
           s.validation_fraction == o.validation_fraction && s.jitter == o.jitter &&
           s.kernel_cache_bytes == o.kernel_cache_bytes && s.auto_cache == o.auto_cache &&
           s.kernel_float32 == o.kernel_float32 && s.reproducible_sums == o.reproducible_sums;
}

// Checks everything and reserves the workspace (every rank agreeing).
void reserve_workspace(Context &ctx, FalkonSetup &setup, const RowShards &shards, const KrrTargets &targets) {
    const Problem &pr = setup.pr;
    const FalkonOptions &options = setup.options;
    run_agreed(ctx.comm, [&] {
        if (shards.columns != pr.data->d)
            fail(KMX_E_INVALID_ARGUMENT, "FALKON: this rank's rows have %lld columns, another rank's %lld",
                 (long long)pr.data->d, (long long)shards.columns);
        check_arguments(*pr.data, shards.total_rows, targets, options);
        setup.stats.workspace_bytes =
            workspace_bytes(pr.kernel, *pr.data, options.centers, pr.k, options,
                            validation_rows_for(shards.total_rows, options.validation_fraction));
        setup.arena = ctx.reserve(setup.stats.workspace_bytes, "FALKON workspace (T, A, CG vectors, one K_nM block)");
    });
}

// The problem's data, split and centers.
void choose_problem(Context &ctx, FalkonSetup &setup, std::chrono::steady_clock::time_point start) {
    Problem &pr = setup.pr;
    setup.landmarks = choose_centers(ctx, pr.kernel, pr, setup.options);
    setup.stats.center_seconds = seconds_since(start);
    setup.centers = setup.landmarks.dataset();
    pr.centers = setup.centers.get();
    pr.m = setup.landmarks.m;
    pr.block = block_rows_for(pr.n, pr.m);
    split_validation(pr, setup.landmarks, setup.options.validation_fraction, ctx.seed);
    setup.stats.train_rows = pr.train_rows;
}

// K_MM, the preconditioner, the CG's workspace and K_nM's cache.
void prepare_solver(Context &ctx, FalkonSetup &setup, bool kept) {
    const Problem &pr = setup.pr;
    const FalkonOptions &options = setup.options;
    run_agreed(ctx.comm, [&] {
        ScratchCarver carver(setup.arena);
        double *kmm = carver.take<double>(size_t(pr.m * pr.m));
        kernel_block_rows(pr.kernel, *pr.centers, 0, pr.m, *pr.centers, 0, pr.m, kmm, pr.m, setup.arena, ctx.threads);
        setup.pc =
            falkon_preconditioner(kmm, pr.m, options.lambda, preconditioner_jitter(options), setup.arena, ctx.threads);
    });
    share_preconditioner(ctx.comm, setup.pc);
    run_agreed(ctx.comm, [&] {
        ScratchCarver work_carver(setup.arena);
        setup.work =
            carve_work(work_carver, pr.n, pr.m, pr.k, pr.block, int64_t(pr.validation.size()), pr.validation_total > 0,
                       options.iterations, cache_in_workspace(options), options.kernel_float32);
        if (options.auto_cache) setup.cache_arena = reserve_auto_cache(ctx, pr, options, setup.work, kept);
        if (pr.kernel_float32) setup.work.wide_rows.assign(size_t(std::max(ctx.threads, 1)) * size_t(pr.m), 0.0);
    });
    setup.stats.workspace_bytes += setup.cache_arena.capacity();
    setup.stats.cached_rows = std::min(pr.n, setup.work.cached_blocks * pr.block);
    setup.stats.rank = setup.pc.rank;
    log_cache_choice(ctx, pr, setup.work, options);
    if (setup.pc.low_rank)
        ctx.log(KMX_LOG_INFO, "FALKON: K_MM is singular; preconditioning on its numerical rank %lld of %lld",
                (long long)setup.pc.rank, (long long)pr.m);
}

std::unique_ptr<FalkonSetup> set_up(Context &ctx, const KernelSpec &kernel, const Dataset &data,
                                    const KrrTargets &targets, const FalkonOptions &options, bool kept,
                                    std::chrono::steady_clock::time_point start) {
    check_distributed(ctx.comm, options);
    const RowShards shards = agree_row_shards(ctx.comm, data);
    auto setup = std::make_unique<FalkonSetup>();
    setup->options = options;
    Problem &pr = setup->pr;
    pr.kernel = kernel;
    pr.kernel.gamma = kernel.gamma_for(data.d);
    pr.data = &data;
    pr.y = targets.y.data();
    pr.n = data.n;
    pr.total_rows = shards.total_rows;
    pr.first_row = shards.first_row;
    pr.k = targets.outputs;
    pr.kernel_float32 = options.kernel_float32;
    pr.binned = ctx.comm.distributed() || options.reproducible_sums;
    reserve_workspace(ctx, *setup, shards, targets);
    choose_problem(ctx, *setup, start);
    prepare_solver(ctx, *setup, kept);
    return setup;
}

// A kept set-up for the next λ: only A is refactored; the targets are this
// call's (the same values, another array).
void reuse_for_lambda(Context &ctx, FalkonSetup &setup, const KrrTargets &targets, const FalkonOptions &options) {
    run_agreed(ctx.comm, [&] {
        check_arguments(*setup.pr.data, setup.pr.total_rows, targets, options);
        refactor_for_lambda(setup.pc, options.lambda, ctx.threads);
    });
    share_preconditioner(ctx.comm, setup.pc);
    setup.pr.y = targets.y.data();
    setup.options = options;
    setup.stats.center_seconds = 0;
    ctx.log(KMX_LOG_DEBUG, "FALKON: lambda %g on the kept centers, T and K_nM cache (M = %lld)", options.lambda,
            (long long)setup.pr.m);
}

size_t centers_bytes(const Landmarks &centers) {
    return (centers.points.size() + centers.csr.values.size() + centers.csr.row_ptr.size()) * sizeof(double) +
           centers.csr.col.size() * sizeof(int32_t);
}

// α = T⁻¹A⁻¹β over the centers (copied when the set-up is kept).
CenterExpansion expansion_of(Context &ctx, FalkonSetup &setup, bool kept) {
    const Problem &pr = setup.pr;
    CenterExpansion out;
    out.kernel = pr.kernel;
    out.d = pr.data->d;
    out.outputs = pr.k;
    out.m = pr.m;
    if (kept) {
        ctx.check_budget(centers_bytes(setup.landmarks), "FALKON: the model's centers");
        out.centers = setup.landmarks.points;
        out.sparse_centers = setup.landmarks.csr;
    } else {
        out.centers = std::move(setup.landmarks.points);
        out.sparse_centers = std::move(setup.landmarks.csr);
    }
    out.beta.resize(size_t(pr.m * pr.k));
    apply_t_a_inverse(setup.pc, setup.work.x, pr.k, out.beta.data(), ctx.threads);
    return out;
}

}  // namespace

CenterExpansion falkon_fit(Context &ctx, const KernelSpec &kernel, const Dataset &data, const KrrTargets &targets,
                           const FalkonOptions &options, FalkonStats *stats_out, FalkonPath *path) {
    const auto start = std::chrono::steady_clock::now();
    std::unique_ptr<FalkonSetup> setup;
    if (path && path->setup && serves(*path->setup, kernel, data, targets.outputs, options)) {
        setup = std::move(path->setup);
        reuse_for_lambda(ctx, *setup, targets, options);
    } else {
        if (path) path->clear();
        setup = set_up(ctx, kernel, data, targets, options, path != nullptr, start);
    }
    FalkonStats stats = setup->stats;
    const int64_t reduced_before = ctx.comm.reduced_bytes();
    run_cg(ctx, setup->pr, setup->pc, targets, options, setup->work, setup->arena, stats);
    ctx.log(KMX_LOG_INFO, "FALKON: %d CG iterations, %lld bytes AllReduced", stats.iterations,
            (long long)(ctx.comm.reduced_bytes() - reduced_before));
    CenterExpansion out = expansion_of(ctx, *setup, path != nullptr);
    stats.seconds = seconds_since(start);
    stats.peak_bytes = ctx.peak_bytes();
    if (stats_out) *stats_out = std::move(stats);
    if (path) {
        if (!setup->charge)
            setup->charge =
                ctx.hold(setup->arena.capacity() + setup->cache_arena.capacity() + centers_bytes(setup->landmarks));
        path->setup = std::move(setup);
    }
    return out;
}

}  // namespace kmx
