// nystrom_objective.cpp — f, ∇f and ∇²f v of the Nyström primal (see
// nystrom_objective.h), one pass over C's row blocks and one AllReduce each.
#include "nystrom_objective.h"

#include <algorithm>
#include <cmath>

#include "linalg/linalg.h"

namespace kmx {

using linalg::Trans;

LossTerms loss_terms(TronLoss loss, double y, double z) {
    switch (loss) {
        case TronLoss::squared_hinge: {
            const double margin = 1 - y * z;
            if (margin <= 0) return {0, 0, 0};
            return {margin * margin, -2 * y * margin, 2};
        }
        case TronLoss::logistic: {
            const double t = y * z;
            // log(1 + e^{−t}) and σ(−t) = 1/(1 + e^{t}), without overflow.
            const double value = t > 0 ? std::log1p(std::exp(-t)) : -t + std::log1p(std::exp(t));
            const double sigma = t > 0 ? std::exp(-t) / (1 + std::exp(-t)) : 1 / (1 + std::exp(t));
            return {value, -y * sigma, sigma * (1 - sigma)};
        }
        case TronLoss::squared:
        default:
            return {(z - y) * (z - y), 2 * (z - y), 2};
    }
}

NystromObjective::NystromObjective(const Communicator &comm, BasisColumns &columns, TronLoss loss, const double *y,
                                   const double *cost, double *row_scratch, bool with_diagonal, int threads)
    : comm_(comm),
      columns_(columns),
      loss_(loss),
      y_(y),
      cost_(cost),
      z_(row_scratch),
      first_(row_scratch + columns.rows()),
      curvature_(row_scratch + 2 * columns.rows()),
      with_diagonal_(with_diagonal),
      threads_(threads) {}

void NystromObjective::add_gram_times(const double *v, double *out) const {
    const int64_t m = columns_.m();
    linalg::gemv(Trans::No, m, m, 1.0, columns_.gram(), columns_.capacity(), v, 1.0, out, threads_);
}

double NystromObjective::value(const double *beta) {
    const int64_t m = columns_.m();
    reduced_.assign(size_t(1 + 2 * m), 0.0);
    double *loss_sum = &reduced_[0], *data_gradient = &reduced_[1], *data_diagonal = &reduced_[1 + m];
    columns_.for_each_block([&](int64_t begin, int64_t end, const double *block, int64_t ld) {
        const int64_t rows = end - begin;
        linalg::gemv(Trans::No, rows, m, 1.0, block, ld, beta, 0.0, z_ + begin, threads_);
        for (int64_t i = begin; i < end; ++i) {
            const LossTerms t = loss_terms(loss_, y_[i], z_[i]);
            *loss_sum += cost_[i] * t.value;
            first_[i] = cost_[i] * t.first;
            curvature_[i] = cost_[i] * t.second;
        }
        linalg::gemv(Trans::Yes, rows, m, 1.0, block, ld, first_ + begin, 1.0, data_gradient, threads_);
        if (!with_diagonal_) return;
        for (int64_t i = 0; i < rows; ++i) {  // Σ_i D_i c_ij²
            const double *row = block + i * ld, weight = curvature_[begin + i];
            if (weight == 0) continue;
            for (int64_t j = 0; j < m; ++j) data_diagonal[j] += weight * row[j] * row[j];
        }
    });
    comm_.sum(reduced_.data(), int64_t(reduced_.size()));
    // ½ βᵀWβ and Wβ: the same on every rank (β and W are).
    gradient_.assign(data_gradient, data_gradient + m);
    products_.assign(size_t(m), 0.0);
    add_gram_times(beta, products_.data());
    double regulariser = 0;
    for (int64_t j = 0; j < m; ++j) {
        regulariser += beta[j] * products_[size_t(j)];
        gradient_[size_t(j)] += products_[size_t(j)];
    }
    diagonal_.assign(data_diagonal, data_diagonal + m);
    for (int64_t j = 0; j < m; ++j) diagonal_[size_t(j)] += columns_.gram()[j * columns_.capacity() + j];
    return 0.5 * regulariser + *loss_sum;
}

void NystromObjective::gradient(double *g) { std::copy(gradient_.begin(), gradient_.end(), g); }

bool NystromObjective::hessian_diagonal(double *diagonal) {
    if (!with_diagonal_) return false;
    std::copy(diagonal_.begin(), diagonal_.end(), diagonal);
    return true;
}

void NystromObjective::hessian_times(const double *v, double *hv) {
    const int64_t m = columns_.m();
    std::fill(hv, hv + m, 0.0);
    columns_.for_each_block([&](int64_t begin, int64_t end, const double *block, int64_t ld) {
        const int64_t rows = end - begin;
        double *cv = z_ + begin;  // z = Cβ is spent once value() has reduced it
        linalg::gemv(Trans::No, rows, m, 1.0, block, ld, v, 0.0, cv, threads_);
        for (int64_t i = 0; i < rows; ++i) cv[i] *= curvature_[begin + i];
        linalg::gemv(Trans::Yes, rows, m, 1.0, block, ld, cv, 1.0, hv, threads_);
    });
    comm_.sum(hv, m);
    add_gram_times(v, hv);
}

}  // namespace kmx
