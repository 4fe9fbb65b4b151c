// rank_basis.cpp — the basis, identical on every rank (see rank_basis.h).
#include "rank_basis.h"

#include <algorithm>
#include <cmath>

#include "approx/landmarks.h"
#include "cluster/distances.h"
#include "core/context.h"
#include "core/reproducible_sum.h"
#include "core/rng.h"

namespace kmx {

namespace {

constexpr int64_t kKMeansBlockRows = 1024;

int64_t kmeans_block_rows(const Dataset &local) { return std::max<int64_t>(1, std::min(local.n, kKMeansBlockRows)); }

}  // namespace

RankRows rank_rows(const Communicator &comm, int64_t local_rows) {
    std::vector<double> counts(size_t(comm.size()), 0.0);
    counts[size_t(comm.rank())] = double(local_rows);
    comm.sum(counts.data(), int64_t(counts.size()));
    RankRows where;
    for (int r = 0; r < comm.size(); ++r) {
        if (r < comm.rank()) where.first += int64_t(counts[size_t(r)]);
        where.total += int64_t(counts[size_t(r)]);
    }
    return where;
}

std::vector<int64_t> basis_row_order(uint64_t seed, int64_t total, int64_t m) {
    Rng rng = Rng(seed).split(0x7E0B);
    std::vector<int64_t> rows = sample_rows(rng, total, m);  // increasing
    for (int64_t i = m - 1; i > 0; --i) std::swap(rows[size_t(i)], rows[size_t(rng.below(uint64_t(i + 1)))]);
    return rows;
}

void gather_global_rows(const Communicator &comm, const Dataset &local, const RankRows &where, const int64_t *rows,
                        int64_t count, double *out) {
    std::fill(out, out + count * local.d, 0.0);
    for (int64_t k = 0; k < count; ++k) {
        const int64_t row = rows[k] - where.first;
        if (row >= 0 && row < local.n) gather_rows(local, &row, 1, out + k * local.d);
    }
    comm.sum(out, count * local.d);  // x + 0 + … + 0 = x exactly: the same bits on every rank
}

size_t kmeans_basis_workspace_bytes(const Dataset &local, int64_t m) {
    const int64_t block = kmeans_block_rows(local);
    WorkspacePlan plan;
    plan.add<double>(size_t(block * local.d));  // dense copy of a block of rows
    plan.add<double>(size_t(block * m));        // their dots with the centers
    plan.add<int32_t>(size_t(block));
    plan.add<double>(size_t(m));  // ‖center‖²
    return plan.bytes();
}

namespace {

// The largest |x_ij| over every rank's rows: the bound of the k-means sums.
double largest_feature(const Communicator &comm, const Dataset &local, double *rows, int64_t block) {
    double largest = 0;
    for (int64_t begin = 0; begin < local.n; begin += block) {
        const int64_t end = std::min(local.n, begin + block);
        local.copy_rows(begin, end, rows);
        for (int64_t i = 0; i < (end - begin) * local.d; ++i) largest = std::max(largest, std::fabs(rows[i]));
    }
    comm.max(&largest, 1);
    return largest;
}

}  // namespace

void refine_basis_kmeans(Context &ctx, const Dataset &local, int64_t total_rows, double *centers, int64_t first_free,
                         int64_t m, int iterations, Arena &scratch) {
    const int64_t d = local.d, block = kmeans_block_rows(local), free_count = m - first_free;
    if (free_count <= 0) return;
    const ArenaScope scope(scratch);
    double *rows = scratch.alloc<double>(size_t(block * d));
    double *dots = scratch.alloc<double>(size_t(block * m));
    int32_t *nearest = scratch.alloc<int32_t>(size_t(block));
    double *sqnorms = scratch.alloc<double>(size_t(m));
    std::vector<double> sums(size_t(free_count * (d + 1)));  // per free center: Σ x (d), then the count
    const double bound = std::max(1.0, largest_feature(ctx.comm, local, rows, block));  // the counts add 1s
    BinnedSum binned;
    for (int it = 0; it < iterations; ++it) {
        cluster::center_squared_norms(centers, m, d, sqnorms);
        const cluster::CenterSet set{centers, sqnorms, m, d};
        binned.start(free_count * (d + 1), total_rows, bound);
        run_agreed(ctx.comm, [&] {  // a cancel on one rank stops every rank here
            for (int64_t begin = 0; begin < local.n; begin += block) {
                const int64_t end = std::min(local.n, begin + block);
                local.copy_rows(begin, end, rows);
                cluster::nearest_centers(rows, end - begin, set, dots, nearest, nullptr);
                for (int64_t i = 0; i < end - begin; ++i) {
                    const int64_t c = nearest[i] - first_free;
                    if (c < 0) continue;
                    binned.add_scaled(c * (d + 1), 1.0, rows + i * d, d);
                    binned.add(c * (d + 1) + d, 1.0);
                }
                ctx.check_cancel();
            }
        });
        std::vector<BinnedTarget> target{{&binned, sums.data()}};
        reduce_binned(ctx.comm, target);  // every term within the bound: true
        for (int64_t c = 0; c < free_count; ++c) {
            const double *sum = sums.data() + c * (d + 1);
            if (sum[d] == 0) continue;
            for (int64_t j = 0; j < d; ++j) centers[(first_free + c) * d + j] = sum[j] / sum[d];
        }
    }
}

}  // namespace kmx
