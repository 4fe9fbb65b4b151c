/* crc32.c — kmx's one CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320):
 * the checksum of predictor blobs (here, in the inference subset) and of every
 * section of the full library's binary files (lib/io/crc32.h calls it).
 *
 * One function, two table sizes chosen when the file is compiled:
 *  - by default (edge builds), a 16-entry table: 64 bytes of flash, two
 *    look-ups a byte (about 0.1 GB/s);
 *  - with KMX_INFER_CRC32_FAST (the full library's build), "slicing by 8"
 *    (Kounavis & Berry, Intel 2005): eight 256-entry tables (8 KiB) let one
 *    step consume eight bytes with independent look-ups (1.5-3 GB/s).
 * Both compute the same checksum (tests/unit/io/test_crc32.cpp, tests/infer). */
#include "infer_internal.h"

#if defined(KMX_INFER_CRC32_FAST)
#include "crc32_slice8_tables.h"
#include "le_bytes.h"

static uint32_t crc32_steps(uint32_t c, const unsigned char *data, size_t len) {
    const uint32_t(*t)[256] = crc32_slice8_table;
    for (; len >= 8; data += 8, len -= 8) {
        const uint32_t low = c ^ kmx_le_u32(data), high = kmx_le_u32(data + 4);
        c = t[7][low & 0xFF] ^ t[6][(low >> 8) & 0xFF] ^ t[5][(low >> 16) & 0xFF] ^ t[4][low >> 24] ^
            t[3][high & 0xFF] ^ t[2][(high >> 8) & 0xFF] ^ t[1][(high >> 16) & 0xFF] ^ t[0][high >> 24];
    }
    for (; len > 0; ++data, --len) c = t[0][(c ^ *data) & 0xFF] ^ (c >> 8);
    return c;
}
#else
static const uint32_t crc32_nibble_table[16] = {
    0x00000000u, 0x1DB71064u, 0x3B6E20C8u, 0x26D930ACu, 0x76DC4190u, 0x6B6B51F4u, 0x4DB26158u, 0x5005713Cu,
    0xEDB88320u, 0xF00F9344u, 0xD6D6A3E8u, 0xCB61B38Cu, 0x9B64C2B0u, 0x86D3D2D4u, 0xA00AE278u, 0xBDBDF21Cu,
};

static uint32_t crc32_steps(uint32_t c, const unsigned char *data, size_t len) {
    size_t i;
    for (i = 0; i < len; ++i) {
        c ^= data[i];
        c = crc32_nibble_table[c & 0x0Fu] ^ (c >> 4);
        c = crc32_nibble_table[c & 0x0Fu] ^ (c >> 4);
    }
    return c;
}
#endif

uint32_t kmx_infer__crc32_update(uint32_t crc, const unsigned char *data, size_t len) {
    return ~crc32_steps(~crc, data, len);
}

uint32_t kmx_infer__crc32(const unsigned char *data, size_t len) { return kmx_infer__crc32_update(0, data, len); }
