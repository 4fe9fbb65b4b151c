// byte_codec.h — little-endian fields written and read byte by byte, so a
// file means the same on every machine. ByteReader checks every read and
// count against the bytes left and fails with KMX_E_FORMAT naming `what`.
#pragma once
#include <cstdint>
#include <cstring>
#include <vector>

#include "core/error.h"
#include "infer/le_bytes.h"

namespace kmx {

class ByteWriter {
public:
    void u32(uint32_t v) {
        for (int i = 0; i < 4; ++i) bytes_.push_back(static_cast<unsigned char>(v >> (8 * i)));
    }
    void u64(uint64_t v) {
        for (int i = 0; i < 8; ++i) bytes_.push_back(static_cast<unsigned char>(v >> (8 * i)));
    }
    void i32(int32_t v) { u32(static_cast<uint32_t>(v)); }
    void f64(double v) {
        uint64_t bits;
        std::memcpy(&bits, &v, sizeof bits);
        u64(bits);
    }
    void raw(const void *data, size_t len) {
        const unsigned char *p = static_cast<const unsigned char *>(data);
        bytes_.insert(bytes_.end(), p, p + len);
    }
    size_t size() const { return bytes_.size(); }
    std::vector<unsigned char> &bytes() { return bytes_; }
    // Overwrites a u32 written earlier at `offset`.
    void patch_u32(size_t offset, uint32_t v) {
        for (int i = 0; i < 4; ++i) bytes_[offset + size_t(i)] = static_cast<unsigned char>(v >> (8 * i));
    }
    void patch_u64(size_t offset, uint64_t v) {
        for (int i = 0; i < 8; ++i) bytes_[offset + size_t(i)] = static_cast<unsigned char>(v >> (8 * i));
    }

private:
    std::vector<unsigned char> bytes_;
};

class ByteReader {
public:
    ByteReader(const unsigned char *data, size_t len, const char *what) : data_(data), len_(len), what_(what) {}

    uint32_t u32() { return kmx_le_u32(take(4)); }
    uint64_t u64() { return kmx_le_u64(take(8)); }
    int32_t i32() { return static_cast<int32_t>(u32()); }
    double f64() {
        const uint64_t bits = u64();
        double v;
        std::memcpy(&v, &bits, sizeof v);
        return v;
    }
    // A count of items of `item_bytes` each that must fit in the bytes left.
    uint64_t count(size_t item_bytes, const char *name) {
        const uint64_t n = u64();
        if (n > remaining() / item_bytes)
            fail(KMX_E_FORMAT, "%s: %s = %llu does not fit the %zu bytes left", what_, name, (unsigned long long)n,
                 remaining());
        return n;
    }
    size_t remaining() const { return len_ - pos_; }
    // The next n bytes, raw.
    const unsigned char *bytes(size_t n) { return take(n); }
    // Fails unless every byte was read.
    void finish() const {
        if (pos_ != len_) fail(KMX_E_FORMAT, "%s: %zu unexpected bytes at the end", what_, len_ - pos_);
    }
    const char *what() const { return what_; }

private:
    const unsigned char *take(size_t n) {
        if (n > remaining()) fail(KMX_E_FORMAT, "%s is truncated", what_);
        const unsigned char *p = data_ + pos_;
        pos_ += n;
        return p;
    }
    const unsigned char *data_;
    size_t len_;
    size_t pos_ = 0;
    const char *what_;
};

}  // namespace kmx
