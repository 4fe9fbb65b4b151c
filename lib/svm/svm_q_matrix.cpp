// svm_q_matrix.cpp — Q columns for the dual solver (see svm_q_matrix.h).
#include "svm_q_matrix.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "core/dataset.h"
#include "core/parallel.h"
#include "kernel/fast_exp.h"
#include "kernel/kernel.h"
#include "linalg/linalg.h"
#include "svm_dual.h"

namespace kmx {

namespace {

constexpr double kUnitRoundoff = 0x1p-53;         // u
constexpr int64_t kColumnChunk = 4096;            // variables per parallel task of one column
constexpr int64_t kParallelColumnWork = 1 << 18;  // len·d from which one column is split over threads

// The rounding floor of D = ‖a‖² + ‖b‖² − 2 a·b, as a factor of ‖a‖² + ‖b‖²:
// 2γ_{d+2}, γ_k = k u / (1 − k u) (Higham §3.1; the same bound as
// kernel_gram.cpp's, so that identical rows give exactly K = 1 here too).
double distance_noise_factor(int64_t d) {
    const double nu = double(d + 2) * kUnitRoundoff;
    return 2 * nu / (1 - nu);
}

double squared_norm(const double *x, int64_t d) {
    double sum = 0;
#pragma omp simd reduction(+ : sum)
    for (int64_t k = 0; k < d; ++k) sum += x[k] * x[k];
    return sum;
}

}  // namespace

SvmRows::SvmRows(const Dataset &data, const KernelSpec &kernel) : d(data.d) {
    if (kernel.on_features() && sparse_kernel_rows(data)) widest = widest_row(data);
}

size_t SvmQMatrix::workspace_bytes(int64_t n, const SvmRows &rows) {
    WorkspacePlan plan;
    if (rows.sparse()) {
        plan.add<int64_t>(size_t(n)).add<int64_t>(size_t(kBlockRows));  // row numbers
        plan.add_bytes(sparse_kernel_block_listed_workspace_bytes(kBlockRows, rows.widest));
    } else {
        plan.add<double>(size_t(n) * size_t(rows.d))  // gathered rows
            .add<double>(size_t(n))                   // ‖x_j‖²
            .add<double>(size_t(n));                  // floors
    }
    plan.add<double>(size_t(n))   // y
        .add<double>(size_t(n))   // K_ii
        .add<double>(size_t(n));  // one kernel row
    if (!rows.sparse()) plan.add<double>(size_t(kBlockRows) * size_t(rows.d)).add<double>(size_t(kBlockRows));
    return plan.add<double>(size_t(kPrefetchColumns) * size_t(n))
        .add<float>(size_t(n))  // two spare columns
        .add<float>(size_t(n))
        .bytes();
}

SvmQMatrix::SvmQMatrix(Arena &arena, const SvmProblem &problem, int64_t cache_slots, int threads)
    : spec_(problem.kernel),
      n_(problem.n),
      d_(problem.data->d),
      threads_(std::max(threads, 1)),
      gamma_(problem.kernel.gamma_for(problem.data->d)),
      noise_(distance_noise_factor(problem.data->d)),
      arena_(arena),
      cache_(arena, problem.n, cache_slots) {
    const Dataset &data = *problem.data;
    const SvmRows rows(data, spec_);
    if (rows.sparse()) {
        data_ = &data;
        order_ = arena.alloc<int64_t>(size_t(n_));
        block_rows_ = arena.alloc<int64_t>(size_t(kBlockRows));
        sparse_scratch_ = Arena(arena, sparse_kernel_block_listed_workspace_bytes(kBlockRows, rows.widest));
        for (int64_t k = 0; k < n_; ++k) order_[k] = problem.rows ? problem.rows[k] : k;
    } else {
        x_ = arena.alloc<double>(size_t(n_) * size_t(d_));
        sq_ = arena.alloc<double>(size_t(n_));
        floor_ = arena.alloc<double>(size_t(n_));
    }
    y_ = arena.alloc<double>(size_t(n_));
    qd_ = arena.alloc<double>(size_t(n_));
    row_ = arena.alloc<double>(size_t(n_));
    if (!rows.sparse()) {
        block_x_ = arena.alloc<double>(size_t(kBlockRows) * size_t(d_));
        block_sq_ = arena.alloc<double>(size_t(kBlockRows));
    }
    prefetched_ = arena.alloc<double>(size_t(kPrefetchColumns) * size_t(n_));
    wide_[0] = arena.alloc<float>(size_t(n_));
    wide_[1] = arena.alloc<float>(size_t(n_));
    for (int64_t k = 0; k < n_; ++k) y_[k] = problem.y[k];
    if (rows.sparse()) {
        for (int64_t k = 0; k < n_; ++k) kernel_rows(&k, 1, k, k + 1, qd_ + k, 1, 1);
        return;
    }
    if (problem.rows) {
        for (int64_t k = 0; k < n_; ++k) data.copy_rows(problem.rows[k], problem.rows[k] + 1, x_ + k * d_);
    } else {
        data.copy_rows(0, n_, x_);
    }
    for (int64_t k = 0; k < n_; ++k) {
        const double *xk = x_ + k * d_;
        sq_[k] = squared_norm(xk, d_);
        floor_[k] = noise_ * sq_[k];
        qd_[k] = kernel_eval(spec_, xk, xk, d_);
    }
}

void SvmQMatrix::kernel_rows(const int64_t *variables, int64_t na, int64_t begin, int64_t end, double *out, int64_t ldo,
                             int threads) {
    if (data_) {
        for (int64_t r = 0; r < na; ++r) block_rows_[r] = order_[variables[r]];
        sparse_kernel_block_listed(spec_, *data_, block_rows_, na, *data_, order_ + begin, end - begin, out, ldo,
                                   sparse_scratch_, threads);
        return;
    }
    if (na == 1) return dense_kernel_rows(x_ + variables[0] * d_, sq_ + variables[0], 1, begin, end, out, ldo, threads);
    gather_block(variables, na);
    dense_kernel_rows(block_x_, block_sq_, na, begin, end, out, ldo, threads);
}

void SvmQMatrix::dense_kernel_rows(const double *a, const double *sq_a, int64_t na, int64_t begin, int64_t end,
                                   double *out, int64_t ldo, int threads) {
    const int64_t m = end - begin;
    const double *b = x_ + begin * d_;
    if (spec_.type != KMX_KERNEL_RBF) {
        kernel_block(spec_, a, na, d_, b, m, d_, d_, out, ldo, arena_, threads);
        return;
    }
    // K_rj = exp(−γ D_rj), D_rj = ‖a_r‖² + ‖x_j‖² − 2 a_rᵀx_j, the norms precomputed.
    if (na == 1)
        linalg::gemv(linalg::Trans::No, m, d_, -2.0, b, d_, a, 0.0, out, 1);
    else
        linalg::gemm(linalg::Trans::No, linalg::Trans::Yes, na, m, d_, -2.0, a, d_, b, d_, 0.0, out, ldo, threads);
    for (int64_t r = 0; r < na; ++r)
        gaussian_row_from_gram(out + r * ldo, m, gamma_, sq_a[r], sq_ + begin, noise_ * sq_a[r], floor_ + begin);
}

const float *SvmQMatrix::column(int64_t i, int64_t len) {
    const int64_t kept = std::min(len, cache_.width());
    float *data;
    const int64_t valid = cache_.fetch(i, kept, &data);
    if (valid < kept) fill_column(i, valid, kept, data);
    if (len == kept) return data;
    float *wide = wide_[next_wide_];
    next_wide_ ^= 1;
    std::memcpy(wide, data, sizeof(float) * size_t(kept));
    fill_column(i, kept, len, wide);
    return wide;
}

void SvmQMatrix::prefetch(const int64_t *columns, int64_t count, int64_t len) {
    const int64_t kept = std::min(len, cache_.width());
    count = std::min(count, kPrefetchColumns);
    if (count <= 0 || kept <= 0) return;
    kernel_rows(columns, count, 0, kept, prefetched_, kept, threads_);
    for (int64_t k = 0; k < count; ++k) {
        const int64_t i = columns[k];
        float *data;
        cache_.fetch(i, kept, &data);
        const double yi = y_[i], *kr = prefetched_ + k * kept;
        for (int64_t j = 0; j < kept; ++j) data[j] = float(yi * y_[j] * kr[j]);
    }
}

void SvmQMatrix::add_columns(const int64_t *columns, const double *coef, int64_t count, int64_t begin, int64_t end,
                             double *out) {
    count = std::min(count, kPrefetchColumns);
    const int64_t width = end - begin;
    if (count <= 0 || width <= 0) return;
    kernel_rows(columns, count, begin, end, prefetched_, width, threads_);
    double *sum = row_;  // Σ_k coef_k y_k K_kj
    std::fill(sum, sum + width, 0.0);
    for (int64_t k = 0; k < count; ++k) {
        const double a = coef[k] * y_[columns[k]], *kr = prefetched_ + k * width;
        for (int64_t j = 0; j < width; ++j) sum[j] += a * kr[j];
    }
    for (int64_t j = 0; j < width; ++j) out[begin + j] += y_[begin + j] * sum[j];
}

void SvmQMatrix::gather_block(const int64_t *columns, int64_t count) {
    for (int64_t k = 0; k < count; ++k) {
        std::memcpy(block_x_ + k * d_, x_ + columns[k] * d_, sizeof(double) * size_t(d_));
        block_sq_[k] = sq_[columns[k]];
    }
}

void SvmQMatrix::fill_column(int64_t i, int64_t begin, int64_t end, float *out) {
    // K(x_i, x_j) for j in [begin, end) into row_[0, end − begin); sparse
    // rows: one block, which spreads its rows over the threads itself
    const int64_t count = end - begin;
    if (!data_ && threads_ > 1 && count * std::max<int64_t>(d_, 1) >= kParallelColumnWork) {
        const int64_t chunks = (count + kColumnChunk - 1) / kColumnChunk;
        parallel_for(chunks, threads_, [&](int64_t c) {
            const int64_t first = begin + c * kColumnChunk, last = std::min(end, first + kColumnChunk);
            kernel_rows(&i, 1, first, last, row_ + (first - begin), count, 1);
        });
    } else {
        kernel_rows(&i, 1, begin, end, row_, count, data_ ? threads_ : 1);
    }
    // Q_ij = y_i y_j K_ij
    const double yi = y_[i];
    for (int64_t j = begin; j < end; ++j) out[j] = float(yi * y_[j] * row_[j - begin]);
}

void SvmQMatrix::swap_index(int64_t i, int64_t j) {
    if (i == j) return;
    if (data_) {
        std::swap(order_[i], order_[j]);
    } else {
        std::swap_ranges(x_ + i * d_, x_ + (i + 1) * d_, x_ + j * d_);
        std::swap(sq_[i], sq_[j]);
        std::swap(floor_[i], floor_[j]);
    }
    std::swap(y_[i], y_[j]);
    std::swap(qd_[i], qd_[j]);
    cache_.swap_index(i, j);
}

void SvmQMatrix::add_gradient_terms(const int64_t *rows, int64_t count, const double *alpha, const double *upper,
                                    const double *linear, double *grad, double *grad_bar) {
    // The kernel rows of the first `kept` of them become cached Q columns (the
    // solver needs most of them again right away), as many as the cache holds
    // besides one block of scratch; with no room, all of the cache is scratch.
    int64_t capacity = 0;
    const int64_t block_slots = 2 * kBlockRows + 1;  // kBlockRows rows of doubles, in float columns
    const int64_t kept = std::clamp<int64_t>(cache_.slots() - block_slots, 0, count);
    double *block = kept > 0 ? cache_.tail_scratch(kept, capacity) : cache_.scratch(capacity);
    const int64_t block_rows = std::max<int64_t>(1, std::min(kBlockRows, capacity / std::max<int64_t>(n_, 1)));
    // grad and grad_bar first collect u_j = Σ_r c_r y_r K_rj; Q_rj = y_r y_j K_rj.
    std::fill(grad, grad + n_, 0.0);
    std::fill(grad_bar, grad_bar + n_, 0.0);
    double coef[kBlockRows], coef_bar[kBlockRows];
    for (int64_t start = 0; start < count; start += block_rows) {
        const int64_t nb = std::min(block_rows, count - start);
        for (int64_t k = 0; k < nb; ++k) {
            const int64_t r = rows[start + k];
            coef[k] = alpha[r] * y_[r];
            coef_bar[k] = alpha[r] >= upper[r] ? upper[r] * y_[r] : 0.0;
        }
        kernel_rows(rows + start, nb, 0, n_, block, n_, threads_);
        for (int64_t k = 0; k < nb; ++k) {
            const double *kr = block + k * n_;
            if (start + k < kept) {  // Q_rj = y_r y_j K_rj
                const int64_t r = rows[start + k];
                float *column;
                cache_.fetch(r, n_, &column);
                const double yr = y_[r];
                for (int64_t j = 0; j < n_; ++j) column[j] = float(yr * y_[j] * kr[j]);
            }
            const double a = coef[k], c = coef_bar[k];
            for (int64_t j = 0; j < n_; ++j) grad[j] += a * kr[j];
            if (c != 0)
                for (int64_t j = 0; j < n_; ++j) grad_bar[j] += c * kr[j];
        }
    }
    // ∇f = Qα + p, Ḡ = Σ_{α_r = C_r} C_r Q_r
    for (int64_t j = 0; j < n_; ++j) {
        grad[j] = y_[j] * grad[j] + (linear ? linear[j] : -1.0);
        grad_bar[j] *= y_[j];
    }
}

}  // namespace kmx
