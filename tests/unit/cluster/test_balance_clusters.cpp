// balance_clusters (lib/cluster/balance_clusters): the size cap by moves to
// the runner-up, on hand-made cases whose outcome is worked out below, and on
// random ones against the rules it promises.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "cluster/balance_clusters.h"
#include "core/rng.h"

namespace {

struct Case {
    std::vector<int32_t> cluster_of, second;
    std::vector<float> margin;
    int64_t k;
};

std::vector<int64_t> sizes_of(const std::vector<int32_t> &cluster_of, int64_t k) {
    std::vector<int64_t> sizes(size_t(k), 0);
    for (int32_t c : cluster_of) ++sizes[size_t(c)];
    return sizes;
}

int64_t balance(Case &c, int64_t cap) {
    const int64_t n = int64_t(c.cluster_of.size());
    kmx::Arena scratch(kmx::balance_clusters_workspace_bytes(n, c.k));
    return kmx::balance_clusters(scratch, c.cluster_of.data(), {c.second.data(), c.margin.data()}, n, c.k, cap);
}

TEST(BalanceClusters, MovesTheCheapestRowsWhileTheRunnerUpHasRoom) {
    // Cluster 0 holds rows 0-5 (cap 3); clusters 1 and 2 one row each.
    Case c{{0, 0, 0, 0, 0, 0, 1, 2}, {1, 1, 2, 2, 1, 1, 0, 0}, {0.5f, 0.1f, 0.3f, 0.2f, 0.9f, 0.4f, 1, 1}, 3};
    // Cheapest first: row 1 (0.1) → 1, row 3 (0.2) → 2, row 2 (0.3) → 2; cluster 0 is then at the cap.
    EXPECT_EQ(balance(c, 3), 3);
    EXPECT_EQ(c.cluster_of, (std::vector<int32_t>{0, 1, 2, 2, 0, 0, 1, 2}));
}

TEST(BalanceClusters, FullRunnerUpsKeepRowsWhereTheyAre) {
    // Cap 2: cluster 1 is full, so rows 0 and 1 (runner-up 1) stay, row 2 goes to 2, row 3 stays (0 is at the cap).
    Case c{{0, 0, 0, 0, 1, 1}, {1, 1, 2, 2, 0, 0}, {0.1f, 0.2f, 0.3f, 0.4f, 1, 1}, 3};
    EXPECT_EQ(balance(c, 2), 2);
    EXPECT_EQ(c.cluster_of, (std::vector<int32_t>{0, 0, 2, 2, 1, 1}));
    // Nothing above the cap: nothing moves.
    Case even{{0, 1, 2}, {1, 2, 0}, {0, 0, 0}, 3};
    EXPECT_EQ(balance(even, 1), 0);
    EXPECT_EQ(even.cluster_of, (std::vector<int32_t>{0, 1, 2}));
}

TEST(BalanceClusters, RandomCasesKeepItsRules) {
    kmx::Rng rng(7);
    for (int trial = 0; trial < 50; ++trial) {
        const int64_t k = 2 + int64_t(rng.uniform() * 20), n = 50 + int64_t(rng.uniform() * 2000);
        Case c{{}, {}, {}, k};
        for (int64_t i = 0; i < n; ++i) {
            // Skewed: cluster ⌊k u³⌋ makes the first clusters large.
            const double u = rng.uniform();
            const int32_t cluster = int32_t(std::min<double>(double(k - 1), double(k) * u * u * u));
            c.cluster_of.push_back(cluster);
            c.second.push_back(int32_t((cluster + 1 + int64_t(rng.uniform() * double(k - 1))) % k));
            c.margin.push_back(float(rng.uniform()));
        }
        const Case before = c;
        const int64_t cap = (n + k - 1) / k + int64_t(rng.uniform() * double(n) / double(k));
        const int64_t moved = balance(c, cap);
        const std::vector<int64_t> old_sizes = sizes_of(before.cluster_of, k), sizes = sizes_of(c.cluster_of, k);
        int64_t changed = 0;
        for (int64_t i = 0; i < n; ++i) {
            if (c.cluster_of[size_t(i)] == before.cluster_of[size_t(i)]) continue;
            ++changed;
            EXPECT_EQ(c.cluster_of[size_t(i)], before.second[size_t(i)]) << "a row moves only to its runner-up";
            EXPECT_GT(old_sizes[size_t(before.cluster_of[size_t(i)])], cap) << "only from a cluster above the cap";
        }
        EXPECT_EQ(moved, changed);
        for (int64_t t = 0; t < k; ++t) {
            // No cluster grows past the cap; one above it only shrinks, and not below it.
            if (old_sizes[size_t(t)] <= cap) {
                EXPECT_LE(sizes[size_t(t)], cap);
            } else {
                EXPECT_GE(sizes[size_t(t)], cap);
            }
            // A cluster left above the cap kept only rows whose runner-up is full.
            if (sizes[size_t(t)] > cap) {
                for (int64_t i = 0; i < n; ++i) {
                    if (c.cluster_of[size_t(i)] == t && before.cluster_of[size_t(i)] == t) {
                        EXPECT_GE(sizes[size_t(before.second[size_t(i)])], cap);
                    }
                }
            }
        }
        // Within a cluster, every row that moved had a margin no larger than
        // any row that stayed although its runner-up has room now.
        for (int64_t t = 0; t < k; ++t) {
            float largest_moved = -1, smallest_kept_with_room = 2;
            for (int64_t i = 0; i < n; ++i) {
                if (before.cluster_of[size_t(i)] != t) continue;
                if (c.cluster_of[size_t(i)] != t) largest_moved = std::max(largest_moved, before.margin[size_t(i)]);
                else if (sizes[size_t(before.second[size_t(i)])] < cap && before.second[size_t(i)] != t)
                    smallest_kept_with_room = std::min(smallest_kept_with_room, before.margin[size_t(i)]);
            }
            EXPECT_LE(largest_moved, smallest_kept_with_room) << "cluster " << t;
        }
    }
}

}  // namespace
