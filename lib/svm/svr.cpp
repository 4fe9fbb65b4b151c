// ε-SVR: the 2n-variable dual (see svr.h) solved by the dual solver, and
// its solution as a regression Model.
#include "svr.h"

#include <chrono>
#include <cmath>
#include <vector>

#include "core/context.h"
#include "core/dataset.h"
#include "core/error.h"
#include "dcsvm.h"
#include "multiclass.h"

namespace kmx {

namespace {

void check_epsilon(double epsilon) {
    if (!(epsilon >= 0) || !std::isfinite(epsilon))
        fail(KMX_E_INVALID_ARGUMENT, "parameter epsilon_svr = %g must be finite and >= 0", epsilon);
}

// Row k of the m used: variable k is α (y = +1, p = ε − z), variable k + m
// is α* (y = −1, p = ε + z), both bounded by C × the row's weight.
void fill_variables(const Dataset &data, double C, double epsilon, SvrDual &dual) {
    const int64_t m = dual.rows_used;
    int64_t k = 0;
    for (int64_t i = 0; i < data.n; ++i) {
        const double weight = data.w ? data.w[i] : 1.0;
        if (weight <= 0) continue;
        for (const int64_t v : {k, k + m}) {
            dual.rows[v] = i;
            dual.upper[v] = C * weight;
            dual.alpha[v] = 0;
        }
        dual.y[k] = 1.0;
        dual.y[k + m] = -1.0;
        dual.linear[k] = epsilon - data.y[i];
        dual.linear[k + m] = epsilon + data.y[i];
        ++k;
    }
}

// The rows with α ≠ α* become the model's points, in row order, with their
// coefficients α − α*; the one machine predicts the value.
void collect_support_vectors(Context &ctx, const Dataset &data, const SvrDual &dual, Model &model) {
    BinaryMachine machine;
    machine.positive = 0;
    machine.negative = kRestOfClasses;
    std::vector<int64_t> point_rows;
    for (int64_t k = 0; k < dual.rows_used; ++k) {
        const double coef = dual.coefficient(k);
        if (coef == 0) continue;
        machine.coef.push_back(coef);
        point_rows.push_back(dual.rows[k]);
    }
    store_single_machine(ctx, data, point_rows, std::move(machine), model);
}

Model untrained_svr_model(const TrainOptions &options, const KernelSpec &kernel, const Dataset &data) {
    Model model;
    model.method = KMX_METHOD_SVR;
    model.multiclass = KMX_MULTICLASS_OVR;
    model.has_bias = options.uses_bias();
    model.C = options.C;
    model.kernel = kernel;
    model.kernel.gamma = kernel.gamma_for(data.d);
    model.d = data.d;
    return model;
}

}  // namespace

size_t svr_dual_bytes(int64_t n) { return dual_arrays_bytes(2 * size_t(n)); }

SvrDual carve_svr_dual(Arena &arena, const Dataset &data, double C, double epsilon) {
    check_cost(C);
    check_epsilon(epsilon);
    if (!data.y) fail(KMX_E_INVALID_ARGUMENT, "the training data has no labels");
    SvrDual dual;
    dual.rows_used = rows_with_positive_weight(data);
    if (dual.rows_used == 0) fail(KMX_E_INVALID_ARGUMENT, "no training row has a positive weight");
    carve_dual_arrays(arena, size_t(dual.variables()), dual);
    fill_variables(data, C, epsilon, dual);
    return dual;
}

SvmProblem svr_problem(const SvrDual &dual, const Dataset &data, const KernelSpec &kernel) {
    return dual_problem(dual, dual.variables(), data, kernel);
}

namespace {

// DC-SVM on the dual (dcsvm.h: a row's α and α* in one cluster): its
// levels warm-start the global solve, or it solves directly when dividing
// would not pay. Its memory is checked by train_dcsvm.
Model train_svr_dcsvm(Context &ctx, const TrainOptions &options, Model model, const Dataset &data,
                      std::chrono::steady_clock::time_point start) {
    Arena arena = ctx.reserve(svr_dual_bytes(data.n), "svr arrays");
    SvrDual dual = carve_svr_dual(arena, data, options.C, options.epsilon_svr);
    const DcsvmResult result =
        train_dcsvm(ctx, svr_problem(dual, data, model.kernel), dcsvm_options(options), dual.alpha);
    collect_support_vectors(ctx, data, dual, model);
    finish_single_machine(ctx, arena, result.solution, start, model);
    return model;
}

}  // namespace

Model train_svr_model(Context &ctx, const TrainOptions &options, const KernelSpec &kernel, const Dataset &data) {
    const auto start = std::chrono::steady_clock::now();
    Model model = untrained_svr_model(options, kernel, data);
    if (options.svr_dcsvm && kernel.type != KMX_KERNEL_PRECOMPUTED && kernel.type != KMX_KERNEL_CALLBACK)
        return train_svr_dcsvm(ctx, options, std::move(model), data, start);
    const int64_t variables = 2 * data.n;
    const size_t arrays = svr_dual_bytes(data.n);
    DualWorkspace w = reserve_dual_workspace(ctx, options, "svr", arrays, variables, SvmRows(data, kernel));
    SvrDual dual = carve_svr_dual(w.arena, data, options.C, options.epsilon_svr);
    const SvmSolution solution =
        solve_svm_dual(ctx, w.arena, svr_problem(dual, data, model.kernel), svm_options(options, w.cache), dual.alpha);
    collect_support_vectors(ctx, data, dual, model);
    finish_single_machine(ctx, w.arena, solution, start, model);
    return model;
}

}  // namespace kmx
