// parallel_for and thread_index: a loop that runs serially inside another
// loop's thread k is its own thread 0 (per-thread arrays sized by its thread
// count are indexed by thread_index: OpenMP's thread number there is k's).
#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <vector>

#include "core/parallel.h"

namespace {

TEST(ParallelFor, ASerialLoopInsideAThreadIsThreadZero) {
    std::vector<int> outer(2, -1), inner(8, -1);
    kmx::parallel_for(2, 2, [&](int64_t i) {
        outer[size_t(i)] = kmx::thread_index();
        kmx::parallel_for(4, 1, [&](int64_t j) { inner[size_t(i * 4 + j)] = kmx::thread_index(); });
    });
    for (int index : outer) EXPECT_TRUE(index == 0 || index == 1) << index;
    EXPECT_EQ(outer[1], 1) << "static schedule: the second iteration on the second thread";
    for (int index : inner) EXPECT_EQ(index, 0);
    EXPECT_EQ(kmx::thread_index(), 0);  // outside any loop
}

TEST(ParallelFor, ALoopOfOneIterationIsSerialToo) {
    std::vector<int> inner(2, -1);
    kmx::parallel_for(2, 2, [&](int64_t i) {
        kmx::parallel_for(1, 2, [&](int64_t) { inner[size_t(i)] = kmx::thread_index(); });
        EXPECT_EQ(kmx::thread_index(), int(i));  // back to the outer loop's numbering
    });
    EXPECT_EQ(inner, std::vector<int>({0, 0}));
}

TEST(ParallelFor, EveryIterationRunsOnceAndTheFirstErrorIsRethrown) {
    std::atomic<int> calls{0};
    kmx::parallel_for(100, 2, [&](int64_t) { ++calls; });
    EXPECT_EQ(calls.load(), 100);
    EXPECT_THROW(kmx::parallel_for(10, 2,
                                   [&](int64_t i) {
                                       if (i == 7) throw std::runtime_error("seven");
                                   }),
                 std::runtime_error);
}

}  // namespace
