// test_normal_product.cpp — z = K v and w += Kᵀ z (linalg::add_normal_product)
// against long-double loops, for every ISA coding the CPU runs: right values
// with tails of rows, columns and outputs, skipped rows left out, and bits
// that depend neither on the thread count nor on how the rows are split into
// blocks, nor between the AVX-512 and AVX2 codings (both fuse multiply-adds);
// K in float32 gives the bits of its copy widened to double.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "linalg/normal_product.h"

namespace {

using kmx::IsaLevel;

struct Case {
    int64_t rows, m, k, ld;  // K's rows ld values apart (padding: NaN, never read)
    std::vector<double> kb, v_t, z_given, w_start;
    std::vector<uint8_t> skip;
};

Case make_case(int64_t rows, int64_t m, int64_t k, bool with_skips, uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> uniform(-1.0, 1.0);
    auto values = [&](int64_t count) {
        std::vector<double> v(static_cast<size_t>(count));
        for (double &x : v) x = uniform(rng);
        return v;
    };
    const int64_t ld = m + int64_t(seed % 3) * 5;
    Case c{rows, m, k, ld, values(rows * ld), values(k * m), values(rows * k), values(k * m), {}};
    for (int64_t i = 0; i < rows; ++i) std::fill(c.kb.begin() + i * ld + m, c.kb.begin() + (i + 1) * ld, std::nan(""));
    c.skip.assign(size_t(rows), 0);
    if (with_skips)
        for (auto &s : c.skip) s = rng() % 4 == 0;
    return c;
}

struct Result {
    std::vector<double> z, w_t;
};

Result run(const Case &c, IsaLevel level, bool with_v, int threads, int64_t block_rows) {
    Result r{with_v ? std::vector<double>(size_t(c.rows * c.k), -99.0) : c.z_given, c.w_start};
    for (int64_t begin = 0; begin < c.rows; begin += block_rows) {
        const int64_t rows = std::min(block_rows, c.rows - begin);
        kmx::linalg::add_normal_product(level, rows, c.m, c.ld, c.k, c.kb.data() + begin * c.ld,
                                        with_v ? c.v_t.data() : nullptr, r.z.data() + begin * c.k,
                                        c.skip.data() + begin, r.w_t.data(), threads);
    }
    return r;
}

// The exact products (to long double), z from v or as given.
Result reference(const Case &c, bool with_v) {
    Result r{std::vector<double>(size_t(c.rows * c.k)), c.w_start};
    for (int64_t i = 0; i < c.rows; ++i)
        for (int64_t o = 0; o < c.k; ++o) {
            long double sum = 0;
            for (int64_t j = 0; j < c.m; ++j)
                sum += (long double)c.kb[size_t(i * c.ld + j)] * c.v_t[size_t(o * c.m + j)];
            r.z[size_t(i * c.k + o)] = with_v ? double(sum) : c.z_given[size_t(i * c.k + o)];
        }
    for (int64_t o = 0; o < c.k; ++o)
        for (int64_t j = 0; j < c.m; ++j) {
            long double sum = c.w_start[size_t(o * c.m + j)];
            for (int64_t i = 0; i < c.rows; ++i)
                if (!c.skip[size_t(i)]) sum += (long double)r.z[size_t(i * c.k + o)] * c.kb[size_t(i * c.ld + j)];
            r.w_t[size_t(o * c.m + j)] = double(sum);
        }
    return r;
}

// |a − b| ≤ tol · (the size of the sum's terms): the terms are at most 1
// (z: m of them; w: rows·m + 1).
void expect_near(const std::vector<double> &got, const std::vector<double> &want, double scale, const char *what) {
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i) ASSERT_NEAR(got[i], want[i], 1e-14 * scale) << what << " entry " << i;
}

std::vector<IsaLevel> levels_here() {
    std::vector<IsaLevel> levels{IsaLevel::Baseline};
    if (int(kmx::cpu_isa_level()) >= int(IsaLevel::Avx2)) levels.push_back(IsaLevel::Avx2);
    if (kmx::cpu_isa_level() == IsaLevel::Avx512f) levels.push_back(IsaLevel::Avx512f);
    return levels;
}

TEST(NormalProduct, MatchesTheExactProductsWithTailsAndSkippedRows) {
    uint64_t seed = 1;
    for (int64_t rows : {1, 2, 5, 33})
        for (int64_t m : {1, 7, 8, 15, 16, 17, 61})
            for (int64_t k : {1, 2, 3, 4, 8, 9, 11, 17})
                for (bool with_v : {true, false}) {
                    const Case c = make_case(rows, m, k, /*with_skips=*/rows > 2, seed++);
                    const Result want = reference(c, with_v);
                    for (IsaLevel level : levels_here()) {
                        SCOPED_TRACE(::testing::Message() << "rows " << rows << " m " << m << " k " << k << " v "
                                                          << with_v << " level " << int(level));
                        const Result got = run(c, level, with_v, 1, rows);
                        expect_near(got.z, want.z, double(m), "z");
                        expect_near(got.w_t, want.w_t, double(m) * double(rows * m + 1), "w");
                    }
                }
}

TEST(NormalProduct, SkippedRowsAddNothingButGetTheirZ) {
    Case c = make_case(9, 20, 3, false, 7);
    std::fill(c.skip.begin(), c.skip.end(), 1);
    for (IsaLevel level : levels_here()) {
        const Result got = run(c, level, true, 1, c.rows);
        EXPECT_EQ(got.w_t, c.w_start);
        expect_near(got.z, reference(c, true).z, 20.0, "z");
    }
}

// Large enough for two threads (≥ 8 MFLOP) and several slabs of rows.
TEST(NormalProduct, BitsDoNotDependOnThreadsBlocksOrVectorWidth) {
    const Case c = make_case(1500, 413, 10, true, 11);
    for (IsaLevel level : levels_here()) {
        const Result one = run(c, level, true, 1, c.rows);
        for (int threads : {2, 3})
            for (int64_t block : {c.rows, int64_t(97), int64_t(700)}) {
                const Result other = run(c, level, true, threads, block);
                EXPECT_EQ(one.z, other.z) << "threads " << threads << " block " << block;
                EXPECT_EQ(one.w_t, other.w_t) << "threads " << threads << " block " << block;
            }
    }
    if (kmx::cpu_isa_level() != IsaLevel::Avx512f) GTEST_SKIP() << "no AVX-512 here to compare with AVX2";
    const Result wide = run(c, IsaLevel::Avx512f, true, 2, c.rows), narrow = run(c, IsaLevel::Avx2, true, 1, 333);
    EXPECT_EQ(wide.z, narrow.z);
    EXPECT_EQ(wide.w_t, narrow.w_t);
}

// K in float32, widened as it is read: the bits of the double call on the
// widened copy, for every coding and with two threads.
TEST(NormalProduct, FloatRowsGiveTheBitsOfTheirWidenedCopy) {
    Case c = make_case(300, 203, 11, true, 5);
    std::vector<float> narrow(c.kb.size());
    for (size_t i = 0; i < narrow.size(); ++i) {
        narrow[i] = float(c.kb[i]);
        c.kb[i] = double(narrow[i]);  // NaN padding stays NaN
    }
    for (IsaLevel level : levels_here())
        for (int threads : {1, 2}) {
            Result wide = run(c, level, true, threads, c.rows),
                   from_float{std::vector<double>(c.z_given.size()), c.w_start};
            kmx::linalg::add_normal_product(level, c.rows, c.m, c.ld, c.k, narrow.data(), c.v_t.data(),
                                            from_float.z.data(), c.skip.data(), from_float.w_t.data(), threads);
            EXPECT_EQ(from_float.z, wide.z) << "level " << int(level);
            EXPECT_EQ(from_float.w_t, wide.w_t) << "level " << int(level);
        }
}

TEST(NormalProduct, EmptyShapesTouchNothing) {
    const Case c = make_case(3, 4, 2, false, 3);
    Result r{c.z_given, c.w_start};
    kmx::linalg::add_normal_product(0, c.m, c.ld, c.k, c.kb.data(), c.v_t.data(), r.z.data(), nullptr, r.w_t.data(), 2);
    EXPECT_EQ(r.z, c.z_given);
    EXPECT_EQ(r.w_t, c.w_start);
}

}  // namespace
