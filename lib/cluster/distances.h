// distances.h — squared Euclidean distances for k-means. Choosing among
// centers uses the GEMM form ‖c‖² − 2⟨x, c⟩ (‖x‖² is common to all centers),
// and Lloyd's iterations track the objective in the form ‖x‖² + ‖c‖² − 2⟨x, c⟩.
// Distances that are returned (the final objective, kmx_kmeans_assign's
// sqdist) are exact sums of squared differences, free of that form's
// cancellation, so a point sitting on its center is at exactly 0.
#pragma once
#include <cstdint>

#include "core/dataset.h"
#include "row_blocks.h"

namespace kmx::cluster {

// k centers (k x d, row-major) with their squared norms.
struct CenterSet {
    const double *rows;
    const double *sqnorms;
    int64_t k;
    int64_t d;
};

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
// (‖x − c‖² − ‖x‖²). dots (m x centers.k) is scratch.
void nearest_centers(const double *x, int64_t m, const CenterSet &centers, double *dots, int32_t *nearest,
                     double *best_scores);

// row_sqnorms[i] = ‖row i‖² for every row, in parallel over the partition's blocks.
void row_squared_norms(const Dataset &data, const RowPartition &partition, double *row_sqnorms);

}  // namespace kmx::cluster
