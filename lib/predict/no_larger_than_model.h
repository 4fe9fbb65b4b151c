// no_larger_than_model.h — kmx_predictor_build's default for SVM models when
// no budget is given: never a predictor larger than the model it came from.
//
// It builds DC-Pred++ with the given options (automatic ones adapt to n and
// the support vectors: leaves min(S/16, n/24) <= 256, landmarks per leaf
// 2.5 × the support vectors per leaf). While the blob is larger than the
// model's file (model_to_bytes), it shrinks and rebuilds: to the first more
// compact storage (float32, int16, int8 in turn) that fits, unless the
// caller chose the storage (a storage's bytes are known without a rebuild:
// it changes the numbers, not the structure); if none fits, also fewer
// landmarks per leaf, scaled by how far over the bytes are. Leaves and
// pseudo-landmarks stay as asked. Fails with KMX_E_INVALID_ARGUMENT when one landmark per
// leaf is still larger than the model (a model of a handful of support
// vectors), naming both sizes.
#pragma once

#include "compact_predictor.h"
#include "dcpred.h"

namespace kmx {

class Context;
class Dataset;
struct Model;

CompactPredictor build_no_larger_than_model(Context &ctx, const Model &model, const Dataset &train,
                                            DcpredOptions options, bool storage_given);

}  // namespace kmx
