// nystrom_objective.cpp — f, ∇f and ∇²f v of the Nyström primal (see
// nystrom_objective.h), one pass over C's rows and one AllReduce of bins each.
#include "nystrom_objective.h"

#include <algorithm>
#include <cmath>

#include "core/fixed_order_dot.h"
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
                                   const double *cost, double *row_scratch, bool with_diagonal, int threads,
                                   int64_t total_rows)
    : comm_(comm),
      columns_(columns),
      loss_(loss),
      y_(y),
      cost_(cost),
      curvature_(row_scratch),
      with_diagonal_(with_diagonal),
      threads_(threads),
      total_rows_(total_rows) {}

void NystromObjective::add_gram_times(const double *v, double *out) const {
    const int64_t m = columns_.m();
    linalg::gemv(Trans::No, m, m, 1.0, columns_.gram(), columns_.capacity(), v, 1.0, out, threads_);
}

// Row i gives the loss c_i ℓ_i, ∇f's terms c_i ℓ'_i c_ij and the diagonal's D_i c_ij².
void NystromObjective::bin_value_rows(const double *beta) {
    const int64_t m = columns_.m();
    loss_sum_.start_scaled(1, total_rows_, 1);
    gradient_sum_.start_scaled(m, total_rows_, 1);
    diagonal_sum_.start_scaled(with_diagonal_ ? m : 0, total_rows_, 1);
    BinnedSum *const sums[] = {&loss_sum_, &gradient_sum_, &diagonal_sum_};
    columns_.for_each_block([&](int64_t begin, int64_t end, const double *block, int64_t ld) {
        binned_rows(threads_, begin, end, sums, 3, [&](int64_t i, BinnedSum *const *into) {
            const double *row = block + (i - begin) * ld;
            const LossTerms t = loss_terms(loss_, y_[i], fixed_order_dot(row, beta, m));
            into[0]->add(0, cost_[i] * t.value);
            curvature_[i] = cost_[i] * t.second;
            if (t.first != 0) into[1]->add_scaled(0, cost_[i] * t.first, row, m);
            if (with_diagonal_ && curvature_[i] != 0) into[2]->add_scaled_squares(0, curvature_[i], row, m);
        });
    });
}

double NystromObjective::value(const double *beta) {
    const int64_t m = columns_.m();
    gradient_.assign(size_t(m), 0.0);
    diagonal_.assign(size_t(m), 0.0);
    std::vector<BinnedTarget> sums{{&loss_sum_, &loss_value_}, {&gradient_sum_, gradient_.data()}};
    if (with_diagonal_) sums.push_back({&diagonal_sum_, diagonal_.data()});
    binned_pass(comm_, sums, [&] { bin_value_rows(beta); });
    // ½ βᵀWβ and Wβ: the same on every rank (β and W are).
    products_.assign(size_t(m), 0.0);
    add_gram_times(beta, products_.data());
    double regulariser = 0;
    for (int64_t j = 0; j < m; ++j) {
        regulariser += beta[j] * products_[size_t(j)];
        gradient_[size_t(j)] += products_[size_t(j)];
    }
    for (int64_t j = 0; j < m; ++j) diagonal_[size_t(j)] += columns_.gram()[j * columns_.capacity() + j];
    return 0.5 * regulariser + loss_value_;
}

void NystromObjective::gradient(double *g) { std::copy(gradient_.begin(), gradient_.end(), g); }

bool NystromObjective::hessian_diagonal(double *diagonal) {
    if (!with_diagonal_) return false;
    std::copy(diagonal_.begin(), diagonal_.end(), diagonal);
    return true;
}

// Cᵀ D C v: row i gives D_i (c_iᵀv) c_ij; the bins' bound scales with ‖v‖∞.
void NystromObjective::hessian_times(const double *v, double *hv) {
    const int64_t m = columns_.m();
    double scale = 0;
    for (int64_t j = 0; j < m; ++j) scale = std::max(scale, std::fabs(v[j]));
    BinnedSum *const sums[] = {&product_sum_};
    binned_pass(comm_, {{&product_sum_, hv, scale}}, [&] {
        product_sum_.start_scaled(m, total_rows_, scale);
        columns_.for_each_block([&](int64_t begin, int64_t end, const double *block, int64_t ld) {
            binned_rows(threads_, begin, end, sums, 1, [&](int64_t i, BinnedSum *const *into) {
                if (curvature_[i] == 0) return;
                const double *row = block + (i - begin) * ld;
                into[0]->add_scaled(0, curvature_[i] * fixed_order_dot(row, v, m), row, m);
            });
        });
    });
    add_gram_times(v, hv);
}

}  // namespace kmx
