// gemm_tiles.h — C = α A Bᵀ with a caller's pass over each finished tile of C
// while the tile is still in cache (L1/L2): a GEMM fused with an elementwise
// or row-wise epilogue (the Gaussian kernel's exp, k-means' argmin). The
// products come from BLIS's own micro-kernel for the kernel set in use, on
// panels packed here, so the GEMM runs at BLIS's rate and the epilogue costs
// no extra trip through memory.
#pragma once
#include <cstddef>
#include <cstdint>

#include "core/arena.h"

namespace kmx::linalg {

class PackedRows;

// The epilogue: visit(data, i0, i1, j0, j1) for the finished tile
// C[i0:i1, j0:j1]. Tiles do not overlap and cover C exactly once; a tile is
// visited by the thread that computed it, and tiles of one row are visited in
// increasing j on that thread when threads == 1.
struct TileVisitor {
    void (*visit)(void *data, int64_t i0, int64_t i1, int64_t j0, int64_t j1);
    void *data;
};

// A TileVisitor calling fn(i0, i1, j0, j1); fn must outlive the call.
template <class Fn>
TileVisitor tile_visitor(Fn &fn) {
    return {
        [](void *data, int64_t i0, int64_t i1, int64_t j0, int64_t j1) { (*static_cast<Fn *>(data))(i0, i1, j0, j1); },
        &fn};
}

// C (m x n, ld ldc) = alpha · A Bᵀ for A (m x k, ld lda) and B (n x k, ld ldb),
// all row-major, then `tile` on every tile of C. The packed panels come from
// `scratch` (released before returning; size: gemm_tiles_workspace_bytes).
void gemm_abt_tiles(int64_t m, int64_t n, int64_t k, double alpha, const double *a, int64_t lda, const double *b,
                    int64_t ldb, double *c, int64_t ldc, Arena &scratch, int threads, TileVisitor tile);
size_t gemm_tiles_workspace_bytes(int64_t m, int64_t n, int64_t k);

// C (m x (end − begin), ld ldc) = alpha · A Bᵀ for A (m x k, ld lda, k =
// b.columns()) and the rows [begin, end) of B kept in the micro-kernel's
// panels (PackedRows::Layout::panels; begin a multiple of b.width()), then
// `tile` on every tile of C. Only A is packed (once, from `scratch`, size:
// gemm_abt_packed_workspace_bytes): B's panels are read where they are. The
// threads (those threads_for_work grants for the flops) take contiguous runs
// of B's rows.
void gemm_abt_packed(int64_t m, double alpha, const double *a, int64_t lda, const PackedRows &b, int64_t begin,
                     int64_t end, double *c, int64_t ldc, Arena &scratch, int threads, TileVisitor tile);
size_t gemm_abt_packed_workspace_bytes(int64_t m, int64_t k);
// Whether BLIS's own gemm of m rows of A against n rows of B (C = A Bᵀ, k
// columns) reads B's rows where they are, by the small-matrix ("sup") path
// of its kernel set (zen3, haswell: for m, n or k below a few hundred), or
// packs them anew into panels (skx, which has no such path): then keeping B
// in panels (PackedRows, gemm_abt_packed) saves that packing.
bool gemm_reads_rows_in_place(int64_t m, int64_t n, int64_t k);
// A's rows go through the micro-kernel this many at a time: products of a
// multiple of it as many rows waste no work.
int64_t gemm_abt_packed_a_rows();

}  // namespace kmx::linalg
