// CRC-32 (lib/infer/crc32.c, built here with its slicing-by-8 tables) against
// the standard check value and a bit-at-a-time reference; crc32_update chains
// pieces into the CRC of the whole; the checked-in tables are what they claim.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "io/crc32.h"

namespace {

// The textbook bitwise CRC-32 (reflected 0xEDB88320), independent of the table code.
uint32_t crc32_bitwise(const unsigned char *data, size_t len) {
    uint32_t crc = 0xFFFFFFFFu;
    for (size_t i = 0; i < len; ++i) {
        crc ^= data[i];
        for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

std::vector<unsigned char> random_bytes(size_t n, unsigned seed) {
    std::mt19937 rng(seed);
    std::vector<unsigned char> bytes(n);
    for (auto &b : bytes) b = static_cast<unsigned char>(rng());
    return bytes;
}

TEST(Crc32, CheckValue) {
    const unsigned char text[] = "123456789";
    EXPECT_EQ(kmx::crc32(text, 9), 0xCBF43926u);
    EXPECT_EQ(kmx::crc32(text, 0), 0u);
}

TEST(Crc32, MatchesBitwiseReferenceAtEveryLengthAndAlignment) {
    const auto bytes = random_bytes(300, 1);
    for (size_t start = 0; start < 9; ++start)
        for (size_t len = 0; start + len <= bytes.size(); len += 7)
            ASSERT_EQ(kmx::crc32(bytes.data() + start, len), crc32_bitwise(bytes.data() + start, len))
                << start << " " << len;
}

TEST(Crc32, UpdateChainsPiecesIntoTheWhole) {
    const auto bytes = random_bytes(1 << 16, 2);
    const uint32_t whole = kmx::crc32(bytes.data(), bytes.size());
    for (size_t cut : {size_t(0), size_t(1), size_t(13), size_t(4096), bytes.size()}) {
        uint32_t crc = kmx::crc32_update(0, bytes.data(), cut);
        crc = kmx::crc32_update(crc, bytes.data() + cut, bytes.size() - cut);
        EXPECT_EQ(crc, whole) << cut;
    }
}

}  // namespace

// The generated tables of lib/infer/crc32_slice8_tables.h, recomputed.
#include <cstdint>
namespace {
#include "infer/crc32_slice8_tables.h"
}  // namespace

TEST(Crc32, Slice8TablesAreTheByteTableAdvancedByZeroBytes) {
    for (uint32_t i = 0; i < 256; ++i) {
        uint32_t c = i;
        for (int bit = 0; bit < 8; ++bit) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        ASSERT_EQ(crc32_slice8_table[0][i], c) << i;
        for (int k = 1; k < 8; ++k) {
            const uint32_t previous = crc32_slice8_table[k - 1][i];
            ASSERT_EQ(crc32_slice8_table[k][i], (previous >> 8) ^ crc32_slice8_table[0][previous & 0xFF])
                << k << " " << i;
        }
    }
}
