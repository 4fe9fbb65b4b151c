#include "error.h"

#include <cstdarg>
#include <cstdio>

namespace kmx {

namespace {
thread_local char last_error_text[1024];
}

Error::Error(kmx_status status, const char *fmt, ...) : status_(status) {
    va_list args;
    va_start(args, fmt);
    std::vsnprintf(message_, sizeof message_, fmt, args);
    va_end(args);
}

void fail(kmx_status status, const char *fmt, ...) {
    char text[480];
    va_list args;
    va_start(args, fmt);
    std::vsnprintf(text, sizeof text, fmt, args);
    va_end(args);
    throw Error(status, "%s", text);
}

void set_last_error(const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    std::vsnprintf(last_error_text, sizeof last_error_text, fmt, args);
    va_end(args);
}

const char *last_error() noexcept { return last_error_text; }

void clear_last_error() noexcept { last_error_text[0] = '\0'; }

}  // namespace kmx
