// model_file.h — the binary model file (format versions 2 to 5).
//
// Little-endian, every field written byte by byte (no struct dumps):
//
//   offset 0   "KMXMODEL"                       magic, 8 bytes
//          8   u32 format version (2; 3 when the classes have names; 4 with probability sigmoids;
//              5 with sparse points)
//         12   u32 section count s
//         16   s x {u32 id, u32 crc32, u64 offset, u64 length}   section table
//   16 + 24s   u32 crc32 of bytes [0, 16 + 24s)                  header checksum
//              the sections, each covered by its table CRC-32
//
// Sections (each exactly once): 1 meta, 2 classes, 3 points, 4 machines, 5 routes, from
// version 3 on 6 class names, from version 4 on 7 sigmoids, and in version 5 8 sparse
// points (see model_file.cpp for their fields). Each model is written in the oldest version
// that holds it: without sigmoids or class names as version 2, which older kmx reads, byte
// for byte as before; with names but no sigmoids as version 3; with sigmoids as version 4
// (whose names section may be empty); with CSR points (trained on wide sparse data) as
// version 5, whose points section, and sigmoids section without sigmoids, are empty. Loading checks the magic, version,
// checksums, and every count and index against the bytes present before
// trusting it; any mismatch is KMX_E_FORMAT naming what is wrong.
#pragma once
#include <cstddef>
#include <vector>

#include "model.h"

namespace kmx {

constexpr char kModelMagic[8] = {'K', 'M', 'X', 'M', 'O', 'D', 'E', 'L'};
constexpr uint32_t kModelFormatVersion = 5;  // the newest this kmx reads and writes

// The saved form of a model.
std::vector<unsigned char> model_to_bytes(const Model &model);
// A model from its saved form; `name` (a path or "buffer") appears in messages.
Model model_from_bytes(const unsigned char *bytes, size_t len, const char *name);

// Writes `path` through a temporary file in the same folder and a rename,
// so a failure never leaves half a model (KMX_E_IO).
void save_model_file(const Model &model, const char *path);
Model load_model_file(const char *path);

}  // namespace kmx
