// dual_arrays.h — what ε-SVR (svr.h) and the one-class SVM (one_class.h)
// share around the dual solver: the per-variable arrays carved from one
// arena, the solver's problem over them, the rows a weighted dataset trains
// on, and a one-machine model's points taken from the rows that keep a
// nonzero coefficient.
#pragma once
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/arena.h"
#include "kernel/kernel.h"
#include "model/model.h"
#include "model/train_options.h"
#include "svm_dual.h"

namespace kmx {

class Context;
class Dataset;

// One entry per dual variable.
struct DualArrays {
    int64_t *rows = nullptr;   // the dataset row of each variable
    double *y = nullptr;       // ±1
    double *upper = nullptr;   // its box's upper bound
    double *linear = nullptr;  // p
    double *alpha = nullptr;   // the start, the solution after the solve
};

// Arena bytes of carve_dual_arrays for this many variables.
size_t dual_arrays_bytes(size_t variables);
// The arrays of `variables` variables, carved from `arena`, not filled.
void carve_dual_arrays(Arena &arena, size_t variables, DualArrays &arrays);
// The solver's problem over the arrays' `variables` variables: rows of `data`, this kernel.
SvmProblem dual_problem(const DualArrays &arrays, int64_t variables, const Dataset &data, const KernelSpec &kernel);
// The rows a training run uses: those of positive weight (every row without weights).
int64_t rows_with_positive_weight(const Dataset &data);
// The workspace of one dual solve: the arrays' bytes, the solver's, and the
// kernel cache (svm_cache_bytes) it leaves room for.
struct DualWorkspace {
    Arena arena;
    size_t cache = 0;
};
// Reserves it from ctx, failing with KMX_E_OUT_OF_MEMORY before any work
// (naming `method`) unless `arrays` bytes and the smallest solver workspace
// of `variables` variables fit what the budget leaves.
DualWorkspace reserve_dual_workspace(Context &ctx, const TrainOptions &options, const char *method, size_t arrays,
                                     int64_t variables, const SvmRows &rows);
// A single-machine model's end of training: the solve's objective, KKT
// violation and iterations into model.stats, its bias into the machine, the
// workspace released, the time since `start`, progress done.
void finish_single_machine(Context &ctx, Arena &arena, const SvmSolution &solution,
                           std::chrono::steady_clock::time_point start, Model &model);
// Gives `machine` (its coefficients filled, their support-vector indices not)
// to `model` as its one machine, with rows `point_rows` of data (one per
// coefficient) as the model's points and support vectors.
void store_single_machine(Context &ctx, const Dataset &data, const std::vector<int64_t> &point_rows,
                          BinaryMachine machine, Model &model);

}  // namespace kmx
