// kernel_cache.cpp — LRU cache of Q columns (see kernel_cache.h).
#include "kernel_cache.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "core/error.h"

namespace kmx {

int64_t KernelCache::slots_for(int64_t n, size_t cache_bytes) {
    const int64_t columns = int64_t(cache_bytes / (sizeof(float) * size_t(std::max<int64_t>(n, 1))));
    return std::max<int64_t>(2, std::min(n, columns));
}

int64_t KernelCache::slots_fitting(int64_t n, size_t bytes) {
    int64_t lo = 2, hi = std::max<int64_t>(2, n);  // workspace_bytes grows with the slot count
    if (workspace_bytes(n, hi) <= bytes) return hi;
    while (hi - lo > 1) {
        const int64_t mid = lo + (hi - lo) / 2;
        (workspace_bytes(n, mid) <= bytes ? lo : hi) = mid;
    }
    return lo;
}

namespace {

// Slot widths are multiples of this many floats (64 bytes), so that a slot
// starts where the previous one's vector loads end.
constexpr int64_t kWidthAlign = 16;

int64_t per_slot_arrays(int64_t n, int64_t slots) { return std::max(n, slots); }

}  // namespace

size_t KernelCache::workspace_bytes(int64_t n, int64_t slots) {
    const size_t per_slot = size_t(per_slot_arrays(n, slots));
    return WorkspacePlan()
        .add<float>(size_t(slots) * size_t(n))
        .add<int64_t>(per_slot)
        .add<int64_t>(per_slot)
        .add<int32_t>(per_slot + 1)
        .add<int32_t>(per_slot + 1)
        .add<int32_t>(size_t(n))
        .add<int64_t>(2 * size_t(n))  // swap log
        .add<int64_t>(per_slot)       // seen
        .bytes();
}

KernelCache::KernelCache(Arena &arena, int64_t n, int64_t slots)
    : n_(n),
      slots_(slots),
      max_slots_(per_slot_arrays(n, slots)),
      capacity_(size_t(slots) * size_t(n)),
      width_(n) {
    const size_t per_slot = size_t(max_slots_);
    data_ = arena.alloc<float>(capacity_);
    column_of_ = arena.alloc<int64_t>(per_slot);
    valid_ = arena.alloc<int64_t>(per_slot);
    prev_ = arena.alloc<int32_t>(per_slot + 1);
    next_ = arena.alloc<int32_t>(per_slot + 1);
    slot_of_ = arena.alloc<int32_t>(size_t(n));
    log_ = arena.alloc<int64_t>(2 * size_t(n));
    seen_ = arena.alloc<int64_t>(per_slot);
    std::fill(seen_, seen_ + max_slots_, int64_t(0));
    std::fill(column_of_, column_of_ + max_slots_, int64_t(-1));
    std::fill(valid_, valid_ + max_slots_, int64_t(0));
    std::fill(slot_of_, slot_of_ + n, int32_t(-1));
    relist(nullptr, 0);
}

// The LRU list anew: the empty slots of [0, slots_) last in line (used
// first), then `order`'s count slots, given from least to most recently used.
void KernelCache::relist(const int64_t *order, int64_t count) {
    const int32_t sentinel = int32_t(max_slots_);
    prev_[sentinel] = next_[sentinel] = sentinel;
    for (int32_t s = 0; s < int32_t(slots_); ++s)
        if (column_of_[s] < 0) push_front(s);
    for (int64_t k = 0; k < count; ++k) push_front(int32_t(order[k]));
}

void KernelCache::fit_width(int64_t len) {
    // at least the width that gives every column a slot, at most n
    const int64_t floor_width = int64_t((capacity_ + size_t(max_slots_) - 1) / size_t(max_slots_));
    const int64_t aligned = (std::max<int64_t>(len, 1) + kWidthAlign - 1) / kWidthAlign * kWidthAlign;
    const int64_t width = std::min(n_, std::max(aligned, floor_width));
    if (width > width_ || (width < width_ && 4 * width <= 3 * width_)) resize_slots(width);
}

// Moves every cached column to its slot's place at the new width (narrower:
// in increasing slot order, each to a lower address; wider: in decreasing
// order, each to a higher one, so no column overwrites one not yet moved),
// empties the slots that no longer fit, and rebuilds the LRU list.
void KernelCache::resize_slots(int64_t width) {
    replay_all();  // the log would cut columns at their old length; log_ is free scratch after
    const int64_t slots = std::min<int64_t>(max_slots_, int64_t(capacity_ / size_t(width)));
    int64_t *order = log_;  // occupied slots that stay, least recently used first
    int64_t count = 0;
    for (int32_t s = prev_[max_slots_]; s != int32_t(max_slots_); s = prev_[s])
        if (column_of_[s] >= 0 && s < slots) order[count++] = s;
    if (width < width_) {
        for (int64_t s = 0; s < slots_; ++s) {
            if (column_of_[s] < 0) continue;
            valid_[s] = std::min(valid_[s], width);
            std::memmove(data_ + size_t(s) * size_t(width), data_ + size_t(s) * size_t(width_),
                         sizeof(float) * size_t(valid_[s]));
        }
    } else {
        for (int64_t s = slots_ - 1; s >= 0; --s) {
            if (column_of_[s] < 0) continue;
            if (s >= slots) {
                slot_of_[column_of_[s]] = -1;
                column_of_[s] = -1;
                valid_[s] = 0;
                --used_slots_;
                continue;
            }
            std::memmove(data_ + size_t(s) * size_t(width), data_ + size_t(s) * size_t(width_),
                         sizeof(float) * size_t(valid_[s]));
        }
    }
    width_ = width;
    slots_ = slots;
    relist(order, count);
}

void KernelCache::unlink(int32_t slot) {
    next_[prev_[slot]] = next_[slot];
    prev_[next_[slot]] = prev_[slot];
}

void KernelCache::push_front(int32_t slot) {
    const int32_t sentinel = int32_t(max_slots_);
    next_[slot] = next_[sentinel];
    prev_[slot] = sentinel;
    prev_[next_[sentinel]] = slot;
    next_[sentinel] = slot;
}

int64_t KernelCache::fetch(int64_t column, int64_t len, float **data) {
    if (len > width_)
        fail(KMX_E_INTERNAL, "kernel cache: %lld entries asked of slots of %lld", (long long)len, (long long)width_);
    int32_t slot = slot_of_[column];
    if (slot < 0) {  // take over the least recently used slot
        slot = prev_[max_slots_];
        if (column_of_[slot] >= 0)
            slot_of_[column_of_[slot]] = -1;
        else
            ++used_slots_;
        column_of_[slot] = column;
        valid_[slot] = 0;
        seen_[slot] = log_count_;
        slot_of_[column] = slot;
    } else {
        replay_swaps(slot);
    }
    unlink(slot);
    push_front(slot);
    *data = data_ + size_t(slot) * size_t(width_);
    const int64_t valid = valid_[slot];
    valid_[slot] = std::max(valid, len);
    return valid;
}

int64_t KernelCache::peek(int64_t column) {
    const int32_t slot = slot_of_[column];
    if (slot < 0) return 0;
    replay_swaps(slot);
    return valid_[slot];
}

void KernelCache::swap_index(int64_t i, int64_t j) {
    const int64_t pair[2] = {i, j};
    swap_indices(pair, 1);
}

void KernelCache::swap_indices(const int64_t *pairs, int64_t count) {
    for (int64_t k = 0; k < count; ++k) {  // which slot holds which column
        const int64_t i = pairs[2 * k], j = pairs[2 * k + 1];
        if (i == j) continue;
        std::swap(slot_of_[i], slot_of_[j]);
        if (slot_of_[i] >= 0) column_of_[slot_of_[i]] = i;
        if (slot_of_[j] >= 0) column_of_[slot_of_[j]] = j;
        if (used_slots_ == 0) continue;
        if (log_count_ == n_) replay_all();
        log_[2 * log_count_] = std::min(i, j);
        log_[2 * log_count_ + 1] = std::max(i, j);
        ++log_count_;
    }
}

void KernelCache::replay_swaps(int64_t slot) {
    float *col = data_ + size_t(slot) * size_t(width_);
    int64_t valid = valid_[slot];
    for (int64_t k = seen_[slot]; k < log_count_ && valid > 0; ++k) {
        const int64_t i = log_[2 * k], j = log_[2 * k + 1];  // i < j
        if (valid <= i) continue;
        if (valid > j)
            std::swap(col[i], col[j]);
        else
            valid = i;  // entry j is unknown, so entry i would be too
    }
    valid_[slot] = valid;
    seen_[slot] = log_count_;
}

void KernelCache::replay_all() {
    for (int64_t s = 0; s < slots_; ++s)
        if (column_of_[s] >= 0) replay_swaps(s);
    log_count_ = 0;
    std::fill(seen_, seen_ + slots_, int64_t(0));
}

double *KernelCache::scratch(int64_t &count) {
    if (used_slots_ > 0)
        fail(KMX_E_INTERNAL, "kernel cache: scratch requested while %lld columns are cached", (long long)used_slots_);
    count = int64_t(capacity_ * sizeof(float) / sizeof(double));
    return reinterpret_cast<double *>(data_);
}

double *KernelCache::tail_scratch(int64_t keep, int64_t &count) {
    if (used_slots_ > keep)
        fail(KMX_E_INTERNAL, "kernel cache: tail scratch past %lld slots while %lld are used", (long long)keep,
             (long long)used_slots_);
    if (keep >= slots_) {
        count = 0;
        return nullptr;
    }
    // slot `keep` starts on a double boundary when keep · width is even; else skip one float
    const size_t begin = size_t(keep) * size_t(width_) + (size_t(keep) * size_t(width_)) % 2;
    count = int64_t((capacity_ - begin) * sizeof(float) / sizeof(double));
    return reinterpret_cast<double *>(data_ + begin);
}

}  // namespace kmx
