// micro_kernel.h — BLIS's GEMM micro-kernel for the kernel set in use and the
// panel layout it reads (internal to lib/linalg: gemm_tiles.cpp packs panels
// for each product, packed_rows.cpp keeps rows in that layout for good).
//
// A panel holds `width` rows of a kc-slice of k: lane r of column l at
// panel[l·width + r]; panels follow each other `stride` doubles apart (a
// multiple of 8: 64-byte aligned). The micro-kernel multiplies an MR-wide
// panel of P by an NR-wide panel of Q into an MR x NR block of C, whose rows
// come from P and columns from Q; it prefers C stored by columns (skx, 16 x
// 14: then P is B and Q is A of C = A Bᵀ) or by rows (zen3, haswell, 6 x 8:
// P is A, Q is B).
#pragma once
#include <blis.h>

#include <cstdint>

namespace kmx::linalg::detail {

struct MicroKernel {
    cntx_t *cntx;
    dgemm_ukr_ft ukr;
    int64_t mr, nr, mc, kc_max;
    bool p_is_b;  // the kernel prefers column-stored C: P = B, Q = A

    // Panel width of B's side and of A's side of C = A Bᵀ.
    int64_t b_width() const { return p_is_b ? mr : nr; }
    int64_t a_width() const { return p_is_b ? nr : mr; }
};

MicroKernel micro_kernel();

inline int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

// The kc-slice of k: as few slices as BLIS's largest KC allows, of equal
// length (a short last slice would cost a whole pass over C for little work).
inline int64_t slice_length(const MicroKernel &u, int64_t k) { return ceil_div(k, ceil_div(k, u.kc_max)); }

inline int64_t panel_stride(int64_t width, int64_t kc) { return (width * kc + 7) / 8 * 8; }

}  // namespace kmx::linalg::detail
