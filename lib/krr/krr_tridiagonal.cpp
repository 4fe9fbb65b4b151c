// krr_tridiagonal.cpp — exact KRR along λ from G = Q T Qᵀ (krr_tridiagonal.h).
#include "krr_tridiagonal.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/context.h"
#include "core/dataset.h"
#include "core/error.h"
#include "linalg/linalg.h"

namespace kmx {

namespace {

size_t storage_bytes(int64_t n, int64_t outputs) {
    return WorkspacePlan()
        .add<double>(size_t(n) * size_t(n))
        .add<double>(size_t(n))
        .add<double>(size_t(n))
        .add<double>(size_t(n))
        .add<double>(size_t(n * outputs))
        .bytes();
}

size_t scratch_bytes(const KernelSpec &kernel, const Dataset &data, int64_t outputs) {
    const int64_t n = data.n;
    return std::max({kernel_block_rows_workspace_bytes(kernel, data, n, data, n),
                     linalg::tridiagonalize_workspace_bytes(n),
                     linalg::apply_tridiagonal_q_workspace_bytes(n, outputs)});
}

// What each λ's fit needs beside the storage: β (and the factor's pivots),
// dormtr's workspace, the centers (a copy of the rows).
size_t fit_bytes(const Dataset &data, int64_t outputs) {
    return WorkspacePlan()
        .add<double>(size_t(data.n * (outputs + 2)))
        .add_bytes(linalg::apply_tridiagonal_q_workspace_bytes(data.n, outputs))
        .add_bytes(data.stored_bytes())
        .bytes();
}

void carve(KrrTridiagonal &form) {
    const size_t n = size_t(form.n);
    form.reflectors = form.storage.alloc<double>(n * n);
    form.diagonal = form.storage.alloc<double>(n);
    form.off_diagonal = form.storage.alloc<double>(n);
    form.tau = form.storage.alloc<double>(n);
    form.qt_targets = form.storage.alloc<double>(n * size_t(form.outputs));
}

// T + shift·I = L D Lᵀ (L unit lower bidiagonal: l[i] = L(i+1, i)); false if a
// pivot of D is not positive.
bool factor_shifted(const KrrTridiagonal &form, double shift, double *pivot, double *l) {
    const int64_t n = form.n;
    pivot[0] = form.diagonal[0] + shift;
    for (int64_t i = 0; i + 1 < n; ++i) {
        if (!(pivot[i] > 0)) return false;
        l[i] = form.off_diagonal[i] / pivot[i];
        pivot[i + 1] = form.diagonal[i + 1] + shift - l[i] * form.off_diagonal[i];
    }
    return pivot[n - 1] > 0 && std::isfinite(pivot[n - 1]);
}

// z (n x k) ← (L D Lᵀ)⁻¹ z.
void solve_factored(int64_t n, int64_t k, const double *pivot, const double *l, double *z) {
    for (int64_t i = 0; i + 1 < n; ++i)
        for (int64_t j = 0; j < k; ++j) z[(i + 1) * k + j] -= l[i] * z[i * k + j];
    for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < k; ++j) z[i * k + j] /= pivot[i];
    for (int64_t i = n - 2; i >= 0; --i)
        for (int64_t j = 0; j < k; ++j) z[i * k + j] -= l[i] * z[(i + 1) * k + j];
}

}  // namespace

bool krr_tridiagonal_fits(const Context &ctx, const KernelSpec &kernel, const Dataset &data, int64_t outputs) {
    if (data.n < 1 || data.n > linalg::kLargestSymmetricOrder) return false;
    const size_t after_storage = std::max(scratch_bytes(kernel, data, outputs), fit_bytes(data, outputs));
    return storage_bytes(data.n, outputs) + after_storage <= ctx.left_bytes();
}

std::unique_ptr<KrrTridiagonal> krr_tridiagonal(Context &ctx, const KernelSpec &kernel, const Dataset &data,
                                                const KrrTargets &targets) {
    require(data.n >= 1 && targets.outputs >= 1 && targets.y.size() == size_t(data.n * targets.outputs),
            "exact KRR along lambda: targets must hold n x outputs values");
    check_finite_dataset(data, "KRR: x");
    auto form = std::make_unique<KrrTridiagonal>();
    form->n = data.n;
    form->outputs = targets.outputs;
    form->kernel = kernel;
    form->storage =
        ctx.reserve(storage_bytes(form->n, form->outputs), "exact KRR along lambda: the tridiagonal kernel matrix");
    carve(*form);
    Arena scratch = ctx.reserve(scratch_bytes(kernel, data, form->outputs), "exact KRR along lambda: scratch");
    const int64_t n = form->n, k = form->outputs;
    kernel_block_rows(kernel, data, 0, n, data, 0, n, form->reflectors, n, scratch, ctx.threads);
    ctx.progress(0.2, "exact KRR along lambda: kernel matrix");
    linalg::tridiagonalize(n, form->reflectors, n, form->diagonal, form->off_diagonal, form->tau, scratch);
    std::copy(targets.y.begin(), targets.y.end(), form->qt_targets);
    linalg::apply_tridiagonal_q(linalg::Trans::Yes, n, k, form->reflectors, n, form->tau, form->qt_targets, k, scratch);
    ctx.release(scratch);
    form->charge = ctx.hold(form->storage.capacity());
    ctx.progress(0.9, "exact KRR along lambda: tridiagonal form");
    return form;
}

bool krr_tridiagonal_fit(Context &ctx, const KrrTridiagonal &form, const Dataset &data, double lambda,
                         CenterExpansion &out) {
    if (!(lambda > 0) || !std::isfinite(lambda))
        fail(KMX_E_INVALID_ARGUMENT, "KRR: lambda=%g must be positive and finite", lambda);
    require(data.n == form.n, "exact KRR along lambda: the rows differ from those the form was built from");
    const int64_t n = form.n, k = form.outputs;
    ctx.check_budget(size_t(n * (k + 2)) * sizeof(double), "exact KRR along lambda: coefficients");
    std::vector<double> pivot(static_cast<size_t>(n)), l(static_cast<size_t>(n));
    if (!factor_shifted(form, double(n) * lambda, pivot.data(), l.data())) return false;
    CenterExpansion e;
    e.kernel = form.kernel;
    e.d = data.d;
    e.outputs = k;
    e.m = n;
    e.beta.assign(form.qt_targets, form.qt_targets + n * k);
    solve_factored(n, k, pivot.data(), l.data(), e.beta.data());  // (T + nλI)⁻¹ QᵀY
    Arena scratch = ctx.reserve(linalg::apply_tridiagonal_q_workspace_bytes(n, k), "exact KRR along lambda: Q");
    linalg::apply_tridiagonal_q(linalg::Trans::No, n, k, form.reflectors, n, form.tau, e.beta.data(), k, scratch);
    keep_centers(ctx, data, nullptr, n, "exact KRR: centers", e);
    out = std::move(e);
    return true;
}

}  // namespace kmx
