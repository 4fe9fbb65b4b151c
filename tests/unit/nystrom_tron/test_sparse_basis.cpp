// test_sparse_basis.cpp — Nyström-TRON on wide sparse rows (CSR that stays
// sparse in kernel blocks): the CSR basis against the same rows densified
// (the dense path is the reference), ranks against one process to the bit,
// the workspace bound when the side a block indexes changes, k-means centers
// refused when they cannot be dense, and k-means on sparse rows that fit.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "../common/relative_error.h"
#include "core/context.h"
#include "core/dataset.h"
#include "core/error.h"
#include "kernel/kernel.h"
#include "model/center_expansion.h"
#include "model/train_options.h"
#include "nystrom_tron/basis_columns.h"
#include "nystrom_tron/nystrom_tron.h"
#include "thread_ranks.h"

namespace {

const kmx::KernelSpec kRbf{KMX_KERNEL_RBF, 0.5, 0, 3};

// Text-like rows: each row's class (label 7 or 3) decides which "topic"
// columns it draws most of its nonzeros from, the rest are spread over
// every column; each row has unit norm, so K = exp(−γ‖a − b‖²) lies in [e^−2, 1].
struct SparseRows {
    int64_t n, d;
    std::vector<int64_t> row_ptr{0};
    std::vector<int32_t> col;
    std::vector<double> values, y;

    SparseRows(int64_t rows, int64_t columns, int64_t topic_nonzeros, int64_t spread_nonzeros, uint64_t seed,
               int64_t wide_from = -1)
        : n(rows), d(columns) {
        std::mt19937_64 gen(seed);
        std::uniform_real_distribution<double> uniform(0.5, 1.5);
        for (int64_t i = 0; i < n; ++i) {
            const int topic = int(gen() % 2);
            y.push_back(gen() % 10 == 0 ? (topic ? 3 : 7) : (topic ? 7 : 3));  // 10% label noise
            const int64_t spread = wide_from >= 0 && i >= wide_from ? 8 * spread_nonzeros : spread_nonzeros;
            std::vector<int32_t> cols;
            for (int64_t k = 0; k < topic_nonzeros; ++k) cols.push_back(int32_t(topic * 40 + int64_t(gen() % 40)));
            for (int64_t k = 0; k < spread; ++k) cols.push_back(int32_t(80 + int64_t(gen() % uint64_t(d - 80))));
            std::sort(cols.begin(), cols.end());
            cols.erase(std::unique(cols.begin(), cols.end()), cols.end());
            double norm = 0;
            const size_t first = values.size();
            for (int32_t c : cols) {
                col.push_back(c);
                values.push_back(uniform(gen));
                norm += values.back() * values.back();
            }
            for (size_t e = first; e < values.size(); ++e) values[e] /= std::sqrt(norm);
            row_ptr.push_back(int64_t(col.size()));
        }
    }
    std::unique_ptr<kmx::Dataset> csr() const {
        return kmx::Dataset::csr_borrow(n, d, row_ptr.data(), col.data(), values.data(), y.data());
    }
    std::vector<double> widened() const {
        std::vector<double> x(size_t(n * d), 0.0);
        for (int64_t i = 0; i < n; ++i)
            for (int64_t e = row_ptr[size_t(i)]; e < row_ptr[size_t(i) + 1]; ++e)
                x[size_t(i * d + col[size_t(e)])] = values[size_t(e)];
        return x;
    }
};

// Rows [begin, end) of a SparseRows as a CSR shard of its own.
struct Shard {
    std::vector<int64_t> row_ptr;
    std::unique_ptr<kmx::Dataset> set;
    Shard(const SparseRows &all, int64_t begin, int64_t end) {
        for (int64_t i = begin; i <= end; ++i) row_ptr.push_back(all.row_ptr[size_t(i)] - all.row_ptr[size_t(begin)]);
        const int64_t first = all.row_ptr[size_t(begin)];
        set = kmx::Dataset::csr_borrow(end - begin, all.d, row_ptr.data(), all.col.data() + first,
                                       all.values.data() + first, all.y.data() + begin);
    }
};

kmx::NystromTronOptions tight(int64_t m, int stages) {
    kmx::NystromTronOptions o;
    o.centers = m;
    o.stages = stages;
    o.C = 2;
    o.tron.tolerance = 1e-10;
    o.tron.max_iterations = 500;
    return o;
}

using test_common::max_relative;

std::vector<double> decision_values(const kmx::CenterExpansion &e, const kmx::Dataset &rows) {
    kmx::Context ctx;
    std::vector<double> out(size_t(rows.n * e.outputs));
    kmx::center_expansion_predict(ctx, e, rows, out.data());
    return out;
}

template <class Fit>
void on_ranks(const std::vector<int64_t> &split, Fit &&fit) {
    const int count = int(split.size()) - 1;
    tron_test::ThreadRanks ranks(count);
    std::vector<std::thread> threads;
    for (int r = 0; r < count; ++r)
        threads.emplace_back([&, r] {
            kmx::Context ctx;
            ctx.comm = kmx::Communicator(ranks.communicator(r));
            fit(ctx, r);
        });
    for (std::thread &t : threads) t.join();
}

}  // namespace

// The CSR basis holds the rows the dense path gathers, and C and W on the
// nonzeros fit what the dense kernel blocks fit on the same rows widened.
TEST(NystromTronSparse, TheCsrBasisFitsAsTheRowsDensified) {
    const SparseRows rows(300, 5000, 6, 14, 11);
    const auto sparse = rows.csr();
    ASSERT_TRUE(kmx::sparse_kernel_rows(*sparse));
    const std::vector<double> x = rows.widened();
    const auto dense = kmx::Dataset::dense_borrow(x.data(), rows.n, rows.d, rows.y.data());
    kmx::Context ctx;
    kmx::NystromTronStats sparse_stats, dense_stats;
    const kmx::NystromTronFit a = kmx::nystrom_tron_fit(ctx, kRbf, *sparse, tight(60, 2), &sparse_stats);
    const kmx::NystromTronFit b = kmx::nystrom_tron_fit(ctx, kRbf, *dense, tight(60, 2), &dense_stats);
    ASSERT_TRUE(a.expansion.sparse_centers.sparse());
    EXPECT_TRUE(a.expansion.centers.empty());  // no m x d array
    ASSERT_FALSE(b.expansion.sparse_centers.sparse());
    std::vector<double> widened(size_t(rows.d));
    for (int64_t j = 0; j < 60; ++j) {
        a.expansion.sparse_centers.widen_row(j, rows.d, widened.data());
        ASSERT_TRUE(std::equal(widened.begin(), widened.end(), b.expansion.centers.begin() + j * rows.d)) << j;
    }
    ASSERT_EQ(sparse_stats.objective.size(), 2u);
    for (size_t s = 0; s < 2; ++s)
        EXPECT_NEAR(sparse_stats.objective[s], dense_stats.objective[s], 1e-12 * dense_stats.objective[s]) << s;
    EXPECT_LT(max_relative(a.expansion.beta, b.expansion.beta), 1e-9);  // measured 3e-15
    const std::vector<double> fa = decision_values(a.expansion, *sparse), fb = decision_values(b.expansion, *dense);
    std::printf("CSR basis against the rows densified: objective %.3g, beta %.3g, decision values %.3g apart\n",
                std::fabs(sparse_stats.objective[1] - dense_stats.objective[1]) / dense_stats.objective[1],
                max_relative(a.expansion.beta, b.expansion.beta), max_relative(fa, fb));
    EXPECT_LT(max_relative(fa, fb), 1e-11);  // measured 4e-15
    // The workspace holds no m x d basis: W, C, the row arrays and O(nonzeros) of kernel scratch.
    EXPECT_LT(sparse_stats.workspace_bytes, dense_stats.workspace_bytes - size_t(60 * rows.d) * 8 / 2);

    // As a model: its points are saved sparse (model file v5).
    kmx::TrainOptions o;
    o.method = KMX_METHOD_NYSTROM_TRON;
    o.centers = 60;
    const kmx::Model model = kmx::train_nystrom_tron_model(ctx, o, kRbf, *sparse);
    EXPECT_TRUE(model.sparse_points());
}

// Rows split over ranks (threads): every rank gathers the CSR basis from
// its owners by broadcast, and the model is one process's to the bit, for
// every kernel. With 10 or 5 rows on a rank, its blocks index its rows
// instead of the 25 new basis points one process indexes.
TEST(NystromTronSparse, RanksGiveTheOneProcessCsrModelToTheBit) {
    const SparseRows rows(240, 20000, 5, 10, 12);
    const std::vector<kmx::KernelSpec> kernels{
        kRbf, {KMX_KERNEL_LAPLACIAN, 0.5, 0, 3}, {KMX_KERNEL_POLYNOMIAL, 0.7, 1, 2}, {KMX_KERNEL_SIGMOID, 0.3, 0.1, 3}};
    for (const kmx::KernelSpec &kernel : kernels) {
        kmx::Context alone;
        const kmx::NystromTronFit whole = kmx::nystrom_tron_fit(alone, kernel, *rows.csr(), tight(50, 2));
        ASSERT_TRUE(whole.expansion.sparse_centers.sparse());
        for (const std::vector<int64_t> &split :
             {std::vector<int64_t>{0, 100, 240}, {0, 37, 161, 240}, {0, 10, 240}, {0, 5, 12, 240}}) {
            const int count = int(split.size()) - 1;
            std::vector<kmx::NystromTronFit> fits(static_cast<size_t>(count));
            on_ranks(split, [&](kmx::Context &ctx, int r) {
                const Shard shard(rows, split[size_t(r)], split[size_t(r) + 1]);
                fits[size_t(r)] = kmx::nystrom_tron_fit(ctx, kernel, *shard.set, tight(50, 2));
            });
            for (const kmx::NystromTronFit &fit : fits) {
                const kmx::KeptRows &c = fit.expansion.sparse_centers, &reference = whole.expansion.sparse_centers;
                EXPECT_EQ(c.row_ptr, reference.row_ptr) << count << " ranks";
                EXPECT_EQ(c.col, reference.col) << count << " ranks";
                EXPECT_EQ(c.values, reference.values) << count << " ranks";
                EXPECT_EQ(fit.expansion.beta, whole.expansion.beta)
                    << "kernel " << kernel.type << ", split at " << split[1];
            }
        }
    }
}

// The kernel scratch is sized before any block, and a block on the
// nonzeros indexes whichever side has fewer rows: with C recomputed in
// blocks of 8192 rows, the last block here has 3 rows against 5 basis points,
// so those 3 rows are indexed, and they hold more nonzeros than the basis
// (the basis and a full block index the basis). The arena is exactly the
// computed size: a larger need fails with KMX_E_INTERNAL.
TEST(NystromTronSparse, TheWorkspaceBoundsEveryBlock) {
    const SparseRows rows(8195, 100000, 2, 3, 13, 8192);  // rows 8192.. have 8x the spread nonzeros
    ASSERT_EQ(kmx::BasisColumns::block_rows(8195, 5), 8192);
    kmx::NystromTronOptions o = tight(5, 1);
    o.cache_bytes = 1;  // C recomputed in blocks of rows on every pass
    kmx::Context ctx;
    kmx::NystromTronStats recomputed, cached;
    const kmx::NystromTronFit a = kmx::nystrom_tron_fit(ctx, kRbf, *rows.csr(), o, &recomputed);
    ASSERT_FALSE(recomputed.columns_cached);
    const int64_t basis_stored = a.expansion.sparse_centers.row_ptr.back();
    EXPECT_GT(rows.row_ptr[8195] - rows.row_ptr[8192], 2 * basis_stored);  // what the last block indexes
    o.cache_bytes = 0;
    const kmx::NystromTronFit b = kmx::nystrom_tron_fit(ctx, kRbf, *rows.csr(), o, &cached);
    ASSERT_TRUE(cached.columns_cached);
    EXPECT_LT(max_relative(a.expansion.beta, b.expansion.beta), 1e-9);
}

// k-means centers are means of rows, dense m x d: on 10⁷ columns they are
// refused before any work, with what to use instead.
TEST(NystromTronSparse, KMeansCentersOfWideSparseRowsAreRefused) {
    const SparseRows rows(200, 10000000, 6, 20, 14);
    kmx::Context ctx;
    ctx.memory_budget = size_t(1) << 30;
    kmx::NystromTronOptions o = tight(20, 1);
    o.basis = kmx::TronBasis::kmeans;
    try {
        kmx::nystrom_tron_fit(ctx, kRbf, *rows.csr(), o);
        ADD_FAILURE() << "no error";
    } catch (const kmx::Error &e) {
        EXPECT_EQ(e.status(), KMX_E_INVALID_ARGUMENT) << e.what();
        const std::string message = e.what();
        EXPECT_NE(message.find("k-means centers are dense (m x d = 20 x 10000000 values"), std::string::npos)
            << message;
        EXPECT_NE(message.find("use the uniform basis"), std::string::npos) << message;
    }
    EXPECT_EQ(ctx.peak_bytes(), 0u);  // nothing was reserved
    // The uniform basis of the same rows trains within the same budget.
    o.basis = kmx::TronBasis::uniform;
    const kmx::NystromTronFit fit = kmx::nystrom_tron_fit(ctx, kRbf, *rows.csr(), o);
    EXPECT_TRUE(fit.expansion.sparse_centers.sparse());
}

// When the dense centers are a small share of the budget, k-means runs on
// sparse rows as on the rows densified.
TEST(NystromTronSparse, KMeansOnSparseRowsThatFitIsKMeansOnTheRowsDensified) {
    const SparseRows rows(300, 2000, 6, 10, 15);
    const std::vector<double> x = rows.widened();
    const auto dense = kmx::Dataset::dense_borrow(x.data(), rows.n, rows.d, rows.y.data());
    kmx::NystromTronOptions o = tight(30, 2);
    o.basis = kmx::TronBasis::kmeans;
    kmx::Context ctx;
    const kmx::NystromTronFit a = kmx::nystrom_tron_fit(ctx, kRbf, *rows.csr(), o);
    const kmx::NystromTronFit b = kmx::nystrom_tron_fit(ctx, kRbf, *dense, o);
    EXPECT_FALSE(a.expansion.sparse_centers.sparse());
    EXPECT_LT(max_relative(a.expansion.centers, b.expansion.centers), 1e-12);
    EXPECT_LT(max_relative(decision_values(a.expansion, *dense), decision_values(b.expansion, *dense)), 1e-9);
}
