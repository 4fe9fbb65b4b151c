// meka.cpp — MEKA (Si, Hsieh, Dhillon 2014, Algorithm 1): the k-means
// partition, the per-cluster Nyström bases W^(s) (diagonal blocks), and the
// products with G̃ = W L Wᵀ = (W B) J (W B)ᵀ. The link blocks L^(s,t) and
// L's PSD repair are in meka_blocks.cpp.
#include "meka.h"

#include <algorithm>
#include <cfloat>
#include <cmath>

#include "approx_defaults.h"
#include "cluster/kmeans.h"
#include "core/context.h"
#include "core/dataset.h"
#include "core/error.h"
#include "core/rng.h"
#include "linalg/linalg.h"
#include "meka_blocks.h"
#include "nystrom.h"

namespace kmx {

namespace {

constexpr int64_t kRouteBlockRows = 1024;

void check_options(const Dataset &data, const MekaOptions &o) {
    require(data.n > 0 && data.d > 0, "MEKA: the dataset is empty");
    if (o.clusters < 0 || o.clusters > data.n)
        fail(KMX_E_INVALID_ARGUMENT, "MEKA: clusters c=%lld must be in [1, n=%lld] (0: automatic)",
             (long long)o.clusters, (long long)data.n);
    if (o.rank < 0)
        fail(KMX_E_INVALID_ARGUMENT, "MEKA: rank k=%lld must be at least 1 (0: automatic)", (long long)o.rank);
    if (o.columns != 0 && o.columns < o.rank)
        fail(KMX_E_INVALID_ARGUMENT, "MEKA: columns per cluster (%lld) must be at least the rank k=%lld",
             (long long)o.columns, (long long)o.rank);
    if (!(o.eps >= 0) || !std::isfinite(o.eps)) fail(KMX_E_INVALID_ARGUMENT, "MEKA: eps=%g must be >= 0", o.eps);
    if (!(o.rho >= 0) || !std::isfinite(o.rho)) fail(KMX_E_INVALID_ARGUMENT, "MEKA: rho=%g must be >= 0", o.rho);
    if (!std::isfinite(o.link_tolerance))
        fail(KMX_E_INVALID_ARGUMENT, "MEKA: link_tolerance=%g must be finite (< 0: automatic)", o.link_tolerance);
    require(o.kmeans_sample >= std::max<int64_t>(o.clusters, 1),
            "MEKA: kmeans_sample must be at least the number of clusters");
    require(o.kmeans_iterations >= 1, "MEKA: kmeans_iterations must be at least 1");
    check_finite_dataset(data, "MEKA: x");
}

// c or k when only the other was given: approx_defaults.h's reference sizes.
MekaOptions resolved_sizes(const MekaOptions &o, int64_t n) {
    MekaOptions r = o;
    if (r.clusters == 0) r.clusters = std::min(n, meka_reference_clusters(n));
    if (r.rank == 0) r.rank = meka_reference_rank(n, r.clusters);
    return r;
}

void route_to_clusters(const Dataset &data, const double *centers, int64_t clusters, int32_t *out) {
    std::vector<double> block(static_cast<size_t>(std::min(kRouteBlockRows, data.n) * data.d));
    for (int64_t begin = 0; begin < data.n; begin += kRouteBlockRows) {
        const int64_t end = std::min(data.n, begin + kRouteBlockRows);
        data.copy_rows(begin, end, block.data());
        for (int64_t i = begin; i < end; ++i)
            out[i] = int32_t(nearest_cluster(block.data() + (i - begin) * data.d, centers, clusters, data.d));
    }
}

// k-means centers (c x d) from at most options.kmeans_sample rows.
std::vector<double> kmeans_centers(Context &ctx, const Dataset &data, const MekaOptions &options) {
    const int64_t size = std::min(data.n, options.kmeans_sample), d = data.d, c = options.clusters;
    Rng rng(ctx.seed ^ 0x6D656B616B6Dull);
    const std::vector<int64_t> rows = sample_rows(rng, data.n, size);
    ctx.check_budget(size_t(size * d + c * d) * sizeof(double) + size_t(size) * sizeof(int32_t),
                     "MEKA: k-means sample");
    std::vector<double> points(static_cast<size_t>(size * d)), centers(static_cast<size_t>(c * d));
    std::vector<int32_t> assignment(static_cast<size_t>(size));
    gather_rows(data, rows.data(), size, points.data());
    const std::unique_ptr<Dataset> sample = Dataset::dense_borrow(points.data(), size, d, nullptr);
    Arena scratch = ctx.reserve(kmeans_workspace_bytes(*sample, c, ctx.threads), "MEKA: k-means");
    KMeansOptions kmeans_options;
    kmeans_options.k = c;
    kmeans_options.max_iter = options.kmeans_iterations;
    kmeans(ctx, scratch, *sample, kmeans_options, centers.data(), assignment.data());
    return centers;
}

// The one center of c = 1: the rows' mean (what k-means would find), 1 x d.
std::vector<double> mean_row(Context &ctx, const Dataset &data) {
    const int64_t d = data.d, step = std::min(kRouteBlockRows, data.n);
    ctx.check_budget(size_t((step + 1) * d) * sizeof(double), "MEKA: the mean row");
    std::vector<double> mean(size_t(d), 0.0), block(size_t(step * d));
    for (int64_t begin = 0; begin < data.n; begin += step) {
        const int64_t end = std::min(data.n, begin + step);
        data.copy_rows(begin, end, block.data());
        for (int64_t i = 0; i < end - begin; ++i)
            for (int64_t j = 0; j < d; ++j) mean[size_t(j)] += block[size_t(i * d + j)];
    }
    for (double &v : mean) v /= double(data.n);
    ctx.release(size_t(step * d) * sizeof(double));
    return mean;
}

// k_s: k, or proportional to n_s (Σ k_s ≈ c·k), never more than the rows
// the cluster's samples may use. k > n_s is refused, except for a
// candidate of the automatic choice (`clamp`), which takes those rows.
int64_t cluster_rank(const MekaOptions &o, const MekaCluster &cl, int64_t n, int64_t clusters, int64_t s, bool clamp) {
    if (!o.proportional_rank) {
        if (o.rank > cl.size && !clamp)
            fail(KMX_E_INVALID_ARGUMENT,
                 "MEKA: rank k=%lld is larger than cluster %lld's %lld points (use fewer clusters, a smaller "
                 "rank or proportional ranks)",
                 (long long)o.rank, (long long)s, (long long)cl.size);
        return std::min(o.rank, cl.sampled);
    }
    const double share = double(o.rank) * double(clusters) * double(cl.size) / double(n);
    return std::clamp<int64_t>(int64_t(std::llround(share)), 1, cl.sampled);
}

size_t orthonormalizing_workspace_bytes(int64_t r) {
    return WorkspacePlan()
        .add<double>(size_t(r * r))
        .add<double>(size_t(r))
        .add_bytes(linalg::eig_sym_workspace_bytes(r))
        .bytes();
}

// R (r x kept) with (W R)ᵀ(W R) = I for W (rows x r): WᵀW = U D Uᵀ,
// R = U_kept D_kept^{-1/2} over eigenvalues > r·eps·max, largest first;
// `scale` gets D_kept.
std::vector<double> orthonormalizing_rotation(Context &ctx, const double *w, int64_t rows, int64_t r, Arena &scratch,
                                              std::vector<double> &scale, int64_t &kept) {
    ArenaScope scope(scratch);
    double *gram = scratch.alloc<double>(size_t(r * r));
    double *values = scratch.alloc<double>(size_t(r));
    linalg::syrk(linalg::Uplo::Lower, linalg::Trans::Yes, r, rows, 1.0, w, r, 0.0, gram, r, ctx.threads);
    linalg::eig_sym(r, gram, r, values, gram, r, scratch);  // ascending; eigenvectors are gram's columns
    const double threshold = double(r) * DBL_EPSILON * std::max(values[r - 1], 0.0);
    scale.clear();
    for (int64_t j = r - 1; j >= 0 && values[j] > threshold; --j) scale.push_back(values[j]);
    kept = int64_t(scale.size());
    if (kept == 0) fail(KMX_E_NUMERICAL, "MEKA: a cluster basis W^(s) is zero");
    std::vector<double> rotation(size_t(r * kept));
    for (int64_t c = 0; c < kept; ++c) {
        const int64_t j = r - 1 - c;
        for (int64_t i = 0; i < r; ++i) rotation[size_t(i * kept + c)] = gram[i * r + j] / std::sqrt(values[j]);
    }
    return rotation;
}

}  // namespace

// ------------------------------------------------------------------ build

MekaApproximation::MekaApproximation(Context &ctx, const KernelSpec &kernel, const Dataset &data,
                                     const MekaOptions &options)
    : KernelApproximation(resolved_kernel(kernel, data.d), data.d), n_(data.n) {
    check_options(data, options);
    if (options.clusters == 0 && options.rank == 0)
        choose(ctx, data, options);
    else
        build(ctx, data, resolved_sizes(options, n_), {}, MekaStage::factored);
}

MekaApproximation::MekaApproximation(Context &ctx, const KernelSpec &kernel, const Dataset &data,
                                     const MekaOptions &options, const std::vector<int64_t> &held_out, MekaStage stage)
    : KernelApproximation(resolved_kernel(kernel, data.d), data.d), n_(data.n), candidate_(true) {
    build(ctx, data, options, held_out, stage);
}

void MekaApproximation::build(Context &ctx, const Dataset &data, const MekaOptions &options,
                              const std::vector<int64_t> &held_out, MekaStage stage) {
    partition(ctx, data, options, held_out);
    ctx.progress(0.2, "MEKA: k-means partition");
    cluster_bases(ctx, data, options);
    if (stage != MekaStage::bases) complete(ctx, data, options, stage);
}

// From the bases (U_s, M_s) on: W, L and, at MekaStage::factored, B.
void MekaApproximation::complete(Context &ctx, const Dataset &data, const MekaOptions &options, MekaStage stage) {
    cluster_features(ctx, data);
    ctx.progress(0.6, "MEKA: diagonal blocks");
    fill_links(ctx, data, options);
    ctx.progress(0.9, "MEKA: link blocks");
    if (stage == MekaStage::factored) factor_links(ctx, options);
}

// link_ = L (R x R): diag(D_s) and the fitted link blocks.
void MekaApproximation::fill_links(Context &ctx, const Dataset &data, const MekaOptions &options) {
    link_size_ = clusters_.back().rank_offset + clusters_.back().rank;
    const int64_t R = link_size_;
    ctx.check_budget(size_t(R * R) * sizeof(double), "MEKA: the link matrix factor");
    link_.assign(size_t(R * R), 0.0);
    Arena scratch = ctx.reserve(link_matrix_workspace_bytes(*this, options), "MEKA: link blocks");
    skipped_blocks_ = fill_link_matrix(ctx, *this, data, options, link_.data(), scratch);
    ctx.release(scratch);
}

// L = B J Bᵀ (the PSD repair as asked); link_ is released.
void MekaApproximation::factor_links(Context &ctx, const MekaOptions &options) {
    const int64_t R = link_size_;
    Arena scratch = ctx.reserve(factor_link_workspace_bytes(R), "MEKA: link matrix");
    LinkFactor factor = factor_link_matrix(R, link_.data(), options.psd_repair, scratch);
    ctx.release(scratch);
    std::vector<double>().swap(link_);
    link_factor_ = std::move(factor.b);
    signs_ = std::move(factor.signs);
    factor_rank_ = factor.rank;
    clipped_ = factor.clipped;
    if (factor_rank_ == 0) fail(KMX_E_NUMERICAL, "MEKA: the link matrix L has no eigenvalue above round-off");
    ctx.log(KMX_LOG_INFO, "MEKA: c=%lld R=%lld r=%lld skipped blocks=%lld clipped eigenvalues=%lld",
            (long long)clusters(), (long long)R, (long long)factor_rank_, (long long)skipped_blocks_,
            (long long)clipped_);
    ctx.progress(1.0, "MEKA: link matrix");
}

// Clusters (empty ones dropped), rows grouped by cluster (order_, slot_),
// the held-out rows last in each cluster (outside its first `sampled`).
void MekaApproximation::partition(Context &ctx, const Dataset &data, const MekaOptions &options,
                                  const std::vector<int64_t> &held_out) {
    std::vector<double> centers = options.clusters == 1 ? mean_row(ctx, data) : kmeans_centers(ctx, data, options);
    ctx.check_budget(size_t(n_) * (sizeof(int32_t) + 2 * sizeof(int64_t) + 1), "MEKA: partition");
    cluster_of_.resize(size_t(n_));
    route_to_clusters(data, centers.data(), options.clusters, cluster_of_.data());
    std::vector<char> held(size_t(n_), 0);
    for (int64_t i : held_out) held[size_t(i)] = 1;

    std::vector<int64_t> members(static_cast<size_t>(options.clusters), 0),
        kept_out(static_cast<size_t>(options.clusters), 0), renumber(static_cast<size_t>(options.clusters), -1);
    for (int64_t i = 0; i < n_; ++i) {
        ++members[size_t(cluster_of_[size_t(i)])];
        kept_out[size_t(cluster_of_[size_t(i)])] += held[size_t(i)];
    }
    for (int64_t s = 0; s < options.clusters; ++s) {
        if (members[size_t(s)] == 0) continue;
        if (members[size_t(s)] == 1)
            fail(KMX_E_INVALID_ARGUMENT, "MEKA: cluster %lld has a single point; use fewer clusters", (long long)s);
        renumber[size_t(s)] = int64_t(clusters_.size());
        centers_.insert(centers_.end(), centers.begin() + s * data.d, centers.begin() + (s + 1) * data.d);
        MekaCluster cluster;
        cluster.size = members[size_t(s)];
        // A cluster (almost) all held out still samples from some rows.
        cluster.sampled = std::max(cluster.size - kept_out[size_t(s)], std::min<int64_t>(cluster.size, 2));
        cluster.begin = clusters_.empty() ? 0 : clusters_.back().begin + clusters_.back().size;
        clusters_.push_back(std::move(cluster));
    }
    for (int32_t &a : cluster_of_) a = int32_t(renumber[size_t(a)]);
    group_rows(held);
}

// order_ and slot_: each cluster's rows in data order, its held-out rows last.
void MekaApproximation::group_rows(const std::vector<char> &held) {
    order_.resize(size_t(n_));
    slot_.resize(size_t(n_));
    std::vector<int64_t> next(clusters_.size());
    for (size_t s = 0; s < clusters_.size(); ++s) next[s] = clusters_[s].begin;
    for (char pass = 0; pass < 2; ++pass)  // kept rows, then held-out rows after them
        for (int64_t i = 0; i < n_; ++i) {
            if (held[size_t(i)] != pass) continue;
            const int64_t position = next[size_t(cluster_of_[size_t(i)])]++;
            order_[size_t(position)] = i;
            slot_[size_t(i)] = position;
        }
}

// Per cluster: U_s (m_s sampled rows) and M̃_s = V_k Λ_k^{-1/2} of K(U_s, U_s).
void MekaApproximation::cluster_bases(Context &ctx, const Dataset &data, const MekaOptions &options) {
    const int64_t c = clusters(), d = data.d;
    size_t held = 0;
    int64_t largest_m = 1;
    for (int64_t s = 0; s < c; ++s) {
        MekaCluster &cl = clusters_[size_t(s)];
        cl.rank = cluster_rank(options, cl, n_, c, s, candidate_);  // k_s until the basis is formed
        const int64_t m = std::min(options.columns > 0 ? options.columns : 2 * cl.rank, cl.sampled);
        cl.columns.resize(size_t(m));
        largest_m = std::max(largest_m, m);
        held += size_t(m * (cl.rank + d) + cl.rank) * sizeof(double);
    }
    ctx.check_budget(held, "MEKA: the cluster bases M_s");
    Arena scratch =
        ctx.reserve(WorkspacePlan()
                        .add<double>(size_t(largest_m * largest_m))
                        .add_bytes(std::max(inverse_sqrt_basis_workspace_bytes(largest_m),
                                            kernel_block_workspace_bytes(kernel(), largest_m, largest_m, d)))
                        .bytes(),
                    "MEKA: per-cluster Nystrom");
    const Rng base(ctx.seed ^ 0x6D656B61646961ull);
    for (int64_t s = 0; s < c; ++s) {
        Rng rng = base.split(uint64_t(s));
        cluster_nystrom_basis(ctx, data, rng, clusters_[size_t(s)], scratch);
    }
    ctx.release(scratch);
}

// W^(s) = K(X_s, U_s) M_s for every cluster: orthonormal (L^(s,s) = D_s)
// when there are link blocks; for one basis W = K(X, U) M̃ and L = I, the
// Nyström form (the same G̃ without the rotation's cost).
void MekaApproximation::cluster_features(Context &ctx, const Dataset &data) {
    const int64_t c = clusters(), d = data.d;
    size_t w_bound = 0;
    int64_t largest_m = 1, largest_k = 1;
    for (const MekaCluster &cl : clusters_) {
        largest_m = std::max(largest_m, int64_t(cl.columns.size()));
        largest_k = std::max(largest_k, cl.rank);
        w_bound += size_t(cl.size * cl.rank);
    }
    ctx.check_budget(w_bound * sizeof(double), "MEKA: the cluster bases W^(s)");
    Arena scratch = ctx.reserve(WorkspacePlan()
                                    .add<double>(size_t(c == 1 ? 0 : largest_cluster() * largest_k))
                                    .add_bytes(std::max(kernel_times_basis_workspace_bytes(kernel(), largest_m, d),
                                                        orthonormalizing_workspace_bytes(largest_k)))
                                    .bytes(),
                                "MEKA: per-cluster Nystrom features");
    w_.reserve(w_bound);
    int64_t rank_offset = 0;
    for (MekaCluster &cl : clusters_) {
        if (c == 1)
            single_features(ctx, data, cl, scratch);
        else
            cluster_orthonormal_basis(ctx, data, cl, scratch);
        cl.rank_offset = rank_offset;
        rank_offset += cl.rank;
    }
    ctx.release(scratch);
    if (w_.size() < w_.capacity()) w_.shrink_to_fit();  // a cluster's numerical rank fell short of k_s
}

// U_s and M̃_s = V_k Λ_k^{-1/2} (m_s x r) of K(U_s, U_s), r <= k_s (cl.rank on entry).
void MekaApproximation::cluster_nystrom_basis(Context &ctx, const Dataset &data, Rng &rng, MekaCluster &cl,
                                              Arena &scratch) const {
    const int64_t m = int64_t(cl.columns.size()), d = data.d;
    cl.columns = sample_rows(rng, cl.sampled, m);  // positions in the cluster, then data rows
    for (int64_t &position : cl.columns) position = order_[size_t(cl.begin + position)];
    std::sort(cl.columns.begin(), cl.columns.end());
    cl.points.resize(size_t(m * d));
    gather_rows(data, cl.columns.data(), m, cl.points.data());
    ArenaScope scope(scratch);
    double *block = scratch.alloc<double>(size_t(m * m));
    kernel_block(kernel(), cl.points.data(), m, d, cl.points.data(), m, d, d, block, m, scratch, ctx.threads);
    int64_t r = 0;
    cl.basis = inverse_sqrt_basis(m, block, cl.rank, scratch, r);
    if (r == 0) fail(KMX_E_NUMERICAL, "MEKA: a cluster's K(U_s, U_s) has no positive eigenvalue");
    cl.rank = r;
}

// One basis: W = K(X, U) M̃ (n x r), L = I (scale 1), so W L Wᵀ is the
// rank-r Nyström approximation C V_k Λ_k⁻¹ V_kᵀ Cᵀ.
void MekaApproximation::single_features(Context &ctx, const Dataset &data, MekaCluster &cl, Arena &scratch) {
    cl.w_offset = int64_t(w_.size());
    w_.resize(w_.size() + size_t(cl.size * cl.rank));
    kernel_times_basis(ctx, kernel(), data, order_.data() + cl.begin, 0, cl.size, cl.points.data(),
                       int64_t(cl.columns.size()), cl.basis.data(), cl.rank, w_.data() + cl.w_offset, scratch);
    cl.scale.assign(size_t(cl.rank), 1.0);
}

// W̃ = K(X_s, U_s) M̃_s, W̃ᵀW̃ = U D Uᵀ, R = U_kept D_kept^{-1/2}:
// W^(s) = W̃ R (orthonormal), M_s = M̃_s R, L^(s,s) = D (W̃W̃ᵀ = W D Wᵀ).
void MekaApproximation::cluster_orthonormal_basis(Context &ctx, const Dataset &data, MekaCluster &cl, Arena &scratch) {
    const int64_t m = int64_t(cl.columns.size()), r = cl.rank;
    ArenaScope scope(scratch);
    double *w_tilde = scratch.alloc<double>(size_t(cl.size * r));
    kernel_times_basis(ctx, kernel(), data, order_.data() + cl.begin, 0, cl.size, cl.points.data(), m, cl.basis.data(),
                       r, w_tilde, scratch);
    int64_t kept = 0;
    const std::vector<double> rotation = orthonormalizing_rotation(ctx, w_tilde, cl.size, r, scratch, cl.scale, kept);
    std::vector<double> rotated(size_t(m * kept));
    linalg::gemm(linalg::Trans::No, linalg::Trans::No, m, kept, r, 1.0, cl.basis.data(), r, rotation.data(), kept, 0.0,
                 rotated.data(), kept, ctx.threads);
    cl.basis = std::move(rotated);
    cl.rank = kept;
    cl.w_offset = int64_t(w_.size());
    w_.resize(w_.size() + size_t(cl.size * kept));
    linalg::gemm(linalg::Trans::No, linalg::Trans::No, cl.size, kept, r, 1.0, w_tilde, r, rotation.data(), kept, 0.0,
                 w_.data() + cl.w_offset, kept, ctx.threads);
}

int64_t MekaApproximation::largest_cluster() const {
    int64_t largest = 0;
    for (const MekaCluster &cl : clusters_) largest = std::max(largest, cl.size);
    return largest;
}

int64_t MekaApproximation::largest_rank() const {
    int64_t largest = 0;
    for (const MekaCluster &cl : clusters_) largest = std::max(largest, cl.rank);
    return largest;
}

size_t MekaApproximation::bytes() const {
    size_t total =
        (centers_.size() + w_.capacity() + link_factor_.size() + signs_.size() + link_.size()) * sizeof(double) +
        cluster_of_.size() * sizeof(int32_t) + (order_.size() + slot_.size()) * sizeof(int64_t) +
        clusters_.size() * sizeof(MekaCluster);
    for (const MekaCluster &cl : clusters_)
        total += cl.columns.size() * sizeof(int64_t) +
                 (cl.points.size() + cl.basis.size() + cl.scale.size()) * sizeof(double);
    return total;
}

std::vector<double> MekaApproximation::link_matrix() const {
    const int64_t R = link_size_, r = factor_rank_;
    std::vector<double> scaled(link_factor_), link(size_t(R * R));
    if (!signs_.empty())
        for (int64_t i = 0; i < R; ++i)
            for (int64_t j = 0; j < r; ++j) scaled[size_t(i * r + j)] *= signs_[size_t(j)];
    linalg::gemm(linalg::Trans::No, linalg::Trans::Yes, R, R, r, 1.0, scaled.data(), r, link_factor_.data(), r, 0.0,
                 link.data(), R, 1);
    return link;
}

// ------------------------------------------------------------------ products

size_t MekaApproximation::product_workspace_bytes(int64_t columns) const {
    return WorkspacePlan()
        .add<double>(size_t(link_size_ * columns))
        .add<double>(size_t(largest_cluster() * columns))
        .bytes();
}

// out = Bᵀ (Wᵀ v): z_s = W^(s)ᵀ v_s per cluster, then Bᵀ z.
void MekaApproximation::apply_ft(Context &ctx, Arena &scratch, const double *v, double *out, int64_t columns) const {
    ArenaScope scope(scratch);
    double *z = scratch.alloc<double>(size_t(link_size_ * columns));
    double *rows = scratch.alloc<double>(size_t(largest_cluster() * columns));
    for (const MekaCluster &cl : clusters_) {
        for (int64_t p = 0; p < cl.size; ++p)
            std::copy_n(v + order_[size_t(cl.begin + p)] * columns, columns, rows + p * columns);
        linalg::gemm(linalg::Trans::Yes, linalg::Trans::No, cl.rank, columns, cl.size, 1.0, w_.data() + cl.w_offset,
                     cl.rank, rows, columns, 0.0, z + cl.rank_offset * columns, columns, ctx.threads);
    }
    linalg::gemm(linalg::Trans::Yes, linalg::Trans::No, factor_rank_, columns, link_size_, 1.0, link_factor_.data(),
                 factor_rank_, z, columns, 0.0, out, columns, ctx.threads);
}

// out = W (B u): y = B u, then out_s = W^(s) y_s per cluster.
void MekaApproximation::apply_f(Context &ctx, Arena &scratch, const double *u, double *out, int64_t columns) const {
    ArenaScope scope(scratch);
    double *y = scratch.alloc<double>(size_t(link_size_ * columns));
    double *rows = scratch.alloc<double>(size_t(largest_cluster() * columns));
    linalg::gemm(linalg::Trans::No, linalg::Trans::No, link_size_, columns, factor_rank_, 1.0, link_factor_.data(),
                 factor_rank_, u, columns, 0.0, y, columns, ctx.threads);
    for (const MekaCluster &cl : clusters_) {
        linalg::gemm(linalg::Trans::No, linalg::Trans::No, cl.size, columns, cl.rank, 1.0, w_.data() + cl.w_offset,
                     cl.rank, y + cl.rank_offset * columns, columns, 0.0, rows, columns, ctx.threads);
        for (int64_t p = 0; p < cl.size; ++p)
            std::copy_n(rows + p * columns, columns, out + order_[size_t(cl.begin + p)] * columns);
    }
}

size_t MekaApproximation::f_gram_workspace_bytes() const {
    const int64_t rank = largest_rank();
    return WorkspacePlan().add<double>(size_t(link_size_ * factor_rank_)).add<double>(size_t(rank * rank)).bytes();
}

// FᵀF = Bᵀ S B with S = WᵀW = diag(W^(s)ᵀ W^(s)).
void MekaApproximation::f_gram(Context &ctx, Arena &scratch, double *out) const {
    ArenaScope scope(scratch);
    const int64_t r = factor_rank_;
    double *sb = scratch.alloc<double>(size_t(link_size_ * r));
    double *s_block = scratch.alloc<double>(size_t(largest_rank() * largest_rank()));
    for (const MekaCluster &cl : clusters_) {
        linalg::syrk(linalg::Uplo::Lower, linalg::Trans::Yes, cl.rank, cl.size, 1.0, w_.data() + cl.w_offset, cl.rank,
                     0.0, s_block, cl.rank, ctx.threads);
        linalg::symmetrize(linalg::Uplo::Lower, cl.rank, s_block, cl.rank);
        linalg::gemm(linalg::Trans::No, linalg::Trans::No, cl.rank, r, cl.rank, 1.0, s_block, cl.rank,
                     link_factor_.data() + cl.rank_offset * r, r, 0.0, sb + cl.rank_offset * r, r, ctx.threads);
    }
    linalg::gemm(linalg::Trans::Yes, linalg::Trans::No, r, r, link_size_, 1.0, link_factor_.data(), r, sb, r, 0.0, out,
                 r, ctx.threads);
}

// F_i = W^(s)_i B_s for row i of cluster s.
void MekaApproximation::f_rows(const int64_t *rows, int64_t count, double *out) const {
    for (int64_t j = 0; j < count; ++j) {
        const MekaCluster &cl = clusters_[size_t(cluster_of_[size_t(rows[j])])];
        const double *w_row = w_.data() + cl.w_offset + (slot_[size_t(rows[j])] - cl.begin) * cl.rank;
        linalg::gemv(linalg::Trans::Yes, cl.rank, factor_rank_, 1.0,
                     link_factor_.data() + cl.rank_offset * factor_rank_, factor_rank_, w_row, 0.0,
                     out + j * factor_rank_, 1);
    }
}

// F(x) = K(x, U_s) M_s B_s for x's nearest cluster s.
void MekaApproximation::f_of(Context &ctx, const Dataset &queries, double *out) const {
    const int64_t q = queries.n, r = factor_rank_;
    std::vector<int32_t> route(static_cast<size_t>(q));
    route_to_clusters(queries, centers_.data(), clusters(), route.data());
    int64_t largest_m = 1;
    for (const MekaCluster &cl : clusters_) largest_m = std::max(largest_m, int64_t(cl.columns.size()));
    ctx.check_budget(size_t(q) * sizeof(int64_t) + size_t(q * (largest_rank() + r)) * sizeof(double),
                     "MEKA: features of new points");
    Arena scratch = ctx.reserve(kernel_times_basis_workspace_bytes(kernel(), largest_m, d()), "MEKA: extension");
    std::vector<int64_t> members;
    std::vector<double> w_rows, f_rows_of_cluster;
    for (int64_t s = 0; s < clusters(); ++s) {
        const MekaCluster &cl = clusters_[size_t(s)];
        members.clear();
        for (int64_t i = 0; i < q; ++i)
            if (route[size_t(i)] == s) members.push_back(i);
        if (members.empty()) continue;
        const int64_t count = int64_t(members.size());
        w_rows.resize(size_t(count * cl.rank));
        f_rows_of_cluster.resize(size_t(count * r));
        kernel_times_basis(ctx, kernel(), queries, members.data(), 0, count, cl.points.data(),
                           int64_t(cl.columns.size()), cl.basis.data(), cl.rank, w_rows.data(), scratch);
        linalg::gemm(linalg::Trans::No, linalg::Trans::No, count, r, cl.rank, 1.0, w_rows.data(), cl.rank,
                     link_factor_.data() + cl.rank_offset * r, r, 0.0, f_rows_of_cluster.data(), r, ctx.threads);
        for (int64_t j = 0; j < count; ++j)
            std::copy_n(f_rows_of_cluster.data() + j * r, r, out + members[size_t(j)] * r);
    }
}

// f(x) = K(x, U_s) β_s with β_s = M_s (B u)_s.
CenterExpansion MekaApproximation::expansion_of(Context &ctx, const double *u, int64_t outputs) const {
    std::vector<double> y(static_cast<size_t>(link_size_ * outputs));
    linalg::gemm(linalg::Trans::No, linalg::Trans::No, link_size_, outputs, factor_rank_, 1.0, link_factor_.data(),
                 factor_rank_, u, outputs, 0.0, y.data(), outputs, ctx.threads);
    CenterExpansion e;
    e.kernel = kernel();
    e.d = d();
    e.outputs = outputs;
    e.cluster_centers = centers_;
    e.cluster_begin.push_back(0);
    for (const MekaCluster &cl : clusters_) {
        const int64_t m = int64_t(cl.columns.size());
        e.centers.insert(e.centers.end(), cl.points.begin(), cl.points.end());
        e.beta.resize(size_t((e.m + m) * outputs));
        linalg::gemm(linalg::Trans::No, linalg::Trans::No, m, outputs, cl.rank, 1.0, cl.basis.data(), cl.rank,
                     y.data() + cl.rank_offset * outputs, outputs, 0.0, e.beta.data() + e.m * outputs, outputs,
                     ctx.threads);
        e.m += m;
        e.cluster_begin.push_back(e.m);
    }
    return e;
}

}  // namespace kmx
