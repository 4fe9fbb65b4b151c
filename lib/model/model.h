// model.h — a trained kernel machine: the support vectors (shared by all
// binary machines), per machine its coefficients y_i α_i and bias, and for
// early prediction / BKA per machine the partition whose nearest cluster
// picks the coefficients that predict a point. Immutable once built, so one
// model may predict from many threads at once.
//
// Sign convention: a binary machine's decision value f(x) > 0 votes for its
// `positive` class. Two classes: one machine, positive = the larger label
// (so labels ±1 get the usual sign). One-vs-one (c > 2): machine (i, j),
// i < j, in LIBSVM's order 0v1, 0v2, …, 1v2, …, positive = class i.
// One-vs-rest: machine c, positive = class c, negative = the rest.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <memory>
#include <vector>

#include "cluster/kernel_kmeans.h"
#include "kernel/kernel.h"
#include "kmx/kmx.h"

namespace kmx {

class Context;
class Dataset;

constexpr int32_t kRestOfClasses = -1;  // BinaryMachine::negative for one-vs-rest

// The clustering an early-prediction, BKA or MEKA machine predicts with: the
// coefficients of cluster c are [cluster_begin[c], cluster_begin[c+1]) of the
// machine's list. A point's cluster is its nearest in feature space by
// `partition` (DC-SVM; partition.sample_rows index the model's points), or,
// when partition.k == 0, its nearest of the model's route_centers in input
// space (MEKA: Euclidean distance, ties to the lowest index).
struct MachinePartition {
    KernelPartition partition;
    std::vector<int64_t> cluster_begin;  // clusters + 1 offsets
    std::vector<double> cluster_bias;    // clusters: b_c added to the machine's bias (empty: all 0)
    bool empty() const { return cluster_begin.empty(); }
    int64_t clusters() const { return empty() ? 0 : int64_t(cluster_begin.size()) - 1; }
};

struct BinaryMachine {
    int32_t positive = 0;               // class index
    int32_t negative = kRestOfClasses;  // class index, or kRestOfClasses
    double bias = 0;
    std::vector<int64_t> sv;   // point index of each coefficient
    std::vector<double> coef;  // y_i α_i
    MachinePartition local;    // empty for a single global model
};

// Platt's sigmoid of one binary machine: P(positive | f) = 1 / (1 + exp(A f + B))
// for its decision value f (A < 0 when larger f means the positive class).
struct PlattSigmoid {
    double A = 0;
    double B = 0;
};

struct TrainStats {
    double objective = 0;      // summed over the binary problems
    double kkt_violation = 0;  // largest over the binary problems
    int64_t iterations = 0;    // summed
    double seconds = 0;        // wall clock
};

// Kernel ridge regression models (KMX_METHOD_KRR … FALKON) use the same
// form: points are the expansion's centers, one machine per output column
// (coefficients β, no bias); classification is one-vs-rest (or one machine
// for two classes); regression has no classes and one machine whose
// decision value is the prediction. ε-SVR models (KMX_METHOD_SVR) are
// regression models of that shape with the SVM's support vectors,
// coefficients α_i − α*_i and bias. One-class SVM models
// (KMX_METHOD_ONE_CLASS) are binary classifiers of classes {−1, +1}: one
// machine (positive = +1) with coefficients α_i and bias −ρ, so f > 0 is +1
// (inlier) as LIBSVM's.
struct Model {
    kmx_method method = KMX_METHOD_DCSVM;
    kmx_multiclass multiclass = KMX_MULTICLASS_OVO;
    bool has_bias = false;
    double C = 0;                 // SVM methods: the cost C
    double lambda = 0;            // KRR methods: the ridge λ
    double nu = 0;                // one-class: ν (saved in C's place; C is 0)
    KernelSpec kernel;            // gamma resolved (never 0 = auto)
    int64_t d = 0;                // columns the model expects
    std::vector<double> classes;  // increasing
    // Names of the classes in `classes`' order (e.g. R's factor levels), or
    // none; see class_names_problem for what a name may hold.
    std::vector<std::string> class_names;
    // Points: rows [0, support_vectors) are support vectors, the rest are
    // partition sample points that are not; n_points x point_columns()
    // row-major (d columns; a precomputed kernel's: the serial number alone).
    // Trained on rows that stay sparse (sparse_kernel_rows: wide CSR data),
    // they are CSR instead: point p's values points[point_row_ptr[p],
    // point_row_ptr[p + 1]) at columns point_col[...] (increasing), so a
    // model of 10⁷ columns costs its nonzeros.
    int64_t support_vectors = 0;
    int64_t n_points = 0;
    std::vector<double> points;
    std::vector<int64_t> point_row_ptr;  // n_points + 1 entries when sparse, else empty
    std::vector<int32_t> point_col;
    std::vector<BinaryMachine> machines;
    // Input-space routing centers (routes x d) of machines whose partition
    // has k == 0 (MEKA KRR); empty otherwise.
    int64_t routes = 0;
    std::vector<double> route_centers;
    // Probability estimates (SVM classifiers trained with probability=1): one
    // sigmoid per machine, in the machines' order; empty without them.
    std::vector<PlattSigmoid> sigmoids;
    TrainStats stats;

    int64_t decision_values() const { return int64_t(machines.size()); }
    int64_t point_columns() const { return kernel.point_columns(d); }
    bool regression() const { return classes.empty(); }
    bool krr() const { return method >= KMX_METHOD_KRR && method <= KMX_METHOD_NYSTROM_TRON; }
    bool svr() const { return method == KMX_METHOD_SVR; }
    bool one_class() const { return method == KMX_METHOD_ONE_CLASS; }
    bool probabilities() const { return !sigmoids.empty(); }
    bool sparse_points() const { return !point_row_ptr.empty(); }
    // The points as a dataset borrowing these arrays (dense or CSR, d
    // columns; a precomputed kernel's: one), valid while they are unchanged.
    std::unique_ptr<Dataset> points_dataset() const;
    // The points as dense rows (n_points x point_columns()), whatever their
    // storage, within ctx's budget (`what` names the use in its error).
    std::vector<double> dense_points(Context &ctx, const char *what) const;
    bool early() const;  // true if the machines predict through partitions (all or none do)
    // Bytes the model holds in memory (its arrays and each
    // machine's own size): a many-machine model holds ~3x its file's bytes.
    size_t memory_bytes() const;
};

// Makes the rows `rows` of data the model's points (n_points of them, within
// ctx's budget), point_columns() values each: a precomputed kernel's support
// vectors are stored as their serial numbers, as LIBSVM's.
void store_points(Context &ctx, const Dataset &data, const std::vector<int64_t> &rows, Model &model);

// Why `names` cannot name `classes` classes (nullptr if they can): one per
// class, 1 to kMaxClassNameBytes bytes each, no control characters, distinct.
constexpr size_t kMaxClassNameBytes = 255;
const char *class_names_problem(const std::vector<std::string> &names, size_t classes);

// The number of machines `classes` classes need in `mode`.
int64_t machines_for(int64_t classes, kmx_multiclass mode);

// Decision values of every row of `data` (n x decision_values(), row-major).
// More columns than the model is KMX_E_INVALID_ARGUMENT; so is fewer, unless
// the data is LIBSVM's (absent_columns_are_zeros): then they are padded with zeros.
// Both go through the rows in blocks of prediction_block's size; the only
// memory they take beyond `out` is one block's workspace.
void model_decision_values(Context &ctx, const Model &model, const Dataset &data, double *out);
// Predicted labels (n); regression models: the predicted values.
void model_predict(Context &ctx, const Model &model, const Dataset &data, double *out);
// The rows of one block of prediction and the bytes of its workspace (its
// rows, their kernel values and decision values, the scratch of its steps):
// the most rows, up to 16 MiB of kernel and decision values and 1024 rows,
// whose workspace fits what ctx's budget has left. KMX_E_OUT_OF_MEMORY,
// naming what one row needs, when not even one row's does.
struct PredictionBlock {
    int64_t rows = 0;
    size_t bytes = 0;
};
PredictionBlock prediction_block(const Context &ctx, const Model &model, const Dataset &data);
// The workspace of a block of `rows` rows of `data` on `threads` threads.
size_t prediction_block_bytes(const Model &model, const Dataset &data, int64_t rows, int threads);
// The class index that decision values (one row) vote for.
int64_t class_from_decision_values(const Model &model, const double *values);

}  // namespace kmx
