// k-means through the C ABI.
#include "cluster/kmeans.h"
#include "core/params.h"
#include "firewall.h"
#include "handles.h"

namespace {}  // namespace

using namespace kmx::capi;

extern "C" {

KMX_API kmx_status kmx_kmeans(double *out_centers, int64_t centers_len, int32_t *out_assignment, int64_t assignment_len,
                              double *out_objective, kmx_context *ctx, const kmx_dataset *data, int64_t k,
                              const char *params) {
    return KMX_GUARDED({
        const kmx::Dataset &ds = dataset_of(data, "data");
        if (k < 1 || k > ds.n || k > INT32_MAX)
            kmx::fail(KMX_E_INVALID_ARGUMENT, "k = %lld clusters must be in [1, n = %lld]", (long long)k,
                      (long long)ds.n);
        if (out_centers) require_length(centers_len, k * ds.d, "out_centers");
        if (out_assignment) require_length(assignment_len, ds.n, "out_assignment");
        const kmx::ParamList list = kmx::ParamList(params, kmx::kKMeansParams);
        kmx::KMeansOptions options;
        options.k = k;
        options.max_iter = int(list.get(KMX_PARAM_KMEANS_MAX_ITER, options.max_iter));
        options.tol = list.get(KMX_PARAM_KMEANS_TOL, options.tol);
        CallContext call(ctx);
        kmx::WorkspacePlan plan;
        plan.add<double>(size_t(k * ds.d)).add<int32_t>(size_t(ds.n));
        plan.add_bytes(kmx::kmeans_workspace_bytes(ds, k, call->threads));
        kmx::Arena arena = call->reserve(plan.bytes(), "k-means");
        double *centers = out_centers ? out_centers : arena.alloc<double>(size_t(k * ds.d));
        int32_t *assignment = out_assignment ? out_assignment : arena.alloc<int32_t>(size_t(ds.n));
        const kmx::KMeansResult result = kmx::kmeans(*call, arena, ds, options, centers, assignment);
        if (out_objective) *out_objective = result.objective;
    });
}

KMX_API kmx_status kmx_kmeans_assign(int32_t *out_assignment, int64_t assignment_len, double *out_sqdist,
                                     int64_t sqdist_len, kmx_context *ctx, const kmx_dataset *data,
                                     const double *centers, int64_t k) {
    return KMX_GUARDED({
        require_pointer(out_assignment, "out_assignment");
        const kmx::Dataset &ds = dataset_of(data, "data");
        require_pointer(centers, "centers");
        if (k < 1 || k > INT32_MAX) kmx::fail(KMX_E_INVALID_ARGUMENT, "k = %lld must be positive", (long long)k);
        require_length(assignment_len, ds.n, "out_assignment");
        if (out_sqdist) require_length(sqdist_len, ds.n, "out_sqdist");
        kmx::check_finite(centers, k, ds.d, "centers");
        CallContext call(ctx);
        kmx::Arena arena =
            call->reserve(kmx::kmeans_assign_workspace_bytes(ds, k, call->threads), "k-means assignment");
        kmx::kmeans_assign(*call, arena, ds, centers, k, out_assignment, out_sqdist);
    });
}

}  // extern "C"
