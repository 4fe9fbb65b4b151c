// test_nystrom_tron.cpp — the trainer: the squared-loss optimum against its
// closed form, stage-wise growth against training at the final m, weights
// against duplicated rows, two ranks (threads) against one process, the
// accuracy on digits, and bad input.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "../common/relative_error.h"
#include "../common/dense_solve.h"
#include "../krr/falkon_reference.h"
#include "core/context.h"
#include "core/error.h"
#include "nystrom_tron/nystrom_tron.h"
#include "thread_ranks.h"

namespace {

const kmx::KernelSpec kRbf{KMX_KERNEL_RBF, 0.5, 0, 3};
// A narrower kernel, so that W is well conditioned and TRON converges to 1e-10
// quickly: comparisons between two runs are then about their sums, not about
// where CG stalled on a nearly singular W.
const kmx::KernelSpec kWide{KMX_KERNEL_RBF, 2.0, 0, 3};

struct Data {
    std::vector<double> x, y, w;
    std::unique_ptr<kmx::Dataset> set;
    Data(int64_t n, int64_t d, bool regression, int classes, uint64_t seed) : x(n * d), y(n) {
        std::mt19937_64 gen(seed);
        std::normal_distribution<double> normal;
        for (double &v : x) v = normal(gen);
        for (int64_t i = 0; i < n; ++i) {
            const double s = std::sin(2 * x[i * d]) + x[i * d + 1];
            if (regression)
                y[i] = s + 0.1 * normal(gen);
            else if (classes == 2)
                y[i] = s + 0.3 * normal(gen) > 0 ? 7 : 3;
            else
                y[i] = double(int64_t(std::floor(2 * s + 10)) % classes);
        }
        set = kmx::Dataset::dense_borrow(x.data(), n, d, y.data());
    }
    // Rows [begin, end) as a dataset of their own (a shard).
    std::unique_ptr<kmx::Dataset> rows(int64_t begin, int64_t end) const {
        return kmx::Dataset::dense_borrow(x.data() + begin * set->d, end - begin, set->d, y.data() + begin);
    }
};

kmx::NystromTronOptions tight(int64_t m, double tolerance = 1e-10) {
    kmx::NystromTronOptions o;
    o.centers = m;
    o.C = 2;
    o.tron.tolerance = tolerance;
    o.tron.max_iterations = 500;
    return o;
}

using test_common::max_relative;

std::vector<double> outputs(const kmx::CenterExpansion &e, const kmx::Dataset &query) {
    return falkon_test::predict(e.kernel, e.centers.data(), e.m, e.beta.data(), e.outputs, query);
}

}  // namespace

// Squared loss: ∇f = 0 is (W + 2 Cᵀ diag(c) C) β = 2 Cᵀ (c ∘ y).
TEST(NystromTron, SquaredLossReachesItsClosedForm) {
    const Data data(200, 3, true, 0, 1);
    kmx::Context ctx;
    const kmx::NystromTronFit fit = kmx::nystrom_tron_fit(ctx, kRbf, *data.set, tight(25));
    const kmx::CenterExpansion &e = fit.expansion;
    ASSERT_EQ(e.m, 25);
    ASSERT_EQ(fit.targets.task, kmx::KrrTask::regression);
    const std::vector<double> w = falkon_test::direct_kernel(kRbf, e.centers.data(), 25, e.centers.data(), 25, 3);
    const std::vector<double> c = falkon_test::direct_kernel(kRbf, data.x.data(), 200, e.centers.data(), 25, 3);
    std::vector<double> h = w, rhs(25, 0.0);
    for (int64_t i = 0; i < 200; ++i)
        for (int64_t a = 0; a < 25; ++a) {
            rhs[a] += 2 * 2.0 * c[i * 25 + a] * data.y[i];
            for (int64_t b = 0; b < 25; ++b) h[a * 25 + b] += 2 * 2.0 * c[i * 25 + a] * c[i * 25 + b];
        }
    const std::vector<double> exact = test_common::dense_solve(h, rhs);
    EXPECT_LT(max_relative(e.beta, exact), 1e-5);
    const std::vector<double> fitted = outputs(e, *data.set);
    const std::vector<double> expected = falkon_test::predict(kRbf, e.centers.data(), 25, exact.data(), 1, *data.set);
    // 1e-6, not tighter: 25 RBF centers on 3 features make an ill-conditioned basis (every CG runs its 25 steps
    // and TRON stops when f no longer resolves a step, short of the gradient test), and a one-ulp change in the
    // kernel's squared norms moves the fit by 50x more than that: 7e-10 when the compiler vectorises their sum
    // (omp simd, a release build), 4e-8 when it sums in order (a sanitizer build, tools/sanitize.sh), 3.7e-7
    // with the sums over rows binned (core/reproducible_sum.h, rounded once instead of by BLAS's order).
    EXPECT_LT(max_relative(fitted, expected), 1e-6);
}

TEST(NystromTron, StagedGrowthReachesTheOptimumOfTheFinalBasis) {
    for (kmx::TronBasis basis : {kmx::TronBasis::uniform, kmx::TronBasis::kmeans}) {
        const Data data(300, 3, false, 2, 2);
        kmx::Context ctx;
        kmx::NystromTronOptions staged = tight(40);
        staged.stages = 3;
        staged.basis = basis;
        kmx::NystromTronStats stats;
        const kmx::NystromTronFit grown = kmx::nystrom_tron_fit(ctx, kRbf, *data.set, staged, &stats);
        ASSERT_EQ(stats.stage_sizes, (std::vector<int64_t>{10, 20, 40}));
        // Uniform: one stage at m = 40 takes the same rows, so it must reach the same β.
        kmx::NystromTronOptions single = tight(40);
        single.basis = basis;
        if (basis == kmx::TronBasis::uniform) {
            const kmx::NystromTronFit scratch = kmx::nystrom_tron_fit(ctx, kRbf, *data.set, single);
            EXPECT_EQ(scratch.expansion.centers, grown.expansion.centers);  // uniform: the same rows
            // 4e-7 in a release build, 1.2e-6 in a sanitizer build (the squared norms summed in order: above).
            EXPECT_LT(max_relative(outputs(grown.expansion, *data.set), outputs(scratch.expansion, *data.set)), 5e-6);
        }
        // The warm start did not change the optimum: the final objective is
        // the minimum of the last stage, below those of the smaller bases.
        EXPECT_GT(stats.newton_iterations.back(), 0);
        EXPECT_LT(stats.objective[2], stats.objective[1]);
        EXPECT_LT(stats.objective[1], stats.objective[0]);
    }
}

TEST(NystromTron, SampleWeightsEqualDuplicatedRows) {
    // m = n on both sides: the basis spans the same functions (a duplicate
    // basis point adds nothing), so the fitted functions agree.
    const Data data(80, 2, false, 2, 3);
    std::vector<double> weights(80, 1.0);
    std::vector<double> x2 = data.x, y2 = data.y;
    for (int64_t i = 0; i < 20; ++i) {
        weights[i] = 2;
        x2.insert(x2.end(), data.x.begin() + i * 2, data.x.begin() + i * 2 + 2);
        y2.push_back(data.y[i]);
    }
    auto weighted = kmx::Dataset::dense_copy(data.x.data(), 80, 2, data.y.data());
    weighted->set_weights(weights.data());
    const auto duplicated = kmx::Dataset::dense_borrow(x2.data(), 100, 2, y2.data());
    kmx::Context ctx;
    const auto a = kmx::nystrom_tron_fit(ctx, kRbf, *weighted, tight(80, 1e-12));
    const auto b = kmx::nystrom_tron_fit(ctx, kRbf, *duplicated, tight(100, 1e-12));
    EXPECT_LT(max_relative(outputs(a.expansion, *data.set), outputs(b.expansion, *data.set)), 1e-5);
}

TEST(NystromTron, ClassWeightsEqualSampleWeightsOfThatClass) {
    const Data data(150, 2, false, 2, 4);
    std::vector<double> weights(150);
    for (int64_t i = 0; i < 150; ++i) weights[i] = data.y[i] == 7 ? 3.0 : 1.0;
    auto weighted = kmx::Dataset::dense_copy(data.x.data(), 150, 2, data.y.data());
    weighted->set_weights(weights.data());
    kmx::Context ctx;
    kmx::NystromTronOptions by_class = tight(30);
    by_class.class_weights = {{7.0, 3.0}};
    const auto a = kmx::nystrom_tron_fit(ctx, kRbf, *data.set, by_class);
    const auto b = kmx::nystrom_tron_fit(ctx, kRbf, *weighted, tight(30));
    EXPECT_LT(max_relative(a.expansion.beta, b.expansion.beta), 1e-8);
    const auto unweighted = kmx::nystrom_tron_fit(ctx, kRbf, *data.set, tight(30));
    EXPECT_GT(max_relative(a.expansion.beta, unweighted.expansion.beta), 1e-2);  // the weights matter
}

// Rows split over two ranks (threads exchanging through ThreadRanks) give
// the one-process model, and both ranks the same bits.
// The sums over rows are binned (core/reproducible_sum.h): any split of the
// rows among ranks gives one process's basis and β to the bit.
TEST(NystromTron, RanksGiveTheOneProcessModelToTheBit) {
    const std::vector<std::vector<int64_t>> splits{{0, 100, 240}, {0, 37, 161, 240}};
    for (kmx::TronBasis basis : {kmx::TronBasis::uniform, kmx::TronBasis::kmeans})
        for (const std::vector<int64_t> &split : splits) {
            const Data data(240, 3, false, 3, 5);
            kmx::NystromTronOptions o = tight(30);
            o.basis = basis;
            o.stages = 2;
            kmx::Context alone;
            const kmx::NystromTronFit whole = kmx::nystrom_tron_fit(alone, kWide, *data.set, o);
            ASSERT_EQ(whole.expansion.outputs, 3);

            const int count = int(split.size()) - 1;
            tron_test::ThreadRanks ranks(count);
            std::vector<kmx::NystromTronFit> fits(static_cast<size_t>(count));
            std::vector<std::thread> threads;
            for (int r = 0; r < count; ++r)
                threads.emplace_back([&, r] {
                    kmx::Context ctx;
                    ctx.comm = kmx::Communicator(ranks.communicator(r));
                    const auto shard = data.rows(split[size_t(r)], split[size_t(r) + 1]);
                    fits[size_t(r)] = kmx::nystrom_tron_fit(ctx, kWide, *shard, o);
                });
            for (std::thread &t : threads) t.join();
            for (const kmx::NystromTronFit &fit : fits) {
                EXPECT_EQ(fit.expansion.beta, whole.expansion.beta) << count << " ranks";
                EXPECT_EQ(fit.expansion.centers, whole.expansion.centers) << count << " ranks";
                EXPECT_EQ(fit.targets.classes, whole.targets.classes);
            }
            EXPECT_GT(ranks.sums, 10);  // every f, ∇f, Hv went through the exchange
        }
}

// Each rank's error from fitting its half of `data` on two thread-ranks
// (KMX_OK and "" when it has none); prepare(ctx, rank) sets a rank up.
struct RankErrors {
    kmx_status status[2] = {KMX_OK, KMX_OK};
    std::string message[2];
};

template <class Prepare>
RankErrors fit_on_two_ranks(const Data &data, const kmx::KernelSpec &kernel, const kmx::NystromTronOptions &o,
                            Prepare &&prepare) {
    const int64_t half = int64_t(data.y.size()) / 2;
    tron_test::ThreadRanks ranks(2);
    RankErrors errors;
    std::thread threads[2];
    for (int r = 0; r < 2; ++r)
        threads[r] = std::thread([&, r] {
            kmx::Context ctx;
            ctx.comm = kmx::Communicator(ranks.communicator(r));
            prepare(ctx, r);
            const auto shard = data.rows(r * half, r == 0 ? half : int64_t(data.y.size()));
            try {
                kmx::nystrom_tron_fit(ctx, kernel, *shard, o);
            } catch (const kmx::Error &e) {
                errors.status[r] = e.status();
                errors.message[r] = e.what();
            }
        });
    for (std::thread &t : threads) t.join();
    return errors;
}

// A cancel that reaches one rank mid-TRON stops every rank at the same step
// with KMX_E_CANCELLED (no rank is left waiting in a sum).
TEST(NystromTron, ACancelOnOneRankStopsEveryRank) {
    const Data data(240, 3, false, 2, 9);
    int reports = 0;
    std::pair<kmx::Context *, int *> hook{nullptr, &reports};
    const RankErrors errors = fit_on_two_ranks(data, kWide, tight(30, 1e-14), [&](kmx::Context &ctx, int r) {
        if (r != 1) return;
        hook.first = &ctx;
        ctx.progress_user = &hook;
        ctx.progress_fn = [](void *user, double, const char *) {
            auto *h = static_cast<std::pair<kmx::Context *, int *> *>(user);
            if (++*h->second == 2) h->first->request_cancel();  // mid-TRON, on this rank only
            return 0;
        };
    });
    for (int r = 0; r < 2; ++r) {
        EXPECT_EQ(errors.status[r], KMX_E_CANCELLED) << "rank " << r;
        EXPECT_NE(errors.message[r].find("rank 1: "), std::string::npos) << errors.message[r];
    }
    EXPECT_EQ(errors.message[0], errors.message[1]);
}

// A failure on one rank (its shard has a NaN) is the same error on both.
TEST(NystromTron, OneRanksBadShardFailsEveryRank) {
    Data data(100, 2, false, 2, 6);
    data.x[70 * 2] = NAN;
    const RankErrors errors = fit_on_two_ranks(data, kRbf, tight(10), [](kmx::Context &, int) {});
    EXPECT_EQ(errors.status[0], KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(errors.status[1], KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(errors.message[0], errors.message[1]);
    EXPECT_NE(errors.message[0].find("rank 1"), std::string::npos) << errors.message[0];
}

TEST(NystromTron, DigitsAccuracyIsThatOfAKernelMachine) {
    const auto train = falkon_test::load("digits_bin.train.libsvm", false);
    const auto test = falkon_test::load("digits_bin.test.libsvm", false);
    for (kmx_loss loss : {KMX_LOSS_SQUARED_HINGE, KMX_LOSS_LOGISTIC}) {
        kmx::Context ctx;
        kmx::NystromTronOptions o;
        o.loss = loss;
        o.centers = 200;
        o.C = 10;
        const kmx::KernelSpec kernel{KMX_KERNEL_RBF, 0.02, 0, 3};
        const kmx::NystromTronFit fit = kmx::nystrom_tron_fit(ctx, kernel, *train, o);
        const std::vector<double> f = outputs(fit.expansion, *test);
        int errors = 0;
        for (int64_t i = 0; i < test->n; ++i) errors += kmx::krr_label(fit.targets, &f[i]) != test->y[i];
        const double error_rate = double(errors) / double(test->n);
        std::printf("digits, loss %d: test error %.4f\n", int(loss), error_rate);
        EXPECT_LT(error_rate, loss == KMX_LOSS_LOGISTIC ? 0.06 : 0.03);
    }
}

TEST(NystromTron, BadInputIsRejectedBeforeAnyWork) {
    const Data data(50, 2, false, 2, 7);
    kmx::Context ctx;
    auto expect_invalid = [&](const kmx::Dataset &set, const kmx::NystromTronOptions &o, const char *words) {
        try {
            kmx::nystrom_tron_fit(ctx, kRbf, set, o);
            ADD_FAILURE() << "no error for " << words;
        } catch (const kmx::Error &e) {
            EXPECT_EQ(e.status(), KMX_E_INVALID_ARGUMENT) << e.what();
            EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
        }
    };
    kmx::NystromTronOptions o = tight(10);
    o.C = 0;
    expect_invalid(*data.set, o, "C = 0");
    expect_invalid(*data.set, tight(51), "at most n = 50");
    o = tight(10);
    o.stages = 0;
    expect_invalid(*data.set, o, "stages");
    o = tight(10);
    o.loss = KMX_LOSS_LOGISTIC;
    const Data real(50, 2, true, 0, 8);
    expect_invalid(*real.set, o, "regression takes loss=squared");
    std::vector<double> one_class(50, 1.0);
    const auto single = kmx::Dataset::dense_borrow(data.x.data(), 50, 2, one_class.data());
    expect_invalid(*single, tight(10), "at least 2 classes");
    const auto empty = kmx::Dataset::dense_borrow(data.x.data(), 0, 2, data.y.data());
    expect_invalid(*empty, tight(0), "no rows");
    const auto unlabelled = kmx::Dataset::dense_borrow(data.x.data(), 50, 2, nullptr);
    expect_invalid(*unlabelled, tight(10), "no labels");
}

TEST(NystromTron, TheWorkspaceIsCheckedAgainstTheBudget) {
    const Data data(2000, 2, false, 2, 9);
    kmx::Context ctx;
    ctx.memory_budget = 1 << 20;  // W alone at m = 1000 is 8 MB
    try {
        kmx::nystrom_tron_fit(ctx, kWide, *data.set, tight(1000));
        ADD_FAILURE() << "no error";
    } catch (const kmx::Error &e) {
        EXPECT_EQ(e.status(), KMX_E_OUT_OF_MEMORY) << e.what();
    }
    // A budget that holds the workspace but not C: the same model, C recomputed.
    // (The default tolerance: on 2000 rows of 2-d data, 100 basis points make W
    // nearly singular, and TRON's CG stalls near 1e-5 of the first gradient.)
    kmx::Context roomy, tight_budget;
    kmx::NystromTronStats cached, recomputed;
    const auto a = kmx::nystrom_tron_fit(roomy, kWide, *data.set, tight(100, 1e-3), &cached);
    tight_budget.memory_budget = cached.workspace_bytes - size_t(2000) * 100 * 8 + (size_t(1) << 20);
    const auto b = kmx::nystrom_tron_fit(tight_budget, kWide, *data.set, tight(100, 1e-3), &recomputed);
    EXPECT_TRUE(cached.columns_cached);
    EXPECT_FALSE(recomputed.columns_cached);
    EXPECT_EQ(a.expansion.beta, b.expansion.beta);  // one block of rows: the same sums either way
}
