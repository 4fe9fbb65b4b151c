// nystrom.h — the Nyström approximation G ≈ C W_k⁺ Cᵀ.
//
//   U landmarks (m x d, any LandmarkMethod), C = K(X, U) (n x m), W = K(U, U),
//   W ≈ V_k Λ_k V_kᵀ (top-k eigenpairs, eigenvalues <= m·eps·λ_max dropped),
//   feature map φ(x) = Λ_k^{-1/2} V_kᵀ K(U, x) ∈ R^k,   G̃ = Φ Φᵀ,  Φ = C V_k Λ_k^{-1/2}.
#pragma once
#include <cstdint>
#include <vector>

#include "approximation.h"

namespace kmx {

struct NystromOptions {
    LandmarkOptions landmarks;  // method and m
    int64_t rank = 0;           // k, 1 <= k <= m (0 = m: no truncation)
};

class NystromApproximation final : public KernelApproximation {
public:
    NystromApproximation(Context &ctx, const KernelSpec &kernel, const Dataset &data, const NystromOptions &options);

    int64_t n() const override { return n_; }
    int64_t rank() const override { return rank_; }
    size_t bytes() const override;

    const Landmarks &landmarks() const { return landmarks_; }
    // V_k Λ_k^{-1/2} (m x rank, row-major): φ(x) = basisᵀ K(U, x).
    const std::vector<double> &basis() const { return basis_; }
    // Φ (n x rank, row-major): the training points' features.
    const std::vector<double> &features() const { return features_; }
    // out (data.n x rank) = φ(x) for every row of data (d columns).
    void feature_map(Context &ctx, const Dataset &data, double *out) const;

protected:
    size_t product_workspace_bytes(int64_t) const override { return 0; }
    void apply_f(Context &ctx, Arena &scratch, const double *u, double *out, int64_t columns) const override;
    void apply_ft(Context &ctx, Arena &scratch, const double *v, double *out, int64_t columns) const override;
    size_t f_gram_workspace_bytes() const override { return 0; }
    void f_gram(Context &ctx, Arena &scratch, double *out) const override;
    void f_rows(const int64_t *rows, int64_t count, double *out) const override;
    void f_of(Context &ctx, const Dataset &queries, double *out) const override { feature_map(ctx, queries, out); }
    CenterExpansion expansion_of(Context &ctx, const double *u, int64_t outputs) const override;

private:
    int64_t n_ = 0;
    int64_t rank_ = 0;
    Landmarks landmarks_;
    std::vector<double> basis_;
    std::vector<double> features_;
};

// V_k Λ_k^{-1/2} of a symmetric PSD block (m x m, destroyed) for its top
// `rank` eigenpairs, eigenvalues <= m·eps·λ_max left out: returns m x r
// row-major, r <= rank. Shared with MEKA's per-cluster Nyström.
std::vector<double> inverse_sqrt_basis(int64_t m, double *block, int64_t rank, Arena &scratch, int64_t &r);
size_t inverse_sqrt_basis_workspace_bytes(int64_t m);

// out (count x r) = K(x_i, U) · basis for the rows i = rows[j] (rows == nullptr:
// i = first + j) of data, U (m x d) row-major; kernel blocks of a bounded
// number of rows at a time, scratch from `scratch`.
void kernel_times_basis(Context &ctx, const KernelSpec &kernel, const Dataset &data, const int64_t *rows, int64_t first,
                        int64_t count, const double *landmarks, int64_t m, const double *basis, int64_t r, double *out,
                        Arena &scratch);
size_t kernel_times_basis_workspace_bytes(const KernelSpec &kernel, int64_t m, int64_t d);
// The same for every row of data against landmarks given as a dataset (dense,
// or CSR: then sparse rows are never widened, kernel_sparse.cpp).
void landmark_basis(Context &ctx, const KernelSpec &kernel, const Dataset &data, const Dataset &landmarks,
                    const double *basis, int64_t r, double *out, Arena &scratch);
size_t landmark_basis_workspace_bytes(const KernelSpec &kernel, const Dataset &data, const Dataset &landmarks);

}  // namespace kmx
