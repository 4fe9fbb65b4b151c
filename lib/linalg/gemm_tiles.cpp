// gemm_tiles.cpp — C = α A Bᵀ by BLIS's micro-kernel on panels packed here,
// with a caller's epilogue on each tile as soon as it is final.
//
// BLIS's loops (Goto's algorithm; Van Zee & van de Geijn, "BLIS: A Framework
// for Rapidly Instantiating BLAS Functionality", ACM TOMS 2015):
//
//   for each chunk of Q rows, each chunk of P rows, each kc-slice of k:
//     pack the Q chunk into NR-row panels
//     (panel p, column l, lane r at panel[p·stride + l·width + r])
//     for each block of P rows (about MC, one per task, in parallel):
//       pack the block into MR-row panels
//       for each group of Q panels:
//         for each P panel of the block: C tile (MR x NR) += α P_panel Q_panelᵀ
//         after the last kc-slice: the epilogue on the group's tile of C
//
// The micro-kernel computes an MR x NR block of C whose rows come from P and
// columns from Q, stored either way; it is fastest on the storage it prefers.
// C is row-major (C[i][j] at i·ldc + j), so for a kernel preferring columns
// (skx, 16 x 14) P is B and Q is A — a tile is a few rows i of C, each a
// contiguous run of MC entries j — and for one preferring rows (zen3,
// haswell, 6 x 8) P is A and Q is B.
#include "gemm_tiles.h"

#include <algorithm>

#include "core/error.h"
#include "core/parallel.h"
#include "micro_kernel.h"
#include "packed_rows.h"

namespace kmx::linalg {

namespace detail {

MicroKernel micro_kernel() {
    bli_init();
    MicroKernel u;
    u.cntx = bli_gks_query_cntx();
    u.ukr = reinterpret_cast<dgemm_ukr_ft>(bli_cntx_get_l3_nat_ukr_dt(BLIS_DOUBLE, BLIS_GEMM_UKR, u.cntx));
    u.mr = bli_cntx_get_blksz_def_dt(BLIS_DOUBLE, BLIS_MR, u.cntx);
    u.nr = bli_cntx_get_blksz_def_dt(BLIS_DOUBLE, BLIS_NR, u.cntx);
    u.mc = bli_cntx_get_blksz_def_dt(BLIS_DOUBLE, BLIS_MC, u.cntx);
    u.kc_max = bli_cntx_get_blksz_max_dt(BLIS_DOUBLE, BLIS_KC, u.cntx);
    u.p_is_b = bli_cntx_l3_nat_ukr_prefers_cols_dt(BLIS_DOUBLE, BLIS_GEMM_UKR, u.cntx);
    return u;
}

}  // namespace detail

namespace {

using detail::ceil_div;
using detail::micro_kernel;
using detail::MicroKernel;
using detail::panel_stride;
using detail::slice_length;

constexpr int64_t kMaxChunkRowsP = 2048;  // P rows packed at a time (all of P when smaller)
constexpr int64_t kMaxChunkRowsQ = 4096;  // Q rows packed at a time
constexpr int64_t kTileRunColumns = 64;   // contiguous j per tile row when Q is B

// Rows of a row-major matrix, packed `width` rows to a panel.
struct Panels {
    const double *x;
    int64_t ld, width;
    double *packed;
    int64_t stride;  // doubles from one panel to the next (a multiple of 8: 64-byte aligned panels)
};

// Panel p of rows [r0, r1), columns [k0, k0 + kc): lane r of column l at
// packed[p·stride + l·width + r]; lanes past r1 are 0. BLIS's own packing
// kernel for the kernel set in use does it.
void pack_panel(const Panels &s, const MicroKernel &u, int64_t p, int64_t r0, int64_t r1, int64_t k0, int64_t kc) {
    const int64_t first = r0 + p * s.width, lanes = std::min(s.width, r1 - first);
    double one = 1.0;
    bli_dpackm_cxk(BLIS_NO_CONJUGATE, BLIS_PACKED_ROW_PANELS, lanes, s.width, kc, kc, &one,
                   const_cast<double *>(s.x + first * s.ld + k0), s.ld, 1, s.packed + p * s.stride, s.width, u.cntx);
}

void pack_rows(const Panels &s, const MicroKernel &u, int64_t r0, int64_t r1, int64_t k0, int64_t kc, int threads) {
    parallel_for(ceil_div(r1 - r0, s.width), threads, [&](int64_t p) { pack_panel(s, u, p, r0, r1, k0, kc); });
}

// One call's fixed data.
struct Job {
    MicroKernel u;
    Panels p, q;
    double alpha;
    double *c;
    int64_t ldc;
    TileVisitor tile;
};

// The micro-kernel on P panel pp and Q panel qp (local to the packed chunks
// starting at rows p0, q0), with valid extents mp x nq.
void micro_tile(const Job &job, int64_t p0, int64_t pp, int64_t mp, int64_t q0, int64_t qp, int64_t nq, int64_t kc,
                double beta, const double *next_p, const double *next_q) {
    const int64_t pr = p0 + pp * job.u.mr, qr = q0 + qp * job.u.nr;
    double *c = job.u.p_is_b ? job.c + qr * job.ldc + pr : job.c + pr * job.ldc + qr;
    const inc_t rs = job.u.p_is_b ? 1 : job.ldc, cs = job.u.p_is_b ? job.ldc : 1;
    auxinfo_t aux{};
    bli_auxinfo_set_next_a(const_cast<double *>(next_p), &aux);
    bli_auxinfo_set_next_b(const_cast<double *>(next_q), &aux);
    bli_auxinfo_set_is_a(1, &aux);
    bli_auxinfo_set_is_b(1, &aux);
    bli_auxinfo_set_ps_a(job.p.stride, &aux);
    bli_auxinfo_set_ps_b(job.q.stride, &aux);
    double alpha = job.alpha;
    job.u.ukr(mp, nq, kc, &alpha, job.p.packed + pp * job.p.stride, job.q.packed + qp * job.q.stride, &beta, c, rs, cs,
              &aux, job.u.cntx);
}

// Rows [p_begin, p_end) of P (absolute) against every Q row of the chunk
// [q0, q1), one group of Q panels at a time; after the last kc-slice
// (`final`), the epilogue on each group's tile.
void block_product(const Job &job, int64_t p0, int64_t p_begin, int64_t p_end, int64_t q0, int64_t q1, int64_t kc,
                   double beta, bool final) {
    const int64_t mr = job.u.mr, nr = job.u.nr;
    const int64_t q_panels = ceil_div(q1 - q0, nr);
    const int64_t group = job.u.p_is_b ? 1 : std::max<int64_t>(1, kTileRunColumns / nr);
    const int64_t pp_first = (p_begin - p0) / mr, pp_last = ceil_div(p_end - p0, mr);
    for (int64_t g = 0; g < q_panels; g += group) {
        const int64_t g_end = std::min(q_panels, g + group);
        for (int64_t qp = g; qp < g_end; ++qp) {
            const int64_t nq = std::min(nr, q1 - (q0 + qp * nr));
            for (int64_t pp = pp_first; pp < pp_last; ++pp) {
                const int64_t mp = std::min(mr, p_end - (p0 + pp * mr));
                const bool last = pp + 1 == pp_last;
                const double *next_p = job.p.packed + (last ? pp_first : pp + 1) * job.p.stride;
                const double *next_q = job.q.packed + (last && qp + 1 < q_panels ? qp + 1 : qp) * job.q.stride;
                micro_tile(job, p0, pp, mp, q0, qp, nq, kc, beta, next_p, next_q);
            }
        }
        if (!final) continue;
        const int64_t qa = q0 + g * nr, qb = std::min(q1, q0 + g_end * nr);
        if (job.u.p_is_b)
            job.tile.visit(job.tile.data, qa, qb, p_begin, p_end);
        else
            job.tile.visit(job.tile.data, p_begin, p_end, qa, qb);
    }
}

// Rows per parallel block of a P chunk: about MC, a multiple of MR, and the
// blocks a multiple of `threads` in number so the threads share them evenly.
int64_t block_rows(const MicroKernel &u, int64_t rows, int threads) {
    int64_t blocks = ceil_div(rows, u.mc);
    blocks = ceil_div(blocks, threads) * threads;
    return ceil_div(ceil_div(rows, blocks), u.mr) * u.mr;
}

// The P chunk [p0, p1) against the Q chunk [q0, q1) over all of k.
void chunk_product(Job &job, int64_t p0, int64_t p1, int64_t q0, int64_t q1, int64_t k, int threads) {
    const int64_t per_block = block_rows(job.u, p1 - p0, threads), blocks = ceil_div(p1 - p0, per_block);
    const int64_t slice = slice_length(job.u, k);
    for (int64_t k0 = 0; k0 < k; k0 += slice) {
        const int64_t kc = std::min(slice, k - k0);
        pack_rows(job.q, job.u, q0, q1, k0, kc, threads);
        const double beta = k0 == 0 ? 0.0 : 1.0;
        const bool final = k0 + kc == k;
        parallel_for(blocks, threads, [&](int64_t block) {
            const int64_t begin = p0 + block * per_block, end = std::min(p1, begin + per_block);
            for (int64_t pp = (begin - p0) / job.u.mr; pp < ceil_div(end - p0, job.u.mr); ++pp)
                pack_panel(job.p, job.u, pp, p0, p1, k0, kc);  // just in time: the block stays in this core's L2
            block_product(job, p0, begin, end, q0, q1, kc, beta, final);
        });
    }
}

// A's panels of every slice, one slice after another (read-only to the
// threads of gemm_abt_packed).
int64_t a_slice_doubles(const MicroKernel &u, int64_t m, int64_t k) {
    return ceil_div(m, u.a_width()) * panel_stride(u.a_width(), slice_length(u, k));
}

void pack_a_slices(Panels a_side, const MicroKernel &u, int64_t m, int64_t k) {
    const int64_t slice = slice_length(u, k), slice_doubles = a_slice_doubles(u, m, k);
    double *first = a_side.packed;
    for (int64_t k0 = 0; k0 < k; k0 += slice) {
        a_side.packed = first + (k0 / slice) * slice_doubles;
        pack_rows(a_side, u, 0, m, k0, std::min(slice, k - k0), 1);
    }
}

// B's rows [begin + piece_begin, begin + piece_end) (whole panels, kept in
// `b`) against all m rows of A (packed: a_panels), on one thread.
void packed_piece(Job job, const PackedRows &b, const double *a_panels, int64_t begin, int64_t piece_begin,
                  int64_t piece_end, int64_t m) {
    const MicroKernel &u = job.u;
    Panels &kept = u.p_is_b ? job.p : job.q, &a_side = u.p_is_b ? job.q : job.p;
    const int64_t k = b.columns(), slice = b.slice_length(), a_doubles = a_slice_doubles(u, m, k);
    for (int64_t k0 = 0; k0 < k; k0 += slice) {
        const int64_t kc = std::min(slice, k - k0);
        a_side.packed = const_cast<double *>(a_panels + (k0 / slice) * a_doubles);
        kept.packed = const_cast<double *>(b.panel(k0 / slice, begin + piece_begin));
        const double beta = k0 == 0 ? 0.0 : 1.0;
        const bool final = k0 + kc == k;
        if (!u.p_is_b) {
            block_product(job, 0, 0, m, piece_begin, piece_end, kc, beta, final);
            continue;
        }
        const int64_t per_block = block_rows(u, piece_end - piece_begin, 1);  // about MC rows of B: L2
        for (int64_t b0 = piece_begin; b0 < piece_end; b0 += per_block)
            block_product(job, piece_begin, b0, std::min(piece_end, b0 + per_block), 0, m, kc, beta, final);
    }
}

struct ChunkSizes {
    int64_t p_rows, q_rows, p_doubles, q_doubles;
};

ChunkSizes chunk_sizes(const MicroKernel &u, int64_t np, int64_t nq, int64_t k) {
    ChunkSizes s;
    const int64_t kc = slice_length(u, k);
    s.p_rows = std::min(np, kMaxChunkRowsP);
    s.q_rows = std::min(nq, kMaxChunkRowsQ);
    s.p_doubles = ceil_div(s.p_rows, u.mr) * panel_stride(u.mr, kc);
    s.q_doubles = ceil_div(s.q_rows, u.nr) * panel_stride(u.nr, kc);
    return s;
}

// k = 0: C = 0, one tile.
void empty_product(int64_t m, int64_t n, double *c, int64_t ldc, TileVisitor tile) {
    for (int64_t i = 0; i < m; ++i) std::fill(c + i * ldc, c + i * ldc + n, 0.0);
    tile.visit(tile.data, 0, m, 0, n);
}

}  // namespace

void gemm_abt_tiles(int64_t m, int64_t n, int64_t k, double alpha, const double *a, int64_t lda, const double *b,
                    int64_t ldb, double *c, int64_t ldc, Arena &scratch, int threads, TileVisitor tile) {
    if (m < 0 || n < 0 || k < 0) fail(KMX_E_INVALID_ARGUMENT, "gemm_abt_tiles: negative size");
    if (lda < std::max<int64_t>(k, 1) || ldb < std::max<int64_t>(k, 1) || ldc < std::max<int64_t>(n, 1))
        fail(KMX_E_INVALID_ARGUMENT, "gemm_abt_tiles: a leading dimension is below its row length");
    if (m == 0 || n == 0) return;
    if (k == 0) return empty_product(m, n, c, ldc, tile);
    const MicroKernel u = micro_kernel();
    const int64_t np = u.p_is_b ? n : m, nq = u.p_is_b ? m : n;
    const ChunkSizes sizes = chunk_sizes(u, np, nq, k);
    const ArenaScope scope(scratch);
    Job job{u, {}, {}, alpha, c, ldc, tile};
    job.p = {u.p_is_b ? b : a, u.p_is_b ? ldb : lda, u.mr, scratch.alloc<double>(size_t(sizes.p_doubles)),
             panel_stride(u.mr, slice_length(u, k))};
    job.q = {u.p_is_b ? a : b, u.p_is_b ? lda : ldb, u.nr, scratch.alloc<double>(size_t(sizes.q_doubles)),
             panel_stride(u.nr, slice_length(u, k))};
    for (int64_t q0 = 0; q0 < nq; q0 += sizes.q_rows)
        for (int64_t p0 = 0; p0 < np; p0 += sizes.p_rows)
            chunk_product(job, p0, std::min(np, p0 + sizes.p_rows), q0, std::min(nq, q0 + sizes.q_rows), k, threads);
}

size_t gemm_tiles_workspace_bytes(int64_t m, int64_t n, int64_t k) {
    if (m <= 0 || n <= 0 || k <= 0) return 0;
    const MicroKernel u = micro_kernel();
    const ChunkSizes s = chunk_sizes(u, u.p_is_b ? n : m, u.p_is_b ? m : n, k);
    return WorkspacePlan().add<double>(size_t(s.p_doubles)).add<double>(size_t(s.q_doubles)).bytes();
}

void gemm_abt_packed(int64_t m, double alpha, const double *a, int64_t lda, const PackedRows &b, int64_t begin,
                     int64_t end, double *c, int64_t ldc, Arena &scratch, int threads, TileVisitor tile) {
    const int64_t k = b.columns(), nb = end - begin;
    if (b.layout() != PackedRows::Layout::panels) fail(KMX_E_INVALID_ARGUMENT, "gemm_abt_packed: B is not in panels");
    if (m < 0 || begin < 0 || nb < 0 || end > b.rows() || begin % b.width() != 0)
        fail(KMX_E_INVALID_ARGUMENT, "gemm_abt_packed: rows [%lld, %lld) of %lld (panels of %lld)", (long long)begin,
             (long long)end, (long long)b.rows(), (long long)b.width());
    if (lda < std::max<int64_t>(k, 1) || ldc < std::max<int64_t>(nb, 1))
        fail(KMX_E_INVALID_ARGUMENT, "gemm_abt_packed: a leading dimension is below its row length");
    if (m == 0 || nb == 0) return;
    if (k == 0) return empty_product(m, nb, c, ldc, tile);
    const MicroKernel u = micro_kernel();
    if (u.b_width() != b.width()) fail(KMX_E_INTERNAL, "gemm_abt_packed: B was packed for another micro-kernel");
    const int work_threads = threads_for_work(threads, 2.0 * double(m) * double(nb) * double(k));
    const int64_t panels = ceil_div(nb, b.width()), pieces = std::clamp<int64_t>(work_threads, 1, panels);
    const ArenaScope scope(scratch);
    const int64_t slices = ceil_div(k, b.slice_length());
    Panels a_side{a, lda, u.a_width(), scratch.alloc<double>(size_t(slices * a_slice_doubles(u, m, k))),
                  panel_stride(u.a_width(), b.slice_length())};
    pack_a_slices(a_side, u, m, k);
    const Panels kept{nullptr, 0, b.width(), nullptr, b.stride()};
    parallel_for(pieces, int(pieces), [&](int64_t piece) {
        const Job job{u, u.p_is_b ? kept : a_side, u.p_is_b ? a_side : kept, alpha, c, ldc, tile};
        const int64_t first = panels * piece / pieces * b.width(), last = panels * (piece + 1) / pieces * b.width();
        packed_piece(job, b, a_side.packed, begin, first, std::min(nb, last), m);
    });
}

bool gemm_reads_rows_in_place(int64_t m, int64_t n, int64_t k) {
    return bli_cntx_l3_sup_thresh_is_met(BLIS_DOUBLE, m, n, k, micro_kernel().cntx);
}

int64_t gemm_abt_packed_a_rows() { return micro_kernel().a_width(); }

size_t gemm_abt_packed_workspace_bytes(int64_t m, int64_t k) {
    if (m <= 0 || k <= 0) return 0;
    const MicroKernel u = micro_kernel();
    const int64_t slices = ceil_div(k, slice_length(u, k));
    return WorkspacePlan().add<double>(size_t(slices * a_slice_doubles(u, m, k))).bytes();
}

}  // namespace kmx::linalg
