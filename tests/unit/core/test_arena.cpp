#include <gtest/gtest.h>

#include <cstdint>

#include "core/arena.h"
#include "core/error.h"

using kmx::Arena;
using kmx::ArenaScope;
using kmx::WorkspacePlan;

TEST(Arena, AllocationsAreAlignedAndCounted) {
    Arena arena(1000);
    auto *a = arena.alloc<double>(3);
    auto *b = arena.alloc<char>(1);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(a) % kmx::kArenaAlignment, 0u);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(b) % kmx::kArenaAlignment, 0u);
    EXPECT_EQ(arena.used(), 2 * kmx::kArenaAlignment);
}

TEST(Arena, MarkReleaseReusesMemory) {
    Arena arena(4096);
    double *first = nullptr;
    {
        ArenaScope scope(arena);
        first = arena.alloc<double>(100);
    }
    EXPECT_EQ(arena.used(), 0u);
    EXPECT_EQ(arena.alloc<double>(100), first);
    EXPECT_EQ(arena.peak(), kmx::align_up(800));
}

TEST(Arena, PlanSizesExactly) {
    WorkspacePlan plan;
    plan.add<double>(10).add<int32_t>(7).add_bytes(1);
    Arena arena(plan.bytes());
    arena.alloc<double>(10);
    arena.alloc<int32_t>(7);
    arena.alloc_bytes(1);
    EXPECT_EQ(arena.used(), arena.capacity());
}

TEST(Arena, OverrunIsAnInternalErrorNotACrash) {
    Arena arena(128);
    arena.alloc<double>(16);
    try {
        arena.alloc<double>(1);
        FAIL() << "overrun not detected";
    } catch (const kmx::Error &e) {
        EXPECT_EQ(e.status(), KMX_E_INTERNAL);
    }
}

TEST(Arena, PlanOverflowIsOutOfMemory) {
    WorkspacePlan plan;
    try {
        plan.add<double>(SIZE_MAX / 4);
        FAIL() << "overflow not detected";
    } catch (const kmx::Error &e) {
        EXPECT_EQ(e.status(), KMX_E_OUT_OF_MEMORY);
    }
}
