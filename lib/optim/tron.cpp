// tron.cpp — TRON (see tron.h). The trust-region rules are LIBLINEAR's
// (tron.cpp): η₀, η₁, η₂ decide whether a step is taken and how the radius Δ
// changes, σ₁, σ₂, σ₃ scale it; the first radius is ‖∇f‖ in the M norm, cut
// to the first step's length. CG runs on the quadratic model
//   q(s) = ∇fᵀs + ½ sᵀ∇²f s   within ‖s‖_M <= Δ
// and stops at the boundary or when the residual is small.
#include "tron.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/communicator.h"
#include "core/context.h"

namespace kmx {

namespace {

constexpr double kEta0 = 1e-4, kEta1 = 0.25, kEta2 = 0.75;    // step acceptance / radius thresholds
constexpr double kSigma1 = 0.25, kSigma2 = 0.5, kSigma3 = 4;  // radius scalings
constexpr double kResolution = 1e-12;                         // |Δf| below this · |f| is rounding, not progress
constexpr double kPreconditionMix = 0.01;                     // M = (1 − a)·mean(diag) + a·diag, LIBLINEAR's α_pcg

double dot(const std::vector<double> &a, const std::vector<double> &b) {
    double s = 0;
    for (size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
    return s;
}

// uᵀ M v for the diagonal M.
double m_dot(const std::vector<double> &u, const std::vector<double> &m, const std::vector<double> &v) {
    double s = 0;
    for (size_t i = 0; i < u.size(); ++i) s += u[i] * m[i] * v[i];
    return s;
}

void axpy(double a, const std::vector<double> &x, std::vector<double> &y) {
    for (size_t i = 0; i < x.size(); ++i) y[i] += a * x[i];
}

// The preconditioner at the current point: the Hessian's diagonal mixed with
// its mean (LIBLINEAR mixes with 1, the diagonal of its ½wᵀw term; kmx's
// regulariser need not have unit diagonal), or the identity.
void update_preconditioner(TronFunction &f, bool wanted, std::vector<double> &m) {
    if (!wanted || !f.hessian_diagonal(m.data())) {
        std::fill(m.begin(), m.end(), 1.0);
        return;
    }
    double mean = 0;
    for (double v : m) mean += v;
    mean /= double(m.size());
    if (!(mean > 0) || !std::isfinite(mean)) {
        std::fill(m.begin(), m.end(), 1.0);
        return;
    }
    for (double &v : m) v = (1 - kPreconditionMix) * mean + kPreconditionMix * std::max(v, 0.0);
}

struct CgResult {
    int iterations = 0;
    bool reached_boundary = false;
};

// Preconditioned CG on the trust-region subproblem: s ≈ argmin q(s) with
// ‖s‖_M <= delta, stopped when ‖r‖ <= forcing · ‖∇f‖ (M⁻¹ norms); r = −∇f − ∇²f s on return.
CgResult trust_region_cg(TronFunction &f, double delta, double forcing, const std::vector<double> &g,
                         const std::vector<double> &m, std::vector<double> &s, std::vector<double> &r) {
    const size_t n = g.size();
    std::vector<double> z(n), d(n), hd(n);
    for (size_t i = 0; i < n; ++i) {
        s[i] = 0;
        r[i] = -g[i];
        z[i] = r[i] / m[i];
        d[i] = z[i];
    }
    double ztr = dot(z, r);
    const double stop = forcing * std::sqrt(ztr);
    CgResult result;
    const int max_iterations = int(std::max<size_t>(n, 5));
    while (result.iterations < max_iterations) {
        if (std::sqrt(ztr) <= stop) break;
        ++result.iterations;
        f.hessian_times(d.data(), hd.data());
        const double dhd = dot(d, hd);
        // No curvature left along d (LIBLINEAR's absolute 1e-16 would stop CG
        // early on a function of small scale; only dᵀHd <= 0 ends it here).
        if (!(dhd > 0)) break;
        double alpha = ztr / dhd;
        axpy(alpha, d, s);
        if (std::sqrt(m_dot(s, m, s)) > delta) {
            // Back to the previous s, then to the boundary along d: the
            // positive root τ of ‖s + τd‖_M = Δ.
            result.reached_boundary = true;
            axpy(-alpha, d, s);
            const double std_ = m_dot(s, m, d), sts = m_dot(s, m, s), dtd = m_dot(d, m, d);
            const double dsq = delta * delta, rad = std::sqrt(std_ * std_ + dtd * (dsq - sts));
            alpha = std_ >= 0 ? (dsq - sts) / (std_ + rad) : (rad - std_) / dtd;
            axpy(alpha, d, s);
            axpy(-alpha, hd, r);
            break;
        }
        axpy(-alpha, hd, r);
        for (size_t i = 0; i < n; ++i) z[i] = r[i] / m[i];
        const double ztr_new = dot(z, r), beta = ztr_new / ztr;
        for (size_t i = 0; i < n; ++i) d[i] = z[i] + beta * d[i];
        ztr = ztr_new;
    }
    return result;
}

// LIBLINEAR's radius update from the actual and predicted reductions.
double next_radius(double delta, double actual, double predicted, double f, double f_new, double gs, double s_norm,
                   bool reached_boundary) {
    // α: the minimiser along s of the quadratic through f, gs and f_new, clamped.
    const double alpha = f_new - f - gs <= 0 ? kSigma3 : std::max(kSigma1, -0.5 * (gs / (f_new - f - gs)));
    if (actual < kEta0 * predicted) return std::min(alpha * s_norm, kSigma2 * delta);
    if (actual < kEta1 * predicted) return std::max(kSigma1 * delta, std::min(alpha * s_norm, kSigma2 * delta));
    if (actual < kEta2 * predicted) return std::max(kSigma1 * delta, std::min(alpha * s_norm, kSigma3 * delta));
    if (reached_boundary) return kSigma3 * delta;
    return std::max(delta, std::min(alpha * s_norm, kSigma3 * delta));
}

double norm(const std::vector<double> &v) { return std::sqrt(dot(v, v)); }

// Progress (after an accepted step) and cancellation, agreed over ctx's
// ranks: a cancel that reaches one rank stops every rank at this same step
// with KMX_E_CANCELLED, instead of leaving the others in the next sum.
void report_and_check_cancel(Context *ctx, bool accepted, double fraction) {
    if (!ctx) return;
    run_agreed(ctx->comm, [&] {
        if (accepted) ctx->progress(fraction, "TRON");
        ctx->check_cancel();
    });
}

}  // namespace

TronStats tron_minimize(TronFunction &f, double *w_io, const TronOptions &options, Context *ctx) {
    const size_t n = size_t(f.size());
    TronStats stats;
    std::vector<double> w(w_io, w_io + n), g(n), g_new(n), m(n), s(n), r(n), w_new(n);

    std::vector<double> zero(n, 0.0);  // the stopping test is relative to ‖∇f(0)‖
    f.value(zero.data());
    f.gradient(g.data());
    stats.initial_gradient_norm = norm(g);

    double value = f.value(w.data());
    f.gradient(g.data());
    stats.gradient_norm = norm(g);
    const double goal = options.tolerance * stats.initial_gradient_norm;
    bool search = stats.gradient_norm > goal;
    stats.converged = !search;
    update_preconditioner(f, options.precondition, m);
    double delta = std::sqrt(m_dot(g, m, g));
    bool delta_adjusted = false;
    int attempts = 0;
    while (search && stats.iterations < options.max_iterations) {
        // The forcing term shrinks with the gradient (min(η, √(‖∇f‖/‖∇f(0)‖))), so
        // the Newton steps converge superlinearly near the optimum.
        const double forcing =
            std::min(options.cg_tolerance, std::sqrt(stats.gradient_norm / stats.initial_gradient_norm));
        const CgResult cg = trust_region_cg(f, delta, forcing, g, m, s, r);
        stats.cg_iterations += cg.iterations;
        for (size_t i = 0; i < n; ++i) w_new[i] = w[i] + s[i];
        const double gs = dot(g, s);
        const double predicted = -0.5 * (gs - dot(s, r));  // −q(s), as q(s) = ½(gᵀs − sᵀr)
        const double value_new = f.value(w_new.data());
        double actual = value - value_new;
        // Below f's resolution (LIBLINEAR stops here) the step is judged by the
        // gradient instead: taken, as if predicted exactly, if it shrinks ‖∇f‖.
        const bool unresolved = std::fabs(actual) <= kResolution * std::fabs(value) &&
                                std::fabs(predicted) <= kResolution * std::fabs(value);
        if (unresolved) {
            f.gradient(g_new.data());
            if (!(norm(g_new) < stats.gradient_norm)) break;  // nothing left that f or ∇f can see
            actual = predicted;
        }
        const double s_norm = std::sqrt(m_dot(s, m, s));
        if (!delta_adjusted) {
            delta = std::min(delta, s_norm);
            delta_adjusted = true;
        }
        delta = next_radius(delta, actual, predicted, value, value - actual, gs, s_norm, cg.reached_boundary);
        ++attempts;
        if (actual > kEta0 * predicted) {
            ++stats.iterations;
            w.swap(w_new);
            value = value_new;
            f.gradient(g.data());
            stats.gradient_norm = norm(g);
            update_preconditioner(f, options.precondition, m);
            report_and_check_cancel(ctx, true, double(stats.iterations) / options.max_iterations);
            if (stats.gradient_norm <= goal) {
                stats.converged = true;
                break;
            }
        } else {
            f.value(w.data());  // the next CG's Hessian is at w, not at the rejected w_new
            report_and_check_cancel(ctx, false, 0);
        }
        if (predicted <= 0) break;  // the model predicts no decrease: nothing left to gain
        if (attempts > 10 * options.max_iterations) break;
    }
    stats.value = value;
    std::copy(w.begin(), w.end(), w_io);
    return stats;
}

}  // namespace kmx
