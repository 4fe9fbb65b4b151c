// crc32.h — CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320), the
// checksum of every section of kmx's binary files.
#pragma once
#include <cstddef>
#include <cstdint>

namespace kmx {

uint32_t crc32(const unsigned char *data, size_t len);

}  // namespace kmx
