// Version, status names, last error, and the capi helpers every entry point uses.
#include "firewall.h"

extern "C" {

KMX_API const char *kmx_version(void) { return KMX_VERSION_STRING; }

KMX_API int kmx_version_number(void) { return KMX_VERSION_NUMBER; }

KMX_API const char *kmx_status_name(kmx_status status) {
#define KMX_STATUS_NAME_CASE_(name, value) \
    case name:                             \
        return #name;
    switch (status) {
        KMX_STATUS_LIST(KMX_STATUS_NAME_CASE_)
        default:
            return "KMX_E_UNKNOWN";
    }
#undef KMX_STATUS_NAME_CASE_
}

KMX_API const char *kmx_last_error(void) { return kmx::last_error(); }

KMX_API void kmx_clear_error(void) { kmx::clear_last_error(); }

}  // extern "C"

namespace kmx::capi {

void require_length(int64_t have, int64_t need, const char *name) {
    if (have < need)
        fail(KMX_E_INVALID_ARGUMENT, "%s has %lld elements but %lld are needed", name, (long long)have,
             (long long)need);
}

int64_t checked_product(int64_t a, int64_t b, const char *what) {
    if (a < 0 || b < 0) fail(KMX_E_INVALID_ARGUMENT, "%s: negative size", what);
    if (b != 0 && a > INT64_MAX / b) fail(KMX_E_INVALID_ARGUMENT, "%s: size overflows", what);
    return a * b;
}

}  // namespace kmx::capi
