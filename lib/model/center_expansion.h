// center_expansion.h — what every kernel ridge regression in kmx fits (exact
// KRR, Nyström KRR, MEKA KRR, FALKON): outputs that are kernel expansions
// over a set of centers,
//
//   f_k(x) = Σ_j K(x, u_j) β_{j,k} + b_k,   k = 0 … outputs−1,
//
// either one expansion for every x (exact KRR: the centers are the training
// rows; Nyström KRR and FALKON: the landmarks), or one per input-space
// cluster (MEKA: x uses the centers of its nearest cluster center, Euclidean
// distance, ties to the lowest index). KRR fits no bias (b = 0); an ε-SVR
// model seen as an expansion (its support vectors) has one.
//
// Regularisation convention (FALKON's, shared by every KRR form):
//   min_f (1/n) Σ_i ‖f(x_i) − y_i‖² + λ ‖f‖²_H,
// so exact KRR is α = (G + nλ I)⁻¹ Y, and with M = n centers FALKON and
// Nyström KRR equal it.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "core/row_subset.h"
#include "kernel/kernel.h"

namespace kmx {

class Context;
class Dataset;
struct Model;

struct CenterExpansion {
    KernelSpec kernel;            // gamma resolved (never 0 = auto)
    int64_t d = 0;                // features
    int64_t outputs = 1;          // columns of β
    int64_t m = 0;                // centers
    std::vector<double> centers;  // m x d row-major (empty when sparse_centers holds them)
    // The centers as CSR rows (rows of wide sparse data that stay sparse in
    // kernel blocks); a partition's expansion keeps dense centers.
    KeptRows sparse_centers;
    std::vector<double> beta;  // m x outputs row-major
    std::vector<double> bias;  // outputs values b_k, or empty: none
    // Optional partition (empty = one global expansion): cluster s owns
    // centers and β rows [cluster_begin[s], cluster_begin[s+1]).
    std::vector<double> cluster_centers;  // c x d row-major
    std::vector<int64_t> cluster_begin;   // c + 1 offsets

    int64_t clusters() const { return int64_t(cluster_begin.empty() ? 0 : cluster_begin.size() - 1); }
    // The centers as a dataset (dense or CSR) borrowing these arrays.
    std::unique_ptr<Dataset> centers_dataset() const;
};

// out (n x outputs, row-major) = f(x) for every row of data (dense or
// sparse, d columns — fewer are padded with zeros, more is an error),
// through kernel blocks (GEMM), in row blocks so memory stays O(block · m).
void center_expansion_predict(Context &ctx, const CenterExpansion &expansion, const Dataset &data, double *out);

// A model's machines as one expansion over its points: machine k's
// coefficients as β's column k (0 for points it does not use), its bias as
// b_k when the model has biases, its input-space routes as the partition.
// What a model predicts through partitions (early prediction) is not this.
CenterExpansion expansion_of_machines(const Model &model);

// Makes rows rows[0..count) of data (rows nullptr: the first count) e's
// centers, within ctx's budget: CSR when data's rows stay sparse in kernel
// blocks (sparse_kernel_rows, a kernel of feature vectors), else dense.
void keep_centers(Context &ctx, const Dataset &data, const int64_t *rows, int64_t count, const char *what,
                  CenterExpansion &e);

// The cluster whose center (clusters x d, row-major) is nearest to x: exact
// squared Euclidean distance, ties to the lowest index. MEKA partitions its
// training points with it, so prediction routes them the same way.
int64_t nearest_cluster(const double *x, const double *cluster_centers, int64_t clusters, int64_t d);

}  // namespace kmx
