// meka_choice.cpp — MEKA's automatic sizes (clusters and rank both 0).
//
// MEKA with c clusters of rank k holds about n·k + (ck)² values; c = 1 is a
// rank-k Nyström approximation (one basis, one link block). Which c is
// best at a given memory depends on G: where k-means finds block structure
// (local kernels, low-dimensional clusters) many clusters win, where G is
// globally close to low rank (smooth kernels, high-dimensional data: the
// diagonal blocks hold little of ‖G‖²_F and the link blocks, fitted from
// few sampled rows, carry the rest) one basis wins. So the choice is
// measured, not guessed, and what is measured is built once:
//
//   1. the budget is the memory of the reference sizes c₀, k₀
//      (approx_defaults.h); the candidates are (c₀, k₀) and (1, m), m the
//      largest rank whose approximation fits the same bytes;
//   2. h = min(1000, n/8) rows H drawn uniformly are held out: no candidate
//      samples its columns or link rows from them; G_HH is formed once;
//   3. one basis is judged from its U and M alone (W_H = K(X_H, U) M, no
//      feature of the other rows formed): ‖G_HH − W_H W_Hᵀ‖_F / ‖G_HH‖_F,
//      off-diagonal entries weighted (n−1)/(h−1) so that both sums
//      estimate G's;
//   4. where one basis leaves less than kNearLowRank (2%) of ‖G‖_F, G is
//      close to low rank and the clusters are not built (measured: where
//      one basis is that close, the reference clusters never won, and they
//      cost 5–25 times its build). Else the clusters are built with L
//      unfactored and judged alike. L's PSD repair can only lower the error
//      (it projects L onto the PSD cone, W orthonormal), so clusters that
//      win unrepaired win; when they lose by less than 2x, their L is
//      factored (the eigendecomposition MEKA needs anyway) and judged again;
//   5. the lower error wins and is completed: one basis forms its features
//      W = K(X, U) M, the clusters factor L. The losing candidate is
//      dropped, and its reservations go back to the call's budget.
#include <algorithm>
#include <cmath>
#include <memory>

#include "approx_defaults.h"
#include "core/context.h"
#include "core/dataset.h"
#include "core/error.h"
#include "core/rng.h"
#include "kernel/kernel.h"
#include "landmarks.h"
#include "linalg/linalg.h"
#include "meka.h"
#include "nystrom.h"

namespace kmx {

namespace {

constexpr int64_t kHeldOutRows = 1000;
constexpr int64_t kMinHeldOutRows = 16;
// The unrepaired L's error over-states the repaired one's (0.23 against 0.13
// on 16 separated 2-d clusters, 0.82 against 0.77 on digits16 at γ = 0.3):
// when clusters lose by less than this factor, L is factored and judged again.
constexpr double kRepairReach = 2.0;
// One basis this close to G (held-out relative error, from 1.5k columns) is
// not challenged by the clusters, which cost 5–25 times its build: whatever
// they would have gained, the error kept is below 2%. On the benchmark sets
// (bench/README.md, "MEKA's automatic sizes") the clusters won only where
// one basis left 2.7% or more (diamonds at γ = 10), and one basis won every
// row below that (near-low-rank rows: 0.3% and less; digits16 at γ = 0.03:
// 0.94%; digits at γ = 0.1 and spam at γ = 3: 1.7%).
constexpr double kNearLowRank = 0.02;
// One basis's columns per rank where G is close to low rank (the paper's
// per-cluster Nyström takes 2).
constexpr double kSingleColumns = 1.5;

// About what a configuration holds (bytes()): W (n x k), L's factor
// ((ck)²), per cluster 2k points of d values and a 2k x k basis.
double configuration_bytes(int64_t n, int64_t d, int64_t c, int64_t k) {
    const double ck = double(c) * double(k);
    return 8.0 * (double(n) * double(k) + ck * ck + 2 * ck * double(d) + 2 * ck * double(k));
}

// The largest rank k <= n/2 with configuration_bytes(1, k) <= bytes (at least 1).
int64_t single_basis_rank(int64_t n, int64_t d, double bytes) {
    int64_t k = 1;
    while (k + 1 <= n / 2 && configuration_bytes(n, d, 1, k + 1) <= bytes) ++k;
    return k;
}

// h, or 0 where n is too small to hold rows out.
int64_t held_out_count(int64_t n) {
    const int64_t h = std::min(kHeldOutRows, n / 8);
    return h < kMinHeldOutRows ? 0 : h;
}

std::vector<int64_t> held_out_rows(const Context &ctx, int64_t n) {
    const int64_t h = held_out_count(n);
    if (h == 0) return {};
    Rng rng(ctx.seed ^ 0x6D656B6163686F69ull);
    return sample_rows(rng, n, h);
}

MekaOptions candidate(const MekaOptions &options, int64_t c, int64_t k) {
    MekaOptions o = options;
    o.clusters = c;
    o.rank = k;
    if (o.columns != 0 && o.columns < k) o.columns = 0;  // 2k
    return o;
}

// K(X_H, X_H), h x h (its bytes stay reserved: HeldOut::release).
std::vector<double> kernel_of_rows(Context &ctx, const KernelSpec &kernel, const Dataset &data,
                                   const std::vector<int64_t> &rows) {
    const int64_t h = int64_t(rows.size()), d = data.d;
    ctx.check_budget(size_t(h * (d + h)) * sizeof(double), "MEKA: held-out rows of G");
    std::vector<double> points(size_t(h * d)), block(size_t(h * h));
    gather_rows(data, rows.data(), h, points.data());
    Arena scratch = ctx.reserve(kernel_block_workspace_bytes(kernel, h, h, d), "MEKA: held-out rows of G");
    kernel_block(kernel, points.data(), h, d, points.data(), h, d, d, block.data(), h, scratch, ctx.threads);
    ctx.release(scratch);
    ctx.release(points.size() * sizeof(double));  // the block alone stays
    return block;
}

// ‖exact − approx‖_F / ‖exact‖_F over an h x h block of G (n x n) on
// uniform rows: it holds h of G's n diagonal entries but only h(h−1) of its
// n(n−1) others, so those are weighted (n−1)/(h−1) (both sums unbiased).
double weighted_error(const std::vector<double> &exact, const std::vector<double> &approx, int64_t h, int64_t n) {
    const double off_diagonal = double(n - 1) / double(h - 1);
    double difference = 0, total = 0;
    for (int64_t i = 0; i < h; ++i)
        for (int64_t j = 0; j < h; ++j) {
            const double g = exact[size_t(i * h + j)], e = g - approx[size_t(i * h + j)];
            const double weight = i == j ? 1.0 : off_diagonal;
            difference += weight * e * e;
            total += weight * g * g;
        }
    return total > 0 ? std::sqrt(difference / total) : 0.0;
}

}  // namespace

// The held-out rows H (uniform, in drawing order) and G_HH in that order.
struct HeldOut {
    std::vector<int64_t> rows;
    std::vector<double> exact;

    HeldOut(Context &ctx, const KernelSpec &kernel, const Dataset &data)
        : rows(held_out_rows(ctx, data.n)), exact(kernel_of_rows(ctx, kernel, data, rows)) {}
    int64_t size() const { return int64_t(rows.size()); }
    void release(Context &ctx) {
        ctx.release(exact.size() * sizeof(double));
        std::vector<double>().swap(exact);
    }
};

// The reference candidate, or null when its partition has a cluster of a
// single point (which given sizes report as an error).
std::unique_ptr<MekaApproximation> MekaApproximation::clusters_candidate(Context &ctx, const Dataset &data,
                                                                         const MekaOptions &reference,
                                                                         const std::vector<int64_t> &held) const {
    try {
        return std::unique_ptr<MekaApproximation>(
            new MekaApproximation(ctx, kernel(), data, reference, held, MekaStage::unfactored));
    } catch (const Error &e) {
        if (e.status() != KMX_E_INVALID_ARGUMENT) throw;
        ctx.log(KMX_LOG_INFO, "MEKA: automatic sizes: %lld clusters refused (%s)", (long long)reference.clusters,
                e.what());
        return nullptr;
    }
}

void MekaApproximation::choose(Context &ctx, const Dataset &data, const MekaOptions &options) {
    const int64_t c0 = std::min(n_, meka_reference_clusters(n_)), k0 = meka_reference_rank(n_, c0);
    const MekaOptions reference = candidate(options, c0, k0);
    if (held_out_count(n_) == 0 || c0 == 1) {
        build(ctx, data, reference, {}, MekaStage::factored);
        return;
    }
    const double budget = configuration_bytes(n_, data.d, c0, k0);
    MekaOptions single = candidate(options, 1, single_basis_rank(n_, data.d, budget));
    HeldOut held(ctx, kernel(), data);
    const size_t before_one = ctx.reserved_bytes();
    std::unique_ptr<MekaApproximation> one = single_basis_candidate(ctx, data, single, held);
    size_t one_reserved = ctx.reserved_bytes() - before_one;
    std::vector<MekaCandidate> tried{{1, single.rank, one->single_basis_error(ctx, data, held), size_t(budget), false}};
    ctx.log(KMX_LOG_INFO, "MEKA: automatic sizes: c=1 k=%lld from %lld columns: error %.4g", (long long)single.rank,
            (long long)single.columns, tried[0].error);
    std::unique_ptr<MekaApproximation> many;
    if (tried[0].error >= kNearLowRank) {
        if (options.columns == 0) {  // not close to low rank: one basis takes the paper's 2k columns
            one.reset();
            ctx.release(ctx.reserved_bytes() - before_one);
            single.columns = 2 * single.rank;
            one = single_basis_candidate(ctx, data, single, held);
            one_reserved = ctx.reserved_bytes() - before_one;
            tried[0].error = one->single_basis_error(ctx, data, held);
        }
        const size_t after_one = ctx.reserved_bytes();
        many = clusters_candidate(ctx, data, reference, held.rows);
        if (many) tried.push_back(judge_clusters(ctx, reference, held, tried[0].error, *many));
        if (!many || tried[1].error >= tried[0].error) {
            many.reset();  // never two candidates in memory
            ctx.release(ctx.reserved_bytes() - after_one);
        }
    }
    held.release(ctx);
    if (many) {
        tried[1].chosen = true;
        one.reset();
        *this = std::move(*many);
        ctx.release(one_reserved);  // one basis's U and M, reserved before the clusters
        if (!link_.empty()) factor_links(ctx, reference);
    } else {
        tried[0].chosen = true;
        one->complete(ctx, data, single, MekaStage::factored);
        *this = std::move(*one);
        tried[0].bytes = bytes();
    }
    candidates_ = std::move(tried);
}

// One basis (U, M) of `single`'s rank from m = single.columns uniform
// columns outside H: by default 1.5k (kSingleColumns), which beats Nyström
// at equal memory (0.70–0.82 of its error where G is close to low rank) in
// 1.5–1.8x its time, where the paper's 2k take 2–2.7x its time.
std::unique_ptr<MekaApproximation> MekaApproximation::single_basis_candidate(Context &ctx, const Dataset &data,
                                                                             MekaOptions &single,
                                                                             const HeldOut &held) const {
    if (single.columns == 0)
        single.columns = std::max(single.rank, int64_t(std::ceil(kSingleColumns * double(single.rank))));
    return std::unique_ptr<MekaApproximation>(
        new MekaApproximation(ctx, kernel(), data, single, held.rows, MekaStage::bases));
}

// The reference candidate's held-out error; when it loses unrepaired by
// less than kRepairReach, its L is factored (PSD repair) and judged again.
MekaCandidate MekaApproximation::judge_clusters(Context &ctx, const MekaOptions &reference, const HeldOut &held,
                                                double single_error, MekaApproximation &many) {
    MekaCandidate c{reference.clusters, reference.rank, many.held_out_error(ctx, held), many.bytes(), false};
    if (reference.psd_repair && c.error >= single_error && c.error < kRepairReach * single_error) {
        ctx.log(KMX_LOG_INFO, "MEKA: automatic sizes: c=%lld unrepaired error %.4g: repaired and judged again",
                (long long)c.clusters, c.error);
        many.factor_links(ctx, reference);
        c.error = many.held_out_error(ctx, held);
        c.bytes = many.bytes();
    }
    ctx.log(KMX_LOG_INFO, "MEKA: automatic sizes: c=1 error %.4g; c=%lld k=%lld error %.4g (%lld held-out rows)",
            single_error, (long long)c.clusters, (long long)c.rank, c.error, (long long)held.size());
    return c;
}

// One basis from its U and M alone: W_H = K(X_H, U) M, G̃_HH = W_H W_Hᵀ.
double MekaApproximation::single_basis_error(Context &ctx, const Dataset &data, const HeldOut &held) const {
    const MekaCluster &cl = clusters_.front();
    const int64_t h = held.size(), m = int64_t(cl.columns.size()), r = cl.rank;
    const size_t start = ctx.reserved_bytes();
    ctx.check_budget(size_t(h * (h + r)) * sizeof(double), "MEKA: held-out error");
    std::vector<double> w_h(size_t(h * r)), approx(size_t(h * h));
    Arena scratch = ctx.reserve(kernel_times_basis_workspace_bytes(kernel(), m, data.d), "MEKA: held-out error");
    kernel_times_basis(ctx, kernel(), data, held.rows.data(), 0, h, cl.points.data(), m, cl.basis.data(), r, w_h.data(),
                       scratch);
    linalg::syrk(linalg::Uplo::Lower, linalg::Trans::No, h, r, 1.0, w_h.data(), r, 0.0, approx.data(), h, ctx.threads);
    linalg::symmetrize(linalg::Uplo::Lower, h, approx.data(), h);
    ctx.release(ctx.reserved_bytes() - start);
    return weighted_error(held.exact, approx, h, n_);
}

// ‖G_HH − G̃_HH‖_F / ‖G_HH‖_F, the diagonal reweighted (weighted_error);
// G̃_HH is formed with H's rows grouped by cluster, G_HH permuted alike.
double MekaApproximation::held_out_error(Context &ctx, const HeldOut &held) const {
    const size_t start = ctx.reserved_bytes();  // its blocks are gone on return: so are their reservations
    const int64_t h = held.size();
    std::vector<int64_t> order(static_cast<size_t>(h));  // positions in H, grouped by cluster
    for (int64_t i = 0; i < h; ++i) order[size_t(i)] = i;
    const auto cluster = [&](int64_t i) { return cluster_of_[size_t(held.rows[size_t(i)])]; };
    std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return cluster(a) < cluster(b); });
    std::vector<int64_t> grouped(static_cast<size_t>(h));
    for (int64_t i = 0; i < h; ++i) grouped[size_t(i)] = held.rows[size_t(order[size_t(i)])];
    ctx.check_budget(size_t(h * h) * sizeof(double), "MEKA: held-out error");
    std::vector<double> exact(static_cast<size_t>(h * h));
    for (int64_t i = 0; i < h; ++i)
        for (int64_t j = 0; j < h; ++j)
            exact[size_t(i * h + j)] = held.exact[size_t(order[size_t(i)] * h + order[size_t(j)])];
    const double error = weighted_error(exact, held_out_block(ctx, grouped), h, n_);
    ctx.release(ctx.reserved_bytes() - start);
    return error;
}

// G̃_HH = W_H L W_Hᵀ for H's rows grouped by cluster, so that W_H's blocks
// are dense: P_s = W_Hs L[s rows, :] (h x R in all), then G̃_HH = P W_Hᵀ.
std::vector<double> MekaApproximation::held_out_block(Context &ctx, const std::vector<int64_t> &grouped) const {
    const int64_t h = int64_t(grouped.size()), R = link_size_;
    ctx.check_budget(size_t(h * (h + 2 * R)) * sizeof(double), "MEKA: held-out error");
    std::vector<double> approx(size_t(h * h)), p(size_t(h * R)), w_h(size_t(h * R));
    const std::vector<double> formed = link_.empty() ? link_matrix() : std::vector<double>();
    const double *link = link_.empty() ? formed.data() : link_.data();
    std::vector<int64_t> first(clusters_.size() + 1, 0);  // H's rows of cluster s: [first[s], first[s+1])
    for (int64_t i : grouped) ++first[size_t(cluster_of_[size_t(i)]) + 1];
    for (size_t s = 0; s < clusters_.size(); ++s) first[s + 1] += first[s];
    for (size_t s = 0; s < clusters_.size(); ++s) {
        const MekaCluster &cl = clusters_[s];
        double *ws = w_h.data() + first[s] * R;  // W_Hs, count x r_s
        for (int64_t j = first[s]; j < first[s + 1]; ++j)
            std::copy_n(w_.data() + cl.w_offset + (slot_[size_t(grouped[size_t(j)])] - cl.begin) * cl.rank, cl.rank,
                        ws + (j - first[s]) * cl.rank);
        linalg::gemm(linalg::Trans::No, linalg::Trans::No, first[s + 1] - first[s], R, cl.rank, 1.0, ws, cl.rank,
                     link + cl.rank_offset * R, R, 0.0, p.data() + first[s] * R, R, ctx.threads);
    }
    for (size_t t = 0; t < clusters_.size(); ++t)
        linalg::gemm(linalg::Trans::No, linalg::Trans::Yes, h, first[t + 1] - first[t], clusters_[t].rank, 1.0,
                     p.data() + clusters_[t].rank_offset, R, w_h.data() + first[t] * R, clusters_[t].rank, 0.0,
                     approx.data() + first[t], h, ctx.threads);
    return approx;
}

}  // namespace kmx
