// binary_file.h — whole binary files: read at once, or written atomically
// (a new temporary file in the same folder, created exclusively so that no
// planted file or symlink is followed, flushed to disk, then renamed over
// the target and the folder synced). Failures are KMX_E_IO naming the path
// and the reason; a failed write leaves the target as it was.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace kmx {

std::vector<unsigned char> read_binary_file(const char *path);
void write_binary_file_atomically(const char *path, const unsigned char *data, size_t len);

// Streams a file atomically: write() pieces, then commit(). Destroyed
// without commit() (an error on the way), the temporary file is removed.
class AtomicFileWriter {
public:
    explicit AtomicFileWriter(const char *path);
    ~AtomicFileWriter();
    AtomicFileWriter(const AtomicFileWriter &) = delete;
    AtomicFileWriter &operator=(const AtomicFileWriter &) = delete;

    void write(const void *data, size_t len);
    void commit();

private:
    std::string path_, temp_;
    int fd_ = -1;
};

}  // namespace kmx
