#include "dual_arrays.h"

#include "core/bytes_text.h"
#include "core/context.h"
#include "core/dataset.h"
#include "core/error.h"
#include "multiclass.h"

namespace kmx {

namespace {
WorkspacePlan dual_arrays_plan(size_t variables) {
    WorkspacePlan plan;
    plan.add<int64_t>(variables).add<double>(variables).add<double>(variables).add<double>(variables).add<double>(
        variables);
    return plan;
}
}  // namespace

size_t dual_arrays_bytes(size_t variables) { return dual_arrays_plan(variables).bytes(); }

void carve_dual_arrays(Arena &arena, size_t variables, DualArrays &arrays) {
    arrays.rows = arena.alloc<int64_t>(variables);
    arrays.y = arena.alloc<double>(variables);
    arrays.upper = arena.alloc<double>(variables);
    arrays.linear = arena.alloc<double>(variables);
    arrays.alpha = arena.alloc<double>(variables);
}

SvmProblem dual_problem(const DualArrays &arrays, int64_t variables, const Dataset &data, const KernelSpec &kernel) {
    SvmProblem problem;
    problem.data = &data;
    problem.rows = arrays.rows;
    problem.n = variables;
    problem.y = arrays.y;
    problem.upper = arrays.upper;
    problem.linear = arrays.linear;
    problem.kernel = kernel;
    return problem;
}

int64_t rows_with_positive_weight(const Dataset &data) {
    int64_t m = 0;
    for (int64_t i = 0; i < data.n; ++i) m += !data.w || data.w[i] > 0;
    return m;
}

DualWorkspace reserve_dual_workspace(Context &ctx, const TrainOptions &options, const char *method, size_t arrays,
                                     int64_t variables, const SvmRows &rows) {
    const size_t needed = arrays + smallest_solver_bytes(variables, rows);
    if (needed > ctx.left_bytes())
        fail(KMX_E_OUT_OF_MEMORY,
             "%s needs at least %s (%lld variables with a two-column kernel cache) but the memory budget leaves %s",
             method, bytes_text(double(needed)).text, (long long)variables, bytes_text(double(ctx.left_bytes())).text);
    DualWorkspace w;
    w.cache = svm_cache_bytes(ctx, options, variables, rows, arrays);
    w.arena = ctx.reserve(arrays + svm_dual_workspace_bytes(variables, rows, w.cache), "training workspace");
    return w;
}

void finish_single_machine(Context &ctx, Arena &arena, const SvmSolution &solution,
                           std::chrono::steady_clock::time_point start, Model &model) {
    model.stats.objective = solution.objective;
    model.stats.kkt_violation = solution.kkt_violation;
    model.stats.iterations = solution.iterations;
    model.machines[0].bias = solution.bias;
    ctx.release(arena);
    model.stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ctx.progress(1.0, "done");
}

void store_single_machine(Context &ctx, const Dataset &data, const std::vector<int64_t> &point_rows,
                          BinaryMachine machine, Model &model) {
    machine.sv.resize(point_rows.size());
    for (size_t j = 0; j < point_rows.size(); ++j) machine.sv[j] = int64_t(j);
    model.support_vectors = int64_t(point_rows.size());
    store_points(ctx, data, point_rows, model);
    model.machines.push_back(std::move(machine));
}

}  // namespace kmx
