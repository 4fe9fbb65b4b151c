// kmx_kernel: kernel functions and kernel blocks.
#include <cmath>

#include "core/params.h"
#include "firewall.h"
#include "handles.h"

namespace kmx::capi {

namespace {

void apply(KernelSpec &spec, kmx_param param, double value) {
    switch (param) {
        case KMX_PARAM_KERNEL:
            spec.type = kmx_kernel_type(int(value));
            break;
        case KMX_PARAM_GAMMA:
            spec.gamma = value;
            break;
        case KMX_PARAM_COEF0:
            spec.coef0 = value;
            break;
        case KMX_PARAM_DEGREE:
            spec.degree = int(value);
            break;
        default:
            fail(KMX_E_INTERNAL, "kernel parameter %d has no field", int(param));
    }
}

void apply_string(KernelSpec &spec, const char *params) {
    const ParamList list = kmx::ParamList(params, kmx::kKernelParams);
    for (int i = 0; i < list.size(); ++i) apply(spec, list[i].spec->id, list[i].value);
}

KernelSpec &mutable_kernel(kmx_kernel *kernel) {
    require_pointer(kernel, "kernel");
    return kernel->spec;
}

}  // namespace

const KernelSpec &kernel_of(const kmx_kernel *kernel, const char *name) {
    require_pointer(kernel, name);
    return kernel->spec;
}

}  // namespace kmx::capi

using namespace kmx::capi;

extern "C" {

KMX_API kmx_status kmx_kernel_create(kmx_kernel **out, kmx_kernel_type type) {
    return KMX_GUARDED({
        require_pointer(out, "out");
        *out = nullptr;
        kmx::check_param(*kmx::find_param(KMX_PARAM_KERNEL), double(type));
        kmx_kernel *kernel = new kmx_kernel();
        kernel->spec.type = type;
        *out = kernel;
    });
}

KMX_API kmx_status kmx_kernel_create_callback(kmx_kernel **out, kmx_kernel_fn fn, void *user_data) {
    return KMX_GUARDED({
        require_pointer(out, "out");
        *out = nullptr;
        require_pointer(reinterpret_cast<const void *>(fn), "fn");
        kmx::KernelSpec spec;
        spec.type = KMX_KERNEL_CALLBACK;
        spec.callback = fn;
        spec.callback_data = user_data;
        *out = new kmx_kernel{spec};
    });
}

KMX_API kmx_status kmx_kernel_create_from_string(kmx_kernel **out, const char *params) {
    return KMX_GUARDED({
        require_pointer(out, "out");
        *out = nullptr;
        kmx::KernelSpec spec;
        apply_string(spec, params);
        *out = new kmx_kernel{spec};
    });
}

KMX_API void kmx_kernel_free(kmx_kernel *kernel) { delete kernel; }

KMX_API kmx_status kmx_kernel_set_param(kmx_kernel *kernel, kmx_param param, double value) {
    return KMX_GUARDED({
        kmx::KernelSpec &spec = mutable_kernel(kernel);
        kmx::kKernelParams.check(param, value);
        apply(spec, param, value);
    });
}

KMX_API kmx_status kmx_kernel_get_param(double *out, const kmx_kernel *kernel, kmx_param param) {
    return KMX_GUARDED({
        require_pointer(out, "out");
        const kmx::KernelSpec &spec = kernel_of(kernel, "kernel");
        kmx::kKernelParams.require_member(param);
        switch (param) {
            case KMX_PARAM_KERNEL:
                *out = spec.type;
                break;
            case KMX_PARAM_GAMMA:
                *out = spec.gamma;
                break;
            case KMX_PARAM_COEF0:
                *out = spec.coef0;
                break;
            default:
                *out = spec.degree;
                break;
        }
    });
}

KMX_API kmx_status kmx_kernel_set_params(kmx_kernel *kernel, const char *params) {
    return KMX_GUARDED({
        kmx::KernelSpec &spec = mutable_kernel(kernel);
        kmx::KernelSpec updated = spec;
        apply_string(updated, params);
        spec = updated;
    });
}

KMX_API kmx_status kmx_kernel_eval(double *out, const kmx_kernel *kernel, const double *a, const double *b, int64_t d) {
    return KMX_GUARDED({
        require_pointer(out, "out");
        const kmx::KernelSpec &spec = kernel_of(kernel, "kernel");
        require_pointer(a, "a");
        require_pointer(b, "b");
        if (d <= 0) kmx::fail(KMX_E_INVALID_ARGUMENT, "d = %lld must be positive", (long long)d);
        kmx::check_finite(a, 1, d, "a");
        kmx::check_finite(b, 1, d, "b");
        *out = kmx::kernel_eval(spec, a, b, d);
    });
}

KMX_API kmx_status kmx_kernel_block(double *out, int64_t out_len, kmx_context *ctx, const kmx_kernel *kernel,
                                    const double *a, int64_t na, const double *b, int64_t nb, int64_t d) {
    return KMX_GUARDED({
        require_pointer(out, "out");
        const kmx::KernelSpec &spec = kernel_of(kernel, "kernel");
        require_pointer(a, "a");
        require_pointer(b, "b");
        if (na <= 0 || nb <= 0 || d <= 0)
            kmx::fail(KMX_E_INVALID_ARGUMENT, "sizes na=%lld nb=%lld d=%lld must be positive", (long long)na,
                      (long long)nb, (long long)d);
        require_length(out_len, checked_product(na, nb, "na*nb"), "out");
        checked_product(na, d, "na*d");
        checked_product(nb, d, "nb*d");
        kmx::check_finite(a, na, d, "a");
        kmx::check_finite(b, nb, d, "b");
        CallContext call(ctx);
        kmx::Arena scratch = call->reserve(kmx::kernel_block_workspace_bytes(spec, na, nb, d), "kernel block");
        kmx::kernel_block(spec, a, na, d, b, nb, d, d, out, nb, scratch, call->threads);
    });
}

KMX_API kmx_status kmx_kernel_block_rows(double *out, int64_t out_len, kmx_context *ctx, const kmx_kernel *kernel,
                                         const kmx_dataset *a, int64_t a_begin, int64_t a_end, const kmx_dataset *b,
                                         int64_t b_begin, int64_t b_end) {
    return KMX_GUARDED({
        require_pointer(out, "out");
        const kmx::KernelSpec &spec = kernel_of(kernel, "kernel");
        const kmx::Dataset &da = dataset_of(a, "a");
        const kmx::Dataset &db = dataset_of(b, "b");
        if (da.d != db.d)
            kmx::fail(KMX_E_INVALID_ARGUMENT, "datasets have %lld and %lld columns", (long long)da.d, (long long)db.d);
        require_row_range(da, a_begin, a_end, "a");
        require_row_range(db, b_begin, b_end, "b");
        const int64_t na = a_end - a_begin, nb = b_end - b_begin;
        require_length(out_len, checked_product(na, nb, "rows of a * rows of b"), "out");
        CallContext call(ctx);
        kmx::Arena scratch =
            call->reserve(kmx::kernel_block_rows_workspace_bytes(spec, da, na, db, nb), "kernel block");
        kmx::kernel_block_rows(spec, da, a_begin, a_end, db, b_begin, b_end, out, nb, scratch, call->threads);
    });
}

}  // extern "C"
