// test_falkon_inputs.cpp — bad inputs rejected before any work, the memory
// budget check, and inputs that must work: a constant column, duplicate rows.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "core/bytes_text.h"
#include "core/context.h"
#include "core/error.h"
#include "falkon_reference.h"
#include "krr/falkon.h"

namespace {

using falkon_test::load;
using falkon_test::relative_difference;

struct Boston {
    std::unique_ptr<kmx::Dataset> all = load("boston_reg.test.csv", false);
    std::unique_ptr<kmx::Dataset> train = kmx::Dataset::dense_copy(all->x, 80, all->d, all->y);
    std::unique_ptr<kmx::Dataset> query =
        kmx::Dataset::dense_copy(all->x + 80 * all->d, all->n - 80, all->d, all->y + 80);
    kmx::KrrTargets targets = kmx::krr_targets(train->y, train->n, kmx::KrrTask::regression);
    kmx::KernelSpec kernel{KMX_KERNEL_RBF, 2.0, 0, 3};
};

kmx::FalkonOptions options(int64_t m, double lambda) {
    kmx::FalkonOptions o;
    o.centers = m;
    o.lambda = lambda;
    return o;
}

kmx_status status_of(const kmx::Dataset &data, const kmx::KrrTargets &t, const kmx::FalkonOptions &o,
                     size_t budget = kmx::kUnlimitedBudget, std::string *message = nullptr) {
    kmx::Context ctx;
    ctx.memory_budget = budget;
    try {
        kmx::falkon_fit(ctx, kmx::KernelSpec{KMX_KERNEL_RBF, 2.0, 0, 3}, data, t, o);
    } catch (const kmx::Error &e) {
        if (message) *message = e.what();
        return e.status();
    }
    return KMX_OK;
}

TEST(FalkonInputs, RejectsBadArgumentsBeforeWork) {
    Boston b;
    const int64_t n = b.train->n;
    EXPECT_EQ(status_of(*b.train, b.targets, options(0, 1e-3)), KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(status_of(*b.train, b.targets, options(n + 1, 1e-3)), KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(status_of(*b.train, b.targets, options(10, 0)), KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(status_of(*b.train, b.targets, options(10, -1)), KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(status_of(*b.train, b.targets, options(10, NAN)), KMX_E_INVALID_ARGUMENT);
    kmx::FalkonOptions o = options(10, 1e-3);
    o.iterations = 0;
    EXPECT_EQ(status_of(*b.train, b.targets, o), KMX_E_INVALID_ARGUMENT);
    o = options(10, 1e-3);
    o.validation_fraction = 0.6;
    EXPECT_EQ(status_of(*b.train, b.targets, o), KMX_E_INVALID_ARGUMENT);
    o = options(75, 1e-3);
    o.validation_fraction = 0.1;  // 8 held out + 75 centers > 80 rows
    EXPECT_EQ(status_of(*b.train, b.targets, o), KMX_E_INVALID_ARGUMENT);
    kmx::KrrTargets nan_target = b.targets;
    nan_target.y[5] = NAN;
    std::string message;
    EXPECT_EQ(status_of(*b.train, nan_target, options(10, 1e-3), kmx::kUnlimitedBudget, &message),
              KMX_E_INVALID_ARGUMENT);
    EXPECT_NE(message.find("targets"), std::string::npos) << message;
    kmx::KrrTargets short_targets = b.targets;
    short_targets.y.pop_back();
    EXPECT_EQ(status_of(*b.train, short_targets, options(10, 1e-3)), KMX_E_INVALID_ARGUMENT);
}

// The workspace is checked against the budget before any work, and the
// message names the bytes needed.
TEST(FalkonInputs, BudgetIsCheckedFirst) {
    Boston b;
    const kmx::FalkonOptions o = options(40, 1e-3);
    const size_t needed = kmx::falkon_workspace_bytes(b.kernel, *b.train, 40, 1, o);
    std::string message;
    EXPECT_EQ(status_of(*b.train, b.targets, o, needed - 1, &message), KMX_E_OUT_OF_MEMORY);
    EXPECT_NE(message.find(std::string("needs ") + kmx::bytes_text(double(needed)).text), std::string::npos) << message;
    EXPECT_EQ(status_of(*b.train, b.targets, o, needed + (1 << 20)), KMX_OK);
    // O(M²) plus one block: the workspace grows as M², not with n.
    const size_t at_80 = kmx::falkon_workspace_bytes(b.kernel, *b.train, 80, 1, o);
    EXPECT_LT(at_80, 8 * 3 * 80 * 80 + 8 * 80 * 64 * 2 + (256 << 10));
}

std::vector<double> fit_and_predict(const kmx::Dataset &train, const kmx::KrrTargets &t, const kmx::Dataset &query,
                                    int64_t m) {
    kmx::Context ctx;
    kmx::KernelSpec kernel{KMX_KERNEL_RBF, 2.0, 0, 3};
    const kmx::CenterExpansion f = kmx::falkon_fit(ctx, kernel, train, t, options(m, 1e-3));
    return falkon_test::predict(f.kernel, f.centers.data(), f.m, f.beta.data(), 1, query);
}

// x with a constant column appended (the RBF kernel does not change).
std::unique_ptr<kmx::Dataset> with_constant_column(const kmx::Dataset &d, std::vector<double> &storage) {
    storage.clear();
    for (int64_t i = 0; i < d.n; ++i) {
        storage.insert(storage.end(), d.x + i * d.d, d.x + (i + 1) * d.d);
        storage.push_back(0.5);
    }
    return kmx::Dataset::dense_copy(storage.data(), d.n, d.d + 1, d.y);
}

TEST(FalkonInputs, ConstantColumnChangesNothing) {
    Boston b;
    std::vector<double> s1, s2;
    const auto train = with_constant_column(*b.train, s1), query = with_constant_column(*b.query, s2);
    const double diff = relative_difference(fit_and_predict(*train, b.targets, *query, 80),
                                            fit_and_predict(*b.train, b.targets, *b.query, 80));
    EXPECT_LE(diff, 1e-9);
}

// Every row twice, all rows centers: K_MM is singular, FALKON still gives
// exact KRR (G + nλI is regular), computed directly.
TEST(FalkonInputs, DuplicateRowsGiveExactKrr) {
    Boston b;
    std::vector<double> x(b.train->x, b.train->x + 40 * b.all->d), y(b.train->y, b.train->y + 40);
    x.insert(x.end(), b.train->x, b.train->x + 40 * b.all->d);
    y.insert(y.end(), b.train->y, b.train->y + 40);
    const auto twice = kmx::Dataset::dense_copy(x.data(), 80, b.all->d, y.data());
    const kmx::KrrTargets t = kmx::krr_targets(twice->y, 80, kmx::KrrTask::regression);
    const std::vector<double> alpha = falkon_test::exact_krr(b.kernel, *twice, t.y.data(), 1, 1e-3);
    const double diff = relative_difference(fit_and_predict(*twice, t, *b.query, 80),
                                            falkon_test::predict(b.kernel, twice->x, 80, alpha.data(), 1, *b.query));
    std::printf("  duplicated rows: relative difference %.2e\n", diff);
    EXPECT_LE(diff, 1e-6);
}

}  // namespace
