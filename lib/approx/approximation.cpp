// approximation.cpp — what every factored approximation G̃ = F J Fᵀ shares:
// products, the Woodbury solve, rows of G̃, the extension to new points and
// kernel expansions; and the factory from options.
#include "approximation.h"

#include <algorithm>
#include <cmath>

#include "core/context.h"
#include "core/dataset.h"
#include "core/error.h"
#include "linalg/linalg.h"
#include "meka.h"
#include "nystrom.h"

namespace kmx {

namespace {

constexpr int64_t kRowsPerChunk = 256;  // rows of G̃ formed at a time by extension_rows

void require_columns(const double *v, const double *out, int64_t columns) {
    require(v != nullptr && out != nullptr, "approximation: null vector");
    require(columns >= 1, "approximation: columns must be at least 1");
}

}  // namespace

void KernelApproximation::apply_signs(double *u, int64_t columns) const {
    const double *j = signs();
    if (!j) return;
    for (int64_t i = 0; i < rank(); ++i)
        for (int64_t c = 0; c < columns; ++c) u[i * columns + c] *= j[i];
}

size_t KernelApproximation::matvec_workspace_bytes(int64_t columns) const {
    return WorkspacePlan().add<double>(size_t(rank() * columns)).add_bytes(product_workspace_bytes(columns)).bytes();
}

void KernelApproximation::matvec(Context &ctx, Arena &scratch, const double *v, double *out, int64_t columns) const {
    ArenaScope scope(scratch);
    double *t = scratch.alloc<double>(size_t(rank() * columns));
    apply_ft(ctx, scratch, v, t, columns);   // t = Fᵀv
    apply_signs(t, columns);                 // t = J Fᵀv
    apply_f(ctx, scratch, t, out, columns);  // out = F J Fᵀ v
}

void KernelApproximation::matvec(Context &ctx, const double *v, double *out, int64_t columns) const {
    require_columns(v, out, columns);
    Arena scratch = ctx.reserve(matvec_workspace_bytes(columns), "approximation: product");
    matvec(ctx, scratch, v, out, columns);
}

// (G̃ + λI)⁻¹ v = λ⁻¹ (v − F (λJ + FᵀF)⁻¹ Fᵀ v).
void KernelApproximation::solve(Context &ctx, double lambda, const double *v, double *out, int64_t columns) const {
    require_columns(v, out, columns);
    if (!(lambda > 0) || !std::isfinite(lambda))
        fail(KMX_E_INVALID_ARGUMENT, "approximation solve: lambda=%g must be positive and finite", lambda);
    const int64_t r = rank();
    const size_t factor_bytes =
        WorkspacePlan().add<double>(size_t(r * r)).add_bytes(linalg::pinv_sym_workspace_bytes(r)).bytes();
    Arena scratch =
        ctx.reserve(WorkspacePlan()
                        .add<double>(size_t(r * r))
                        .add<double>(size_t(r * columns))
                        .add<double>(size_t(r * columns))
                        .add_bytes(std::max({f_gram_workspace_bytes(), product_workspace_bytes(columns), factor_bytes}))
                        .bytes(),
                    "approximation: Woodbury solve");
    double *inner = scratch.alloc<double>(size_t(r * r));
    double *t = scratch.alloc<double>(size_t(r * columns));
    double *u = scratch.alloc<double>(size_t(r * columns));
    f_gram(ctx, scratch, inner);
    const double *j = signs();
    for (int64_t i = 0; i < r; ++i) inner[i * r + i] += lambda * (j ? j[i] : 1.0);  // λJ + FᵀF
    apply_ft(ctx, scratch, v, t, columns);
    if (!j) {  // SPD: Cholesky
        linalg::cholesky(linalg::Uplo::Lower, r, inner, r);
        std::copy_n(t, r * columns, u);
        linalg::trsm(linalg::Side::Left, linalg::Uplo::Lower, linalg::Trans::No, r, columns, 1.0, inner, r, u, columns);
        linalg::trsm(linalg::Side::Left, linalg::Uplo::Lower, linalg::Trans::Yes, r, columns, 1.0, inner, r, u,
                     columns);
    } else {  // indefinite J: pseudo-inverse through the eigendecomposition
        ArenaScope scope(scratch);
        double *inverse = scratch.alloc<double>(size_t(r * r));
        linalg::pinv_sym(r, inner, r, inverse, r, scratch);
        linalg::gemm(linalg::Trans::No, linalg::Trans::No, r, columns, r, 1.0, inverse, r, t, columns, 0.0, u, columns,
                     ctx.threads);
    }
    apply_f(ctx, scratch, u, out, columns);
    const int64_t size = n() * columns;
    for (int64_t i = 0; i < size; ++i) out[i] = (v[i] - out[i]) / lambda;
}

size_t KernelApproximation::rows_workspace_bytes(int64_t count) const {
    return WorkspacePlan()
        .add<double>(size_t(rank() * count))  // F rows
        .add<double>(size_t(rank() * count))  // their transpose
        .add<double>(size_t(n() * count))     // G̃ columns
        .add_bytes(product_workspace_bytes(count))
        .bytes();
}

void KernelApproximation::rows_from_f(Context &ctx, Arena &scratch, const double *f, int64_t count, double *out) const {
    ArenaScope scope(scratch);
    double *u = scratch.alloc<double>(size_t(rank() * count));
    double *columns = scratch.alloc<double>(size_t(n() * count));
    linalg::transpose(f, count, rank(), u);  // u = f_rowsᵀ (r x count)
    apply_signs(u, count);
    apply_f(ctx, scratch, u, columns, count);  // F J f_rowsᵀ (n x count)
    linalg::transpose(columns, n(), count, out);
}

void KernelApproximation::training_rows(Context &ctx, Arena &scratch, const int64_t *rows, int64_t count,
                                        double *out) const {
    ArenaScope scope(scratch);
    double *f = scratch.alloc<double>(size_t(count * rank()));
    f_rows(rows, count, f);
    rows_from_f(ctx, scratch, f, count, out);
}

void KernelApproximation::training_rows(Context &ctx, const int64_t *rows, int64_t count, double *out) const {
    require(rows != nullptr && out != nullptr && count >= 0, "approximation rows: null rows or output");
    for (int64_t j = 0; j < count; ++j)
        if (rows[j] < 0 || rows[j] >= n())
            fail(KMX_E_INVALID_ARGUMENT, "approximation rows: row %lld is not in [0, %lld)", (long long)rows[j],
                 (long long)n());
    if (count == 0) return;
    Arena scratch = ctx.reserve(rows_workspace_bytes(count), "approximation: rows of G~");
    training_rows(ctx, scratch, rows, count, out);
}

void KernelApproximation::extension_rows(Context &ctx, const Dataset &queries, double *out) const {
    require(out != nullptr, "approximation extension: null output");
    if (queries.d != d())
        fail(KMX_E_INVALID_ARGUMENT, "approximation extension: points have %lld columns, the training data %lld",
             (long long)queries.d, (long long)d());
    check_finite_dataset(queries, "approximation extension: x");
    if (queries.n == 0) return;
    const int64_t chunk = std::min(kRowsPerChunk, queries.n);
    ctx.check_budget(size_t(queries.n * rank()) * sizeof(double), "approximation: F of new points");
    std::vector<double> f(static_cast<size_t>(queries.n * rank()));
    f_of(ctx, queries, f.data());
    Arena scratch = ctx.reserve(rows_workspace_bytes(chunk), "approximation: rows of G~");
    for (int64_t begin = 0; begin < queries.n; begin += chunk)
        rows_from_f(ctx, scratch, f.data() + begin * rank(), std::min(chunk, queries.n - begin), out + begin * n());
}

CenterExpansion KernelApproximation::expansion(Context &ctx, const double *alpha, int64_t outputs) const {
    require_columns(alpha, alpha, outputs);
    Arena scratch = ctx.reserve(matvec_workspace_bytes(outputs), "approximation: expansion");
    double *u = scratch.alloc<double>(size_t(rank() * outputs));
    apply_ft(ctx, scratch, alpha, u, outputs);
    apply_signs(u, outputs);  // G̃(x, X) α = F(x) (J Fᵀα)
    return expansion_of(ctx, u, outputs);
}

std::unique_ptr<KernelApproximation> make_approximation(Context &ctx, const KernelSpec &kernel, const Dataset &data,
                                                        const ApproxOptions &options) {
    if (options.method == ApproxMethod::meka) {
        MekaOptions meka;
        meka.clusters = options.clusters;
        meka.rank = options.rank;
        meka.columns = options.landmarks;
        meka.eps = options.eps;
        meka.rho = options.rho;
        meka.link_tolerance = options.link_tolerance;
        meka.proportional_rank = options.proportional_rank;
        meka.psd_repair = options.psd_repair;
        meka.kmeans_sample = options.kmeans_sample;
        meka.kmeans_iterations = options.kmeans_iterations;
        return std::make_unique<MekaApproximation>(ctx, kernel, data, meka);
    }
    require(options.method == ApproxMethod::nystrom || options.method == ApproxMethod::kmeans_nystrom,
            "approximation: unknown method");
    NystromOptions nystrom;
    nystrom.landmarks.method =
        options.method == ApproxMethod::kmeans_nystrom ? LandmarkMethod::kmeans : options.landmark_method;
    nystrom.landmarks.m = options.landmarks > 0 ? options.landmarks : options.rank;
    nystrom.landmarks.weights = options.landmark_weights;
    nystrom.landmarks.leverage_lambda = options.leverage_lambda;
    nystrom.rank = options.rank;
    require(nystrom.landmarks.m >= 1, "Nystrom: give landmarks m >= 1 or rank k >= 1");
    return std::make_unique<NystromApproximation>(ctx, kernel, data, nystrom);
}

}  // namespace kmx
