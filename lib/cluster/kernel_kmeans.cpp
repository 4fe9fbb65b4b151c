// kernel_kmeans.cpp — two-step kernel k-means (Ghitta et al. 2011, as used by
// DC-SVM's divide step).
//
// Step 1: m sample points S are drawn without replacement (selection
// sampling, so the sample comes out in pool order); their m×m kernel matrix
// G is computed once; k-means++ in feature space seeds the clusters and
// Lloyd's iterations move each sample point to the cluster minimising
//   dist²(x_i, S_c) = G_ii − (2/|S_c|) Σ_{j∈S_c} G_ij + self_c,
//   self_c = (1/|S_c|²) Σ_{i,j∈S_c} G_ij.
// Step 2: every point x takes the cluster minimising
//   −(2/|S_c|) Σ_{j∈S_c} K(x, x_j) + self_c
// (K(x,x) is common to all clusters), from blocks of rows × m kernel values.
//
// Rows are gathered into small dense or CSR views (as stored) before the
// kernel blocks, so any row subset and either storage work alike.
#include "kernel_kmeans.h"

#include <algorithm>
#include <limits>

#include "core/context.h"
#include "core/dataset.h"
#include "core/error.h"
#include "core/parallel.h"
#include "core/rng.h"
#include "core/scratch_carver.h"

namespace kmx {

namespace {

using cluster::ScratchCarver;

constexpr int64_t kAssignBlockRows = 256;

// ---------------------------------------------------------------- row views

// The most nonzeros of any row (d for dense data).
int64_t max_row_nonzeros(const Dataset &data) {
    if (!data.sparse()) return data.d;
    int64_t most = 0;
    for (int64_t r = 0; r < data.n; ++r) most = std::max(most, data.row_ptr[r + 1] - data.row_ptr[r]);
    return most;
}

// A dataset view holding copies of `count` chosen rows of `data`, stored the
// same way (dense or CSR, float64 or float32: the workspace plans made for
// data hold for the view), in carved memory. Sized by the same code (the
// carver without an arena), for up to `count` rows of `row_nonzeros` each.
// Exactly one of values/values32 is carved (dense: count * d of them).
struct RowView {
    Dataset view;
    int64_t *row_ptr = nullptr;
    int32_t *col = nullptr;
    double *values = nullptr;
    float *values32 = nullptr;
};

RowView carve_row_view(ScratchCarver &carver, const Dataset &data, int64_t count, int64_t row_nonzeros) {
    RowView v;
    const size_t value_count = size_t(data.sparse() ? count * row_nonzeros : count * data.d);
    if (data.sparse()) {
        v.row_ptr = carver.take<int64_t>(size_t(count + 1));
        v.col = carver.take<int32_t>(size_t(count * row_nonzeros));
    }
    if (data.float32())
        v.values32 = carver.take<float>(value_count);
    else
        v.values = carver.take<double>(value_count);
    return v;
}

// Fills the view with rows[0..count) of data (rows nullptr: first + 0..count−1).
const Dataset &fill_row_view(RowView &v, const Dataset &data, const int64_t *rows, int64_t first, int64_t count) {
    v.view = Dataset();
    v.view.n = count;
    v.view.d = data.d;
    if (!data.sparse()) {
        for (int64_t i = 0; i < count; ++i) {
            const int64_t r = rows ? rows[i] : first + i;
            if (data.x32)
                std::copy(data.x32 + r * data.d, data.x32 + (r + 1) * data.d, v.values32 + i * data.d);
            else
                std::copy(data.x + r * data.d, data.x + (r + 1) * data.d, v.values + i * data.d);
        }
        v.view.x = data.x32 ? nullptr : v.values;
        v.view.x32 = data.x32 ? v.values32 : nullptr;
        return v.view;
    }
    v.row_ptr[0] = 0;
    for (int64_t i = 0; i < count; ++i) {
        const int64_t r = rows ? rows[i] : first + i;
        const int64_t begin = data.row_ptr[r], end = data.row_ptr[r + 1];
        std::copy(data.col + begin, data.col + end, v.col + v.row_ptr[i]);
        if (data.values32)
            std::copy(data.values32 + begin, data.values32 + end, v.values32 + v.row_ptr[i]);
        else
            std::copy(data.values + begin, data.values + end, v.values + v.row_ptr[i]);
        v.row_ptr[i + 1] = v.row_ptr[i] + (end - begin);
    }
    v.view.row_ptr = v.row_ptr;
    v.view.col = v.col;
    v.view.values = data.values32 ? nullptr : v.values;
    v.view.values32 = data.values32 ? v.values32 : nullptr;
    return v.view;
}

// ------------------------------------------------------------------ sample

// m distinct pool entries, in pool order (Knuth's selection sampling).
std::vector<int64_t> draw_sample(Rng &rng, const int64_t *pool, int64_t pool_size, int64_t m) {
    std::vector<int64_t> sample;
    sample.reserve(size_t(m));
    for (int64_t t = 0; t < pool_size && int64_t(sample.size()) < m; ++t) {
        const uint64_t needed = uint64_t(m - int64_t(sample.size()));
        if (rng.below(uint64_t(pool_size - t)) < needed) sample.push_back(pool ? pool[t] : t);
    }
    return sample;
}

// ------------------------------------------------------------ kernel k-means

// Lloyd's state for assignment π on the sample: |S_c|, (1/|S_c|) Σ_{j∈S_c} G_ij
// for every i and c, and self_c.
struct ClusterStats {
    int64_t *size;        // k
    double *mean_kernel;  // m×k: (1/|S_c|) Σ_{j∈S_c} G_ij
    double *self;         // k
};

ClusterStats carve_stats(ScratchCarver &carver, int64_t m, int64_t k) {
    ClusterStats s;
    s.size = carver.take<int64_t>(size_t(k));
    s.mean_kernel = carver.take<double>(size_t(m * k));
    s.self = carver.take<double>(size_t(k));
    return s;
}

// Recomputes the stats of `assignment` and returns J(π) = Σ_i G_ii − Σ_c |S_c| self_c.
double update_stats(const double *gram, int64_t m, int64_t k, const int32_t *assignment, int threads, ClusterStats &s) {
    std::fill(s.size, s.size + k, int64_t(0));
    for (int64_t j = 0; j < m; ++j) ++s.size[assignment[j]];
    parallel_for(m, threads, [&](int64_t i) {
        double *row = s.mean_kernel + i * k;
        std::fill(row, row + k, 0.0);
        for (int64_t j = 0; j < m; ++j) row[assignment[j]] += gram[i * m + j];
        for (int64_t c = 0; c < k; ++c)
            if (s.size[c] > 0) row[c] /= double(s.size[c]);
    });
    std::fill(s.self, s.self + k, 0.0);
    for (int64_t i = 0; i < m; ++i) s.self[assignment[i]] += s.mean_kernel[i * k + assignment[i]];
    double objective = 0;
    for (int64_t i = 0; i < m; ++i) objective += gram[i * m + i];
    for (int64_t c = 0; c < k; ++c) {
        if (s.size[c] == 0) continue;
        s.self[c] /= double(s.size[c]);
        objective -= double(s.size[c]) * s.self[c];
    }
    return objective;
}

// Moves every point to its nearest non-empty cluster (ties to the lower id);
// returns how many moved.
int64_t reassign(int64_t m, int64_t k, const ClusterStats &s, int32_t *assignment) {
    int64_t moved = 0;
    for (int64_t i = 0; i < m; ++i) {
        int32_t best = assignment[i];
        double best_score = std::numeric_limits<double>::infinity();
        for (int64_t c = 0; c < k; ++c) {
            if (s.size[c] == 0) continue;
            const double score = s.self[c] - 2.0 * s.mean_kernel[i * k + c];
            if (score < best_score) {
                best_score = score;
                best = int32_t(c);
            }
        }
        if (best != assignment[i]) ++moved;
        assignment[i] = best;
    }
    return moved;
}

// k-means++ in feature space: seeds drawn with probability ∝ dist² to the
// nearest seed so far (‖φ_i − φ_s‖² = G_ii + G_ss − 2 G_is); every point
// joins its nearest seed. Stops early if all points sit on seeds.
void seed_kmeanspp(const double *gram, int64_t m, int64_t k, Rng &rng, double *nearest_sqdist, int32_t *assignment) {
    std::fill(nearest_sqdist, nearest_sqdist + m, std::numeric_limits<double>::infinity());
    int64_t seed = int64_t(rng.below(uint64_t(m)));
    for (int64_t c = 0; c < k; ++c) {
        double total = 0;
        for (int64_t i = 0; i < m; ++i) {
            const double sqdist = std::max(0.0, gram[i * m + i] + gram[seed * m + seed] - 2.0 * gram[i * m + seed]);
            if (sqdist < nearest_sqdist[i]) {
                nearest_sqdist[i] = sqdist;
                assignment[i] = int32_t(c);
            }
            total += nearest_sqdist[i];
        }
        if (c + 1 == k || !(total > 0)) return;
        double target = rng.uniform() * total;
        seed = m - 1;
        for (int64_t i = 0; i < m; ++i) {
            target -= nearest_sqdist[i];
            if (target < 0 && nearest_sqdist[i] > 0) {
                seed = i;
                break;
            }
        }
    }
}

struct GramScratch {
    double *nearest_sqdist;  // m
    ClusterStats stats;
};

GramScratch carve_gram_scratch(ScratchCarver &carver, int64_t m, int64_t k) {
    GramScratch s;
    s.nearest_sqdist = carver.take<double>(size_t(m));
    s.stats = carve_stats(carver, m, k);
    return s;
}

// Seeding and Lloyd's iterations (see kernel_kmeans_gram); s.stats ends up
// describing the returned assignment.
int run_kernel_kmeans(const double *gram, int64_t m, int64_t k, int max_iter, Rng &rng, int threads, GramScratch &s,
                      int32_t *assignment, double *history) {
    seed_kmeanspp(gram, m, std::min(k, m), rng, s.nearest_sqdist, assignment);
    double objective = update_stats(gram, m, k, assignment, threads, s.stats);
    if (history) history[0] = objective;
    int iterations = 0;
    while (iterations < max_iter && reassign(m, k, s.stats, assignment) > 0) {
        objective = update_stats(gram, m, k, assignment, threads, s.stats);
        ++iterations;
        if (history) history[iterations] = objective;
    }
    return iterations;
}

// ------------------------------------------------------------ step 1 layout

struct SampleScratch {
    RowView sample;
    double *gram;         // m×m: G
    int32_t *assignment;  // m
    GramScratch lloyd;
};

SampleScratch carve_sample_scratch(ScratchCarver &carver, const Dataset &data, int64_t m, int64_t k,
                                   int64_t row_nonzeros) {
    SampleScratch s;
    s.sample = carve_row_view(carver, data, m, row_nonzeros);
    s.gram = carver.take<double>(size_t(m * m));
    s.assignment = carver.take<int32_t>(size_t(m));
    s.lloyd = carve_gram_scratch(carver, m, k);
    return s;
}

// The partition of the sample by `assignment`, empty clusters dropped and the
// rest renumbered in order; self_c from the final Lloyd stats.
KernelPartition build_partition(const std::vector<int64_t> &sample_rows, const int32_t *assignment, int64_t k,
                                const ClusterStats &stats) {
    KernelPartition p;
    std::vector<int32_t> renumber(size_t(k), -1);
    for (int64_t c = 0; c < k; ++c) {
        if (stats.size[c] == 0) continue;
        renumber[size_t(c)] = int32_t(p.k++);
        p.cluster_size.push_back(stats.size[c]);
        p.cluster_self.push_back(stats.self[c]);
    }
    p.sample_rows = sample_rows;
    p.sample_cluster.resize(sample_rows.size());
    for (size_t i = 0; i < sample_rows.size(); ++i) p.sample_cluster[i] = renumber[size_t(assignment[i])];
    return p;
}

// ------------------------------------------------------------ step 2 layout

struct AssignScratch {
    RowView sample;
    RowView block;
    double *kernel_values;  // block × m: K(x, x_j)
    double *cluster_sums;   // block × k: Σ_{j∈S_c} K(x, x_j)
};

AssignScratch carve_assign_scratch(ScratchCarver &carver, const Dataset &partition_data, int64_t m, int64_t k,
                                   int64_t sample_nonzeros, const Dataset &points, int64_t block_nonzeros) {
    AssignScratch s;
    s.sample = carve_row_view(carver, partition_data, m, sample_nonzeros);
    s.block = carve_row_view(carver, points, kAssignBlockRows, block_nonzeros);
    s.kernel_values = carver.take<double>(size_t(kAssignBlockRows * m));
    s.cluster_sums = carver.take<double>(size_t(kAssignBlockRows * k));
    return s;
}

// The row's score (dist² up to a constant) to each of the k clusters from its
// kernel values against the sample.
void cluster_scores(const KernelPartition &partition, const double *kernel_values, double *scores) {
    const int64_t m = int64_t(partition.sample_rows.size()), k = partition.k;
    std::fill(scores, scores + k, 0.0);
    for (int64_t j = 0; j < m; ++j) scores[partition.sample_cluster[size_t(j)]] += kernel_values[j];
    for (int64_t c = 0; c < k; ++c)
        scores[c] = partition.cluster_self[size_t(c)] - 2.0 * scores[c] / double(partition.cluster_size[size_t(c)]);
}

// The `count` lowest scores' clusters, lowest first (ties: the lower cluster).
void lowest_scores(const double *scores, int64_t k, int count, int32_t *clusters, double *lowest) {
    int kept = 0;
    for (int64_t c = 0; c < k; ++c) {
        if (kept == count && scores[c] >= lowest[kept - 1]) continue;
        int at = std::min(kept, count - 1);
        for (; at > 0 && scores[c] < lowest[at - 1]; --at) {
            clusters[at] = clusters[at - 1];
            lowest[at] = lowest[at - 1];
        }
        clusters[at] = int32_t(c);
        lowest[at] = scores[c];
        kept = std::min(kept + 1, count);
    }
    for (int r = kept; r < count; ++r) {  // fewer clusters than asked: repeat the farthest
        clusters[r] = clusters[kept - 1];
        lowest[r] = lowest[kept - 1];
    }
}

constexpr int kMaxRunnerUpChoices = 15;

// Nearest cluster of each of `count` rows from their kernel values against the sample.
void nearest_clusters(const KernelPartition &partition, const double *kernel_values, int64_t count,
                      double *cluster_sums, int threads, int32_t *cluster_of, RunnerUp runner_up) {
    const int64_t m = int64_t(partition.sample_rows.size()), k = partition.k;
    const int choices = runner_up.cluster ? runner_up.choices : 0;
    parallel_for(count, threads, [&](int64_t i) {
        double *scores = cluster_sums + i * k;
        cluster_scores(partition, kernel_values + i * m, scores);
        int32_t nearest[kMaxRunnerUpChoices + 1];
        double lowest[kMaxRunnerUpChoices + 1];
        lowest_scores(scores, k, choices + 1, nearest, lowest);
        cluster_of[i] = nearest[0];
        for (int r = 0; r < choices; ++r) {
            runner_up.cluster[i * choices + r] = nearest[r + 1];
            runner_up.margin[i * choices + r] = float(lowest[r + 1] - lowest[0]);
        }
    });
}

int64_t effective_sample_size(int64_t pool_size, int64_t sample_size) {
    return std::max<int64_t>(1, std::min(pool_size, sample_size));
}

}  // namespace

// ------------------------------------------------------------------ public

size_t kernel_kmeans_gram_workspace_bytes(int64_t m, int64_t k) {
    ScratchCarver carver;
    carve_gram_scratch(carver, m, k);
    return carver.bytes();
}

int kernel_kmeans_gram(const double *gram, int64_t m, int64_t k, int max_iter, Rng &rng, Arena &scratch, int threads,
                       int32_t *assignment, double *history) {
    require(m > 0 && k > 0, "kernel k-means: needs m > 0 points and k > 0 clusters");
    ArenaScope scope(scratch);
    ScratchCarver carver(scratch);
    GramScratch s = carve_gram_scratch(carver, m, k);
    return run_kernel_kmeans(gram, m, k, max_iter, rng, threads, s, assignment, history);
}

size_t kernel_kmeans_sample_workspace_bytes(const Dataset &data, const KernelSpec &kernel, int64_t k,
                                            int64_t sample_size) {
    const int64_t m = effective_sample_size(data.n, sample_size);
    ScratchCarver carver;
    carve_sample_scratch(carver, data, m, std::min(k, m), max_row_nonzeros(data));
    WorkspacePlan plan;
    plan.add_bytes(carver.bytes());
    plan.add_bytes(kernel_block_rows_workspace_bytes(kernel, data, m, data, m));
    return plan.bytes();
}

KernelPartition kernel_kmeans_sample(Context &ctx, Arena &scratch, const Dataset &data, const int64_t *rows, int64_t n,
                                     const std::vector<int64_t> &sample_from, const KernelSpec &kernel, int64_t k,
                                     int64_t sample_size) {
    require(n > 0 && k > 0 && sample_size > 0, "kernel k-means: needs rows, k > 0 and sample_size > 0");
    const bool adaptive = !sample_from.empty();
    const int64_t pool_size = adaptive ? int64_t(sample_from.size()) : n;
    const int64_t m = effective_sample_size(pool_size, sample_size);
    k = std::min(k, m);
    Rng rng(ctx.seed);
    const std::vector<int64_t> sample_rows = draw_sample(rng, adaptive ? sample_from.data() : rows, pool_size, m);

    ArenaScope scope(scratch);
    ScratchCarver carver(scratch);
    SampleScratch s = carve_sample_scratch(carver, data, m, k, max_row_nonzeros(data));
    const Dataset &sample = fill_row_view(s.sample, data, sample_rows.data(), 0, m);
    kernel_block_rows(kernel, sample, 0, m, sample, 0, m, s.gram, m, scratch, ctx.threads);
    ctx.check_cancel();
    run_kernel_kmeans(s.gram, m, k, kKernelKMeansMaxIter, rng, ctx.threads, s.lloyd, s.assignment, nullptr);
    return build_partition(sample_rows, s.assignment, k, s.lloyd.stats);
}

KernelPartition kernel_kmeans_sample(Context &ctx, const Dataset &data, const int64_t *rows, int64_t n,
                                     const std::vector<int64_t> &sample_from, const KernelSpec &kernel, int64_t k,
                                     int64_t sample_size) {
    Arena scratch = ctx.reserve(kernel_kmeans_sample_workspace_bytes(data, kernel, k, sample_size), "kernel k-means");
    return kernel_kmeans_sample(ctx, scratch, data, rows, n, sample_from, kernel, k, sample_size);
}

size_t kernel_partition_assign_workspace_bytes(const Dataset &partition_data, int64_t sample_size, int64_t k,
                                               const Dataset &points, const KernelSpec &kernel) {
    ScratchCarver carver;
    carve_assign_scratch(carver, partition_data, sample_size, k, max_row_nonzeros(partition_data), points,
                         max_row_nonzeros(points));
    WorkspacePlan plan;
    plan.add_bytes(carver.bytes());
    plan.add_bytes(kernel_block_rows_workspace_bytes(kernel, points, kAssignBlockRows, partition_data, sample_size));
    return plan.bytes();
}

void kernel_partition_assign(Context &ctx, Arena &scratch, const Dataset &partition_data,
                             const KernelPartition &partition, const Dataset &points, const int64_t *rows, int64_t n,
                             const KernelSpec &kernel, int32_t *cluster_of, RunnerUp runner_up) {
    const int64_t m = int64_t(partition.sample_rows.size());
    require(partition.k > 0 && m > 0, "kernel partition assign: the partition is empty");
    require(!runner_up.cluster || (runner_up.choices >= 1 && runner_up.choices <= kMaxRunnerUpChoices),
            "kernel partition assign: runner-up choices must be 1 to 15");
    ArenaScope scope(scratch);
    ScratchCarver carver(scratch);
    AssignScratch s = carve_assign_scratch(carver, partition_data, m, partition.k, max_row_nonzeros(partition_data),
                                           points, max_row_nonzeros(points));
    const Dataset &sample = fill_row_view(s.sample, partition_data, partition.sample_rows.data(), 0, m);
    for (int64_t begin = 0; begin < n; begin += kAssignBlockRows) {
        const int64_t count = std::min(kAssignBlockRows, n - begin);
        const Dataset &block = fill_row_view(s.block, points, rows ? rows + begin : nullptr, begin, count);
        kernel_block_rows(kernel, block, 0, count, sample, 0, m, s.kernel_values, m, scratch, ctx.threads);
        const int64_t first = begin * runner_up.choices;
        const RunnerUp block_runner_up =
            runner_up.cluster ? RunnerUp{runner_up.cluster + first, runner_up.margin + first, runner_up.choices}
                              : RunnerUp{};
        nearest_clusters(partition, s.kernel_values, count, s.cluster_sums, ctx.threads, cluster_of + begin,
                         block_runner_up);
        ctx.check_cancel();
    }
}

void kernel_partition_assign(Context &ctx, const Dataset &partition_data, const KernelPartition &partition,
                             const Dataset &points, const int64_t *rows, int64_t n, const KernelSpec &kernel,
                             int32_t *cluster_of) {
    Arena scratch = ctx.reserve(kernel_partition_assign_workspace_bytes(
                                    partition_data, int64_t(partition.sample_rows.size()), partition.k, points, kernel),
                                "kernel partition assign");
    kernel_partition_assign(ctx, scratch, partition_data, partition, points, rows, n, kernel, cluster_of);
}

}  // namespace kmx
