// dcpred.cpp — the DC-Pred++ builder (dcpred.h; paper Algorithms 1 and 2).
#include "dcpred.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>
#include <vector>

#include "cluster/kmeans.h"
#include "compact_predict.h"
#include "core/context.h"
#include "core/dataset.h"
#include "core/error.h"
#include "core/rng.h"
#include "linalg/linalg.h"
#include "predictor_storage.h"
#include "pseudo_landmarks.h"
#include "model/model.h"
#include "svm/probability_prediction.h"
#include "svm/svm_dual.h"
#include "landmark_refinement.h"

namespace kmx {

namespace {

using Rows = std::vector<int64_t>;

// The resolved knobs.
struct Plan {
    int64_t leaves, top, m, p_tri, p_prod, submatrix;
    bool auto_estimate;
};

// One binary problem of the model: rows of `positive` get +1, of `negative`
// (or every other class) −1.
struct Machine {
    int32_t positive, negative;
};

// Everything the builder needs besides the predictor under construction.
struct Build {
    Build(Context &c, const DcpredOptions &o, const Plan &p, std::vector<double> rows, int64_t n_rows)
        : ctx(c), options(o), plan(p), x(std::move(rows)), n(n_rows) {}
    Context &ctx;
    DcpredOptions options;  // of the stage being built (DcpredStages: of the predictor steps 3–6 build)
    Plan plan;
    std::vector<double> x;  // n x d, dense, padded to the predictor's d
    int64_t n = 0;
    std::vector<double> y;             // regression targets
    std::vector<double> decision;      // distill: the model's decision values at the rows (n x outputs)
    std::vector<int32_t> label_class;  // classification: class index of each row
    std::vector<Machine> machines;
    double C = 0, lambda = 0;
    std::unique_ptr<Dataset> data;  // borrows x
};

// ------------------------------------------------------------------- knobs
// Automatic landmarks per leaf: kAutoLandmarkRatio × the weighted rows
// (support vectors; regression: rows) per leaf.
constexpr double kAutoLandmarkRatio = 2.5;

// auto_leaves: the leaf count when options.leaves is 0; weighted_rows: the
// rows whose α is not 0 (classification: the model's support vectors).
Plan resolve_plan(const DcpredOptions &o, const KernelSpec &kernel, int64_t n, int64_t auto_leaves,
                  int64_t weighted_rows) {
    Plan plan{};
    plan.leaves = o.leaves > 0 ? o.leaves : std::clamp<int64_t>(auto_leaves, 1, std::min<int64_t>(256, n));
    require(o.leaves >= 0, "dcpred: leaves must be >= 1 (0 = auto)");
    if (plan.leaves > n)
        fail(KMX_E_INVALID_ARGUMENT, "dcpred: %lld leaves for %lld rows (leaves must be <= rows)",
             static_cast<long long>(plan.leaves), static_cast<long long>(n));
    plan.top =
        o.top > 0 ? std::min(o.top, plan.leaves) : std::max<int64_t>(1, std::llround(std::sqrt(double(plan.leaves))));
    require(o.landmarks >= 0, "dcpred: landmarks must be >= 1 (0 = auto)");
    const double auto_m = std::ceil(kAutoLandmarkRatio * double(weighted_rows) / double(plan.leaves));
    plan.m = o.landmarks > 0 ? o.landmarks : std::max<int64_t>(1, int64_t(auto_m));
    require(o.pseudo >= -1, "dcpred: pseudo must be >= 0 (-1 = auto)");
    const int64_t p = o.pseudo >= 0 ? o.pseudo : 0;
    PseudoKind kind = o.pseudo_kind;
    if (kind == PseudoKind::automatic) kind = kernel.stationary() ? PseudoKind::both : PseudoKind::products;
    if (kind != PseudoKind::products && p > 0 && !kernel.stationary())
        fail(KMX_E_INVALID_ARGUMENT, "dcpred: triangle pseudo-landmarks need a stationary kernel (rbf or laplacian)");
    plan.p_tri = kind == PseudoKind::triangle ? p : kind == PseudoKind::both ? p / 2 : 0;
    plan.p_prod = p - plan.p_tri;
    require(o.triangle_estimate >= -1 && o.triangle_estimate <= 2, "dcpred: triangle_estimate must be -1, 0, 1 or 2");
    plan.auto_estimate = o.triangle_estimate < 0 && plan.p_tri > 0;
    require(o.submatrix >= 1, "dcpred: submatrix must be >= 1");
    plan.submatrix = o.submatrix;
    require(o.eps > 0 && std::isfinite(o.eps), "dcpred: eps must be > 0");
    require(o.kmeans_iterations >= 1, "dcpred: kmeans_iterations must be >= 1");
    require(o.gamma_scale > 0 && std::isfinite(o.gamma_scale), "dcpred: gamma_scale must be > 0");
    require(o.refine_iterations >= 0, "dcpred: refine_iterations must be >= 0");
    require(o.refine_work >= 0, "dcpred: refine_work must be >= 0");
    return plan;
}

// Dense rows padded to d columns, checked finite.
std::vector<double> dense_rows(const Dataset &train, int64_t d) {
    if (train.d > d)
        fail(KMX_E_INVALID_ARGUMENT, "dcpred: training data has %lld columns, the model %lld",
             static_cast<long long>(train.d), static_cast<long long>(d));
    std::vector<double> rows(size_t(train.n * train.d)), x(size_t(train.n * d), 0.0);
    train.copy_rows(0, train.n, rows.data());
    check_finite(rows.data(), train.n, train.d, "training data");
    for (int64_t i = 0; i < train.n; ++i)
        std::copy(&rows[size_t(i * train.d)], &rows[size_t((i + 1) * train.d)], &x[size_t(i * d)]);
    return x;
}

// Budget for the tree stage: the dense copy, labels, assignments, k-means scratch.
void check_tree_budget(Build &b, int64_t d) {
    const int64_t k = std::max(b.plan.top, b.plan.leaves);
    const size_t bytes = WorkspacePlan()
                             .add<double>(size_t(b.n * d) * 2)
                             .add<double>(size_t(b.n) * 4)
                             .add_bytes(kmeans_workspace_bytes(*b.data, k, b.ctx.threads))
                             .bytes();
    b.ctx.check_budget(bytes, "dcpred (k-means tree)");
}

// ------------------------------------------------------------ 1. the tree
std::vector<double> kmeans_centers(Build &b, const Rows &rows, int64_t d, int64_t k) {
    std::vector<double> x(rows.size() * size_t(d));
    for (size_t i = 0; i < rows.size(); ++i)
        std::copy(&b.x[size_t(rows[i] * d)], &b.x[size_t((rows[i] + 1) * d)], &x[i * size_t(d)]);
    const auto data = Dataset::dense_borrow(x.data(), int64_t(rows.size()), d, nullptr);
    KMeansOptions km;
    km.k = std::min<int64_t>(k, int64_t(rows.size()));
    km.max_iter = b.options.kmeans_iterations;
    std::vector<double> centers(size_t(km.k * d));
    std::vector<int32_t> assignment(rows.size());
    Arena scratch(kmeans_workspace_bytes(*data, km.k, b.ctx.threads));
    kmeans(b.ctx, scratch, *data, km, centers.data(), assignment.data());
    round_reals(centers, b.options.storage);
    return centers;
}

// Overlapping leaves: every row also trains the leaf with the second-nearest
// center (any top node), so a leaf's local model also knows the rows just
// across its borders, where its test points are predicted worst.
void add_second_nearest(const Build &b, const CompactPredictor &p, std::vector<Rows> &rows) {
    const int64_t leaves = int64_t(p.leaves.size()), d = p.d;
    if (leaves < 2) return;
    std::vector<int64_t> own(static_cast<size_t>(b.n));
    for (int64_t l = 0; l < leaves; ++l)
        for (int64_t i : rows[size_t(l)]) own[size_t(i)] = l;
    std::vector<Rows> extra(static_cast<size_t>(leaves));
    for (int64_t i = 0; i < b.n; ++i) {
        int64_t second = -1;
        double best = INFINITY;
        for (int64_t l = 0; l < leaves; ++l) {
            if (l == own[size_t(i)]) continue;
            double dist = 0;
            for (int64_t f = 0; f < d; ++f) {
                const double diff = b.x[size_t(i * d + f)] - p.leaves[size_t(l)].center[size_t(f)];
                dist += diff * diff;
            }
            if (dist < best) best = dist, second = l;
        }
        extra[size_t(second)].push_back(i);
    }
    for (int64_t l = 0; l < leaves; ++l) {
        rows[size_t(l)].insert(rows[size_t(l)].end(), extra[size_t(l)].begin(), extra[size_t(l)].end());
        std::sort(rows[size_t(l)].begin(), rows[size_t(l)].end());
    }
}

// Top centers, then leaves per top node in proportion to its rows; then every
// row routed by the prediction rule itself (so the leaves train on exactly
// the rows they will predict) and empty leaves dropped.
std::vector<Rows> build_tree(Build &b, CompactPredictor &p) {
    const int64_t d = p.d;
    Rows all(size_t(b.n));
    std::iota(all.begin(), all.end(), 0);
    p.top_centers = kmeans_centers(b, all, d, b.plan.top);
    const int64_t top = int64_t(p.top_centers.size()) / d;
    std::vector<Rows> top_rows(static_cast<size_t>(top));
    for (int64_t i = 0; i < b.n; ++i) {
        int64_t best = 0;
        double best_dist = INFINITY;
        for (int64_t t = 0; t < top; ++t) {
            double dist = 0;
            for (int64_t f = 0; f < d; ++f) {
                const double diff = b.x[size_t(i * d + f)] - p.top_centers[size_t(t * d + f)];
                dist += diff * diff;
            }
            if (dist < best_dist) best_dist = dist, best = t;
        }
        top_rows[size_t(best)].push_back(i);
    }
    p.top_leaf_begin.assign(1, 0);
    std::vector<double> kept_top;
    for (int64_t t = 0; t < top; ++t) {
        const Rows &rows = top_rows[size_t(t)];
        if (rows.empty()) continue;
        const int64_t k = std::max<int64_t>(1, std::llround(double(b.plan.leaves) * double(rows.size()) / double(b.n)));
        const std::vector<double> centers = kmeans_centers(b, rows, d, k);
        for (size_t c = 0; c * size_t(d) < centers.size(); ++c) {
            PredictorLeaf leaf;
            leaf.center.assign(&centers[c * size_t(d)], &centers[(c + 1) * size_t(d)]);
            p.leaves.push_back(std::move(leaf));
        }
        kept_top.insert(kept_top.end(), &p.top_centers[size_t(t * d)], &p.top_centers[size_t((t + 1) * d)]);
        p.top_leaf_begin.push_back(int64_t(p.leaves.size()));
    }
    p.top_centers = kept_top;
    std::vector<Rows> leaf_rows(p.leaves.size());
    for (int64_t i = 0; i < b.n; ++i) leaf_rows[size_t(compact_route(p, &b.x[size_t(i * d)]))].push_back(i);
    // Drop empty leaves (their top node keeps at least the leaf its own rows route to).
    std::vector<PredictorLeaf> leaves;
    std::vector<Rows> rows;
    std::vector<int64_t> begin{0};
    for (int64_t t = 0; t < p.top(); ++t) {
        for (int64_t l = p.top_leaf_begin[size_t(t)]; l < p.top_leaf_begin[size_t(t + 1)]; ++l) {
            if (leaf_rows[size_t(l)].empty()) continue;
            leaves.push_back(std::move(p.leaves[size_t(l)]));
            rows.push_back(std::move(leaf_rows[size_t(l)]));
        }
        begin.push_back(int64_t(leaves.size()));
    }
    p.leaves = std::move(leaves);
    p.top_leaf_begin = std::move(begin);
    if (b.options.overlap) add_second_nearest(b, p, rows);
    return rows;
}

// ------------------------------------------------- 2. local models, weights
std::vector<double> gather(const Build &b, const Rows &rows, int64_t d);

// The rows of a leaf that machine `k` trains on, with their ±1 labels.
void machine_rows(const Build &b, const Rows &leaf, const Machine &machine, Rows &rows, std::vector<double> &y) {
    rows.clear();
    y.clear();
    for (size_t s = 0; s < leaf.size(); ++s) {
        const int32_t c = b.label_class[size_t(leaf[s])];
        if (c == machine.positive)
            rows.push_back(int64_t(s)), y.push_back(1.0);
        else if (machine.negative == kRestOfClasses || c == machine.negative)
            rows.push_back(int64_t(s)), y.push_back(-1.0);
    }
}

// A constant machine (its rows are all of one class, or none): o = +1, −1 or 0.
double constant_output(const std::vector<double> &y) {
    if (y.empty()) return 0;
    for (double v : y)
        if (v != y[0]) return NAN;  // not constant
    return y[0];
}

// The local SVMs' kernel cache: every column when it fits in 256 MiB.
size_t svm_cache_bytes(int64_t n) {
    return std::clamp<size_t>(size_t(n) * size_t(n) * sizeof(float), 1 << 16, size_t(256) << 20);
}

// Solves the C-SVC dual over `rows` (indices into `data`) with `kernel`; alpha (rows) out; returns b.
double solve_svm(Build &b, const Dataset &data, const Rows &rows, const std::vector<double> &y,
                 const KernelSpec &kernel, bool bias, double *alpha) {
    const int64_t n = int64_t(rows.size());
    std::vector<double> upper(size_t(n), b.C);
    SvmProblem problem;
    problem.data = &data;
    problem.rows = rows.data();
    problem.n = n;
    problem.y = y.data();
    problem.upper = upper.data();
    problem.kernel = kernel;
    SvmOptions options;
    options.bias = bias;
    options.eps = b.options.eps;
    options.cache_bytes = svm_cache_bytes(n);
    options.report_progress = false;
    std::fill(alpha, alpha + n, 0.0);
    Arena arena(svm_dual_workspace_bytes(n, SvmRows(data, kernel), options.cache_bytes));
    return solve_svm_dual(b.ctx, arena, problem, options, alpha).bias;
}

// f(x_s) = Σ_i y_i α_i K(x_s, x_i) + b at every row s of the leaf, into
// decision[s · stride] (the support vectors `global` with coefficients yα).
void local_decision_values(Build &b, const KernelSpec &kernel, const Rows &leaf, const Rows &support,
                           const std::vector<double> &coef, double bias, double *decision, int64_t stride) {
    const int64_t n = int64_t(leaf.size()), m = int64_t(support.size()), d = b.data->d;
    const std::vector<double> x = gather(b, leaf, d), sv = gather(b, support, d);
    std::vector<double> k(size_t(n * m));
    Arena scratch(kernel_block_workspace_bytes(kernel, n, m, d));
    if (m > 0) kernel_block(kernel, x.data(), n, d, sv.data(), m, d, d, k.data(), m, scratch, b.ctx.threads);
    for (int64_t s = 0; s < n; ++s) {
        double f = bias;
        for (int64_t j = 0; j < m; ++j) f += k[size_t(s * m + j)] * coef[size_t(j)];
        decision[s * stride] = f;
    }
}

// α_i² summed over the leaf's machines (classification: local SVMs on the
// leaf's rows with the model's kernel and C); the local models' decision
// values less their biases at the leaf's rows into `decision` (n_l x
// machines), the biases (or a constant machine's value) into `offsets`.
std::vector<double> classification_weights(Build &b, const KernelSpec &kernel, bool bias, const Rows &leaf,
                                           std::vector<double> &decision, std::vector<double> &offsets) {
    const int64_t outputs = int64_t(b.machines.size());
    std::vector<double> weight(leaf.size(), 0.0), y, alpha, coef;
    decision.assign(leaf.size() * size_t(outputs), 0.0);
    offsets.assign(size_t(outputs), 0.0);
    Rows local, global, support;
    for (int64_t k = 0; k < outputs; ++k) {
        machine_rows(b, leaf, b.machines[size_t(k)], local, y);
        const double constant = constant_output(y);
        if (!std::isnan(constant)) {
            offsets[size_t(k)] = constant;
            continue;
        }
        global.resize(local.size());
        for (size_t s = 0; s < local.size(); ++s) global[s] = leaf[size_t(local[s])];
        alpha.resize(local.size());
        const double local_bias = solve_svm(b, *b.data, global, y, kernel, bias, alpha.data());
        support.clear(), coef.clear();
        for (size_t s = 0; s < local.size(); ++s) {
            weight[size_t(local[s])] += alpha[s] * alpha[s];
            if (alpha[s] > 0) support.push_back(global[s]), coef.push_back(y[s] * alpha[s]);
        }
        offsets[size_t(k)] = local_bias;
        local_decision_values(b, kernel, leaf, support, coef, 0.0, decision.data() + k, outputs);
    }
    return weight;
}

// Solves (A + shift I) z = rhs in place (A n x n symmetric PSD, destroyed).
void ridge_solve(std::vector<double> &a, int64_t n, double shift, double *rhs) {
    for (int64_t i = 0; i < n; ++i) a[size_t(i * n + i)] += shift;
    linalg::cholesky(linalg::Uplo::Lower, n, a.data(), n);
    linalg::trsv(linalg::Uplo::Lower, linalg::Trans::No, n, a.data(), n, rhs);
    linalg::trsv(linalg::Uplo::Lower, linalg::Trans::Yes, n, a.data(), n, rhs);
}

// Regression: α = (G_ll + n_l λ I)⁻¹ (y − ȳ) of the leaf's exact KRR,
// squared; leaves above kExactKrrRows rows get uniform weights (plain k-means).
constexpr int64_t kExactKrrRows = 4000;
std::vector<double> regression_weights(Build &b, const KernelSpec &kernel, const Rows &leaf, int64_t d) {
    const int64_t n = int64_t(leaf.size());
    if (n > kExactKrrRows) return std::vector<double>(size_t(n), 1.0);
    std::vector<double> xl(size_t(n * d)), gram(size_t(n * n)), alpha(static_cast<size_t>(n));
    for (int64_t s = 0; s < n; ++s)
        std::copy(&b.x[size_t(leaf[size_t(s)] * d)], &b.x[size_t((leaf[size_t(s)] + 1) * d)], &xl[size_t(s * d)]);
    Arena scratch(kernel_block_workspace_bytes(kernel, n, n, d));
    kernel_block(kernel, xl.data(), n, d, xl.data(), n, d, d, gram.data(), n, scratch, b.ctx.threads);
    double mean = 0;
    for (int64_t s = 0; s < n; ++s) mean += b.y[size_t(leaf[size_t(s)])] / double(n);
    for (int64_t s = 0; s < n; ++s) alpha[size_t(s)] = b.y[size_t(leaf[size_t(s)])] - mean;
    ridge_solve(gram, n, double(n) * b.lambda, alpha.data());
    for (double &a : alpha) a *= a;
    return alpha;
}

// ------------------------------------------------------ 3. landmarks, 4. pseudo
// The leaf's rows as a dense block (n_l x d).
std::vector<double> gather(const Build &b, const Rows &rows, int64_t d) {
    std::vector<double> x(rows.size() * size_t(d));
    for (size_t i = 0; i < rows.size(); ++i)
        std::copy(&b.x[size_t(rows[i] * d)], &b.x[size_t((rows[i] + 1) * d)], &x[i * size_t(d)]);
    return x;
}

// Landmarks: k-means centroids of the leaf's rows with weight > 0, weighted
// by α² (paper Theorem 3); at most m, at most the number of such rows.
// With m >= the leaf's rows, the rows themselves. `store`: as the storage
// holds them (else in double, for refinement to move).
void choose_landmarks(Build &b, const Rows &leaf, const std::vector<double> &weight, int64_t d, PredictorLeaf &out,
                      bool store = true) {
    if (b.plan.m >= int64_t(leaf.size())) {  // every row is a landmark: the exact local kernel
        out.landmarks = gather(b, leaf, d);
        out.m = int64_t(leaf.size());
        store_landmarks(out, b.options.storage);
        return;
    }
    Rows support;
    for (size_t s = 0; s < leaf.size(); ++s)
        if (weight[s] > 0) support.push_back(int64_t(s));
    std::vector<double> x(support.size() * size_t(d)), w(support.size());
    for (size_t i = 0; i < support.size(); ++i) {
        const int64_t row = leaf[size_t(support[i])];
        std::copy(&b.x[size_t(row * d)], &b.x[size_t((row + 1) * d)], &x[i * size_t(d)]);
        w[i] = weight[size_t(support[i])];
    }
    const auto data = Dataset::dense_copy(x.data(), int64_t(support.size()), d, nullptr);
    data->set_weights(w.data());
    KMeansOptions km;
    km.k = std::min<int64_t>(b.plan.m, data->n);
    km.max_iter = b.options.kmeans_iterations;
    out.landmarks.assign(size_t(km.k * d), 0.0);
    std::vector<int32_t> assignment(size_t(data->n));
    Arena scratch(kmeans_workspace_bytes(*data, km.k, b.ctx.threads));
    kmeans(b.ctx, scratch, *data, km, out.landmarks.data(), assignment.data());
    out.m = km.k;
    if (store) store_landmarks(out, b.options.storage);
}

// Triangle pseudo-landmarks from the leaf's weighted rows (the support
// vectors) when there are enough, else from all its rows; product pairs.
void choose_pseudo_landmarks(Build &b, Rng &rng, const KernelSpec &kernel, const Rows &leaf,
                             const std::vector<double> &weight, int64_t d, PredictorLeaf &out) {
    Rows candidates;
    for (size_t s = 0; s < leaf.size(); ++s)
        if (weight[s] > 0) candidates.push_back(leaf[s]);
    if (int64_t(candidates.size()) < b.plan.p_tri) candidates = leaf;
    const int64_t p_tri = std::min<int64_t>(b.plan.p_tri, int64_t(candidates.size()));
    std::vector<double> x(candidates.size() * size_t(d));
    for (size_t i = 0; i < candidates.size(); ++i)
        std::copy(&b.x[size_t(candidates[i] * d)], &b.x[size_t((candidates[i] + 1) * d)], &x[i * size_t(d)]);
    if (p_tri > 0) choose_triangle_pseudo_landmarks(rng, kernel, x.data(), int64_t(candidates.size()), d, p_tri, out);
    round_reals(out.triangle_dist, b.options.storage);
    choose_product_pairs(rng, std::min(b.plan.p_prod, out.m * (out.m + 1) / 2), out);
}

// ------------------------------------------------------------------ 5. W̄
struct LeafKernel {
    std::vector<double> w_bar;  // F x F
    double error = 0;           // ‖G_II − C̄_I W̄ C̄_Iᵀ‖²_F
    double norm = 0;            // ‖G_II‖²_F
};

// Singular values of C̄_I below this fraction of the largest count as zero:
// nearly dependent features (a pseudo-landmark that repeats a landmark)
// would otherwise give W̄, and so β, entries of 1/σ² size, which float32
// storage cannot carry.
constexpr double kPinvRcond = 1e-6;

// W̄ = (C̄_I)⁺ G_II ((C̄_I)⁺)ᵀ from the rows `sample` (s x d) and their features C̄_I (s x F).
LeafKernel fit_w_bar(const CompactPredictor &p, const double *sample, int64_t s, const double *cbar_i, int64_t F,
                     int threads) {
    std::vector<double> gram(size_t(s * s)), a(cbar_i, cbar_i + s * F), pinv(size_t(F * s)), t(size_t(F * s));
    Arena scratch(std::max(kernel_block_workspace_bytes(p.kernel, s, s, p.d), linalg::pinv_workspace_bytes(s, F)));
    kernel_block(p.kernel, sample, s, p.d, sample, s, p.d, p.d, gram.data(), s, scratch, threads);
    linalg::pinv(s, F, a.data(), F, pinv.data(), s, scratch, kPinvRcond);
    LeafKernel out;
    out.w_bar.assign(size_t(F * F), 0.0);
    using linalg::Trans;
    linalg::gemm(Trans::No, Trans::No, F, s, s, 1.0, pinv.data(), s, gram.data(), s, 0.0, t.data(), s, threads);
    linalg::gemm(Trans::No, Trans::Yes, F, F, s, 1.0, t.data(), s, pinv.data(), s, 0.0, out.w_bar.data(), F, threads);
    for (int64_t i = 0; i < F; ++i)
        for (int64_t j = 0; j < i; ++j)
            out.w_bar[size_t(i * F + j)] = out.w_bar[size_t(j * F + i)] =
                0.5 * (out.w_bar[size_t(i * F + j)] + out.w_bar[size_t(j * F + i)]);
    // Error of the approximation on I: G_II − C̄_I W̄ C̄_Iᵀ.
    std::vector<double> cw(size_t(s * F)), approx(size_t(s * s));
    linalg::gemm(Trans::No, Trans::No, s, F, F, 1.0, cbar_i, F, out.w_bar.data(), F, 0.0, cw.data(), F, threads);
    linalg::gemm(Trans::No, Trans::Yes, s, s, F, 1.0, cw.data(), F, cbar_i, F, 0.0, approx.data(), s, threads);
    for (size_t k = 0; k < gram.size(); ++k) {
        out.error += (gram[k] - approx[k]) * (gram[k] - approx[k]);
        out.norm += gram[k] * gram[k];
    }
    return out;
}

std::vector<double> features(const CompactPredictor &p, const PredictorLeaf &leaf, const double *x, int64_t rows,
                             int threads) {
    std::vector<double> cbar(size_t(rows * leaf.features()));
    Arena scratch(compact_leaf_features_workspace_bytes(p, rows, leaf.m));
    compact_leaf_features(p, leaf, x, rows, cbar.data(), scratch, threads);
    return cbar;
}

// A random subset I of the leaf (positions 0..n_l−1), |I| = min(n_l, submatrix), increasing.
Rows submatrix_rows(Rng &rng, int64_t n, int64_t s) {
    Rows all(static_cast<size_t>(n));
    std::iota(all.begin(), all.end(), 0);
    for (int64_t i = 0; i < s; ++i) std::swap(all[size_t(i)], all[size_t(i + int64_t(rng.below(uint64_t(n - i))))]);
    all.resize(static_cast<size_t>(s));
    std::sort(all.begin(), all.end());
    return all;
}

// ------------------------------------------------------------- 6. retrain
// Φ = C̄ V Λ^{1/2} (n x F) with W̄ = V Λ Vᵀ; `map` (F x F) = V Λ^{1/2}, so β = map · w.
std::vector<double> linear_features(std::vector<double> w_bar, int64_t F, const std::vector<double> &cbar, int64_t n,
                                    std::vector<double> &map, int threads) {
    std::vector<double> values(static_cast<size_t>(F));
    Arena scratch(linalg::eig_sym_workspace_bytes(F));
    map.assign(size_t(F * F), 0.0);
    linalg::eig_sym(F, w_bar.data(), F, values.data(), map.data(), F, scratch);
    const double top = std::max(values.back(), 0.0);
    for (int64_t k = 0; k < F; ++k) {
        const double scale = values[size_t(k)] > 1e-12 * top ? std::sqrt(values[size_t(k)]) : 0.0;
        for (int64_t i = 0; i < F; ++i) map[size_t(i * F + k)] *= scale;
    }
    std::vector<double> phi(size_t(n * F));
    linalg::gemm(linalg::Trans::No, linalg::Trans::No, n, F, F, 1.0, cbar.data(), F, map.data(), F, 0.0, phi.data(), F,
                 threads);
    return phi;
}

// β column k = map · w and bias for every machine, by the linear C-SVC on Φ.
void retrain_classifier(Build &b, const Rows &leaf, const std::vector<double> &phi, const std::vector<double> &map,
                        int64_t F, PredictorLeaf &out, int64_t outputs) {
    const auto data = Dataset::dense_borrow(phi.data(), int64_t(leaf.size()), F, nullptr);
    KernelSpec linear;
    linear.type = KMX_KERNEL_LINEAR;
    Rows rows;
    std::vector<double> y, alpha, w(static_cast<size_t>(F));
    for (int64_t k = 0; k < outputs; ++k) {
        machine_rows(b, leaf, b.machines[size_t(k)], rows, y);
        const double constant = constant_output(y);
        if (!std::isnan(constant)) {
            out.bias[size_t(k)] = constant;
            continue;
        }
        alpha.resize(rows.size());
        out.bias[size_t(k)] = solve_svm(b, *data, rows, y, linear, true, alpha.data());
        std::fill(w.begin(), w.end(), 0.0);
        for (size_t s = 0; s < rows.size(); ++s)
            for (int64_t f = 0; f < F; ++f) w[size_t(f)] += y[s] * alpha[s] * phi[size_t(rows[s] * F + f)];
        for (int64_t f = 0; f < F; ++f)
            for (int64_t g = 0; g < F; ++g) out.beta[size_t(f * outputs + k)] += map[size_t(f * F + g)] * w[size_t(g)];
    }
}

// Kernel ridge regression on G̃ = ΦΦᵀ for output k, targets t (one per leaf
// row, stride `stride`; the leaf's bias, already in out.bias, subtracted):
// w = (ΦᵀΦ + n λ I)⁻¹ Φᵀ t, β_k = map · w.
void retrain_ridge(Build &b, const Rows &leaf, const double *t, int64_t stride, double lambda,
                   const std::vector<double> &phi, const std::vector<double> &map, int64_t F, int64_t k,
                   int64_t outputs, PredictorLeaf &out) {
    const int64_t n = int64_t(leaf.size());
    std::vector<double> gram(size_t(F * F)), w(static_cast<size_t>(F), 0.0);
    linalg::syrk(linalg::Uplo::Lower, linalg::Trans::Yes, F, n, 1.0, phi.data(), F, 0.0, gram.data(), F, b.ctx.threads);
    linalg::symmetrize(linalg::Uplo::Lower, F, gram.data(), F);
    for (int64_t s = 0; s < n; ++s)
        for (int64_t f = 0; f < F; ++f) w[size_t(f)] += phi[size_t(s * F + f)] * t[s * stride];
    ridge_solve(gram, F, double(n) * lambda, w.data());
    for (int64_t f = 0; f < F; ++f)
        for (int64_t g = 0; g < F; ++g) out.beta[size_t(f * outputs + k)] += map[size_t(f * F + g)] * w[size_t(g)];
}

// ------------------------------------------------------------ one leaf
// A leaf whose local model is constant (every machine sees one class, or a
// regression leaf with one target value): one landmark (its center), β = 0,
// the constants in the bias.
void constant_leaf(const Build &b, const Rows &leaf_rows, int64_t outputs, PredictorLeaf &leaf) {
    leaf.m = 1;
    leaf.landmarks = leaf.center;
    store_landmarks(leaf, b.options.storage);
    leaf.beta.assign(size_t(outputs), 0.0);
    leaf.bias.assign(size_t(outputs), 0.0);
    if (b.machines.empty()) {
        leaf.bias[0] = b.y[size_t(leaf_rows[0])];
        return;
    }
    Rows rows;
    std::vector<double> y;
    for (int64_t k = 0; k < outputs; ++k) {
        machine_rows(b, leaf_rows, b.machines[size_t(k)], rows, y);
        leaf.bias[size_t(k)] = constant_output(y);
    }
}

// Instead of steps 5–6: the landmarks refined to fit the targets on at most
// kRefineRows of the leaf's rows (seeded), then β and the bias refitted on
// all its rows at the landmarks as stored. An iteration costs about
// 2 n_s m (m + d + outputs) flops (its trial steps included); the leaves
// share options.refine_work, so many landmarks per leaf get fewer
// iterations (none when one does not fit: k-means landmarks are good when
// there are many).
constexpr int64_t kRefineRows = 1000;
int refine_iterations(const Build &b, int64_t rows, int64_t m, int64_t d, int64_t outputs) {
    const double per_iteration = 2.0 * double(rows) * double(m) * double(m + d + outputs);
    const double leaf_share = b.options.refine_work / double(b.plan.leaves);
    return int(std::min<double>(b.options.refine_iterations, std::floor(leaf_share / per_iteration)));
}

void refine_leaf(Build &b, const CompactPredictor &p, const Rows &leaf_rows, const std::vector<double> &targets,
                 Rng &rng, PredictorLeaf &leaf) {
    const int64_t n = int64_t(leaf_rows.size()), d = p.d, k = p.outputs;
    const std::vector<double> x = gather(b, leaf_rows, d);
    const double lambda = p.task == PredictorTask::regression ? b.lambda : b.options.ridge;
    const Rows sample = submatrix_rows(rng, n, std::min(n, kRefineRows));
    std::vector<double> x_s(sample.size() * size_t(d)), t_s(sample.size() * size_t(k));
    for (size_t i = 0; i < sample.size(); ++i) {
        std::copy(&x[size_t(sample[i] * d)], &x[size_t((sample[i] + 1) * d)], &x_s[i * size_t(d)]);
        std::copy(&targets[size_t(sample[i] * k)], &targets[size_t((sample[i] + 1) * k)], &t_s[i * size_t(k)]);
    }
    const int iterations = refine_iterations(b, int64_t(sample.size()), leaf.m, d, k);
    refine_landmarks(p.kernel, x_s.data(), int64_t(sample.size()), d, t_s.data(), k, leaf.landmarks, lambda, iterations,
                     b.ctx.threads);
    store_landmarks(leaf, b.options.storage);
    const LandmarkFit fit =
        fit_landmark_weights(p.kernel, x.data(), n, d, targets.data(), k, leaf.landmarks, lambda, b.ctx.threads);
    leaf.beta = fit.beta;
    for (int64_t j = 0; j < k; ++j) leaf.bias[size_t(j)] += fit.bias[size_t(j)];
}

// Whether a leaf of n rows is refined: a ridge fit (regression, distill),
// no pseudo-landmarks, fewer landmarks than rows.
bool refines(const Build &b, const CompactPredictor &p, int64_t n) {
    const bool ridge_fit = p.task == PredictorTask::regression || b.options.fit != DcpredFit::svm;
    return ridge_fit && b.plan.p_tri + b.plan.p_prod == 0 && b.plan.m < n && b.options.refine_iterations > 0;
}

// Steps 3–6 for one leaf: landmarks from its α² weights, pseudo-landmarks,
// W̄ on a random submatrix, and the refit (svm, or ridge on `targets`).
void fit_leaf(Build &b, CompactPredictor &p, const Rows &leaf_rows, const std::vector<double> &weight,
              const std::vector<double> &targets, Rng &rng, PredictorLeaf &leaf) {
    const int64_t d = p.d;
    if (refines(b, p, int64_t(leaf_rows.size()))) {
        choose_landmarks(b, leaf_rows, weight, d, leaf, false);
        return refine_leaf(b, p, leaf_rows, targets, rng, leaf);
    }
    choose_landmarks(b, leaf_rows, weight, d, leaf);
    choose_pseudo_landmarks(b, rng, p.kernel, leaf_rows, weight, d, leaf);
    const int64_t F = leaf.features(), n = int64_t(leaf_rows.size());
    const std::vector<double> x = gather(b, leaf_rows, d);
    const std::vector<double> cbar = features(p, leaf, x.data(), n, b.ctx.threads);
    const Rows sample = submatrix_rows(rng, n, std::min(n, b.plan.submatrix));
    std::vector<double> x_i(sample.size() * size_t(d)), cbar_i(sample.size() * size_t(F));
    for (size_t i = 0; i < sample.size(); ++i) {
        std::copy(&x[size_t(sample[i] * d)], &x[size_t((sample[i] + 1) * d)], &x_i[i * size_t(d)]);
        std::copy(&cbar[size_t(sample[i] * F)], &cbar[size_t((sample[i] + 1) * F)], &cbar_i[i * size_t(F)]);
    }
    const LeafKernel kernel = fit_w_bar(p, x_i.data(), int64_t(sample.size()), cbar_i.data(), F, b.ctx.threads);
    std::vector<double> map;
    const std::vector<double> phi = linear_features(kernel.w_bar, F, cbar, n, map, b.ctx.threads);
    leaf.beta.assign(size_t(F * p.outputs), 0.0);
    if (p.task == PredictorTask::classification && b.options.fit == DcpredFit::svm) {
        retrain_classifier(b, leaf_rows, phi, map, F, leaf, p.outputs);
    } else {
        const double lambda = p.task == PredictorTask::regression ? b.lambda : b.options.ridge;
        for (int64_t k = 0; k < p.outputs; ++k)
            retrain_ridge(b, leaf_rows, targets.data() + k, p.outputs, lambda, phi, map, F, k, p.outputs, leaf);
    }
}

// Relative kernel approximation error Σ‖G_II − C̄_I W̄ C̄_Iᵀ‖² / Σ‖G_II‖² over
// the leaves, with landmarks and pseudo-landmarks chosen as fit_leaf does.
double approximation_error(Build &b, CompactPredictor p, const std::vector<Rows> &rows,
                           const std::vector<std::vector<double>> &weights, const std::vector<bool> &constant,
                           uint64_t seed) {
    double error = 0, norm = 0;
    for (size_t l = 0; l < rows.size(); ++l) {
        if (constant[l]) continue;
        Rng rng = Rng(seed).split(l);
        PredictorLeaf leaf = p.leaves[l];
        choose_landmarks(b, rows[l], weights[l], p.d, leaf);
        choose_pseudo_landmarks(b, rng, p.kernel, rows[l], weights[l], p.d, leaf);
        const Rows sample =
            submatrix_rows(rng, int64_t(rows[l].size()), std::min<int64_t>(int64_t(rows[l].size()), b.plan.submatrix));
        Rows global(sample.size());
        for (size_t i = 0; i < sample.size(); ++i) global[i] = rows[l][size_t(sample[i])];
        const std::vector<double> x = gather(b, global, p.d);
        const std::vector<double> cbar = features(p, leaf, x.data(), int64_t(global.size()), b.ctx.threads);
        const LeafKernel k =
            fit_w_bar(p, x.data(), int64_t(global.size()), cbar.data(), leaf.features(), b.ctx.threads);
        error += k.error;
        norm += k.norm;
    }
    return norm > 0 ? error / norm : 0;
}

// Budget for the leaf stage, from the largest leaf: its rows, features, Φ,
// G_II and the pseudo-inverse, and the local SVM's workspace with a full cache.
void check_leaf_budget(Build &b, const CompactPredictor &p, const std::vector<Rows> &rows) {
    size_t largest = 0;
    for (const Rows &r : rows) largest = std::max(largest, r.size());
    const int64_t n = int64_t(largest), F = std::min(b.plan.m, n) + b.plan.p_tri + b.plan.p_prod, d = p.d;
    const int64_t s = std::min(n, b.plan.submatrix);
    const size_t cache = svm_cache_bytes(n);
    WorkspacePlan plan;
    plan.add<double>(size_t(n * (d + 3 * F))).add<double>(size_t(s * s) * 2).add<double>(size_t(s * F) * 4);
    plan.add_bytes(std::max(svm_dual_workspace_bytes(n, std::max(d, F), cache), linalg::pinv_workspace_bytes(s, F)));
    if (p.task == PredictorTask::regression)
        plan.add<double>(size_t(std::min(n, kExactKrrRows) * std::min(n, kExactKrrRows)));
    if (refines(b, p, n)) {  // kernel values, trial values, [K 1], gradient weights and scales; the normal equations
        const int64_t rows = std::min(n, kRefineRows), m = std::min(b.plan.m, n);
        plan.add<double>(size_t(6 * rows * (m + 1) + (m + 1) * (m + 1) + 2 * rows * (d + p.outputs)));
    }
    b.ctx.check_budget(plan.bytes(), "dcpred (leaves)");
}

// What the ridge refit reproduces at the leaf's rows (n_l x outputs), less
// the leaf's bias (offsets): regression, the targets less their mean;
// distill_model, the full model's decision values less its biases;
// distill_local, the local SVMs' (already in place); svm: unused.
void leaf_targets(const Build &b, const CompactPredictor &p, const Rows &leaf, const Model *model,
                  std::vector<double> &targets, std::vector<double> &offsets) {
    const size_t k = size_t(p.outputs);
    if (p.task == PredictorTask::regression) {
        double mean = 0;
        for (int64_t row : leaf) mean += b.y[size_t(row)] / double(leaf.size());
        targets.resize(leaf.size());
        for (size_t s = 0; s < leaf.size(); ++s) targets[s] = b.y[size_t(leaf[s])] - mean;
        offsets.assign(1, mean);
    } else if (b.options.fit == DcpredFit::distill_model) {
        for (size_t j = 0; j < k; ++j) offsets[j] = model->machines[j].bias;
        for (size_t s = 0; s < leaf.size(); ++s)
            for (size_t j = 0; j < k; ++j) targets[s * k + j] = b.decision[size_t(leaf[s]) * k + j] - offsets[j];
    }
}

// Steps 1–2: the tree (a predictor with its centers, no landmarks yet), the
// rows of each leaf, their α² weights, the targets of a ridge refit and the
// leaves' biases, and which leaves are constant.
struct LocalModels {
    CompactPredictor tree;
    std::vector<Rows> rows;
    std::vector<std::vector<double>> weights, targets, offsets;
    std::vector<bool> constant;
};

// Step 2 over every leaf, after the tree.
void fit_local_models(Build &b, LocalModels &s, const Model *model) {
    const CompactPredictor &p = s.tree;
    const size_t leaves = s.rows.size();
    s.weights.resize(leaves), s.targets.resize(leaves), s.offsets.resize(leaves), s.constant.resize(leaves);
    for (size_t l = 0; l < leaves; ++l) {
        s.weights[l] =
            p.task == PredictorTask::regression
                ? regression_weights(b, p.kernel, s.rows[l], p.d)
                : classification_weights(b, p.kernel, model->has_bias, s.rows[l], s.targets[l], s.offsets[l]);
        leaf_targets(b, p, s.rows[l], model, s.targets[l], s.offsets[l]);
        s.constant[l] = std::all_of(s.weights[l].begin(), s.weights[l].end(), [](double w) { return w == 0; });
        b.ctx.progress(0.5 * double(l + 1) / double(leaves), "dcpred local models");
    }
}

LocalModels grow(Build &b, CompactPredictor p, const Model *model) {
    check_tree_budget(b, p.d);
    LocalModels s;
    s.rows = build_tree(b, p);
    s.tree = std::move(p);
    check_leaf_budget(b, s.tree, s.rows);
    fit_local_models(b, s, model);
    return s;
}

// Steps 3–6 over every leaf, after steps 1–2, with b's options and plan.
CompactPredictor finish(Build &b, const LocalModels &s) {
    CompactPredictor p = s.tree;
    check_leaf_budget(b, p, s.rows);
    const uint64_t seed = b.ctx.seed ^ 0xDC9D;
    p.kernel.gamma *= b.options.gamma_scale;  // the local models used the model's kernel
    if (b.plan.auto_estimate) {
        double best = INFINITY;
        for (int e = 0; e < 3; ++e) {
            p.triangle_estimate = TriangleEstimate(e);
            const double error = approximation_error(b, p, s.rows, s.weights, s.constant, seed);
            b.ctx.log(KMX_LOG_DEBUG, "dcpred: triangle estimate %d: relative kernel error %.4g", e, error);
            if (error < best) best = error, p.triangle_estimate = TriangleEstimate(e);
        }
        if (best == INFINITY) p.triangle_estimate = TriangleEstimate::lower;
    } else if (b.options.triangle_estimate >= 0) {
        p.triangle_estimate = TriangleEstimate(b.options.triangle_estimate);
    }
    for (size_t l = 0; l < s.rows.size(); ++l) {
        PredictorLeaf &leaf = p.leaves[l];
        leaf.bias = s.offsets[l];
        if (s.constant[l]) {
            constant_leaf(b, s.rows[l], p.outputs, leaf);
        } else {
            Rng rng = Rng(seed).split(l);
            fit_leaf(b, p, s.rows[l], s.weights[l], s.targets[l], rng, leaf);
        }
        round_reals(leaf.beta, b.options.storage);
        round_reals(leaf.bias, b.options.storage);
        b.ctx.progress(0.5 + 0.5 * double(l + 1) / double(s.rows.size()), "dcpred leaves");
    }
    round_reals(p.top_centers, b.options.storage);
    p.storage = b.options.storage;
    check_compact_predictor(p);
    return p;
}

// The model's binary problems in its decision-value order.
std::vector<Machine> model_machines(const Model &model) {
    std::vector<Machine> machines;
    for (const BinaryMachine &m : model.machines) machines.push_back({m.positive, m.negative});
    return machines;
}

// Class index of every label (KMX_E_INVALID_ARGUMENT for labels the model does not know).
std::vector<int32_t> class_indices(const Model &model, const Dataset &train) {
    require(train.y != nullptr, "dcpred: training data needs labels");
    std::vector<int32_t> index(size_t(train.n));
    for (int64_t i = 0; i < train.n; ++i) {
        const auto it = std::lower_bound(model.classes.begin(), model.classes.end(), train.y[i]);
        if (it == model.classes.end() || *it != train.y[i])
            fail(KMX_E_INVALID_ARGUMENT, "dcpred: label %g of row %lld is not one of the model's classes", train.y[i],
                 static_cast<long long>(i));
        index[size_t(i)] = int32_t(it - model.classes.begin());
    }
    return index;
}

// The model's C: its largest |y_i α_i| (the box bound, reached by bounded
// support vectors; class weights are not recovered).
double model_c(const Model &model) {
    double c = 0;
    for (const BinaryMachine &m : model.machines)
        for (double v : m.coef) c = std::max(c, std::fabs(v));
    return c;
}

}  // namespace

// ------------------------------------------------------------ the stages
struct DcpredStages::State {
    State(Context &ctx, const Model &m, const DcpredOptions &o, int64_t n, int64_t leaves_when_auto,
          std::vector<double> x)
        : model(m),
          stage_options(o),
          auto_leaves(leaves_when_auto),
          stage_plan(plan_for(o, n)),
          build(ctx, o, stage_plan, std::move(x), n) {}
    Plan plan_for(const DcpredOptions &o, int64_t n) const {
        return resolve_plan(o, model.kernel, n, auto_leaves, model.support_vectors);
    }
    const Model &model;
    DcpredOptions stage_options;  // what steps 1–2 were built with
    int64_t auto_leaves;
    Plan stage_plan;
    Build build;
    LocalModels local;
};

DcpredStages::DcpredStages(Context &ctx, const Model &model, const Dataset &train, const DcpredOptions &options) {
    require(model.classes.size() >= 2 && !model.machines.empty(), "dcpred: the model must be a trained classifier");
    // About 16 support vectors per leaf (the leaves' exact local models then
    // fit in ~40 landmarks), and at least ~24 rows per leaf (~48 with overlap) to learn from.
    const int64_t auto_leaves = std::min((model.support_vectors + 8) / 16, train.n / 24);
    state_ = std::make_unique<State>(ctx, model, options, train.n, auto_leaves, dense_rows(train, model.d));
    Build &b = state_->build;
    b.label_class = class_indices(model, train);
    b.machines = model_machines(model);
    b.C = options.C > 0 ? options.C : model_c(model);
    require(b.C > 0 && std::isfinite(b.C),
            "dcpred: C must be > 0 (and the model has no support vectors to take it from)");
    b.data = Dataset::dense_borrow(b.x.data(), b.n, model.d, nullptr);
    require(options.ridge > 0 && std::isfinite(options.ridge), "dcpred: ridge must be > 0");
    if (options.fit == DcpredFit::distill_model) {
        const size_t values = size_t(b.n) * model.machines.size();
        ctx.check_budget(sizeof(double) * values, "dcpred (decision values)");
        if (options.model_decision) {
            b.decision.assign(options.model_decision, options.model_decision + values);
        } else {
            b.decision.resize(values);
            model_decision_values(ctx, model, *b.data, b.decision.data());
        }
    }
    CompactPredictor p;
    p.kernel = model.kernel;
    p.kernel.gamma = model.kernel.gamma_for(model.d);
    p.d = model.d;
    p.task = PredictorTask::classification;
    p.multiclass = model.multiclass;
    p.classes = model.classes;
    p.outputs = int64_t(model.machines.size());
    p.sigmoids = sigmoid_pairs(model);  // probability estimates survive compression
    state_->local = grow(b, std::move(p), &model);
}

DcpredStages::~DcpredStages() = default;

bool DcpredStages::same_stages(const DcpredOptions &o) const {
    const State &s = *state_;
    const DcpredOptions &a = s.stage_options;
    const Plan plan = s.plan_for(o, s.build.n);
    return plan.leaves == s.stage_plan.leaves && plan.top == s.stage_plan.top && o.overlap == a.overlap &&
           o.kmeans_iterations == a.kmeans_iterations && o.C == a.C && o.eps == a.eps && o.fit == a.fit &&
           o.model_decision == a.model_decision && stores_float(o.storage) == stores_float(a.storage);
}

CompactPredictor DcpredStages::build(const DcpredOptions &options) {
    require(same_stages(options),
            "dcpred: these options need another tree or other local models than the stages were built with");
    Build &b = state_->build;
    b.plan = state_->plan_for(options, b.n);
    b.options = options;
    return finish(b, state_->local);
}

CompactPredictor build_dcpred(Context &ctx, const Model &model, const Dataset &train, const DcpredOptions &options) {
    return DcpredStages(ctx, model, train, options).build(options);
}

CompactPredictor build_dcpred_regression(Context &ctx, const KernelSpec &kernel, double lambda, const Dataset &train,
                                         const DcpredOptions &options) {
    require(lambda > 0 && std::isfinite(lambda), "dcpred: lambda must be > 0");
    require(train.y != nullptr, "dcpred: training data needs targets");
    check_finite(train.y, train.n, 1, "targets");
    Build b{ctx, options, resolve_plan(options, kernel, train.n, train.n / 48, train.n / 3), dense_rows(train, train.d),
            train.n};
    b.y.assign(train.y, train.y + train.n);
    b.lambda = lambda;
    b.data = Dataset::dense_borrow(b.x.data(), b.n, train.d, nullptr);
    CompactPredictor p;
    p.kernel = kernel;
    p.kernel.gamma = kernel.gamma_for(train.d);
    p.d = train.d;
    p.task = PredictorTask::regression;
    p.outputs = 1;
    return finish(b, grow(b, std::move(p), nullptr));
}

size_t compact_predictor_bytes(const CompactPredictor &p, PredictorStorage storage) {
    const bool coded = quantizes_landmarks(storage) || uses_codebook(storage);
    const size_t code_bits = storage == PredictorStorage::int16 ? 16 : storage == PredictorStorage::int4 ? 4 : 8;
    size_t reals = p.top_centers.size(), ints = p.top_leaf_begin.size(), codes = 0;
    for (const PredictorLeaf &leaf : p.leaves) {
        reals += leaf.center.size() + leaf.triangle_dist.size() + leaf.beta.size() + leaf.bias.size();
        (coded ? codes : reals) += leaf.landmarks.size();
        if (uses_codebook(storage)) reals += leaf.center.size() * kCodebookValues;
        ints += 3 + leaf.product_pairs.size() + (coded ? 1 : 0);  // + the scale or the codebook's offset
    }
    return reals * (stores_float(storage) ? sizeof(float) : sizeof(double)) + ints * sizeof(int32_t) +
           (codes * code_bits + 7) / 8;
}

}  // namespace kmx
