// tron.h — TRON: a trust-region Newton method whose steps come from
// (optionally diagonally preconditioned) conjugate gradient, as LIBLINEAR's
// tron.cpp runs it (Lin, Weng, Keerthi, "Trust region Newton method for
// large-scale logistic regression", JMLR 2008; Hsia, Chiang, Lin, "Preconditioned
// conjugate gradient methods in truncated Newton frameworks", ACML 2018).
//
// TRON minimises a smooth convex f over w ∈ ℝⁿ, touching f only through the
// function object below: f(w), ∇f(w), Hessian-vector products at the last w
// given to value(), and optionally a positive diagonal preconditioner. Every
// vector operation of TRON itself is on w-sized vectors, so when f is a sum
// over rows spread across ranks (each call AllReduced inside the function
// object), TRON's iterates are the same on every rank.
#pragma once
#include <cstdint>

namespace kmx {

class Context;

class TronFunction {
public:
    virtual ~TronFunction() = default;
    virtual int64_t size() const = 0;
    // f(w); also makes w the point of the next gradient and hessian_times calls.
    virtual double value(const double *w) = 0;
    // g = ∇f at the point of the last value() call.
    virtual void gradient(double *g) = 0;
    // hv = ∇²f v at the point of the last value() call (a generalised
    // Hessian where f is only once differentiable, e.g. squared hinge).
    virtual void hessian_times(const double *v, double *hv) = 0;
    // Fills diag with the Hessian's diagonal at the last value() point and
    // returns true, or returns false when the function has none to offer.
    virtual bool hessian_diagonal(double *) { return false; }
};

struct TronOptions {
    double tolerance = 1e-3;   // stop when ‖∇f(w)‖ <= tolerance · ‖∇f(0)‖
    int max_iterations = 100;  // Newton iterations (accepted steps) at most
    // Inner CG stops when ‖r‖ <= min(cg_tolerance, √(‖∇f‖/‖∇f(0)‖)) · ‖∇f‖ (M⁻¹ norms).
    double cg_tolerance = 0.1;
    bool precondition = true;  // diagonal preconditioner, when the function offers one
};

struct TronStats {
    int iterations = 0;     // accepted Newton steps
    int cg_iterations = 0;  // Hessian-vector products in all
    double value = 0;       // f at the returned w
    double gradient_norm = 0;
    double initial_gradient_norm = 0;  // ‖∇f(0)‖
    bool converged = false;            // the gradient test was met
};

// Minimises f from the starting point in w (n values; a warm start or zeros),
// leaving the result in w. ctx (optional) gives cancellation and progress,
// both agreed over ctx->comm's ranks after every step (one maximum of one
// value): a cancel on any rank stops every rank at the same step.
TronStats tron_minimize(TronFunction &f, double *w, const TronOptions &options, Context *ctx = nullptr);

}  // namespace kmx
