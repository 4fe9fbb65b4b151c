// kernel_cache.h — LRU cache of Q columns for the dual solver (LIBSVM's
// Cache, Chang & Lin 2011, §5.2), in a fixed number of column slots carved
// from an arena.
//
// A slot holds one column Q_{·i} as floats (as LIBSVM: half the memory of
// doubles) and how many of its leading entries are valid: with shrinking
// the solver asks only for the first `len` entries (the active set) and
// extends a column later when it needs more. swap_index keeps cached
// columns consistent with the solver's permutation of the variables, lazily:
// swaps go to a log, and a cached column replays the swaps it has not seen
// when it is fetched (shrinking swaps hundreds of variables at a time, and
// most cached columns, e.g. those of shrunk variables, are not fetched again
// before the next round); a full log is applied to every cached column.
//
// Slots start n entries wide. Once shrinking has cut the active set, the
// solver asks for columns of that length only, so fit_width re-slots the same
// storage into narrower, more numerous slots (LIBSVM's cache gets the same
// effect by allocating each column at the length asked for): on 100000 digits
// rows with 1 GiB, 2684 full columns, against some 13000 of a 20000-row
// active set. Cached columns keep their slots and their leading entries.
#pragma once
#include <cstddef>
#include <cstdint>

#include "core/arena.h"

namespace kmx {

class KernelCache {
public:
    // Slots that `cache_bytes` of column data buy for columns of n entries:
    // at least 2 (the two columns of an SMO step), at most n (everything).
    static int64_t slots_for(int64_t n, size_t cache_bytes);
    // The largest slot count whose workspace_bytes fit in `bytes` (at least 2).
    static int64_t slots_fitting(int64_t n, size_t bytes);
    // Exact arena bytes of a cache with `slots` slots of n entries.
    static size_t workspace_bytes(int64_t n, int64_t slots);

    KernelCache(Arena &arena, int64_t n, int64_t slots);
    KernelCache(const KernelCache &) = delete;
    KernelCache &operator=(const KernelCache &) = delete;

    // Column `column`'s storage (width() floats), now the most recently used.
    // If it was not cached, the least recently used slot is taken over.
    // Returns how many leading entries were already valid; entries [returned,
    // len) must be filled by the caller, after which [0, max(len, returned))
    // count as valid. len ≤ width().
    int64_t fetch(int64_t column, int64_t len, float **data);

    // How many leading entries of `column` are cached (0: none), without
    // making it the most recently used.
    int64_t peek(int64_t column);
    // Whether any of `column`'s entries are cached.
    bool holds(int64_t column) const { return slot_of_[column] >= 0; }

    // Entries a slot holds: n at first.
    int64_t width() const { return width_; }
    // Re-slots the storage for columns of `len` leading entries: wider slots
    // at once when len > width() (the slots that no longer fit are emptied),
    // narrower ones when len is at most 3/4 of width() (each cached column
    // keeps its first len entries). Never more slots than n.
    void fit_width(int64_t len);

    // The solver swapped variables i and j: cached columns follow (entries
    // i and j trade places; a column valid past i but not past j is cut at i)
    // by the time they are next fetched.
    void swap_index(int64_t i, int64_t j);
    // swap_index for `count` pairs (pairs[2k], pairs[2k+1]) in order.
    void swap_indices(const int64_t *pairs, int64_t count);

    // The slot storage as scratch for `count` doubles, while nothing is
    // cached (before the first fetch). Returns the capacity in doubles.
    double *scratch(int64_t &count);
    // The storage of slots [keep, slots()) as scratch for `count` doubles, while
    // at most `keep` columns have been fetched since the cache was empty: the
    // first columns fetched take slots 0, 1, … in order, so they never overlap
    // it. Returns nullptr (count 0) when keep leaves no slot.
    double *tail_scratch(int64_t keep, int64_t &count);

    int64_t slots() const { return slots_; }
    // Slots that hold no column.
    int64_t empty_slots() const { return slots_ - used_slots_; }

private:
    void unlink(int32_t slot);
    void push_front(int32_t slot);    // most recently used
    void replay_swaps(int64_t slot);  // the logged swaps the slot's column has not seen
    void replay_all();                // every cached column, then the log starts over
    void resize_slots(int64_t width);
    void relist(const int64_t *order, int64_t count);

    int64_t n_ = 0, slots_ = 0, used_slots_ = 0;
    int64_t max_slots_ = 0;                      // per-slot arrays' length: max(n, initial slots)
    size_t capacity_ = 0;                        // floats of column storage
    int64_t width_ = 0;                          // entries per slot; slot s starts at data_ + s · width_
    float *data_ = nullptr;                      // capacity_ floats
    int64_t *column_of_ = nullptr;               // slot → cached column (−1: empty)
    int64_t *valid_ = nullptr;                   // slot → valid leading entries
    int32_t *prev_ = nullptr, *next_ = nullptr;  // LRU list; index max_slots_ is the sentinel
    int32_t *slot_of_ = nullptr;                 // column → slot (−1: not cached)
    int64_t *log_ = nullptr;                     // swaps not yet seen by every cached column, pairs (i, j)
    int64_t log_count_ = 0;                      // pairs in the log (at most n)
    int64_t *seen_ = nullptr;                    // slot → log pairs its column has seen
};

}  // namespace kmx
