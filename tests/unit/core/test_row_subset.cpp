// copy_row_subset: the copy holds exactly the chosen rows (dense and CSR,
// float64 and float32) with their labels and weights, is charged to the
// context while it lives, and is refused before copying when the budget is short.
#include <gtest/gtest.h>

#include <vector>

#include "core/context.h"
#include "core/dataset.h"
#include "core/error.h"
#include "core/row_subset.h"

namespace {

// Rows of data as dense doubles, row by row through copy_rows.
std::vector<double> dense_rows(const kmx::Dataset &data) {
    std::vector<double> out(static_cast<size_t>(data.n * data.d));
    data.copy_rows(0, data.n, out.data());
    return out;
}

// The expected copy: rows `pick` of `all` (n x d row-major).
std::vector<double> picked(const std::vector<double> &all, int64_t d, const std::vector<int64_t> &pick) {
    std::vector<double> out;
    for (int64_t r : pick) out.insert(out.end(), all.begin() + r * d, all.begin() + (r + 1) * d);
    return out;
}

TEST(RowSubset, DenseRowsLabelsAndWeightsInTheOrderGiven) {
    const std::vector<double> x = {1, 2, 3, 4, 5, 6, 7, 8}, y = {10, 20, 30, 40}, w = {0.5, 1, 2, 4};
    auto data = kmx::Dataset::dense_copy(x.data(), 4, 2, y.data());
    data->set_weights(w.data());
    kmx::Context ctx;
    const std::vector<int64_t> pick = {3, 0, 2};
    const auto copy = kmx::copy_row_subset(ctx, *data, pick.data(), 3, "test rows");
    EXPECT_EQ(copy->n, 3);
    EXPECT_EQ(copy->d, 2);
    EXPECT_EQ(dense_rows(*copy), picked(x, 2, pick));
    EXPECT_EQ(std::vector<double>(copy->y, copy->y + 3), (std::vector<double>{40, 10, 30}));
    EXPECT_EQ(std::vector<double>(copy->w, copy->w + 3), (std::vector<double>{4, 0.5, 2}));
    EXPECT_EQ(ctx.held_bytes(), kmx::row_subset_bytes(*data, pick.data(), 3));
}

TEST(RowSubset, SparseRowsKeepTheirEntriesAndAbsentColumns) {
    // Rows: {0:1, 2:2}, {}, {1:3}, {0:4, 1:5, 2:6}; d = 3.
    const int64_t row_ptr[5] = {0, 2, 2, 3, 6};
    const int32_t col[6] = {0, 2, 1, 0, 1, 2};
    const float values[6] = {1, 2, 3, 4, 5, 6};
    kmx::Dataset data;
    data.n = 4;
    data.d = 3;
    data.row_ptr = row_ptr;
    data.col = col;
    data.values32 = values;
    data.absent_columns_are_zeros = true;
    kmx::Context ctx;
    const std::vector<int64_t> pick = {3, 1, 0};
    const auto copy = kmx::copy_row_subset(ctx, data, pick.data(), 3, "test rows");
    ASSERT_TRUE(copy->sparse());
    EXPECT_TRUE(copy->float32());
    EXPECT_TRUE(copy->absent_columns_are_zeros);
    EXPECT_EQ(copy->nnz(), 5);
    EXPECT_EQ(dense_rows(*copy), picked(dense_rows(data), 3, pick));
    EXPECT_EQ(copy->y, nullptr);
}

TEST(RowSubset, TheCopyIsChargedWhileItLivesAndRefusedOverBudget) {
    const std::vector<double> x(1000, 1.0);
    auto data = kmx::Dataset::dense_copy(x.data(), 100, 10, nullptr);
    const std::vector<int64_t> pick = {1, 2, 3, 4, 5};
    const size_t bytes = kmx::row_subset_bytes(*data, pick.data(), 5);
    EXPECT_GE(bytes, 5 * 10 * sizeof(double));
    EXPECT_LT(bytes, 5 * 10 * sizeof(double) + 64);  // one array, aligned to a cache line
    kmx::Context ctx;
    {
        const auto copy = kmx::copy_row_subset(ctx, *data, pick.data(), 5, "test rows");
        EXPECT_EQ(ctx.held_bytes(), bytes);
    }
    EXPECT_EQ(ctx.held_bytes(), 0u);
    ctx.begin_call();
    ctx.memory_budget = bytes - 1;
    try {
        kmx::copy_row_subset(ctx, *data, pick.data(), 5, "the rows of one fold");
        FAIL() << "a copy over the budget was made";
    } catch (const kmx::Error &e) {
        EXPECT_EQ(e.status(), KMX_E_OUT_OF_MEMORY);
        EXPECT_NE(std::string(e.what()).find("the rows of one fold"), std::string::npos) << e.what();
    }
    EXPECT_EQ(ctx.held_bytes(), 0u);
}

TEST(RowRange, RowsInPlaceDenseAndSparse) {
    const std::vector<double> x = {1, 2, 3, 4, 5, 6}, y = {10, 20, 30};
    const auto dense = kmx::Dataset::dense_copy(x.data(), 3, 2, y.data());
    const kmx::Dataset tail = dense->row_range(1, 3);
    EXPECT_EQ(dense_rows(tail), (std::vector<double>{3, 4, 5, 6}));
    EXPECT_EQ(tail.y[0], 20);
    // Rows {0:1, 2:2}, {}, {1:3}: the last two keep their entries and count them alone.
    const int64_t row_ptr[4] = {0, 2, 2, 3};
    const int32_t col[3] = {0, 2, 1};
    const double values[3] = {1, 2, 3};
    kmx::Dataset sparse;
    sparse.n = 3;
    sparse.d = 3;
    sparse.row_ptr = row_ptr;
    sparse.col = col;
    sparse.values = values;
    const kmx::Dataset part = sparse.row_range(1, 3);
    EXPECT_EQ(part.nnz(), 1);
    EXPECT_EQ(dense_rows(part), (std::vector<double>{0, 0, 0, 0, 3, 0}));
    EXPECT_THROW(sparse.row_range(2, 4), kmx::Error);
}

}  // namespace
