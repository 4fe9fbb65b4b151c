// meka.h — MEKA, the memory efficient kernel approximation (Si, Hsieh,
// Dhillon 2014, Algorithm 1):
//
//   1. k-means in input space: c clusters (centers from at most 20000 sampled
//      points, then every point assigned to its nearest center).
//   2. Diagonal blocks, per cluster s: Nyström of rank k_s from m_s (= 2k_s)
//      sampled columns U_s: G^(s,s) ≈ C_s V_k Λ_k⁻¹ V_kᵀ C_sᵀ = W^(s) L^(s,s) W^(s)ᵀ
//      with the basis made orthonormal: W^(s) = K(X_s, U_s) M_s, W^(s)ᵀW^(s) = I,
//      L^(s,s) = D_s diagonal (the approximant's eigenvalues). With one
//      cluster (no link block) the basis is left as it is: W = C V_k Λ_k^{-1/2},
//      L = I (the same G̃, without the rotation's cost).
//   3. Off-diagonal blocks (s ≠ t), skipped (L^(s,t) = 0) when
//      K(center_s, center_t) < ε: rows v_s, v_t of (1+ρ)k sampled in each
//      cluster, Ĝ = K(X_vs, X_vt) and
//        L^(s,t) = (W_vsᵀW_vs)⁻¹ W_vsᵀ Ĝ W_vt (W_vtᵀW_vt)⁻¹,
//      over the basis directions the sample determines (τ = link_tolerance,
//      0 = plain least squares; by default chosen per pair on held-out
//      sampled rows; meka_blocks.cpp).
//   4. G̃ = W L Wᵀ, W = diag(W^(1) … W^(c)): O(nk + (ck)²) memory.
//      L = V Λ Vᵀ is kept as L = B J Bᵀ (B = V|Λ|^{1/2}); the PSD repair
//      drops L's negative eigenvalues (J = I).
//
// Three departures from the paper: W^(s) is made orthonormal (L^(s,s) = D_s
// instead of the Nyström core), the link fit keeps only the basis directions
// its sample determines (τ, chosen per pair on held-out rows), and L is made
// PSD by default (the paper's MEKA-PSD, §7.1).
//
// Automatic sizes: with clusters and rank both 0, MEKA chooses (c, k) among
// candidates of one memory budget (meka_choice.cpp): c = 1 (a rank-k
// Nyström approximation: one basis, one link block, L = I) and the
// reference c clusters, judged on the held-out block of G with held-out
// rows kept out of every sample; one basis is judged first, from its
// landmarks alone, and where it is already close to G the clusters are not
// built. With only one of them 0, the other comes from the reference
// formulas of approx_defaults.h.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "approximation.h"

namespace kmx {

class Rng;
struct HeldOut;

struct MekaOptions {
    int64_t clusters = 0;            // c, 1 <= c <= n; 0: automatic
    int64_t rank = 0;                // k per cluster, >= 1 (<= every cluster's size unless proportional); 0: automatic
    int64_t columns = 0;             // m_s sampled per cluster (0 = 2k); clipped to the cluster's size
    double eps = 0;                  // skip (s,t) when K(center_s, center_t) < eps (>= 0)
    double rho = 2;                  // link blocks sample (1+ρ)k rows per side (>= 0)
    double link_tolerance = -1;      // τ: the link fit's truncation (step 3); < 0: chosen per pair on held-out rows
    bool proportional_rank = false;  // k_s = round(c·k·n_s/n) in [1, n_s] instead of k
    bool psd_repair = true;          // clip L's negative eigenvalues
    int64_t kmeans_sample = 20000;   // points the k-means centers come from
    int kmeans_iterations = 20;
};

// How far a configuration is built: its bases U_s, M_s only (the automatic
// choice judges one basis from them), everything but L's factor (judged
// before the PSD repair), or all of it.
enum class MekaStage { bases, unfactored, factored };

// One configuration the automatic choice tried: its relative error on the
// held-out block of G (‖G_HH − G̃_HH‖_F / ‖G_HH‖_F) and its memory (one
// basis not chosen, whose features were never formed: the budget it was
// sized for).
struct MekaCandidate {
    int64_t clusters = 0;
    int64_t rank = 0;
    double error = 0;
    size_t bytes = 0;
    bool chosen = false;
};

// One cluster: its rows are order()[begin, begin + size); samples are drawn
// from the first `sampled` of them (the others are held out).
struct MekaCluster {
    int64_t begin = 0;
    int64_t size = 0;              // n_s
    int64_t sampled = 0;           // rows the column and link samples may draw from
    int64_t rank = 0;              // r_s: columns of W^(s) (k_s less W's numerical rank deficit)
    int64_t rank_offset = 0;       // first row/column of L^(s,·)
    int64_t w_offset = 0;          // W^(s) is w()[w_offset …], n_s x r_s row-major
    std::vector<int64_t> columns;  // data rows of U_s (m_s), increasing
    std::vector<double> points;    // U_s, m_s x d
    std::vector<double> basis;     // M_s, m_s x r_s
    std::vector<double> scale;     // D_s, r_s: L^(s,s) = diag(D_s), decreasing
};

class MekaApproximation final : public KernelApproximation {
public:
    MekaApproximation(Context &ctx, const KernelSpec &kernel, const Dataset &data, const MekaOptions &options);

    int64_t n() const override { return n_; }
    int64_t rank() const override { return factor_rank_; }
    size_t bytes() const override;

    int64_t clusters() const { return int64_t(clusters_.size()); }
    const std::vector<MekaCluster> &cluster_list() const { return clusters_; }
    const std::vector<double> &cluster_centers() const { return centers_; }  // c x d
    const std::vector<int32_t> &cluster_of() const { return cluster_of_; }   // n
    const std::vector<int64_t> &order() const { return order_; }             // rows grouped by cluster
    const double *w_block(int64_t s) const { return w_.data() + clusters_[size_t(s)].w_offset; }
    int64_t link_size() const { return link_size_; }  // R = Σ r_s
    int64_t skipped_blocks() const { return skipped_blocks_; }
    int64_t clipped_eigenvalues() const { return clipped_; }
    // The automatic choice's candidates (empty when c or k was given).
    const std::vector<MekaCandidate> &candidates() const { return candidates_; }
    // L = B J Bᵀ (R x R row-major), formed for inspection.
    std::vector<double> link_matrix() const;

protected:
    size_t product_workspace_bytes(int64_t columns) const override;
    void apply_f(Context &ctx, Arena &scratch, const double *u, double *out, int64_t columns) const override;
    void apply_ft(Context &ctx, Arena &scratch, const double *v, double *out, int64_t columns) const override;
    size_t f_gram_workspace_bytes() const override;
    void f_gram(Context &ctx, Arena &scratch, double *out) const override;
    void f_rows(const int64_t *rows, int64_t count, double *out) const override;
    void f_of(Context &ctx, const Dataset &queries, double *out) const override;
    CenterExpansion expansion_of(Context &ctx, const double *u, int64_t outputs) const override;
    const double *signs() const override { return signs_.empty() ? nullptr : signs_.data(); }

private:
    // One configuration (c and k given), rows `held_out` kept out of every
    // sample, built up to `stage` (unfactored: L is left in link_ for judging).
    MekaApproximation(Context &ctx, const KernelSpec &kernel, const Dataset &data, const MekaOptions &options,
                      const std::vector<int64_t> &held_out, MekaStage stage);
    void build(Context &ctx, const Dataset &data, const MekaOptions &options, const std::vector<int64_t> &held_out,
               MekaStage stage);
    void complete(Context &ctx, const Dataset &data, const MekaOptions &options, MekaStage stage);
    void fill_links(Context &ctx, const Dataset &data, const MekaOptions &options);
    void factor_links(Context &ctx, const MekaOptions &options);
    // meka_choice.cpp: the automatic (c, k).
    void choose(Context &ctx, const Dataset &data, const MekaOptions &options);
    std::unique_ptr<MekaApproximation> clusters_candidate(Context &ctx, const Dataset &data,
                                                          const MekaOptions &reference,
                                                          const std::vector<int64_t> &held) const;
    std::unique_ptr<MekaApproximation> single_basis_candidate(Context &ctx, const Dataset &data, MekaOptions &single,
                                                              const HeldOut &held) const;
    static MekaCandidate judge_clusters(Context &ctx, const MekaOptions &reference, const HeldOut &held,
                                        double single_error, MekaApproximation &many);
    double held_out_error(Context &ctx, const HeldOut &held) const;
    double single_basis_error(Context &ctx, const Dataset &data, const HeldOut &held) const;
    std::vector<double> held_out_block(Context &ctx, const std::vector<int64_t> &grouped) const;
    void partition(Context &ctx, const Dataset &data, const MekaOptions &options, const std::vector<int64_t> &held_out);
    void group_rows(const std::vector<char> &held);
    void cluster_bases(Context &ctx, const Dataset &data, const MekaOptions &options);
    void cluster_features(Context &ctx, const Dataset &data);
    void cluster_nystrom_basis(Context &ctx, const Dataset &data, Rng &rng, MekaCluster &cl, Arena &scratch) const;
    void single_features(Context &ctx, const Dataset &data, MekaCluster &cl, Arena &scratch);
    void cluster_orthonormal_basis(Context &ctx, const Dataset &data, MekaCluster &cl, Arena &scratch);
    int64_t largest_cluster() const;
    int64_t largest_rank() const;

    int64_t n_ = 0;
    bool candidate_ = false;  // built for the automatic choice: k_s clamped to n_s instead of refused
    std::vector<double> centers_;
    std::vector<int32_t> cluster_of_;
    std::vector<int64_t> order_;
    std::vector<int64_t> slot_;  // slot_[i]: position of row i in order_
    std::vector<MekaCluster> clusters_;
    std::vector<double> w_;
    int64_t link_size_ = 0;            // R
    int64_t factor_rank_ = 0;          // r: columns of B
    std::vector<double> link_factor_;  // B, R x r
    std::vector<double> signs_;        // J (empty when all +1)
    std::vector<double> link_;         // L (R x R) of a candidate not yet factored
    std::vector<MekaCandidate> candidates_;
    int64_t skipped_blocks_ = 0;
    int64_t clipped_ = 0;
};

}  // namespace kmx
