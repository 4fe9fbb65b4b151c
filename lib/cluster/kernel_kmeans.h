// kernel_kmeans.h — two-step kernel k-means (DC-SVM's divide step): kernel
// k-means on a random sample of m points, then every point joins its nearest
// center in feature space:
//
//   dist²(x, S_c) = K(x,x) − (2/|S_c|) Σ_{j∈S_c} K(x, x_j) + (1/|S_c|²) Σ_{i,j∈S_c} K(x_i, x_j)
//
// K(x,x) is the same for every cluster, so choosing the nearest one never
// needs it (for any kernel, stationary or not).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/arena.h"
#include "kernel/kernel.h"

namespace kmx {

class Context;
class Dataset;
class Rng;

// A clustering in feature space, defined by its sample points.
struct KernelPartition {
    int64_t k = 0;
    std::vector<int64_t> sample_rows;     // m dataset rows of the sample
    std::vector<int32_t> sample_cluster;  // m: the cluster of each sample point
    std::vector<double> cluster_self;     // k: (1/|S_c|²) Σ_{i,j∈S_c} K(x_i, x_j)
    std::vector<int64_t> cluster_size;    // k: |S_c| (within the sample; > 0 for every kept cluster)
};

// Kernel k-means on `sample_size` points drawn (by ctx.seed) from `rows`
// (n rows of data; nullptr = 0..n−1), or from `sample_from` if non-empty
// (adaptive clustering: sample the current support vectors; its entries are
// dataset rows too). Clusters left empty are dropped (k may come out smaller).
// Seeding is k-means++ in feature space; Lloyd's iterations run until no
// sample point changes cluster (at most kKernelKMeansMaxIter).
KernelPartition kernel_kmeans_sample(Context &ctx, const Dataset &data, const int64_t *rows, int64_t n,
                                     const std::vector<int64_t> &sample_from, const KernelSpec &kernel, int64_t k,
                                     int64_t sample_size);
// The same with scratch from the caller's arena, sized by:
KernelPartition kernel_kmeans_sample(Context &ctx, Arena &scratch, const Dataset &data, const int64_t *rows, int64_t n,
                                     const std::vector<int64_t> &sample_from, const KernelSpec &kernel, int64_t k,
                                     int64_t sample_size);
size_t kernel_kmeans_sample_workspace_bytes(const Dataset &data, const KernelSpec &kernel, int64_t k,
                                            int64_t sample_size);

// Nearest cluster in feature space for each of n rows of `points` (rows
// nullptr = 0..n−1), which may be a different dataset from the partition's
// (prediction). cluster_of: n outputs.
void kernel_partition_assign(Context &ctx, const Dataset &partition_data, const KernelPartition &partition,
                             const Dataset &points, const int64_t *rows, int64_t n, const KernelSpec &kernel,
                             int32_t *cluster_of);
// Each row's `choices` next-nearest clusters after its nearest (second,
// third, …) and how much farther each is than the nearest (the difference of
// the two dist², ≥ 0, increasing), for balance_clusters. Row i's r-th choice
// is at [i · choices + r]; with fewer than choices + 1 clusters the last
// ones repeat the farthest (one cluster: the nearest, margin 0).
struct RunnerUp {
    int32_t *cluster = nullptr;  // n · choices outputs
    float *margin = nullptr;     // n · choices outputs
    int choices = 1;
};
// The same with scratch from the caller's arena, sized by the function below,
// and optionally each row's runner-up (one cluster: the nearest, margin 0).
void kernel_partition_assign(Context &ctx, Arena &scratch, const Dataset &partition_data,
                             const KernelPartition &partition, const Dataset &points, const int64_t *rows, int64_t n,
                             const KernelSpec &kernel, int32_t *cluster_of, RunnerUp runner_up = {});
size_t kernel_partition_assign_workspace_bytes(const Dataset &partition_data, int64_t sample_size, int64_t k,
                                               const Dataset &points, const KernelSpec &kernel);

constexpr int kKernelKMeansMaxIter = 30;

// Lloyd's kernel k-means on a precomputed m×m kernel matrix `gram`
// (row-major): k-means++ seeding in feature space by `rng`, then iterations
// until no point moves or max_iter. assignment: m outputs (clusters may end
// up empty; ids stay in [0, k)). history (optional, max_iter + 1 entries)
// receives the objective J(π) = Σ_i dist²(x_i, S_π(i)) — centers at the
// means of the current assignment — after seeding and after each iteration
// that moved a point; entries past the last are left alone. Returns the
// number of such iterations.
int kernel_kmeans_gram(const double *gram, int64_t m, int64_t k, int max_iter, Rng &rng, Arena &scratch, int threads,
                       int32_t *assignment, double *history);
size_t kernel_kmeans_gram_workspace_bytes(int64_t m, int64_t k);

}  // namespace kmx
