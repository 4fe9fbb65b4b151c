// test_compact_predict.cpp — the batched and single-row predictors against a
// direct double-loop implementation of compact_predictor.h's rule written
// here, on random predictors of every task, kernel and pseudo-landmark kind.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "core/context.h"
#include "core/dataset.h"
#include "core/error.h"
#include "core/rng.h"
#include "kernel/fast_exp.h"
#include "predict/compact_predict.h"
#include "predict_test_support.h"

namespace {

using kmx::CompactPredictor;
using kmx::PredictorLeaf;

// ------------------------------------------------- the rule, written plainly
double direct_sq(const double *a, const double *b, int64_t d) {
    double s = 0;
    for (int64_t f = 0; f < d; ++f) s += (a[f] - b[f]) * (a[f] - b[f]);
    return s;
}
double direct_l1(const double *a, const double *b, int64_t d) {
    double s = 0;
    for (int64_t f = 0; f < d; ++f) s += std::fabs(a[f] - b[f]);
    return s;
}
double direct_kernel(const kmx::KernelSpec &k, const double *a, const double *b, int64_t d) {
    double dot = 0;
    for (int64_t f = 0; f < d; ++f) dot += a[f] * b[f];
    switch (k.type) {
        case KMX_KERNEL_RBF:
            return std::exp(-k.gamma * direct_sq(a, b, d));
        case KMX_KERNEL_LAPLACIAN:
            return std::exp(-k.gamma * direct_l1(a, b, d));
        case KMX_KERNEL_POLYNOMIAL:
            return std::pow(k.gamma * dot + k.coef0, k.degree);
        default:
            return dot;
    }
}

// Outputs of one row by the header's five steps; returns the label.
double direct_predict(const CompactPredictor &p, const double *x, std::vector<double> &o) {
    const int64_t d = p.d;
    int64_t t_best = 0;
    for (int64_t t = 1; t < p.top(); ++t)
        if (direct_sq(x, &p.top_centers[size_t(t * d)], d) < direct_sq(x, &p.top_centers[size_t(t_best * d)], d))
            t_best = t;
    int64_t l_best = p.top_leaf_begin[size_t(t_best)];
    for (int64_t l = l_best + 1; l < p.top_leaf_begin[size_t(t_best + 1)]; ++l)
        if (direct_sq(x, p.leaves[size_t(l)].center.data(), d) <
            direct_sq(x, p.leaves[size_t(l_best)].center.data(), d))
            l_best = l;
    const PredictorLeaf &leaf = p.leaves[size_t(l_best)];
    std::vector<double> cbar, r;
    for (int64_t j = 0; j < leaf.m; ++j) {
        const double *u = &leaf.landmarks[size_t(j * d)];
        cbar.push_back(direct_kernel(p.kernel, x, u, d));
        r.push_back(p.kernel.type == KMX_KERNEL_LAPLACIAN ? direct_l1(x, u, d) : std::sqrt(direct_sq(x, u, d)));
    }
    for (int64_t t = 0; t < leaf.triangle; ++t) {
        double lower = 0, upper = std::numeric_limits<double>::infinity();
        for (int64_t j = 0; j < leaf.m; ++j) {
            const double D = leaf.triangle_dist[size_t(t * leaf.m + j)];
            lower = std::max(lower, std::fabs(r[size_t(j)] - D));
            upper = std::min(upper, r[size_t(j)] + D);
        }
        const double rho = p.triangle_estimate == kmx::TriangleEstimate::lower   ? lower
                           : p.triangle_estimate == kmx::TriangleEstimate::upper ? upper
                                                                                 : (lower + upper) / 2;
        cbar.push_back(p.kernel.type == KMX_KERNEL_LAPLACIAN ? std::exp(-p.kernel.gamma * rho)
                                                             : std::exp(-p.kernel.gamma * rho * rho));
    }
    for (int64_t q = 0; q < leaf.products; ++q)
        cbar.push_back(cbar[size_t(leaf.product_pairs[size_t(2 * q)])] *
                       cbar[size_t(leaf.product_pairs[size_t(2 * q + 1)])]);
    o.assign(size_t(p.outputs), 0.0);
    for (int64_t k = 0; k < p.outputs; ++k) {
        o[size_t(k)] = leaf.bias[size_t(k)];
        for (size_t f = 0; f < cbar.size(); ++f) o[size_t(k)] += cbar[f] * leaf.beta[f * size_t(p.outputs) + size_t(k)];
    }
    if (p.task == kmx::PredictorTask::regression) return o[0];
    const int64_t c = int64_t(p.classes.size());
    if (c == 2) return o[0] > 0 ? p.classes[1] : p.classes[0];
    std::vector<int> votes(size_t(c), 0);
    if (p.multiclass == KMX_MULTICLASS_OVR) {
        int64_t best = 0;
        for (int64_t k = 1; k < c; ++k)
            if (o[size_t(k)] > o[size_t(best)]) best = k;
        return p.classes[size_t(best)];
    }
    int64_t k = 0;
    for (int64_t i = 0; i < c; ++i)
        for (int64_t j = i + 1; j < c; ++j) ++votes[size_t(o[size_t(k++)] > 0 ? i : j)];
    int64_t best = 0;
    for (int64_t i = 1; i < c; ++i)
        if (votes[size_t(i)] > votes[size_t(best)]) best = i;
    return p.classes[size_t(best)];
}

struct Case {
    kmx_kernel_type kernel;
    kmx::PredictorTask task;
    int classes;
    kmx_multiclass multiclass;
    kmx::TriangleEstimate estimate;
};

// Rows: random points plus copies of landmarks and centers (r_j = 0 exactly, ties in routing).
std::vector<double> test_rows(const CompactPredictor &p, int64_t n, kmx::Rng &rng) {
    std::vector<double> x(size_t(n * p.d));
    for (double &v : x) v = rng.uniform();
    for (int64_t i = 0; i < n / 8; ++i) {
        const PredictorLeaf &leaf = p.leaves[size_t(i) % p.leaves.size()];
        const double *src = i % 2 ? leaf.center.data() : &leaf.landmarks[size_t((i % leaf.m) * p.d)];
        std::copy(src, src + p.d, &x[size_t(i * 8 * p.d)]);
    }
    return x;
}

void expect_matches_direct(const Case &c) {
    kmx::Rng rng(17 + uint64_t(c.kernel) * 7 + uint64_t(c.classes));
    const CompactPredictor p =
        predict_test::random_predictor(rng, 5, c.kernel, c.task, c.classes, c.multiclass, c.estimate);
    const int64_t n = 2500;  // more than one row block of 1024
    const std::vector<double> x = test_rows(p, n, rng);
    const auto data = kmx::Dataset::dense_borrow(x.data(), n, p.d, nullptr);
    kmx::Context ctx;
    ctx.threads = 2;
    std::vector<double> outputs(size_t(n * p.outputs)), labels(static_cast<size_t>(n));
    std::vector<double> outputs_rows(outputs.size()), labels_rows(labels.size());
    kmx::compact_predict(ctx, p, *data, outputs.data(), labels.data(), kmx::CompactPredictPath::blocks);
    kmx::compact_predict(ctx, p, *data, outputs_rows.data(), labels_rows.data(), kmx::CompactPredictPath::rows);
    std::vector<double> scratch(kmx::compact_row_scratch(p)), row_out(size_t(p.outputs)), o;
    const kmx::CompactRowPredictor prepared(p);
    std::vector<double> prepared_scratch(prepared.scratch_size()), prepared_out(size_t(p.outputs));
    double worst = 0, worst_rows = 0, worst_row = 0, worst_prepared = 0;
    int64_t label_mismatch = 0;
    for (int64_t i = 0; i < n; ++i) {
        const double label = direct_predict(p, &x[size_t(i * p.d)], o);
        const double row_label = kmx::compact_predict_row(p, &x[size_t(i * p.d)], row_out.data(), scratch.data());
        const double prepared_label =
            prepared.predict(&x[size_t(i * p.d)], prepared_out.data(), prepared_scratch.data());
        for (int64_t k = 0; k < p.outputs; ++k) {
            const double scale = 1 + std::fabs(o[size_t(k)]);
            worst = std::max(worst, std::fabs(outputs[size_t(i * p.outputs + k)] - o[size_t(k)]) / scale);
            worst_rows =
                std::max(worst_rows, std::fabs(outputs_rows[size_t(i * p.outputs + k)] - o[size_t(k)]) / scale);
            worst_row = std::max(worst_row, std::fabs(row_out[size_t(k)] - o[size_t(k)]) / scale);
            worst_prepared = std::max(worst_prepared, std::fabs(prepared_out[size_t(k)] - o[size_t(k)]) / scale);
        }
        // Regression labels are o_0 itself (real); class labels must agree exactly.
        auto differs = [&](double a) { return std::fabs(a - label) > 1e-13 * (1 + std::fabs(label)); };
        label_mismatch +=
            differs(labels[size_t(i)]) + differs(labels_rows[size_t(i)]) + differs(row_label) + differs(prepared_label);
    }
    EXPECT_LT(worst, 1e-13) << "batched outputs, blocks by leaf";
    EXPECT_LT(worst_rows, 1e-13) << "batched outputs, one row at a time";
    EXPECT_LT(worst_row, 1e-13) << "single-row outputs";
    EXPECT_LT(worst_prepared, 1e-13) << "prepared single-row outputs";
    EXPECT_EQ(label_mismatch, 0);
}

TEST(CompactPredict, BinaryRbfTriangleLowerAndProducts) {
    expect_matches_direct(
        {KMX_KERNEL_RBF, kmx::PredictorTask::classification, 2, KMX_MULTICLASS_OVO, kmx::TriangleEstimate::lower});
}
TEST(CompactPredict, OvrRbfTriangleMidpoint) {
    expect_matches_direct(
        {KMX_KERNEL_RBF, kmx::PredictorTask::classification, 4, KMX_MULTICLASS_OVR, kmx::TriangleEstimate::midpoint});
}
TEST(CompactPredict, OvoLaplacianTriangleUpper) {
    expect_matches_direct({KMX_KERNEL_LAPLACIAN, kmx::PredictorTask::classification, 4, KMX_MULTICLASS_OVO,
                           kmx::TriangleEstimate::upper});
}
TEST(CompactPredict, RegressionPolynomialProductsOnly) {
    expect_matches_direct(
        {KMX_KERNEL_POLYNOMIAL, kmx::PredictorTask::regression, 0, KMX_MULTICLASS_OVO, kmx::TriangleEstimate::lower});
}

// The prepared predictor routes (distances vectorised across points, a
// branch-free first-minimum; with AVX-512, groups of up to 32 leaves from
// registers) to the same leaf as the rule's scan: groups of 1, 45 and 30
// leaves, or 12, 19 and 45 (blocks of 8, 16, 24 and 32 points, and wider),
// exact ties (duplicated top and leaf centers, in the same lane of different
// blocks and in different lanes; a row equidistant from two centers: the
// lowest index wins) and rows on centers. Every leaf's bias is its index, so
// a different leaf shows in the output.
void expect_routing_matches_the_rule(const std::vector<int64_t> &top_leaf_begin,
                                     const std::vector<std::pair<int, int>> &equal_centers) {
    kmx::Rng rng(23);
    CompactPredictor p = predict_test::random_predictor(rng, 76, KMX_KERNEL_RBF, kmx::PredictorTask::regression, 0,
                                                        KMX_MULTICLASS_OVO, kmx::TriangleEstimate::lower);
    const int64_t d = p.d;
    p.top_centers.clear();
    for (int t = 0; t < 3; ++t)
        for (int64_t f = 0; f < d; ++f) p.top_centers.push_back(rng.uniform());
    std::copy(p.top_centers.begin(), p.top_centers.begin() + d, p.top_centers.begin() + 2 * d);  // top 2 ties top 0
    p.top_leaf_begin = top_leaf_begin;
    for (int64_t l = 0; l < 76; ++l) p.leaves[size_t(l)].bias[0] = double(l);
    for (const auto &[copy, of] : equal_centers) p.leaves[size_t(copy)].center = p.leaves[size_t(of)].center;
    // Leaves 12 and 13: centers c ± 1/4 in feature 0 (dyadic, so a row at c is exactly equidistant).
    std::vector<double> c(size_t(d), 0.5);
    p.leaves[12].center = c, p.leaves[13].center = c;
    p.leaves[12].center[0] += 0.25, p.leaves[13].center[0] -= 0.25;
    std::copy(c.begin(), c.end(), p.top_centers.begin() + d);  // the row at c routes to top node 1
    // Leaves 17 and 18: centers q + v and q + Pv, q = c + 0.15 (P swaps
    // features 0 and 1); a row q + w with Pw = w is as far from one as from
    // the other in exact arithmetic, so rounding decides (rows below).
    std::vector<double> v(static_cast<size_t>(d));
    for (double &value : v) value = 0.05 * (rng.uniform() - 0.5);
    for (int64_t f = 0; f < d; ++f)
        p.leaves[17].center[size_t(f)] = 0.65 + v[size_t(f)],
        p.leaves[18].center[size_t(f)] = 0.65 + v[size_t(f < 2 ? 1 - f : f)];
    kmx::check_compact_predictor(p);
    std::vector<double> x;
    for (int64_t i = 0; i < 3000; ++i)
        for (int64_t f = 0; f < d; ++f) x.push_back(rng.uniform());
    auto add = [&](const double *row) { x.insert(x.end(), row, row + d); };
    for (const PredictorLeaf &leaf : p.leaves) add(leaf.center.data());
    for (int t = 0; t < 3; ++t) add(p.top_centers.data() + t * d);
    add(c.data());
    // Rows tied between leaves 17 and 18 (q + w, Pw = w): the rule's sums
    // decide them, not the AVX2 route's screen ‖x‖² + ‖c‖² − 2 x·c, whose
    // rounding (~2^−52 of ‖x‖²) is far coarser than theirs.
    const int64_t first_tie = int64_t(x.size()) / d;
    for (int i = 0; i < 300; ++i) {
        std::vector<double> row(static_cast<size_t>(d), 0.65);
        for (double &value : row) value += 0.01 * (rng.uniform() - 0.5);
        row[1] = row[0];
        add(row.data());
    }
    const int64_t n = int64_t(x.size()) / d;
    const kmx::CompactRowPredictor prepared(p);
    std::vector<double> scratch(kmx::compact_row_scratch(p)), prepared_scratch(prepared.scratch_size()), o, a(1), b(1);
    int64_t wrong_leaf = 0, leaves_seen = 0, wrong_tie = 0, ties_to[2] = {0, 0};
    std::vector<bool> seen(p.leaves.size(), false);
    auto differ = [](double u, double w) { return std::fabs(u - w) > 1e-9 * (1 + std::fabs(w)); };
    for (int64_t i = 0; i < n; ++i) {
        const double *row = &x[size_t(i * d)];
        const int64_t leaf = kmx::compact_route(p, row);
        if (!seen[size_t(leaf)]) seen[size_t(leaf)] = true, ++leaves_seen;
        kmx::compact_predict_row(p, row, a.data(), scratch.data());
        prepared.predict(row, b.data(), prepared_scratch.data());
        if (i >= first_tie) {  // ties within rounding: the prepared route is the library's rule's
            ties_to[leaf == 18] += leaf == 17 || leaf == 18;
            wrong_tie += differ(b[0], a[0]);
            continue;
        }
        direct_predict(p, row, o);
        wrong_leaf += differ(b[0], o[0]) || differ(a[0], o[0]);
    }
    EXPECT_EQ(wrong_leaf, 0);
    // (The AVX-512 coding's sums may fuse a product and its sum, so at these
    // ties its route may differ from the rule's scalar one: compact_predictor.h.)
    if (kmx::exp_path_in_use() != kmx::ExpPath::Avx512) {
        EXPECT_EQ(wrong_tie, 0);
    }
    EXPECT_GT(ties_to[0], 10);  // rounding sends ties both ways
    EXPECT_GT(ties_to[1], 10);
    EXPECT_EQ(kmx::compact_route(p, c.data()), 12);  // the tie goes to the lower index
    EXPECT_GT(leaves_seen, 20);
}

TEST(CompactPredict, PreparedRoutingMatchesTheRuleWithManyLeavesAndTies) {
    // Ties inside groups 1 and 2: local indices 4 and 40, 8 and 24 (same lane), 6 and 39, 4 and 29.
    expect_routing_matches_the_rule({0, 1, 46, 76}, {{41, 5}, {40, 7}, {70, 54}, {75, 50}});
    // Group 1 of 19 (three blocks of 8): local 2 and 18, 4 and 8; group 2 of 45: 54 and 70.
    expect_routing_matches_the_rule({0, 12, 31, 76}, {{30, 14}, {20, 16}, {70, 54}});
}

// LIBSVM rows (absent columns are zeros) narrower than the predictor are
// padded with zeros; dense rows narrower than it, or any wider, are errors.
TEST(CompactPredict, FewerColumnsArePaddedWithZerosOnlyForLibsvmRows) {
    kmx::Rng rng(5);
    const CompactPredictor p =
        predict_test::random_predictor(rng, 5, KMX_KERNEL_RBF, kmx::PredictorTask::classification, 3,
                                       KMX_MULTICLASS_OVO, kmx::TriangleEstimate::lower);
    const int64_t n = 300, short_d = p.d - 2;
    std::vector<double> narrow(size_t(n * short_d)), wide(size_t(n * p.d), 0.0);
    for (int64_t i = 0; i < n; ++i)
        for (int64_t f = 0; f < short_d; ++f)
            wide[size_t(i * p.d + f)] = narrow[size_t(i * short_d + f)] = rng.uniform();
    kmx::Context ctx;
    std::vector<double> a(size_t(n * p.outputs)), b(a.size());
    auto narrow_data = kmx::Dataset::dense_borrow(narrow.data(), n, short_d, nullptr);
    EXPECT_THROW(kmx::compact_predict(ctx, p, *narrow_data, a.data(), nullptr), kmx::Error);
    narrow_data->absent_columns_are_zeros = true;
    kmx::compact_predict(ctx, p, *narrow_data, a.data(), nullptr);
    kmx::compact_predict(ctx, p, *kmx::Dataset::dense_borrow(wide.data(), n, p.d, nullptr), b.data(), nullptr);
    EXPECT_EQ(a, b);
    std::vector<double> too_wide(size_t(n * (p.d + 1)));
    EXPECT_THROW(kmx::compact_predict(ctx, p, *kmx::Dataset::dense_borrow(too_wide.data(), n, p.d + 1, nullptr),
                                      a.data(), nullptr),
                 kmx::Error);
}

TEST(CompactPredict, InconsistentPredictorsAreRejected) {
    kmx::Rng rng(9);
    const CompactPredictor good =
        predict_test::random_predictor(rng, 3, KMX_KERNEL_RBF, kmx::PredictorTask::classification, 2,
                                       KMX_MULTICLASS_OVO, kmx::TriangleEstimate::lower);
    EXPECT_NO_THROW(kmx::check_compact_predictor(good));
    CompactPredictor p = good;
    p.leaves[0].beta.pop_back();
    EXPECT_THROW(kmx::check_compact_predictor(p), kmx::Error);
    p = good;
    p.leaves[1].product_pairs[0] = int32_t(p.leaves[1].m);
    EXPECT_THROW(kmx::check_compact_predictor(p), kmx::Error);
    p = good;
    p.kernel.type = KMX_KERNEL_POLYNOMIAL;  // triangle pseudo-landmarks left in
    EXPECT_THROW(kmx::check_compact_predictor(p), kmx::Error);
    p = good;
    p.leaves[0].landmarks[0] = std::nan("");
    EXPECT_THROW(kmx::check_compact_predictor(p), kmx::Error);
    p = good;
    p.outputs = 2;
    EXPECT_THROW(kmx::check_compact_predictor(p), kmx::Error);
}

TEST(CompactPredict, WorkspaceIsCheckedAgainstTheBudget) {
    kmx::Rng rng(3);
    const CompactPredictor p =
        predict_test::random_predictor(rng, 4, KMX_KERNEL_RBF, kmx::PredictorTask::classification, 2,
                                       KMX_MULTICLASS_OVO, kmx::TriangleEstimate::lower);
    std::vector<double> x(size_t(100 * p.d), 0.5), labels(100);
    kmx::Context ctx;
    ctx.memory_budget = 1000;
    for (const auto path : {kmx::CompactPredictPath::blocks, kmx::CompactPredictPath::rows}) {
        labels.assign(labels.size(), -7);
        try {
            kmx::compact_predict(ctx, p, *kmx::Dataset::dense_borrow(x.data(), 100, p.d, nullptr), nullptr,
                                 labels.data(), path);
            FAIL() << "expected KMX_E_OUT_OF_MEMORY";
        } catch (const kmx::Error &e) {
            EXPECT_EQ(e.status(), KMX_E_OUT_OF_MEMORY);
        }
        EXPECT_EQ(std::count(labels.begin(), labels.end(), -7.0), 100) << "nothing is predicted";
    }
}

// A prepared predictor's row predictor is made by the first call that needs
// it: that call counts its copies against the budget before any work (and
// fails, predicting nothing, where they do not fit); once made, a call needs
// only its rows' buffers.
TEST(CompactPredict, APreparedRowPredictorIsCountedWhenMade) {
    kmx::Rng rng(5);
    const CompactPredictor p =
        predict_test::random_predictor(rng, 4, KMX_KERNEL_RBF, kmx::PredictorTask::classification, 2,
                                       KMX_MULTICLASS_OVO, kmx::TriangleEstimate::lower);
    const kmx::PreparedRows prepared(p);
    std::vector<double> x(size_t(p.d), 0.5);
    const auto row = kmx::Dataset::dense_borrow(x.data(), 1, p.d, nullptr);
    const size_t buffers = (size_t(p.d + p.outputs) + kmx::CompactRowPredictor::scratch_doubles(p)) * sizeof(double);
    ASSERT_GT(kmx::CompactRowPredictor::footprint_bytes(p), 2 * buffers);
    kmx::Context small;
    small.memory_budget = 2 * buffers;  // the buffers, not the row predictor's copies
    double label = -7;
    EXPECT_THROW(kmx::compact_predict(small, p, *row, nullptr, &label, kmx::CompactPredictPath::automatic, &prepared),
                 kmx::Error);
    EXPECT_EQ(label, -7.0);
    EXPECT_FALSE(prepared.made());
    kmx::Context ample;
    kmx::compact_predict(ample, p, *row, nullptr, &label, kmx::CompactPredictPath::automatic, &prepared);
    EXPECT_TRUE(prepared.made());
    std::vector<double> o;
    EXPECT_EQ(label, direct_predict(p, x.data(), o));
    label = -7;
    kmx::compact_predict(small, p, *row, nullptr, &label, kmx::CompactPredictPath::automatic, &prepared);
    EXPECT_EQ(label, direct_predict(p, x.data(), o));
}

}  // namespace
