// falkon.h — FALKON (Rudi, Carratino, Rosasco, NIPS 2017): Nyström kernel
// ridge regression solved by preconditioned conjugate gradient.
//
// With M centers (landmarks.h) and the KRR convention of center_expansion.h,
// the Nyström coefficients α (M x outputs) solve
//   H α = z,   H = K_nMᵀ K_nM + λn K_MM,   z = K_nMᵀ Y,
// and FALKON runs CG on Bᵀ H B β = Bᵀ z, α = B β, with the preconditioner
// of falkon_preconditioner.h. Each iteration needs K_nMᵀ (K_nM u), computed
// in row blocks so K_nM is never stored: O(nMt·(d + outputs) + M³) time,
// O(M² + block·M) memory. All outputs share each pass over K_nM (one CG
// recurrence per column, one kernel block per row block for all of them),
// so c one-vs-rest classes cost about one solve, not c.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "approx/landmarks.h"
#include "model/center_expansion.h"
#include "krr_targets.h"

namespace kmx {

struct FalkonOptions {
    int64_t centers = 0;                                     // M, 1 <= M <= n
    double lambda = 0;                                       // λ > 0
    LandmarkMethod center_method = LandmarkMethod::uniform;  // uniform, kmeans, leverage or given
    const double *given_centers = nullptr;                   // given: M x d row-major
    int iterations = 20;                                     // CG iterations at most (t)
    double tolerance = 1e-7;                                 // stop when every ‖r‖/‖r₀‖ <= this (0: never)
    double validation_fraction = 0;                          // in [0, 0.5): held-out rows for early stopping
    int patience = 3;                                        // early stopping: iterations without improvement
    double jitter = 2.220446049250313e-16;                   // ε of T = chol(K_MM + εM I)
    // Keep up to this many bytes of K_nM row blocks after the first pass
    // instead of recomputing them every iteration (0: K_nM is never stored and
    // memory stays O(M² + block·M)). Part of the budget.
    size_t kernel_cache_bytes = 0;
    // Instead: keep as much of K_nM as the budget leaves after the rest of the
    // workspace (all of it when it fits; kernel_cache_bytes, if nonzero, caps
    // it), within kMachineBudgetShare of the memory available now.
    bool auto_cache = false;
    // Compute K_nM's row blocks in float32 (kernel_block_f32: sgemm, twice
    // dgemm's rate) and cache them as floats (half the bytes: twice the rows
    // in the same budget). Each row is widened to double just before it is
    // used, so K_nM v, K_nMᵀu and every sum stay double, as do K_MM, the
    // preconditioner and the CG vectors; only K_nM's values carry float32's
    // rounding (relative 2⁻²⁴ for the maps, d·2⁻²⁴ for the dot products).
    // The preconditioner's jitter is then at least float's epsilon (2⁻²³),
    // as in the FALKON library, so T⁻¹ does not blow those errors up.
    bool kernel_float32 = false;
    // Sum K_nMᵀ(K_nM v) and K_nMᵀY over rows in bins (core/reproducible_sum.h)
    // in one process too, so its fit has the same bits as one split across
    // processes (which always bin). Otherwise one process reads each block
    // of K_nM once for both products (linalg::add_normal_product: up to 32
    // outputs with AVX-512, 6 with AVX2, and float32 K_nM always; the bits do
    // not depend on the thread count) or, for more outputs, sums by two GEMMs
    // per block (the bits then depend on the thread count); both are many
    // times faster per CG iteration than the bins (bench/README.md).
    bool reproducible_sums = false;
};

struct FalkonStats {
    int iterations = 0;                     // CG iterations run
    std::vector<double> residuals;          // per iteration: max over outputs of ‖r‖/‖r₀‖
    std::vector<double> validation_errors;  // per iteration, with a validation split (MSE or error rate)
    int best_iteration = 0;                 // the iterate returned (early stopping), else `iterations`
    double condition_estimate = 0;          // cond(BᵀHB) from the CG Lanczos coefficients (max over outputs)
    int64_t rank = 0;                       // q: M, or K_MM's numerical rank when it was singular
    int64_t train_rows = 0;                 // n minus the validation rows
    double seconds = 0;                     // wall time of falkon_fit
    double center_seconds = 0;              // of which choosing the centers
    size_t workspace_bytes = 0;             // the solver's arenas (checked against the budget), K_nM's cache included
    int64_t cached_rows = 0;                // rows of K_nM kept across CG passes (this rank's)
    size_t peak_bytes = 0;                  // peak reserved by the call (centers + solver)
};

// Bytes of the solver's workspace for `data` (dense or sparse), M centers
// and `outputs` columns: K_MM/T and A (2 M²), the CG vectors (about 8 M x
// outputs), one block of K_nM rows (at most 2²² values) and its scratch; the
// block and an explicit cache_size's K_nM rows are doubles, or floats with
// kernel_float32.
// Choosing the centers reserves its own scratch on top (landmarks.h), and
// with auto_cache the K_nM cache comes after both, from what is left.
size_t falkon_workspace_bytes(const KernelSpec &kernel, const Dataset &data, int64_t centers, int64_t outputs,
                              const FalkonOptions &options);

// What a fit keeps for the next λ of a path on the same rows, targets and
// options (cross_validate_path): the centers, the validation split,
// T = chol(K_MM + εM I) and K_nM's cached blocks, none of which depends on λ
// (leverage-score centers do: those are never kept). The next fit refactors
// only A = chol(T Tᵀ/M + λI) and runs CG, so it equals a fit from scratch
// (the same centers, T and K_nM values, the same CG). What it holds stays
// charged to the fit's context (Context::hold) until it is cleared or
// destroyed, and it must not outlive the dataset. In a path, the K_nM cache
// takes at most half of what the budget leaves (the path's other calls need
// room beside it).
struct FalkonSetup;
struct FalkonPath {
    FalkonPath();
    ~FalkonPath();
    FalkonPath(FalkonPath &&) noexcept;
    FalkonPath &operator=(FalkonPath &&) noexcept;
    void clear();
    std::unique_ptr<FalkonSetup> setup;  // empty until a fit fills it
};

// Fits FALKON to targets (krr_targets of data's labels). Everything is
// validated before any work (KMX_E_INVALID_ARGUMENT: M < 1 or M > n, λ <= 0,
// non-finite targets or features, a bad option); then the workspace is
// checked against ctx's budget (KMX_E_OUT_OF_MEMORY naming the bytes).
// Returns the expansion over the M centers (β = α, M x outputs). With
// `path`: starts from its set-up when that was made for the same data and
// options apart from λ (else makes a new one), and leaves the set-up there.
CenterExpansion falkon_fit(Context &ctx, const KernelSpec &kernel, const Dataset &data, const KrrTargets &targets,
                           const FalkonOptions &options, FalkonStats *stats = nullptr, FalkonPath *path = nullptr);

}  // namespace kmx
