// Cross-validated decision values for Platt scaling (LIBSVM's
// svm_binary_svc_probability), seeded: fold f holds positions
// [f l / 5, (f + 1) l / 5) of a Fisher–Yates shuffle of the l rows.
#include "probability_training.h"

#include <algorithm>
#include <cmath>

#include "core/context.h"
#include "core/dataset.h"
#include "core/rng.h"
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

// Rows at `positions` of the problem as a dense dataset: labels ±1 and the
// rows' cost multipliers as sample weights.
std::unique_ptr<Dataset> fold_dataset(Context &ctx, const Dataset &data, const BinaryRows &problem,
                                      const std::vector<int64_t> &positions, bool with_labels) {
    const int64_t n = int64_t(positions.size());
    ctx.check_budget(Dataset::dense_bytes(n, data.d, with_labels, with_labels), "a probability fold's rows");
    std::vector<int64_t> rows(static_cast<size_t>(n));
    std::vector<double> y(static_cast<size_t>(n)), weight(static_cast<size_t>(n)), x(size_t(n * data.d));
    for (int64_t i = 0; i < n; ++i) {
        rows[size_t(i)] = problem.rows[size_t(positions[size_t(i)])];
        y[size_t(i)] = problem.y[size_t(positions[size_t(i)])];
        weight[size_t(i)] = problem.weight[size_t(positions[size_t(i)])];
    }
    gather_rows(data, rows.data(), n, x.data());
    std::unique_ptr<Dataset> ds = Dataset::dense_copy(x.data(), n, data.d, with_labels ? y.data() : nullptr);
    if (with_labels) ds->set_weights(weight.data());
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
