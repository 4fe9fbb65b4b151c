// kmeans_seeding.h — greedy k-means++ seeding (Arthur & Vassilvitskii 2007,
// with the greedy local trials of scikit-learn): each new center is the best,
// by the resulting objective, of 2 + ⌊ln k⌋ rows drawn with probability
// ∝ w_i·D(x_i)², where D is the distance to the nearest center chosen so far.
#pragma once
#include <cstddef>
#include <cstdint>

#include "core/arena.h"
#include "core/context.h"
#include "core/dataset.h"
#include "row_blocks.h"

namespace kmx::cluster {

// Candidate rows drawn per new center.
int64_t seeding_trials(int64_t k);

// Writes k centers (k x d, row-major), each a copy of a row of `data`, drawn
// with Rng(ctx.seed). row_sqnorms (n) holds ‖x_i‖² (row_squared_norms()).
// min_sqdist (n) is scratch; it ends holding each row's squared distance to
// its nearest center (GEMM form, clamped at 0). Distances to the trials of
// one round are kept (n x trials), so choosing one costs no pass over the data.
// seed_rows (k, optional) receives the row each center is.
void seed_kmeans_plus_plus(Context &ctx, Arena &scratch, const Dataset &data, const RowPartition &partition, int64_t k,
                           const double *row_sqnorms, double *centers, double *min_sqdist, int64_t *seed_rows);
// Bytes seed_kmeans_plus_plus carves from `scratch` (released before it returns).
size_t kmeans_seeding_workspace_bytes(const Dataset &data, const RowPartition &partition, int64_t k);

// D² sampling in rounds (k-means|| of Bahmani et al. 2012 without its
// reduction step): the first center is a row drawn ∝ w_i; each later round
// draws as many rows as there are centers so far (at most k/8, at most the
// rest), i.i.d. ∝ w_i·D(x_i)², keeps the distinct ones and lowers D² by one
// GEMM against them. About log₂(k/8) + 8 passes over the rows instead of k,
// so far-off and sparse regions still get centers (unlike a uniform start),
// at the cost of about one Lloyd iteration; draws of one round may share a
// cluster, which Lloyd then has to repair. Same arguments and results as
// seed_kmeans_plus_plus; a center may repeat only when fewer than k rows of
// positive weight are distinct.
void seed_kmeans_in_rounds(Context &ctx, Arena &scratch, const Dataset &data, const RowPartition &partition, int64_t k,
                           const double *row_sqnorms, double *centers, double *min_sqdist, int64_t *seed_rows);
size_t kmeans_rounds_seeding_workspace_bytes(const Dataset &data, const RowPartition &partition, int64_t k);

}  // namespace kmx::cluster
