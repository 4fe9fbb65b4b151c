// mapped_file.h — a whole regular file mapped read-only into memory, so that
// readers work on its bytes in place: no copy, no buffer to allocate, pages
// come from the page cache as they are first read. Errors name the file.
#pragma once
#include <cstddef>

namespace kmx {

class MappedFile {
public:
    // Maps `path` (KMX_E_IO if it cannot be opened, is not a regular file,
    // or cannot be mapped). An empty file maps to an empty range.
    explicit MappedFile(const char *path);
    ~MappedFile();
    MappedFile(const MappedFile &) = delete;
    MappedFile &operator=(const MappedFile &) = delete;

    const char *data() const { return data_; }
    size_t size() const { return size_; }
    // Tells the kernel the bytes will be read front to back (read-ahead).
    void advise_sequential() const;

private:
    const char *data_ = "";
    size_t size_ = 0;
    void *mapping_ = nullptr;
};

}  // namespace kmx
