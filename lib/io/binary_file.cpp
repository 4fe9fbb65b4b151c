#include "binary_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
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
    AtomicFileWriter writer(path);
    writer.write(data, len);
    writer.commit();
}

// ------------------------------------------------------------ AtomicFileWriter

namespace {

// The folder holding `path` ("." for a bare name).
std::string folder_of(const std::string &path) {
    const size_t slash = path.rfind('/');
    if (slash == std::string::npos) return ".";
    return slash == 0 ? "/" : path.substr(0, slash);
}

// A name beside `path` that no one else is using: "<path>.tmp.<pid>.<n>",
// created with O_EXCL|O_NOFOLLOW (an existing file or symlink of that name
// is never opened) and the umask's mode.
int create_temporary(const std::string &path, std::string &temp) {
    static std::atomic<unsigned> counter{0};
    for (int attempt = 0; attempt < 100; ++attempt) {
        temp = path + ".tmp." + std::to_string(long(getpid())) + "." + std::to_string(counter++);
        const int fd = open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd >= 0 || errno != EEXIST) return fd;
    }
    return -1;
}

}  // namespace

AtomicFileWriter::AtomicFileWriter(const char *path) : path_(path) {
    fd_ = create_temporary(path_, temp_);
    if (fd_ < 0) io_failure("create", temp_.c_str(), errno);
}

AtomicFileWriter::~AtomicFileWriter() {
    if (fd_ < 0) return;
    close(fd_);
    unlink(temp_.c_str());
}

void AtomicFileWriter::write(const void *data, size_t len) {
    const char *bytes = static_cast<const char *>(data);
    while (len > 0) {
        const ssize_t written = ::write(fd_, bytes, len);
        if (written < 0 && errno == EINTR) continue;
        if (written <= 0) io_failure("write", temp_.c_str(), written < 0 ? errno : ENOSPC);
        bytes += written;
        len -= size_t(written);
    }
}

void AtomicFileWriter::commit() {
    if (fsync(fd_) != 0) io_failure("write", temp_.c_str(), errno);
    const int fd = fd_;
    fd_ = -1;
    if (close(fd) != 0) {
        const int error_number = errno;
        unlink(temp_.c_str());
        io_failure("write", temp_.c_str(), error_number);
    }
    if (std::rename(temp_.c_str(), path_.c_str()) != 0) {
        const int error_number = errno;
        unlink(temp_.c_str());
        io_failure("rename a temporary file to", path_.c_str(), error_number);
    }
    const int folder = open(folder_of(path_).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (folder >= 0) {  // the rename itself reaches the disk
        fsync(folder);
        close(folder);
    }
}

}  // namespace kmx
