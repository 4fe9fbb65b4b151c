// probability_prediction.h — class probabilities of an SVM classifier
// trained with probability=1, as LIBSVM's svm_predict_probability: each
// machine's decision value f through its Platt sigmoid (clamped to
// [1e-7, 1 − 1e-7]) gives r_ij = P(class i | i or j); two classes take
// (1 − r, r), more are coupled (pairwise_coupling.h). One-vs-rest machines
// (kmx's own; LIBSVM has none) give P(class c | f_c) each, normalised to sum 1.
#pragma once
#include <cstdint>

#include "model/model.h"

namespace kmx {

class Context;
class Dataset;

// Fails with KMX_E_INVALID_ARGUMENT (saying why) unless `model` can estimate
// probabilities: a classifier trained with probability=1.
void check_probability_model(const Model &model);

// The probabilities of one row from its decision values (model.decision_values()):
// classes values in the model's class order, summing to 1.
void probabilities_from_decision_values(const Model &model, const double *values, double *p);

// n x classes probabilities of every row of data, row-major; rows in blocks
// (the decision values of one block at a time).
void model_probabilities(Context &ctx, const Model &model, const Dataset &data, double *out);

}  // namespace kmx
