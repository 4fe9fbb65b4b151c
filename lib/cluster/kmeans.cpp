// kmeans.cpp — Lloyd's algorithm for weighted k-means, and assignment of
// points to given centers.
//
// Each pass walks the rows in blocks (row_blocks.h): one GEMM per block gives
// the inner products with all centers, the argmin picks each row's center,
// and ‖x‖² + ‖c‖² − 2⟨x, c⟩ (clamped at 0) feeds the objective that decides
// when to stop. The same pass adds every row into its slot's per-center sums,
// so the next center update needs no second pass over the data. Slots are
// merged in slot order, so results depend only on the seed and the thread
// count. After the last pass the objective is recomputed from exact squared
// differences for the returned centers and assignment.
#include "kmeans.h"

#include <algorithm>
#include <climits>

#include "core/context.h"
#include "core/dataset.h"
#include "core/error.h"
#include "distances.h"
#include "kmeans_seeding.h"
#include "row_blocks.h"
#include "core/scratch_carver.h"

namespace kmx {

namespace {

using cluster::BlockBuffers;
using cluster::CenterSet;
using cluster::RowPartition;
using cluster::ScratchCarver;

// One slot's sums over the rows it assigned, for the next center update.
struct ClusterSums {
    double *coordinates;  // k x d: Σ w_i x_i per center
    double *weights;      // k: Σ w_i per center
    int64_t *members;     // k: rows of positive weight per center
    double objective;     // Σ w_i ‖x_i − c_a(i)‖² over the slot's rows
};

// A row that may re-seat an empty cluster, ranked by its weighted squared distance.
struct FarRow {
    double weighted_sqdist;
    int64_t row;
};

// Per-row arrays that seeding and Lloyd share.
struct RowScratch {
    double *row_sqnorms;  // n: ‖x_i‖²
    double *sqdist;       // n: squared distance to the nearest center so far
};

struct LloydScratch {
    double *center_sqnorms;            // k
    linalg::PackedRows center_panels;  // the centers in the GEMM's panels (empty where unused)
    BlockBuffers *buffers;             // one per slot
    ClusterSums *sums;                 // one per slot
    FarRow *far_rows;                  // k: candidates for empty clusters
};

struct AssignScratch {
    double *center_sqnorms;            // k
    linalg::PackedRows center_panels;  // the centers in the GEMM's panels (empty where unused)
    BlockBuffers *buffers;             // one per slot
};

// ------------------------------------------------------------------ layout

RowScratch carve_rows(ScratchCarver &carver, const Dataset &data) {
    RowScratch s;
    s.row_sqnorms = carver.take<double>(size_t(data.n));
    s.sqdist = carver.take<double>(size_t(data.n));
    return s;
}

// Block buffers, and the centers' panels with each block's GEMM scratch where they are used.
BlockBuffers *carve_buffers(ScratchCarver &carver, const Dataset &data, const RowPartition &partition, int64_t k,
                            linalg::PackedRows &panels) {
    if (!cluster::centers_in_panels(partition.block_rows, k, data.d))
        return cluster::carve_block_buffers(carver, data, partition, k);
    panels = cluster::carve_center_panels(carver, k, data.d);
    return cluster::carve_block_buffers(carver, data, partition, k,
                                        cluster::nearest_centers_gemm_bytes(partition.block_rows, data.d));
}

LloydScratch carve_lloyd(ScratchCarver &carver, const Dataset &data, const RowPartition &partition, int64_t k) {
    LloydScratch s;
    s.center_sqnorms = carver.take<double>(size_t(k));
    s.buffers = carve_buffers(carver, data, partition, k, s.center_panels);
    s.sums = carver.take<ClusterSums>(size_t(partition.slots));
    for (int slot = 0; slot < partition.slots; ++slot) {
        const ClusterSums carved{carver.take<double>(size_t(k * data.d)), carver.take<double>(size_t(k)),
                                 carver.take<int64_t>(size_t(k)), 0.0};
        if (s.sums) s.sums[slot] = carved;
    }
    s.far_rows = carver.take<FarRow>(size_t(k));
    return s;
}

AssignScratch carve_assign(ScratchCarver &carver, const Dataset &data, const RowPartition &partition, int64_t k) {
    AssignScratch s;
    s.center_sqnorms = carver.take<double>(size_t(k));
    s.buffers = carve_buffers(carver, data, partition, k, s.center_panels);
    return s;
}

void require_cluster_count(const Dataset &data, int64_t k) {
    if (k < 1 || k > data.n || k > INT32_MAX)
        fail(KMX_E_INVALID_ARGUMENT, "k = %lld clusters must be in [1, n = %lld]", (long long)k, (long long)data.n);
}

void require_center_count(int64_t k) {
    if (k < 1 || k > INT32_MAX) fail(KMX_E_INVALID_ARGUMENT, "k = %lld centers must be in [1, 2^31)", (long long)k);
}

void require_options(const KMeansOptions &options) {
    if (options.max_iter < 1)
        fail(KMX_E_INVALID_ARGUMENT, "max_iter = %d: k-means needs at least one iteration", options.max_iter);
    if (!(options.tol >= 0 && options.tol < 1)) fail(KMX_E_INVALID_ARGUMENT, "tol = %g must be in [0, 1)", options.tol);
}

// ------------------------------------------------------------- assignment

// k centers with their squared norms, and in the GEMM's panels where used
// (panels not empty).
CenterSet prepare_centers(const double *centers, int64_t k, int64_t d, double *sqnorms, linalg::PackedRows &panels) {
    cluster::center_squared_norms(centers, k, d, sqnorms);
    if (panels.rows() == 0) return {centers, sqnorms, k, d};
    cluster::pack_centers(centers, panels);
    return {centers, sqnorms, k, d, &panels};
}

// sqdist_i = Σ_j (x_ij − c_a(i),j)² for rows [begin, end), whose dense rows are x.
void exact_sqdist(const Dataset &data, const double *x, int64_t begin, int64_t end, const CenterSet &centers,
                  const int32_t *assignment, double *sqdist) {
    for (int64_t i = begin; i < end; ++i)
        sqdist[i] = cluster::squared_distance(x + (i - begin) * data.d, centers.rows + assignment[i] * data.d, data.d);
}

// Σ_i w_i ‖x_i − c_a(i)‖² from exact squared differences (left in sqdist),
// summed in row order.
double exact_objective(const Dataset &data, const RowPartition &partition, const CenterSet &centers,
                       const BlockBuffers *buffers, const int32_t *assignment, double *sqdist) {
    cluster::for_each_block(partition, [&](int slot, int64_t begin, int64_t end) {
        const double *x = cluster::dense_rows(data, begin, end, buffers[slot].rows);
        exact_sqdist(data, x, begin, end, centers, assignment, sqdist);
    });
    double objective = 0;
    for (int64_t i = 0; i < data.n; ++i) objective += cluster::weight_of(data, i) * sqdist[i];
    return objective;
}

void clear(ClusterSums &sums, int64_t k, int64_t d) {
    std::fill(sums.coordinates, sums.coordinates + k * d, 0.0);
    std::fill(sums.weights, sums.weights + k, 0.0);
    std::fill(sums.members, sums.members + k, int64_t(0));
    sums.objective = 0;
}

// Assigns every row to its nearest center (squared distance in rows.sqdist),
// accumulating each slot's sums for the next update; returns the objective.
double assign_and_accumulate(const Dataset &data, const RowPartition &partition, const CenterSet &centers,
                             const LloydScratch &s, const RowScratch &rows, int32_t *assignment) {
    const int64_t d = data.d;
    for (int slot = 0; slot < partition.slots; ++slot) clear(s.sums[slot], centers.k, d);
    cluster::for_each_block(partition, [&](int slot, int64_t begin, int64_t end) {
        ClusterSums &sums = s.sums[slot];
        BlockBuffers &buffers = s.buffers[slot];
        const double *x = cluster::dense_rows(data, begin, end, buffers.rows);
        cluster::nearest_centers(x, end - begin, centers, buffers.dots, assignment + begin, rows.sqdist + begin,
                                 &buffers.gemm);
        double block_objective = 0;
        for (int64_t i = begin; i < end; ++i) {
            const double w = cluster::weight_of(data, i);
            rows.sqdist[i] = std::max(0.0, rows.row_sqnorms[i] + rows.sqdist[i]);
            block_objective += w * rows.sqdist[i];
            if (!(w > 0)) continue;
            const int32_t c = assignment[i];
            cluster::add_scaled(w, x + (i - begin) * d, sums.coordinates + c * d, d);
            sums.weights[c] += w;
            ++sums.members[c];
        }
        sums.objective += block_objective;
    });
    double objective = 0;
    for (int slot = 0; slot < partition.slots; ++slot) objective += s.sums[slot].objective;
    return objective;
}

// ----------------------------------------------------------- center update

// Adds the sums of slots 1, 2, ... into slot 0, in that order; returns slot 0.
ClusterSums &merge_slots(const LloydScratch &s, int slots, int64_t k, int64_t d) {
    ClusterSums &total = s.sums[0];
    for (int slot = 1; slot < slots; ++slot) {
        const ClusterSums &part = s.sums[slot];
        cluster::add_scaled(1.0, part.coordinates, total.coordinates, k * d);
        cluster::add_scaled(1.0, part.weights, total.weights, k);
        for (int64_t c = 0; c < k; ++c) total.members[c] += part.members[c];
    }
    return total;
}

bool ranks_before(const FarRow &a, const FarRow &b) {
    return a.weighted_sqdist > b.weighted_sqdist || (a.weighted_sqdist == b.weighted_sqdist && a.row < b.row);
}

// The (up to) `count` rows with the largest positive w_i·sqdist_i, largest
// first, ties to the lower row; returns how many there are. A heap of the
// best `count` so far, whose front is the weakest of them.
int64_t farthest_rows(const Dataset &data, const double *sqdist, int64_t count, FarRow *far) {
    int64_t kept = 0;
    for (int64_t i = 0; i < data.n; ++i) {
        const FarRow candidate{cluster::weight_of(data, i) * sqdist[i], i};
        if (!(candidate.weighted_sqdist > 0)) continue;
        if (kept < count) {
            far[kept++] = candidate;
            std::push_heap(far, far + kept, ranks_before);
        } else if (ranks_before(candidate, far[0])) {
            std::pop_heap(far, far + kept, ranks_before);
            far[kept - 1] = candidate;
            std::push_heap(far, far + kept, ranks_before);
        }
    }
    std::sort_heap(far, far + kept, ranks_before);
    return kept;
}

// Re-seats each cluster without members at one of the rows farthest from
// their centers, taking that row out of its old cluster (as scikit-learn
// does), so the objective cannot grow. A cluster left without members (no far
// row remained) keeps its center. Returns the number of clusters re-seated.
int64_t reseat_empty_clusters(const Dataset &data, const int32_t *assignment, const double *sqdist,
                              const LloydScratch &s, ClusterSums &total, int64_t k) {
    const int64_t d = data.d;
    const int64_t empty = std::count(total.members, total.members + k, int64_t(0));
    if (empty == 0) return 0;
    const int64_t available = farthest_rows(data, sqdist, empty, s.far_rows);
    int64_t next = 0;
    for (int64_t c = 0; c < k && next < available; ++c) {
        if (total.members[c] != 0) continue;
        const int64_t i = s.far_rows[next++].row;
        const double w = cluster::weight_of(data, i);
        const int32_t old = assignment[i];
        const double *x = cluster::dense_rows(data, i, i + 1, s.buffers[0].rows);
        cluster::add_scaled(-w, x, total.coordinates + old * d, d);
        total.weights[old] -= w;
        --total.members[old];
        std::fill(total.coordinates + c * d, total.coordinates + (c + 1) * d, 0.0);
        cluster::add_scaled(w, x, total.coordinates + c * d, d);
        total.weights[c] = w;
        total.members[c] = 1;
    }
    return next;
}

// Every center with members becomes their weighted mean. Returns the number
// of empty clusters re-seated.
int64_t update_centers(const Dataset &data, const int32_t *assignment, const double *sqdist, const LloydScratch &s,
                       int slots, int64_t k, double *centers) {
    const int64_t d = data.d;
    ClusterSums &total = merge_slots(s, slots, k, d);
    const int64_t reseated = reseat_empty_clusters(data, assignment, sqdist, s, total, k);
    for (int64_t c = 0; c < k; ++c) {
        if (total.members[c] == 0 || !(total.weights[c] > 0)) continue;
        for (int64_t j = 0; j < d; ++j) centers[c * d + j] = total.coordinates[c * d + j] / total.weights[c];
    }
    return reseated;
}

// ----------------------------------------------------------------- seeding

void seed_centers(Context &ctx, Arena &scratch, const Dataset &data, const RowPartition &partition,
                  KMeansSeeding seeding, int64_t k, const RowScratch &rows, double *centers, int64_t *seed_rows) {
    const auto seed =
        seeding == KMeansSeeding::rounds ? cluster::seed_kmeans_in_rounds : cluster::seed_kmeans_plus_plus;
    seed(ctx, scratch, data, partition, k, rows.row_sqnorms, centers, rows.sqdist, seed_rows);
}

size_t seeding_workspace_bytes(const Dataset &data, const RowPartition &partition, int64_t k) {
    return std::max(cluster::kmeans_seeding_workspace_bytes(data, partition, k),
                    cluster::kmeans_rounds_seeding_workspace_bytes(data, partition, k));
}

}  // namespace

// ---------------------------------------------------------------- k-means

KMeansResult kmeans(Context &ctx, Arena &scratch, const Dataset &data, const KMeansOptions &options, double *centers,
                    int32_t *assignment, double *history) {
    require_cluster_count(data, options.k);
    require_options(options);
    require(centers != nullptr, "k-means: centers is NULL");
    require(assignment != nullptr, "k-means: assignment is NULL");
    const int64_t k = options.k;
    const RowPartition partition = cluster::partition_rows(data, k, ctx.threads);  // for seeding and Lloyd
    const ArenaScope scope(scratch);
    ScratchCarver carver(scratch);
    const RowScratch rows = carve_rows(carver, data);
    cluster::row_squared_norms(data, partition, rows.row_sqnorms);
    if (options.initial_centers) {
        check_finite(options.initial_centers, k, data.d, "k-means initial centers");
        std::copy(options.initial_centers, options.initial_centers + k * data.d, centers);
    } else {
        seed_centers(ctx, scratch, data, partition, options.seeding, k, rows, centers, nullptr);
    }
    LloydScratch s = carve_lloyd(carver, data, partition, k);
    const CenterSet center_set = prepare_centers(centers, k, data.d, s.center_sqnorms, s.center_panels);
    KMeansResult result;
    result.objective = assign_and_accumulate(data, partition, center_set, s, rows, assignment);
    if (history) history[0] = result.objective;
    while (result.iterations < options.max_iter) {
        ctx.progress(double(result.iterations) / options.max_iter, "k-means");
        const int64_t reseated = update_centers(data, assignment, rows.sqdist, s, partition.slots, k, centers);
        if (reseated > 0)
            ctx.log(KMX_LOG_DEBUG, "k-means: iteration %d re-seated %lld empty clusters", result.iterations + 1,
                    (long long)reseated);
        prepare_centers(centers, k, data.d, s.center_sqnorms, s.center_panels);
        const double previous = result.objective;
        result.objective = assign_and_accumulate(data, partition, center_set, s, rows, assignment);
        ++result.iterations;
        if (history) history[result.iterations] = result.objective;
        if (previous - result.objective <= options.tol * previous) break;
    }
    result.objective = exact_objective(data, partition, center_set, s.buffers, assignment, rows.sqdist);
    ctx.log(KMX_LOG_DEBUG, "k-means: n = %lld, k = %lld, %d iterations, objective %.17g", (long long)data.n,
            (long long)k, result.iterations, result.objective);
    return result;
}

size_t kmeans_workspace_bytes(const Dataset &data, int64_t k, int threads) {
    require_cluster_count(data, k);
    const RowPartition partition = cluster::partition_rows(data, k, threads);
    ScratchCarver common, lloyd;
    carve_rows(common, data);
    carve_lloyd(lloyd, data, partition, k);
    // The seeding's scratch (either kind) is released before Lloyd's is carved.
    return common.bytes() + std::max(seeding_workspace_bytes(data, partition, k), lloyd.bytes());
}

void kmeans_seeds(Context &ctx, Arena &scratch, const Dataset &data, const KMeansOptions &options, double *centers,
                  int64_t *seed_rows) {
    require_cluster_count(data, options.k);
    require(centers != nullptr && seed_rows != nullptr, "k-means seeds: centers or seed_rows is NULL");
    const RowPartition partition = cluster::partition_rows(data, options.k, ctx.threads);
    const ArenaScope scope(scratch);
    ScratchCarver carver(scratch);
    const RowScratch rows = carve_rows(carver, data);
    cluster::row_squared_norms(data, partition, rows.row_sqnorms);
    seed_centers(ctx, scratch, data, partition, options.seeding, options.k, rows, centers, seed_rows);
}

size_t kmeans_seeds_workspace_bytes(const Dataset &data, int64_t k, int threads) {
    require_cluster_count(data, k);
    const RowPartition partition = cluster::partition_rows(data, k, threads);
    ScratchCarver common;
    carve_rows(common, data);
    return common.bytes() + seeding_workspace_bytes(data, partition, k);
}

// ------------------------------------------------------------- assignment

void kmeans_assign(Context &ctx, Arena &scratch, const Dataset &data, const double *centers, int64_t k,
                   int32_t *assignment, double *sqdist) {
    require_center_count(k);
    require(centers != nullptr, "k-means assignment: centers is NULL");
    require(assignment != nullptr, "k-means assignment: assignment is NULL");
    ctx.check_cancel();
    const RowPartition partition = cluster::partition_rows(data, k, ctx.threads);
    const ArenaScope scope(scratch);
    ScratchCarver carver(scratch);
    AssignScratch s = carve_assign(carver, data, partition, k);
    const CenterSet center_set = prepare_centers(centers, k, data.d, s.center_sqnorms, s.center_panels);
    cluster::for_each_block(partition, [&](int slot, int64_t begin, int64_t end) {
        BlockBuffers &buffers = s.buffers[slot];
        const double *x = cluster::dense_rows(data, begin, end, buffers.rows);
        cluster::nearest_centers(x, end - begin, center_set, buffers.dots, assignment + begin, nullptr, &buffers.gemm);
        if (sqdist) exact_sqdist(data, x, begin, end, center_set, assignment, sqdist);
    });
}

size_t kmeans_assign_workspace_bytes(const Dataset &data, int64_t k, int threads) {
    require_center_count(k);
    ScratchCarver sizing;
    carve_assign(sizing, data, cluster::partition_rows(data, k, threads), k);
    return sizing.bytes();
}

}  // namespace kmx
