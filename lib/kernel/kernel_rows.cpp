// kernel_rows.cpp — kernel blocks between row ranges of two datasets.
//
// Dense rows are used in place. Sparse (CSR) rows are expanded into dense
// tiles of at most kTileRows rows (and kTileBytes bytes) in the arena, one
// tile at a time, so the scratch stays O(tile · d) however long the range.
#include <algorithm>

#include "core/dataset.h"
#include "core/error.h"
#include "kernel.h"

namespace kmx {

namespace {

constexpr int64_t kTileRows = 256;
constexpr int64_t kTileBytes = int64_t(8) << 20;

// Rows of `data` per step: the whole range for dense data, else a tile.
int64_t step_rows(const Dataset &data, int64_t rows) {
    if (data.rows_in_place()) return rows;
    const int64_t by_bytes = kTileBytes / int64_t(sizeof(double) * size_t(std::max<int64_t>(data.d, 1)));
    return std::min(rows, std::clamp<int64_t>(by_bytes, 1, kTileRows));
}

// Dense rows [begin, begin + rows) of `data`: in place, or expanded into tile.
const double *dense_rows(const Dataset &data, int64_t begin, int64_t rows, double *tile) {
    if (data.rows_in_place()) return data.x + begin * data.d;
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

}  // namespace

void kernel_block_rows(const KernelSpec &spec, const Dataset &a, int64_t a_begin, int64_t a_end, const Dataset &b,
                       int64_t b_begin, int64_t b_end, double *out, int64_t ldo, Arena &scratch, int threads) {
    require_same_columns(a, b);
    require_rows(a, a_begin, a_end, "a");
    require_rows(b, b_begin, b_end, "b");
    const int64_t d = a.d, na = a_end - a_begin, nb = b_end - b_begin;
    if (na == 0 || nb == 0) return;
    const int64_t step_a = step_rows(a, na), step_b = step_rows(b, nb);
    ArenaScope scope(scratch);
    double *tile_a = !a.rows_in_place() ? scratch.alloc<double>(size_t(step_a * d)) : nullptr;
    double *tile_b = !b.rows_in_place() ? scratch.alloc<double>(size_t(step_b * d)) : nullptr;
    for (int64_t i = 0; i < na; i += step_a) {
        const int64_t rows_a = std::min(step_a, na - i);
        const double *xa = dense_rows(a, a_begin + i, rows_a, tile_a);
        for (int64_t j = 0; j < nb; j += step_b) {
            const int64_t rows_b = std::min(step_b, nb - j);
            const double *xb = dense_rows(b, b_begin + j, rows_b, tile_b);
            kernel_block(spec, xa, rows_a, d, xb, rows_b, d, d, out + i * ldo + j, ldo, scratch, threads);
        }
    }
}

size_t kernel_block_rows_workspace_bytes(const KernelSpec &spec, const Dataset &a, int64_t na, const Dataset &b,
                                         int64_t nb) {
    const int64_t step_a = step_rows(a, na), step_b = step_rows(b, nb);
    WorkspacePlan plan;
    if (!a.rows_in_place()) plan.add<double>(size_t(step_a * a.d));
    if (!b.rows_in_place()) plan.add<double>(size_t(step_b * b.d));
    plan.add_bytes(kernel_block_workspace_bytes(spec, step_a, step_b, a.d));
    return plan.bytes();
}

}  // namespace kmx
