// nystrom.cpp — Nyström: landmarks U, W = K(U,U) ≈ V_k Λ_k V_kᵀ, and the
// features Φ = C V_k Λ_k^{-1/2} (C = K(X,U)), so that G̃ = C W_k⁺ Cᵀ = ΦΦᵀ.
#include "nystrom.h"

#include <algorithm>
#include <cfloat>
#include <cmath>

#include "core/context.h"
#include "core/dataset.h"
#include "core/error.h"
#include "linalg/linalg.h"

namespace kmx {

namespace {

constexpr int64_t kBasisBlockRows = 512;  // rows of K(X, U) formed at a time

int64_t basis_block_rows(int64_t count) { return std::max<int64_t>(1, std::min(count, kBasisBlockRows)); }

int64_t requested_rank(const NystromOptions &options, int64_t m) {
    if (options.rank < 0 || options.rank > options.landmarks.m)
        fail(KMX_E_INVALID_ARGUMENT, "Nystrom: rank k=%lld must be in [1, m=%lld] (0 = m)", (long long)options.rank,
             (long long)options.landmarks.m);
    return options.rank == 0 ? m : std::min(options.rank, m);
}

}  // namespace

size_t inverse_sqrt_basis_workspace_bytes(int64_t m) {
    return WorkspacePlan().add<double>(size_t(m)).add_bytes(linalg::eig_sym_workspace_bytes(m)).bytes();
}

std::vector<double> inverse_sqrt_basis(int64_t m, double *block, int64_t rank, Arena &scratch, int64_t &r) {
    ArenaScope scope(scratch);
    double *values = scratch.alloc<double>(size_t(m));
    linalg::eig_sym(m, block, m, values, block, m, scratch);  // ascending; eigenvectors are block's columns
    const double threshold = double(m) * DBL_EPSILON * std::max(values[m - 1], 0.0);
    std::vector<int64_t> kept;  // eigenpair indices, largest first
    for (int64_t j = m - 1; j >= 0 && int64_t(kept.size()) < rank && values[j] > threshold; --j) kept.push_back(j);
    r = int64_t(kept.size());
    std::vector<double> basis(static_cast<size_t>(m * r));
    for (int64_t c = 0; c < r; ++c) {
        const int64_t j = kept[size_t(c)];
        const double scale = 1.0 / std::sqrt(values[j]);
        for (int64_t i = 0; i < m; ++i) basis[size_t(i * r + c)] = block[i * m + j] * scale;
    }
    return basis;
}

size_t kernel_times_basis_workspace_bytes(const KernelSpec &kernel, int64_t m, int64_t d) {
    const int64_t rows = kBasisBlockRows;
    return WorkspacePlan()
        .add<double>(size_t(rows * d))
        .add<double>(size_t(rows * m))
        .add_bytes(kernel_block_workspace_bytes(kernel, rows, m, d))
        .bytes();
}

void kernel_times_basis(Context &ctx, const KernelSpec &kernel, const Dataset &data, const int64_t *rows, int64_t first,
                        int64_t count, const double *landmarks, int64_t m, const double *basis, int64_t r, double *out,
                        Arena &scratch) {
    const int64_t d = data.d, step = basis_block_rows(count);
    ArenaScope scope(scratch);
    double *points = scratch.alloc<double>(size_t(step * d));
    double *block = scratch.alloc<double>(size_t(step * m));
    std::vector<int64_t> ids(static_cast<size_t>(step));
    for (int64_t begin = 0; begin < count; begin += step) {
        const int64_t size = std::min(step, count - begin);
        for (int64_t j = 0; j < size; ++j) ids[size_t(j)] = rows ? rows[begin + j] : first + begin + j;
        gather_rows(data, ids.data(), size, points);
        kernel_block(kernel, points, size, d, landmarks, m, d, d, block, m, scratch, ctx.threads);
        if (r > 0)
            linalg::gemm(linalg::Trans::No, linalg::Trans::No, size, r, m, 1.0, block, m, basis, r, 0.0,
                         out + begin * r, r, ctx.threads);
        ctx.check_cancel();
    }
}

size_t landmark_basis_workspace_bytes(const KernelSpec &kernel, const Dataset &data, const Dataset &landmarks) {
    if (!sparse_kernel_block(kernel, data, landmarks))
        return kernel_times_basis_workspace_bytes(kernel, landmarks.n, landmarks.d);
    const int64_t rows = kBasisBlockRows, m = landmarks.n;
    return WorkspacePlan()
        .add<double>(size_t(rows * m))
        .add_bytes(kernel_block_rows_workspace_bytes(kernel, data, rows, landmarks, m))
        .bytes();
}

void landmark_basis(Context &ctx, const KernelSpec &kernel, const Dataset &data, const Dataset &landmarks,
                    const double *basis, int64_t r, double *out, Arena &scratch) {
    const int64_t m = landmarks.n;
    if (!sparse_kernel_block(kernel, data, landmarks))
        return kernel_times_basis(ctx, kernel, data, nullptr, 0, data.n, landmarks.x, m, basis, r, out, scratch);
    // Sparse rows against sparse landmarks: the kernel on their nonzeros, no row widened.
    const int64_t step = basis_block_rows(data.n);
    ArenaScope scope(scratch);
    double *block = scratch.alloc<double>(size_t(step * m));
    for (int64_t begin = 0; begin < data.n; begin += step) {
        const int64_t size = std::min(step, data.n - begin);
        kernel_block_rows(kernel, data, begin, begin + size, landmarks, 0, m, block, m, scratch, ctx.threads);
        if (r > 0)
            linalg::gemm(linalg::Trans::No, linalg::Trans::No, size, r, m, 1.0, block, m, basis, r, 0.0,
                         out + begin * r, r, ctx.threads);
        ctx.check_cancel();
    }
}

NystromApproximation::NystromApproximation(Context &ctx, const KernelSpec &kernel, const Dataset &data,
                                           const NystromOptions &options)
    : KernelApproximation(resolved_kernel(kernel, data.d), data.d), n_(data.n) {
    require(data.n > 0 && data.d > 0, "Nystrom: the dataset is empty");
    check_finite_dataset(data, "Nystrom: x");
    requested_rank(options, options.landmarks.m);  // validates before any work
    LandmarkOptions landmark_options = options.landmarks;
    landmark_options.keep_sparse = true;
    landmarks_ = select_landmarks(ctx, this->kernel(), data, landmark_options);
    const std::unique_ptr<Dataset> landmarks = landmarks_.dataset();
    const int64_t m = landmarks_.m, k = requested_rank(options, m);
    ctx.check_budget(size_t(n_ * k + m * k) * sizeof(double), "Nystrom: features and basis");
    Arena scratch = ctx.reserve(
        WorkspacePlan()
            .add<double>(size_t(m * m))
            .add_bytes(std::max(inverse_sqrt_basis_workspace_bytes(m),
                                kernel_block_rows_workspace_bytes(this->kernel(), *landmarks, m, *landmarks, m)))
            .add_bytes(landmark_basis_workspace_bytes(this->kernel(), data, *landmarks))
            .bytes(),
        "Nystrom: W and its eigendecomposition");
    double *w = scratch.alloc<double>(size_t(m * m));
    kernel_block_rows(this->kernel(), *landmarks, 0, m, *landmarks, 0, m, w, m, scratch, ctx.threads);
    basis_ = inverse_sqrt_basis(m, w, k, scratch, rank_);
    if (rank_ == 0) fail(KMX_E_NUMERICAL, "Nystrom: W = K(U, U) has no positive eigenvalue");
    if (rank_ < k) ctx.log(KMX_LOG_INFO, "Nystrom: W has numerical rank %lld < k=%lld", (long long)rank_, (long long)k);
    ctx.progress(0.3, "Nystrom: W");
    features_.assign(size_t(n_ * rank_), 0.0);
    landmark_basis(ctx, this->kernel(), data, *landmarks, basis_.data(), rank_, features_.data(), scratch);
    ctx.progress(1.0, "Nystrom: features");
}

size_t NystromApproximation::bytes() const {
    return (features_.size() + basis_.size() + landmarks_.points.size() + landmarks_.csr.values.size()) *
               sizeof(double) +
           (landmarks_.rows.size() + landmarks_.csr.row_ptr.size()) * sizeof(int64_t) +
           landmarks_.csr.col.size() * sizeof(int32_t);
}

void NystromApproximation::feature_map(Context &ctx, const Dataset &data, double *out) const {
    if (data.d != d())
        fail(KMX_E_INVALID_ARGUMENT, "Nystrom feature map: data has %lld columns, the landmarks %lld",
             (long long)data.d, (long long)d());
    const std::unique_ptr<Dataset> landmarks = landmarks_.dataset();
    Arena scratch = ctx.reserve(landmark_basis_workspace_bytes(kernel(), data, *landmarks), "Nystrom: features");
    landmark_basis(ctx, kernel(), data, *landmarks, basis_.data(), rank_, out, scratch);
}

void NystromApproximation::apply_f(Context &ctx, Arena &, const double *u, double *out, int64_t columns) const {
    linalg::gemm(linalg::Trans::No, linalg::Trans::No, n_, columns, rank_, 1.0, features_.data(), rank_, u, columns,
                 0.0, out, columns, ctx.threads);
}

void NystromApproximation::apply_ft(Context &ctx, Arena &, const double *v, double *out, int64_t columns) const {
    linalg::gemm(linalg::Trans::Yes, linalg::Trans::No, rank_, columns, n_, 1.0, features_.data(), rank_, v, columns,
                 0.0, out, columns, ctx.threads);
}

void NystromApproximation::f_gram(Context &ctx, Arena &, double *out) const {
    linalg::syrk(linalg::Uplo::Lower, linalg::Trans::Yes, rank_, n_, 1.0, features_.data(), rank_, 0.0, out, rank_,
                 ctx.threads);
    linalg::symmetrize(linalg::Uplo::Lower, rank_, out, rank_);
}

void NystromApproximation::f_rows(const int64_t *rows, int64_t count, double *out) const {
    for (int64_t j = 0; j < count; ++j) std::copy_n(features_.data() + rows[j] * rank_, rank_, out + j * rank_);
}

CenterExpansion NystromApproximation::expansion_of(Context &ctx, const double *u, int64_t outputs) const {
    CenterExpansion e;
    e.kernel = kernel();
    e.d = d();
    e.outputs = outputs;
    e.m = landmarks_.m;
    e.centers = landmarks_.points;
    e.sparse_centers = landmarks_.csr;
    e.beta.assign(size_t(e.m * outputs), 0.0);  // β = V_k Λ_k^{-1/2} u
    linalg::gemm(linalg::Trans::No, linalg::Trans::No, e.m, outputs, rank_, 1.0, basis_.data(), rank_, u, outputs, 0.0,
                 e.beta.data(), outputs, ctx.threads);
    return e;
}

}  // namespace kmx
