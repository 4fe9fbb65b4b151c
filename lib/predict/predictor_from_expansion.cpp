// predictor_from_expansion.cpp — a CenterExpansion as a CompactPredictor.
#include "predictor_from_expansion.h"

#include <algorithm>

#include "compact_predict.h"
#include "predictor_storage.h"
#include "core/error.h"
#include "model/center_expansion.h"
#include "model/model.h"
#include "svm/probability_prediction.h"

namespace kmx {

namespace {

// Centers [begin, end) of the expansion (and their β rows) as one leaf routed by `center`.
PredictorLeaf expansion_leaf(const CenterExpansion &e, int64_t begin, int64_t end, const double *center) {
    PredictorLeaf leaf;
    leaf.center.assign(center, center + e.d);
    if (e.bias.empty())
        leaf.bias.assign(size_t(e.outputs), 0.0);
    else
        leaf.bias = e.bias;
    if (begin == end) {  // no centers: f = 0 here
        leaf.m = 1;
        leaf.landmarks = leaf.center;
        leaf.beta.assign(size_t(e.outputs), 0.0);
        return leaf;
    }
    leaf.m = end - begin;
    leaf.landmarks.assign(e.centers.begin() + begin * e.d, e.centers.begin() + end * e.d);
    leaf.beta.assign(e.beta.begin() + begin * e.outputs, e.beta.begin() + end * e.outputs);
    return leaf;
}

void check_expansion(const CenterExpansion &e) {
    require(e.d >= 1 && e.outputs >= 1 && e.m >= 1, "predictor_from_expansion: empty expansion");
    require(e.centers.size() == size_t(e.m * e.d) && e.beta.size() == size_t(e.m * e.outputs),
            "predictor_from_expansion: centers must be m x d and beta m x outputs");
    const int64_t c = e.clusters();
    if (c == 0) return;
    require(e.cluster_centers.size() == size_t(c * e.d), "predictor_from_expansion: cluster_centers must be c x d");
    require(e.cluster_begin.front() == 0 && e.cluster_begin.back() == e.m &&
                std::is_sorted(e.cluster_begin.begin(), e.cluster_begin.end()),
            "predictor_from_expansion: cluster_begin must rise from 0 to m");
}

// Whether machine k is the k-th binary problem of the predictor's rule (compact_predictor.h, step 5).
bool machines_in_predictor_order(const Model &model) {
    const int32_t classes = int32_t(model.classes.size());
    size_t k = 0;
    auto is = [&](int32_t positive, int32_t negative) {
        const BinaryMachine &m = model.machines[k++];
        return m.positive == positive && m.negative == negative;
    };
    if (classes == 2) return model.machines.size() == 1 && is(1, 0);
    if (model.multiclass == KMX_MULTICLASS_OVR) {
        if (model.machines.size() != size_t(classes)) return false;
        for (int32_t c = 0; c < classes; ++c)
            if (!is(c, kRestOfClasses)) return false;
        return true;
    }
    if (model.machines.size() != size_t(classes) * size_t(classes - 1) / 2) return false;
    for (int32_t i = 0; i < classes; ++i)
        for (int32_t j = i + 1; j < classes; ++j)
            if (!is(i, j)) return false;
    return true;
}

}  // namespace

std::optional<CompactPredictor> predictor_from_svm_model(const Model &model, PredictorStorage storage) {
    if (model.regression() || model.krr() || model.early() || model.sparse_points() || model.n_points < 1 ||
        model.kernel.type > KMX_KERNEL_SIGMOID || !machines_in_predictor_order(model))
        return std::nullopt;  // (precomputed and callback kernels have no blob form)
    CompactPredictor p = predictor_from_expansion(expansion_of_machines(model), PredictorTask::classification,
                                                  model.classes, model.multiclass, storage);
    p.sigmoids = sigmoid_pairs(model);
    check_compact_predictor(p);
    return p;
}

CompactPredictor predictor_from_expansion(const CenterExpansion &e, PredictorTask task,
                                          const std::vector<double> &classes, kmx_multiclass multiclass,
                                          PredictorStorage storage) {
    check_expansion(e);
    CompactPredictor p;
    p.kernel = e.kernel;
    p.kernel.gamma = e.kernel.gamma_for(e.d);
    p.d = e.d;
    p.task = task;
    p.multiclass = multiclass;
    if (task == PredictorTask::classification) p.classes = classes;
    p.outputs = e.outputs;
    p.storage = storage;
    const int64_t clusters = e.clusters();
    if (clusters == 0) {
        p.top_centers.assign(size_t(e.d), 0.0);
        p.leaves.push_back(expansion_leaf(e, 0, e.m, p.top_centers.data()));
    } else {
        p.top_centers.assign(size_t(e.d), 0.0);  // one top node: the leaves route by their own centers
        for (int64_t s = 0; s < clusters; ++s)
            p.leaves.push_back(expansion_leaf(e, e.cluster_begin[size_t(s)], e.cluster_begin[size_t(s + 1)],
                                              e.cluster_centers.data() + s * e.d));
    }
    p.top_leaf_begin = {0, int64_t(p.leaves.size())};
    for (PredictorLeaf &leaf : p.leaves) {
        round_reals(leaf.center, storage);  // first: the quantized landmarks' offset
        store_landmarks(leaf, storage);
        round_reals(leaf.beta, storage);
    }
    check_compact_predictor(p);
    return p;
}

}  // namespace kmx
