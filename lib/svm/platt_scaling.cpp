// Platt scaling: Newton's method for the sigmoid's (A, B), in the notation
// of Lin, Lin & Weng (2007), Algorithm 1. With p_i = 1 / (1 + exp(A f_i + B)),
// the objective is the cross-entropy
//   F(A, B) = Σ_i t_i (A f_i + B) + log(1 + exp(−(A f_i + B)))
// and its gradient and Hessian are
//   g = (Σ f_i (t_i − p_i), Σ (t_i − p_i)),
//   H = Σ p_i (1 − p_i) [f_i², f_i; f_i, 1] + σ I.
#include "platt_scaling.h"

#include <cmath>
#include <vector>

#include "infer/probability.h"

namespace kmx {

namespace {

constexpr int kMaxIterations = 100;
constexpr double kMinStep = 1e-10;  // the line search gives up below it
constexpr double kSigma = 1e-12;    // keeps H strictly positive definite
constexpr double kEps = 1e-5;       // |g| below it in both coordinates: converged

struct Targets {
    std::vector<double> t;
    double positives = 0;
    double negatives = 0;
};

Targets smoothed_targets(const double *y, int64_t n) {
    Targets targets;
    for (int64_t i = 0; i < n; ++i) (y[i] > 0 ? targets.positives : targets.negatives) += 1;
    const double hi = (targets.positives + 1) / (targets.positives + 2);
    const double lo = 1 / (targets.negatives + 2);
    targets.t.resize(size_t(n));
    for (int64_t i = 0; i < n; ++i) targets.t[size_t(i)] = y[i] > 0 ? hi : lo;
    return targets;
}

// One term t (A f + B) + log(1 + exp(−(A f + B))), stable for either sign.
double cross_entropy(double t, double fApB) {
    return fApB >= 0 ? t * fApB + std::log1p(std::exp(-fApB)) : (t - 1) * fApB + std::log1p(std::exp(fApB));
}

double objective(const PlattSigmoid &s, const double *f, const std::vector<double> &t) {
    double sum = 0;
    for (size_t i = 0; i < t.size(); ++i) sum += cross_entropy(t[i], f[i] * s.A + s.B);
    return sum;
}

struct NewtonSystem {
    double h11 = kSigma, h22 = kSigma, h21 = 0;  // H + σ I
    double g1 = 0, g2 = 0;                       // g
};

NewtonSystem newton_system(const PlattSigmoid &s, const double *f, const std::vector<double> &t) {
    NewtonSystem sys;
    for (size_t i = 0; i < t.size(); ++i) {
        const double p = platt_probability(s, f[i]);
        const double pq = p * (1 - p);
        sys.h11 += f[i] * f[i] * pq;
        sys.h22 += pq;
        sys.h21 += f[i] * pq;
        sys.g1 += f[i] * (t[i] - p);
        sys.g2 += t[i] - p;
    }
    return sys;
}

// Backtracking along the Newton direction d = −H⁻¹ g until Armijo's
// condition F(s + λd) < F(s) + 1e-4 λ gᵀd holds; false if λ falls below kMinStep.
bool line_search(const NewtonSystem &sys, const double *f, const std::vector<double> &t, PlattSigmoid &s,
                 double &fval) {
    const double det = sys.h11 * sys.h22 - sys.h21 * sys.h21;
    const double dA = -(sys.h22 * sys.g1 - sys.h21 * sys.g2) / det;
    const double dB = -(-sys.h21 * sys.g1 + sys.h11 * sys.g2) / det;
    const double gd = sys.g1 * dA + sys.g2 * dB;
    for (double step = 1; step >= kMinStep; step /= 2) {
        const PlattSigmoid trial{s.A + step * dA, s.B + step * dB};
        const double trial_value = objective(trial, f, t);
        if (trial_value < fval + 1e-4 * step * gd) {
            s = trial;
            fval = trial_value;
            return true;
        }
    }
    return false;
}

}  // namespace

PlattSigmoid fit_platt_sigmoid(const double *f, const double *y, int64_t n) {
    const Targets targets = smoothed_targets(y, n);
    PlattSigmoid s{0, std::log((targets.negatives + 1) / (targets.positives + 1))};
    double fval = objective(s, f, targets.t);
    for (int iter = 0; iter < kMaxIterations; ++iter) {
        const NewtonSystem sys = newton_system(s, f, targets.t);
        if (std::fabs(sys.g1) < kEps && std::fabs(sys.g2) < kEps) break;
        if (!line_search(sys, f, targets.t, s, fval)) break;
    }
    return s;
}

double platt_probability(const PlattSigmoid &sigmoid, double f) {
    return kmx_infer__platt_probability(sigmoid.A, sigmoid.B, f);
}

}  // namespace kmx
