/* crc32.c — CRC-32 (IEEE 802.3, reflected 0xEDB88320), the same checksum as
 * lib/io/crc32.cpp, with a 16-entry table (64 bytes of flash; two lookups a
 * byte) instead of 256 entries. */
#include "infer_internal.h"

static const uint32_t crc32_nibble_table[16] = {
    0x00000000u, 0x1DB71064u, 0x3B6E20C8u, 0x26D930ACu, 0x76DC4190u, 0x6B6B51F4u, 0x4DB26158u, 0x5005713Cu,
    0xEDB88320u, 0xF00F9344u, 0xD6D6A3E8u, 0xCB61B38Cu, 0x9B64C2B0u, 0x86D3D2D4u, 0xA00AE278u, 0xBDBDF21Cu,
};

uint32_t kmx_infer__crc32(const unsigned char *data, size_t len) {
    uint32_t crc = 0xFFFFFFFFu;
    size_t i;
    for (i = 0; i < len; ++i) {
        crc ^= data[i];
        crc = crc32_nibble_table[crc & 0x0Fu] ^ (crc >> 4);
        crc = crc32_nibble_table[crc & 0x0Fu] ^ (crc >> 4);
    }
    return crc ^ 0xFFFFFFFFu;
}
