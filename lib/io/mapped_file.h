// mapped_file.h — a whole regular file mapped read-only into memory, so that
// readers work on its bytes in place: no copy, no buffer to allocate, pages
// come from the page cache as they are first read. Errors name the file.
#pragma once
#include <cstddef>
#include <cstdint>

namespace kmx {

class MappedFile {
public:
    // Maps `path` (KMX_E_IO if it cannot be opened, is not a regular file,
    // or cannot be mapped). An empty file maps to an empty range.
    explicit MappedFile(const char *path);
    // Maps only bytes [offset, offset + length) of `path`, cut short at the
    // file's end (empty if offset is past it); data() points at `offset`.
    MappedFile(const char *path, uint64_t offset, uint64_t length);
    ~MappedFile();
    MappedFile(const MappedFile &) = delete;
    MappedFile &operator=(const MappedFile &) = delete;

    const char *data() const { return data_; }
    size_t size() const { return size_; }
    // The size of the whole file, however much of it is mapped.
    uint64_t file_size() const { return file_size_; }
    // Tells the kernel the bytes will be read front to back (read-ahead).
    void advise_sequential() const;

private:
    const char *data_ = "";
    size_t size_ = 0;
    uint64_t file_size_ = 0;
    void *mapping_ = nullptr;
    size_t mapping_bytes_ = 0;
};

}  // namespace kmx
