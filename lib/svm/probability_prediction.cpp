// Probabilities from decision values: Platt's sigmoids per machine, then
// pairwise coupling (one-vs-one) or normalisation (one-vs-rest).
#include "probability_prediction.h"

#include <algorithm>
#include <vector>

#include "core/context.h"
#include "core/dataset.h"
#include "core/error.h"
#include "pairwise_coupling.h"
#include "platt_scaling.h"

namespace kmx {

namespace {

constexpr double kMinProbability = 1e-7;            // LIBSVM's min_prob: r_ij stays inside (0, 1)
constexpr int64_t kBlockValues = int64_t(1) << 21;  // 16 MiB of a block's decision values at most

const char *model_kind(const Model &model) {
    if (model.svr()) return "an svr (regression) model";
    if (model.one_class()) return "a one_class model";
    if (model.regression()) return "a regression model";
    if (model.krr()) return "a model of a KRR or nystrom_tron method";
    return nullptr;
}

// r (k x k): r_ij = P(class i | class i or j) from each one-vs-one machine.
void pairwise_estimates(const Model &model, const double *values, std::vector<double> &r) {
    const int64_t k = int64_t(model.classes.size());
    for (size_t m = 0; m < model.machines.size(); ++m) {
        const BinaryMachine &machine = model.machines[m];
        const double p =
            std::clamp(platt_probability(model.sigmoids[m], values[m]), kMinProbability, 1 - kMinProbability);
        r[size_t(machine.positive * k + machine.negative)] = p;
        r[size_t(machine.negative * k + machine.positive)] = 1 - p;
    }
}

void one_vs_rest_probabilities(const Model &model, const double *values, double *p) {
    double sum = 0;
    for (size_t c = 0; c < model.machines.size(); ++c) {
        p[c] = std::max(platt_probability(model.sigmoids[c], values[c]), kMinProbability);
        sum += p[c];
    }
    for (size_t c = 0; c < model.machines.size(); ++c) p[c] /= sum;
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
}

void probabilities_from_decision_values(const Model &model, const double *values, double *p) {
    const int64_t k = int64_t(model.classes.size());
    if (model.multiclass == KMX_MULTICLASS_OVR && k > 2) return one_vs_rest_probabilities(model, values, p);
    std::vector<double> r(size_t(k * k), 0.0);
    pairwise_estimates(model, values, r);
    if (k == 2) {
        p[0] = r[1];  // r_01
        p[1] = r[2];  // r_10
        return;
    }
    couple_pairwise(k, r.data(), p);
}

void model_probabilities(Context &ctx, const Model &model, const Dataset &data, double *out) {
    check_probability_model(model);
    const int64_t k = int64_t(model.classes.size()), m = model.decision_values();
    const int64_t block = std::clamp(kBlockValues / m, int64_t(1), std::max<int64_t>(1, data.n));
    ctx.check_budget(size_t(block * m) * sizeof(double), "a block of probability estimates");
    std::vector<double> values(size_t(block * m));
    for (int64_t begin = 0; begin < data.n; begin += block) {
        const int64_t end = std::min(data.n, begin + block);
        model_decision_values(ctx, model, data.row_range(begin, end), values.data());  // rows read in place
        for (int64_t i = begin; i < end; ++i)
            probabilities_from_decision_values(model, values.data() + (i - begin) * m, out + i * k);
    }
}

}  // namespace kmx
