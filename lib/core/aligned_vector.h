// aligned_vector.h — std::vector whose storage starts on a cache line, for
// arrays read by whole 64-byte vector loads (AVX-512): with malloc's 16-byte
// alignment three loads in four would straddle two cache lines.
#pragma once
#include <cstddef>
#include <new>
#include <vector>

namespace kmx {

constexpr size_t kCacheLineBytes = 64;

template <class T>
struct CacheLineAllocator {
    using value_type = T;
    CacheLineAllocator() = default;
    template <class U>
    CacheLineAllocator(const CacheLineAllocator<U> &) {}
    T *allocate(size_t n) { return static_cast<T *>(::operator new(n * sizeof(T), std::align_val_t(kCacheLineBytes))); }
    void deallocate(T *p, size_t) { ::operator delete(p, std::align_val_t(kCacheLineBytes)); }
    template <class U>
    bool operator==(const CacheLineAllocator<U> &) const {
        return true;
    }
    template <class U>
    bool operator!=(const CacheLineAllocator<U> &) const {
        return false;
    }
};

template <class T>
using AlignedVector = std::vector<T, CacheLineAllocator<T>>;

}  // namespace kmx
