// dcsvm_subproblems.cpp — DC-SVM's conquer step: the subproblems of a split
// V_1 … V_g solved independently and in parallel.
//
// Each worker owns a Context (threads split evenly, the parent's seed, a
// progress hook that only forwards the parent's cancellation) and, per
// subproblem, an arena of exactly svm_dual_workspace_bytes(|V_c|, d, cache_c),
// with cache_c a 1/P share of the kernel cache. Workers take groups by the
// static schedule of parallel_for, so the result depends only on the thread
// count; each subproblem's solve is independent of the others.
#include "dcsvm_subproblems.h"

#include <algorithm>
#include <chrono>
#include <memory>

#include "core/context.h"
#include "core/dataset.h"
#include "core/error.h"
#include "core/parallel.h"
#include "core/step_context.h"

namespace kmx {

namespace {

// The kernel cache of a subproblem of n rows given a worker's share.
size_t subproblem_cache_bytes(int64_t n, size_t share) {
    return std::max(svm_auto_cache_bytes(n, share), 2 * size_t(n) * sizeof(double));
}

int64_t row_of(const SvmProblem &problem, int64_t i) { return problem.rows ? problem.rows[i] : i; }

void gather_groups(const SvmProblem &problem, const RowGroups &groups, const double *alpha,
                   const SubproblemArrays &arrays) {
    for (int64_t p = 0; p < groups.offsets[groups.count]; ++p) {
        const int64_t i = groups.members[p];
        arrays.rows[p] = row_of(problem, i);
        arrays.y[p] = problem.y[i];
        arrays.upper[p] = problem.upper[i];
        if (problem.linear) arrays.linear[p] = problem.linear[i];
        arrays.alpha[p] = alpha[i];
    }
}

void scatter_alpha(const RowGroups &groups, const SubproblemArrays &arrays, double *alpha) {
    for (int64_t p = 0; p < groups.offsets[groups.count]; ++p) alpha[groups.members[p]] = arrays.alpha[p];
}

}  // namespace

size_t subproblem_arrays_bytes(int64_t n) {
    return WorkspacePlan()
        .add<int64_t>(size_t(n))
        .add<double>(size_t(n))
        .add<double>(size_t(n))
        .add<double>(size_t(n))
        .add<double>(size_t(n))
        .bytes();
}

SubproblemArrays carve_subproblem_arrays(Arena &arena, int64_t n) {
    SubproblemArrays a;
    a.rows = arena.alloc<int64_t>(size_t(n));
    a.y = arena.alloc<double>(size_t(n));
    a.upper = arena.alloc<double>(size_t(n));
    a.linear = arena.alloc<double>(size_t(n));
    a.alpha = arena.alloc<double>(size_t(n));
    return a;
}

// Σ_w svm_dual_workspace_bytes(n_w, d, share_w) over P workers with Σ n_w ≤ n:
// the workspace grows linearly in the rows (one of n rows covers their sum)
// plus a fixed part per worker, plus each cache's two-column minimum.
size_t subproblem_solver_bytes(int64_t n, const SvmRows &d, size_t cache_total, int threads) {
    return WorkspacePlan()
        .add_bytes(svm_dual_workspace_bytes(n, d, cache_total))
        .add_bytes(size_t(std::max(threads, 1)) * svm_dual_workspace_bytes(1, d, 0))
        .add<double>(2 * size_t(n))
        .bytes();
}

int subproblem_workers(const Context &ctx, int64_t groups) {
    return int(std::clamp<int64_t>(groups, 1, std::max(ctx.threads, 1)));
}

size_t subproblem_cache_share(const Context &ctx, int64_t groups, size_t cache_total) {
    return cache_total / size_t(subproblem_workers(ctx, groups));
}

std::vector<SvmSolution> solve_row_groups(Context &ctx, const SvmProblem &problem, const SvmOptions &options,
                                          const RowGroups &groups, size_t cache_total, const SubproblemArrays &arrays,
                                          double *alpha) {
    const int workers = subproblem_workers(ctx, groups.count);
    const size_t share = subproblem_cache_share(ctx, groups.count, cache_total);
    std::vector<std::unique_ptr<Context>> contexts = worker_contexts(ctx, workers);
    std::vector<SvmSolution> solutions(size_t(groups.count));
    gather_groups(problem, groups, alpha, arrays);
    parallel_for(groups.count, workers, [&](int64_t c) {
        const int64_t begin = groups.offsets[c], rows = groups.offsets[c + 1] - begin;
        if (rows == 0) return;
        SvmOptions sub_options = options;
        sub_options.cache_bytes = subproblem_cache_bytes(rows, share);
        SvmProblem sub = problem;
        sub.rows = arrays.rows + begin;
        sub.n = rows;
        sub.y = arrays.y + begin;
        sub.upper = arrays.upper + begin;
        sub.linear = problem.linear ? arrays.linear + begin : nullptr;
        sub.shared_rows = nullptr;  // one thread at a time may use a KernelRowStore; the global solve does
        const auto start = std::chrono::steady_clock::now();
        Arena arena(svm_dual_workspace_bytes(rows, SvmRows(*problem.data, problem.kernel), sub_options.cache_bytes));
        SvmSolution &solution = solutions[size_t(c)];
        solution = solve_svm_dual(*contexts[size_t(thread_index())], arena, sub, sub_options, arrays.alpha + begin);
        solution.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    });
    scatter_alpha(groups, arrays, alpha);
    return solutions;
}

}  // namespace kmx
