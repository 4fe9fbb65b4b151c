// leverage_scores.cpp — approximate ridge leverage scores and the landmarks
// they sample (FALKON paper, Theorem 4: q-approximate leverage scores).
//
// ℓ_λ(i) = (G (G + λn I)⁻¹)_ii = (K_ii − k_iᵀ (G + λn I)⁻¹ k_i) / (λn). With
// a uniform sub-sample J of s rows standing for all n (each weighing n/s),
// G + λn I is replaced by (n/s)(K_JJ + λs I) on the span of J, giving
//   ℓ̃_λ(i) = (K_ii − k_iᵀ (K_JJ + λs I)⁻¹ k_i) / (λn),   k_i = K(J, x_i),
// exact when J is every row. With K_JJ + λs I = L Lᵀ, the quadratic form is
// ‖L⁻¹ k_i‖², one triangular solve per block of rows.
#include "leverage_scores.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <utility>

#include "core/context.h"
#include "core/dataset.h"
#include "core/error.h"
#include "core/rng.h"
#include "linalg/linalg.h"

namespace kmx {
namespace {

constexpr int64_t kBlockValues = int64_t(1) << 20;  // k_i's of one block: 8 MB

int64_t block_rows_for(int64_t n, int64_t s) { return std::max<int64_t>(1, std::min(n, kBlockValues / s)); }

// K(x_i, x_i) for rows [begin, end); `row` is d doubles of scratch.
void kernel_diagonal(const KernelSpec &kernel, const Dataset &data, int64_t begin, int64_t end, double *row,
                     double *out) {
    for (int64_t i = begin; i < end; ++i) {
        data.copy_rows(i, i + 1, row);
        out[i - begin] = kernel_eval(kernel, row, row, data.d);
    }
}

size_t scores_workspace_bytes(const KernelSpec &kernel, const Dataset &data, const Dataset &sample) {
    const int64_t s = sample.n, block = block_rows_for(data.n, s);
    WorkspacePlan plan;
    plan.add<double>(size_t(s * s)).add<double>(size_t(block * s)).add<double>(size_t(data.d));
    // K_JJ (s rows) and then K(block rows, J): s may exceed the block's rows.
    plan.add_bytes(std::max(kernel_block_rows_workspace_bytes(kernel, sample, s, sample, s),
                            kernel_block_rows_workspace_bytes(kernel, data, block, sample, s)));
    return plan.bytes();
}

}  // namespace

int64_t leverage_subsample_size(int64_t n, int64_t m) {
    return std::min(n, std::max<int64_t>(256, std::min<int64_t>(2 * m, 2048)));
}

void approximate_leverage_scores(Context &ctx, const KernelSpec &kernel, const Dataset &data, double lambda,
                                 int64_t subsample, double *scores) {
    require(data.n > 0, "leverage scores: the dataset has no rows");
    require(lambda > 0 && std::isfinite(lambda), "leverage scores: lambda must be finite and > 0");
    require(subsample >= 1 && subsample <= data.n, "leverage scores: the sub-sample needs 1 <= s <= n rows");
    const int64_t n = data.n, s = subsample, d = data.d;
    Rng rng(ctx.seed);
    const std::vector<int64_t> rows = sample_rows(rng, n, s);
    std::vector<double> points(size_t(s * d));
    gather_rows(data, rows.data(), s, points.data());
    const auto sample = Dataset::dense_borrow(points.data(), s, d, nullptr);

    Arena scratch = ctx.reserve(scores_workspace_bytes(kernel, data, *sample), "leverage scores");
    double *chol = scratch.alloc<double>(size_t(s * s));  // K_JJ + λs I, then L
    const int64_t block = block_rows_for(n, s);
    double *k_block = scratch.alloc<double>(size_t(block * s));  // rows k_iᵀ, then (L⁻¹ k_i)ᵀ
    double *row = scratch.alloc<double>(size_t(d));
    kernel_block_rows(kernel, *sample, 0, s, *sample, 0, s, chol, s, scratch, ctx.threads);
    for (int64_t j = 0; j < s; ++j) chol[j * s + j] += lambda * double(s);
    linalg::cholesky(linalg::Uplo::Lower, s, chol, s);

    for (int64_t begin = 0; begin < n; begin += block) {
        const int64_t end = std::min(n, begin + block), count = end - begin;
        kernel_block_rows(kernel, data, begin, end, *sample, 0, s, k_block, s, scratch, ctx.threads);
        // Rows k_iᵀ L⁻ᵀ = (L⁻¹ k_i)ᵀ.
        linalg::trsm(linalg::Side::Right, linalg::Uplo::Lower, linalg::Trans::Yes, count, s, 1.0, chol, s, k_block, s);
        kernel_diagonal(kernel, data, begin, end, row, scores + begin);
        for (int64_t i = 0; i < count; ++i) {
            const double *z = k_block + i * s;
            const double quadratic = std::inner_product(z, z + s, z, 0.0);
            scores[begin + i] = std::max(0.0, scores[begin + i] - quadratic) / (lambda * double(n));
        }
        ctx.check_cancel();
    }
}

Landmarks leverage_landmarks(Context &ctx, const KernelSpec &kernel, const Dataset &data,
                             const LandmarkOptions &options) {
    const int64_t n = data.n, m = options.m;
    require(m >= 1 && m <= n, "leverage landmarks: needs 1 <= m <= n");
    require(options.leverage_lambda > 0, "leverage landmarks: leverage_lambda must be > 0");
    std::vector<double> scores(static_cast<size_t>(n));
    approximate_leverage_scores(ctx, kernel, data, options.leverage_lambda, leverage_subsample_size(n, m),
                                scores.data());

    // m rows without replacement, P ∝ ℓ̃ (Efraimidis–Spirakis: the m largest
    // keys log(u)/w). A floor keeps zero-score rows drawable, after the rest.
    const double floor = 1e-12 * std::max(*std::max_element(scores.begin(), scores.end()), 1e-300);
    Rng rng = Rng(ctx.seed).split(1);
    std::vector<std::pair<double, int64_t>> keys(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
        const double u = std::max(rng.uniform(), 1e-300);
        keys[size_t(i)] = {std::log(u) / (scores[size_t(i)] + floor), i};
    }
    std::nth_element(keys.begin(), keys.begin() + (m - 1), keys.end(),
                     [](const auto &a, const auto &b) { return a.first > b.first; });

    Landmarks result;
    result.m = m;
    result.d = data.d;
    for (int64_t i = 0; i < m; ++i) result.rows.push_back(keys[size_t(i)].second);
    std::sort(result.rows.begin(), result.rows.end());
    result.points.resize(size_t(m * data.d));
    gather_rows(data, result.rows.data(), m, result.points.data());
    return result;
}

}  // namespace kmx
