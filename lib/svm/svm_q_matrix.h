// svm_q_matrix.h — the dual's matrix Q_ij = y_i y_j K(x_i, x_j) for the
// solver (LIBSVM's SVC_Q): the problem's rows gathered densely once, their
// squared norms, K_ii, and Q columns computed on demand through an LRU cache.
//
// Variables may be permuted by swap_index (shrinking keeps the active ones
// first); the gathered rows, labels, norms and cached columns follow, so a
// column restricted to the first `len` variables is one contiguous kernel
// row: K(x_i, X[0:len]) by a GEMV (−2 x_jᵀx_i) and the Gaussian map with
// the precomputed norms, or by kernel_block for the other kernels. The
// Gaussian's gathered rows stay in the micro-kernel's panels
// (linalg::PackedRows): the columns computed together by one GEMM
// (prefetch, add_columns) pack only their own few rows, not X[0:len] again.
//
// Rows that stay sparse (sparse_kernel_rows: wide CSR data) are not gathered:
// the matrix keeps each variable's row number of the data (permuted instead
// of rows) and computes kernel rows on the nonzeros (sparse_kernel_block_listed).
//
// With a KernelRowStore (SvmProblem::shared_rows: a path of C values), the
// kernel rows come from the store, K(x_r, X) over the whole dataset computed
// once for every C and every pair of classes, gathered through the
// variables' row numbers (permuted by swap_index like the rest).
//
// Paired variables (ε-SVR's dual, LIBSVM's SVR_Q): when variables k and k + m
// name the same dataset row for every k < m = n/2 (α_k and α*_k), only the m
// rows are gathered, and the cache holds kernel rows K(x_r, X[0:m]) over them,
// keyed by row r, in the rows' fixed order: each is computed once for both of
// its variables. A variable i's Q column is expanded from its row's kernel
// row through the variables' current row map, Q_ij = y_i y_j K[row(j)], into
// one of two spare buffers (the last two columns stay valid); swap_index then
// permutes only the map, labels and diagonal. The same cache bytes hold about
// twice as many kernel rows (m floats each) as they would 2m-long columns.
#pragma once
#include <cstddef>
#include <algorithm>
#include <cstdint>

#include "core/arena.h"
#include "kernel/kernel.h"
#include "kernel_cache.h"
#include "linalg/packed_rows.h"

namespace kmx {

class Dataset;
class KernelRowStore;
struct SvmProblem;

// How a problem's rows reach the kernel, for workspace sizes: gathered once
// into d dense columns — for the Gaussian kernel kept in BLIS's micro-kernel
// panels (linalg::PackedRows) where BLIS would pack them anew for every GEMM
// of a few columns (skx; zen3's small-matrix path reads rows in place), else
// row by row —, or, for rows that stay sparse
// (sparse_kernel_rows: wide CSR data), read in place from the data through a
// list of row numbers, each kernel block indexing the nonzeros of at most
// kBlockRows rows of at most `widest` values.
struct SvmRows {
    int64_t d = 0;
    int64_t widest = -1;   // ≥ 0: the rows stay sparse
    bool gaussian = true;  // the kernel is the Gaussian (unknown: sized as if it were)

    SvmRows(int64_t columns) : d(columns) {}  // dense rows of d columns
    SvmRows(const Dataset &data, const KernelSpec &kernel);
    bool sparse() const { return widest >= 0; }
};

class SvmQMatrix {
public:
    // Rows of one warm-start kernel block (gathered into fixed scratch).
    static constexpr int64_t kBlockRows = 64;
    // Columns computed together by prefetch: one GEMV streams all n rows of X
    // from memory for one column, a GEMM of this many columns streams them
    // once for all (30000 x 256, one thread, zen3: one column 7.2 ms, 16 in
    // 15 ms, 32 in 25 ms).
    static constexpr int64_t kPrefetchColumns = 32;
    // Columns the solver computes together (prefetch, add_columns): at most
    // kPrefetchColumns, a whole number of the micro-kernel's panels of them
    // when the rows are kept in panels (skx: 28 = 2 × 14; zen3, haswell: 30
    // = 5 × 6): 32 columns in panels of 14 cost 42 (20000 deformed digits,
    // d = 256, 100 MB of cache, skx, one thread: 28 columns took 7–9% less
    // time than 32).
    int64_t prefetch_columns() const { return prefetch_columns_; }

    // Exact arena bytes, cache excluded.
    static size_t workspace_bytes(int64_t n, const SvmRows &rows);
    // How n dense rows are kept: in the micro-kernel's panels for the
    // Gaussian kernel where BLIS would pack them for every GEMM of
    // kPrefetchColumns columns (linalg::gemm_reads_rows_in_place), else row
    // by row.
    static linalg::PackedRows::Layout gathered_layout(int64_t n, const SvmRows &rows);
    // Whether the problem's variables are paired (see the top): n even,
    // rows[k] == rows[k + n/2] for every k < n/2.
    static bool paired(const SvmProblem &problem);

    // Gathers the problem's rows and labels, computes the norms and K_ii.
    // cache_slots counts n-long columns (KernelCache::workspace_bytes(n,
    // cache_slots) of the arena); paired variables' kernel rows take as many
    // m-long slots as those bytes hold.
    SvmQMatrix(Arena &arena, const SvmProblem &problem, int64_t cache_slots, int threads);
    SvmQMatrix(const SvmQMatrix &) = delete;
    SvmQMatrix &operator=(const SvmQMatrix &) = delete;

    // Q_ij for j in [0, len) (the current order). The columns of the last
    // two calls stay valid (the solver's pair). A column longer than the
    // cache's slots (see fit_cache) is returned in one of two spare buffers,
    // its first width entries cached.
    const float *column(int64_t i, int64_t len);
    // Whether column i's first min(len, width) entries are cached.
    bool cached(int64_t i, int64_t len) {
        return paired_ ? cache_.peek(row_of_[i]) >= m_ : cache_.peek(i) >= std::min(len, cache_.width());
    }
    // Whether any of column i is cached.
    bool held(int64_t i) const { return cache_.holds(paired_ ? row_of_[i] : i); }
    // Columns the cache can take without evicting one.
    int64_t cache_room() const { return cache_.empty_slots(); }
    // Column slots in all.
    int64_t cache_slots() const { return cache_.slots(); }
    // Whether the solver should prefetch columns speculatively: not for
    // paired variables, whose kernel rows are computed one at a time as
    // LIBSVM's (ε-SVR on 15000 diamonds rows, d = 9, 100 MB, one thread:
    // 9.0 s user with prefetching, 4.8 s without; on 12000 generated rows,
    // d = 256: 84 s and 64 s; most speculative rows were evicted unused).
    bool prefetches() const { return !paired_; }
    // Caches the first min(len, width) entries of `count` (at most
    // kPrefetchColumns) columns by one GEMM, the last one most recently used.
    void prefetch(const int64_t *columns, int64_t count, int64_t len);
    // out[j] += Σ_k coef[k] Q_{columns[k], j} for j in [begin, end), the
    // `count` (at most kPrefetchColumns) kernel rows by one GEMM; not cached.
    void add_columns(const int64_t *columns, const double *coef, int64_t count, int64_t begin, int64_t end,
                     double *out);
    // The solver works with columns of `len` entries from now on (shrinking
    // cut or restored the active set): KernelCache::fit_width.
    // Paired: kernel rows stay m long.
    void fit_cache(int64_t len) {
        if (!paired_) cache_.fit_width(len);
    }
    // Q_ii, and the labels y_i (±1), in the current order.
    const double *diagonal() const { return qd_; }
    const double *labels() const { return y_; }
    // Swaps variables i and j; cached columns follow when next fetched
    // (see KernelCache::swap_index).
    void swap_index(int64_t i, int64_t j);

    // The warm start's gradients from the variables `rows` (count of them,
    // those with α_r > 0): grad = Qα + p (p = linear, nullptr: −1 each) and grad_bar = Ḡ = Σ_{α_r ≥ C_r} C_r Q_{·r}
    // (n entries each, overwritten). Kernel blocks of kBlockRows rows by one
    // GEMM, in the cache's storage: call it only while nothing is cached.
    // When the cache has room for them and a block besides, the rows' Q
    // columns stay cached (full length) for the solver.
    void add_gradient_terms(const int64_t *rows, int64_t count, const double *alpha, const double *upper,
                            const double *linear, double *grad, double *grad_bar);

    int64_t size() const { return n_; }
    // Gathered rows: m when paired, else n.
    int64_t kernel_rows_count() const { return m_; }

private:
    // Paired: K(x_r, X[0:m]) of gathered row r as floats, cached.
    const float *kernel_row(int64_t r);
    // Paired: a spare buffer with Q_ij = y_i y_j K[row(j)] for j < len.
    const float *expand_column(int64_t i, int64_t len);
    // Paired: the distinct gathered rows of `count` variables (rows[k], k <
    // the returned count), their coefficients summed per row (coef_in[k] y_k
    // into coef_out; coef_out may be nullptr).
    int64_t distinct_rows(const int64_t *columns, const double *coef_in, int64_t count, int64_t *rows,
                          double *coef_out);
    void add_gradient_terms_paired(const int64_t *vars, int64_t count, const double *alpha, const double *upper,
                                   const double *linear, double *grad, double *grad_bar);
    // out[r*ldo + j] = K(x_{variables[r]}, x_j) for the na (at most
    // kBlockRows) variables and j in [begin, end).
    void kernel_rows(const int64_t *variables, int64_t na, int64_t begin, int64_t end, double *out, int64_t ldo,
                     int threads);
    // kernel_rows gathered from the shared store's rows (store_).
    void shared_kernel_rows(const int64_t *variables, int64_t na, int64_t begin, int64_t end, double *out, int64_t ldo,
                            int threads);
    // The dense path's kernel rows for na rows a (with squared norms sq_a).
    void dense_kernel_rows(const double *a, const double *sq_a, int64_t na, int64_t begin, int64_t end, double *out,
                           int64_t ldo, int threads);
    // Gathers the rows of `count` variables into block_x_ and block_sq_.
    void gather_block(const int64_t *columns, int64_t count);
    // out[j] = Q_ij for j in [begin, end).
    void fill_column(int64_t i, int64_t begin, int64_t end, float *out);
    // row_[j − begin] = K(x_r, x_j) for gathered rows j in [begin, end), on `threads` threads.
    void fill_kernel_row(int64_t r, int64_t begin, int64_t end, int threads);

    KernelSpec spec_;
    int64_t n_ = 0, d_ = 0;
    bool paired_ = false;
    int64_t m_ = 0;  // gathered rows (n, or n/2 when paired)
    int threads_ = 1;
    int64_t prefetch_columns_ = kPrefetchColumns;
    double gamma_ = 0, noise_ = 0;
    Arena &arena_;                     // kernel_block's scratch (none for the kernels it handles here)
    const Dataset *data_ = nullptr;    // sparse rows: the problem's data, read in place
    KernelRowStore *store_ = nullptr;  // kernel rows kept across solves (SvmProblem::shared_rows), or none
    int64_t *order_ = nullptr;         // variable j's row of the problem's data
    int64_t *block_rows_ = nullptr;    // rows of one kernel block's variables (kBlockRows)
    Arena sparse_scratch_;             // sparse rows: the kernel blocks' index, inside arena_
    linalg::PackedRows x_;             // n × d gathered rows (dense rows)
    Arena gemm_scratch_;               // gemm_abt_packed's packed rows of a block
    double *sq_ = nullptr;             // ‖x_j‖²
    double *floor_ = nullptr;          // rounding floor of the Gaussian's distances, noise · ‖x_j‖²
    double *y_ = nullptr;
    double *qd_ = nullptr;                 // Q_ii = K_ii
    double *row_ = nullptr;                // one kernel row, before it becomes a float column
    double *block_x_ = nullptr;            // kBlockRows × d
    double *block_sq_ = nullptr;           // kBlockRows
    double *prefetched_ = nullptr;         // kPrefetchColumns × n kernel rows
    float *wide_[2] = {nullptr, nullptr};  // columns longer than the cache's slots, or expanded (paired), n each
    int next_wide_ = 0;
    int64_t *row_of_ = nullptr;          // paired: variable → gathered row, in the current order
    int64_t wide_column_[2] = {-1, -1};  // paired: the variable whose column wide_[k] holds (−1: none)
    int64_t wide_len_[2] = {0, 0};       // and its length
    KernelCache cache_;
};

}  // namespace kmx
