// krr.cpp — kernel ridge regression: exact (Cholesky of G + nλI), and on a
// kernel approximation G̃ by Woodbury or conjugate gradients; each fit ends
// as a CenterExpansion (krr.h).
#include "krr.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/context.h"
#include "core/dataset.h"
#include "core/error.h"
#include "linalg/linalg.h"

namespace kmx {

namespace {

void check_lambda(double lambda) {
    if (!(lambda > 0) || !std::isfinite(lambda))
        fail(KMX_E_INVALID_ARGUMENT, "KRR: lambda=%g must be positive and finite", lambda);
}

void check_targets(const KrrTargets &targets, int64_t n) {
    require(targets.outputs >= 1, "KRR: targets have no output column");
    if (targets.y.size() != size_t(n * targets.outputs))
        fail(KMX_E_INVALID_ARGUMENT, "KRR: targets hold %zu values, expected n=%lld x outputs=%lld", targets.y.size(),
             (long long)n, (long long)targets.outputs);
    check_finite(targets.y.data(), n, targets.outputs, "KRR: targets");
}

void check_options(const KrrOptions &options) {
    check_lambda(options.lambda);
    if (options.solver == KrrSolver::cg) {
        require(options.cg_tolerance > 0 && std::isfinite(options.cg_tolerance), "KRR: cg_tolerance must be > 0");
        require(options.cg_max_iterations >= 1, "KRR: cg_max_iterations must be at least 1");
    }
}

double dot(const double *a, const double *b, int64_t n) {
    double sum = 0;
    for (int64_t i = 0; i < n; ++i) sum += a[i] * b[i];
    return sum;
}

// x = (G̃ + shift·I)⁻¹ b by conjugate gradients from x = 0; returns the iterations run.
int conjugate_gradient(Context &ctx, const KernelApproximation &approx, double shift, const double *b, double *x,
                       const KrrOptions &options, Arena &scratch) {
    const int64_t n = approx.n();
    ArenaScope scope(scratch);
    double *r = scratch.alloc<double>(size_t(n));
    double *p = scratch.alloc<double>(size_t(n));
    double *ap = scratch.alloc<double>(size_t(n));
    std::fill(x, x + n, 0.0);
    std::copy_n(b, n, r);
    std::copy_n(b, n, p);
    double rr = dot(r, r, n);
    const double stop = options.cg_tolerance * std::sqrt(rr);
    int iteration = 0;
    while (std::sqrt(rr) > stop && iteration < options.cg_max_iterations) {
        approx.matvec(ctx, scratch, p, ap, 1);
        for (int64_t i = 0; i < n; ++i) ap[i] += shift * p[i];
        const double step = rr / dot(p, ap, n);
        for (int64_t i = 0; i < n; ++i) {
            x[i] += step * p[i];
            r[i] -= step * ap[i];
        }
        const double rr_next = dot(r, r, n);
        for (int64_t i = 0; i < n; ++i) p[i] = r[i] + (rr_next / rr) * p[i];
        rr = rr_next;
        ++iteration;
        ctx.check_cancel();
    }
    if (std::sqrt(rr) > stop)
        ctx.log(KMX_LOG_WARNING, "KRR: CG stopped after %d iterations at relative residual %g", iteration,
                std::sqrt(rr) / std::max(stop / options.cg_tolerance, 1e-300));
    return iteration;
}

// α (n x outputs) = (G̃ + shift·I)⁻¹ Y column by column.
int solve_by_cg(Context &ctx, const KernelApproximation &approx, double shift, const KrrTargets &targets, double *alpha,
                const KrrOptions &options) {
    const int64_t n = approx.n(), outputs = targets.outputs;
    Arena scratch = ctx.reserve(WorkspacePlan()
                                    .add<double>(size_t(n))
                                    .add<double>(size_t(n))
                                    .add<double>(size_t(n))
                                    .add<double>(size_t(n))
                                    .add<double>(size_t(n))
                                    .add_bytes(approx.matvec_workspace_bytes(1))
                                    .bytes(),
                                "KRR: conjugate gradients");
    double *b = scratch.alloc<double>(size_t(n));
    double *x = scratch.alloc<double>(size_t(n));
    int most = 0;
    for (int64_t k = 0; k < outputs; ++k) {
        for (int64_t i = 0; i < n; ++i) b[i] = targets.y[size_t(i * outputs + k)];
        most = std::max(most, conjugate_gradient(ctx, approx, shift, b, x, options, scratch));
        for (int64_t i = 0; i < n; ++i) alpha[i * outputs + k] = x[i];
    }
    return most;
}

}  // namespace

CenterExpansion fit_krr_exact(Context &ctx, const KernelSpec &kernel, const Dataset &data, const KrrTargets &targets,
                              double lambda) {
    check_lambda(lambda);
    require(data.n > 0 && data.d > 0, "KRR: the dataset is empty");
    check_targets(targets, data.n);
    check_finite_dataset(data, "KRR: x");
    const int64_t n = data.n, d = data.d, outputs = targets.outputs;
    CenterExpansion e;
    e.kernel = resolved_kernel(kernel, d);
    ctx.check_budget(size_t(n * outputs) * sizeof(double), "exact KRR: coefficients");
    Arena scratch = ctx.reserve(WorkspacePlan()
                                    .add<double>(size_t(n * n))
                                    .add_bytes(kernel_block_rows_workspace_bytes(e.kernel, data, n, data, n))
                                    .bytes(),
                                "exact KRR: the n x n kernel matrix");
    double *gram = scratch.alloc<double>(size_t(n * n));
    kernel_block_rows(e.kernel, data, 0, n, data, 0, n, gram, n, scratch, ctx.threads);
    for (int64_t i = 0; i < n; ++i) gram[i * n + i] += double(n) * lambda;  // G + nλI
    ctx.progress(0.3, "exact KRR: kernel matrix");
    linalg::cholesky(linalg::Uplo::Lower, n, gram, n);
    ctx.progress(0.9, "exact KRR: Cholesky");
    e.d = d;
    e.outputs = outputs;
    e.m = n;
    e.beta = targets.y;  // α = L⁻ᵀ L⁻¹ Y
    linalg::trsm(linalg::Side::Left, linalg::Uplo::Lower, linalg::Trans::No, n, outputs, 1.0, gram, n, e.beta.data(),
                 outputs);
    linalg::trsm(linalg::Side::Left, linalg::Uplo::Lower, linalg::Trans::Yes, n, outputs, 1.0, gram, n, e.beta.data(),
                 outputs);
    keep_centers(ctx, data, nullptr, n, "exact KRR: centers", e);
    ctx.progress(1.0, "exact KRR");
    return e;
}

KrrFit fit_krr_approx(Context &ctx, const KernelApproximation &approx, const KrrTargets &targets,
                      const KrrOptions &options) {
    check_options(options);
    check_targets(targets, approx.n());
    const int64_t n = approx.n(), outputs = targets.outputs;
    const double shift = double(n) * options.lambda;  // G̃ + nλI
    ctx.check_budget(size_t(n * outputs) * sizeof(double), "KRR: alpha");
    std::vector<double> alpha(static_cast<size_t>(n * outputs));
    KrrFit fit;
    if (options.solver == KrrSolver::woodbury)
        approx.solve(ctx, shift, targets.y.data(), alpha.data(), outputs);
    else
        fit.cg_iterations = solve_by_cg(ctx, approx, shift, targets, alpha.data(), options);
    fit.expansion = approx.expansion(ctx, alpha.data(), outputs);
    fit.approximation_bytes = approx.bytes();
    return fit;
}

ApproxOptions approx_options_for(const KrrOptions &options) {
    ApproxOptions approx = options.approx;
    approx.method = options.method == KrrMethod::meka      ? ApproxMethod::meka
                    : options.method == KrrMethod::nystrom ? ApproxMethod::nystrom
                                                           : ApproxMethod::kmeans_nystrom;
    return approx;
}

KrrFit fit_krr(Context &ctx, const KernelSpec &kernel, const Dataset &data, const KrrTargets &targets,
               const KrrOptions &options) {
    check_options(options);
    require(data.n > 0 && data.d > 0, "KRR: the dataset is empty");
    check_targets(targets, data.n);
    if (options.method == KrrMethod::exact) {
        KrrFit fit;
        fit.expansion = fit_krr_exact(ctx, kernel, data, targets, options.lambda);
        return fit;
    }
    const std::unique_ptr<KernelApproximation> approx =
        make_approximation(ctx, kernel, data, approx_options_for(options));
    return fit_krr_approx(ctx, *approx, targets, options);
}

}  // namespace kmx
