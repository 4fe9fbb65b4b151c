// arena.h — fixed-size, aligned bump allocation with mark/release scratch.
//
// A call sizes its whole workspace up front (WorkspacePlan), asks its Context
// for an Arena of exactly that size (the budget check happens there, before
// any work), then carves arrays out of it. Running past the planned size is a
// sizing bug in kmx and fails with KMX_E_INTERNAL rather than allocating more.
#pragma once
#include <cstddef>
#include <cstdint>

namespace kmx {

constexpr size_t kArenaAlignment = 64;  // a cache line; enough for AVX-512 loads

constexpr size_t align_up(size_t bytes) { return (bytes + kArenaAlignment - 1) / kArenaAlignment * kArenaAlignment; }

// Adds up the aligned sizes of the arrays a call will carve from its arena.
class WorkspacePlan {
public:
    template <class T>
    WorkspacePlan &add(size_t count) {
        bytes_ = checked_add(bytes_, align_up(checked_mul(count, sizeof(T))));
        return *this;
    }
    WorkspacePlan &add_bytes(size_t bytes) {
        bytes_ = checked_add(bytes_, align_up(bytes));
        return *this;
    }
    size_t bytes() const { return bytes_; }

private:
    static size_t checked_mul(size_t a, size_t b);
    static size_t checked_add(size_t a, size_t b);
    size_t bytes_ = 0;
};

class Arena {
public:
    Arena() = default;
    // Allocates one block of `capacity` bytes (KMX_E_OUT_OF_MEMORY if the
    // system has no such block).
    explicit Arena(size_t capacity);
    // Carves `capacity` bytes out of `parent` (which must outlive it) as an
    // arena of its own: scratch for an object that lives inside the parent's
    // workspace and needs mark/release of its own.
    Arena(Arena &parent, size_t capacity);
    // An arena over `capacity` bytes at `memory` (64-byte aligned), carved
    // elsewhere and kept alive by the caller.
    Arena(void *memory, size_t capacity);
    ~Arena();
    Arena(Arena &&other) noexcept;
    Arena &operator=(Arena &&other) noexcept;
    Arena(const Arena &) = delete;
    Arena &operator=(const Arena &) = delete;

    template <class T>
    T *alloc(size_t count) {
        return static_cast<T *>(alloc_bytes(count * sizeof(T)));
    }
    void *alloc_bytes(size_t bytes);

    size_t mark() const { return used_; }
    void release(size_t mark);  // frees everything carved since mark()

    size_t capacity() const { return capacity_; }
    size_t used() const { return used_; }
    size_t peak() const { return peak_; }

private:
    unsigned char *base_ = nullptr;
    bool owned_ = true;  // base_ is this arena's block (else the parent's)
    size_t capacity_ = 0;
    size_t used_ = 0;
    size_t peak_ = 0;
};

// Releases an arena back to where it was when the scope began.
class ArenaScope {
public:
    explicit ArenaScope(Arena &arena) : arena_(arena), mark_(arena.mark()) {}
    ~ArenaScope() { arena_.release(mark_); }
    ArenaScope(const ArenaScope &) = delete;
    ArenaScope &operator=(const ArenaScope &) = delete;

private:
    Arena &arena_;
    size_t mark_;
};

}  // namespace kmx
