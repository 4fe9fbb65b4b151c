// normal_product.h — Kᵀ(K v) over the row blocks of a wide matrix K with a
// thin v (FALKON's K_nMᵀ K_nM v: n x M blocks, k = the outputs), each block
// read once, where it is.
//
// Two GEMMs per block (K_b v, then K_bᵀ z) read K_b twice, and BLIS first
// packs it into micro-panels for each: with k ≈ 10 columns the packing (BLIS
// skx's reference packm) was most of a FALKON CG pass. Here the rows go in
// slabs that stay in L2: a slab's z = K v by dots along its rows, then its
// Kᵀ z added column by column while the slab is still in cache (and the
// next slab's lines are prefetched).
#pragma once
#include <cstdint>

#include "core/isa_dispatch.h"

namespace kmx::linalg {

// For a block K (rows x m, row-major, rows ld ≥ m values apart; rows on
// 64-byte lines go fastest):
//   z (rows x k, row-major) = K v, v given by its columns v_t (k x m); when
//   v_t is null, z is read as given (e.g. targets);
//   w_t (k x m: the columns of w = Kᵀ z) += Kᵀ z over the rows i whose
//   skip[i] is 0 (skip may be null: every row).
// Each z entry is one dot in a fixed order and each w_t entry adds the rows
// in increasing order, so the bits depend neither on `threads` nor on how
// the rows are split into blocks (they do on the ISA: with or without FMA).
void add_normal_product(int64_t rows, int64_t m, int64_t ld, int64_t k, const double *kb, const double *v_t, double *z,
                        const uint8_t *skip, double *w_t, int threads);
// The same for K in float32, each value widened to double as it is read:
// the bits of the double call on the widened K.
void add_normal_product(int64_t rows, int64_t m, int64_t ld, int64_t k, const float *kb, const double *v_t, double *z,
                        const uint8_t *skip, double *w_t, int threads);

// Whether add_normal_product on double rows is faster than two GEMMs (K v,
// then Kᵀ z) for k outputs with the coding in use (measured: up to 32 with
// AVX-512 against BLIS's skx kernels, 6 with AVX2 against its zen3 ones).
bool normal_product_pays(int64_t k);

// The same with the coding for `level` (at most what the CPU runs; tests).
void add_normal_product(IsaLevel level, int64_t rows, int64_t m, int64_t ld, int64_t k, const double *kb,
                        const double *v_t, double *z, const uint8_t *skip, double *w_t, int threads);
void add_normal_product(IsaLevel level, int64_t rows, int64_t m, int64_t ld, int64_t k, const float *kb,
                        const double *v_t, double *z, const uint8_t *skip, double *w_t, int threads);

}  // namespace kmx::linalg
