// Multiclass training: split a dataset into binary problems (one-vs-one in
// LIBSVM's order 0v1, 0v2, …, 1v2, …, or one-vs-rest), solve each with the
// dual solver (method svm) or DC-SVM (dcsvm, dcsvm_early, bka), and gather
// the machines into one Model whose support vectors are stored once.
#include "multiclass.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "core/bytes_text.h"
#include "core/context.h"
#include "core/dataset.h"
#include "core/error.h"
#include "core/step_context.h"
#include "dcsvm.h"
#include "kernel_row_store.h"
#include "probability_training.h"
#include "svm_dual.h"

namespace kmx {

namespace {

// One binary problem: `positive` against `negative` (a class or the rest).
struct BinaryTask {
    int32_t positive;
    int32_t negative;
};

// The per-row arrays of the largest binary problem, reused by every problem.
struct ProblemArrays {
    int64_t *rows;
    double *y;
    double *upper;
    double *alpha;
};

std::vector<double> distinct_classes(const Dataset &data) {
    std::vector<double> classes(data.y, data.y + data.n);
    std::sort(classes.begin(), classes.end());
    classes.erase(std::unique(classes.begin(), classes.end()), classes.end());
    if (classes.size() < 2)
        fail(KMX_E_INVALID_ARGUMENT, "one class only: every training label is %g; a classifier needs at least two",
             classes.empty() ? 0.0 : classes[0]);
    if (classes.size() > size_t(INT32_MAX)) fail(KMX_E_INVALID_ARGUMENT, "too many classes (%zu)", classes.size());
    return classes;
}

std::vector<int32_t> class_indices(const Dataset &data, const std::vector<double> &classes) {
    std::vector<int32_t> index(size_t(data.n));
    for (int64_t i = 0; i < data.n; ++i)
        index[size_t(i)] = int32_t(std::lower_bound(classes.begin(), classes.end(), data.y[i]) - classes.begin());
    return index;
}

std::vector<BinaryTask> binary_tasks(int32_t classes, kmx_multiclass mode) {
    std::vector<BinaryTask> tasks;
    if (classes == 2) {
        tasks.push_back({1, 0});  // one machine; the larger label is positive
    } else if (mode == KMX_MULTICLASS_OVR) {
        for (int32_t c = 0; c < classes; ++c) tasks.push_back({c, kRestOfClasses});
    } else {
        for (int32_t i = 0; i < classes; ++i)
            for (int32_t j = i + 1; j < classes; ++j) tasks.push_back({i, j});
    }
    return tasks;
}

bool in_task(const BinaryTask &task, int32_t cls) {
    return task.negative == kRestOfClasses || cls == task.positive || cls == task.negative;
}

// Fills the task's rows, labels and bounds; returns its row count. Rows of
// zero sample weight take no part.
int64_t fill_problem(const BinaryTask &task, const Dataset &data, const std::vector<int32_t> &cls,
                     const std::vector<double> &classes, const TrainOptions &options, ProblemArrays &a) {
    int64_t n = 0;
    for (int64_t i = 0; i < data.n; ++i) {
        const double sample_weight = data.w ? data.w[i] : 1.0;
        if (!in_task(task, cls[size_t(i)]) || sample_weight <= 0) continue;
        a.rows[n] = i;
        a.y[n] = cls[size_t(i)] == task.positive ? 1.0 : -1.0;
        a.upper[n] = options.C * options.class_weight(classes[size_t(cls[size_t(i)])]) * sample_weight;
        a.alpha[n] = 0;
        ++n;
    }
    return n;
}

int64_t largest_problem(const std::vector<BinaryTask> &tasks, const std::vector<int32_t> &cls, size_t classes) {
    std::vector<int64_t> count(classes, 0);
    for (int32_t c : cls) ++count[size_t(c)];
    int64_t largest = 0;
    for (const BinaryTask &task : tasks)
        largest = std::max(largest, task.negative == kRestOfClasses
                                        ? int64_t(cls.size())
                                        : count[size_t(task.positive)] + count[size_t(task.negative)]);
    return largest;
}

// A solved machine, its support vectors still named by dataset row.
struct SolvedMachine {
    BinaryMachine machine;
    SvmSolution solution;
};

// Coefficients y_i α_i of the rows with α_i > 0, grouped by cluster when the
// machine predicts through a partition.
void collect_coefficients(const ProblemArrays &a, int64_t n, const DcsvmResult *dc, BinaryMachine &machine) {
    std::vector<int64_t> order;
    for (int64_t i = 0; i < n; ++i)
        if (a.alpha[i] > 0) order.push_back(i);
    const bool local = dc && dc->partition.k > 0;
    if (local) {
        std::stable_sort(order.begin(), order.end(),
                         [&](int64_t p, int64_t q) { return dc->cluster_of[size_t(p)] < dc->cluster_of[size_t(q)]; });
        machine.local.partition = dc->partition;
        machine.local.cluster_begin.assign(size_t(dc->partition.k) + 1, 0);
        for (int64_t i : order) ++machine.local.cluster_begin[size_t(dc->cluster_of[size_t(i)]) + 1];
        for (size_t c = 1; c < machine.local.cluster_begin.size(); ++c)
            machine.local.cluster_begin[c] += machine.local.cluster_begin[c - 1];
        if (std::any_of(dc->cluster_bias.begin(), dc->cluster_bias.end(), [](double b) { return b != 0; }))
            machine.local.cluster_bias = dc->cluster_bias;
    }
    for (int64_t i : order) {
        machine.sv.push_back(a.rows[i]);
        machine.coef.push_back(a.y[i] * a.alpha[i]);
    }
}

SolvedMachine solve_task(Context &child, Arena &arena, const TrainOptions &options, const SvmProblem &problem,
                         ProblemArrays &a, size_t svm_cache, bool warm_started) {
    SolvedMachine solved;
    if (options.method == KMX_METHOD_SVM || warm_started) {
        ArenaScope scope(arena);
        solved.solution = solve_svm_dual(child, arena, problem, svm_options(options, svm_cache), a.alpha);
        collect_coefficients(a, problem.n, nullptr, solved.machine);
    } else {
        const DcsvmResult result = train_dcsvm(child, problem, dcsvm_options(options), a.alpha);
        solved.solution = result.solution;
        collect_coefficients(a, problem.n, &result, solved.machine);
    }
    solved.machine.bias = solved.solution.bias;
    return solved;
}

// Gives each distinct dataset row a point index: support vectors first, then
// partition sample points that are not support vectors.
void gather_points(Context &ctx, const Dataset &data, std::vector<SolvedMachine> &solved, Model &model) {
    ctx.check_budget(size_t(data.n) * sizeof(int64_t), "the support-vector index");
    std::vector<int64_t> point_of(size_t(data.n), -1);
    std::vector<int64_t> point_rows;
    auto point = [&](int64_t row) {
        int64_t &p = point_of[size_t(row)];
        if (p < 0) {
            p = int64_t(point_rows.size());
            point_rows.push_back(row);
        }
        return p;
    };
    for (SolvedMachine &s : solved)
        for (int64_t &row : s.machine.sv) row = point(row);
    model.support_vectors = int64_t(point_rows.size());
    for (SolvedMachine &s : solved)
        for (int64_t &row : s.machine.local.partition.sample_rows) row = point(row);
    store_points(ctx, data, point_rows, model);
}

void add_stats(TrainStats &stats, const SvmSolution &solution) {
    stats.objective += solution.objective;
    stats.kkt_violation = std::max(stats.kkt_violation, solution.kkt_violation);
    stats.iterations += solution.iterations;
}

void check_options(const TrainOptions &options) {
    check_cost(options.C);
    if (options.method == KMX_METHOD_DCSVM_EARLY && options.early_level > options.levels)
        fail(KMX_E_INVALID_ARGUMENT, "parameter early_level = %d exceeds levels = %d", options.early_level,
             options.levels);
}

// A model with everything but its machines and points: method, kernel
// (gamma resolved), columns, classes.
Model untrained_model(const TrainOptions &options, const KernelSpec &kernel, const Dataset &data) {
    check_options(options);
    if (!data.y) fail(KMX_E_INVALID_ARGUMENT, "the training data has no labels");
    Model model;
    model.method = options.method;
    model.multiclass = options.multiclass;
    model.has_bias = options.uses_bias();
    model.C = options.C;
    model.kernel = kernel;
    model.kernel.gamma = kernel.gamma_for(data.d);
    model.d = data.d;
    model.classes = distinct_classes(data);
    return model;
}

// What training reserves up front: the per-row arrays of the largest binary
// problem and, for method svm, the solver's workspace (DC-SVM reserves its
// own, within what is left).
struct Workspace {
    int64_t n_max;
    size_t bytes;
    size_t svm_cache;
};

WorkspacePlan problem_arrays_plan(int64_t n) {
    WorkspacePlan plan;
    plan.add<int64_t>(size_t(n)).add<double>(size_t(n)).add<double>(size_t(n)).add<double>(size_t(n));
    return plan;
}

ProblemArrays carve_problem_arrays(Arena &arena, int64_t n) {
    return {arena.alloc<int64_t>(size_t(n)), arena.alloc<double>(size_t(n)), arena.alloc<double>(size_t(n)),
            arena.alloc<double>(size_t(n))};
}

// Fails with KMX_E_OUT_OF_MEMORY before any work if even the smallest solver
// workspace cannot fit the budget.
// dual_solver: every problem is solved by the dual solver in this workspace
// (method svm, or warm starts); else DC-SVM reserves its own.
Workspace plan_workspace(const Context &ctx, const TrainOptions &options, int64_t n_max, const SvmRows &d,
                         bool dual_solver) {
    WorkspacePlan plan = problem_arrays_plan(n_max);
    const size_t smallest = plan.bytes() + smallest_solver_bytes(n_max, d);
    if (smallest > ctx.left_bytes())
        fail(KMX_E_OUT_OF_MEMORY,
             "training needs at least %s (a problem of %lld rows with a two-column kernel cache) but the "
             "memory budget leaves %s (memory_budget = %s, %s held by the data and this call)",
             bytes_text(double(smallest)).text, (long long)n_max, bytes_text(double(ctx.left_bytes())).text,
             bytes_text(double(ctx.memory_budget)).text, bytes_text(double(ctx.reserved_bytes())).text);
    Workspace w{n_max, 0, 0};
    if (dual_solver) {
        w.svm_cache = svm_cache_bytes(ctx, options, n_max, d, plan.bytes());
        plan.add_bytes(svm_dual_workspace_bytes(n_max, d, w.svm_cache));
    }
    w.bytes = plan.bytes();
    return w;
}

// Every binary problem, one after another in the workspace; the workspace and
// the steps' memory go back to the budget before the model takes its share.
// Starts problem t from warm's α when it has one of n values; true if it did.
bool start_warm(const SvmWarmStart *warm, size_t t, int64_t n, double *alpha) {
    if (!warm || t >= warm->alpha.size() || int64_t(warm->alpha[t].size()) != n) return false;
    std::copy(warm->alpha[t].begin(), warm->alpha[t].end(), alpha);
    return true;
}

void keep_warm(SvmWarmStart *warm, size_t t, int64_t n, const double *alpha) {
    if (!warm) return;
    if (warm->alpha.size() <= t) warm->alpha.resize(t + 1);
    warm->alpha[t].assign(alpha, alpha + n);
}

std::vector<SolvedMachine> solve_tasks(Context &ctx, const TrainOptions &options, const Dataset &data,
                                       const std::vector<int32_t> &cls, Model &model, SvmWarmStart *warm) {
    const std::vector<BinaryTask> tasks = binary_tasks(int32_t(model.classes.size()), options.multiclass);
    const bool dual_solver = options.method == KMX_METHOD_SVM || (warm && !warm->alpha.empty());
    const Workspace workspace = plan_workspace(ctx, options, largest_problem(tasks, cls, model.classes.size()),
                                               SvmRows(data, model.kernel), dual_solver);
    Arena arena = ctx.reserve(workspace.bytes, "training workspace");
    ProblemArrays a = carve_problem_arrays(arena, workspace.n_max);

    std::vector<SolvedMachine> solved;
    size_t step_peak = 0;
    for (size_t t = 0; t < tasks.size(); ++t) {
        StepContext step(ctx, int64_t(t), int64_t(tasks.size()));
        SvmProblem problem;
        problem.data = &data;
        problem.rows = a.rows;
        problem.n = fill_problem(tasks[t], data, cls, model.classes, options, a);
        problem.y = a.y;
        problem.upper = a.upper;
        problem.kernel = model.kernel;
        problem.shared_rows = warm ? warm->shared_rows.get() : nullptr;
        const bool warm_started = start_warm(warm, t, problem.n, a.alpha);
        solved.push_back(solve_task(*step, arena, options, problem, a, workspace.svm_cache, warm_started));
        keep_warm(warm, t, problem.n, a.alpha);
        solved.back().machine.positive = tasks[t].positive;
        solved.back().machine.negative = tasks[t].negative;
        add_stats(model.stats, solved.back().solution);
        step_peak = std::max(step_peak, step->peak_bytes());
    }
    ctx.check_budget(step_peak, "binary problems");
    ctx.release(step_peak);
    ctx.release(arena);
    return solved;
}

// A task's rows, labels and cost multipliers C_i / C, as fill_problem makes them.
BinaryRows task_rows(Context &ctx, const BinaryTask &task, const Dataset &data, const std::vector<int32_t> &cls,
                     const std::vector<double> &classes, const TrainOptions &options) {
    ctx.check_budget(size_t(data.n) * 4 * sizeof(double), "a binary problem's rows");
    BinaryRows b;
    b.rows.resize(size_t(data.n));
    b.y.resize(size_t(data.n));
    b.weight.resize(size_t(data.n));
    std::vector<double> alpha(size_t(data.n));
    ProblemArrays a{b.rows.data(), b.y.data(), b.weight.data(), alpha.data()};
    const size_t n = size_t(fill_problem(task, data, cls, classes, options, a));
    b.rows.resize(n);
    b.y.resize(n);
    b.weight.resize(n);
    for (double &w : b.weight) w /= options.C;
    return b;
}

// Platt's sigmoid of every machine, each from its own cross-validation
// (random sub-stream = the machine's index), before the machines are trained.
std::vector<PlattSigmoid> fit_sigmoids(Context &ctx, const TrainOptions &options, const Dataset &data,
                                       const std::vector<int32_t> &cls, const Model &model) {
    const std::vector<BinaryTask> tasks = binary_tasks(int32_t(model.classes.size()), options.multiclass);
    std::vector<PlattSigmoid> sigmoids;
    for (size_t t = 0; t < tasks.size(); ++t)
        sigmoids.push_back(run_step(ctx, int64_t(t), int64_t(tasks.size()), "a machine's sigmoid", [&](Context &step) {
            const BinaryRows rows = task_rows(step, tasks[t], data, cls, model.classes, options);
            return cross_validated_sigmoid(step, options, model.kernel, data, rows, t);
        }));
    return sigmoids;
}

}  // namespace

DcsvmOptions dcsvm_options(const TrainOptions &options) {
    DcsvmOptions dc;
    dc.levels = options.levels;
    dc.clusters_per_level = options.clusters_per_level;
    dc.sample_size = options.sample_size;
    const bool early = options.method == KMX_METHOD_DCSVM_EARLY || options.method == KMX_METHOD_BKA;
    dc.early_level = early ? options.early_level : 0;
    dc.bka = options.method == KMX_METHOD_BKA;
    dc.early_auto = options.method == KMX_METHOD_DCSVM_EARLY && options.early_level == 0;
    dc.svm = svm_options(options, options.cache_bytes);
    return dc;
}

SvmOptions svm_options(const TrainOptions &options, size_t cache_bytes) {
    SvmOptions svm;
    svm.bias = options.uses_bias();
    svm.eps = options.eps;
    svm.shrinking = options.shrinking;
    svm.cache_bytes = cache_bytes;
    return svm;
}

constexpr size_t kTwoColumns = 2;  // the kernel cache columns (of floats) one SMO step needs

size_t smallest_solver_bytes(int64_t n, const SvmRows &d) {
    return svm_dual_workspace_bytes(n, d, kTwoColumns * size_t(n) * sizeof(float));
}

size_t svm_cache_bytes(const Context &ctx, const TrainOptions &options, int64_t n, const SvmRows &d, size_t held) {
    if (options.cache_bytes > 0) return options.cache_bytes;
    const size_t fixed = held + svm_dual_workspace_bytes(n, d, 0);
    const size_t left = ctx.left_bytes() > fixed ? ctx.left_bytes() - fixed : 0;
    return std::max(svm_auto_cache_bytes(n, left), kTwoColumns * size_t(n) * sizeof(float));
}

void check_cost(double C) {
    if (!(C > 0) || !std::isfinite(C)) fail(KMX_E_INVALID_ARGUMENT, "parameter C = %g must be positive and finite", C);
}

namespace {

// Along a path of C (warm): the kernel rows its trainings share, made at the
// first, from half of what the budget leaves: all rows, or as many as fit
// when every binary problem spans all rows (two classes, one-vs-rest); a
// store smaller than the data would recompute rows for each pair of classes.
void share_kernel_rows(Context &ctx, const TrainOptions &options, const Model &model, const Dataset &data,
                       SvmWarmStart *warm) {
    if (!warm || (warm->shared_rows && warm->shared_rows->serves(data, model.kernel))) return;
    warm->shared_rows.reset();
    const bool spans_all_rows = model.classes.size() == 2 || options.multiclass == KMX_MULTICLASS_OVR;
    warm->shared_rows = KernelRowStore::create(ctx, data, model.kernel, ctx.left_bytes() / 2, spans_all_rows);
}

}  // namespace

Model train_svm_model(Context &ctx, const TrainOptions &options, const KernelSpec &kernel, const Dataset &data,
                      SvmWarmStart *warm) {
    const auto start = std::chrono::steady_clock::now();
    Model model = untrained_model(options, kernel, data);
    const std::vector<int32_t> cls = class_indices(data, model.classes);
    const bool exact = options.method == KMX_METHOD_SVM || options.method == KMX_METHOD_DCSVM;
    SvmWarmStart *from = exact ? warm : nullptr;
    share_kernel_rows(ctx, options, model, data, from);
    std::vector<SolvedMachine> solved;
    if (options.probability) {  // progress: the cross-validations, then the machines
        model.sigmoids = run_step(ctx, 0, 2, "probability estimates",
                                  [&](Context &step) { return fit_sigmoids(step, options, data, cls, model); });
        solved = run_step(ctx, 1, 2, "training",
                          [&](Context &step) { return solve_tasks(step, options, data, cls, model, from); });
    } else {
        solved = solve_tasks(ctx, options, data, cls, model, from);
    }
    gather_points(ctx, data, solved, model);
    for (SolvedMachine &s : solved) model.machines.push_back(std::move(s.machine));
    model.stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ctx.progress(1.0, "done");
    return model;
}

}  // namespace kmx
