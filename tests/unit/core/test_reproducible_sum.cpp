// Binned pre-rounding (core/reproducible_sum.h) against an exact reference
// (Shewchuk's sum of nonoverlapping expansions, the algorithm of Python's
// math.fsum): the same bits for every order of the terms and every split of
// them among "ranks" and "threads", and within a few ulps of the exact sum.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "core/communicator.h"
#include "core/fixed_order_dot.h"
#include "core/reproducible_sum.h"

namespace {

using kmx::BinnedSum;

// The correctly rounded sum (Shewchuk 1997; Python's math.fsum).
double exact_sum(const std::vector<double> &terms) {
    std::vector<double> partials;
    for (double x : terms) {
        size_t used = 0;
        for (double y : partials) {
            if (std::fabs(x) < std::fabs(y)) std::swap(x, y);
            const double hi = x + y, lo = y - (hi - x);
            if (lo != 0) partials[used++] = lo;
            x = hi;
        }
        partials.resize(used);
        partials.push_back(x);
    }
    double total = 0;
    for (double p : partials) total += p;  // increasing magnitude: within an ulp
    return total;
}

uint64_t bits(double x) {
    uint64_t b;
    std::memcpy(&b, &x, sizeof b);
    return b;
}

// What two bins may drop below the second (reproducible_sum.h), with margin.
double dropped_bound(int64_t n, double bound) {
    return std::ldexp(bound * double(n), 2 * int(std::ceil(std::log2(double(n)))) + 4 - 106);
}

double largest(const std::vector<double> &terms) {
    double m = 0;
    for (double x : terms) m = std::max(m, std::fabs(x));
    return m;
}

// The terms cut into `parts` consecutive pieces, each binned alone, then merged
// in the given order (as ranks' bins are summed, or threads' merged).
double binned(const std::vector<double> &terms, int parts, double bound, std::mt19937_64 &rng) {
    std::vector<BinnedSum> pieces(static_cast<size_t>(parts));
    std::vector<size_t> cuts{0, terms.size()};
    for (int p = 1; p < parts; ++p) cuts.push_back(size_t(rng() % (terms.size() + 1)));
    std::sort(cuts.begin(), cuts.end());
    for (int p = 0; p < parts; ++p) {
        pieces[size_t(p)].start(1, int64_t(terms.size()), bound);
        for (size_t i = cuts[size_t(p)]; i < cuts[size_t(p) + 1]; ++i) pieces[size_t(p)].add(0, terms[i]);
    }
    std::shuffle(pieces.begin(), pieces.end(), rng);
    for (int p = 1; p < parts; ++p) pieces[0].merge(pieces[size_t(p)]);
    double out = 0;
    pieces[0].result(&out);
    return out;
}

std::vector<double> cancelling_terms(std::mt19937_64 &rng, size_t n, double spread) {
    std::normal_distribution<double> normal;
    std::vector<double> terms(n);
    for (double &x : terms) x = normal(rng) * std::pow(10.0, spread * normal(rng));
    return terms;
}

TEST(ReproducibleSum, SameBitsInEveryOrderAndSplit) {
    std::mt19937_64 rng(7);
    for (double spread : {0.0, 2.0, 6.0}) {
        std::vector<double> terms = cancelling_terms(rng, 5000, spread);
        const double bound = largest(terms), exact = exact_sum(terms);
        const double first = binned(terms, 1, bound, rng);
        for (int trial = 0; trial < 40; ++trial) {
            std::shuffle(terms.begin(), terms.end(), rng);
            const double again = binned(terms, 1 + trial % 7, bound, rng);
            ASSERT_EQ(bits(first), bits(again)) << "spread " << spread << " trial " << trial;
        }
        // Two bins keep ~2(52 − ⌈log₂N⌉) bits below N·M: the exact sum, rounded, but for that.
        EXPECT_LE(std::fabs(first - exact), 2 * std::ldexp(std::fabs(exact), -53) + dropped_bound(5000, bound))
            << "spread " << spread << ": " << first << " vs " << exact;
    }
}

TEST(ReproducibleSum, LooseBoundsStayAccurate) {
    std::mt19937_64 rng(11);
    const std::vector<double> terms = cancelling_terms(rng, 20000, 3.0);
    const double exact = exact_sum(terms);
    for (double looseness : {1.0, 16.0, 1024.0, 1e6}) {
        const double got = binned(terms, 3, largest(terms) * looseness, rng);
        EXPECT_LE(std::fabs(got - exact),
                  4 * std::ldexp(std::fabs(exact), -53) + dropped_bound(20000, largest(terms) * looseness))
            << looseness;
    }
}

TEST(ReproducibleSum, ExactCancellationGivesZero) {
    std::mt19937_64 rng(3);
    std::vector<double> terms = cancelling_terms(rng, 1000, 4.0);
    const size_t n = terms.size();
    for (size_t i = 0; i < n; ++i) terms.push_back(-terms[i]);
    std::shuffle(terms.begin(), terms.end(), rng);
    EXPECT_EQ(binned(terms, 4, largest(terms), rng), 0.0);
}

// Each of the m outputs equals `first`'s to the bit and is within 2 ulps of
// the exact sum of w_i·rows[i·m + j], i < n (`split`: what varied).
void expect_reproducible(const std::vector<double> &out, const std::vector<double> &first,
                         const std::vector<double> &rows, const std::vector<double> &w, int64_t m, int split) {
    const int64_t n = int64_t(w.size());
    for (int64_t j = 0; j < m; ++j) {
        ASSERT_EQ(bits(out[size_t(j)]), bits(first[size_t(j)])) << split << ", output " << j;
        std::vector<double> terms;
        for (int64_t i = 0; i < n; ++i) terms.push_back(w[size_t(i)] * rows[size_t(i * m + j)]);
        const double exact = exact_sum(terms);
        EXPECT_LE(std::fabs(out[size_t(j)] - exact), 2 * std::ldexp(std::fabs(exact), -53)) << split;
    }
}

TEST(ReproducibleSum, RowsSplitLikeRanks) {
    // Σ_i w_i row_i over 1000 rows of width 37, rows dealt to 1-4 "ranks" in
    // consecutive shards: the same bits as one rank, and near the exact sums.
    std::mt19937_64 rng(5);
    const int64_t n = 1000, m = 37;
    std::normal_distribution<double> normal;
    std::vector<double> rows(static_cast<size_t>(n * m)), w(static_cast<size_t>(n));
    for (double &x : rows) x = normal(rng);
    for (double &x : w) x = normal(rng) * 1e3;
    double bound = 0;
    for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < m; ++j) bound = std::max(bound, std::fabs(w[size_t(i)] * rows[size_t(i * m + j)]));
    std::vector<double> one(static_cast<size_t>(m));
    for (int ranks = 1; ranks <= 4; ++ranks) {
        std::vector<double> bins;
        for (int r = 0; r < ranks; ++r) {
            BinnedSum s;
            s.start(m, n, bound);
            for (int64_t i = n * r / ranks; i < n * (r + 1) / ranks; ++i)
                s.add_scaled(0, w[size_t(i)], &rows[size_t(i * m)], m);
            if (bins.empty())
                bins.assign(s.bins(), s.bins() + s.bin_values());
            else
                for (int64_t k = 0; k < s.bin_values(); ++k) bins[size_t(k)] += s.bins()[k];
        }
        BinnedSum total;
        total.start(m, n, bound);
        std::copy(bins.begin(), bins.end(), total.bins());
        std::vector<double> out(static_cast<size_t>(m));
        total.result(out.data());
        if (ranks == 1) one = out;
        expect_reproducible(out, one, rows, w, m, ranks);
    }
}

TEST(ReproducibleSum, BinnedPassRetriesWithTheAgreedBound) {
    const kmx::Communicator alone;
    BinnedSum s;
    const std::vector<double> terms{1e-3, 2.5, -7.25e2, 3.0};
    double out = 0;
    int passes = 0;
    kmx::binned_pass(alone, {{&s, &out}}, [&] {
        ++passes;
        s.start_scaled(1, int64_t(terms.size()), 1.0);
        for (double x : terms) s.add(0, x);
    });
    EXPECT_EQ(passes, 2);  // the first guess (0) is too small
    EXPECT_EQ(out, exact_sum(terms));
    passes = 0;
    kmx::binned_pass(alone, {{&s, &out}}, [&] {
        ++passes;
        s.start_scaled(1, int64_t(terms.size()), 1.0);
        for (double x : terms) s.add(0, 2 * x);
    });
    EXPECT_EQ(passes, 1);  // within the headroom of the last bound
    EXPECT_EQ(out, 2 * exact_sum(terms));
}

TEST(ReproducibleSum, NonFiniteTermsFail) {
    const kmx::Communicator alone;
    BinnedSum s;
    double out = 0;
    EXPECT_THROW(kmx::binned_pass(alone, {{&s, &out}},
                                  [&] {
                                      s.start_scaled(1, 2, 1.0);
                                      s.add(0, 1.0);
                                      s.add(0, INFINITY);
                                  }),
                 kmx::Error);
}

// Rows binned block after block, on 1 to 4 threads: the same bits (each
// thread's share starts empty and is merged exactly).
TEST(ReproducibleSum, BinnedRowsOnAnyThreadCount) {
    std::mt19937_64 rng(13);
    std::normal_distribution<double> normal;
    const int64_t n = 1000, m = 19;
    std::vector<double> rows(static_cast<size_t>(n * m));
    for (double &x : rows) x = normal(rng);
    std::vector<double> one;
    for (int threads = 1; threads <= 4; ++threads) {
        BinnedSum s;
        s.start(m, n, 10.0);
        BinnedSum *const sums[] = {&s};
        for (int64_t begin = 0; begin < n; begin += 300)  // blocks of 300 rows, as FALKON's
            kmx::binned_rows(threads, begin, std::min(n, begin + 300), sums, 1, [&](int64_t i, BinnedSum *const *into) {
                into[0]->add_scaled(0, 0.5, &rows[size_t(i * m)], m);
            });
        std::vector<double> out(static_cast<size_t>(m));
        s.result(out.data());
        if (threads == 1) one = out;
        expect_reproducible(out, one, rows, std::vector<double>(size_t(n), 0.5), m, threads);
    }
}

TEST(FixedOrderDot, IndependentOfWhereTheRowSits) {
    std::mt19937_64 rng(9);
    std::normal_distribution<double> normal;
    for (int64_t n : {1, 7, 8, 13, 64, 1001}) {
        std::vector<double> a(static_cast<size_t>(n + 3)), b(static_cast<size_t>(n));
        for (double &x : a) x = normal(rng);
        for (double &x : b) x = normal(rng);
        std::vector<double> shifted(a.begin(), a.end());
        shifted.insert(shifted.begin(), 1.0);  // another alignment
        EXPECT_EQ(bits(kmx::fixed_order_dot(a.data(), b.data(), n)),
                  bits(kmx::fixed_order_dot(shifted.data() + 1, b.data(), n)));
        std::vector<double> terms;
        for (int64_t i = 0; i < n; ++i) terms.push_back(a[size_t(i)] * b[size_t(i)]);
        EXPECT_NEAR(kmx::fixed_order_dot(a.data(), b.data(), n), exact_sum(terms), 1e-12 * double(n));
    }
}

}  // namespace
