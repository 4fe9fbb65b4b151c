// compact_predictor.h — a compact predictor (DC-Pred++), in memory.
//
// The contract between the builder (dcpred.cpp, predictor_from_expansion.cpp),
// the full library's batched predictor (compact_predict.cpp), the blob
// writer/reader (predictor_blob.cpp) and the inference subset (lib/infer/*.c,
// which must compute exactly this, in C).
//
// Predicting one row x (d features):
//  1. Route through the two-level k-means tree: the top node
//     t = argmin ‖x − top_centers_t‖², then the leaf
//     l = argmin over l ∈ [top_leaf_begin[t], top_leaf_begin[t+1]) of
//     ‖x − leaves[l].center‖² (squared Euclidean; ties to the lowest index).
//     Every distance of the rule is summed in one order, the inference
//     subset's: four partial sums s_r over the features k ≡ r (mod 4), each in
//     increasing k, then (s0 + s1) + (s2 + s3) (four independent chains: a
//     quarter of the latency of one). (The C++ paths let GCC fuse a product
//     and its sum, so a route may differ from the subset's at a tie within an
//     ulp.)
//     One top node and one leaf is a global Nyström predictor.
//  2. In leaf l with landmarks u_1…u_m: c_j = K(x, u_j).
//  3. Expand c to c̄ = [c, c_tri, c_prod] (length features() = m + p_tri + p_prod):
//     - triangle pseudo-landmarks (stationary kernels only), t < p_tri:
//       r_j = ‖x − u_j‖ (L2 for RBF, L1 for Laplacian) from step 2,
//       lower_t = max_j |r_j − D_tj|, upper_t = min_j (r_j + D_tj)  (paper eq. 6,
//       D_tj = ‖v_t − u_j‖ stored), estimate ρ_t by `triangle_estimate`,
//       c_tri,t = κ(ρ_t): exp(−γ ρ_t²) for RBF, exp(−γ ρ_t) for Laplacian;
//     - product pseudo-landmarks (any kernel), q < p_prod: c_prod,q = c_i c_j,
//       (i, j) = product_pairs[2q], product_pairs[2q+1], 0 <= i <= j < m.
//  4. Outputs o_k = bias_k + Σ_f c̄_f β_{f,k}, k < outputs (β is features() x outputs, row-major).
//  5. Label: regression: o_0. Classification with 2 classes: classes[1] if o_0 > 0
//     else classes[0]. More classes, one-vs-rest: the class of the largest o_k
//     (ties to the lowest index). One-vs-one: outputs are the pairs (i, j), i < j,
//     in LIBSVM's order 0v1, 0v2, …, 1v2, …; o > 0 votes for i, else j; the class
//     with most votes wins (ties to the lowest index).
//  6. Probabilities (classifiers compressed from a model trained with
//     probability estimates, which carry its sigmoids): output k through its
//     Platt sigmoid 1 / (1 + exp(A_k o_k + B_k)), then as the model does to
//     its own decision values (LIBSVM's -b 1: two classes the one sigmoid,
//     one-vs-one pairs coupled by Wu, Lin & Weng, one-vs-rest normalised;
//     lib/infer/probability.c computes it for every path).
//
// Storage (PredictorStorage; predictor_storage.h does the rounding):
//   float64  every real array as double;
//   float32  every real array (centers, landmarks, distances, β, bias) rounded
//            to float;
//   int16, int8  as float32, except the landmarks: integers q with one scale s
//            per leaf, u = center + s·q (the leaf's routing center, stored as
//            float, is the offset; |q| <= 32767 or 127);
//   int4     as float32, except the landmarks: 4-bit codes q into a table of
//            16 float values per feature and leaf, u_k = codebook[16k + q_k]
//            (the table: the feature's own values when the leaf's landmarks
//            take at most 16, else the 16 levels of a 1-D k-means on them).
// The in-memory form keeps doubles, already rounded (landmarks already
// dequantized, center + landmark_scale · q in double), so every predict path
// and the blob see the same numbers.
#pragma once
#include <cstdint>
#include <vector>

#include "kernel/kernel.h"
#include "kmx/kmx.h"

namespace kmx {

enum class PredictorTask { classification, regression };
// How a triangle pseudo-landmark's distance is estimated from its bounds.
enum class TriangleEstimate { lower = 0, upper = 1, midpoint = 2 };
// How the blob stores the arrays (values as kmx_storage in kmx.h).
enum class PredictorStorage { float64 = 0, float32 = 1, int16 = 2, int8 = 3, int4 = 4 };

struct PredictorLeaf {
    std::vector<double> center;          // d: the routing center
    int64_t m = 0;                       // landmarks
    std::vector<double> landmarks;       // m x d row-major
    double landmark_scale = 0;           // int16/int8 storage: s of u = center + s·q (> 0); else 0
    std::vector<double> codebook;        // int4 storage: d x 16, feature k's values at [16k, 16k + 16); else empty
    int64_t triangle = 0;                // p_tri
    std::vector<double> triangle_dist;   // p_tri x m row-major: D_tj = ‖v_t − u_j‖
    int64_t products = 0;                // p_prod
    std::vector<int32_t> product_pairs;  // 2 · p_prod
    std::vector<double> beta;            // features() x outputs row-major
    std::vector<double> bias;            // outputs

    int64_t features() const { return m + triangle + products; }
};

struct CompactPredictor {
    KernelSpec kernel;  // gamma resolved
    int64_t d = 0;
    PredictorTask task = PredictorTask::classification;
    kmx_multiclass multiclass = KMX_MULTICLASS_OVO;  // used when classes > 2
    std::vector<double> classes;                     // classification: increasing labels
    int64_t outputs = 1;                             // values per row in step 4
    TriangleEstimate triangle_estimate = TriangleEstimate::lower;
    PredictorStorage storage = PredictorStorage::float64;
    std::vector<double> top_centers;      // top x d row-major
    std::vector<int64_t> top_leaf_begin;  // top + 1 offsets into leaves
    std::vector<PredictorLeaf> leaves;
    // The model's Platt sigmoids, outputs x 2 (A_k, B_k) row-major, in the
    // outputs' order; empty when the model has none. Kept as double in every
    // storage (the blob's sigmoids section, format version 3).
    std::vector<double> sigmoids;

    bool probabilities() const { return !sigmoids.empty(); }
    int64_t top() const { return int64_t(top_leaf_begin.empty() ? 0 : top_leaf_begin.size() - 1); }
};

}  // namespace kmx
