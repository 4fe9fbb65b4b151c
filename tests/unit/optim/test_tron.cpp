// test_tron.cpp — TRON against closed forms and an independent Newton
// solver: a convex quadratic (minimiser A⁻¹b), L2-regularised logistic
// regression (a plain Newton iteration with exact Hessian solves written
// here), with and without the diagonal preconditioner, and warm starts.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "../common/dense_solve.h"
#include "optim/tron.h"

namespace {

using Matrix = std::vector<double>;  // row-major, n x n
using test_common::dense_solve;

// f(w) = ½ wᵀAw − bᵀw with A = GᵀG + 0.1 I (badly scaled columns).
struct Quadratic : kmx::TronFunction {
    Matrix a;
    std::vector<double> b, w;
    explicit Quadratic(size_t n) : a(n * n), b(n) {
        std::mt19937_64 gen(7);
        std::normal_distribution<double> normal;
        Matrix g(n * n);
        for (size_t i = 0; i < n * n; ++i)
            g[i] = normal(gen) * (1 + 0.1 * double(i % n));  // column j scaled by 1 + j/10
        for (size_t i = 0; i < n; ++i)
            for (size_t j = 0; j < n; ++j) {
                double s = i == j ? 0.1 : 0;
                for (size_t k = 0; k < n; ++k) s += g[k * n + i] * g[k * n + j];
                a[i * n + j] = s;
            }
        for (double &v : b) v = normal(gen);
    }
    int64_t size() const override { return int64_t(b.size()); }
    double value(const double *x) override {
        w.assign(x, x + b.size());
        const size_t n = b.size();
        double f = 0;
        for (size_t i = 0; i < n; ++i) {
            double ax = 0;
            for (size_t j = 0; j < n; ++j) ax += a[i * n + j] * x[j];
            f += 0.5 * x[i] * ax - b[i] * x[i];
        }
        return f;
    }
    void gradient(double *g) override {
        hessian_times(w.data(), g);
        for (size_t i = 0; i < b.size(); ++i) g[i] -= b[i];
    }
    void hessian_times(const double *v, double *hv) override {
        const size_t n = b.size();
        for (size_t i = 0; i < n; ++i) {
            hv[i] = 0;
            for (size_t j = 0; j < n; ++j) hv[i] += a[i * n + j] * v[j];
        }
    }
    bool hessian_diagonal(double *d) override {
        for (size_t i = 0; i < b.size(); ++i) d[i] = a[i * b.size() + i];
        return true;
    }
};

// f(w) = ½‖w‖² + C Σ log(1 + exp(−y_i x_iᵀw)).
struct Logistic : kmx::TronFunction {
    size_t n, d;
    double c;
    std::vector<double> x, y, w, sigma;
    Logistic(size_t rows, size_t cols, double cost) : n(rows), d(cols), c(cost), x(rows * cols), y(rows) {
        std::mt19937_64 gen(11);
        std::normal_distribution<double> normal;
        std::vector<double> truth(d);
        for (double &v : truth) v = normal(gen);
        for (size_t i = 0; i < n; ++i) {
            double s = 0;
            for (size_t j = 0; j < d; ++j) s += (x[i * d + j] = normal(gen)) * truth[j];
            y[i] = s + 0.5 * normal(gen) > 0 ? 1 : -1;
        }
    }
    double margin(const double *v, size_t i) const {
        double s = 0;
        for (size_t j = 0; j < d; ++j) s += x[i * d + j] * v[j];
        return y[i] * s;
    }
    int64_t size() const override { return int64_t(d); }
    double value(const double *v) override {
        w.assign(v, v + d);
        sigma.resize(n);
        double f = 0;
        for (size_t j = 0; j < d; ++j) f += 0.5 * v[j] * v[j];
        for (size_t i = 0; i < n; ++i) {
            const double t = margin(v, i);
            f += c * (t > 0 ? std::log1p(std::exp(-t)) : -t + std::log1p(std::exp(t)));
            sigma[i] = 1 / (1 + std::exp(t));  // σ(−t)
        }
        return f;
    }
    void gradient(double *g) override {
        for (size_t j = 0; j < d; ++j) g[j] = w[j];
        for (size_t i = 0; i < n; ++i)
            for (size_t j = 0; j < d; ++j) g[j] -= c * sigma[i] * y[i] * x[i * d + j];
    }
    void hessian_times(const double *v, double *hv) override {
        for (size_t j = 0; j < d; ++j) hv[j] = v[j];
        for (size_t i = 0; i < n; ++i) {
            double xv = 0;
            for (size_t j = 0; j < d; ++j) xv += x[i * d + j] * v[j];
            const double weight = c * sigma[i] * (1 - sigma[i]);
            for (size_t j = 0; j < d; ++j) hv[j] += weight * xv * x[i * d + j];
        }
    }
};

// The reference: Newton's method with the Hessian formed and solved directly
// and a backtracking line search, to a gradient of 1e-13.
std::vector<double> newton_reference(Logistic &f) {
    const size_t d = f.d;
    std::vector<double> w(d, 0.0), g(d), e(d), step;
    for (int it = 0; it < 100; ++it) {
        const double value = f.value(w.data());
        f.gradient(g.data());
        double gnorm = 0;
        for (double v : g) gnorm += v * v;
        if (std::sqrt(gnorm) < 1e-13) break;
        Matrix h(d * d);
        for (size_t j = 0; j < d; ++j) {
            std::fill(e.begin(), e.end(), 0.0);
            e[j] = 1;
            f.hessian_times(e.data(), h.data() + j * d);  // column j (H is symmetric)
        }
        std::vector<double> minus_g(d);
        for (size_t j = 0; j < d; ++j) minus_g[j] = -g[j];
        step = dense_solve(h, minus_g);
        double t = 1;
        std::vector<double> trial(d);
        for (;;) {
            for (size_t j = 0; j < d; ++j) trial[j] = w[j] + t * step[j];
            if (f.value(trial.data()) <= value || t < 1e-10) break;
            t /= 2;
        }
        w = trial;
    }
    return w;
}

double max_abs_difference(const std::vector<double> &a, const std::vector<double> &b) {
    double worst = 0;
    for (size_t i = 0; i < a.size(); ++i) worst = std::max(worst, std::fabs(a[i] - b[i]));
    return worst;
}

}  // namespace

TEST(Tron, QuadraticReachesTheSolutionOfTheLinearSystem) {
    for (bool precondition : {false, true}) {
        Quadratic f(30);
        std::vector<double> w(30, 0.0);
        kmx::TronOptions o;
        o.tolerance = 1e-9;
        o.precondition = precondition;
        const kmx::TronStats stats = kmx::tron_minimize(f, w.data(), o);
        const std::vector<double> exact = dense_solve(f.a, f.b);
        EXPECT_LT(max_abs_difference(w, exact), 1e-6) << "precondition " << precondition;
        EXPECT_TRUE(stats.converged);
        EXPECT_LE(stats.gradient_norm, 1e-9 * stats.initial_gradient_norm);
    }
}

TEST(Tron, LogisticRegressionMatchesNewtonsMethod) {
    Logistic reference_problem(200, 6, 2.0);
    const std::vector<double> reference = newton_reference(reference_problem);
    for (bool precondition : {false, true}) {
        Logistic f(200, 6, 2.0);
        std::vector<double> w(6, 0.0);
        kmx::TronOptions o;
        o.tolerance = 1e-8;
        o.precondition = precondition;
        const kmx::TronStats stats = kmx::tron_minimize(f, w.data(), o);
        EXPECT_LT(max_abs_difference(w, reference), 1e-6);
        EXPECT_TRUE(stats.converged);
        EXPECT_GT(stats.iterations, 1);
        EXPECT_LT(stats.iterations, 30);
    }
}

TEST(Tron, AWarmStartAtTheOptimumTakesNoStep) {
    Logistic f(100, 4, 1.0);
    std::vector<double> w = newton_reference(f);
    const std::vector<double> optimum = w;
    kmx::TronOptions o;
    o.tolerance = 1e-6;
    const kmx::TronStats stats = kmx::tron_minimize(f, w.data(), o);
    EXPECT_EQ(stats.iterations, 0);
    EXPECT_EQ(stats.cg_iterations, 0);
    EXPECT_EQ(w, optimum);
}

TEST(Tron, StopsAtTheIterationLimit) {
    Quadratic f(30);
    std::vector<double> w(30, 0.0);
    kmx::TronOptions o;
    o.tolerance = 1e-14;
    o.max_iterations = 2;
    const kmx::TronStats stats = kmx::tron_minimize(f, w.data(), o);
    EXPECT_EQ(stats.iterations, 2);
    EXPECT_FALSE(stats.converged);
}
