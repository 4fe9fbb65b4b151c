// Probabilities from decision values: Platt's sigmoids per machine, then
// pairwise coupling (one-vs-one) or normalisation (one-vs-rest), by the
// inference subset's one implementation (lib/infer/probability.c).
#include "probability_prediction.h"

#include <algorithm>
#include <vector>

#include "core/context.h"
#include "core/dataset.h"
#include "core/error.h"
#include "infer/probability.h"

namespace kmx {

namespace {

constexpr int64_t kBlockValues = int64_t(1) << 21;  // 16 MiB of a block's decision values at most

const char *model_kind(const Model &model) {
    if (model.svr()) return "an svr (regression) model";
    if (model.one_class()) return "a one_class model";
    if (model.regression()) return "a regression model";
    if (model.krr()) return "a model of a KRR or nystrom_tron method";
    return nullptr;
}

// The machines in the order probability.c reads the outputs: two classes,
// positive = 1; one-vs-rest, positive = c; one-vs-one, (i, j) in LIBSVM's order.
bool machines_in_output_order(const Model &model) {
    const int32_t k = int32_t(model.classes.size());
    if (k == 2) return model.machines.size() == 1 && model.machines[0].positive == 1;
    size_t m = 0;
    for (int32_t i = 0; i < k; ++i) {
        if (model.multiclass == KMX_MULTICLASS_OVR) {
            if (m >= model.machines.size() || model.machines[m++].positive != i) return false;
            continue;
        }
        for (int32_t j = i + 1; j < k; ++j, ++m)
            if (m >= model.machines.size() || model.machines[m].positive != i || model.machines[m].negative != j)
                return false;
    }
    return m == model.machines.size();
}

}  // namespace

void check_probability_model(const Model &model) {
    if (const char *kind = model_kind(model))
        fail(KMX_E_INVALID_ARGUMENT,
             "%s has no probability estimates: they are for the SVM classifiers (methods "
             "svm, dcsvm, dcsvm_early, bka)",
             kind);
    if (!model.probabilities())
        fail(KMX_E_INVALID_ARGUMENT,
             "the model was trained without probability estimates (train it with "
             "probability=1, kmx train -b 1)");
    if (!machines_in_output_order(model))
        fail(KMX_E_INTERNAL, "the model's machines are not in the order of its decision values");
}

std::vector<double> sigmoid_pairs(const Model &model) {
    std::vector<double> pairs;
    pairs.reserve(2 * model.sigmoids.size());
    for (const PlattSigmoid &s : model.sigmoids) pairs.insert(pairs.end(), {s.A, s.B});
    return pairs;
}

void probabilities_from_outputs(int64_t k, bool one_vs_rest, const std::vector<double> &sigmoids, const double *values,
                                int64_t rows, double *out) {
    const int64_t outputs = int64_t(sigmoids.size() / 2);
    std::vector<double> work(kmx_infer__probability_work(size_t(k)));
    for (int64_t i = 0; i < rows; ++i)
        kmx_infer__probabilities(size_t(k), one_vs_rest && k > 2, sigmoids.data(), values + i * outputs, out + i * k,
                                 work.data());
}

void model_probabilities(Context &ctx, const Model &model, const Dataset &data, double *out) {
    check_probability_model(model);
    const int64_t k = int64_t(model.classes.size()), m = model.decision_values();
    const int64_t block = std::clamp(kBlockValues / m, int64_t(1), std::max<int64_t>(1, data.n));
    ctx.check_budget(size_t(block * m) * sizeof(double), "a block of probability estimates");
    const std::vector<double> sigmoids = sigmoid_pairs(model);
    std::vector<double> values(size_t(block * m));
    for (int64_t begin = 0; begin < data.n; begin += block) {
        const int64_t end = std::min(data.n, begin + block);
        model_decision_values(ctx, model, data.row_range(begin, end), values.data());  // rows read in place
        probabilities_from_outputs(k, model.multiclass == KMX_MULTICLASS_OVR, sigmoids, values.data(), end - begin,
                                   out + begin * k);
    }
}

}  // namespace kmx
