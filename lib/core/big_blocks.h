// big_blocks.h — memory for arenas and datasets. Blocks of several
// megabytes are aligned to 2 MiB and offered transparent huge pages
// (madvise), so that touching them costs one page fault per 2 MiB instead of
// one per 4 KiB and GEMMs over them miss the TLB less; small blocks are
// ordinary aligned allocations. Both are released with std::free.
#pragma once
#include <cstddef>

namespace kmx {

// `bytes` (> 0) aligned to at least `alignment` (a power of two); nullptr if
// the system has no memory for it.
void *allocate_block(size_t bytes, size_t alignment);

}  // namespace kmx
