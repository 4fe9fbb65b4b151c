// CRC-32 by "slicing by 8" (Kounavis & Berry, Intel 2005): eight tables let
// one step consume eight bytes with eight independent look-ups, about 1.5–3
// GB/s instead of the byte-at-a-time loop's 0.4. Same checksum.
#include "crc32.h"

#include <array>
#include <cstring>

namespace kmx {

namespace {

using Tables = std::array<std::array<uint32_t, 256>, 8>;

// table[0] is the classic byte table; table[k][b] advances table[k−1][b]
// by one more zero byte.
Tables make_tables() {
    Tables table{};
    for (uint32_t i = 0; i < 256; ++i) {
        uint32_t c = i;
        for (int bit = 0; bit < 8; ++bit) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        table[0][i] = c;
    }
    for (uint32_t i = 0; i < 256; ++i)
        for (int k = 1; k < 8; ++k) table[k][i] = (table[k - 1][i] >> 8) ^ table[0][table[k - 1][i] & 0xFF];
    return table;
}

const Tables &tables() {
    static const Tables table = make_tables();
    return table;
}

// Little-endian 32-bit word at p.
uint32_t load_le32(const unsigned char *p) {
    return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}

}  // namespace

uint32_t crc32_update(uint32_t crc, const unsigned char *data, size_t len) {
    const Tables &t = tables();
    uint32_t c = ~crc;
    for (; len >= 8; data += 8, len -= 8) {
        const uint32_t low = c ^ load_le32(data), high = load_le32(data + 4);
        c = t[7][low & 0xFF] ^ t[6][(low >> 8) & 0xFF] ^ t[5][(low >> 16) & 0xFF] ^ t[4][low >> 24] ^
            t[3][high & 0xFF] ^ t[2][(high >> 8) & 0xFF] ^ t[1][(high >> 16) & 0xFF] ^ t[0][high >> 24];
    }
    for (; len > 0; ++data, --len) c = t[0][(c ^ *data) & 0xFF] ^ (c >> 8);
    return ~c;
}

uint32_t crc32(const unsigned char *data, size_t len) { return crc32_update(0, data, len); }

}  // namespace kmx
