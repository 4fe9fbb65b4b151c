// kernel_rows.cpp — kernel blocks between row ranges of two datasets, in
// double (kernel_block) or float32 (kernel_block_f32).
//
// Dense rows stored in the block's precision are used in place. Other rows
// (CSR, or the other precision) are expanded into dense tiles of at most
// kTileRows rows (and kTileBytes bytes) in the arena, one tile at a time, so
// the scratch stays O(tile · d) however long the range.
#include <algorithm>

#include "core/dataset.h"
#include "core/error.h"
#include "kernel.h"
#include "kernel_blocks.h"

namespace kmx {

namespace {

constexpr int64_t kTileRows = 256;
constexpr int64_t kTileBytes = int64_t(8) << 20;

// Dense rows of `data` stored as T, usable in place (else null).
template <class T>
const T *stored_rows(const Dataset &data);
template <>
const double *stored_rows(const Dataset &data) {
    return data.x;
}
template <>
const float *stored_rows(const Dataset &data) {
    return data.x32;
}

// Rows of `data` per step: the whole range for rows stored as T, else a tile.
template <class T>
int64_t step_rows(const Dataset &data, int64_t rows) {
    if (stored_rows<T>(data)) return rows;
    const int64_t by_bytes = kTileBytes / int64_t(sizeof(T) * size_t(std::max<int64_t>(data.d, 1)));
    return std::min(rows, std::clamp<int64_t>(by_bytes, 1, kTileRows));
}

// Dense rows [begin, begin + rows) of `data` as T: in place, or expanded into tile.
template <class T>
const T *dense_rows(const Dataset &data, int64_t begin, int64_t rows, T *tile) {
    if (const T *stored = stored_rows<T>(data)) return stored + begin * data.d;
    data.copy_rows(begin, begin + rows, tile);
    return tile;
}

void require_same_columns(const Dataset &a, const Dataset &b) {
    if (a.d != b.d)
        fail(KMX_E_INVALID_ARGUMENT, "kernel block: datasets have %lld and %lld columns", (long long)a.d,
             (long long)b.d);
}

void require_rows(const Dataset &data, int64_t begin, int64_t end, const char *name) {
    if (begin < 0 || end > data.n || begin > end)
        fail(KMX_E_INVALID_ARGUMENT, "kernel block: rows [%lld, %lld) of %s are not a range in [0, %lld)",
             (long long)begin, (long long)end, name, (long long)data.n);
}

// kernel_block_rows in precision T: `block` is kernel_block or kernel_block_f32.
template <class T, class Block>
void block_rows(const Dataset &a, int64_t a_begin, int64_t a_end, const Dataset &b, int64_t b_begin, int64_t b_end,
                T *out, int64_t ldo, Arena &scratch, Block &&block) {
    require_same_columns(a, b);
    require_rows(a, a_begin, a_end, "a");
    require_rows(b, b_begin, b_end, "b");
    const int64_t d = a.d, na = a_end - a_begin, nb = b_end - b_begin;
    if (na == 0 || nb == 0) return;
    const int64_t step_a = step_rows<T>(a, na), step_b = step_rows<T>(b, nb);
    ArenaScope scope(scratch);
    T *tile_a = !stored_rows<T>(a) ? scratch.alloc<T>(size_t(step_a * d)) : nullptr;
    T *tile_b = !stored_rows<T>(b) ? scratch.alloc<T>(size_t(step_b * d)) : nullptr;
    for (int64_t i = 0; i < na; i += step_a) {
        const int64_t rows_a = std::min(step_a, na - i);
        const T *xa = dense_rows(a, a_begin + i, rows_a, tile_a);
        for (int64_t j = 0; j < nb; j += step_b) {
            const int64_t rows_b = std::min(step_b, nb - j);
            const T *xb = dense_rows(b, b_begin + j, rows_b, tile_b);
            block(xa, rows_a, xb, rows_b, d, out + i * ldo + j);
        }
    }
}

// kernel_detail::sparse_kernel_block_rows after block_rows' checks.
template <class T>
void checked_sparse_rows(const KernelSpec &spec, const Dataset &a, int64_t a_begin, int64_t a_end, const Dataset &b,
                         int64_t b_begin, int64_t b_end, T *out, int64_t ldo, Arena &scratch, int threads) {
    require_same_columns(a, b);
    require_rows(a, a_begin, a_end, "a");
    require_rows(b, b_begin, b_end, "b");
    if (spec.type == KMX_KERNEL_POLYNOMIAL && spec.degree < 1)
        fail(KMX_E_INVALID_ARGUMENT, "polynomial degree %d must be at least 1", spec.degree);
    if (a_end > a_begin && b_end > b_begin)
        kernel_detail::sparse_kernel_block_rows(spec, a, a_begin, a_end, b, b_begin, b_end, out, ldo, scratch, threads);
}

// Scratch of block_rows<T>: the tiles, then `block_bytes(step_a, step_b)`.
template <class T, class BlockBytes>
size_t block_rows_workspace_bytes(const Dataset &a, int64_t na, const Dataset &b, int64_t nb,
                                  BlockBytes &&block_bytes) {
    const int64_t step_a = step_rows<T>(a, na), step_b = step_rows<T>(b, nb);
    WorkspacePlan plan;
    if (!stored_rows<T>(a)) plan.add<T>(size_t(step_a * a.d));
    if (!stored_rows<T>(b)) plan.add<T>(size_t(step_b * b.d));
    plan.add_bytes(block_bytes(step_a, step_b));
    return plan.bytes();
}

}  // namespace

void kernel_block_rows(const KernelSpec &spec, const Dataset &a, int64_t a_begin, int64_t a_end, const Dataset &b,
                       int64_t b_begin, int64_t b_end, double *out, int64_t ldo, Arena &scratch, int threads) {
    if (sparse_kernel_block(spec, a, b))
        return checked_sparse_rows(spec, a, a_begin, a_end, b, b_begin, b_end, out, ldo, scratch, threads);
    block_rows(a, a_begin, a_end, b, b_begin, b_end, out, ldo, scratch,
               [&](const double *xa, int64_t rows_a, const double *xb, int64_t rows_b, int64_t d, double *into) {
                   kernel_block(spec, xa, rows_a, d, xb, rows_b, d, d, into, ldo, scratch, threads);
               });
}

size_t kernel_block_rows_workspace_bytes(const KernelSpec &spec, const Dataset &a, int64_t na, const Dataset &b,
                                         int64_t nb) {
    if (sparse_kernel_block(spec, a, b)) return kernel_detail::sparse_kernel_block_workspace_bytes(a, na, b, nb);
    return block_rows_workspace_bytes<double>(a, na, b, nb, [&](int64_t step_a, int64_t step_b) {
        return kernel_block_workspace_bytes(spec, step_a, step_b, a.d);
    });
}

void kernel_block_rows_f32(const KernelSpec &spec, const Dataset &a, int64_t a_begin, int64_t a_end, const Dataset &b,
                           int64_t b_begin, int64_t b_end, float *out, int64_t ldo, Arena &scratch, int threads) {
    if (sparse_kernel_block(spec, a, b))
        return checked_sparse_rows(spec, a, a_begin, a_end, b, b_begin, b_end, out, ldo, scratch, threads);
    block_rows(a, a_begin, a_end, b, b_begin, b_end, out, ldo, scratch,
               [&](const float *xa, int64_t rows_a, const float *xb, int64_t rows_b, int64_t d, float *into) {
                   kernel_block_f32(spec, xa, rows_a, d, xb, rows_b, d, d, into, ldo, scratch, threads);
               });
}

size_t kernel_block_rows_f32_workspace_bytes(const KernelSpec &spec, const Dataset &a, int64_t na, const Dataset &b,
                                             int64_t nb) {
    if (sparse_kernel_block(spec, a, b)) return kernel_detail::sparse_kernel_block_workspace_bytes(a, na, b, nb);
    return block_rows_workspace_bytes<float>(a, na, b, nb, [&](int64_t step_a, int64_t step_b) {
        return kernel_block_f32_workspace_bytes(spec, step_a, step_b, a.d);
    });
}

}  // namespace kmx
