// The one-class SVM: LIBSVM's solve_one_class (see one_class.h) by the dual
// solver, and its solution as a binary Model of classes {−1, +1}.
#include "one_class.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <vector>

#include "core/context.h"
#include "core/dataset.h"
#include "core/error.h"
#include "multiclass.h"

namespace kmx {

namespace {

void check_nu(double nu) {
    if (!(nu > 0 && nu <= 1)) fail(KMX_E_INVALID_ARGUMENT, "parameter nu = %g must be in (0, 1]", nu);
}

// The rows of positive weight, at least 2.
int64_t rows_with_weight(const Dataset &data) {
    const int64_t m = rows_with_positive_weight(data);
    if (m < 2)
        fail(KMX_E_INVALID_ARGUMENT, "one_class needs at least 2 training rows (of positive weight); the data has %lld",
             (long long)m);
    return m;
}

// LIBSVM's start: α's at their bound in row order until ν Σ bounds is spent
// (with unit bounds: ⌊νm⌋ ones, then νm − ⌊νm⌋, then zeros).
void fill_variables(const Dataset &data, double nu, OneClassDual &dual) {
    int64_t k = 0;
    double total = 0;
    for (int64_t i = 0; i < data.n; ++i) {
        const double weight = data.w ? data.w[i] : 1.0;
        if (weight <= 0) continue;
        dual.rows[k] = i;
        dual.y[k] = 1.0;
        dual.upper[k] = weight;
        dual.linear[k] = 0.0;
        total += weight;
        ++k;
    }
    if (!data.w) {  // LIBSVM's arithmetic exactly: n = (int)(ν l), α_n = ν l − n
        const int64_t m = dual.rows_used, full = int64_t(nu * double(m));
        for (int64_t t = 0; t < m; ++t) dual.alpha[t] = t < full ? 1.0 : 0.0;
        if (full < m) dual.alpha[full] = nu * double(m) - double(full);
        return;
    }
    double left = nu * total;
    for (int64_t t = 0; t < dual.rows_used; ++t) {
        dual.alpha[t] = std::min(dual.upper[t], std::max(left, 0.0));
        left -= dual.alpha[t];
    }
}

// The rows with α > 0 become the model's points, in row order, with their
// coefficients α; one machine votes +1 (class index 1) when f > 0.
void collect_support_vectors(Context &ctx, const Dataset &data, const OneClassDual &dual, Model &model) {
    BinaryMachine machine;
    machine.positive = 1;
    machine.negative = 0;
    std::vector<int64_t> point_rows;
    for (int64_t k = 0; k < dual.rows_used; ++k) {
        if (dual.alpha[k] <= 0) continue;
        machine.coef.push_back(dual.alpha[k]);
        point_rows.push_back(dual.rows[k]);
    }
    store_single_machine(ctx, data, point_rows, std::move(machine), model);
}

Model untrained_one_class_model(const TrainOptions &options, const KernelSpec &kernel, const Dataset &data) {
    Model model;
    model.method = KMX_METHOD_ONE_CLASS;
    model.multiclass = KMX_MULTICLASS_OVO;  // two classes, one machine
    model.has_bias = true;                  // −ρ
    model.nu = options.nu;
    model.kernel = kernel;
    model.kernel.gamma = kernel.gamma_for(data.d);
    model.d = data.d;
    model.classes = {-1.0, 1.0};
    return model;
}

SvmOptions one_class_solver_options(const TrainOptions &options, size_t cache) {
    TrainOptions with_bias = options;
    with_bias.bias = KMX_BIAS_ON;  // ρ: Σα = νn is an equality constraint
    SvmOptions svm = svm_options(with_bias, cache);
    svm.keep_warm_start_sum = true;
    return svm;
}

}  // namespace

size_t one_class_dual_bytes(int64_t n) { return dual_arrays_bytes(size_t(n)); }

OneClassDual carve_one_class_dual(Arena &arena, const Dataset &data, double nu) {
    check_nu(nu);
    OneClassDual dual;
    dual.rows_used = rows_with_weight(data);
    carve_dual_arrays(arena, size_t(dual.rows_used), dual);
    fill_variables(data, nu, dual);
    return dual;
}

SvmProblem one_class_problem(const OneClassDual &dual, const Dataset &data, const KernelSpec &kernel) {
    return dual_problem(dual, dual.rows_used, data, kernel);
}

Model train_one_class_model(Context &ctx, const TrainOptions &options, const KernelSpec &kernel, const Dataset &data) {
    const auto start = std::chrono::steady_clock::now();
    check_nu(options.nu);
    if (!options.class_weights.empty())
        fail(KMX_E_INVALID_ARGUMENT,
             "one_class has no classes to weigh (labels are ignored): class weights do not apply");
    rows_with_weight(data);
    Model model = untrained_one_class_model(options, kernel, data);
    const int64_t variables = data.n;
    const size_t arrays = one_class_dual_bytes(data.n);
    DualWorkspace w = reserve_dual_workspace(ctx, options, "one_class", arrays, variables, SvmRows(data, kernel));
    OneClassDual dual = carve_one_class_dual(w.arena, data, options.nu);
    const SvmSolution solution = solve_svm_dual(ctx, w.arena, one_class_problem(dual, data, model.kernel),
                                                one_class_solver_options(options, w.cache), dual.alpha);
    collect_support_vectors(ctx, data, dual, model);
    finish_single_machine(ctx, w.arena, solution, start, model);
    return model;
}

}  // namespace kmx
