// dcsvm_subproblems.h — DC-SVM's conquer step on a split of the problem's
// rows into groups V_1 … V_g: each subproblem
//
//   min_{α_(c)} ½ α_(c)ᵀ Q_(c,c) α_(c) + p_(c)ᵀα_(c),  0 ≤ α_i ≤ C_i
//
// (p = −e for C-SVC; ε-SVR's linear term restricted to V_c)
//
// is solved independently, warm started from the current α restricted to
// V_c, on P = min(threads, g) workers at once (internal to lib/svm).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/arena.h"
#include "svm_dual.h"

namespace kmx {

class Context;

// V_c = members[offsets[c], offsets[c+1]) (problem indices), c < count.
struct RowGroups {
    int64_t count = 0;
    int64_t *offsets = nullptr;  // count + 1
    int64_t *members = nullptr;  // offsets[count] problem indices
};

// Per-row arrays the subproblems are gathered into, in group order.
struct SubproblemArrays {
    int64_t *rows;  // dataset rows
    double *y;
    double *upper;   // C_i
    double *linear;  // p_i (gathered when the problem has a linear term)
    double *alpha;
};

size_t subproblem_arrays_bytes(int64_t n);
SubproblemArrays carve_subproblem_arrays(Arena &arena, int64_t n);

// Bytes the solver workspaces of concurrent subproblems over at most n rows
// in total can take, with `cache_total` bytes of kernel cache shared among
// the workers (also enough for one solve of all n rows).
size_t subproblem_solver_bytes(int64_t n, const SvmRows &d, size_t cache_total, int threads);

// The workers solve_row_groups runs `groups` subproblems on, P =
// min(threads, groups), and each one's share of `cache_total`.
int subproblem_workers(const Context &ctx, int64_t groups);
size_t subproblem_cache_share(const Context &ctx, int64_t groups, size_t cache_total);

// Solves every group's subproblem (empty groups are skipped: α stays, the
// solution is zero) and writes its α back into `alpha` (n, problem order).
// Workers get their own contexts with ctx.threads / P threads each; they
// see ctx's cancellation but report no progress and log nothing.
std::vector<SvmSolution> solve_row_groups(Context &ctx, const SvmProblem &problem, const SvmOptions &options,
                                          const RowGroups &groups, size_t cache_total, const SubproblemArrays &arrays,
                                          double *alpha);

}  // namespace kmx
