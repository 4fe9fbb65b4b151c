// svm_dual.h — the SVM dual solver (LIBSVM's algorithm): SMO with
// second-order working-set selection, shrinking, an LRU kernel cache, warm
// start, with or without the bias term.
//
//   min_α ½ αᵀQα + pᵀα,  0 ≤ α_i ≤ C_i,  (with bias: yᵀα = 0),  Q_ij = y_i y_j K(x_i, x_j)
//
// C-SVC has p = −e. The one-class SVM (one_class.h) has p = 0, y = +1 and
// yᵀα = νn kept from a feasible warm start. ε-SVR (svr.h) is the same problem over 2n variables, each
// row twice (y = +1, then −1), p = [ε − z; ε + z] for targets z (LIBSVM's
// solve_epsilon_svr).
//
// Decision value: f(x) = Σ_i y_i α_i K(x_i, x) + b (b = 0 without bias).
#pragma once
#include <cstddef>
#include <cstdint>

#include "core/arena.h"
#include "kernel/kernel.h"
#include "svm_q_matrix.h"

namespace kmx {

class Context;
class Dataset;
class KernelRowStore;

// One binary problem over a subset of a dataset's rows.
struct SvmProblem {
    const Dataset *data = nullptr;
    const int64_t *rows = nullptr;  // n row indices into data (nullptr: rows 0..n-1)
    int64_t n = 0;
    const double *y = nullptr;       // n labels, each +1 or −1
    const double *upper = nullptr;   // n upper bounds C_i (C × class weight × sample weight), > 0
    const double *linear = nullptr;  // n entries of the linear term p; nullptr: −1 each (C-SVC)
    KernelSpec kernel;
    // Kernel rows of `data` kept across solves (a path of C values): Q's
    // columns are gathered from it instead of computed, when it serves this
    // data and kernel and the variables are not paired. nullptr: none.
    KernelRowStore *shared_rows = nullptr;
};

struct SvmOptions {
    bool bias = true;
    double eps = 1e-3;  // stop when the maximal KKT violation m(α) − M(α) <= eps (LIBSVM's rule)
    bool shrinking = true;
    size_t cache_bytes = 0;       // kernel cache; 0 = auto (what the budget leaves, within the memory available)
    int64_t max_iter = 0;         // 0 = no limit but LIBSVM's safety cap (max(10^7, 100 n))
    bool strict = false;          // throw KMX_E_NOT_CONVERGED at the iteration cap instead of returning
    int threads = 0;              // threads for kernel evaluations; 0 = ctx.threads (the SMO loop is sequential)
    bool report_progress = true;  // false: only check cancellation (e.g. for subproblems solved in parallel)
    // With bias: keep the warm start's yᵀα (it must already be feasible, e.g.
    // the one-class SVM's Σα = νn) instead of making it 0. SMO keeps yᵀα.
    bool keep_warm_start_sum = false;
};

struct SvmSolution {
    double objective = 0;      // ½ αᵀQα + pᵀα
    double bias = 0;           // b (0 without bias)
    double kkt_violation = 0;  // final maximal violation (<= eps when converged)
    int64_t iterations = 0;
    int64_t support_vectors = 0;  // α_i > 0
    int64_t bounded_support = 0;  // α_i == C_i
    int64_t final_active = 0;     // active variables when shrinking last converged (n without shrinking)
    bool converged = false;
    double seconds = 0;  // wall time of the solve (set by DC-SVM's subproblem runs, for its log)
};

// Workspace the solver carves from its arena for a problem of n rows
// (rows: SvmRows(data, kernel) of the problem's data, or d for dense rows;
// gathered dense rows, gradients, shrinking state, the kernel cache itself),
// exactly, for a cache of cache_bytes (whole columns of n floats, at least 2,
// at most n; cache_bytes = 0 counts the smallest cache, 2 columns).
size_t svm_dual_workspace_bytes(int64_t n, const SvmRows &rows, size_t cache_bytes);
// The cache size (an explicit cache_bytes value) an `auto` request resolves to
// when `budget_left` bytes are free for the cache itself: the most whole
// columns that fit, capped at 1 GiB and at n columns, never below 2 columns.
size_t svm_auto_cache_bytes(int64_t n, size_t budget_left);
// The exact workspace of a solve with cache_bytes = 0 (auto) when
// `budget_left` bytes of the memory budget are free: the rest of the
// workspace first, the cache gets what that leaves (as above). Reserve an
// arena of this size (ctx.reserve fails with KMX_E_OUT_OF_MEMORY, naming the
// bytes, if even the smallest cache does not fit) and pass cache_bytes = 0:
// the solver then resolves the same cache from the arena's free space.
size_t svm_dual_auto_workspace_bytes(int64_t n, const SvmRows &rows, size_t budget_left);

// Solves the problem. alpha (n) holds the warm start on entry (zeros for a
// cold start; entries are clipped to [0, C_i]; with bias a warm start is first
// made feasible for yᵀα = 0 unless options.keep_warm_start_sum: then yᵀα
// stays the warm start's) and the solution on return. Checks ctx's
// cancellation and reports progress (phase "svm"). Throws KMX_E_NOT_CONVERGED
// only if options.strict; otherwise returns converged = false at the
// iteration cap. Fails with KMX_E_OUT_OF_MEMORY, before any work, if the
// arena's free space is below svm_dual_workspace_bytes for the cache asked
// (cache_bytes = 0: the cache takes what the arena leaves, up to 1 GiB).
// A warm start that violates yᵀα = 0 (with bias) has the class with the
// larger Σα scaled down to the other's sum. Deterministic for the same input
// and thread count.
SvmSolution solve_svm_dual(Context &ctx, Arena &arena, const SvmProblem &problem, const SvmOptions &options,
                           double *alpha);

}  // namespace kmx
