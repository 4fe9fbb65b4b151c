// test_gemm_tiles.cpp — C = α A Bᵀ tile by tile (linalg::gemm_abt_tiles)
// against a brute-force triple loop: every entry right, every entry in exactly
// one tile, and already final when its tile is visited. meson runs this
// binary once with kmx's kernel set and once per forced BLIS_ARCH_TYPE, so
// both micro-kernel orientations (C stored by columns: skx; by rows: haswell,
// zen3) and the reference kernels are covered.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "linalg/gemm_tiles.h"
#include "tile_record.h"

namespace {

struct Shape {
    int64_t m, n, k;
};

std::vector<double> random_values(size_t count, std::mt19937_64 &rng) {
    std::uniform_real_distribution<double> uniform(-1.0, 1.0);
    std::vector<double> v(count);
    for (double &x : v) x = uniform(rng);
    return v;
}

// C_ij = α Σ_l A_il B_jl.
double reference_entry(const std::vector<double> &a, int64_t lda, const std::vector<double> &b, int64_t ldb, int64_t i,
                       int64_t j, int64_t k, double alpha) {
    long double sum = 0;
    for (int64_t l = 0; l < k; ++l) sum += (long double)a[size_t(i * lda + l)] * b[size_t(j * ldb + l)];
    return alpha * double(sum);
}

class GemmTiles : public testing::TestWithParam<std::tuple<Shape, int>> {};

TEST_P(GemmTiles, MatchesTripleLoopAndVisitsEachEntryOnceWhenFinal) {
    const auto [s, threads] = GetParam();
    const int64_t lda = s.k + 3, ldb = s.k + 1, ldc = s.n + 5;
    const double alpha = -2.0;
    std::mt19937_64 rng(uint64_t(s.m * 1000003 + s.n * 101 + s.k));
    const std::vector<double> a = random_values(size_t(s.m * lda), rng), b = random_values(size_t(s.n * ldb), rng);
    std::vector<double> c(size_t(s.m * ldc), 7.0);
    TileRecord record(c, ldc);
    kmx::Arena scratch(kmx::linalg::gemm_tiles_workspace_bytes(s.m, s.n, s.k));
    kmx::linalg::gemm_abt_tiles(s.m, s.n, s.k, alpha, a.data(), lda, b.data(), ldb, c.data(), ldc, scratch, threads,
                                kmx::linalg::tile_visitor(record));
    for (int64_t i = 0; i < s.m; ++i) {
        for (int64_t j = 0; j < s.n; ++j) {
            const size_t at = size_t(i * ldc + j);
            const double want = reference_entry(a, lda, b, ldb, i, j, s.k, alpha);
            ASSERT_NEAR(c[at], want, 1e-13 * double(s.k + 1)) << "i=" << i << " j=" << j;
            ASSERT_EQ(record.visits[at], 1) << "i=" << i << " j=" << j;
            ASSERT_EQ(record.seen[at], c[at]) << "tile visited before final, i=" << i << " j=" << j;
        }
        for (int64_t j = s.n; j < ldc; ++j) ASSERT_EQ(c[size_t(i * ldc + j)], 7.0) << "wrote past n";
    }
    EXPECT_EQ(scratch.used(), 0u);
}

INSTANTIATE_TEST_SUITE_P(Shapes, GemmTiles,
                         testing::Combine(testing::Values(Shape{1, 1, 1}, Shape{5, 3, 0}, Shape{17, 29, 7},
                                                          Shape{300, 45, 64}, Shape{33, 257, 19}, Shape{130, 70, 700},
                                                          Shape{2100, 40, 3}, Shape{40, 2100, 5}),
                                          testing::Values(1, 2)));

TEST(GemmTiles, NegativeSizesAndShortLeadingDimensionsAreRejected) {
    kmx::Arena scratch(1 << 16);
    double x[4] = {};
    auto none = [](int64_t, int64_t, int64_t, int64_t) {};
    EXPECT_ANY_THROW(
        kmx::linalg::gemm_abt_tiles(-1, 1, 1, 1.0, x, 1, x, 1, x, 1, scratch, 1, kmx::linalg::tile_visitor(none)));
    EXPECT_ANY_THROW(
        kmx::linalg::gemm_abt_tiles(2, 2, 2, 1.0, x, 1, x, 2, x, 2, scratch, 1, kmx::linalg::tile_visitor(none)));
}

}  // namespace
