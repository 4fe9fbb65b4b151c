// kmx_context: threads, seed, memory budget, callbacks, cancellation.
#include <cmath>
#include <new>

#include "core/params.h"
#include "firewall.h"
#include "handles.h"

namespace kmx::capi {

namespace {

void apply(Context &ctx, kmx_param param, double value) {
    switch (param) {
        case KMX_PARAM_THREADS:
            ctx.threads = value == 0 ? machine_threads() : int(value);
            break;
        case KMX_PARAM_SEED:
            ctx.seed = uint64_t(value);
            break;
        case KMX_PARAM_MEMORY_BUDGET:
            ctx.memory_budget = size_t(value);
            break;
        case KMX_PARAM_LOG_LEVEL:
            ctx.log_level = kmx_log_level(int(value));
            break;
        case KMX_PARAM_PRECISION:
            ctx.float32_data = value == KMX_PRECISION_FLOAT32;
            break;
        default:
            fail(KMX_E_INTERNAL, "context parameter %d has no field", int(param));
    }
}

double value_of(const Context &ctx, kmx_param param) {
    switch (param) {
        case KMX_PARAM_THREADS:
            return ctx.threads;
        case KMX_PARAM_SEED:
            return double(ctx.seed);
        case KMX_PARAM_MEMORY_BUDGET:
            return double(ctx.memory_budget);
        case KMX_PARAM_LOG_LEVEL:
            return ctx.log_level;
        case KMX_PARAM_PRECISION:
            return ctx.float32_data ? KMX_PRECISION_FLOAT32 : KMX_PRECISION_FLOAT64;
        default:
            fail(KMX_E_INTERNAL, "context parameter %d has no field", int(param));
    }
}

Context &context_of(kmx_context *ctx) {
    require_pointer(ctx, "ctx");
    return ctx->impl;
}
}  // namespace

CallContext::CallContext(kmx_context *ctx) : ctx_(ctx ? &ctx->impl : &fallback_) {
    if (!ctx) fallback_.use_machine_defaults();
    ctx_->begin_call();
}

}  // namespace kmx::capi

using namespace kmx::capi;

extern "C" {

KMX_API kmx_status kmx_context_create(kmx_context **out) {
    return KMX_GUARDED({
        require_pointer(out, "out");
        *out = nullptr;
        *out = new kmx_context();
        (*out)->impl.use_machine_defaults();
    });
}

KMX_API void kmx_context_free(kmx_context *ctx) { delete ctx; }

KMX_API kmx_status kmx_context_set_param(kmx_context *ctx, kmx_param param, double value) {
    return KMX_GUARDED({
        kmx::Context &impl = context_of(ctx);
        kmx::kContextParams.check(param, value);
        apply(impl, param, value);
    });
}

KMX_API kmx_status kmx_context_get_param(double *out, const kmx_context *ctx, kmx_param param) {
    return KMX_GUARDED({
        require_pointer(out, "out");
        require_pointer(ctx, "ctx");
        kmx::kContextParams.require_member(param);
        *out = value_of(ctx->impl, param);
    });
}

KMX_API kmx_status kmx_context_set_params(kmx_context *ctx, const char *params) {
    return KMX_GUARDED({
        kmx::Context &impl = context_of(ctx);
        const kmx::ParamList list = kmx::ParamList(params, kmx::kContextParams);
        for (int i = 0; i < list.size(); ++i) apply(impl, list[i].spec->id, list[i].value);
    });
}

KMX_API kmx_status kmx_context_set_log_callback(kmx_context *ctx, kmx_log_fn fn, void *user_data) {
    return KMX_GUARDED({
        kmx::Context &impl = context_of(ctx);
        impl.log_fn = fn;
        impl.log_user = user_data;
    });
}

KMX_API kmx_status kmx_context_set_progress_callback(kmx_context *ctx, kmx_progress_fn fn, void *user_data) {
    return KMX_GUARDED({
        kmx::Context &impl = context_of(ctx);
        impl.progress_fn = fn;
        impl.progress_user = user_data;
    });
}

KMX_API kmx_status kmx_context_set_communicator(kmx_context *ctx, const kmx_communicator *comm) {
    return KMX_GUARDED({
        kmx::Context &impl = context_of(ctx);
        impl.comm = comm ? kmx::Communicator(*comm) : kmx::Communicator();
    });
}

KMX_API kmx_status kmx_context_cancel(kmx_context *ctx) { return KMX_GUARDED(context_of(ctx).request_cancel()); }

KMX_API kmx_status kmx_context_peak_bytes(int64_t *out, const kmx_context *ctx) {
    return KMX_GUARDED({
        require_pointer(out, "out");
        require_pointer(ctx, "ctx");
        *out = int64_t(ctx->impl.peak_bytes());
    });
}

}  // extern "C"
