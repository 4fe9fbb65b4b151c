// balance_clusters (lib/cluster/balance_clusters): the size cap by moves to
// the runner-ups, on hand-made cases whose outcome is worked out below, and on
// random ones against the rules it promises.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "cluster/balance_clusters.h"
#include "core/rng.h"

namespace {

struct Case {
    std::vector<int32_t> cluster_of, next;  // next, margin: n × choices, as RunnerUp
    std::vector<float> margin;
    int64_t k;
    int choices = 1;
};

std::vector<int64_t> sizes_of(const std::vector<int32_t> &cluster_of, int64_t k) {
    std::vector<int64_t> sizes(size_t(k), 0);
    for (int32_t c : cluster_of) ++sizes[size_t(c)];
    return sizes;
}

int64_t balance(Case &c, int64_t cap) {
    const int64_t n = int64_t(c.cluster_of.size());
    kmx::Arena scratch(kmx::balance_clusters_workspace_bytes(n, c.k));
    const kmx::BalanceResult result =
        kmx::balance_clusters(scratch, c.cluster_of.data(), {c.next.data(), c.margin.data(), c.choices}, n, c.k, cap);
    const std::vector<int64_t> sizes = sizes_of(c.cluster_of, c.k);
    EXPECT_EQ(result.largest, *std::max_element(sizes.begin(), sizes.end()));
    return result.moved;
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

TEST(BalanceClusters, RowsTryTheirThirdNearestWhenTheRunnerUpIsFull) {
    // Cap 2. Cluster 0 holds rows 0-4; every row's runner-up is 1, which has
    // room for one (row 2, cheapest there); then rows 0, 1, 3, 4 try their third
    // nearest, cheapest first: row 4 (0.5) → 3, row 0 (0.6) → 2, and cluster 0
    // is at the cap: rows 3 and 1 stay.
    Case c{{0, 0, 0, 0, 0, 1, 2, 3},
           {1, 2, 1, 3, 1, 2, 1, 3, 1, 3, 0, 2, 0, 1, 0, 1},
           {0.1f, 0.6f, 0.2f, 0.8f, 0.05f, 0.9f, 0.3f, 0.7f, 0.4f, 0.5f, 1, 2, 1, 2, 1, 2},
           4,
           2};
    EXPECT_EQ(balance(c, 2), 3);
    EXPECT_EQ(c.cluster_of, (std::vector<int32_t>{2, 0, 1, 0, 3, 1, 2, 3}));
}

TEST(BalanceClusters, RandomCasesKeepItsRules) {
    kmx::Rng rng(7);
    for (int trial = 0; trial < 50; ++trial) {
        const int64_t k = 2 + int64_t(rng.uniform() * 20), n = 50 + int64_t(rng.uniform() * 2000);
        Case c{{}, {}, {}, k, 1 + int(rng.uniform() * 3)};
        for (int64_t i = 0; i < n; ++i) {
            // Skewed: cluster ⌊k u³⌋ makes the first clusters large.
            const double u = rng.uniform();
            const int32_t cluster = int32_t(std::min<double>(double(k - 1), double(k) * u * u * u));
            c.cluster_of.push_back(cluster);
            float margin = 0;
            for (int r = 0; r < c.choices; ++r) {
                c.next.push_back(int32_t((cluster + 1 + int64_t(rng.uniform() * double(k - 1))) % k));
                margin += float(rng.uniform());
                c.margin.push_back(margin);
            }
        }
        const Case before = c;
        const auto choice = [&](int64_t i, int r) { return before.next[size_t(i * c.choices + r)]; };
        const int64_t cap = (n + k - 1) / k + int64_t(rng.uniform() * double(n) / double(k));
        const int64_t moved = balance(c, cap);
        const std::vector<int64_t> old_sizes = sizes_of(before.cluster_of, k), sizes = sizes_of(c.cluster_of, k);
        int64_t changed = 0;
        for (int64_t i = 0; i < n; ++i) {
            if (c.cluster_of[size_t(i)] == before.cluster_of[size_t(i)]) continue;
            ++changed;
            bool to_a_choice = false;
            for (int r = 0; r < c.choices; ++r) to_a_choice |= c.cluster_of[size_t(i)] == choice(i, r);
            EXPECT_TRUE(to_a_choice) << "a row moves only to one of its runner-ups";
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
            // A cluster left above the cap kept only rows whose runner-ups are all full.
            if (sizes[size_t(t)] > cap) {
                for (int64_t i = 0; i < n; ++i) {
                    if (c.cluster_of[size_t(i)] != t) continue;
                    for (int r = 0; r < c.choices; ++r) {
                        if (choice(i, r) != t) {
                            EXPECT_GE(sizes[size_t(choice(i, r))], cap);
                        }
                    }
                }
            }
        }
        // Within a cluster, every row that moved to its runner-up had a margin no
        // larger than any row that did not although its runner-up has room now.
        for (int64_t t = 0; t < k; ++t) {
            float largest_moved = -1, smallest_kept_with_room = 2;
            for (int64_t i = 0; i < n; ++i) {
                if (before.cluster_of[size_t(i)] != t || choice(i, 0) == t) continue;
                const float margin = before.margin[size_t(i * c.choices)];
                if (c.cluster_of[size_t(i)] == choice(i, 0)) largest_moved = std::max(largest_moved, margin);
                else if (sizes[size_t(choice(i, 0))] < cap)
                    smallest_kept_with_room = std::min(smallest_kept_with_room, margin);
            }
            EXPECT_LE(largest_moved, smallest_kept_with_room) << "cluster " << t;
        }
    }
}

}  // namespace
