// predictor_from_expansion.h — any fitted kernel expansion (exact KRR,
// Nyström KRR, FALKON: one global expansion; MEKA: one per input-space
// cluster) as a compact predictor, so every KRR-family model can be shipped
// to the inference runtime: landmarks = the centers, one top node, one leaf
// per cluster (routing by the nearest cluster center, as the expansion
// does) or one global leaf, no pseudo-landmarks, β as fitted, the
// expansion's bias (0 when it has none) in every leaf.
#pragma once
#include <optional>
#include <vector>

#include "compact_predictor.h"
#include "kmx/kmx.h"

namespace kmx {

struct CenterExpansion;
struct Model;

// classes: classification labels, increasing (empty for regression);
// expansion.outputs must be what task/classes/multiclass need (1 for
// regression and two classes, c for one-vs-rest, c(c−1)/2 for one-vs-one).
// storage rounds every array to float (all but float64) and quantizes the
// landmarks (int16, int8: the model's centers, against the β it fitted to
// the exact ones, so unlike DC-Pred++ leaves nothing is refitted to the
// stored numbers). A cluster without centers becomes a
// leaf with one landmark (its cluster center) and β = 0, which predicts 0 as
// the expansion does. KMX_E_INVALID_ARGUMENT for inconsistent input.
CompactPredictor predictor_from_expansion(const CenterExpansion &expansion, PredictorTask task,
                                          const std::vector<double> &classes, kmx_multiclass multiclass,
                                          PredictorStorage storage = PredictorStorage::float64);

// An SVM classifier as it is: its points as the landmarks of one leaf, β_{j,k}
// = machine k's coefficient of point j, bias_k = machine k's bias, its
// sigmoids; in float64 storage its decision values up to rounding. The
// budget search's largest candidate (the model compressed by its storage
// alone). Empty when the model's machines do not predict as a compact
// predictor does: partitions (early prediction), sparse points, a precomputed
// or callback kernel, or machines not in the predictor's order (two
// classes: one machine, class 1 positive;
// one-vs-rest: machine k is class k against the rest; one-vs-one: the pairs
// in LIBSVM's order, the first class positive).
std::optional<CompactPredictor> predictor_from_svm_model(const Model &model, PredictorStorage storage);

}  // namespace kmx
