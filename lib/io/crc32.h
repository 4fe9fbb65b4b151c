// crc32.h — CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320), the
// checksum of every section of kmx's binary files. The one implementation is
// the inference subset's (lib/infer/crc32.c), which the full library builds
// with its fast tables.
#pragma once
#include <cstddef>
#include <cstdint>

extern "C" {
uint32_t kmx_infer__crc32_update(uint32_t crc, const unsigned char *data, size_t len);
}

namespace kmx {

// Fuzz builds (-Dfuzz=true) let mutated bytes past the checksums, so the
// decoders behind them are fuzzed too; every other build verifies them.
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
constexpr bool kCheckCrcs = false;
#else
constexpr bool kCheckCrcs = true;
#endif

// The CRC-32 of the concatenation of what `crc` covered and [data, data+len):
// crc32_update(crc32(a, m), a + m, n) == crc32(a, m + n); crc32_update(0, ...)
// starts afresh.
inline uint32_t crc32_update(uint32_t crc, const unsigned char *data, size_t len) {
    return kmx_infer__crc32_update(crc, data, len);
}
inline uint32_t crc32(const unsigned char *data, size_t len) { return crc32_update(0, data, len); }

}  // namespace kmx
