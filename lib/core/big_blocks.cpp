#include "big_blocks.h"

#include <algorithm>
#include <cstdlib>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace kmx {

namespace {

constexpr size_t kHugePage = size_t(2) << 20;
constexpr size_t kHugeFrom = size_t(4) << 20;  // blocks from this size get huge pages

size_t round_up(size_t bytes, size_t multiple) { return (bytes + multiple - 1) / multiple * multiple; }

}  // namespace

void *allocate_block(size_t bytes, size_t alignment) {
    if (bytes < kHugeFrom) return std::aligned_alloc(alignment, round_up(bytes, alignment));
    const size_t size = round_up(bytes, std::max(alignment, kHugePage));
    void *p = std::aligned_alloc(std::max(alignment, kHugePage), size);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (p) madvise(p, size, MADV_HUGEPAGE);  // advice only: failure changes nothing
#endif
    return p;
}

}  // namespace kmx
