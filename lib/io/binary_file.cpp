#include "binary_file.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

#include "core/error.h"

namespace kmx {

namespace {

struct CloseFile {
    void operator()(std::FILE *f) const { std::fclose(f); }
};

[[noreturn]] void io_failure(const char *action, const char *path, int error_number) {
    fail(KMX_E_IO, "cannot %s '%s': %s", action, path, std::strerror(error_number));
}

// Writes and flushes everything to disk; false (errno set) on failure.
bool write_all(std::FILE *file, const unsigned char *data, size_t len) {
    if (len > 0 && std::fwrite(data, 1, len, file) != len) return false;
    if (std::fflush(file) != 0) return false;
    return fsync(fileno(file)) == 0;
}

}  // namespace

std::vector<unsigned char> read_binary_file(const char *path) {
    struct stat info;
    if (stat(path, &info) != 0) io_failure("read", path, errno);
    if (!S_ISREG(info.st_mode)) fail(KMX_E_IO, "cannot read '%s': not a regular file", path);
    std::unique_ptr<std::FILE, CloseFile> file(std::fopen(path, "rb"));
    if (!file) io_failure("open", path, errno);
    std::vector<unsigned char> bytes(size_t(info.st_size));
    if (!bytes.empty() && std::fread(bytes.data(), 1, bytes.size(), file.get()) != bytes.size()) {
        if (std::ferror(file.get())) io_failure("read", path, errno);
        fail(KMX_E_IO, "cannot read '%s': it shrank while being read", path);
    }
    return bytes;
}

void write_binary_file_atomically(const char *path, const unsigned char *data, size_t len) {
    const std::string temp = std::string(path) + ".tmp." + std::to_string(long(getpid()));
    std::FILE *file = std::fopen(temp.c_str(), "wb");
    if (!file) io_failure("create", temp.c_str(), errno);
    const bool written = write_all(file, data, len);
    const int write_errno = errno;
    const bool closed = std::fclose(file) == 0;
    if (!written || !closed) {
        const int error_number = written ? errno : write_errno;
        std::remove(temp.c_str());
        io_failure("write", temp.c_str(), error_number);
    }
    if (std::rename(temp.c_str(), path) != 0) {
        const int error_number = errno;
        std::remove(temp.c_str());
        io_failure("rename a temporary file to", path, error_number);
    }
}

}  // namespace kmx
