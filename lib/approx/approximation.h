// approximation.h — one small interface over the low-rank kernel
// approximations (Nyström, k-means Nyström, MEKA), which the C handle
// kmx_approx wraps.
//
// Every approximation here is held in a factored form
//
//   G̃ = F J Fᵀ,   F n x r,   J = diag(±1) (all +1 when G̃ is PSD),
//
// Nyström: F = C V_k Λ_k^{-1/2} (stored); MEKA: F = W B with W block
// diagonal and L = B J Bᵀ the link matrix (never formed). On that form:
//   products      G̃v = F(J(Fᵀv))
//   Woodbury      (G̃ + λI)⁻¹ v = λ⁻¹ (v − F (λJ + FᵀF)⁻¹ Fᵀ v)
//   rows          G̃(i, :) = F_i J Fᵀ
//   extension     G̃(x, X) α = F(x) J Fᵀα, a kernel expansion over the centers
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>

#include "kernel/kernel.h"
#include "landmarks.h"
#include "model/center_expansion.h"

namespace kmx {

class Context;
class Dataset;

enum class ApproxMethod { nystrom, kmeans_nystrom, meka };

struct ApproxOptions {
    ApproxMethod method = ApproxMethod::meka;
    // Nyström: the truncation rank k (0 = all m landmarks).
    // MEKA: the rank k per cluster (0 = automatic: with clusters also 0, MEKA
    // chooses both among equal-memory candidates, meka_choice.cpp).
    int64_t rank = 0;
    // Nyström: landmarks m (0 = rank). MEKA: columns sampled per cluster
    // (0 = the paper's 2k; always at most the cluster's size).
    int64_t landmarks = 0;
    LandmarkMethod landmark_method = LandmarkMethod::uniform;  // nystrom only; kmeans_nystrom uses kmeans
    const double *landmark_weights = nullptr;                  // nystrom with weighted_kmeans: n weights
    double leverage_lambda = 0;                                // nystrom with leverage landmarks
    int64_t clusters = 0;                                      // MEKA: c, 1 <= c <= n (0 = automatic)
    double eps = 0;                  // MEKA: skip block (s,t) when K(center_s, center_t) < eps
    double rho = 2;                  // MEKA: link blocks sample (1+ρ)k rows on each side
    double link_tolerance = -1;      // MEKA: τ, see meka.h (0 = plain least squares, < 0 = chosen per pair)
    bool proportional_rank = false;  // MEKA: k_s ∝ n_s (Σ k_s ≈ c·k) instead of k_s = k
    bool psd_repair = true;          // MEKA: clip L's negative eigenvalues
    int64_t kmeans_sample = 20000;   // MEKA: k-means centers from at most this many points
    int kmeans_iterations = 20;      // MEKA: Lloyd iterations at most (k-means landmarks: landmarks.h)
};

class KernelApproximation {
public:
    virtual ~KernelApproximation() = default;

    virtual int64_t n() const = 0;                        // training rows
    virtual int64_t rank() const = 0;                     // r: columns of F
    virtual size_t bytes() const = 0;                     // exactly what the approximation holds
    const KernelSpec &kernel() const { return kernel_; }  // gamma resolved
    int64_t d() const { return d_; }

    // out = G̃ v; v and out are n x columns, row-major.
    void matvec(Context &ctx, const double *v, double *out, int64_t columns = 1) const;
    // The same with caller scratch of matvec_workspace_bytes(columns) (for
    // iterative solvers: one reservation for every product).
    void matvec(Context &ctx, Arena &scratch, const double *v, double *out, int64_t columns) const;
    size_t matvec_workspace_bytes(int64_t columns) const;
    // out = (G̃ + λI)⁻¹ v by the Woodbury identity (λ > 0).
    void solve(Context &ctx, double lambda, const double *v, double *out, int64_t columns = 1) const;
    // out (count x n) = rows `rows` of G̃.
    void training_rows(Context &ctx, const int64_t *rows, int64_t count, double *out) const;
    // out (queries.n x n) = G̃(x, X) for new points x: the row of G̃ that x's
    // basis (its landmarks' features; for MEKA its cluster's) extends to.
    void extension_rows(Context &ctx, const Dataset &queries, double *out) const;
    // ‖G − G̃‖_F / ‖G‖_F over `sample_rows` rows drawn uniformly with ctx's
    // seed (all rows, hence exact, when sample_rows >= n). `data` is the
    // training data the approximation was built from.
    double relative_error(Context &ctx, const Dataset &data, int64_t sample_rows) const;
    // f(x) = G̃(x, X) α as a kernel expansion (α: n x outputs, row-major).
    CenterExpansion expansion(Context &ctx, const double *alpha, int64_t outputs) const;

protected:
    KernelApproximation(const KernelSpec &kernel, int64_t d) : kernel_(kernel), d_(d) {}

    // Scratch that apply_f / apply_ft need for `columns` columns.
    virtual size_t product_workspace_bytes(int64_t columns) const = 0;
    // out (n x columns) = F u, u r x columns.
    virtual void apply_f(Context &ctx, Arena &scratch, const double *u, double *out, int64_t columns) const = 0;
    // out (r x columns) = Fᵀ v, v n x columns.
    virtual void apply_ft(Context &ctx, Arena &scratch, const double *v, double *out, int64_t columns) const = 0;
    // out (r x r) = FᵀF, with scratch of f_gram_workspace_bytes().
    virtual size_t f_gram_workspace_bytes() const = 0;
    virtual void f_gram(Context &ctx, Arena &scratch, double *out) const = 0;
    // out (count x r) = rows `rows` of F.
    virtual void f_rows(const int64_t *rows, int64_t count, double *out) const = 0;
    // out (queries.n x r) = F(x) for new points (reserves its own scratch).
    virtual void f_of(Context &ctx, const Dataset &queries, double *out) const = 0;
    // The expansion of x ↦ F(x) u (u: r x outputs).
    virtual CenterExpansion expansion_of(Context &ctx, const double *u, int64_t outputs) const = 0;
    // J's diagonal (r entries), or nullptr when J = I.
    virtual const double *signs() const { return nullptr; }

private:
    // u (r x columns) ← J u.
    void apply_signs(double *u, int64_t columns) const;
    // out (count x n) = F_rows J Fᵀ for F_rows (count x r), with scratch of
    // rows_workspace_bytes(count).
    void rows_from_f(Context &ctx, Arena &scratch, const double *f_rows, int64_t count, double *out) const;
    size_t rows_workspace_bytes(int64_t count) const;
    void training_rows(Context &ctx, Arena &scratch, const int64_t *rows, int64_t count, double *out) const;
    KernelSpec kernel_;
    int64_t d_;
};

// `kernel` with gamma resolved for d features (gamma = 0 means 1/d).
inline KernelSpec resolved_kernel(const KernelSpec &kernel, int64_t d) {
    KernelSpec spec = kernel;
    spec.gamma = kernel.gamma_for(d);
    return spec;
}

// Builds the approximation options.method asks for from `data` (dense or
// sparse, finite) and `kernel`. Every size is checked against ctx's budget
// before the work that needs it. Bad options are KMX_E_INVALID_ARGUMENT.
std::unique_ptr<KernelApproximation> make_approximation(Context &ctx, const KernelSpec &kernel, const Dataset &data,
                                                        const ApproxOptions &options);

}  // namespace kmx
