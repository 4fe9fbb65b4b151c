// balance_clusters.cpp — see balance_clusters.h.
#include "balance_clusters.h"

#include <algorithm>
#include <numeric>

namespace kmx {

size_t balance_clusters_workspace_bytes(int64_t n, int64_t k) {
    return WorkspacePlan()
        .add<int64_t>(size_t(k))      // sizes
        .add<int64_t>(size_t(k + 1))  // offsets of each cluster's rows in `members`
        .add<int64_t>(size_t(k))      // clusters, largest first
        .add<int64_t>(size_t(n))      // members, grouped by cluster
        .bytes();
}

void group_rows_by_cluster(const int32_t *cluster_of, int64_t n, int64_t k, int64_t *offsets, int64_t *members) {
    std::fill(offsets, offsets + k + 1, int64_t(0));
    for (int64_t i = 0; i < n; ++i) ++offsets[cluster_of[i] + 1];
    std::partial_sum(offsets, offsets + k + 1, offsets);
    for (int64_t i = 0; i < n; ++i) members[offsets[cluster_of[i]]++] = i;  // offsets[c] ends at c's end
    for (int64_t c = k; c > 0; --c) offsets[c] = offsets[c - 1];
    offsets[0] = 0;
}

namespace {

// One pass: in each cluster above the cap (largest first), its rows still in it
// move to their choice-th runner-up while that has room, cheapest first.
int64_t move_to_choice(int32_t *cluster_of, const RunnerUp &runner_up, int choice, int64_t k, int64_t cap,
                       const int64_t *offsets, int64_t *members, int64_t *sizes, int64_t *by_size) {
    std::iota(by_size, by_size + k, int64_t(0));
    std::stable_sort(by_size, by_size + k, [&](int64_t a, int64_t b) { return sizes[a] > sizes[b]; });
    const auto at = [&](int64_t row) { return size_t(row * runner_up.choices + choice); };
    int64_t moved = 0;
    for (int64_t rank = 0; rank < k && sizes[by_size[rank]] > cap; ++rank) {
        const int64_t c = by_size[rank];
        int64_t *begin = members + offsets[c], *end = members + offsets[c + 1];
        end = std::partition(begin, end, [&](int64_t row) { return cluster_of[row] == c; });  // not those gone
        // Cheapest moves first; ties by row, so the result depends on nothing else.
        std::sort(begin, end, [&](int64_t a, int64_t b) {
            return runner_up.margin[at(a)] != runner_up.margin[at(b)] ? runner_up.margin[at(a)] < runner_up.margin[at(b)]
                                                                      : a < b;
        });
        for (int64_t *row = begin; row != end && sizes[c] > cap; ++row) {
            const int32_t target = runner_up.cluster[at(*row)];
            if (target == c || sizes[target] >= cap) continue;
            cluster_of[*row] = target;
            --sizes[c];
            ++sizes[target];
            ++moved;
        }
    }
    return moved;
}

}  // namespace

BalanceResult balance_clusters(Arena &scratch, int32_t *cluster_of, const RunnerUp &runner_up, int64_t n, int64_t k,
                               int64_t cap) {
    ArenaScope scope(scratch);
    int64_t *sizes = scratch.alloc<int64_t>(size_t(k));
    int64_t *offsets = scratch.alloc<int64_t>(size_t(k + 1));
    int64_t *by_size = scratch.alloc<int64_t>(size_t(k));
    int64_t *members = scratch.alloc<int64_t>(size_t(n));
    group_rows_by_cluster(cluster_of, n, k, offsets, members);
    for (int64_t c = 0; c < k; ++c) sizes[c] = offsets[c + 1] - offsets[c];
    BalanceResult result;
    for (int choice = 0; choice < runner_up.choices; ++choice)
        result.moved += move_to_choice(cluster_of, runner_up, choice, k, cap, offsets, members, sizes, by_size);
    result.largest = *std::max_element(sizes, sizes + k);
    return result;
}

}  // namespace kmx
