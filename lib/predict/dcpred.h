// dcpred.h — DC-Pred++ (Hsieh, Si, Dhillon: "Fast prediction for large-scale
// kernel machines"): a compact predictor built from a trained kernel machine.
//
//   1. a two-level k-means tree in input space with k leaves (the routing of
//      compact_predictor.h);
//   2. a local model per leaf: classification — the C-SVC dual on the leaf's
//      rows with the model's kernel and C (DC-SVM's early-prediction
//      solution), one per binary machine of the model; regression — exact
//      KRR on the leaf's rows;
//   3. landmarks u_1..u_m per leaf: k-means centroids weighted by α_i²
//      (Theorem 3: the model error is bounded by this weighted objective);
//   4. pseudo-landmarks (pseudo_landmarks.h): triangle (stationary kernels)
//      and sampled degree-2 products of landmark values;
//   5. W̄ = (C̄_I)⁺ G_II ((C̄_I)⁺)ᵀ on a random principal submatrix I of the
//      leaf (paper eq. 5 restricted to I; singular values of C̄_I below 1e-6
//      of the largest dropped, so β stays float32-safe);
//   6. the local model refitted on the approximate kernel G̃ = C̄ W̄ C̄ᵀ: with
//      W̄ = V Λ Vᵀ (Λ ≥ 0) the features Φ = C̄ V Λ^{1/2} have ΦΦᵀ = G̃, so a
//      kernel problem on G̃ is a linear one on Φ, and β = V Λ^{1/2} w (which
//      is W̄ C̄ᵀ(y∘α) of the paper for the SVM). DcpredFit picks the problem:
//      the paper's C-SVC on the labels, or (default) ridge regression to the
//      exact local model's decision values — same accuracy on Letter, and it
//      reproduces the local model exactly when its support vectors are the
//      landmarks. Regression: ridge on the targets. A bias per leaf and output.
// With refine_iterations > 0, a leaf fitted by ridge regression without
// pseudo-landmarks replaces steps 5–6 by reduced-set refinement: its
// landmarks move to minimise the ridge fit of the same targets on their exact
// kernel values (landmark_refinement.h), then β and the bias are refitted on
// the stored (rounded or quantized) landmarks.
// With m >= a leaf's rows, the rows themselves are its landmarks; a leaf
// whose rows are all one class (or one target value) is a constant leaf
// (one landmark, β = 0). With `overlap` each row also trains the leaf of its
// second-nearest center (prediction still uses the nearest).
#pragma once
#include <cstdint>
#include <memory>

#include "compact_predictor.h"

namespace kmx {

class Context;
class Dataset;
struct Model;

enum class PseudoKind { automatic, triangle, products, both };

// How a classifier's leaf model is refitted on the approximate kernel G̃:
//   svm            the paper's way: the C-SVC dual (hinge loss on the
//                  labels) on G̃;
//   distill_local  kernel ridge regression on G̃ of the exact local SVM's
//                  decision values at the leaf's rows: when the landmarks
//                  include the local support vectors the local model is in
//                  the span and is reproduced exactly, otherwise its best
//                  approximation in the expanded features;
//   distill_model  the same with the full model's decision values.
enum class DcpredFit { svm, distill_local, distill_model };

struct DcpredOptions {
    int64_t leaves = 0;     // k leaves in total; 0 = auto: classification min(support vectors / 16,
                            // n / 24), regression n / 48; at most 256
    int64_t top = 0;        // top nodes; 0 = auto: round(√leaves)
    int64_t landmarks = 0;  // m per leaf; 0 = auto: 2.5 x the support vectors per leaf (regression: rows / 3
                            // per leaf, ~40); leaves with fewer weighted rows hold fewer
    int64_t pseudo = -1;    // pseudo-landmarks per leaf; -1 = auto: 0 (see bench/README.md: with
                            // many small leaves they cost more time than they return accuracy)
    PseudoKind pseudo_kind = PseudoKind::automatic;  // automatic: both for stationary kernels, else products
    int triangle_estimate = -1;  // TriangleEstimate value; -1 = pick by kernel approximation error on G_II
    int64_t submatrix = 1000;    // |I| for W̄ (capped at the leaf's rows)
    PredictorStorage storage = PredictorStorage::float64;  // how the blob stores it (compact_predictor.h);
                                                           // rounded/quantized before β is fitted
    double C = 0;                                          // classification; 0 = the model's: its largest |y_i α_i|
    double eps = 1e-3;                                     // KKT tolerance of the local and retrained SVMs
    DcpredFit fit = DcpredFit::distill_local;              // classification only
    double ridge = 1e-6;         // distill: λ of min (1/n_l)‖f̃ − f‖² + λ‖f̃‖² per leaf
    int kmeans_iterations = 30;  // Lloyd iterations for the tree and the landmarks
    bool overlap = true;         // each row also trains the leaf of its second-nearest center
    double gamma_scale = 1;      // the predictor's kernel γ = this × the model's (the local models keep the
                                 // model's): a wider kernel needs fewer landmarks
    const double *model_decision = nullptr;  // distill_model: the model's decision values at train's rows
                                             // (n x outputs) when the caller has them; else computed
    int refine_iterations = 30;   // ridge fits (distill, regression) of leaves without pseudo-landmarks: gradient
                                  // steps that move the landmarks (landmark_refinement.h), fewer when the leaves'
                                  // share of refine_work runs out; 0 = k-means landmarks
    double refine_work = 0x1p33;  // flops the refinement may spend, over all leaves
};

// A compact predictor for a trained classifier `model`, whose training rows
// (with labels) are `train`. Kernel, classes and one-vs-one / one-vs-rest come
// from the model. Seed and threads from ctx. Fails with KMX_E_INVALID_ARGUMENT
// for bad options (leaves < 1 after auto, landmarks < 1, leaves > n, triangle
// pseudo-landmarks with a non-stationary kernel), NaN in the data, labels not
// among the model's classes, columns beyond the model's d; and with
// KMX_E_OUT_OF_MEMORY before any work if ctx's budget is too small.
CompactPredictor build_dcpred(Context &ctx, const Model &model, const Dataset &train, const DcpredOptions &options);

// DC-Pred++ in two stages, for a caller that builds several predictors of
// one model and data (the budget search): steps 1–2 (the tree and the
// leaves' local models, most of the work) once at construction, steps 3–6
// for each build(options). Every build must agree with the construction's
// options in what steps 1–2 use — leaves, top, overlap, kmeans_iterations,
// C, eps, fit, model_decision, and whether storage is float64 (the tree's
// centers are rounded to it) — which same_stages() tells; the predictor is
// then the one build_dcpred makes with those options. Errors as build_dcpred.
class DcpredStages {
public:
    DcpredStages(Context &ctx, const Model &model, const Dataset &train, const DcpredOptions &options);
    ~DcpredStages();
    DcpredStages(const DcpredStages &) = delete;
    DcpredStages &operator=(const DcpredStages &) = delete;
    bool same_stages(const DcpredOptions &options) const;
    CompactPredictor build(const DcpredOptions &options);  // KMX_E_INVALID_ARGUMENT unless same_stages

private:
    struct State;
    std::unique_ptr<State> state_;
};

// The same for kernel ridge regression with `kernel` and λ (convention of
// center_expansion.h: min (1/n)Σ(f(x_i) − y_i)² + λ‖f‖²), per leaf.
CompactPredictor build_dcpred_regression(Context &ctx, const KernelSpec &kernel, double lambda, const Dataset &train,
                                         const DcpredOptions &options);

// Bytes a predictor takes when stored with `storage` (arrays of float64 or
// float32 values, int16/int8/int4 landmark codes, 4-byte indices): what the blob
// holds, without its headers and padding.
size_t compact_predictor_bytes(const CompactPredictor &predictor, PredictorStorage storage);

}  // namespace kmx
