// svm_q_matrix.cpp — Q columns for the dual solver (see svm_q_matrix.h).
#include "svm_q_matrix.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "core/dataset.h"
#include "core/parallel.h"
#include "kernel/fast_exp.h"
#include "kernel/kernel.h"
#include "linalg/gemm_tiles.h"
#include "linalg/linalg.h"
#include "kernel_row_store.h"
#include "svm_dual.h"

namespace kmx {

namespace {

static_assert(SvmQMatrix::kBlockRows <= KernelRowStore::kBatchRows,
              "a kernel block's rows come from the store at once");

constexpr double kUnitRoundoff = 0x1p-53;         // u
constexpr int64_t kColumnChunk = 4096;            // variables per parallel task of one column
constexpr int64_t kParallelColumnWork = 1 << 18;  // len·d from which one column is split over threads
// Flops of one Gaussian entry's exp and scaling, for threads_for_work (paired
// kernel rows): at d = 9 an entry costs about as much as 20 flops of its dot.
constexpr double kEntryFlops = 20;

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
    gaussian = kernel.type == KMX_KERNEL_RBF;
}

linalg::PackedRows::Layout SvmQMatrix::gathered_layout(int64_t n, const SvmRows &rows) {
    const bool packs = !linalg::gemm_reads_rows_in_place(kPrefetchColumns, n, rows.d);
    return rows.gaussian && packs ? linalg::PackedRows::Layout::panels : linalg::PackedRows::Layout::rows;
}

size_t SvmQMatrix::workspace_bytes(int64_t n, const SvmRows &rows) {
    WorkspacePlan plan;
    plan.add<int64_t>(size_t(n)).add<int64_t>(size_t(kBlockRows));  // row numbers
    if (rows.sparse()) {
        plan.add_bytes(sparse_kernel_block_listed_workspace_bytes(kBlockRows, rows.widest));
    } else {
        const linalg::PackedRows::Layout layout = gathered_layout(n, rows);
        plan.add_bytes(linalg::PackedRows::bytes(n, rows.d, layout))  // gathered rows
            .add<double>(size_t(n))                                   // ‖x_j‖²
            .add<double>(size_t(n));                                  // floors
        if (layout == linalg::PackedRows::Layout::panels)
            plan.add_bytes(linalg::gemm_abt_packed_workspace_bytes(kBlockRows, rows.d));
    }
    plan.add<double>(size_t(n))   // y
        .add<double>(size_t(n))   // K_ii
        .add<double>(size_t(n));  // one kernel row
    if (!rows.sparse()) plan.add<double>(size_t(kBlockRows) * size_t(rows.d)).add<double>(size_t(kBlockRows));
    return plan.add<double>(size_t(kPrefetchColumns) * size_t(n))
        .add<float>(size_t(n))  // two spare columns
        .add<float>(size_t(n))
        .add<int64_t>(size_t(n))  // paired: variable → gathered row
        .bytes();
}

bool SvmQMatrix::paired(const SvmProblem &problem) {
    const int64_t n = problem.n, m = n / 2;
    if (!problem.rows || n < 2 || n % 2 != 0) return false;
    for (int64_t k = 0; k < m; ++k)
        if (problem.rows[k] != problem.rows[k + m]) return false;
    return true;
}

SvmQMatrix::SvmQMatrix(Arena &arena, const SvmProblem &problem, int64_t cache_slots, int threads)
    : spec_(problem.kernel),
      n_(problem.n),
      d_(problem.data->d),
      paired_(paired(problem)),
      m_(paired_ ? problem.n / 2 : problem.n),
      threads_(std::max(threads, 1)),
      gamma_(problem.kernel.gamma_for(problem.data->d)),
      noise_(distance_noise_factor(problem.data->d)),
      arena_(arena),
      cache_(arena, m_,
             paired_ ? KernelCache::slots_fitting(m_, KernelCache::workspace_bytes(n_, cache_slots)) : cache_slots) {
    const Dataset &data = *problem.data;
    const SvmRows rows(data, spec_);
    order_ = arena.alloc<int64_t>(size_t(n_));
    block_rows_ = arena.alloc<int64_t>(size_t(kBlockRows));
    for (int64_t k = 0; k < n_; ++k) order_[k] = problem.rows ? problem.rows[k] : k;
    if (rows.sparse()) {
        data_ = &data;
        sparse_scratch_ = Arena(arena, sparse_kernel_block_listed_workspace_bytes(kBlockRows, rows.widest));
    } else {
        x_ = linalg::PackedRows(arena, n_, d_, gathered_layout(n_, rows));
        if (x_.layout() == linalg::PackedRows::Layout::panels) {
            gemm_scratch_ = Arena(arena, linalg::gemm_abt_packed_workspace_bytes(kBlockRows, d_));
            const int64_t lanes = linalg::gemm_abt_packed_a_rows();
            if (lanes <= kPrefetchColumns) prefetch_columns_ = kPrefetchColumns / lanes * lanes;
        }
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
    row_of_ = arena.alloc<int64_t>(size_t(n_));
    for (int64_t k = 0; k < n_; ++k) {
        row_of_[k] = k < m_ ? k : k - m_;
        y_[k] = problem.y[k];
    }
    if (rows.sparse()) {  // order_[k] for k < m: the gathered rows (paired: the first half's)
        for (int64_t k = 0; k < m_; ++k) kernel_rows(&k, 1, k, k + 1, qd_ + k, 1, 1);
    } else {
        for (int64_t k = 0; k < m_; ++k) {
            double *xk = block_x_;
            const int64_t r = problem.rows ? problem.rows[k] : k;
            data.copy_rows(r, r + 1, xk);
            x_.set_row(k, xk);
            sq_[k] = squared_norm(xk, d_);
            floor_[k] = noise_ * sq_[k];
            qd_[k] = kernel_eval(spec_, xk, xk, d_);
        }
    }
    for (int64_t k = m_; k < n_; ++k) qd_[k] = qd_[row_of_[k]];
    if (problem.shared_rows && !paired_ && problem.shared_rows->serves(data, spec_)) store_ = problem.shared_rows;
}

void SvmQMatrix::kernel_rows(const int64_t *variables, int64_t na, int64_t begin, int64_t end, double *out, int64_t ldo,
                             int threads) {
    if (store_) return shared_kernel_rows(variables, na, begin, end, out, ldo, threads);
    if (data_) {
        for (int64_t r = 0; r < na; ++r) block_rows_[r] = order_[variables[r]];
        sparse_kernel_block_listed(spec_, *data_, block_rows_, na, *data_, order_ + begin, end - begin, out, ldo,
                                   sparse_scratch_, threads);
        return;
    }
    gather_block(variables, na);
    dense_kernel_rows(block_x_, block_sq_, na, begin, end, out, ldo, threads);
}

void SvmQMatrix::shared_kernel_rows(const int64_t *variables, int64_t na, int64_t begin, int64_t end, double *out,
                                    int64_t ldo, int threads) {
    const float *kernel[KernelRowStore::kBatchRows];  // K(x_r, X) in dataset order
    for (int64_t r = 0; r < na; ++r) block_rows_[r] = order_[variables[r]];
    store_->rows(block_rows_, na, kernel, threads);
    for (int64_t r = 0; r < na; ++r) {
        const float *k = kernel[r];
        double *o = out + r * ldo - begin;
        for (int64_t j = begin; j < end; ++j) o[j] = double(k[order_[j]]);
    }
}

void SvmQMatrix::dense_kernel_rows(const double *a, const double *sq_a, int64_t na, int64_t begin, int64_t end,
                                   double *out, int64_t ldo, int threads) {
    const int64_t m = end - begin;
    if (spec_.type != KMX_KERNEL_RBF) {
        kernel_block(spec_, a, na, d_, x_.row_major() + begin * d_, m, d_, d_, out, ldo, arena_, threads);
        return;
    }
    // K_rj = exp(−γ D_rj), D_rj = ‖a_r‖² + ‖x_j‖² − 2 a_rᵀx_j, the norms precomputed:
    // the map on each tile of the GEMM (columns j in [begin + j0, begin + j1)) while it is in cache.
    auto gaussian = [&](int64_t r0, int64_t r1, int64_t j0, int64_t j1) {
        for (int64_t r = r0; r < r1; ++r)
            gaussian_row_from_gram(out + r * ldo + j0, j1 - j0, gamma_, sq_a[r], sq_ + begin + j0, noise_ * sq_a[r],
                                   floor_ + begin + j0);
    };
    // one column: a GEMV over the kept rows; rows kept row by row: BLIS's gemm reads them in place
    if (na == 1 || x_.layout() == linalg::PackedRows::Layout::rows) {
        if (na == 1)
            x_.gemv(begin, end, -2.0, a, out);
        else
            linalg::gemm(linalg::Trans::No, linalg::Trans::Yes, na, m, d_, -2.0, a, d_, x_.row_major() + begin * d_, d_,
                         0.0, out, ldo, threads);
        gaussian(0, na, 0, m);
        return;
    }
    linalg::gemm_abt_packed(na, -2.0, a, d_, x_, begin, end, out, ldo, gemm_scratch_, threads,
                            linalg::tile_visitor(gaussian));
}

const float *SvmQMatrix::column(int64_t i, int64_t len) {
    if (paired_) return expand_column(i, len);
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
    count = std::min(count, prefetch_columns_);
    if (count <= 0 || kept <= 0) return;
    if (paired_) {
        // the distinct rows' kernel rows, then fetched in the columns' order (the last most recently used)
        int64_t rows[kPrefetchColumns];
        const int64_t distinct = distinct_rows(columns, nullptr, count, rows, nullptr);
        kernel_rows(rows, distinct, 0, m_, prefetched_, m_, threads_);
        for (int64_t k = 0; k < count; ++k) {
            const int64_t r = row_of_[columns[k]];
            float *data;
            if (cache_.fetch(r, m_, &data) >= m_) continue;
            const double *kr = prefetched_ + (std::find(rows, rows + distinct, r) - rows) * m_;
            for (int64_t j = 0; j < m_; ++j) data[j] = float(kr[j]);
        }
        return;
    }
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
    count = std::min(count, prefetch_columns_);
    const int64_t width = end - begin;
    if (count <= 0 || width <= 0) return;
    if (paired_) {
        // sum_r = Σ_{k: row(k) = r} coef_k y_k over the distinct rows; out_j += y_j Σ_r sum_r K(x_r, x_row(j))
        int64_t rows[kPrefetchColumns];
        double coef_rows[kPrefetchColumns];
        const int64_t distinct = distinct_rows(columns, coef, count, rows, coef_rows);
        kernel_rows(rows, distinct, 0, m_, prefetched_, m_, threads_);
        double *sum = row_;
        std::fill(sum, sum + m_, 0.0);
        for (int64_t k = 0; k < distinct; ++k) {
            const double a = coef_rows[k], *kr = prefetched_ + k * m_;
            for (int64_t j = 0; j < m_; ++j) sum[j] += a * kr[j];
        }
        for (int64_t j = begin; j < end; ++j) out[j] += y_[j] * sum[row_of_[j]];
        return;
    }
    // from the start of begin's panel of gathered rows (gemm_abt_packed starts there)
    const int64_t first = begin - begin % x_.width(), skipped = begin - first, ld = end - first;
    kernel_rows(columns, count, first, end, prefetched_, ld, threads_);
    double *sum = row_;  // Σ_k coef_k y_k K_kj
    std::fill(sum, sum + width, 0.0);
    for (int64_t k = 0; k < count; ++k) {
        const double a = coef[k] * y_[columns[k]], *kr = prefetched_ + k * ld + skipped;
        for (int64_t j = 0; j < width; ++j) sum[j] += a * kr[j];
    }
    for (int64_t j = 0; j < width; ++j) out[begin + j] += y_[begin + j] * sum[j];
}

void SvmQMatrix::gather_block(const int64_t *columns, int64_t count) {
    for (int64_t k = 0; k < count; ++k) {
        x_.copy_row(columns[k], block_x_ + k * d_);
        block_sq_[k] = sq_[columns[k]];
    }
}

int64_t SvmQMatrix::distinct_rows(const int64_t *columns, const double *coef_in, int64_t count, int64_t *rows,
                                  double *coef_out) {
    int64_t distinct = 0;
    for (int64_t k = 0; k < count; ++k) {
        const int64_t r = row_of_[columns[k]];
        const int64_t at = std::find(rows, rows + distinct, r) - rows;
        if (at == distinct) {
            rows[distinct++] = r;
            if (coef_out) coef_out[at] = 0;
        }
        if (coef_out) coef_out[at] += coef_in[k] * y_[columns[k]];
    }
    return distinct;
}

const float *SvmQMatrix::kernel_row(int64_t r) {
    float *data;
    const int64_t valid = cache_.fetch(r, m_, &data);
    if (valid < m_) {
        // Threads as threads_for_work gives them (one per ~4 MFLOP): at 40000
        // diamonds rows (d = 9, 100 MB) two threads split by kParallelColumnWork's
        // rule took 96 s of CPU and 132 s against one thread's 17 s and 19 s on a
        // busy 2-core machine (each row's 2 × 20 µs waited on a time slice).
        // (sparse rows: the block spreads its rows over the threads itself)
        const double flops = double(m_ - valid) * (2.0 * double(d_) + kEntryFlops);
        fill_kernel_row(r, valid, m_, data_ ? threads_ : threads_for_work(threads_, flops));
        for (int64_t j = valid; j < m_; ++j) data[j] = float(row_[j - valid]);
    }
    return data;
}

const float *SvmQMatrix::expand_column(int64_t i, int64_t len) {
    for (int k = 0; k < 2; ++k)  // select_pair's column is step_pair's again
        if (wide_column_[k] == i && wide_len_[k] >= len) {
            next_wide_ = k ^ 1;  // the other one is the previous call's
            return wide_[k];
        }
    const float *kr = kernel_row(row_of_[i]);
    const int slot = next_wide_;
    next_wide_ ^= 1;
    float *out = wide_[slot];
    // Q_ij = y_i y_j K[row(j)]: ±K exactly, as the 2m-row matrix's float(y_i y_j K_ij)
    const float yi = float(y_[i]);
    for (int64_t j = 0; j < len; ++j) out[j] = yi * float(y_[j]) * kr[row_of_[j]];
    wide_column_[slot] = i;
    wide_len_[slot] = len;
    return out;
}

void SvmQMatrix::fill_kernel_row(int64_t r, int64_t begin, int64_t end, int threads) {
    // K(x_r, x_j) for j in [begin, end) into row_[0, end − begin); sparse
    // rows: one block, which spreads its rows over the threads itself
    const int64_t count = end - begin;
    if (!data_ && !store_ && threads > 1) {
        const int64_t chunks = (count + kColumnChunk - 1) / kColumnChunk;
        parallel_for(chunks, threads, [&](int64_t c) {
            const int64_t first = begin + c * kColumnChunk, last = std::min(end, first + kColumnChunk);
            kernel_rows(&r, 1, first, last, row_ + (first - begin), count, 1);
        });
    } else {
        kernel_rows(&r, 1, begin, end, row_, count, data_ ? threads : 1);
    }
}

void SvmQMatrix::fill_column(int64_t i, int64_t begin, int64_t end, float *out) {
    const bool split = data_ || (end - begin) * std::max<int64_t>(d_, 1) >= kParallelColumnWork;
    fill_kernel_row(i, begin, end, split ? threads_ : 1);
    // Q_ij = y_i y_j K_ij
    const double yi = y_[i];
    for (int64_t j = begin; j < end; ++j) out[j] = float(yi * y_[j] * row_[j - begin]);
}

void SvmQMatrix::swap_index(int64_t i, int64_t j) {
    if (i == j) return;
    if (paired_) {  // the gathered rows and their cached kernel rows stay
        std::swap(row_of_[i], row_of_[j]);
        std::swap(y_[i], y_[j]);
        std::swap(qd_[i], qd_[j]);
        wide_column_[0] = wide_column_[1] = -1;
        return;
    }
    std::swap(order_[i], order_[j]);
    if (!data_ && !store_) {  // with a store the gathered rows are read no more (K_ii is computed)
        x_.swap_rows(i, j);
        std::swap(sq_[i], sq_[j]);
        std::swap(floor_[i], floor_[j]);
    }
    std::swap(y_[i], y_[j]);
    std::swap(qd_[i], qd_[j]);
    cache_.swap_index(i, j);
}

void SvmQMatrix::add_gradient_terms(const int64_t *rows, int64_t count, const double *alpha, const double *upper,
                                    const double *linear, double *grad, double *grad_bar) {
    if (paired_) {
        add_gradient_terms_paired(rows, count, alpha, upper, linear, grad, grad_bar);
        return;
    }
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

// Paired: the variables' coefficients summed per gathered row r,
//   c_r = Σ_{row(v) = r} α_v y_v,  c̄_r = Σ_{row(v) = r, α_v ≥ C_v} C_v y_v,
// u = Σ_r c_r K_r· and ū = Σ_r c̄_r K_r· over the m rows, by kernel blocks of
// the rows with c_r ≠ 0 (the first of them cached as kernel rows, as above);
// then ∇f_v = y_v u_row(v) + p_v and Ḡ_v = y_v ū_row(v).
void SvmQMatrix::add_gradient_terms_paired(const int64_t *vars, int64_t count, const double *alpha, const double *upper,
                                           const double *linear, double *grad, double *grad_bar) {
    // prefetched_ (kPrefetchColumns · n ≥ 4m doubles) holds c, c̄, u, ū
    double *c = prefetched_, *c_bar = c + m_, *u = c_bar + m_, *u_bar = u + m_;
    std::fill(c, c + 4 * m_, 0.0);
    for (int64_t k = 0; k < count; ++k) {
        const int64_t v = vars[k], r = row_of_[v];
        c[r] += alpha[v] * y_[v];
        if (alpha[v] >= upper[v]) c_bar[r] += upper[v] * y_[v];
    }
    int64_t used = 0;  // rows with c_r ≠ 0 or c̄_r ≠ 0
    for (int64_t r = 0; r < m_; ++r) used += c[r] != 0 || c_bar[r] != 0;
    int64_t capacity = 0;
    const int64_t block_slots = 2 * kBlockRows + 1;  // kBlockRows rows of doubles, in float rows of m
    const int64_t kept = std::clamp<int64_t>(cache_.slots() - block_slots, 0, used);
    double *block = kept > 0 ? cache_.tail_scratch(kept, capacity) : cache_.scratch(capacity);
    const int64_t block_rows = std::max<int64_t>(1, std::min(kBlockRows, capacity / std::max<int64_t>(m_, 1)));
    int64_t rows[kBlockRows], done = 0;
    int64_t r = 0;
    while (r < m_) {
        int64_t nb = 0;
        for (; r < m_ && nb < block_rows; ++r)
            if (c[r] != 0 || c_bar[r] != 0) rows[nb++] = r;
        if (nb == 0) break;
        kernel_rows(rows, nb, 0, m_, block, m_, threads_);
        for (int64_t k = 0; k < nb; ++k, ++done) {
            const double *kr = block + k * m_;
            const double a = c[rows[k]], b = c_bar[rows[k]];
            if (done < kept) {
                float *data;
                cache_.fetch(rows[k], m_, &data);
                for (int64_t j = 0; j < m_; ++j) data[j] = float(kr[j]);
            }
            if (a != 0)
                for (int64_t j = 0; j < m_; ++j) u[j] += a * kr[j];
            if (b != 0)
                for (int64_t j = 0; j < m_; ++j) u_bar[j] += b * kr[j];
        }
    }
    for (int64_t v = 0; v < n_; ++v) {
        grad[v] = y_[v] * u[row_of_[v]] + (linear ? linear[v] : -1.0);
        grad_bar[v] = y_[v] * u_bar[row_of_[v]];
    }
}

}  // namespace kmx
