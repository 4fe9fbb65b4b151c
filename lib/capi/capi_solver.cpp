// kmx_solver: a training method and its parameters; kmx_solver_train.
#include <cmath>

#include "core/params.h"
#include "firewall.h"
#include "handles.h"
#include "train/cross_validation.h"
#include "train/train.h"

namespace kmx::capi {

namespace {

void apply(TrainOptions &o, kmx_param param, double value) {
    switch (param) {
        case KMX_PARAM_METHOD:
            o.method = kmx_method(int(value));
            break;
        case KMX_PARAM_C:
            o.C = value;
            break;
        case KMX_PARAM_EPS:
            o.eps = value;
            break;
        case KMX_PARAM_BIAS:
            o.bias = kmx_bias(int(value));
            break;
        case KMX_PARAM_SHRINKING:
            o.shrinking = value != 0;
            break;
        case KMX_PARAM_CACHE_SIZE:
            o.cache_bytes = size_t(value);
            break;
        case KMX_PARAM_MULTICLASS:
            o.multiclass = kmx_multiclass(int(value));
            break;
        case KMX_PARAM_LEVELS:
            o.levels = int(value);
            break;
        case KMX_PARAM_CLUSTERS_PER_LEVEL:
            o.clusters_per_level = int(value);
            break;
        case KMX_PARAM_EARLY_LEVEL:
            o.early_level = int(value);
            break;
        case KMX_PARAM_SAMPLE_SIZE:
            o.sample_size = int64_t(value);
            break;
        case KMX_PARAM_TASK:
            o.task = kmx_task(int(value));
            break;
        case KMX_PARAM_LAMBDA:
            o.lambda = value;
            break;
        case KMX_PARAM_CENTERS:
            o.centers = int64_t(value);
            break;
        case KMX_PARAM_CENTER_METHOD:
            o.center_method = kmx_center_method(int(value));
            break;
        case KMX_PARAM_ITERATIONS:
            o.iterations = int(value);
            break;
        case KMX_PARAM_TOLERANCE:
            o.tolerance = value;
            break;
        case KMX_PARAM_VALIDATION:
            o.validation = value;
            break;
        case KMX_PARAM_KERNEL_PRECISION:
            o.kernel_float32 = value == KMX_PRECISION_FLOAT32;
            break;
        case KMX_PARAM_REPRODUCIBLE:
            o.reproducible = value != 0;
            break;
        case KMX_PARAM_RANK:
            o.rank = int64_t(value);
            break;
        case KMX_PARAM_CLUSTERS:
            o.clusters = int64_t(value);
            break;
        case KMX_PARAM_THRESHOLD:
            o.threshold = value;
            break;
        case KMX_PARAM_OVERSAMPLING:
            o.oversampling = value;
            break;
        case KMX_PARAM_RANK_BY_SIZE:
            o.rank_by_size = value != 0;
            break;
        case KMX_PARAM_LOSS:
            o.loss = kmx_loss(int(value));
            break;
        case KMX_PARAM_STAGES:
            o.stages = int(value);
            break;
        case KMX_PARAM_NEWTON_ITERATIONS:
            o.newton_iterations = int(value);
            break;
        case KMX_PARAM_PRECONDITION:
            o.precondition = value != 0;
            break;
        case KMX_PARAM_EPSILON_SVR:
            o.epsilon_svr = value;
            break;
        case KMX_PARAM_SVR_DCSVM:
            o.svr_dcsvm = value != 0;
            break;
        case KMX_PARAM_LIBSVM_FOLDS:
            o.libsvm_folds = value != 0;
            break;
        case KMX_PARAM_NU:
            o.nu = value;
            break;
        case KMX_PARAM_PROBABILITY:
            o.probability = value != 0;
            break;
        default:
            fail(KMX_E_INTERNAL, "solver parameter %d has no field", int(param));
    }
}

double value_of(const TrainOptions &o, kmx_param param) {
    switch (param) {
        case KMX_PARAM_METHOD:
            return o.method;
        case KMX_PARAM_C:
            return o.C;
        case KMX_PARAM_EPS:
            return o.eps;
        case KMX_PARAM_BIAS:
            return o.bias;
        case KMX_PARAM_SHRINKING:
            return o.shrinking ? 1 : 0;
        case KMX_PARAM_CACHE_SIZE:
            return double(o.cache_bytes);
        case KMX_PARAM_MULTICLASS:
            return o.multiclass;
        case KMX_PARAM_LEVELS:
            return o.levels;
        case KMX_PARAM_CLUSTERS_PER_LEVEL:
            return o.clusters_per_level;
        case KMX_PARAM_EARLY_LEVEL:
            return o.early_level;
        case KMX_PARAM_SAMPLE_SIZE:
            return double(o.sample_size);
        case KMX_PARAM_TASK:
            return o.task;
        case KMX_PARAM_LAMBDA:
            return o.lambda;
        case KMX_PARAM_CENTERS:
            return double(o.centers);
        case KMX_PARAM_CENTER_METHOD:
            return o.center_method;
        case KMX_PARAM_ITERATIONS:
            return o.iterations;
        case KMX_PARAM_TOLERANCE:
            return o.tolerance;
        case KMX_PARAM_VALIDATION:
            return o.validation;
        case KMX_PARAM_KERNEL_PRECISION:
            return o.kernel_float32 ? KMX_PRECISION_FLOAT32 : KMX_PRECISION_FLOAT64;
        case KMX_PARAM_REPRODUCIBLE:
            return o.reproducible ? 1 : 0;
        case KMX_PARAM_RANK:
            return double(o.rank);
        case KMX_PARAM_CLUSTERS:
            return double(o.clusters);
        case KMX_PARAM_THRESHOLD:
            return o.threshold;
        case KMX_PARAM_OVERSAMPLING:
            return o.oversampling;
        case KMX_PARAM_RANK_BY_SIZE:
            return o.rank_by_size ? 1 : 0;
        case KMX_PARAM_LOSS:
            return o.loss;
        case KMX_PARAM_STAGES:
            return o.stages;
        case KMX_PARAM_NEWTON_ITERATIONS:
            return o.newton_iterations;
        case KMX_PARAM_PRECONDITION:
            return o.precondition ? 1 : 0;
        case KMX_PARAM_EPSILON_SVR:
            return o.epsilon_svr;
        case KMX_PARAM_SVR_DCSVM:
            return o.svr_dcsvm ? 1 : 0;
        case KMX_PARAM_LIBSVM_FOLDS:
            return o.libsvm_folds ? 1 : 0;
        case KMX_PARAM_NU:
            return o.nu;
        case KMX_PARAM_PROBABILITY:
            return o.probability ? 1 : 0;
        default:
            fail(KMX_E_INTERNAL, "solver parameter %d has no field", int(param));
    }
}

// Options at the parameter table's defaults: the table is the one source.
TrainOptions default_options() {
    TrainOptions o;
    for (int i = 0; i < param_count(); ++i)
        if (kSolverParams.has(param_at(i).id)) apply(o, param_at(i).id, param_at(i).default_value);
    return o;
}

void apply_string(TrainOptions &o, const char *params) {
    const ParamList list = kmx::ParamList(params, kmx::kSolverParams);
    for (int i = 0; i < list.size(); ++i) apply(o, list[i].spec->id, list[i].value);
}

TrainOptions &mutable_options(kmx_solver *solver) {
    require_pointer(solver, "solver");
    return solver->options;
}
}  // namespace

}  // namespace kmx::capi

using namespace kmx::capi;

extern "C" {

KMX_API kmx_status kmx_solver_create(kmx_solver **out, kmx_method method) {
    return KMX_GUARDED({
        require_pointer(out, "out");
        *out = nullptr;
        kmx::check_param(*kmx::find_param(KMX_PARAM_METHOD), double(method));
        kmx_solver *solver = new kmx_solver{default_options()};
        solver->options.method = method;
        *out = solver;
    });
}

KMX_API kmx_status kmx_solver_create_from_string(kmx_solver **out, const char *params) {
    return KMX_GUARDED({
        require_pointer(out, "out");
        *out = nullptr;
        kmx::TrainOptions options = default_options();
        apply_string(options, params);
        *out = new kmx_solver{options};
    });
}

KMX_API void kmx_solver_free(kmx_solver *solver) { delete solver; }

KMX_API kmx_status kmx_solver_set_param(kmx_solver *solver, kmx_param param, double value) {
    return KMX_GUARDED({
        kmx::TrainOptions &options = mutable_options(solver);
        kmx::kSolverParams.check(param, value);
        apply(options, param, value);
    });
}

KMX_API kmx_status kmx_solver_get_param(double *out, const kmx_solver *solver, kmx_param param) {
    return KMX_GUARDED({
        require_pointer(out, "out");
        require_pointer(solver, "solver");
        kmx::kSolverParams.require_member(param);
        *out = value_of(solver->options, param);
    });
}

KMX_API kmx_status kmx_solver_set_params(kmx_solver *solver, const char *params) {
    return KMX_GUARDED({
        kmx::TrainOptions &options = mutable_options(solver);
        kmx::TrainOptions updated = options;
        apply_string(updated, params);
        options = updated;
    });
}

KMX_API kmx_status kmx_solver_set_class_weight(kmx_solver *solver, double label, double weight) {
    return KMX_GUARDED({
        kmx::TrainOptions &options = mutable_options(solver);
        if (!std::isfinite(label)) kmx::fail(KMX_E_INVALID_ARGUMENT, "label %g is not finite", label);
        if (!(weight > 0) || !std::isfinite(weight))
            kmx::fail(KMX_E_INVALID_ARGUMENT, "class weight %g for label %g must be positive and finite", weight,
                      label);
        options.class_weights.emplace_back(label, weight);
    });
}

KMX_API kmx_status kmx_solver_train(kmx_model **out, kmx_context *ctx, const kmx_solver *solver,
                                    const kmx_kernel *kernel, const kmx_dataset *data) {
    return KMX_GUARDED({
        require_pointer(out, "out");
        *out = nullptr;
        require_pointer(solver, "solver");
        const kmx::KernelSpec &spec = kernel_of(kernel, "kernel");
        const kmx::Dataset &ds = dataset_of(data, "data");
        CallContext call(ctx);
        kmx_model *model = new kmx_model{kmx::train(*call, solver->options, spec, ds)};
        *out = model;
    });
}

KMX_API kmx_status kmx_solver_cross_validate(double *out, int64_t out_len, kmx_task *out_task, kmx_context *ctx,
                                             const kmx_solver *solver, const kmx_kernel *kernel,
                                             const kmx_dataset *data, int64_t folds) {
    return KMX_GUARDED({
        require_pointer(solver, "solver");
        const kmx::KernelSpec &spec = kernel_of(kernel, "kernel");
        const kmx::Dataset &ds = dataset_of(data, "data");
        require_pointer(out, "out");
        require_length(out_len, ds.n, "out");
        CallContext call(ctx);
        const kmx_task task = kmx::cross_validate(*call, solver->options, spec, ds, folds, out);
        if (out_task) *out_task = task;
    });
}

KMX_API kmx_status kmx_solver_cross_validate_path(double *out, int64_t out_len, kmx_task *out_task, kmx_context *ctx,
                                                  const kmx_solver *solver, const kmx_kernel *kernel,
                                                  const kmx_dataset *data, int64_t folds, kmx_param param,
                                                  const double *v, int64_t v_len) {
    return KMX_GUARDED({
        require_pointer(out, "out");
        require_pointer(solver, "solver");
        require_pointer(v, "v");
        if (v_len < 1)
            kmx::fail(KMX_E_INVALID_ARGUMENT, "v_len = %lld: the path needs at least one value", (long long)v_len);
        const kmx::KernelSpec &spec = kernel_of(kernel, "kernel");
        const kmx::Dataset &ds = dataset_of(data, "data");
        require_length(out_len, checked_product(v_len, ds.n, "v_len * rows"), "out");
        CallContext call(ctx);
        const kmx::ValuePath path{param, std::vector<double>(v, v + v_len)};
        const kmx_task task = kmx::cross_validate_path(*call, solver->options, spec, ds, folds, path, out);
        if (out_task) *out_task = task;
    });
}

}  // extern "C"
