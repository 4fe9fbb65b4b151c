// KernelRowStore: the kernel rows a path of C shares. Its rows against
// kernel_eval on the same rows (each value rounded to float once), for every
// kernel, dense rows and rows that stay sparse, across column tiles; a store
// smaller than the data evicts and recomputes; what it reserves is held in
// the context's budget while it lives; and the sizes where no store is made.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/context.h"
#include "core/dataset.h"
#include "core/error.h"
#include "core/rng.h"
#include "svm/kernel_row_store.h"
#include "test_support.h"

namespace {

using kmx::KernelRowStore;

std::vector<kmx::KernelSpec> every_kernel() {
    std::vector<kmx::KernelSpec> kernels;
    for (kmx_kernel_type type :
         {KMX_KERNEL_RBF, KMX_KERNEL_POLYNOMIAL, KMX_KERNEL_SIGMOID, KMX_KERNEL_LAPLACIAN, KMX_KERNEL_LINEAR}) {
        kmx::KernelSpec kernel;
        kernel.type = type;
        kernel.gamma = 0.3;
        kernel.coef0 = 0.5;
        kernel.degree = 2;
        kernels.push_back(kernel);
    }
    return kernels;
}

// Every value of the rows asked, against kernel_eval on the rows copied out dense.
void expect_rows(KernelRowStore &store, const kmx::Dataset &data, const kmx::KernelSpec &kernel,
                 const std::vector<int64_t> &rows) {
    std::vector<const float *> out(rows.size());
    store.rows(rows.data(), int64_t(rows.size()), out.data(), 2);
    std::vector<double> a(static_cast<size_t>(data.d)), b(static_cast<size_t>(data.d));
    for (size_t k = 0; k < rows.size(); ++k) {
        data.copy_rows(rows[k], rows[k] + 1, a.data());
        for (int64_t j = 0; j < data.n; ++j) {
            data.copy_rows(j, j + 1, b.data());
            const double exact = kmx::kernel_eval(kernel, a.data(), b.data(), data.d);
            ASSERT_NEAR(out[k][j], exact, 1e-6 * std::max(1.0, std::abs(exact)))
                << "kernel " << kernel.type << ", row " << rows[k] << ", column " << j;
        }
    }
}

// n rows of `nonzeros` values each among d columns, in CSR (rows that stay sparse when d is wide).
struct SparseRows {
    std::vector<int64_t> row_ptr{0};
    std::vector<int32_t> col;
    std::vector<double> values;
    std::unique_ptr<kmx::Dataset> data;
};
SparseRows sparse_rows(int64_t n, int64_t d, int nonzeros, uint64_t seed) {
    SparseRows s;
    kmx::Rng rng(seed);
    for (int64_t i = 0; i < n; ++i) {
        std::vector<int32_t> cols;
        for (int k = 0; k < nonzeros; ++k) cols.push_back(int32_t(rng.below(uint64_t(d))));
        std::sort(cols.begin(), cols.end());
        cols.erase(std::unique(cols.begin(), cols.end()), cols.end());
        for (int32_t c : cols) {
            s.col.push_back(c);
            s.values.push_back(rng.uniform() - 0.5);
        }
        s.row_ptr.push_back(int64_t(s.col.size()));
    }
    s.data = kmx::Dataset::csr_borrow(n, d, s.row_ptr.data(), s.col.data(), s.values.data(), nullptr);
    return s;
}

TEST(KernelRowStore, RowsAreTheKernelRoundedToFloatAcrossColumnTiles) {
    // n past one tile of columns; some rows asked twice in one batch
    const dcsvm_test::Blobs blobs = dcsvm_test::make_blobs(KernelRowStore::kTileColumns + 300, 3, 4, 2.0, 0.5, 7);
    const std::vector<int64_t> rows = {0, 5, 4395, 5, 2048, 4096, 17};
    for (const kmx::KernelSpec &kernel : every_kernel()) {
        kmx::Context ctx;
        auto store = KernelRowStore::create(ctx, *blobs.data, kernel, size_t(1) << 30, false);
        ASSERT_TRUE(store);
        EXPECT_TRUE(store->whole());
        expect_rows(*store, *blobs.data, kernel, rows);
        EXPECT_EQ(store->computed_rows(), 6);  // row 5 once
        expect_rows(*store, *blobs.data, kernel, rows);
        EXPECT_EQ(store->computed_rows(), 6);  // kept
    }
}

TEST(KernelRowStore, RowsThatStaySparseAreComputedOnTheirNonzeros) {
    const SparseRows s = sparse_rows(300, 100000, 12, 3);
    ASSERT_TRUE(kmx::sparse_kernel_rows(*s.data));
    for (const kmx::KernelSpec &kernel : every_kernel()) {
        kmx::Context ctx;
        auto store = KernelRowStore::create(ctx, *s.data, kernel, size_t(64) << 20, false);
        ASSERT_TRUE(store);
        expect_rows(*store, *s.data, kernel, {0, 299, 150, 0});
    }
}

TEST(KernelRowStore, ASmallerStoreEvictsAndRecomputes) {
    const dcsvm_test::Blobs blobs = dcsvm_test::make_blobs(1000, 2, 3, 2.0, 0.5, 11);
    const kmx::KernelSpec kernel = every_kernel()[0];
    const int64_t slots = 2 * KernelRowStore::kBatchRows;
    const size_t bytes = KernelRowStore::workspace_bytes(*blobs.data, kernel, slots);
    kmx::Context ctx;
    EXPECT_FALSE(KernelRowStore::create(ctx, *blobs.data, kernel, bytes, false));  // not every row
    auto store = KernelRowStore::create(ctx, *blobs.data, kernel, bytes, true);
    ASSERT_TRUE(store);
    EXPECT_EQ(store->slots(), slots);
    EXPECT_FALSE(store->whole());
    std::vector<int64_t> batch(KernelRowStore::kBatchRows);
    for (int64_t first = 0; first < 1000 - 64; first += 64) {  // 15 batches: all but the last two evicted
        for (int64_t k = 0; k < 64; ++k) batch[size_t(k)] = first + k;
        expect_rows(*store, *blobs.data, kernel, batch);
    }
    EXPECT_EQ(store->computed_rows(), 15 * 64);
    expect_rows(*store, *blobs.data, kernel, {0, 1});  // evicted long ago: again
    EXPECT_EQ(store->computed_rows(), 15 * 64 + 2);
}

TEST(KernelRowStore, ItsBytesAreHeldInTheBudgetWhileItLives) {
    const dcsvm_test::Blobs blobs = dcsvm_test::make_blobs(500, 4, 3, 2.0, 0.5, 13);
    const kmx::KernelSpec kernel = every_kernel()[0];
    const size_t whole = KernelRowStore::workspace_bytes(*blobs.data, kernel, 500);
    EXPECT_GE(whole, size_t(500) * 500 * sizeof(float));
    kmx::Context ctx;
    ctx.memory_budget = 4 * whole;
    ctx.begin_call();
    {
        auto store = KernelRowStore::create(ctx, *blobs.data, kernel, 2 * whole, false);
        ASSERT_TRUE(store);
        EXPECT_EQ(ctx.held_bytes(), whole);
        ctx.begin_call();  // a later call counts it
        EXPECT_EQ(ctx.left_bytes(), 3 * whole);
    }
    EXPECT_EQ(ctx.held_bytes(), 0u);
    // More than the budget leaves: refused before anything is allocated.
    ctx.memory_budget = whole / 2;
    ctx.begin_call();
    try {
        KernelRowStore::create(ctx, *blobs.data, kernel, 2 * whole, false);
        ADD_FAILURE() << "a store over the budget was made";
    } catch (const kmx::Error &e) {
        EXPECT_EQ(e.status(), KMX_E_OUT_OF_MEMORY);
    }
    EXPECT_EQ(ctx.held_bytes(), 0u);
}

TEST(KernelRowStore, NoStoreWhereNoneFitsOrTheKernelHasNoFeatures) {
    const dcsvm_test::Blobs blobs = dcsvm_test::make_blobs(500, 4, 3, 2.0, 0.5, 17);
    kmx::KernelSpec kernel = every_kernel()[0];
    kmx::Context ctx;
    const size_t fewest = KernelRowStore::workspace_bytes(*blobs.data, kernel, 2 * KernelRowStore::kBatchRows);
    EXPECT_FALSE(KernelRowStore::create(ctx, *blobs.data, kernel, fewest - 1, true));
    EXPECT_TRUE(KernelRowStore::create(ctx, *blobs.data, kernel, fewest, true));
    kernel.type = KMX_KERNEL_PRECOMPUTED;
    EXPECT_FALSE(KernelRowStore::create(ctx, *blobs.data, kernel, size_t(1) << 30, true));
}

TEST(KernelRowStore, ServesOnlyItsDataAndKernel) {
    const dcsvm_test::Blobs blobs = dcsvm_test::make_blobs(200, 2, 2, 2.0, 0.5, 19);
    const dcsvm_test::Blobs other = dcsvm_test::make_blobs(200, 2, 2, 2.0, 0.5, 19);
    kmx::KernelSpec kernel = every_kernel()[0];
    kmx::Context ctx;
    auto store = KernelRowStore::create(ctx, *blobs.data, kernel, size_t(1) << 30, false);
    ASSERT_TRUE(store);
    EXPECT_TRUE(store->serves(*blobs.data, kernel));
    EXPECT_FALSE(store->serves(*other.data, kernel));  // the same values, another dataset
    kernel.gamma = 0.31;
    EXPECT_FALSE(store->serves(*blobs.data, kernel));
}

}  // namespace
