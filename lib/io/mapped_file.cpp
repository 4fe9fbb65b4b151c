#include "mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "core/error.h"

namespace kmx {

namespace {

[[noreturn]] void fail_io(const char *action, const char *path, int error_number) {
    fail(KMX_E_IO, "cannot %s '%s': %s", action, path, std::strerror(error_number));
}

// Closes a descriptor when it goes out of scope.
struct Descriptor {
    int fd;
    ~Descriptor() {
        if (fd >= 0) close(fd);
    }
};

}  // namespace

MappedFile::MappedFile(const char *path) : MappedFile(path, 0, UINT64_MAX) {}

MappedFile::MappedFile(const char *path, uint64_t offset, uint64_t length) {
    const Descriptor file{open(path, O_RDONLY | O_CLOEXEC)};
    if (file.fd < 0) fail_io("open", path, errno);
    struct stat info;
    if (fstat(file.fd, &info) != 0) fail_io("inspect", path, errno);
    if (!S_ISREG(info.st_mode)) fail(KMX_E_IO, "cannot read '%s': not a regular file", path);
    file_size_ = uint64_t(info.st_size);
    if (offset >= file_size_) return;
    size_ = size_t(std::min(length, file_size_ - offset));
    if (size_ == 0) return;
    // mmap starts at a page boundary: map from the page holding `offset`.
    const uint64_t page = uint64_t(sysconf(_SC_PAGESIZE));
    const uint64_t start = offset / page * page;
    mapping_bytes_ = size_t(offset - start) + size_;
    mapping_ = mmap(nullptr, mapping_bytes_, PROT_READ, MAP_PRIVATE, file.fd, off_t(start));
    if (mapping_ == MAP_FAILED) {
        mapping_ = nullptr;
        fail_io("map", path, errno);
    }
    data_ = static_cast<const char *>(mapping_) + (offset - start);
}

MappedFile::~MappedFile() {
    if (mapping_) munmap(mapping_, mapping_bytes_);
}

void MappedFile::advise_sequential() const {
    if (mapping_) madvise(mapping_, mapping_bytes_, MADV_SEQUENTIAL);
}

}  // namespace kmx
