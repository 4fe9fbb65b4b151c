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
void seed_kmeans_plus_plus(Context &ctx, Arena &scratch, const Dataset &data, const RowPartition &partition, int64_t k,
                           const double *row_sqnorms, double *centers, double *min_sqdist);
// Bytes seed_kmeans_plus_plus carves from `scratch` (released before it returns).
size_t kmeans_seeding_workspace_bytes(const Dataset &data, const RowPartition &partition, int64_t k);

}  // namespace kmx::cluster
