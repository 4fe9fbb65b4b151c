// kernel_l1.cpp — the Laplacian kernel block K_ij = exp(−γ ‖a_i − b_j‖₁).
//
// The L1 distance has no GEMM form, so this is the direct loop, tiled: a tile
// of A rows and a tile of B rows, one slice of columns at a time, stay in
// cache while every pair among them adds its part of ‖a_i − b_j‖₁ into out_ij.
// Threads take whole tiles of A rows, so each sum is formed in the same order
// whatever the thread count.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/isa_dispatch.h"
#include "fast_exp.h"
#include "kernel_blocks.h"

namespace kmx::kernel_detail {

namespace {

constexpr int64_t kRowTile = 32;   // rows of A, and of B, per tile
constexpr int64_t kColTile = 128;  // columns per slice: a 32 x 128 tile is 32 KB

struct RowTile {
    const double *x;  // first row
    int64_t rows, ld;
};

// out_ij += Σ_{k ∈ [k_begin, k_end)} |a_ik − b_jk| over the two tiles.
KMX_ALWAYS_INLINE void add_l1_slice_body(const RowTile &a, const RowTile &b, int64_t k_begin, int64_t k_end,
                                         double *out, int64_t ldo) {
    for (int64_t i = 0; i < a.rows; ++i) {
        const double *ai = a.x + i * a.ld;
        for (int64_t j = 0; j < b.rows; ++j) {
            const double *bj = b.x + j * b.ld;
            double sum = 0;
#pragma omp simd reduction(+ : sum)
            for (int64_t k = k_begin; k < k_end; ++k) sum += std::fabs(ai[k] - bj[k]);
            out[i * ldo + j] += sum;
        }
    }
}

// On x86-64 the slice loop is compiled for three ISAs; the CPU's is chosen at
// run time (core/isa_dispatch.h).
KMX_ISA_VARIANTS(void, add_l1_slice,
                 (const RowTile &a, const RowTile &b, int64_t k_begin, int64_t k_end, double *out, int64_t ldo),
                 (a, b, k_begin, k_end, out, ldo))

// Rows [i_begin, i_end) of the block: out_ij ← ‖a_i − b_j‖₁.
void l1_distance_rows(const double *a, int64_t i_begin, int64_t i_end, int64_t lda, const double *b, int64_t nb,
                      int64_t ldb, int64_t d, double *out, int64_t ldo) {
    for (int64_t i = i_begin; i < i_end; ++i) std::memset(out + i * ldo, 0, sizeof(double) * size_t(nb));
    const RowTile a_tile{a + i_begin * lda, i_end - i_begin, lda};
    for (int64_t k = 0; k < d; k += kColTile) {
        const int64_t k_end = std::min(d, k + kColTile);
        for (int64_t j = 0; j < nb; j += kRowTile) {
            const RowTile b_tile{b + j * ldb, std::min(nb - j, kRowTile), ldb};
            add_l1_slice(a_tile, b_tile, k, k_end, out + i_begin * ldo + j, ldo);
        }
    }
}

}  // namespace

void l1_kernel_block(const KernelSpec &spec, const double *a, int64_t na, int64_t lda, const double *b, int64_t nb,
                     int64_t ldb, int64_t d, double *out, int64_t ldo, int threads) {
    const double gamma = spec.gamma_for(d);
    for_each_row_tile(na, kRowTile, threads, [&](int64_t begin, int64_t end) {
        l1_distance_rows(a, begin, end, lda, b, nb, ldb, d, out, ldo);
        for (int64_t i = begin; i < end; ++i) {
            double *row = out + i * ldo;
            for (int64_t j = 0; j < nb; ++j) row[j] *= -gamma;
            exp_in_place(row, nb);
        }
    });
}

}  // namespace kmx::kernel_detail
