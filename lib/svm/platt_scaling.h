// platt_scaling.h — Platt's sigmoid P(y = 1 | f) = 1 / (1 + exp(A f + B))
// fitted to a binary machine's decision values f_i and labels y_i by
// maximum likelihood with smoothed targets, as Lin, Lin & Weng ("A note on
// Platt's probabilistic outputs for support vector machines", 2007) and
// LIBSVM's sigmoid_train: Newton's method on (A, B) with a backtracking line
// search, the Hessian kept positive definite by σ = 1e-12 on its diagonal.
#pragma once
#include <cstdint>

#include "model/model.h"

namespace kmx {

// The sigmoid of largest likelihood for decision values f (n) and labels y
// (n; y_i > 0 is the positive class). Targets are Platt's smoothed ones:
// t_i = (N+ + 1) / (N+ + 2) for positives, 1 / (N- + 2) for negatives.
PlattSigmoid fit_platt_sigmoid(const double *f, const double *y, int64_t n);

// P(positive | f) under `sigmoid`, computed without overflow (exp of a
// non-positive number only): the inference subset's (lib/infer/probability.c).
double platt_probability(const PlattSigmoid &sigmoid, double f);

}  // namespace kmx
