// kernel_sparse.cpp — kernel blocks between CSR rows on their nonzeros, never
// widened to d columns: time and memory follow the nonzeros, not the largest
// column index (text-like data: 10⁵–10⁷ columns, a few hundred nonzeros a row).
//
// The b rows of a tile are indexed by column (their nonzeros sorted by
// column: a CSC copy of the tile). Each a row then walks its own nonzeros,
// finds each column in the index (the columns increase on both sides, so the
// search resumes where the last one ended) and adds its products into its
// row of the block (Gustavson's row-by-row sparse product):
//
//   dot kernels   s_ij = Σ_{c ∈ a_i ∩ b_j} a_ic b_jc
//   RBF           D_ij = ‖a_i‖² + ‖b_j‖² − 2 s_ij
//   Laplacian     ‖a_i − b_j‖₁ = ‖a_i‖₁ + ‖b_j‖₁ + Σ_{c ∈ a_i ∩ b_j} (|a_ic − b_jc| − |a_ic| − |b_jc|)
//
// Identical rows add the same products in the same column order as their
// norms, so their distance is exactly 0 (K = 1), as in the dense blocks.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>

#include "core/dataset.h"
#include "core/error.h"
#include "fast_exp.h"
#include "kernel_blocks.h"

namespace kmx {

namespace {

constexpr double kSparseDensity = 1.0 / 16;  // stored cells below which rows stay sparse
constexpr int64_t kIndexEntries = 1 << 18;   // nonzeros indexed at once (about 7 MB of index)
constexpr int64_t kTileRows = 1024;          // rows indexed at once (a walked row's values: 8 KB of stack)
constexpr double kUnitRoundoff = 0x1p-53;

// One side of a block: `count` rows of a CSR dataset, rows list[0..count)
// or, without a list, rows first, first + 1, ...
struct Side {
    const Dataset &x;
    const int64_t *list;
    int64_t first, count;

    int64_t row(int64_t p) const { return list ? list[p] : first + p; }
    int64_t stored(int64_t p) const { return x.row_ptr[row(p) + 1] - x.row_ptr[row(p)]; }
    int64_t widest() const {
        int64_t most = 0;
        for (int64_t p = 0; p < count; ++p) most = std::max(most, stored(p));
        return most;
    }
    double total() const {
        double sum = 0;
        for (int64_t p = 0; p < count; ++p) sum += double(stored(p));
        return sum;
    }
};

// One nonzero of an indexed tile.
struct IndexEntry {
    int32_t column;
    int32_t row;  // within the tile
    double value;
};

// The nonzeros of a side's rows [p0, p1) sorted by (column, row): the
// entries of column `columns[u]` are entries[start[u], start[u + 1]).
struct ColumnIndex {
    const IndexEntry *entries = nullptr;
    const int32_t *columns = nullptr;
    const int64_t *start = nullptr;
    int64_t count = 0;  // distinct columns

    ColumnIndex(const Side &side, int64_t p0, int64_t p1, Arena &scratch) {
        int64_t stored = 0;
        for (int64_t p = p0; p < p1; ++p) stored += side.stored(p);
        IndexEntry *sorted = scratch.alloc<IndexEntry>(size_t(stored));
        int64_t next = 0;
        for (int64_t p = p0; p < p1; ++p) {
            const int64_t r = side.row(p);
            for (int64_t e = side.x.row_ptr[r]; e < side.x.row_ptr[r + 1]; ++e)
                sorted[next++] = {side.x.col[e], int32_t(p - p0), side.x.value(e)};
        }
        std::sort(sorted, sorted + stored, [](const IndexEntry &u, const IndexEntry &v) {
            return u.column != v.column ? u.column < v.column : u.row < v.row;
        });
        int32_t *distinct = scratch.alloc<int32_t>(size_t(stored));
        int64_t *offsets = scratch.alloc<int64_t>(size_t(stored) + 1);
        for (int64_t e = 0; e < stored; ++e) {
            if (count > 0 && distinct[count - 1] == sorted[e].column) continue;
            distinct[count] = sorted[e].column;
            offsets[count++] = e;
        }
        offsets[count] = stored;
        entries = sorted, columns = distinct, start = offsets;
    }

    static size_t workspace_bytes(int64_t stored) {
        return WorkspacePlan()
            .add<IndexEntry>(size_t(stored))
            .add<int32_t>(size_t(stored))
            .add<int64_t>(size_t(stored) + 1)
            .bytes();
    }
};

bool laplacian(const KernelSpec &spec) { return spec.type == KMX_KERNEL_LAPLACIAN; }

// ‖x_r‖₁ (Laplacian) or ‖x_r‖² (every other kernel).
double row_norm(const KernelSpec &spec, const Dataset &x, int64_t r) {
    double sum = 0;
    for (int64_t e = x.row_ptr[r]; e < x.row_ptr[r + 1]; ++e) {
        const double v = x.value(e);
        sum += laplacian(spec) ? std::fabs(v) : v * v;
    }
    return sum;
}

// The end of the indexed tile starting at p0: at most kTileRows rows whose
// nonzeros fit kIndexEntries, at least one row.
int64_t tile_end(const Side &side, int64_t p0) {
    int64_t last = p0 + 1, stored = side.stored(p0);
    while (last < side.count && last - p0 < kTileRows && stored + side.stored(last) <= kIndexEntries)
        stored += side.stored(last++);
    return last;
}

// Scratch of a block whose indexed side has `rows` rows of at most `widest`
// nonzeros each (`total` in all): one tile's index, norms and floors.
size_t block_workspace_bytes(int64_t rows, int64_t widest, int64_t total) {
    const int64_t stored = std::min(total, std::max(kIndexEntries, widest));
    const int64_t tile_rows = std::min(kTileRows, rows);
    return WorkspacePlan()
        .add_bytes(ColumnIndex::workspace_bytes(stored))
        .add<double>(size_t(tile_rows))
        .add<double>(size_t(tile_rows))
        .bytes();
}

// row[j] += the products of a's row r with b tile row j over their shared
// columns: (a_rc b_jc) × scale (dot kernels), or |a_rc − b_jc| − (|a_rc| + |b_jc|).
void add_shared_columns(const KernelSpec &spec, const Dataset &a, int64_t r, const ColumnIndex &index, double scale,
                        double *row) {
    const int32_t *found = index.columns, *last = index.columns + index.count;
    for (int64_t e = a.row_ptr[r]; e < a.row_ptr[r + 1] && found != last; ++e) {
        found = std::lower_bound(found, last, a.col[e]);
        if (found == last || *found != a.col[e]) continue;
        const int64_t u = found - index.columns;
        const double av = a.value(e);
        const IndexEntry *entry = index.entries + index.start[u], *entries_end = index.entries + index.start[u + 1];
        // Each term is symmetric in a_rc and b_jc, so K(a_i, b_j) has the same
        // bits whichever side is indexed (a rank's short block of rows, or a
        // few new basis points: Nystrom-TRON's ranks agree to the bit).
        if (laplacian(spec)) {
            for (; entry != entries_end; ++entry)
                row[entry->row] += std::fabs(av - entry->value) - (std::fabs(av) + std::fabs(entry->value));
        } else {
            for (; entry != entries_end; ++entry) row[entry->row] += scale * (av * entry->value);
        }
    }
}

// The kernel's map over one walked row's values v_k (its shared-column sums
// with the indexed tile's rows k): `norm` is the walked row's norm, `norms`
// and `floors` the tile's.
void map_values(const KernelSpec &spec, double gamma, double noise, double norm, const double *norms,
                const double *floors, int64_t count, double *v) {
    switch (spec.type) {
        case KMX_KERNEL_RBF:  // v holds −2 s
            gaussian_row_from_gram(v, count, gamma, norm, norms, noise * norm, floors);
            return;
        case KMX_KERNEL_LAPLACIAN:
            for (int64_t k = 0; k < count; ++k) v[k] = -gamma * std::max(0.0, norm + norms[k] + v[k]);
            exp_in_place(v, count);
            return;
        case KMX_KERNEL_LINEAR:
            return;
        default:  // polynomial, sigmoid: v holds γ s
            kernel_detail::with_dot_kernel_map(spec, [&](auto map) {
                for (int64_t k = 0; k < count; ++k) v[k] = map(v[k]);
            });
    }
}

// The factor the walked row's values are scaled by before their products are summed.
double product_scale(const KernelSpec &spec, double gamma) {
    if (spec.type == KMX_KERNEL_RBF) return -2.0;
    if (spec.type == KMX_KERNEL_LINEAR || laplacian(spec)) return 1.0;
    return gamma;
}

// The block between `indexed` and `walked` rows, the indexed side in tiles:
// each walked row's values against a tile form a contiguous vector, stored
// through out(w, k, value) (w: walked row, k: indexed row, both from 0).
template <class Store>
void sparse_block(const KernelSpec &spec, const Side &indexed, const Side &walked, Arena &scratch, int threads,
                  Store &&store) {
    const double gamma = spec.gamma_for(indexed.x.d), scale = product_scale(spec, gamma);
    const double noise =
        kernel_detail::distance_noise_factor(std::max(indexed.widest(), walked.widest()), kUnitRoundoff);
    const double walked_stored = walked.total();
    for (int64_t k0 = 0; k0 < indexed.count;) {
        const int64_t k1 = tile_end(indexed, k0), count = k1 - k0;
        ArenaScope tile_scope(scratch);
        const ColumnIndex index(indexed, k0, k1, scratch);
        double *norms = scratch.alloc<double>(size_t(count)), *floors = scratch.alloc<double>(size_t(count));
        for (int64_t k = 0; k < count; ++k) {
            norms[k] = row_norm(spec, indexed.x, indexed.row(k0 + k));
            floors[k] = noise * norms[k];
        }
        const int used = threads_for_work(threads, walked_stored * 16 + double(walked.count) * double(count) * 4);
        kernel_detail::for_each_row_tile(walked.count, kernel_detail::kMapRowTile, used, [&](int64_t w0, int64_t w1) {
            double values[kTileRows];
            for (int64_t w = w0; w < w1; ++w) {
                const int64_t r = walked.row(w);
                std::fill(values, values + count, 0.0);
                add_shared_columns(spec, walked.x, r, index, scale, values);
                map_values(spec, gamma, noise, row_norm(spec, walked.x, r), norms, floors, count, values);
                for (int64_t k = 0; k < count; ++k) store(w, k0 + k, values[k]);
            }
        });
        k0 = k1;
    }
}

// K(a_i, b_j) into out[i*ldo + j]: the side with fewer rows is indexed (for a
// kernel column, the one row; for FALKON's K_nM, the centers).
template <class T>
void sparse_block_rows(const KernelSpec &spec, const Side &a, const Side &b, T *out, int64_t ldo, Arena &scratch,
                       int threads) {
    ArenaScope scope(scratch);
    if (a.count <= b.count)
        sparse_block(spec, a, b, scratch, threads,
                     [&](int64_t j, int64_t i, double value) { out[i * ldo + j] = T(value); });
    else
        sparse_block(spec, b, a, scratch, threads,
                     [&](int64_t i, int64_t j, double value) { out[i * ldo + j] = T(value); });
}

}  // namespace

bool sparse_kernel_rows(const Dataset &data) {
    return data.sparse() && data.n > 0 && double(data.nnz()) < kSparseDensity * double(data.n) * double(data.d);
}

bool sparse_kernel_block(const KernelSpec &spec, const Dataset &a, const Dataset &b) {
    return spec.on_features() && sparse_kernel_rows(a) && sparse_kernel_rows(b);
}

void sparse_kernel_block_listed(const KernelSpec &spec, const Dataset &a, const int64_t *a_rows, int64_t na,
                                const Dataset &b, const int64_t *b_rows, int64_t nb, double *out, int64_t ldo,
                                Arena &scratch, int threads) {
    if (na > 0 && nb > 0) sparse_block_rows(spec, {a, a_rows, 0, na}, {b, b_rows, 0, nb}, out, ldo, scratch, threads);
}

size_t sparse_kernel_block_listed_workspace_bytes(int64_t indexed_rows, int64_t widest) {
    return block_workspace_bytes(indexed_rows, widest, indexed_rows * widest);
}

int64_t widest_row(const Dataset &data) { return data.sparse() ? Side{data, nullptr, 0, data.n}.widest() : data.d; }

namespace kernel_detail {

void sparse_kernel_block_rows(const KernelSpec &spec, const Dataset &a, int64_t a_begin, int64_t a_end,
                              const Dataset &b, int64_t b_begin, int64_t b_end, double *out, int64_t ldo,
                              Arena &scratch, int threads) {
    sparse_block_rows(spec, {a, nullptr, a_begin, a_end - a_begin}, {b, nullptr, b_begin, b_end - b_begin}, out, ldo,
                      scratch, threads);
}

void sparse_kernel_block_rows(const KernelSpec &spec, const Dataset &a, int64_t a_begin, int64_t a_end,
                              const Dataset &b, int64_t b_begin, int64_t b_end, float *out, int64_t ldo, Arena &scratch,
                              int threads) {
    sparse_block_rows(spec, {a, nullptr, a_begin, a_end - a_begin}, {b, nullptr, b_begin, b_end - b_begin}, out, ldo,
                      scratch, threads);
}

size_t sparse_kernel_block_workspace_bytes(const Dataset &a, int64_t na, const Dataset &b, int64_t nb) {
    // The bound from the row counts alone, whichever side a call indexes (the
    // one with fewer rows in that call): a tile of either whole dataset.
    const Side whole_a{a, nullptr, 0, a.n}, whole_b{b, nullptr, 0, b.n};
    const int64_t rows = std::min(na, nb);
    return std::max(block_workspace_bytes(rows, whole_a.widest(), int64_t(whole_a.total())),
                    block_workspace_bytes(rows, whole_b.widest(), int64_t(whole_b.total())));
}

}  // namespace kernel_detail

}  // namespace kmx
