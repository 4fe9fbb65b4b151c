// cross_validation.h — k-fold cross-validation as LIBSVM's
// svm_cross_validation: the rows split into k folds, and each row predicted
// by the model trained on the other k − 1 folds. Classification folds are
// stratified (each class spread over the folds as evenly as its count
// allows, LIBSVM's rule for C-SVC); regression and one-class folds are a
// plain random split. Seeded by the context's seed: the same call gives the
// same folds and, for the same thread count, the same predictions.
#pragma once
#include <cstdint>
#include <vector>

#include "kernel/kernel.h"
#include "kmx/kmx.h"
#include "model/train_options.h"

namespace kmx {

class Context;
class Dataset;

// The fold (0..folds-1) of each of the n rows with labels y: stratified by
// label (rows of one label shuffled, then cut into `folds` near-equal runs)
// or a shuffled split of all rows into near-equal runs.
std::vector<int> cross_validation_folds(const double *y, int64_t n, int folds, bool stratified, uint64_t seed);

// Whether options' method, on these labels, trains a classifier (its folds
// are then stratified): the SVM classifiers always; KRR and Nyström-TRON
// unless their task is regression or (auto) the labels are not class labels.
bool stratified_folds_for(const TrainOptions &options, const Dataset &data);

// Writes each row's prediction (a label; a value for regression) by the
// model trained without its fold into out (data.n), and returns the task of
// those models. Folds train at once on the context's threads when the budget
// holds their copies of the rows (each worker gets an even share of threads
// and budget), else one after another. Fails with KMX_E_INVALID_ARGUMENT for
// data without labels, folds < 2 or folds > data.n, and passes on a fold's
// failure with the fold named.
kmx_task cross_validate(Context &ctx, const TrainOptions &options, const KernelSpec &kernel, const Dataset &data,
                        int64_t folds, double *out);

// Values of one parameter, C or lambda (KMX_PARAM_C, KMX_PARAM_LAMBDA), to
// cross-validate on the same folds.
struct ValuePath {
    kmx_param param;
    std::vector<double> values;  // positive, finite, any order
};
// cross_validate at every value of the path, on the same folds and the same
// copies of their rows: value v's predictions at out + v·data.n (out holds
// values.size() × data.n). Each fold trains the values in increasing order,
// the methods svm and dcsvm warm started from the previous value's solution
// (see train_svm_model): the same models to the solver's tolerance, in a
// fraction of the iterations. Along lambda the KRR methods keep per fold
// what does not depend on it (krr/krr_path_cache.h): the same models (exact
// KRR to rounding), the kept parts charged to the fold's budget.
kmx_task cross_validate_path(Context &ctx, const TrainOptions &options, const KernelSpec &kernel, const Dataset &data,
                             int64_t folds, const ValuePath &path, double *out);

}  // namespace kmx
