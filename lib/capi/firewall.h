// firewall.h — the wall between C callers and C++ inside. Every extern "C"
// entry point runs its body through guarded(): any exception becomes a
// kmx_status and a thread-local message; nothing is thrown across the ABI.
#pragma once
#include <new>

#include "core/context.h"
#include "core/error.h"
#include "kmx/kmx.h"

namespace kmx::capi {

template <class Body>
kmx_status guarded(const char *function, Body &&body) noexcept {
    try {
        body();
        return KMX_OK;
    } catch (const Error &e) {
        set_last_error("%s: %s", function, e.what());
        return e.status();
    } catch (const std::bad_alloc &) {
        set_last_error("%s: out of memory", function);
        return KMX_E_OUT_OF_MEMORY;
    } catch (const std::exception &e) {
        set_last_error("%s: internal error: %s", function, e.what());
        return KMX_E_INTERNAL;
    } catch (...) {
        set_last_error("%s: internal error: unknown exception", function);
        return KMX_E_INTERNAL;
    }
}

// Runs body inside the firewall with the entry point's name in any message.
#define KMX_GUARDED(...) ::kmx::capi::guarded(__func__, [&]() { __VA_ARGS__; })

// Throws KMX_E_INVALID_ARGUMENT if p is null.
inline void require_pointer(const void *p, const char *name) {
    if (!p) fail(KMX_E_INVALID_ARGUMENT, "%s is NULL", name);
}

// Throws unless `have` >= `need`, naming the buffer.
void require_length(int64_t have, int64_t need, const char *name);

// a * b for non-negative sizes; throws (naming `what`) if negative or overflowing.
int64_t checked_product(int64_t a, int64_t b, const char *what);

// The context a call runs with: the caller's, or a default one for NULL.
class CallContext {
public:
    explicit CallContext(kmx_context *ctx);
    Context &operator*() { return *ctx_; }
    Context *operator->() { return ctx_; }

private:
    Context fallback_;
    Context *ctx_;
};

}  // namespace kmx::capi
