#include "mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

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

MappedFile::MappedFile(const char *path) {
    const Descriptor file{open(path, O_RDONLY | O_CLOEXEC)};
    if (file.fd < 0) fail_io("open", path, errno);
    struct stat info;
    if (fstat(file.fd, &info) != 0) fail_io("inspect", path, errno);
    if (!S_ISREG(info.st_mode)) fail(KMX_E_IO, "cannot read '%s': not a regular file", path);
    size_ = size_t(info.st_size);
    if (size_ == 0) return;
    mapping_ = mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, file.fd, 0);
    if (mapping_ == MAP_FAILED) {
        mapping_ = nullptr;
        fail_io("map", path, errno);
    }
    data_ = static_cast<const char *>(mapping_);
}

MappedFile::~MappedFile() {
    if (mapping_) munmap(mapping_, size_);
}

void MappedFile::advise_sequential() const {
    if (mapping_) madvise(mapping_, size_, MADV_SEQUENTIAL);
}

}  // namespace kmx
