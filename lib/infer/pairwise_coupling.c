/* pairwise_coupling.c — class probabilities p (k) from pairwise estimates
 * r_ij ≈ P(y = i | y ∈ {i, j}), by the second method of Wu, Lin & Weng
 * ("Probability estimates for multi-class classification by pairwise
 * coupling", JMLR 2004), as LIBSVM's multiclass_probability:
 *   min_p ½ pᵀQ p  subject to  Σ_i p_i = 1,
 *   Q_tt = Σ_{j≠t} r_jt²,  Q_tj = −r_jt r_tj (j ≠ t),
 * solved by the fixed-point iteration of their Theorem (each p_t moved to
 * satisfy (Qp)_t = pᵀQp, then p renormalised) until max_t |(Qp)_t − pᵀQp|
 * < 0.005 / k, or max(100, k) sweeps. kmx's one implementation: the full
 * library's models (lib/svm) and the inference subset both call it. */
#include <math.h>

#include "probability.h"

/* Q_tt = Σ_{j≠t} r_jt², Q_tj = −r_jt r_tj. */
static void coupling_matrix(size_t k, const double *r, double *Q) {
    size_t t, j;
    for (t = 0; t < k * k; ++t) Q[t] = 0;
    for (t = 0; t < k; ++t)
        for (j = 0; j < k; ++j) {
            if (j == t) continue;
            Q[t * k + t] += r[j * k + t] * r[j * k + t];
            Q[t * k + j] = -r[j * k + t] * r[t * k + j];
        }
}

/* Qp and pᵀQp, recomputed from scratch (for accuracy) at each sweep's start. */
static double product(size_t k, const double *Q, const double *p, double *Qp) {
    double pQp = 0;
    size_t t, j;
    for (t = 0; t < k; ++t) {
        Qp[t] = 0;
        for (j = 0; j < k; ++j) Qp[t] += Q[t * k + j] * p[j];
        pQp += p[t] * Qp[t];
    }
    return pQp;
}

static double largest_error(size_t k, const double *Qp, double pQp) {
    double error = 0;
    size_t t;
    for (t = 0; t < k; ++t) {
        const double e = fabs(Qp[t] - pQp);
        if (e > error) error = e;
    }
    return error;
}

/* One sweep over t: p_t += Δ = (pᵀQp − (Qp)_t) / Q_tt, then p, Qp and pᵀQp
 * are divided by (1 + Δ) (pᵀQp by its square) so Σ p stays 1. */
static void sweep(size_t k, const double *Q, double *p, double *Qp, double pQp) {
    size_t t, j;
    for (t = 0; t < k; ++t) {
        const double Qtt = Q[t * k + t];
        const double diff = (-Qp[t] + pQp) / Qtt;
        p[t] += diff;
        pQp = (pQp + diff * (diff * Qtt + 2 * Qp[t])) / (1 + diff) / (1 + diff);
        for (j = 0; j < k; ++j) {
            Qp[j] = (Qp[j] + diff * Q[t * k + j]) / (1 + diff);
            p[j] /= 1 + diff;
        }
    }
}

void kmx_infer__couple_pairwise(size_t k, const double *r, double *p, double *work) {
    double *Q = work, *Qp = work + k * k;
    const size_t max_iter = k > 100 ? k : 100;
    const double eps = 0.005 / (double)k;
    size_t t, iter;
    for (t = 0; t < k; ++t) p[t] = 1.0 / (double)k;
    coupling_matrix(k, r, Q);
    for (iter = 0; iter < max_iter; ++iter) {
        const double pQp = product(k, Q, p, Qp);
        if (largest_error(k, Qp, pQp) < eps) break;
        sweep(k, Q, p, Qp, pQp);
    }
}
