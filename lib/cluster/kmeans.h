// kmeans.h — k-means (Lloyd) with k-means++ seeding, per-point weights, and
// assignment of new points; squared distances through GEMM
// (‖x‖² + ‖c‖² − 2 X Cᵀ) in row blocks, so memory stays O(block·k + k·d).
#pragma once
#include <cstddef>
#include <cstdint>

#include "core/arena.h"

namespace kmx {

class Context;
class Dataset;

enum class KMeansSeeding { greedy_plus_plus, rounds };

struct KMeansOptions {
    int64_t k = 8;
    int max_iter = 100;
    double tol = 1e-6;  // stop when (J_prev − J) <= tol · J_prev
    // How the starting centers are drawn: greedy k-means++ (k passes over the
    // rows, each with 2 + ⌊ln k⌋ trials: the larger part of the work when k
    // is in the hundreds and few iterations are run), or D² sampling in
    // about log₂ k rounds (kmeans_seeding.h).
    KMeansSeeding seeding = KMeansSeeding::greedy_plus_plus;
    // k x d row-major: Lloyd starts from these instead (no seeding).
    const double *initial_centers = nullptr;
};

struct KMeansResult {
    double objective = 0;  // Σ_i w_i ‖x_i − c_{a(i)}‖² at the returned centers and assignment
    int iterations = 0;    // Lloyd iterations run
};

// Clusters `data` (weights data.w if present). centers: k*d row-major out;
// assignment: n out. history (optional, max_iter + 1 entries) receives the
// objective after seeding and after each iteration, as the iterations track
// it (distances as ‖x‖² + ‖c‖² − 2⟨x, c⟩); entries past the last iteration
// are left alone. The returned objective is recomputed from exact squared
// differences. Deterministic for a given ctx.seed and ctx.threads.
KMeansResult kmeans(Context &ctx, Arena &scratch, const Dataset &data, const KMeansOptions &options, double *centers,
                    int32_t *assignment, double *history = nullptr);
size_t kmeans_workspace_bytes(const Dataset &data, int64_t k, int threads);

// The k starting centers kmeans() draws by options.seeding (centers: k x d
// out) and the rows of data they are (seed_rows: k out), with ctx's seed.
void kmeans_seeds(Context &ctx, Arena &scratch, const Dataset &data, const KMeansOptions &options, double *centers,
                  int64_t *seed_rows);
size_t kmeans_seeds_workspace_bytes(const Dataset &data, int64_t k, int threads);

// Nearest center (k x d row-major) for every row; sqdist (optional) gets the
// squared distance to it.
void kmeans_assign(Context &ctx, Arena &scratch, const Dataset &data, const double *centers, int64_t k,
                   int32_t *assignment, double *sqdist);
size_t kmeans_assign_workspace_bytes(const Dataset &data, int64_t k, int threads);

}  // namespace kmx
