// dcsvm.cpp — DC-SVM (Hsieh, Si, Dhillon 2014, Algorithm 1), its early
// prediction variant and BKA-SVM.
//
//   α ← 0
//   for l = lmax … 1 (or down to the early level L; full DC-SVM starts where
//                     clusters keep ~1000 rows and stops early once |S̄| is small):
//       π ← two-step kernel k-means with k^l clusters (adaptive: sampled from S̄ = {i : α_i > 0})
//       for every cluster V_c, in parallel: α_(c) ← argmin of its subproblem, warm started from α_(c)
//       ᾱ ← [α_(1), …, α_(k^l)]                  (concatenated in place)
//   early prediction / BKA: return ᾱ with π — x is predicted by its nearest cluster's model
//   refine: α_S̄ ← argmin of the subproblem on S̄ = {i : ᾱ_i > 0}, warm started from ᾱ_S̄
//   global: α ← argmin of the whole problem, warm started from α
//
// Theorem 1 bounds the warm start's gap: f(ᾱ) − f(α*) ≤ C² D(π) / 2 with
// D(π) = Σ_{π(i)≠π(j)} |K(x_i, x_j)|, which kernel k-means keeps small.
//
// ε-SVR's dual (svr.h) has two variables per row, α_i and α*_i (paired:
// rows[k] = rows[k + n/2], SvmQMatrix::paired). There the points clustered
// are the n/2 rows, π(α*_i) = π(α_i), and each cluster's variables keep the
// paired layout (its α's, then the same rows' α*'s), so every subproblem is
// an ε-SVR dual over the cluster's rows with its linear term p; the refine
// set S̄ takes both variables of a row with α_i > 0 or α*_i > 0. Lemma 1 and
// Theorem 1 carry over: the objective is ½ βᵀKβ + pᵀα with β = α − α*, and
// dropping K's between-cluster blocks is the same block-diagonal K̄.
#include "dcsvm.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

#include "cluster/balance_clusters.h"
#include "core/context.h"
#include "core/dataset.h"
#include "core/error.h"
#include "core/rng.h"
#include "dcsvm_subproblems.h"
#include "kernel_cache.h"
#include "svm_q_matrix.h"

namespace kmx {

namespace {

// ------------------------------------------------------------------ schedule

// The points DC-SVM clusters: the rows, n/2 of them for paired variables
// (ε-SVR), else one per variable.
int64_t point_count(const SvmProblem &problem) { return SvmQMatrix::paired(problem) ? problem.n / 2 : problem.n; }

// k^l capped at n / kDcsvmMinRowsPerCluster (at least 1).
int64_t clusters_at_level(int64_t k, int level, int64_t n) {
    const int64_t cap = std::max<int64_t>(1, n / kDcsvmMinRowsPerCluster);
    int64_t clusters = 1;
    for (int l = 0; l < level && clusters < cap; ++l) clusters *= k;
    return std::min(clusters, cap);
}

// The first and last divide levels to run; last > 0 means "stop there".
struct Schedule {
    int first;
    int last;
    bool early;             // early prediction or BKA: no refine, no global solve
    bool adaptive = false;  // early_auto: stop at the first level with enough support vectors per cluster
};

// The deepest level, at most lmax, whose k^l clusters keep about
// kDcsvmMinRowsPerBottomCluster rows each (level 1 at least).
int deepest_useful_level(const DcsvmOptions &options, int64_t n) {
    int level = 1;
    int64_t clusters = options.clusters_per_level;
    while (level < options.levels && n / (clusters * options.clusters_per_level) >= kDcsvmMinRowsPerBottomCluster) {
        clusters *= options.clusters_per_level;
        ++level;
    }
    return level;
}

Schedule make_schedule(const DcsvmOptions &options, int64_t n) {
    if (options.bka) {
        const int level = options.early_level > 0 ? options.early_level : kDcsvmBkaDefaultLevel;
        return {level, level, true};
    }
    if (options.early_level > 0) {
        const int last = std::min(options.early_level, options.levels);
        return {std::max(last, deepest_useful_level(options, n)), last, true};
    }
    if (options.early_auto) return {deepest_useful_level(options, n), 1, true, true};
    return {deepest_useful_level(options, n), 1, false};
}

// The clusters of `level` in this schedule: k^l within the caps (the early
// level's — with early_auto, any level's — also within n / min_early_cluster_rows).
int64_t scheduled_clusters(const DcsvmOptions &options, const Schedule &schedule, int level, int64_t n) {
    int64_t clusters = clusters_at_level(options.clusters_per_level, level, n);
    const bool may_predict = level == schedule.last || schedule.adaptive;
    if (schedule.early && !options.bka && may_predict && options.min_early_cluster_rows > 0)
        clusters = std::min(clusters, std::max<int64_t>(1, n / options.min_early_cluster_rows));
    return clusters;
}

void check_options(const SvmProblem &problem, const DcsvmOptions &options) {
    require(problem.data && problem.y && problem.upper && problem.n > 0, "DC-SVM: the problem has no rows");
    require(!problem.linear || SvmQMatrix::paired(problem),
            "DC-SVM: a linear term only with epsilon-SVR's paired variables (rows[k] = rows[k + n/2])");
    require(!problem.linear || !(options.early_level > 0 || options.early_auto || options.bka),
            "DC-SVM: early prediction and BKA are for C-SVC (epsilon-SVR takes full DC-SVM only)");
    require(!options.svm.keep_warm_start_sum, "DC-SVM starts from zeros: it cannot keep a warm start's sum");
    require(options.levels >= 1, "DC-SVM: levels must be at least 1");
    require(options.clusters_per_level >= 2, "DC-SVM: clusters_per_level must be at least 2");
    require(options.sample_size >= 2, "DC-SVM: sample_size must be at least 2");
    require(options.early_level >= 0, "DC-SVM: early_level must not be negative");
    require(options.min_early_cluster_rows >= 0, "DC-SVM: min_early_cluster_rows must not be negative");
    require(options.early_max_work > 0, "DC-SVM: early_max_work must be positive");
}

// ------------------------------------------------------------------ memory

// Everything the run needs, checked against the budget once, up front.
struct MemoryPlan {
    size_t estimate;     // the sample solve of estimated_support_vectors
    size_t clustering;   // kernel k-means and assignment scratch (one arena, reused by every level)
    size_t bookkeeping;  // π, groups, subproblem arrays
    size_t cache;        // the kernel cache shared by concurrent solves, or used by the refine/global solve
    size_t solver;       // solver workspaces, cache included
};

int64_t largest_cluster_count(const DcsvmOptions &options, const Schedule &schedule, int64_t n) {
    int64_t largest = 1;
    for (int level = schedule.first; level >= schedule.last; --level)
        largest = std::max(largest, scheduled_clusters(options, schedule, level, n));
    return largest;
}

size_t clustering_bytes(const SvmProblem &problem, const DcsvmOptions &options, int64_t k) {
    const Dataset &data = *problem.data;
    return std::max({kernel_kmeans_sample_workspace_bytes(data, problem.kernel, k, options.sample_size),
                     kernel_partition_assign_workspace_bytes(data, std::min(options.sample_size, problem.n), k, data,
                                                             problem.kernel),
                     balance_clusters_workspace_bytes(problem.n, k)});
}

// The sample solve that estimates the support vectors: m rows, the whole
// m × m Q cached, and the sample's own arrays.
int64_t estimate_rows(const SvmProblem &problem, const DcsvmOptions &options) {
    return std::min(options.sample_size, point_count(problem));
}

// The sample's variables: both of each row when paired.
int64_t estimate_variables(const SvmProblem &problem, const DcsvmOptions &options) {
    return estimate_rows(problem, options) * (problem.n / point_count(problem));
}

size_t estimate_bytes(const SvmProblem &problem, const DcsvmOptions &options) {
    const int64_t m = estimate_variables(problem, options);
    return WorkspacePlan()
        .add_bytes(
            svm_dual_workspace_bytes(m, SvmRows(*problem.data, problem.kernel), size_t(m) * size_t(m) * sizeof(float)))
        .add_bytes(subproblem_arrays_bytes(m))
        .bytes();
}

size_t bookkeeping_bytes(int64_t n, int64_t k) {
    return WorkspacePlan()
        .add<int32_t>(size_t(n))                         // π
        .add<int64_t>(size_t(k + 2))                     // group offsets
        .add<int64_t>(size_t(n))                         // group members
        .add<int32_t>(size_t(n) * kDcsvmBalanceChoices)  // runner-up clusters
        .add<float>(size_t(n) * kDcsvmBalanceChoices)    // runner-up margins
        .add_bytes(subproblem_arrays_bytes(n))
        .bytes();
}

MemoryPlan plan_memory(const Context &ctx, const SvmProblem &problem, const DcsvmOptions &options,
                       const Schedule &schedule) {
    const int64_t n = problem.n;
    const SvmRows d(*problem.data, problem.kernel);
    const int64_t k = largest_cluster_count(options, schedule, point_count(problem));
    MemoryPlan plan;
    plan.estimate = schedule.early ? 0 : estimate_bytes(problem, options);
    plan.clustering = clustering_bytes(problem, options, k);
    plan.bookkeeping = bookkeeping_bytes(n, k);
    plan.cache = options.svm.cache_bytes;
    if (plan.cache == 0) {
        const size_t held = ctx.peak_bytes() + plan.estimate + plan.clustering + plan.bookkeeping +
                            subproblem_solver_bytes(n, d, 0, ctx.threads);
        plan.cache = svm_auto_cache_bytes(n, ctx.memory_budget > held ? ctx.memory_budget - held : 0);
    }
    plan.solver = subproblem_solver_bytes(n, d, plan.cache, ctx.threads);
    return plan;
}

// ------------------------------------------------------------------ when dividing pays

// The divide levels and the refine step only warm-start the next step, so
// their subproblems stop at a looser tolerance: the many iterations of the
// solver's tail would mostly be undone once the next step adds the kernel
// entries between clusters. The global solve uses the caller's eps.
SvmOptions warm_start_options(const SvmOptions &svm) {
    SvmOptions options = svm;
    options.eps = std::max(svm.eps, std::min(svm.eps * kDcsvmWarmStartEpsFactor, kDcsvmWarmStartEpsCap));
    return options;
}

// The support vectors of the whole problem, estimated from a solve on a
// systematic random sample of m = min(sample_size, n) rows (row ⌊(j + u) n / m⌋
// for j < m, u uniform in [0, 1) by ctx.seed): its support-vector fraction
// times n. A sample usually has the larger fraction (fewer rows, more of them
// near the margin), so the estimate errs towards dividing.
// Paired variables (ε-SVR): m rows sampled from the n/2, with both of each
// one's variables in the paired layout; a support vector is a row with α_i >
// 0 or α*_i > 0 (never both when ε > 0), and the estimate counts rows.
int64_t estimated_support_vectors(Context &ctx, const SvmProblem &problem, const DcsvmOptions &options) {
    const int64_t points = point_count(problem), m = estimate_rows(problem, options);
    const int64_t copies = problem.n / points, variables = m * copies;
    Arena arena(estimate_bytes(problem, options));
    const SubproblemArrays sample = carve_subproblem_arrays(arena, variables);
    Rng rng(ctx.seed);
    const double offset = rng.uniform();
    for (int64_t j = 0; j < m; ++j) {
        const int64_t row = std::min(points - 1, int64_t((double(j) + offset) * double(points) / double(m)));
        for (int64_t c = 0; c < copies; ++c) {
            const int64_t i = row + c * points, at = j + c * m;
            sample.rows[at] = problem.rows ? problem.rows[i] : i;
            sample.y[at] = problem.y[i];
            sample.upper[at] = problem.upper[i];
            sample.linear[at] = problem.linear ? problem.linear[i] : -1.0;
            sample.alpha[at] = 0;
        }
    }
    SvmProblem sub = problem;
    sub.rows = sample.rows;
    sub.n = variables;
    sub.y = sample.y;
    sub.upper = sample.upper;
    sub.linear = problem.linear ? sample.linear : nullptr;
    sub.shared_rows = nullptr;  // whole kernel rows for a sample's columns: not worth their cost
    SvmOptions svm = warm_start_options(options.svm);
    svm.cache_bytes = size_t(variables) * size_t(variables) * sizeof(float);
    svm.report_progress = false;
    const SvmSolution solution = solve_svm_dual(ctx, arena, sub, svm, sample.alpha);
    return int64_t(double(solution.support_vectors) / double(m) * double(points));
}

// Q columns (kernel rows, when paired) that `cache` bytes hold for the problem.
int64_t cached_columns(const SvmProblem &problem, size_t cache) {
    return KernelCache::slots_for(point_count(problem), cache);
}

// Dividing pays only when the global solve would recompute kernel columns:
// when its working columns, about one per support vector, would not fit in
// half the cache. (The whole Q in the cache is the extreme case.)
bool support_columns_fit_cache(Context &ctx, const SvmProblem &problem, const DcsvmOptions &options, size_t cache,
                               int64_t &estimate) {
    estimate = estimated_support_vectors(ctx, problem, options);
    return 2 * estimate <= cached_columns(problem, cache);
}

// ------------------------------------------------------------------ state

struct RunState {
    const SvmProblem &problem;
    const DcsvmOptions &options;
    int64_t points;  // point_count: rows clustered
    Arena clustering;
    int32_t *cluster_of;  // π(i), n
    RunnerUp runner_up;   // n each, for balance_clusters
    RowGroups groups;
    SubproblemArrays arrays;
    size_t cache;
    double *alpha;  // n
    KernelPartition partition;
};

void carve_bookkeeping(Arena &arena, int64_t n, int64_t k, RunState &s) {
    s.cluster_of = arena.alloc<int32_t>(size_t(n));
    s.groups.offsets = arena.alloc<int64_t>(size_t(k + 2));
    s.groups.members = arena.alloc<int64_t>(size_t(n));
    s.runner_up.cluster = arena.alloc<int32_t>(size_t(n) * kDcsvmBalanceChoices);
    s.runner_up.margin = arena.alloc<float>(size_t(n) * kDcsvmBalanceChoices);
    s.runner_up.choices = kDcsvmBalanceChoices;
    s.arrays = carve_subproblem_arrays(arena, n);
}

int64_t count_support_vectors(const double *alpha, int64_t n) {
    return std::count_if(alpha, alpha + n, [](double a) { return a > 0; });
}

int64_t row_of(const SvmProblem &problem, int64_t i) { return problem.rows ? problem.rows[i] : i; }

// Adaptive clustering's sample pool: the dataset rows of S̄ = {i : α_i > 0}
// when there are enough of them, else empty (sample from all rows).
std::vector<int64_t> adaptive_pool(const RunState &s, int64_t clusters) {
    const int64_t n = s.problem.n;
    const int64_t enough = std::max(std::min(s.options.sample_size, s.points) / 2, 4 * clusters);
    if (s.options.bka || count_support_vectors(s.alpha, n) < enough) return {};
    std::vector<int64_t> pool;
    for (int64_t i = 0; i < n; ++i)
        if (s.alpha[i] > 0) pool.push_back(row_of(s.problem, i));
    return pool;
}

// V_c = {i : π(i) = c}, by counting sort (each V_c in increasing i).
void group_by_cluster(const int32_t *cluster_of, int64_t n, int64_t k, RowGroups &groups) {
    groups.count = k;
    group_rows_by_cluster(cluster_of, n, k, groups.offsets, groups.members);
}

// One group: S̄ = {i : α_i > 0}; paired (n = 2 · points), both variables
// of every row with α_i > 0 or α*_i > 0, in the paired layout.
void group_support_vectors(const double *alpha, int64_t n, int64_t points, RowGroups &groups) {
    groups.count = 1;
    groups.offsets[0] = 0;
    int64_t size = 0;
    if (points == n) {
        for (int64_t i = 0; i < n; ++i)
            if (alpha[i] > 0) groups.members[size++] = i;
    } else {
        for (int64_t i = 0; i < points; ++i)
            if (alpha[i] > 0 || alpha[i + points] > 0) groups.members[size++] = i;
        for (int64_t p = 0, half = size; p < half; ++p) groups.members[size++] = groups.members[p] + points;
    }
    groups.offsets[1] = size;
}

// Paired: the α*'s go to their α's cluster (π was computed for the rows).
void pair_clusters(int32_t *cluster_of, int64_t n, int64_t points) {
    if (points < n) std::copy(cluster_of, cluster_of + points, cluster_of + points);
}

// ------------------------------------------------------------------ steps

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The per-cluster solutions as one: objectives, iterations and support
// vectors add up (f̄(ᾱ) under the block-diagonal kernel K̄).
SvmSolution combine(const std::vector<SvmSolution> &solutions) {
    SvmSolution total;
    total.converged = true;
    for (const SvmSolution &s : solutions) {
        total.objective += s.objective;
        total.iterations += s.iterations;
        total.support_vectors += s.support_vectors;
        total.bounded_support += s.bounded_support;
        total.kkt_violation = std::max(total.kkt_violation, s.kkt_violation);
        total.converged = total.converged && (s.converged || s.iterations == 0);
    }
    return total;
}

// Early prediction with one cluster: a partition of one sample point (every
// row and every test point is its own cluster's), no kernel k-means.
void single_cluster_partition(const SvmProblem &problem, RunState &s) {
    const int64_t row = row_of(problem, 0), d = problem.data->d;
    std::vector<double> x(static_cast<size_t>(d));
    problem.data->copy_rows(row, row + 1, x.data());
    s.partition = KernelPartition();
    s.partition.k = 1;
    s.partition.sample_rows = {row};
    s.partition.sample_cluster = {0};
    s.partition.cluster_self = {kernel_eval(problem.kernel, x.data(), x.data(), d)};  // (1/|S|²) Σ K
    s.partition.cluster_size = {1};
    std::fill(s.cluster_of, s.cluster_of + problem.n, 0);
}

// Caps the clusters at kDcsvmClusterSizeCap times the mean size (see
// balance_clusters.h): the level's time grows as Σ_c |V_c|². When the level
// may be the one that predicts (early prediction, BKA), only clusters above
// kDcsvmBalanceMinRows too: a test point goes to its nearest cluster, whose
// model lacks the rows moved away.
void balance(Context &ctx, RunState &s, bool may_predict) {
    const int64_t n = s.points, k = s.partition.k;
    int64_t cap = int64_t(std::ceil(kDcsvmClusterSizeCap * double(n) / double(k)));
    if (may_predict) cap = std::max(cap, kDcsvmBalanceMinRows);
    const BalanceResult balanced = balance_clusters(s.clustering, s.cluster_of, s.runner_up, n, k, cap);
    if (balanced.moved > 0)
        ctx.log(KMX_LOG_INFO,
                "dcsvm: %lld rows moved to one of their %d next-nearest clusters (cap %lld rows; the largest has %lld)",
                (long long)balanced.moved, kDcsvmBalanceChoices, (long long)cap, (long long)balanced.largest);
}

// One divide level's partition: cluster, assign π, group the rows into V_c.
void partition_level(Context &ctx, RunState &s, const Schedule &schedule, int64_t clusters) {
    const SvmProblem &problem = s.problem;
    const Dataset &data = *problem.data;
    if (clusters == 1) {
        single_cluster_partition(problem, s);
    } else {
        s.partition = kernel_kmeans_sample(ctx, s.clustering, data, problem.rows, s.points, adaptive_pool(s, clusters),
                                           problem.kernel, clusters, s.options.sample_size);
        kernel_partition_assign(ctx, s.clustering, data, s.partition, data, problem.rows, s.points, problem.kernel,
                                s.cluster_of, s.runner_up);
        balance(ctx, s, schedule.early);
        pair_clusters(s.cluster_of, problem.n, s.points);
    }
    group_by_cluster(s.cluster_of, problem.n, s.partition.k, s.groups);
}

// Refine: the subproblem on S̄, warm started from ᾱ_S̄.
SvmSolution run_refine(Context &ctx, RunState &s) {
    group_support_vectors(s.alpha, s.problem.n, s.points, s.groups);
    return solve_row_groups(ctx, s.problem, warm_start_options(s.options.svm), s.groups, s.cache, s.arrays, s.alpha)[0];
}

SvmSolution run_global(Context &ctx, RunState &s) {
    SvmOptions options = s.options.svm;
    options.cache_bytes = std::max(s.cache, 2 * size_t(s.problem.n) * sizeof(double));
    Arena arena(svm_dual_workspace_bytes(s.problem.n, SvmRows(*s.problem.data, s.problem.kernel), options.cache_bytes));
    return solve_svm_dual(ctx, arena, s.problem, options, s.alpha);
}

void record(Context &ctx, DcsvmResult &result, DcsvmLevelStats stats, double fraction) {
    static const char *const names[] = {"level", "refine", "global"};
    const char *name = names[int(stats.step)];
    ctx.log(KMX_LOG_INFO, "dcsvm %s %d: %lld clusters over %lld rows, %lld SVs, objective %.10g, %.3f s", name,
            stats.level, (long long)stats.clusters, (long long)stats.rows, (long long)stats.support_vectors,
            stats.objective, stats.seconds);
    result.levels.push_back(stats);
    char phase[48];
    std::snprintf(phase, sizeof phase, "dcsvm %s %d", name, stats.level);
    ctx.progress(fraction, phase);
}

void store_partition(const RunState &s, const std::vector<SvmSolution> &solutions, DcsvmResult &result) {
    result.partition = s.partition;
    result.cluster_of.assign(s.cluster_of, s.cluster_of + s.problem.n);
    result.cluster_bias.resize(solutions.size());
    for (size_t c = 0; c < solutions.size(); ++c) result.cluster_bias[c] = solutions[c].bias;
}

// The spread of a level's subproblems, for -v: cluster sizes and the slowest solve.
void log_subproblems(Context &ctx, int level, const RowGroups &groups, const std::vector<SvmSolution> &solutions) {
    int64_t smallest = INT64_MAX, largest = 0, slowest = 0;
    double active_per_support = 0;  // the largest final active set, in support vectors (coarser_level_pays' 2)
    for (int64_t c = 0; c < groups.count; ++c) {
        const int64_t rows = groups.offsets[c + 1] - groups.offsets[c];
        const SvmSolution &solution = solutions[size_t(c)];
        smallest = std::min(smallest, rows);
        largest = std::max(largest, rows);
        if (solution.seconds > solutions[size_t(slowest)].seconds) slowest = c;
        if (solution.support_vectors > 0)
            active_per_support =
                std::max(active_per_support, double(solution.final_active) / double(solution.support_vectors));
    }
    const SvmSolution &slow = solutions[size_t(slowest)];
    ctx.log(KMX_LOG_INFO,
            "dcsvm level %d: clusters of %lld to %lld rows; slowest %.3f s (%lld rows, %lld iterations, %lld SVs, "
            "active set %lld at the end); final active sets up to %.2f x the SVs",
            level, (long long)smallest, (long long)largest, slow.seconds,
            (long long)(groups.offsets[slowest + 1] - groups.offsets[slowest]), (long long)slow.iterations,
            (long long)slow.support_vectors, (long long)slow.final_active, active_per_support);
}

// The partition of the last level solved, kept while early prediction with
// its level chosen from the data tries the next coarser one.
struct SolvedLevel {
    int level = 0;
    KernelPartition partition;
    std::vector<int32_t> cluster_of;
};

void keep_partition(const RunState &s, int level, SolvedLevel &solved) {
    solved.level = level;
    solved.partition = s.partition;
    solved.cluster_of.assign(s.cluster_of, s.cluster_of + s.problem.n);
}

void restore_partition(RunState &s, const SolvedLevel &solved) {
    s.partition = solved.partition;
    std::copy(solved.cluster_of.begin(), solved.cluster_of.end(), s.cluster_of);
    group_by_cluster(s.cluster_of, s.problem.n, s.partition.k, s.groups);
}

// The rule of early_auto (dcsvm.h): the new partition's kernel work, the
// columns of its clusters' support vectors (their rows with α_i > 0, from the
// finer level just solved) over their clusters' rows, Σ_c |V_c| · |S̄ ∩ V_c|,
// stays within early_max_work, and every cluster keeps those columns, at
// the active set's length, in a worker's share of the cache, shared as
// solve_row_groups shares it.
bool coarser_level_pays(Context &ctx, const RunState &s, int level) {
    const RowGroups &groups = s.groups;
    const size_t share = subproblem_cache_share(ctx, groups.count, s.cache);
    double work = 0;
    bool fits = true;
    for (int64_t c = 0; c < groups.count; ++c) {
        const int64_t rows = groups.offsets[c + 1] - groups.offsets[c];
        int64_t support = 0;
        for (int64_t p = groups.offsets[c]; p < groups.offsets[c + 1]; ++p) support += s.alpha[groups.members[p]] > 0;
        work += double(rows) * double(support);
        // once shrinking has cut the active set, the solver asks for columns of
        // about its length, which the cache re-slots to: taken as twice the
        // support vectors (free ones and those near the margin), at most all rows
        const int64_t width = std::min(rows, 2 * support);
        fits = fits && double(support) * double(width) * sizeof(float) <= double(share);
    }
    const double max_work = s.options.early_max_work;
    ctx.log(KMX_LOG_INFO, "dcsvm level %d: its support vectors' kernel work is %.3g entries (at most %.3g)", level,
            work, max_work);
    if (fits && work > max_work)
        ctx.log(KMX_LOG_INFO, "dcsvm level %d: too much kernel work for early prediction", level);
    if (!fits)
        ctx.log(KMX_LOG_INFO, "dcsvm level %d: a cluster's support vectors' columns would not fit the cache", level);
    return fits && work <= max_work;
}

// The level that predicts (early_auto): from its warm-start tolerance to the
// caller's eps; its record (the last) gets the final figures.
// Level 1, the last one, was already solved to eps (to_eps): not again.
std::vector<SvmSolution> finish_early_level(Context &ctx, RunState &s, const SolvedLevel &solved,
                                            std::vector<SvmSolution> to_eps, DcsvmResult &result) {
    const auto start = std::chrono::steady_clock::now();
    std::vector<SvmSolution> solutions =
        to_eps.empty() ? solve_row_groups(ctx, s.problem, s.options.svm, s.groups, s.cache, s.arrays, s.alpha)
                       : std::move(to_eps);
    const int64_t support = count_support_vectors(s.alpha, s.problem.n);
    DcsvmLevelStats &stats = result.levels.back();
    stats.support_vectors = support;
    stats.objective = combine(solutions).objective;
    stats.seconds += seconds_since(start);
    ctx.log(KMX_LOG_INFO, "dcsvm early prediction at level %d: %lld clusters, %lld support vectors per cluster",
            solved.level, (long long)s.partition.k, (long long)(support / std::max<int64_t>(1, s.partition.k)));
    log_subproblems(ctx, solved.level, s.groups, solutions);
    ctx.progress(1.0, "dcsvm early level");
    return solutions;
}

// The divide levels of the schedule; returns the solutions of the last one
// solved. early_auto goes on to a coarser level only while it pays
// (coarser_level_pays), else the finer level, kept, predicts.
std::vector<SvmSolution> run_levels(Context &ctx, RunState &s, const Schedule &schedule, int steps,
                                    DcsvmResult &result) {
    std::vector<SvmSolution> solutions;
    SolvedLevel solved;
    int64_t previous_clusters = 0;
    bool solved_to_eps = false;
    for (int level = schedule.first; level >= schedule.last; --level) {
        const int64_t clusters = scheduled_clusters(s.options, schedule, level, s.points);
        const bool stop_here = schedule.early && level == schedule.last;
        if (!stop_here && (clusters <= 1 || clusters == previous_clusters)) continue;
        const auto start = std::chrono::steady_clock::now();
        partition_level(ctx, s, schedule, clusters);
        if (schedule.adaptive && !solutions.empty() && !coarser_level_pays(ctx, s, level)) {
            restore_partition(s, solved);
            break;
        }
        // A fixed early level and BKA: that level predicts; the finer ones only
        // warm-start it. early_auto: the last level predicts once it is solved.
        const bool final = schedule.early && level == schedule.last;
        solved_to_eps = final;
        solutions = solve_row_groups(ctx, s.problem, final ? s.options.svm : warm_start_options(s.options.svm),
                                     s.groups, s.cache, s.arrays, s.alpha);
        previous_clusters = clusters;
        const int64_t support = count_support_vectors(s.alpha, s.problem.n);
        log_subproblems(ctx, level, s.groups, solutions);
        const SvmSolution level_total = combine(solutions);
        if (!level_total.converged)
            ctx.log(KMX_LOG_WARNING, "dcsvm level %d: a subproblem stopped at the iteration cap (KKT violation %g)",
                    level, level_total.kkt_violation);
        record(ctx, result,
               {level, s.partition.k, support, level_total.objective, seconds_since(start), DcsvmStep::level, s.points},
               double(schedule.first - level + 1) / steps);
        if (schedule.adaptive) keep_partition(s, level, solved);
        if (!schedule.early && double(support) <= kDcsvmFewSupportFraction * double(s.points)) break;
    }
    if (!schedule.adaptive) return solutions;
    return finish_early_level(ctx, s, solved, solved_to_eps ? std::move(solutions) : std::vector<SvmSolution>(),
                              result);
}

// Refine on S̄ (when it is a proper, non-empty subset) and the global solve.
SvmSolution conquer(Context &ctx, RunState &s, int steps, DcsvmResult &result) {
    const int64_t n = s.problem.n;
    const int64_t support = count_support_vectors(s.alpha, n);
    if (s.options.refine && support > 0 && support < s.points) {
        const auto start = std::chrono::steady_clock::now();
        const SvmSolution refined = run_refine(ctx, s);
        record(ctx, result,
               {0, 1, count_support_vectors(s.alpha, n), refined.objective, seconds_since(start), DcsvmStep::refine,
                support},
               double(steps - 1) / steps);
    }
    const auto start = std::chrono::steady_clock::now();
    const SvmSolution global = run_global(ctx, s);
    record(ctx, result,
           {0, 1, global.support_vectors, global.objective, seconds_since(start), DcsvmStep::global, s.points}, 1.0);
    return global;
}

// The cache that the direct-or-divide rule below reasons with, at most: the
// rule was measured with caches of up to 1 GiB, and a bigger cache does not
// make the direct solve the cheaper one (30000 digits rows: whole Q cached
// in 4 GiB, direct 25 s; divided 11 s).
constexpr size_t kDirectRuleCacheCap = size_t(1) << 30;

// Why full DC-SVM solves the whole problem directly, or nullptr to divide:
// too small (the clustering sample alone would be half the data or more),
// the whole Q fits the cache, or the estimated support vectors' columns do.
const char *direct_solve_reason(Context &ctx, const SvmProblem &problem, const DcsvmOptions &options,
                                size_t available_cache) {
    const size_t cache = std::min(available_cache, kDirectRuleCacheCap);
    const int64_t points = point_count(problem);
    if (points <= kDcsvmDirectSolveFactor * options.sample_size) return "at most 2 sample sizes";
    if (dcsvm_whole_matrix_cached(points, cache)) return "whole Q cached";
    int64_t estimate = 0;
    const bool fit = support_columns_fit_cache(ctx, problem, options, cache, estimate);
    ctx.log(KMX_LOG_INFO, "dcsvm: about %lld support vectors (from a sample of %lld rows), cache of %lld columns",
            (long long)estimate, (long long)estimate_rows(problem, options), (long long)cached_columns(problem, cache));
    return fit ? "support vectors' columns cached" : nullptr;
}

}  // namespace

bool dcsvm_whole_matrix_cached(int64_t n, size_t cache_bytes) { return KernelCache::slots_for(n, cache_bytes) >= n; }

DcsvmResult train_dcsvm(Context &ctx, const SvmProblem &problem, const DcsvmOptions &options, double *alpha) {
    check_options(problem, options);
    const int64_t points = point_count(problem);
    const Schedule schedule = make_schedule(options, points);
    const MemoryPlan memory = plan_memory(ctx, problem, options, schedule);
    ctx.check_budget(WorkspacePlan()
                         .add_bytes(memory.estimate)
                         .add_bytes(memory.clustering)
                         .add_bytes(memory.bookkeeping)
                         .add_bytes(memory.solver)
                         .bytes(),
                     "DC-SVM");
    const int64_t n = problem.n;
    const int64_t k = largest_cluster_count(options, schedule, points);
    Arena bookkeeping(memory.bookkeeping);
    RunState s{problem, options, points, Arena(memory.clustering), nullptr, {}, {}, {}, memory.cache, alpha, {}};
    carve_bookkeeping(bookkeeping, n, k, s);
    std::fill(alpha, alpha + n, 0.0);

    DcsvmResult result;
    const char *direct = schedule.early ? nullptr : direct_solve_reason(ctx, problem, options, memory.cache);
    if (direct) {
        // The levels would cost more than the solve they warm-start.
        ctx.log(KMX_LOG_INFO, "dcsvm: n = %lld, %s: global solve only", (long long)n, direct);
        const auto start = std::chrono::steady_clock::now();
        result.solution = run_global(ctx, s);
        record(ctx, result,
               {0, 1, result.solution.support_vectors, result.solution.objective, seconds_since(start),
                DcsvmStep::global, points},
               1.0);
        return result;
    }
    const int steps = schedule.first - schedule.last + 1 + (schedule.early ? 0 : 2);
    const std::vector<SvmSolution> last_level = run_levels(ctx, s, schedule, steps, result);
    if (schedule.early) {
        result.solution = combine(last_level);
        store_partition(s, last_level, result);
    } else {
        result.solution = conquer(ctx, s, steps, result);
    }
    return result;
}

}  // namespace kmx
