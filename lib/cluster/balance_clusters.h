// balance_clusters.h — a size cap on a partition's clusters, by moving the
// rows that lose least to their second-nearest cluster.
//
// Two-step kernel k-means can leave its clusters very uneven: rows far from
// every sample point (kernel values near 0 to all of them) join the cluster
// with the smallest self term, and on deformed digits at 1M rows (d = 256,
// γ = 0.16, 256 clusters) one cluster took 78595 rows where the mean was 3906.
// DC-SVM's time per level grows as Σ_c |V_c|², so one such cluster costs more
// than all the others. The greedy below is the capacity-constrained assignment
// with a few fallbacks: in each cluster above `cap` rows, the rows with the
// smallest margin (dist² to the runner-up minus dist² to the nearest) move to
// their runner-up while it has room, the largest cluster first; then the rows
// still there try their third-nearest cluster the same way, and so on through
// runner_up.choices. Clusters whose rows find no room in any of them stay
// above the cap (the result says how large the largest is).
#pragma once
#include <cstddef>
#include <cstdint>

#include "core/arena.h"
#include "kernel_kmeans.h"

namespace kmx {

struct BalanceResult {
    int64_t moved = 0;    // rows moved
    int64_t largest = 0;  // rows of the largest cluster after the moves
};
// Moves rows of the clusters with more than `cap` rows as above (cluster_of:
// n entries in [0, k), updated in place).
BalanceResult balance_clusters(Arena &scratch, int32_t *cluster_of, const RunnerUp &runner_up, int64_t n, int64_t k,
                               int64_t cap);
size_t balance_clusters_workspace_bytes(int64_t n, int64_t k);

// The rows of each cluster, by counting sort: members[offsets[c] … offsets[c+1])
// are the rows i with cluster_of[i] = c, in increasing i (offsets: k + 1).
void group_rows_by_cluster(const int32_t *cluster_of, int64_t n, int64_t k, int64_t *offsets, int64_t *members);

}  // namespace kmx
