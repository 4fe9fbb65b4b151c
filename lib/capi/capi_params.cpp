// The parameter table's C face: names, bounds, defaults, descriptions, value
// names, owners and the methods that use each parameter (core/params.cpp).
#include <cstring>

#include "core/params.h"
#include "firewall.h"

namespace {

const kmx::ParamSpec &require_param(kmx_param param) {
    const kmx::ParamSpec *spec = kmx::find_param(param);
    if (!spec) kmx::fail(KMX_E_INVALID_ARGUMENT, "unknown parameter %d", int(param));
    return *spec;
}

}  // namespace

extern "C" {

KMX_API int64_t kmx_param_count(void) { return kmx::param_count(); }

KMX_API kmx_status kmx_param_at(kmx_param *out, int64_t index) {
    return KMX_GUARDED({
        kmx::capi::require_pointer(out, "out");
        if (index < 0 || index >= kmx::param_count())
            kmx::fail(KMX_E_INVALID_ARGUMENT, "parameter index %lld is not in [0, %d)", (long long)index,
                      kmx::param_count());
        *out = kmx::param_at(int(index)).id;
    });
}

KMX_API kmx_status kmx_param_bounds(double *out_lower, double *out_upper, int *out_flags, kmx_param param) {
    return KMX_GUARDED({
        const kmx::ParamSpec &spec = require_param(param);
        if (out_lower) *out_lower = spec.lower;
        if (out_upper) *out_upper = spec.upper;
        if (out_flags) *out_flags = spec.flags;
    });
}

KMX_API kmx_status kmx_param_default(double *out, kmx_param param) {
    return KMX_GUARDED({
        kmx::capi::require_pointer(out, "out");
        *out = require_param(param).default_value;
    });
}

KMX_API kmx_status kmx_param_owners(int64_t *out, kmx_param param) {
    return KMX_GUARDED({
        kmx::capi::require_pointer(out, "out");
        *out = int64_t(require_param(param).owners);
    });
}

KMX_API kmx_status kmx_param_used_by(int *out, kmx_param param, kmx_method method) {
    return KMX_GUARDED({
        kmx::capi::require_pointer(out, "out");
        const kmx::ParamSpec &spec = require_param(param);
        kmx::check_param(*kmx::find_param(KMX_PARAM_METHOD), double(method));
        *out = (spec.methods >> unsigned(method)) & 1u;
    });
}

KMX_API const char *kmx_param_name(kmx_param param) {
    const kmx::ParamSpec *spec = kmx::find_param(param);
    return spec ? spec->name : "";
}

KMX_API const char *kmx_param_description(kmx_param param) {
    const kmx::ParamSpec *spec = kmx::find_param(param);
    return spec ? spec->description : "";
}

KMX_API const char *kmx_param_value_name(kmx_param param, double value) {
    const kmx::ParamSpec *spec = kmx::find_param(param);
    return spec ? kmx::param_value_name(*spec, value) : nullptr;
}

KMX_API kmx_status kmx_param_from_name(kmx_param *out, const char *name) {
    return KMX_GUARDED({
        kmx::capi::require_pointer(out, "out");
        kmx::capi::require_pointer(name, "name");
        const kmx::ParamSpec *spec = kmx::find_param(name, std::strlen(name));
        if (!spec) kmx::fail(KMX_E_INVALID_ARGUMENT, "no parameter is named '%s'", name);
        *out = spec->id;
    });
}

KMX_API kmx_status kmx_param_check(kmx_param param, double value) {
    return KMX_GUARDED({ kmx::check_param(require_param(param), value); });
}

}  // extern "C"
