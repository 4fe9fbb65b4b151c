// expansion_model.h — a kernel ridge regression fit (a CenterExpansion) as a
// Model, so KRR, Nyström KRR, MEKA KRR and FALKON models predict, save and
// load like every other kmx model.
//
// The centers become the model's points (all "support vectors"); output
// column k becomes machine k with coefficients β_{·,k} and no bias:
// regression has one machine and no classes; two classes one machine whose
// positive class is the larger label; c classes c one-vs-rest machines. A
// partitioned expansion (MEKA) keeps its cluster ranges in every machine and
// its cluster centers as the model's input-space routes.
#pragma once
#include "model/center_expansion.h"
#include "krr_targets.h"
#include "model/model.h"

namespace kmx {

Model model_from_expansion(const CenterExpansion &expansion, const KrrTargets &targets, kmx_method method,
                           double lambda);

// The inverse, for a KRR-family model (KMX_E_INVALID_ARGUMENT for an SVM model).
CenterExpansion expansion_from_model(const Model &model);

}  // namespace kmx
