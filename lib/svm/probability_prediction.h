// probability_prediction.h — class probabilities of an SVM classifier
// trained with probability=1, as LIBSVM's svm_predict_probability: each
// machine's decision value f through its Platt sigmoid (clamped to
// [1e-7, 1 − 1e-7]) gives r_ij = P(class i | i or j); two classes take
// (1 − r, r), more are coupled (pairwise_coupling.h). One-vs-rest machines
// (kmx's own; LIBSVM has none) give P(class c | f_c) each, normalised to sum 1.
#pragma once
#include <cstdint>
#include <vector>

#include "model/model.h"

namespace kmx {

class Context;
class Dataset;

// Fails with KMX_E_INVALID_ARGUMENT (saying why) unless `model` can estimate
// probabilities: a classifier trained with probability=1.
void check_probability_model(const Model &model);

// The model's sigmoids as (A, B) pairs in its machines' order: what a
// compact predictor compressed from it carries, one pair per output.
std::vector<double> sigmoid_pairs(const Model &model);

// Probabilities (rows x k, row-major, each row summing to 1, classes in
// increasing label order) from decision values (rows x sigmoids.size() / 2)
// in the model's machine order, and their (A, B) pairs; one_vs_rest: the
// outputs of more than two classes are one per class. A model's and a
// compact predictor's decision values both go through it.
void probabilities_from_outputs(int64_t k, bool one_vs_rest, const std::vector<double> &sigmoids, const double *values,
                                int64_t rows, double *out);

// n x classes probabilities of every row of data, row-major; rows in blocks
// (the decision values of one block at a time).
void model_probabilities(Context &ctx, const Model &model, const Dataset &data, double *out);

}  // namespace kmx
