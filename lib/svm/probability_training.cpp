// Cross-validated decision values for Platt scaling (LIBSVM's
// svm_binary_svc_probability), seeded: fold f holds positions
// [f l / 5, (f + 1) l / 5) of a Fisher–Yates shuffle of the l rows.
#include "probability_training.h"

#include <algorithm>
#include <cmath>
#include <memory>

#include "core/context.h"
#include "core/dataset.h"
#include "core/rng.h"
#include "core/row_subset.h"
#include "core/step_context.h"
#include "multiclass.h"
#include "platt_scaling.h"

namespace kmx {

namespace {

std::vector<int64_t> shuffled_positions(int64_t l, uint64_t seed, uint64_t stream) {
    std::vector<int64_t> perm(static_cast<size_t>(l));
    for (int64_t i = 0; i < l; ++i) perm[size_t(i)] = i;
    Rng rng = Rng(seed).split(stream);
    for (int64_t i = 0; i < l; ++i) std::swap(perm[size_t(i)], perm[size_t(i + int64_t(rng.below(uint64_t(l - i))))]);
    return perm;
}

// Positions (into the problem) of a fold's training part or its held-out part.
struct Fold {
    std::vector<int64_t> train;
    std::vector<int64_t> test;
};

Fold fold_positions(const std::vector<int64_t> &perm, int fold) {
    const int64_t l = int64_t(perm.size());
    const int64_t begin = fold * l / kProbabilityFolds, end = (fold + 1) * l / kProbabilityFolds;
    Fold f;
    f.test.assign(perm.begin() + begin, perm.begin() + end);
    f.train.assign(perm.begin(), perm.begin() + begin);
    f.train.insert(f.train.end(), perm.begin() + end, perm.end());
    return f;
}

// LIBSVM's value for a fold whose training part lacks a class, or NaN when it has both.
double constant_decision_value(const BinaryRows &problem, const std::vector<int64_t> &train) {
    bool positive = false, negative = false;
    for (int64_t p : train) (problem.y[size_t(p)] > 0 ? positive : negative) = true;
    if (positive && negative) return NAN;
    return positive ? 1.0 : negative ? -1.0 : 0.0;
}

// A fold's labels ±1 and cost multipliers, which its dataset keeps alive.
struct FoldLabels {
    std::vector<double> y, w;
};

// Rows at `positions` of the problem (copy_row_subset: dense or CSR as the
// data) with labels ±1 and the rows' cost multipliers as sample weights.
std::unique_ptr<Dataset> fold_dataset(Context &ctx, const Dataset &data, const BinaryRows &problem,
                                      const std::vector<int64_t> &positions, bool with_labels) {
    auto labels = std::make_shared<FoldLabels>();
    std::vector<int64_t> rows;
    for (int64_t p : positions) {
        rows.push_back(problem.rows[size_t(p)]);
        labels->y.push_back(problem.y[size_t(p)]);
        labels->w.push_back(problem.weight[size_t(p)]);
    }
    std::unique_ptr<Dataset> ds =
        copy_row_subset(ctx, data, rows.data(), int64_t(rows.size()), "a probability fold's rows");
    ds->y = with_labels ? labels->y.data() : nullptr;
    ds->w = with_labels ? labels->w.data() : nullptr;
    ds->keep_alive(std::move(labels));
    return ds;
}

// The decision values of the fold's held-out part by a binary machine trained
// on its training part (C_i = C × weight_i, no class weights, no
// probabilities); training and prediction are two steps of the fold's progress.
std::vector<double> predict_fold(Context &ctx, const TrainOptions &options, const KernelSpec &kernel,
                                 const Dataset &data, const BinaryRows &problem, const Fold &fold) {
    TrainOptions sub = options;
    sub.probability = false;
    sub.class_weights.clear();
    const Model model = run_step(ctx, 0, 2, "a fold's machine", [&](Context &step) {
        return train_svm_model(step, sub, kernel, *fold_dataset(step, data, problem, fold.train, true));
    });
    return run_step(ctx, 1, 2, "a fold's held-out rows", [&](Context &step) {
        const std::unique_ptr<Dataset> test = fold_dataset(step, data, problem, fold.test, false);
        std::vector<double> values(fold.test.size());
        model_decision_values(step, model, *test, values.data());  // one machine, > 0 for +1
        return values;
    });
}

}  // namespace

std::vector<double> cross_validation_decision_values(Context &ctx, const TrainOptions &options,
                                                     const KernelSpec &kernel, const Dataset &data,
                                                     const BinaryRows &problem, uint64_t stream) {
    const std::vector<int64_t> perm = shuffled_positions(int64_t(problem.rows.size()), ctx.seed, stream);
    std::vector<double> values(perm.size(), 0.0);
    for (int f = 0; f < kProbabilityFolds; ++f) {
        const Fold fold = fold_positions(perm, f);
        const double constant = constant_decision_value(problem, fold.train);
        if (!std::isnan(constant)) {
            for (int64_t p : fold.test) values[size_t(p)] = constant;
            continue;
        }
        const std::vector<double> held_out =
            run_step(ctx, f, kProbabilityFolds, "a probability fold",
                     [&](Context &step) { return predict_fold(step, options, kernel, data, problem, fold); });
        for (size_t i = 0; i < fold.test.size(); ++i) values[size_t(fold.test[i])] = held_out[i];
    }
    return values;
}

PlattSigmoid cross_validated_sigmoid(Context &ctx, const TrainOptions &options, const KernelSpec &kernel,
                                     const Dataset &data, const BinaryRows &problem, uint64_t stream) {
    const std::vector<double> values = cross_validation_decision_values(ctx, options, kernel, data, problem, stream);
    return fit_platt_sigmoid(values.data(), problem.y.data(), int64_t(values.size()));
}

}  // namespace kmx
