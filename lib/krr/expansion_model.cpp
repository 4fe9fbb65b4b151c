// expansion_model.cpp — CenterExpansion → Model (see expansion_model.h).
#include "expansion_model.h"

#include "core/error.h"

namespace kmx {

namespace {

void require_consistent(const CenterExpansion &e, const KrrTargets &targets) {
    const bool centers_fit = e.sparse_centers.sparse() ? int64_t(e.sparse_centers.row_ptr.size()) == e.m + 1
                                                       : int64_t(e.centers.size()) == e.m * e.d;
    if (e.outputs != targets.outputs || e.m < 1 || e.d < 1 || !centers_fit || int64_t(e.beta.size()) != e.m * e.outputs)
        fail(KMX_E_INTERNAL, "a kernel expansion's shape does not match its targets");
    if (e.clusters() > 0 && (e.cluster_begin.front() != 0 || e.cluster_begin.back() != e.m ||
                             int64_t(e.cluster_centers.size()) != e.clusters() * e.d))
        fail(KMX_E_INTERNAL, "a kernel expansion's clusters do not cover its centers");
}

// Output column k as a machine over every center.
BinaryMachine output_machine(const CenterExpansion &e, const KrrTargets &targets, int64_t k) {
    BinaryMachine machine;
    if (targets.task == KrrTask::regression) {
        machine.positive = 0;
        machine.negative = kRestOfClasses;
    } else if (targets.outputs == 1) {
        machine.positive = 1;  // the larger label, as for two-class SVMs
        machine.negative = 0;
    } else {
        machine.positive = int32_t(k);
        machine.negative = kRestOfClasses;
    }
    machine.sv.resize(size_t(e.m));
    machine.coef.resize(size_t(e.m));
    for (int64_t j = 0; j < e.m; ++j) {
        machine.sv[size_t(j)] = j;
        machine.coef[size_t(j)] = e.beta[size_t(j * e.outputs + k)];
    }
    machine.local.cluster_begin = e.cluster_begin;
    return machine;
}

}  // namespace

Model model_from_expansion(const CenterExpansion &expansion, const KrrTargets &targets, kmx_method method,
                           double lambda) {
    require_consistent(expansion, targets);
    Model model;
    model.method = method;
    model.multiclass = KMX_MULTICLASS_OVR;
    model.lambda = lambda;
    model.kernel = expansion.kernel;
    model.d = expansion.d;
    model.classes = targets.classes;
    model.support_vectors = model.n_points = expansion.m;
    if (expansion.sparse_centers.sparse()) {
        model.points = expansion.sparse_centers.values;
        model.point_row_ptr = expansion.sparse_centers.row_ptr;
        model.point_col = expansion.sparse_centers.col;
    } else {
        model.points = expansion.centers;
    }
    if (expansion.clusters() > 0) {
        model.routes = expansion.clusters();
        model.route_centers = expansion.cluster_centers;
    }
    for (int64_t k = 0; k < expansion.outputs; ++k) model.machines.push_back(output_machine(expansion, targets, k));
    return model;
}

CenterExpansion expansion_from_model(const Model &model) {
    if (!model.krr() && !model.svr() && !model.one_class())
        fail(KMX_E_INVALID_ARGUMENT,
             "the model is an SVM classifier, not a kernel ridge regression, an SVR or a one-class SVM");
    return expansion_of_machines(model);
}

}  // namespace kmx
