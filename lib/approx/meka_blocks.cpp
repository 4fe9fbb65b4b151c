// meka_blocks.cpp — MEKA's link matrix L (Algorithm 1, steps 3–4): for every
// pair of clusters s < t whose centers are close enough (K(c_s, c_t) >= ε),
// fit the sampled block Ĝ = K(X_vs, X_vt) by least squares, v_s being
// (1+ρ)r_s rows sampled once per cluster and shared by all its blocks:
//
//   min_L ‖Ĝ − W_vs L W_vtᵀ‖²_F,
//   L^(s,t) = (W_vsᵀW_vs)⁻¹ W_vsᵀ Ĝ W_vt (W_vtᵀW_vt)⁻¹.
//
// W^(s) is orthonormal, so p uniform rows have E[W_vsᵀW_vs] = (p/n_s) I. A
// direction the sample holds much less energy for than that is one the
// sample cannot determine (coherent bases of local kernels), and plain least
// squares overfits it. Each side's inverse is therefore taken over the
// well-sampled directions only, σ² > τ² p/n_s (τ = link_tolerance), and
// leaves the others' link coefficients at 0; well-sampled directions are
// solved exactly (no shrinkage bias). With W_vᵀW_v = E Σ² Eᵀ, Z = W_v E:
//
//   L^(s,t) = E_a [ (Z_aᵀ Ĝ Z_b)_ij / (σ²_a,i σ²_b,j) ]_kept E_bᵀ.
//
// τ = 0 is plain least squares (directions with no energy at all, e.g. from
// repeated points, get 0: the pseudo-inverse). How much truncation a pair
// needs depends on how much of Ĝ lies outside the bases (little for smooth,
// near-low-rank kernels, where τ = 0 is best; much for local ones), so by
// default (τ < 0) each pair holds out q = p/2 more sampled rows per side and
// takes the τ of a small grid that best predicts the held-out block.
// Then L = V Λ Vᵀ and the PSD repair keeps Λ's positive part.
#include "meka_blocks.h"

#include <algorithm>
#include <cfloat>
#include <cmath>

#include "core/context.h"
#include "core/dataset.h"
#include "core/error.h"
#include "core/rng.h"
#include "linalg/linalg.h"
#include "meka.h"

namespace kmx {

namespace {

int64_t link_rows(const MekaCluster &cl, double rho) {
    const double wanted = std::ceil((1.0 + rho) * double(cl.rank));
    return std::min(cl.sampled, std::max<int64_t>(cl.rank, int64_t(std::min(wanted, 9e15))));
}

// Candidate τ when link_tolerance < 0 (auto): each pair takes the one that
// best predicts a held-out sampled block.
constexpr double kToleranceGrid[] = {0.0, 0.05, 0.1, 0.2, 0.4};
constexpr int64_t kMinValidationRows = 8;

// One side of a link block: p fit rows and q held-out rows of cluster s,
// their points ((p+q) x d), Z = W_p E (p x r) and Y = W_q E (q x r) with
// W_pᵀW_p = E Σ² Eᵀ (E r x r, Σ² r).
struct LinkSide {
    int64_t fit;
    int64_t held_out;
    int64_t rank;
    int64_t size;  // n_s
    double *points;
    double *z;
    double *y;
    double *e;
    double *sigma2;

    int64_t rows() const { return fit + held_out; }
    // σ² a kept direction needs at tolerance τ: τ² p/n_s, and above round-off.
    double cut(double tau) const {
        return std::max(tau * tau * double(fit) / double(size),
                        double(rank) * DBL_EPSILON * std::max(sigma2[rank - 1], 0.0));
    }
};

bool validating(const MekaOptions &options) { return options.link_tolerance < 0; }

// p = (1+ρ)r fit rows (of the cluster's sampled ones); with auto tolerance also q = p/2 held-out rows when
// the cluster has them (else the fit uses every row it can).
void side_rows(const MekaCluster &cl, const MekaOptions &options, int64_t &fit, int64_t &held_out) {
    fit = link_rows(cl, options.rho);
    held_out = validating(options) ? std::min(fit / 2, cl.sampled - fit) : 0;
    if (held_out < kMinValidationRows) held_out = 0;
}

size_t side_bytes(int64_t rows, int64_t rank, int64_t d) {
    return WorkspacePlan()
        .add<double>(size_t(rows * d))
        .add<double>(size_t(rows * rank))
        .add<double>(size_t(rows * rank))
        .add<double>(size_t(rank * rank))
        .add<double>(size_t(rank))
        .bytes();
}

size_t side_scratch_bytes(int64_t rows, int64_t rank) {
    return WorkspacePlan().add<double>(size_t(rows * rank)).add_bytes(linalg::eig_sym_workspace_bytes(rank)).bytes();
}

LinkSide sample_side(Context &ctx, const MekaApproximation &meka, const Dataset &data, int64_t s,
                     const MekaOptions &options, Rng &rng, Arena &scratch) {
    const MekaCluster &cl = meka.cluster_list()[size_t(s)];
    int64_t p = 0, q = 0;
    side_rows(cl, options, p, q);
    const int64_t r = cl.rank;
    LinkSide side{p,
                  q,
                  r,
                  cl.size,
                  scratch.alloc<double>(size_t((p + q) * data.d)),
                  scratch.alloc<double>(size_t(p * r)),
                  scratch.alloc<double>(size_t(std::max<int64_t>(q, 1) * r)),
                  scratch.alloc<double>(size_t(r * r)),
                  scratch.alloc<double>(size_t(r))};
    std::vector<int64_t> positions = sample_rows(rng, cl.sampled, p + q);  // never the rows held out
    for (int64_t j = p + q - 1; j > 0; --j)                                // a random split into fit and held-out rows
        std::swap(positions[size_t(j)], positions[size_t(rng.below(uint64_t(j + 1)))]);
    std::vector<int64_t> rows(positions.size());
    ArenaScope scope(scratch);
    double *w_v = scratch.alloc<double>(size_t((p + q) * r));
    for (int64_t j = 0; j < p + q; ++j) {
        rows[size_t(j)] = meka.order()[size_t(cl.begin + positions[size_t(j)])];
        std::copy_n(meka.w_block(s) + positions[size_t(j)] * r, r, w_v + j * r);
    }
    gather_rows(data, rows.data(), p + q, side.points);
    linalg::syrk(linalg::Uplo::Lower, linalg::Trans::Yes, r, p, 1.0, w_v, r, 0.0, side.e, r, ctx.threads);
    linalg::eig_sym(r, side.e, r, side.sigma2, side.e, r, scratch);  // eigenvectors are e's columns
    linalg::gemm(linalg::Trans::No, linalg::Trans::No, p, r, r, 1.0, w_v, r, side.e, r, 0.0, side.z, r, ctx.threads);
    if (q > 0)
        linalg::gemm(linalg::Trans::No, linalg::Trans::No, q, r, r, 1.0, w_v + p * r, r, side.e, r, 0.0, side.y, r,
                     ctx.threads);
    ctx.check_cancel();
    return side;
}

// out = X'_ij / (σ²_a,i σ²_b,j) on the directions kept at τ, else 0.
void divide_kept(const LinkSide &a, const LinkSide &b, const double *x, double tau, double *out) {
    const double cut_a = a.cut(tau), cut_b = b.cut(tau);
    for (int64_t i = 0; i < a.rank; ++i)
        for (int64_t j = 0; j < b.rank; ++j)
            out[i * b.rank + j] =
                a.sigma2[i] > cut_a && b.sigma2[j] > cut_b ? x[i * b.rank + j] / (a.sigma2[i] * b.sigma2[j]) : 0.0;
}

// ‖Ĝ_held-out − Y_a M Y_bᵀ‖²_F (g: the held-out block, ld ldg).
double held_out_error(Context &ctx, const LinkSide &a, const LinkSide &b, const double *m, const double *g, int64_t ldg,
                      double *ym, double *prediction) {
    linalg::gemm(linalg::Trans::No, linalg::Trans::No, a.held_out, b.rank, a.rank, 1.0, a.y, a.rank, m, b.rank, 0.0, ym,
                 b.rank, ctx.threads);
    linalg::gemm(linalg::Trans::No, linalg::Trans::Yes, a.held_out, b.held_out, b.rank, 1.0, ym, b.rank, b.y, b.rank,
                 0.0, prediction, b.held_out, ctx.threads);
    double error = 0;
    for (int64_t i = 0; i < a.held_out; ++i)
        for (int64_t j = 0; j < b.held_out; ++j) {
            const double diff = g[i * ldg + j] - prediction[i * b.held_out + j];
            error += diff * diff;
        }
    return error;
}

// The τ to use: the option's, or (auto) the grid's best on the held-out block.
double choose_tolerance(Context &ctx, const LinkSide &a, const LinkSide &b, const double *x, const double *g_hat,
                        const MekaOptions &options, double *m, Arena &scratch) {
    if (!validating(options)) return options.link_tolerance;
    if (a.held_out == 0 || b.held_out == 0) return 0.0;  // (almost) every row is in the fit
    ArenaScope scope(scratch);
    double *ym = scratch.alloc<double>(size_t(a.held_out * b.rank));
    double *prediction = scratch.alloc<double>(size_t(a.held_out * b.held_out));
    const double *held_out = g_hat + a.fit * b.rows() + b.fit;
    double best = 0, best_error = INFINITY;
    for (double tau : kToleranceGrid) {
        divide_kept(a, b, x, tau, m);
        const double error = held_out_error(ctx, a, b, m, held_out, b.rows(), ym, prediction);
        if (error < best_error) best_error = error, best = tau;
    }
    return best;
}

// L^(s,t) = E_a X'_kept E_bᵀ into link (and its transpose into L^(t,s)).
void link_block(Context &ctx, const MekaApproximation &meka, const LinkSide &a, const LinkSide &b, int64_t s, int64_t t,
                const MekaOptions &options, double *link, Arena &scratch) {
    ArenaScope scope(scratch);
    const MekaCluster &cs = meka.cluster_list()[size_t(s)], &ct = meka.cluster_list()[size_t(t)];
    const int64_t R = meka.link_size(), d = meka.d(), ra = cs.rank, rb = ct.rank;
    double *g_hat = scratch.alloc<double>(size_t(a.rows() * b.rows()));  // fit block and held-out block
    double *g_zb = scratch.alloc<double>(size_t(a.fit * rb));
    double *x = scratch.alloc<double>(size_t(ra * rb));
    double *m = scratch.alloc<double>(size_t(ra * rb));
    kernel_block(meka.kernel(), a.points, a.rows(), d, b.points, b.rows(), d, d, g_hat, b.rows(), scratch, ctx.threads);
    linalg::gemm(linalg::Trans::No, linalg::Trans::No, a.fit, rb, b.fit, 1.0, g_hat, b.rows(), b.z, rb, 0.0, g_zb, rb,
                 ctx.threads);  // Ĝ Z_b
    linalg::gemm(linalg::Trans::Yes, linalg::Trans::No, ra, rb, a.fit, 1.0, a.z, ra, g_zb, rb, 0.0, x, rb,
                 ctx.threads);  // X' = Z_aᵀ Ĝ Z_b
    const double tau = choose_tolerance(ctx, a, b, x, g_hat, options, m, scratch);
    divide_kept(a, b, x, tau, m);
    linalg::gemm(linalg::Trans::No, linalg::Trans::No, ra, rb, ra, 1.0, a.e, ra, m, rb, 0.0, x, rb, ctx.threads);
    double *block = link + cs.rank_offset * R + ct.rank_offset;
    linalg::gemm(linalg::Trans::No, linalg::Trans::Yes, ra, rb, rb, 1.0, x, rb, b.e, rb, 0.0, block, R, ctx.threads);
    for (int64_t i = 0; i < ra; ++i)
        for (int64_t j = 0; j < rb; ++j) link[(ct.rank_offset + j) * R + cs.rank_offset + i] = block[i * R + j];
}

}  // namespace

size_t link_matrix_workspace_bytes(const MekaApproximation &meka, const MekaOptions &options) {
    if (meka.clusters() == 1) return 0;  // no link block
    int64_t rows = 0, rank = 0;
    for (const MekaCluster &cl : meka.cluster_list()) {
        int64_t p = 0, q = 0;
        side_rows(cl, options, p, q);
        rows = std::max(rows, p + q);
        rank = std::max(rank, cl.rank);
    }
    const int64_t d = meka.d();
    WorkspacePlan plan;
    for (int64_t s = 0; s < meka.clusters(); ++s) plan.add_bytes(side_bytes(rows, rank, d));  // every cluster's side
    return plan
        .add<double>(size_t(rows * rows))  // Ĝ
        .add<double>(size_t(rows * rank))  // Ĝ Z_b
        .add<double>(size_t(rank * rank))  // X'
        .add<double>(size_t(rank * rank))  // M
        .add_bytes(
            std::max({kernel_block_workspace_bytes(meka.kernel(), rows, rows, d), side_scratch_bytes(rows, rank),
                      WorkspacePlan().add<double>(size_t(rows * rank)).add<double>(size_t(rows * rows)).bytes()}))
        .bytes();
}

int64_t fill_link_matrix(Context &ctx, const MekaApproximation &meka, const Dataset &data, const MekaOptions &options,
                         double *link, Arena &scratch) {
    const int64_t R = meka.link_size(), c = meka.clusters(), d = data.d;
    std::fill(link, link + R * R, 0.0);
    for (const MekaCluster &cl : meka.cluster_list())  // L^(s,s) = D_s
        for (int64_t i = 0; i < cl.rank; ++i) link[(cl.rank_offset + i) * R + cl.rank_offset + i] = cl.scale[size_t(i)];
    if (c == 1) return 0;  // one basis: L = D
    // One row sample per cluster, shared by the blocks of its row and column.
    ArenaScope scope(scratch);
    const Rng base(ctx.seed ^ 0x6D656B616C696E6Bull);
    std::vector<LinkSide> sides;
    for (int64_t s = 0; s < c; ++s) {
        Rng rng = base.split(uint64_t(s));
        sides.push_back(sample_side(ctx, meka, data, s, options, rng, scratch));
    }
    const double *centers = meka.cluster_centers().data();
    int64_t skipped = 0;
    for (int64_t s = 0; s < c; ++s)
        for (int64_t t = s + 1; t < c; ++t) {
            if (kernel_eval(meka.kernel(), centers + s * d, centers + t * d, d) < options.eps) {
                ++skipped;
                continue;
            }
            link_block(ctx, meka, sides[size_t(s)], sides[size_t(t)], s, t, options, link, scratch);
        }
    return skipped;
}

size_t factor_link_workspace_bytes(int64_t R) {
    return WorkspacePlan().add<double>(size_t(R)).add_bytes(linalg::eig_sym_workspace_bytes(R)).bytes();
}

namespace {

bool is_diagonal(int64_t R, const double *link) {
    for (int64_t i = 0; i < R; ++i)
        for (int64_t j = 0; j < R; ++j)
            if (i != j && link[i * R + j] != 0.0) return false;
    return true;
}

}  // namespace

LinkFactor factor_link_matrix(int64_t R, double *link, bool psd_repair, Arena &scratch) {
    ArenaScope scope(scratch);
    double *values = scratch.alloc<double>(size_t(R));
    if (is_diagonal(R, link)) {  // one basis: L = D is its own eigendecomposition (vectors: I, order kept)
        for (int64_t i = 0; i < R; ++i) values[i] = link[i * R + i];
        std::fill(link, link + R * R, 0.0);
        for (int64_t i = 0; i < R; ++i) link[i * R + i] = 1.0;
    } else {
        linalg::eig_sym(R, link, R, values, link, R, scratch);  // eigenvectors are link's columns
    }
    double largest = 0;
    for (int64_t j = 0; j < R; ++j) largest = std::max(largest, std::abs(values[j]));
    const double threshold = double(R) * DBL_EPSILON * largest;
    LinkFactor factor;
    std::vector<int64_t> kept;
    for (int64_t j = R - 1; j >= 0; --j) {
        if (std::abs(values[j]) <= threshold) continue;
        if (values[j] < 0 && psd_repair) {
            ++factor.clipped;
            continue;
        }
        kept.push_back(j);
    }
    factor.rank = int64_t(kept.size());
    factor.b.resize(size_t(R * factor.rank));
    bool indefinite = false;
    for (int64_t c = 0; c < factor.rank; ++c) {
        const double value = values[kept[size_t(c)]], scale = std::sqrt(std::abs(value));
        indefinite = indefinite || value < 0;
        for (int64_t i = 0; i < R; ++i) factor.b[size_t(i * factor.rank + c)] = link[i * R + kept[size_t(c)]] * scale;
    }
    if (indefinite)
        for (int64_t c = 0; c < factor.rank; ++c) factor.signs.push_back(values[kept[size_t(c)]] < 0 ? -1.0 : 1.0);
    return factor;
}

}  // namespace kmx
