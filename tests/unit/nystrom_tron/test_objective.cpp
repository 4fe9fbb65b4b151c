// test_objective.cpp — the Nyström objective's f, ∇f, ∇²f v and diagonal
// against central finite differences, for each loss, with C cached and
// recomputed; and f against a direct evaluation by kernel_eval loops.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "core/arena.h"
#include "core/communicator.h"
#include "core/dataset.h"
#include "kernel/kernel.h"
#include "nystrom_tron/basis_columns.h"
#include "nystrom_tron/nystrom_objective.h"

namespace {

constexpr int64_t kRows = 150, kCols = 4, kBasis = 12;
const kmx::KernelSpec kRbf{KMX_KERNEL_RBF, 0.7, 0, 3};

struct Problem {
    std::vector<double> x, y, cost;
    std::unique_ptr<kmx::Dataset> data;
    Problem(kmx::TronLoss loss, uint64_t seed) : x(kRows * kCols), y(kRows), cost(kRows) {
        std::mt19937_64 gen(seed);
        std::normal_distribution<double> normal;
        for (double &v : x) v = normal(gen);
        for (int64_t i = 0; i < kRows; ++i) {
            const double signal = std::sin(x[i * kCols]) + x[i * kCols + 1] * x[i * kCols + 2];
            y[i] = loss == kmx::TronLoss::squared ? signal + 0.1 * normal(gen) : (signal > 0 ? 1 : -1);
            cost[i] = 0.5 + double(i % 3);  // unequal costs
        }
        data = kmx::Dataset::dense_borrow(x.data(), kRows, kCols, y.data());
    }
};

// The objective over basis = the first kBasis rows, C cached or not.
struct Objective {
    std::vector<double> gram, cache, rows;
    std::unique_ptr<kmx::Dataset> basis;  // the first kBasis rows
    kmx::Arena arena;
    kmx::Communicator alone;
    std::unique_ptr<kmx::BasisColumns> columns;
    std::unique_ptr<kmx::NystromObjective> f;
    Objective(const Problem &p, kmx::TronLoss loss, bool cached)
        : gram(kBasis * kBasis),
          cache(cached ? kRows * kBasis : 0),
          rows(size_t(kmx::NystromObjective::row_scratch_values(kRows))),
          basis(kmx::Dataset::dense_borrow(p.x.data(), kBasis, kCols, nullptr)),
          arena(kmx::BasisColumns::workspace_bytes(kRbf, *p.data, *basis)) {
        columns = std::make_unique<kmx::BasisColumns>(kRbf, *p.data, *basis, gram.data(),
                                                      cached ? cache.data() : nullptr, arena, 1);
        columns->grow(kBasis);
        f = std::make_unique<kmx::NystromObjective>(alone, *columns, loss, p.y.data(), p.cost.data(), rows.data(), true,
                                                    1, kRows);
    }
};

// ½βᵀWβ + Σ c_i ℓ(y_i, Σ_j K(x_i, b_j) β_j) by kernel_eval.
double direct_value(const Problem &p, kmx::TronLoss loss, const std::vector<double> &beta) {
    double f = 0;
    for (int64_t a = 0; a < kBasis; ++a)
        for (int64_t b = 0; b < kBasis; ++b)
            f += 0.5 * beta[a] * beta[b] * kmx::kernel_eval(kRbf, &p.x[a * kCols], &p.x[b * kCols], kCols);
    for (int64_t i = 0; i < kRows; ++i) {
        double z = 0;
        for (int64_t j = 0; j < kBasis; ++j)
            z += kmx::kernel_eval(kRbf, &p.x[i * kCols], &p.x[j * kCols], kCols) * beta[j];
        double l;
        if (loss == kmx::TronLoss::squared) {
            l = (z - p.y[i]) * (z - p.y[i]);
        } else if (loss == kmx::TronLoss::logistic) {
            l = std::log(1 + std::exp(-p.y[i] * z));
        } else {
            l = std::max(0.0, 1 - p.y[i] * z);
            l *= l;
        }
        f += p.cost[i] * l;
    }
    return f;
}

std::vector<double> random_vector(uint64_t seed, double scale) {
    std::mt19937_64 gen(seed);
    std::normal_distribution<double> normal;
    std::vector<double> v(kBasis);
    for (double &e : v) e = scale * normal(gen);
    return v;
}

std::vector<double> gradient_at(kmx::NystromObjective &f, const std::vector<double> &beta) {
    std::vector<double> g(kBasis);
    f.value(beta.data());
    f.gradient(g.data());
    return g;
}

class ObjectiveDerivatives : public ::testing::TestWithParam<std::tuple<kmx::TronLoss, bool>> {};

}  // namespace

TEST_P(ObjectiveDerivatives, MatchFiniteDifferences) {
    const auto [loss, cached] = GetParam();
    const Problem p(loss, 3);
    Objective o(p, loss, cached);
    kmx::NystromObjective &f = *o.f;
    const std::vector<double> beta = random_vector(5, 0.3), v = random_vector(9, 1.0);

    const double value = f.value(beta.data());
    EXPECT_NEAR(value, direct_value(p, loss, beta), 1e-10 * std::fabs(value));
    std::vector<double> g(kBasis), hv(kBasis), diagonal(kBasis);
    f.gradient(g.data());
    f.hessian_times(v.data(), hv.data());
    ASSERT_TRUE(f.hessian_diagonal(diagonal.data()));

    const double h = 1e-5;
    double g_scale = 0, hv_scale = 0;
    for (int64_t j = 0; j < kBasis; ++j) g_scale = std::max(g_scale, std::fabs(g[j]));
    for (int64_t j = 0; j < kBasis; ++j) hv_scale = std::max(hv_scale, std::fabs(hv[j]));
    for (int64_t j = 0; j < kBasis; ++j) {
        std::vector<double> plus = beta, minus = beta;
        plus[j] += h;
        minus[j] -= h;
        const double fd = (f.value(plus.data()) - f.value(minus.data())) / (2 * h);
        EXPECT_NEAR(g[j], fd, 1e-6 * g_scale) << "gradient " << j;
    }
    // ∇²f v ≈ (∇f(β + hv) − ∇f(β − hv)) / 2h; the diagonal ≈ the same along e_j.
    std::vector<double> plus = beta, minus = beta;
    for (int64_t j = 0; j < kBasis; ++j) {
        plus[j] += h * v[j];
        minus[j] -= h * v[j];
    }
    const std::vector<double> g_plus = gradient_at(f, plus), g_minus = gradient_at(f, minus);
    for (int64_t j = 0; j < kBasis; ++j)
        EXPECT_NEAR(hv[j], (g_plus[j] - g_minus[j]) / (2 * h), 1e-5 * hv_scale) << "Hv " << j;
    for (int64_t j = 0; j < kBasis; ++j) {
        std::vector<double> bp = beta, bm = beta;
        bp[j] += h;
        bm[j] -= h;
        const double fd = (gradient_at(f, bp)[j] - gradient_at(f, bm)[j]) / (2 * h);
        EXPECT_NEAR(diagonal[j], fd, 1e-5 * std::max(1.0, std::fabs(diagonal[j]))) << "diagonal " << j;
    }
}

INSTANTIATE_TEST_SUITE_P(EachLoss, ObjectiveDerivatives,
                         ::testing::Combine(::testing::Values(kmx::TronLoss::squared_hinge, kmx::TronLoss::logistic,
                                                              kmx::TronLoss::squared),
                                            ::testing::Bool()));

TEST(NystromObjective, CachedAndRecomputedColumnsGiveTheSameValues) {
    const Problem p(kmx::TronLoss::logistic, 4);
    Objective cached(p, kmx::TronLoss::logistic, true), recomputed(p, kmx::TronLoss::logistic, false);
    const std::vector<double> beta = random_vector(6, 0.5);
    EXPECT_NEAR(cached.f->value(beta.data()), recomputed.f->value(beta.data()), 1e-12 * kRows);
}

TEST(NystromObjective, SquaredHingeHasNoCurvatureOutsideTheMargin) {
    EXPECT_EQ(kmx::loss_terms(kmx::TronLoss::squared_hinge, 1, 1.5).second, 0);
    EXPECT_EQ(kmx::loss_terms(kmx::TronLoss::squared_hinge, -1, 0.5).value, 2.25);
    EXPECT_EQ(kmx::loss_terms(kmx::TronLoss::squared_hinge, -1, 0.5).first, 3);  // −2y(1 − yz)
    // Logistic at large margins: no overflow, the limits of ℓ and ℓ'.
    const kmx::LossTerms far = kmx::loss_terms(kmx::TronLoss::logistic, 1, -800);
    EXPECT_DOUBLE_EQ(far.value, 800);
    EXPECT_DOUBLE_EQ(far.first, -1);
}
