// binary_file.h — whole binary files: read at once, written atomically
// (a temporary file in the same folder, flushed, then renamed over the
// target). Failures are KMX_E_IO naming the path and the reason.
#pragma once
#include <cstddef>
#include <vector>

namespace kmx {

std::vector<unsigned char> read_binary_file(const char *path);
void write_binary_file_atomically(const char *path, const unsigned char *data, size_t len);

}  // namespace kmx
