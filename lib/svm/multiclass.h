// multiclass.h — training a Model: the binary problems of a multiclass
// dataset (one-vs-one in LIBSVM's order, or one-vs-rest), each solved by the
// dual SVM solver or DC-SVM, collected into one model with shared support
// vectors.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "kernel/kernel.h"
#include "kmx/kmx.h"
#include "model/model.h"
#include "model/train_options.h"
#include "dcsvm.h"
#include "svm_dual.h"

namespace kmx {

class Context;
class Dataset;

// What the SVM methods and svr (svr.h) share.
// The dual solver's options that `options` asks for, with this kernel cache.
SvmOptions svm_options(const TrainOptions &options, size_t cache_bytes);
// The smallest workspace a problem of n variables can be solved in: the
// solver's with a kernel cache of two columns.
size_t smallest_solver_bytes(int64_t n, const SvmRows &d);
// The kernel cache of one dual solve of n variables: as asked, or what the
// budget leaves after `held` bytes and the solver's other arrays.
size_t svm_cache_bytes(const Context &ctx, const TrainOptions &options, int64_t n, const SvmRows &d, size_t held);
// Throws KMX_E_INVALID_ARGUMENT unless C is positive and finite.
void check_cost(double C);
// DC-SVM's options that `options` asks for (levels, clusters_per_level,
// sample_size, the early level of dcsvm_early and bka, the dual solver's).
DcsvmOptions dcsvm_options(const TrainOptions &options);

// The dual solutions α of a model's binary problems, one vector per problem
// over its rows (in dataset order): what the next training on the same rows
// and labels with another C starts from (a solution for C is feasible for
// any larger C, so a path of increasing C takes few iterations per step).
// And the kernel rows those trainings share (Q does not depend on C): made at
// the first training with half of what the budget leaves, kept while the
// data and kernel stay the same (kernel_row_store.h).
struct SvmWarmStart {
    std::vector<std::vector<double>> alpha;
    std::shared_ptr<KernelRowStore> shared_rows;
};

// Trains an SVM model on data (labels required, at least two classes).
// Sample weights, if any, multiply C per row. (krr/train_krr.h trains the KRR
// methods; train/train.h picks.) With `warm` (methods svm and dcsvm, whose
// models are the exact solution): each binary problem starts from warm's α
// when it holds one of the problem's size, by the dual solver alone (DC-SVM's
// levels only find a good start), and leaves its solution there.
Model train_svm_model(Context &ctx, const TrainOptions &options, const KernelSpec &kernel, const Dataset &data,
                      SvmWarmStart *warm = nullptr);

}  // namespace kmx
