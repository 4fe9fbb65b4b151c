// kmx_approx: Nyström and MEKA approximations of a kernel matrix through the C ABI.
#include <cmath>

#include "approx/approx_defaults.h"
#include "core/params.h"
#include "firewall.h"
#include "handles.h"

namespace kmx::capi {

namespace {

// The options "approx=meka rank=64 ..." ask for, "auto" sizes resolved from n.
ApproxOptions approx_options(const char *params, int64_t n) {
    const ParamList list = kmx::ParamList(params, kmx::kApproxParams);
    ApproxOptions o;
    const int64_t rank = int64_t(list.get_or_default(KMX_PARAM_RANK));
    switch (kmx_approx_method(int(list.get_or_default(KMX_PARAM_APPROX)))) {
        case KMX_APPROX_MEKA:
            o.method = ApproxMethod::meka;
            o.clusters = int64_t(list.get_or_default(KMX_PARAM_CLUSTERS));
            if (o.clusters == 0) o.clusters = auto_meka_clusters(n);
            o.rank = rank > 0 ? rank : auto_meka_rank(n, o.clusters);
            o.eps = list.get_or_default(KMX_PARAM_THRESHOLD);
            o.rho = list.get_or_default(KMX_PARAM_OVERSAMPLING);
            o.proportional_rank = list.get_or_default(KMX_PARAM_RANK_BY_SIZE) != 0;
            return o;
        case KMX_APPROX_KMEANS_NYSTROM:
            o.method = ApproxMethod::kmeans_nystrom;
            o.landmark_method = LandmarkMethod::kmeans;
            break;
        default:
            o.method = ApproxMethod::nystrom;
            break;
    }
    o.landmarks = int64_t(list.get_or_default(KMX_PARAM_CENTERS));
    if (o.landmarks == 0) o.landmarks = auto_centers(n);
    o.rank = rank;
    return o;
}

const KernelApproximation &approx_of(const kmx_approx *approx) {
    require_pointer(approx, "approx");
    return *approx->impl;
}

// Checks an n-vector argument and an n-entry output.
void require_vectors(const KernelApproximation &a, double *out, int64_t out_len, const double *v, int64_t v_len) {
    require_pointer(out, "out");
    require_pointer(v, "v");
    if (v_len != a.n())
        fail(KMX_E_INVALID_ARGUMENT, "v has %lld entries; the approximation has n = %lld rows", (long long)v_len,
             (long long)a.n());
    require_length(out_len, a.n(), "out");
    check_finite(v, 1, v_len, "v");
}

}  // namespace

}  // namespace kmx::capi

using namespace kmx::capi;

extern "C" {

KMX_API kmx_status kmx_approx_create(kmx_approx **out, kmx_context *ctx, const kmx_kernel *kernel,
                                     const kmx_dataset *data, const char *params) {
    return KMX_GUARDED({
        require_pointer(out, "out");
        *out = nullptr;
        const kmx::KernelSpec &spec = kernel_of(kernel, "kernel");
        kmx::require_feature_kernel(spec, "a kernel approximation (Nystrom, MEKA)");
        const kmx::Dataset &ds = dataset_of(data, "data");
        const kmx::ApproxOptions options = approx_options(params, ds.n);
        CallContext call(ctx);
        kmx_approx *approx = new kmx_approx{kmx::make_approximation(*call, spec, ds, options)};
        *out = approx;
    });
}

KMX_API void kmx_approx_free(kmx_approx *approx) { delete approx; }

KMX_API kmx_status kmx_approx_matvec(double *out, int64_t out_len, kmx_context *ctx, const kmx_approx *approx,
                                     const double *v, int64_t v_len) {
    return KMX_GUARDED({
        const kmx::KernelApproximation &a = approx_of(approx);
        require_vectors(a, out, out_len, v, v_len);
        CallContext call(ctx);
        a.matvec(*call, v, out);
    });
}

KMX_API kmx_status kmx_approx_solve(double *out, int64_t out_len, kmx_context *ctx, const kmx_approx *approx,
                                    double lambda, const double *v, int64_t v_len) {
    return KMX_GUARDED({
        const kmx::KernelApproximation &a = approx_of(approx);
        if (!(lambda > 0) || !std::isfinite(lambda))
            kmx::fail(KMX_E_INVALID_ARGUMENT, "lambda = %g must be positive and finite", lambda);
        require_vectors(a, out, out_len, v, v_len);
        CallContext call(ctx);
        a.solve(*call, lambda, v, out);
    });
}

KMX_API kmx_status kmx_approx_relative_error(double *out, kmx_context *ctx, const kmx_approx *approx,
                                             const kmx_dataset *data, int64_t sample_rows) {
    return KMX_GUARDED({
        require_pointer(out, "out");
        const kmx::KernelApproximation &a = approx_of(approx);
        const kmx::Dataset &ds = dataset_of(data, "data");
        if (ds.n != a.n() || ds.d != a.d())
            kmx::fail(KMX_E_INVALID_ARGUMENT, "data is %lld x %lld but the approximation was built on %lld x %lld",
                      (long long)ds.n, (long long)ds.d, (long long)a.n(), (long long)a.d());
        if (sample_rows < 1)
            kmx::fail(KMX_E_INVALID_ARGUMENT, "sample_rows = %lld must be >= 1", (long long)sample_rows);
        CallContext call(ctx);
        *out = a.relative_error(*call, ds, sample_rows);
    });
}

KMX_API kmx_status kmx_approx_memory_bytes(int64_t *out, const kmx_approx *approx) {
    return KMX_GUARDED({
        require_pointer(out, "out");
        *out = int64_t(approx_of(approx).bytes());
    });
}

KMX_API kmx_status kmx_approx_rows(int64_t *out, const kmx_approx *approx) {
    return KMX_GUARDED({
        require_pointer(out, "out");
        *out = approx_of(approx).n();
    });
}

KMX_API kmx_status kmx_approx_rank(int64_t *out, const kmx_approx *approx) {
    return KMX_GUARDED({
        require_pointer(out, "out");
        *out = approx_of(approx).rank();
    });
}

}  // extern "C"
