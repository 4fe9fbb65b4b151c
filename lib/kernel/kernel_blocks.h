// kernel_blocks.h — the block algorithms behind kernel_block (internal to
// lib/kernel). Arguments are as for kernel_block and already checked.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "core/arena.h"
#include "core/parallel.h"
#include "kernel.h"

namespace kmx::kernel_detail {

// Kernels of a·b or ‖a−b‖² (RBF, polynomial, sigmoid, linear): one GEMM into
// `out`, then an elementwise map (kernel_gram.cpp).
void gram_kernel_block(const KernelSpec &spec, const double *a, int64_t na, int64_t lda, const double *b, int64_t nb,
                       int64_t ldb, int64_t d, double *out, int64_t ldo, Arena &scratch, int threads);
size_t gram_kernel_block_workspace_bytes(const KernelSpec &spec, int64_t na, int64_t nb, int64_t d);

// The Laplacian kernel exp(−γ‖a−b‖₁) by a tiled direct loop; no scratch
// (kernel_l1.cpp).
void l1_kernel_block(const KernelSpec &spec, const double *a, int64_t na, int64_t lda, const double *b, int64_t nb,
                     int64_t ldb, int64_t d, double *out, int64_t ldo, int threads);

// Calls body(begin, end) for consecutive ranges of `tile` rows covering
// [0, rows), spread over `threads` threads. Every row belongs to exactly one
// range whatever the thread count, so results never depend on it.
template <class Body>
void for_each_row_tile(int64_t rows, int64_t tile, int threads, Body &&body) {
    const int64_t tiles = (rows + tile - 1) / tile;
    parallel_for(tiles, threads, [&](int64_t t) { body(t * tile, std::min(rows, (t + 1) * tile)); });
}

}  // namespace kmx::kernel_detail
