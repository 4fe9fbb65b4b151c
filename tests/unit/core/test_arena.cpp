#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "core/aligned_vector.h"
#include "core/arena.h"
#include "core/error.h"

using kmx::AlignedVector;
using kmx::Arena;
using kmx::ArenaScope;
using kmx::kCacheLineBytes;
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

namespace {

TEST(Arena, ChildArenaLivesInsideItsParentsBlock) {
    kmx::Arena parent(1024);
    parent.alloc<double>(2);  // 64 bytes
    kmx::Arena child(parent, 200);
    EXPECT_EQ(parent.used(), 64u + 256u);  // the child's capacity, aligned
    EXPECT_EQ(child.capacity(), 256u);
    double *a = child.alloc<double>(4);
    double *b = parent.alloc<double>(1);
    EXPECT_GE(reinterpret_cast<unsigned char *>(b) - reinterpret_cast<unsigned char *>(a), 256);
    const size_t mark = child.mark();
    child.alloc<double>(20);
    child.release(mark);
    EXPECT_EQ(child.used(), 64u);
    EXPECT_THROW(child.alloc<double>(30), kmx::Error);  // 240 bytes past the 192 left: a sizing bug
    EXPECT_THROW(kmx::Arena(parent, 2048), kmx::Error);
}

TEST(Arena, ArenaOverCarvedMemoryStaysInsideIt) {
    kmx::Arena parent(512);
    unsigned char *memory = parent.alloc<unsigned char>(256);
    kmx::Arena over(memory, 256);
    EXPECT_EQ(over.capacity(), 256u);
    double *a = over.alloc<double>(8);
    EXPECT_EQ(reinterpret_cast<unsigned char *>(a), memory);
    over.alloc<double>(24);                                // the remaining 192 bytes
    EXPECT_THROW(over.alloc<double>(1), kmx::Error);       // nothing past the carved bytes
    EXPECT_THROW(kmx::Arena(memory + 8, 64), kmx::Error);  // not on a cache line
}

}  // namespace

// AlignedVector's storage starts on a cache line whatever its size (malloc's
// 16-byte alignment would give that one time in four), also after growing.
TEST(AlignedVector, StorageStartsOnACacheLine) {
    std::vector<AlignedVector<double>> vectors;
    for (size_t n = 1; n <= 40; ++n) vectors.emplace_back(n, 1.0);
    for (const AlignedVector<double> &v : vectors)
        EXPECT_EQ(reinterpret_cast<uintptr_t>(v.data()) % kCacheLineBytes, 0u) << v.size();
    AlignedVector<double> grown;
    for (int i = 0; i < 1000; ++i) {
        grown.push_back(i);
        ASSERT_EQ(reinterpret_cast<uintptr_t>(grown.data()) % kCacheLineBytes, 0u) << grown.size();
    }
    EXPECT_EQ(grown[999], 999.0);
}
