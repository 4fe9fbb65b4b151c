// nystrom_tron.h — the Nyström kernel machine trained in the primal by TRON
// (distributed Nyström paper): f(β) = ½βᵀWβ + Σ_i c_i ℓ(y_i, c_iᵀβ)
// (nystrom_objective.h) minimised by tron.h for each output, the basis grown
// in stages m₀ < m₁ < … < m with warm starts (new β entries start at 0, only
// the new columns of C and W are computed).
//
// Rows may be spread over the ranks of ctx.comm: every sum over rows (the
// objective's, k-means', the row count, the label set, the class counts) is
// a local sum AllReduced, the basis is the same on every rank, and a phase
// that can fail on one rank (bad data, the memory budget) ends with
// comm.agree, so every rank gets the same β or the same error. One process
// is a communicator of one rank.
//
// Wide sparse data (every rank's rows stay sparse in kernel blocks:
// sparse_kernel_rows) is never widened: the uniform basis is kept as CSR
// rows (gathered from their owners by broadcast), C and W are computed on
// the nonzeros, and the expansion keeps sparse_centers (a model saves them
// as sparse points). k-means centers are dense m x d means, so on such data
// they are refused unless their workspace takes at most a quarter of the
// memory budget.
//
// Outputs: regression (squared loss) one; classification with 2 classes one
// (+1 = the larger label); c > 2 classes c one-vs-rest outputs.
#pragma once
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "kernel/kernel.h"
#include "krr/krr_targets.h"
#include "model/center_expansion.h"
#include "model/model.h"
#include "model/train_options.h"
#include "nystrom_objective.h"
#include "optim/tron.h"

namespace kmx {

class Context;
class Dataset;

enum class TronBasis { uniform, kmeans };

struct NystromTronOptions {
    kmx_loss loss = KMX_LOSS_AUTO;  // auto: squared hinge for classification, squared for regression
    kmx_task task = KMX_TASK_AUTO;
    double C = 1;         // cost of the loss term, > 0
    int64_t centers = 0;  // m; 0 = auto_tron_centers(n)
    int stages = 1;       // basis sizes m / 2^(stages−1), …, m / 2, m
    TronBasis basis = TronBasis::uniform;
    int kmeans_iterations = 3;  // Lloyd steps per stage (the paper uses 3)
    TronOptions tron;
    size_t cache_bytes = 0;  // 0: keep C (n x m) when it fits the budget; else at most this many bytes of it
    std::vector<std::pair<double, double>> class_weights;  // (label, multiplier of C)
};

struct NystromTronStats {
    int64_t m = 0;                       // final basis size
    std::vector<int64_t> stage_sizes;    // m at each stage
    std::vector<int> newton_iterations;  // per stage, summed over outputs
    std::vector<int> cg_iterations;      // per stage, summed over outputs
    std::vector<double> objective;       // per stage, summed over outputs
    std::vector<int64_t> reduced_bytes;  // per stage: bytes this rank AllReduced (0 in one process)
    bool columns_cached = false;         // C kept in memory (else recomputed each pass)
    bool converged = true;               // every TRON run met its gradient test
    size_t workspace_bytes = 0;
};

struct NystromTronFit {
    CenterExpansion expansion;  // f_k(x) = Σ_j K(x, b_j) β_{j,k}
    KrrTargets targets;         // task, classes and outputs (y is left empty)
    TronLoss loss = TronLoss::squared;
};

// min(auto_centers(n), 8192): √n-scaled as FALKON's, capped so W (m²) stays
// within 512 MB at any n.
int64_t auto_tron_centers(int64_t n);

// Trains on this rank's rows of data (labels required; sample weights
// used). KMX_E_INVALID_ARGUMENT for bad options or data (on any rank: every
// rank throws) and for k-means centers too large for wide sparse data,
// KMX_E_OUT_OF_MEMORY when the workspace exceeds the budget.
NystromTronFit nystrom_tron_fit(Context &ctx, const KernelSpec &kernel, const Dataset &data,
                                const NystromTronOptions &options, NystromTronStats *stats = nullptr);

// options.method == KMX_METHOD_NYSTROM_TRON as a Model.
Model train_nystrom_tron_model(Context &ctx, const TrainOptions &options, const KernelSpec &kernel,
                               const Dataset &data);

}  // namespace kmx
