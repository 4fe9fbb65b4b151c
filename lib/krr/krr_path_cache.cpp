// krr_path_cache.cpp — exact, Nyström and MEKA KRR along a λ path on the
// parts kept from the path's earlier values (krr_path_cache.h).
#include "krr_path_cache.h"

#include <tuple>

#include "core/context.h"
#include "core/dataset.h"
#include "core/error.h"

namespace kmx {

namespace {

// The approximation's options, with the landmarks' λ only where it is used.
auto approx_fields(const ApproxOptions &a) {
    const double leverage_lambda = a.landmark_method == LandmarkMethod::leverage ? a.leverage_lambda : 0.0;
    return std::make_tuple(a.method, a.rank, a.landmarks, a.landmark_method, a.landmark_weights, leverage_lambda,
                           a.clusters, a.eps, a.rho, a.link_tolerance, a.proportional_rank, a.psd_repair,
                           a.kmeans_sample, a.kmeans_iterations);
}

bool same_fit(const KrrPathKey &a, const KrrPathKey &b) {
    return a.data == b.data && a.n == b.n && a.d == b.d && a.outputs == b.outputs && a.seed == b.seed &&
           same_kernel(a.kernel, b.kernel, a.d) && a.options.method == b.options.method &&
           (a.options.method == KrrMethod::exact || approx_fields(a.options.approx) == approx_fields(b.options.approx));
}

}  // namespace

size_t tridiagonal_path_values(int64_t n) { return n <= 500 ? 4 : n <= 1000 ? 7 : 10; }

void KrrPathCache::keep_only(const KrrPathKey &key) {
    if (key_.data && same_fit(key_, key)) return;
    exact_.reset();
    exact_decided_ = false;
    approx_.reset();
    approx_charge_.reset();
    key_ = key;
}

KrrFit KrrPathCache::fit_exact(Context &ctx, const KernelSpec &kernel, const Dataset &data, const KrrTargets &targets,
                               double lambda) {
    const KernelSpec resolved = resolved_kernel(kernel, data.d);
    if (!exact_decided_) {
        exact_decided_ = true;
        if (path_values_ < tridiagonal_path_values(data.n))
            ctx.log(KMX_LOG_DEBUG, "exact KRR along lambda: %zu values on %lld rows, a Cholesky per lambda",
                    path_values_, (long long)data.n);
        else if (!krr_tridiagonal_fits(ctx, resolved, data, targets.outputs))
            ctx.log(KMX_LOG_DEBUG,
                    "exact KRR along lambda: the tridiagonal form of the %lld x %lld kernel matrix does not fit the "
                    "memory budget left (%zu bytes): a Cholesky per lambda",
                    (long long)data.n, (long long)data.n, ctx.left_bytes());
        else
            exact_ = krr_tridiagonal(ctx, resolved, data, targets);
        if (exact_)
            ctx.log(KMX_LOG_DEBUG, "exact KRR along lambda: kernel matrix reduced to tridiagonal form once (n = %lld)",
                    (long long)data.n);
    }
    KrrFit fit;
    if (exact_ && krr_tridiagonal_fit(ctx, *exact_, data, lambda, fit.expansion)) return fit;
    if (exact_)
        ctx.log(KMX_LOG_DEBUG, "exact KRR: T + n lambda I is not positive definite at lambda %g: a Cholesky", lambda);
    fit.expansion = fit_krr_exact(ctx, kernel, data, targets, lambda);
    return fit;
}

KrrFit KrrPathCache::fit(Context &ctx, const KernelSpec &kernel, const Dataset &data, const KrrTargets &targets,
                         const KrrOptions &options) {
    if (path_values_ < 2) return fit_krr(ctx, kernel, data, targets, options);
    require(data.n > 0 && data.d > 0, "KRR: the dataset is empty");
    KrrPathKey key{&data, data.n, data.d, targets.outputs, resolved_kernel(kernel, data.d), options, ctx.seed};
    key.options.approx = approx_options_for(options);
    keep_only(key);
    if (options.method == KrrMethod::exact) return fit_exact(ctx, kernel, data, targets, options.lambda);
    if (!approx_) {
        approx_ = make_approximation(ctx, kernel, data, key.options.approx);
        approx_charge_ = ctx.hold(approx_->bytes());
    } else {
        ctx.log(KMX_LOG_DEBUG, "KRR: lambda %g on the kept approximation (rank %lld)", options.lambda,
                (long long)approx_->rank());
    }
    return fit_krr_approx(ctx, *approx_, targets, options);
}

}  // namespace kmx
