#include "arena.h"

#include <cstdlib>
#include <limits>
#include <new>
#include <utility>

#include "big_blocks.h"
#include "error.h"

namespace kmx {

size_t WorkspacePlan::checked_mul(size_t a, size_t b) {
    if (b != 0 && a > std::numeric_limits<size_t>::max() / b)
        fail(KMX_E_OUT_OF_MEMORY, "workspace size overflows: %zu x %zu bytes", a, b);
    return a * b;
}

size_t WorkspacePlan::checked_add(size_t a, size_t b) {
    if (a > std::numeric_limits<size_t>::max() - b)
        fail(KMX_E_OUT_OF_MEMORY, "workspace size overflows: %zu + %zu bytes", a, b);
    return a + b;
}

Arena::Arena(size_t capacity) : capacity_(align_up(capacity)) {
    if (capacity_ == 0) return;
    base_ = static_cast<unsigned char *>(allocate_block(capacity_, kArenaAlignment));
    if (!base_) fail(KMX_E_OUT_OF_MEMORY, "the system could not provide %zu bytes of workspace", capacity_);
}

Arena::Arena(Arena &parent, size_t capacity) : Arena(parent.alloc_bytes(capacity), align_up(capacity)) {}

Arena::Arena(void *memory, size_t capacity)
    : base_(static_cast<unsigned char *>(memory)), owned_(false), capacity_(capacity) {
    if (reinterpret_cast<uintptr_t>(memory) % kArenaAlignment != 0)
        fail(KMX_E_INTERNAL, "an arena over memory that is not %zu-byte aligned", kArenaAlignment);
}

Arena::~Arena() {
    if (owned_) std::free(base_);
}

Arena::Arena(Arena &&other) noexcept
    : base_(std::exchange(other.base_, nullptr)),
      owned_(std::exchange(other.owned_, true)),
      capacity_(std::exchange(other.capacity_, 0)),
      used_(std::exchange(other.used_, 0)),
      peak_(std::exchange(other.peak_, 0)) {}

Arena &Arena::operator=(Arena &&other) noexcept {
    if (this != &other) {
        if (owned_) std::free(base_);
        base_ = std::exchange(other.base_, nullptr);
        owned_ = std::exchange(other.owned_, true);
        capacity_ = std::exchange(other.capacity_, 0);
        used_ = std::exchange(other.used_, 0);
        peak_ = std::exchange(other.peak_, 0);
    }
    return *this;
}

void *Arena::alloc_bytes(size_t bytes) {
    const size_t size = align_up(bytes);
    if (size > capacity_ - used_)
        fail(KMX_E_INTERNAL, "workspace sizing bug: %zu more bytes requested with %zu of %zu left", size,
             capacity_ - used_, capacity_);
    void *p = base_ + used_;
    used_ += size;
    if (used_ > peak_) peak_ = used_;
    return p;
}

void Arena::release(size_t mark) {
    if (mark <= used_) used_ = mark;
}

}  // namespace kmx
