// Pairwise coupling (Wu, Lin & Weng 2004, method 2) by their fixed-point
// iteration; see pairwise_coupling.h for Q and the stopping rule.
#include "pairwise_coupling.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace kmx {

namespace {

// Q_tt = Σ_{j≠t} r_jt², Q_tj = −r_jt r_tj.
std::vector<double> coupling_matrix(int64_t k, const double *r) {
    std::vector<double> Q(size_t(k * k), 0);
    for (int64_t t = 0; t < k; ++t)
        for (int64_t j = 0; j < k; ++j) {
            if (j == t) continue;
            Q[size_t(t * k + t)] += r[j * k + t] * r[j * k + t];
            Q[size_t(t * k + j)] = -r[j * k + t] * r[t * k + j];
        }
    return Q;
}

// Qp and pᵀQp, recomputed from scratch (for accuracy) at each sweep's start.
double product(int64_t k, const std::vector<double> &Q, const double *p, std::vector<double> &Qp) {
    double pQp = 0;
    for (int64_t t = 0; t < k; ++t) {
        Qp[size_t(t)] = 0;
        for (int64_t j = 0; j < k; ++j) Qp[size_t(t)] += Q[size_t(t * k + j)] * p[j];
        pQp += p[t] * Qp[size_t(t)];
    }
    return pQp;
}

double largest_error(const std::vector<double> &Qp, double pQp) {
    double error = 0;
    for (double value : Qp) error = std::max(error, std::fabs(value - pQp));
    return error;
}

// One sweep over t: p_t += Δ = (pᵀQp − (Qp)_t) / Q_tt, then p, Qp and pᵀQp
// are divided by (1 + Δ) (pᵀQp by its square) so Σ p stays 1.
void sweep(int64_t k, const std::vector<double> &Q, double *p, std::vector<double> &Qp, double pQp) {
    for (int64_t t = 0; t < k; ++t) {
        const double Qtt = Q[size_t(t * k + t)];
        const double diff = (-Qp[size_t(t)] + pQp) / Qtt;
        p[t] += diff;
        pQp = (pQp + diff * (diff * Qtt + 2 * Qp[size_t(t)])) / (1 + diff) / (1 + diff);
        for (int64_t j = 0; j < k; ++j) {
            Qp[size_t(j)] = (Qp[size_t(j)] + diff * Q[size_t(t * k + j)]) / (1 + diff);
            p[j] /= 1 + diff;
        }
    }
}

}  // namespace

void couple_pairwise(int64_t k, const double *r, double *p) {
    std::fill(p, p + k, 1.0 / double(k));
    const std::vector<double> Q = coupling_matrix(k, r);
    std::vector<double> Qp(static_cast<size_t>(k));
    const int64_t max_iter = std::max<int64_t>(100, k);
    const double eps = 0.005 / double(k);
    for (int64_t iter = 0; iter < max_iter; ++iter) {
        const double pQp = product(k, Q, p, Qp);
        if (largest_error(Qp, pQp) < eps) break;
        sweep(k, Q, p, Qp, pQp);
    }
}

}  // namespace kmx
