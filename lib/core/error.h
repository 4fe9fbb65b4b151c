// error.h — kmx's one error type inside the library, and the thread-local
// last-error message behind kmx_last_error(). Neither allocates.
#pragma once
#include <exception>

#include "kmx/kmx.h"

namespace kmx {

// Thrown by library code; caught by the C API firewall (lib/capi/firewall.h)
// and turned into a status plus kmx_last_error() text.
class Error : public std::exception {
public:
    Error(kmx_status status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
    kmx_status status() const noexcept { return status_; }
    const char *what() const noexcept override { return message_; }

private:
    kmx_status status_;
    char message_[480];
};

// Throws Error(status, formatted message).
[[noreturn]] void fail(kmx_status status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

// Throws KMX_E_INVALID_ARGUMENT naming `what` when `ok` is false.
inline void require(bool ok, const char *what) {
    if (!ok) fail(KMX_E_INVALID_ARGUMENT, "%s", what);
}

// Thread-local last error (fixed-size storage, never allocates).
void set_last_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
const char *last_error() noexcept;
void clear_last_error() noexcept;

}  // namespace kmx
