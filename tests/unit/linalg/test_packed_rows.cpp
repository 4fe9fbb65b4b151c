// test_packed_rows.cpp — rows kept in the micro-kernel's panels
// (linalg::PackedRows) and products read from them (linalg::gemm_abt_packed)
// against plain row-major copies and a brute-force triple loop. meson runs
// this binary with kmx's kernel set and once per forced BLIS_ARCH_TYPE, so the
// kept rows are both P (skx: C stored by columns) and Q (haswell: by rows).
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "linalg/gemm_tiles.h"
#include "linalg/packed_rows.h"
#include "tile_record.h"

namespace {

using kmx::linalg::PackedRows;

std::vector<double> random_values(size_t count, std::mt19937_64 &rng) {
    std::uniform_real_distribution<double> uniform(-1.0, 1.0);
    std::vector<double> v(count);
    for (double &x : v) x = uniform(rng);
    return v;
}

// The rows of x (n x d) kept in `layout`.
struct Kept {
    kmx::Arena arena;
    PackedRows rows;
    Kept(const std::vector<double> &x, int64_t n, int64_t d, PackedRows::Layout layout)
        : arena(PackedRows::bytes(n, d, layout)), rows(arena, n, d, layout) {
        for (int64_t i = 0; i < n; ++i) rows.set_row(i, x.data() + i * d);
    }
};

double dot(const double *a, const double *b, int64_t d) {
    long double sum = 0;
    for (int64_t l = 0; l < d; ++l) sum += (long double)a[l] * b[l];
    return double(sum);
}

class PackedRowsLayouts : public testing::TestWithParam<std::tuple<PackedRows::Layout, int64_t, int64_t>> {};

TEST_P(PackedRowsLayouts, RowsComeBackAfterSwapsAndGemvMatchesDots) {
    const auto [layout, n, d] = GetParam();
    std::mt19937_64 rng(uint64_t(n * 7919 + d));
    std::vector<double> x = random_values(size_t(n * d), rng);
    Kept kept(x, n, d, layout);
    // swap as shrinking does, the same on the copy
    std::uniform_int_distribution<int64_t> pick(0, n - 1);
    for (int s = 0; s < 3 * int(n); ++s) {
        const int64_t i = pick(rng), j = pick(rng);
        kept.rows.swap_rows(i, j);
        if (i != j) std::swap_ranges(x.begin() + i * d, x.begin() + (i + 1) * d, x.begin() + j * d);
    }
    std::vector<double> row(static_cast<size_t>(d));
    for (int64_t i = 0; i < n; ++i) {
        kept.rows.copy_row(i, row.data());
        for (int64_t l = 0; l < d; ++l) ASSERT_EQ(row[size_t(l)], x[size_t(i * d + l)]) << "row " << i << " col " << l;
    }
    const std::vector<double> a = random_values(size_t(d), rng);
    for (const auto [begin, end] : {std::pair<int64_t, int64_t>{0, n}, {1, n - 1}, {n / 2, n / 2 + 1}, {n - 3, n}}) {
        std::vector<double> out(size_t(end - begin), 99.0);
        kept.rows.gemv(begin, end, -2.0, a.data(), out.data());
        for (int64_t j = begin; j < end; ++j)
            ASSERT_NEAR(out[size_t(j - begin)], -2.0 * dot(x.data() + j * d, a.data(), d), 1e-13 * double(d))
                << "row " << j;
    }
}

INSTANTIATE_TEST_SUITE_P(Shapes, PackedRowsLayouts,
                         testing::Combine(testing::Values(PackedRows::Layout::panels, PackedRows::Layout::rows),
                                          testing::Values<int64_t>(5, 37, 130), testing::Values<int64_t>(1, 16, 785)));

struct Product {
    int64_t m, n, k, begin;  // begin: in panels
};

class GemmAbtPacked : public testing::TestWithParam<std::tuple<Product, int>> {};

TEST_P(GemmAbtPacked, MatchesTripleLoopAndVisitsEachEntryOnceWhenFinal) {
    const auto [p, threads] = GetParam();
    std::mt19937_64 rng(uint64_t(p.m * 1000003 + p.n * 101 + p.k));
    const int64_t lda = p.k + 3;
    const std::vector<double> a = random_values(size_t(p.m * lda), rng), b = random_values(size_t(p.n * p.k), rng);
    Kept kept(b, p.n, p.k, PackedRows::Layout::panels);
    const int64_t begin = std::min(p.n, p.begin * kept.rows.width()), nb = p.n - begin, ldc = nb + 5;
    std::vector<double> c(size_t(p.m * ldc), 7.0);
    TileRecord record(c, ldc);
    kmx::Arena scratch(kmx::linalg::gemm_abt_packed_workspace_bytes(p.m, p.k));
    kmx::linalg::gemm_abt_packed(p.m, -2.0, a.data(), lda, kept.rows, begin, p.n, c.data(), ldc, scratch, threads,
                                 kmx::linalg::tile_visitor(record));
    for (int64_t i = 0; i < p.m; ++i) {
        for (int64_t j = 0; j < nb; ++j) {
            const size_t at = size_t(i * ldc + j);
            const double want = -2.0 * dot(a.data() + i * lda, b.data() + (begin + j) * p.k, p.k);
            ASSERT_NEAR(c[at], want, 1e-13 * double(p.k + 1)) << "i=" << i << " j=" << j;
            ASSERT_EQ(record.visits[at], 1) << "i=" << i << " j=" << j;
            ASSERT_EQ(record.seen[at], c[at]) << "tile visited before final, i=" << i << " j=" << j;
        }
        for (int64_t j = nb; j < ldc; ++j) ASSERT_EQ(c[size_t(i * ldc + j)], 7.0) << "wrote past the rows";
    }
    EXPECT_EQ(scratch.used(), 0u);
}

INSTANTIATE_TEST_SUITE_P(Shapes, GemmAbtPacked,
                         testing::Combine(testing::Values(Product{1, 1, 1, 0}, Product{32, 300, 64, 0},
                                                          Product{28, 301, 64, 2}, Product{5, 1000, 785, 1},
                                                          Product{33, 257, 19, 3}, Product{30, 40, 700, 0},
                                                          Product{4, 2100, 9, 5}),
                                          testing::Values(1, 2)));

TEST(GemmAbtPacked, MisalignedRowsAndRowMajorStorageAreRejected) {
    const std::vector<double> x(64, 0.5);
    Kept panels(x, 32, 2, PackedRows::Layout::panels), rows(x, 32, 2, PackedRows::Layout::rows);
    kmx::Arena scratch(1 << 16);
    std::vector<double> c(64);
    auto none = [](int64_t, int64_t, int64_t, int64_t) {};
    if (panels.rows.width() > 1)
        EXPECT_ANY_THROW(kmx::linalg::gemm_abt_packed(1, 1.0, x.data(), 2, panels.rows, 1, 32, c.data(), 32, scratch, 1,
                                                      kmx::linalg::tile_visitor(none)));
    EXPECT_ANY_THROW(kmx::linalg::gemm_abt_packed(1, 1.0, x.data(), 2, rows.rows, 0, 32, c.data(), 32, scratch, 1,
                                                  kmx::linalg::tile_visitor(none)));
    EXPECT_ANY_THROW(kmx::linalg::gemm_abt_packed(1, 1.0, x.data(), 2, panels.rows, 0, 33, c.data(), 33, scratch, 1,
                                                  kmx::linalg::tile_visitor(none)));
}

}  // namespace
