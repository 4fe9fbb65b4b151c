// distances.h — squared Euclidean distances for k-means. Choosing among
// centers uses the GEMM form ‖c‖² − 2⟨x, c⟩ (‖x‖² is common to all centers),
// and Lloyd's iterations track the objective in the form ‖x‖² + ‖c‖² − 2⟨x, c⟩.
// Distances that are returned (the final objective, kmx_kmeans_assign's
// sqdist) are exact sums of squared differences, free of that form's
// cancellation, so a point sitting on its center is at exactly 0.
#pragma once
#include <cstdint>

#include "core/dataset.h"
#include "core/scratch_carver.h"
#include "linalg/packed_rows.h"
#include "row_blocks.h"

namespace kmx::cluster {

// k centers (k x d, row-major) with their squared norms, and optionally the
// same rows in the GEMM micro-kernel's panels (center_panels): a block's GEMM
// then packs only its rows, and the argmin runs on each tile of products
// while it is in L1.
struct CenterSet {
    const double *rows;
    const double *sqnorms;
    int64_t k;
    int64_t d;
    const linalg::PackedRows *panels = nullptr;
};

// Whether blocks of m rows meet k centers of d values faster in panels: where
// BLIS's own gemm would pack the centers anew for every block (skx; zen3 and
// haswell read them in place at such sizes).
bool centers_in_panels(int64_t m, int64_t k, int64_t d);
// Storage for k centers of d values in panels, carved (empty when the carver
// only sizes); fill it with pack_centers.
linalg::PackedRows carve_center_panels(ScratchCarver &carver, int64_t k, int64_t d);
void pack_centers(const double *centers, linalg::PackedRows &panels);
// The GEMM scratch nearest_centers needs for m rows against centers in panels.
size_t nearest_centers_gemm_bytes(int64_t m, int64_t d);

// Σ_j (a_j − b_j)², in a fixed summation order.
double squared_distance(const double *a, const double *b, int64_t d);
// ‖a‖².
double squared_norm(const double *a, int64_t d);
// ‖row i of data‖² (dense or sparse).
double row_squared_norm(const Dataset &data, int64_t i);
// sqnorms[c] = ‖center c‖² for the k rows of `centers` (k x d).
void center_squared_norms(const double *centers, int64_t k, int64_t d, double *sqnorms);
// y += alpha · x (length d).
void add_scaled(double alpha, const double *x, double *y, int64_t d);

// dots (m x centers.k) = x (m x d) · centersᵀ, by GEMM on the calling thread.
void center_dot_products(const double *x, int64_t m, const CenterSet &centers, double *dots);

// For each of the m rows of x (m x d): the center minimising ‖c‖² − 2⟨x, c⟩
// (ties go to the lower index), and if best_scores is not null that minimum
// (‖x − c‖² − ‖x‖²). dots (m x centers.k) is scratch, and so is `gemm`
// (nearest_centers_gemm_bytes(m, d)) where the centers come in panels.
void nearest_centers(const double *x, int64_t m, const CenterSet &centers, double *dots, int32_t *nearest,
                     double *best_scores, Arena *gemm = nullptr);

// row_sqnorms[i] = ‖row i‖² for every row, in parallel over the partition's blocks.
void row_squared_norms(const Dataset &data, const RowPartition &partition, double *row_sqnorms);

}  // namespace kmx::cluster
