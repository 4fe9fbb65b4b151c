// Row shards: alone a rank is all the rows; widened rows keep their values
// and gain zero columns; distinct values merge over (simulated) ranks.
#include <gtest/gtest.h>

#include <vector>

#include "core/communicator.h"
#include "core/context.h"
#include "core/dataset.h"
#include "core/row_shards.h"

namespace {

// Rank 1 of 2, where rank 0 is simulated by what it adds to every sum and
// offers to every maximum.
struct OtherRank {
    std::vector<double> sums, maxima;
};

int add_theirs(void *user, double *values, int64_t count) {
    const auto *other = static_cast<OtherRank *>(user);
    for (int64_t i = 0; i < count; ++i) values[i] += other->sums[size_t(i)];
    return 0;
}

int max_theirs(void *user, double *values, int64_t count) {
    const auto *other = static_cast<OtherRank *>(user);
    for (int64_t i = 0; i < count; ++i) values[i] = std::max(values[i], other->maxima[size_t(i)]);
    return 0;
}

int no_broadcast(void *, void *, int64_t, int32_t) { return 0; }

kmx::Communicator second_of_two(OtherRank &other) {
    return kmx::Communicator(kmx_communicator{1, 2, &other, add_theirs, max_theirs, no_broadcast});
}

}  // namespace

TEST(RowShards, AloneIsEveryRow) {
    const double x[6] = {1, 2, 3, 4, 5, 6};
    const auto data = kmx::Dataset::dense_borrow(x, 3, 2, nullptr);
    const kmx::RowShards shards = kmx::agree_row_shards(kmx::Communicator(), *data);
    EXPECT_EQ(shards.total_rows, 3);
    EXPECT_EQ(shards.first_row, 0);
    EXPECT_EQ(shards.columns, 2);
}

TEST(RowShards, SecondRankStartsAfterTheFirst) {
    OtherRank other{{5, 0}, {7}};  // rank 0: 5 rows (its slot of the counts), 7 columns
    const double x[4] = {1, 2, 3, 4};
    const auto data = kmx::Dataset::dense_borrow(x, 2, 2, nullptr);
    const kmx::RowShards shards = kmx::agree_row_shards(second_of_two(other), *data);
    EXPECT_EQ(shards.total_rows, 7);
    EXPECT_EQ(shards.first_row, 5);
    EXPECT_EQ(shards.columns, 7);
}

TEST(RowShards, WidenedDenseRowsArePaddedWithZeros) {
    kmx::Context ctx;
    ctx.begin_call();
    const double x[4] = {1, 2, 3, 4}, y[2] = {-1, 1};
    const auto data = kmx::Dataset::dense_borrow(x, 2, 2, y);
    EXPECT_EQ(kmx::widen_columns(ctx, *data, 2), nullptr);
    const auto wide = kmx::widen_columns(ctx, *data, 3);
    ASSERT_NE(wide, nullptr);
    EXPECT_EQ(wide->d, 3);
    EXPECT_EQ(std::vector<double>(wide->x, wide->x + 6), (std::vector<double>{1, 2, 0, 3, 4, 0}));
    EXPECT_EQ(std::vector<double>(wide->y, wide->y + 2), (std::vector<double>{-1, 1}));
}

TEST(RowShards, WidenedSparseRowsAreAView) {
    kmx::Context ctx;
    ctx.begin_call();
    const int64_t row_ptr[3] = {0, 1, 2};
    const int32_t col[2] = {0, 1};
    const double values[2] = {5, 6}, y[2] = {1, 2};
    kmx::Dataset data;
    data.n = 2;
    data.d = 2;
    data.row_ptr = row_ptr;
    data.col = col;
    data.values = values;
    data.y = y;
    const auto wide = kmx::widen_columns(ctx, data, 10);
    EXPECT_EQ(wide->d, 10);
    EXPECT_EQ(wide->values, values);
    double dense[20];
    wide->copy_rows(0, 2, dense);
    EXPECT_EQ(dense[0], 5);
    EXPECT_EQ(dense[11], 6);
    EXPECT_EQ(dense[19], 0);
}

TEST(RowShards, DistinctValuesMergeOverTheRanks) {
    // Rank 1 (this one) holds {3, 1, 3}; rank 0 holds {2, 1}. After the
    // maximum of their counts (2) each rank has a slot of count + 2 values.
    OtherRank other{{2, 1, 2, 0, 0, 0}, {2}};
    const double labels[3] = {3, 1, 3};
    EXPECT_EQ(kmx::agree_distinct_values(second_of_two(other), labels, 3, 256), (std::vector<double>{1, 2, 3}));
    other.maxima = {300};  // a rank with more distinct values than the limit
    EXPECT_TRUE(kmx::agree_distinct_values(second_of_two(other), labels, 3, 256).empty());
}
