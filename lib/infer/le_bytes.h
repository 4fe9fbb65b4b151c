/* le_bytes.h — kmx's one little-endian reader: the 32- and 64-bit words of
 * its files and blobs, read byte by byte so they mean the same on every
 * machine. C99, header-only; the inference subset and the full library's
 * readers (lib/io/byte_codec.h, the predictor blob reader) use it. */
#ifndef KMX_LE_BYTES_H
#define KMX_LE_BYTES_H

#include <stdint.h>

static inline uint32_t kmx_le_u32(const unsigned char *at) {
    return (uint32_t)at[0] | (uint32_t)at[1] << 8 | (uint32_t)at[2] << 16 | (uint32_t)at[3] << 24;
}

static inline uint64_t kmx_le_u64(const unsigned char *at) {
    return (uint64_t)kmx_le_u32(at) | (uint64_t)kmx_le_u32(at + 4) << 32;
}

#endif
