// probability_training.h — the sigmoid of one binary machine fitted on
// decision values from an internal 5-fold cross-validation, as LIBSVM's
// svm_binary_svc_probability (-b 1): the machine's rows are shuffled (by the
// context's seed: the same seed gives the same folds), each fifth is
// predicted by a machine of the same method trained on the other four
// fifths with the same C_i, and Platt's sigmoid is fitted to those held-out
// decision values (platt_scaling.h).
#pragma once
#include <cstdint>
#include <vector>

#include "kernel/kernel.h"
#include "model/model.h"
#include "model/train_options.h"

namespace kmx {

class Context;
class Dataset;

// The rows of one binary problem: dataset rows, labels ±1 (+1: the machine's
// positive class) and their cost multipliers C_i / C (class weight × sample weight).
struct BinaryRows {
    std::vector<int64_t> rows;
    std::vector<double> y;
    std::vector<double> weight;
};

constexpr int kProbabilityFolds = 5;  // LIBSVM's nr_fold

// Held-out decision values of the problem's rows (in its order) by 5-fold
// cross-validation; `stream` picks the shuffle's random sub-stream. A fold whose
// training part has only one class gets LIBSVM's constant: +1 (positives only),
// −1 (negatives only), 0 (no rows).
std::vector<double> cross_validation_decision_values(Context &ctx, const TrainOptions &options,
                                                     const KernelSpec &kernel, const Dataset &data,
                                                     const BinaryRows &problem, uint64_t stream);

// Platt's sigmoid fitted to those decision values.
PlattSigmoid cross_validated_sigmoid(Context &ctx, const TrainOptions &options, const KernelSpec &kernel,
                                     const Dataset &data, const BinaryRows &problem, uint64_t stream);

}  // namespace kmx
