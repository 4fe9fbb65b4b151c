// svm_dual.cpp — the SVM dual by LIBSVM's decomposition method (Chang & Lin,
// "LIBSVM: a library for support vector machines", 2011; Fan, Chen & Lin,
// "Working set selection using second order information", JMLR 2005):
//
//   min_α f(α) = ½ αᵀQα + pᵀα,  0 ≤ α_t ≤ C_t,  with bias also yᵀα = 0
//
// (p = −e for C-SVC; the linear term enters only ∇f = Qα + p, so the
// selection, the steps, shrinking and the bias read it through ∇f).
//
// With bias, SMO on pairs: I_up = {t : y_t = +1, α_t < C_t or y_t = −1, α_t > 0},
// I_low = {t : y_t = +1, α_t > 0 or y_t = −1, α_t < C_t},
//   m(α) = max_{t∈I_up} −y_t ∇f_t,  M(α) = min_{t∈I_low} −y_t ∇f_t,
// stop when m(α) − M(α) < eps; otherwise (WSS2) i = argmax over I_up of
// −y_t ∇f_t and j = argmin over t ∈ I_low with −y_t ∇f_t < m(α) of
// −b_it² / a_it, b_it = m(α) + y_t ∇f_t, a_it = K_ii + K_tt − 2K_it (at least
// τ); the pair's two-variable subproblem is solved in closed form and clipped.
//
// Without bias (no equality constraint) coordinate descent: the projected
// gradient ∇ᴾf_t is ∇f_t on free variables, min(∇f_t, 0) at 0 and
// max(∇f_t, 0) at C_t; stop when max |∇ᴾf_t| < eps; otherwise pick the
// variable whose clipped Newton step α_t ← clip(α_t − ∇f_t / Q_tt, 0, C_t)
// decreases f the most (second-order selection) and take that step.
//
// Both keep ∇f = Qα + p up to date over the active variables, and
// Ḡ = Σ_{α_t = C_t} C_t Q_{·t} over all of them, so that shrinking (LIBSVM's
// heuristic: every min(n, 1000) iterations drop bound variables whose
// gradients say they stay at their bound; when the active set has converged,
// rebuild their gradients from Ḡ and the free α's, and check again) never
// needs the full Q. LIBSVM also restores them once on the way, at 10 eps;
// that rebuild costs |free| · |shrunk| kernel entries (6 s of a 45 s solve
// of a 38804-row digits cluster) and there found nothing the final check
// would not have, so the final check alone does it.
#include "svm_dual.h"

#include <algorithm>
#include <cmath>

#include "core/bytes_text.h"
#include "core/context.h"
#include "core/dataset.h"
#include "core/error.h"
#include "svm_q_matrix.h"

namespace kmx {

namespace {

constexpr double kTau = 1e-12;  // τ, the floor of a_ij (LIBSVM's TAU)
constexpr double kInf = HUGE_VAL;
constexpr int64_t kShrinkPeriod = 1000;         // iterations between shrinking rounds (at most)
constexpr int64_t kMinIterationCap = 10000000;  // LIBSVM's max_iter: max(10^7, 100 n)
constexpr int64_t kRankedColumns = 64;          // prepare_column's look-ahead while the cache is tight

// A variable prepare_column ranks by its violation.
struct Candidate {
    double score;
    int64_t index;
};

// status_ bits: where α_t sits in its box, and (with bias) whether t is in
// I_up and I_low, precomputed so that the selection loops test one bit.
enum Status : uint8_t { kLowerBound = 1, kUpperBound = 2, kInUp = 4, kInLow = 8 };

// Arena bytes of the solver's own arrays (α, ∇f, Ḡ, C, bound status, the
// permutation); the Q matrix and the cache come on top.
size_t solver_arrays_bytes(int64_t n) {
    return WorkspacePlan()
        .add<double>(size_t(n))
        .add<double>(size_t(n))
        .add<double>(size_t(n))
        .add<double>(size_t(n))
        .add<double>(size_t(n))
        .add<uint8_t>(size_t(n))
        .add<int64_t>(size_t(n))
        .add<Candidate>(size_t(n))
        .bytes();
}

size_t fixed_workspace_bytes(int64_t n, const SvmRows &rows) {
    return solver_arrays_bytes(n) + SvmQMatrix::workspace_bytes(n, rows);
}

// Cache slots of an `auto` request that has `left` bytes for the cache: as
// many columns as fit (all n at most), within what the machine can give now
// (an unlimited budget is no licence to map more than the memory there is).
// On 100000 digits rows (d = 256) DC-SVM's global solve took 272 s with the
// former 1 GiB cap and 52 s with 8 GiB.
int64_t auto_cache_slots(int64_t n, size_t left) {
    return KernelCache::slots_fitting(n, std::min(left, machine_memory_budget()));
}

void validate(const SvmProblem &problem, const SvmOptions &options, const double *alpha) {
    require(problem.data != nullptr, "SVM problem: data is null");
    require(problem.y != nullptr && problem.upper != nullptr, "SVM problem: labels y or bounds upper are null");
    require(alpha != nullptr, "SVM solve: alpha is null");
    if (problem.n <= 0) fail(KMX_E_INVALID_ARGUMENT, "SVM problem has no rows (n = %lld)", (long long)problem.n);
    if (!problem.rows && problem.n > problem.data->n)
        fail(KMX_E_INVALID_ARGUMENT, "SVM problem: n = %lld exceeds the dataset's %lld rows", (long long)problem.n,
             (long long)problem.data->n);
    if (!(options.eps > 0)) fail(KMX_E_INVALID_ARGUMENT, "SVM eps = %g must be > 0", options.eps);
    for (int64_t t = 0; t < problem.n; ++t) {
        if (problem.rows && (problem.rows[t] < 0 || problem.rows[t] >= problem.data->n))
            fail(KMX_E_INVALID_ARGUMENT, "SVM problem: rows[%lld] = %lld is outside the dataset's %lld rows",
                 (long long)t, (long long)problem.rows[t], (long long)problem.data->n);
        if (problem.y[t] != 1.0 && problem.y[t] != -1.0)
            fail(KMX_E_INVALID_ARGUMENT, "SVM problem: y[%lld] = %g is not +1 or -1", (long long)t, problem.y[t]);
        if (!(problem.upper[t] > 0) || !std::isfinite(problem.upper[t]))
            fail(KMX_E_INVALID_ARGUMENT, "SVM problem: upper[%lld] = %g must be finite and > 0", (long long)t,
                 problem.upper[t]);
        if (!std::isfinite(alpha[t]))
            fail(KMX_E_INVALID_ARGUMENT, "SVM warm start: alpha[%lld] = %g is not finite", (long long)t, alpha[t]);
        if (problem.linear && !std::isfinite(problem.linear[t]))
            fail(KMX_E_INVALID_ARGUMENT, "SVM problem: linear[%lld] = %g is not finite", (long long)t,
                 problem.linear[t]);
    }
}

class DualSolver {
public:
    DualSolver(Context &ctx, Arena &arena, SvmQMatrix &q, const SvmProblem &problem, const SvmOptions &options)
        : ctx_(ctx),
          q_(q),
          options_(options),
          linear_(problem.linear),
          n_(problem.n),
          active_(problem.n),
          final_active_(problem.n) {
        alpha_ = arena.alloc<double>(size_t(n_));
        grad_ = arena.alloc<double>(size_t(n_));
        grad_bar_ = arena.alloc<double>(size_t(n_));
        pending_ = arena.alloc<double>(size_t(n_));
        std::fill(pending_, pending_ + n_, 0.0);
        upper_ = arena.alloc<double>(size_t(n_));
        status_ = arena.alloc<uint8_t>(size_t(n_));
        index_ = arena.alloc<int64_t>(size_t(n_));
        candidates_ = arena.alloc<Candidate>(size_t(n_));
        std::copy(problem.upper, problem.upper + n_, upper_);
        y_ = q_.labels();
        qd_ = q_.diagonal();
    }

    SvmSolution solve(double *alpha);

private:
    bool at_upper(int64_t t) const { return status_[t] & kUpperBound; }
    bool at_lower(int64_t t) const { return status_[t] & kLowerBound; }
    bool is_free(int64_t t) const { return !(status_[t] & (kLowerBound | kUpperBound)); }
    // p_t of the variable now at position t (index_ maps it to the problem's order).
    double linear_term(int64_t t) const { return linear_ ? linear_[index_[t]] : -1.0; }
    // I_up: y_t = +1 and α_t < C_t, or y_t = −1 and α_t > 0; I_low the other way round.
    void update_status(int64_t t) {
        const bool at_c = alpha_[t] >= upper_[t], at_0 = !at_c && alpha_[t] <= 0;
        const bool can_rise = !at_c, can_fall = !at_0, positive = y_[t] > 0;
        status_[t] =
            uint8_t((at_c ? kUpperBound : 0) | (at_0 ? kLowerBound : 0) |
                    ((positive ? can_rise : can_fall) ? kInUp : 0) | ((positive ? can_fall : can_rise) ? kInLow : 0));
    }

    void start_from(const double *alpha);
    void make_feasible();
    void iterate();
    bool select_pair(int64_t &i, int64_t &j);
    struct CoordinateChoice {
        double worst = 0, best = 0;  // max |∇ᴾf_t|, the largest decrease
        int64_t index = -1;
    };
    bool select_coordinate(int64_t &i);
    template <int Columns>
    CoordinateChoice update_and_choose(const float *q_i, double d_i, const float *q_p, double d_p);
    void consider_coordinate(int64_t t, double g, CoordinateChoice &choice) const;
    bool accept_coordinate(const CoordinateChoice &choice, int64_t &i);
    void prepare_column(int64_t t);
    double violation_score(int64_t t) const;
    void step_pair(int64_t i, int64_t j);
    bool step_coordinates(int64_t i, int64_t partner, int64_t *next);
    void update_grad_bar(int64_t t, bool was_upper);
    void flush_grad_bar();
    template <class Coef>
    void add_weighted_columns(int64_t variables, Coef coef, int64_t begin, int64_t end, double *out);
    double violation_thresholds(double &up, double &low) const;
    void shrink();
    bool be_shrunk(int64_t t, double up, double low) const;
    void swap_variables(int64_t a, int64_t b);
    void reconstruct_gradient();
    double bias() const;
    void report_progress() const;
    SvmSolution finish(double *alpha);

    Context &ctx_;
    SvmQMatrix &q_;
    const SvmOptions &options_;
    const double *linear_;               // p in the problem's order (nullptr: −1 each)
    int64_t n_, active_;                 // variables [0, active_) are active
    double *alpha_, *grad_, *grad_bar_;  // α, ∇f, Ḡ (current order)
    double *pending_;                    // changes of C_t in Ḡ's sum not yet added to Ḡ
    double *upper_;                      // C_t
    uint8_t *status_;                    // Status bits
    int64_t *index_;                     // original position of each variable
    Candidate *candidates_;              // prepare_column's scratch
    const double *y_, *qd_;              // y_t, Q_tt (the Q matrix's, permuted with it)
    int64_t iterations_ = 0;
    int64_t final_active_;  // SvmSolution::final_active
    double violation_ = kInf, first_violation_ = kInf;
};

// Clips the warm start into the box, makes it feasible, and computes
// ∇f = Qα + p and Ḡ from the α_t > 0 in kernel blocks.
void DualSolver::start_from(const double *alpha) {
    for (int64_t t = 0; t < n_; ++t) alpha_[t] = std::clamp(alpha[t], 0.0, upper_[t]);
    if (options_.bias && !options_.keep_warm_start_sum) make_feasible();
    int64_t positive = 0;  // index_ lists the α_t > 0 first, then becomes the identity
    for (int64_t t = 0; t < n_; ++t) {
        update_status(t);
        if (alpha_[t] > 0) index_[positive++] = t;
    }
    if (positive > 0) {
        q_.add_gradient_terms(index_, positive, alpha_, upper_, linear_, grad_, grad_bar_);
    } else {
        for (int64_t t = 0; t < n_; ++t) grad_[t] = linear_ ? linear_[t] : -1.0;
        std::fill(grad_bar_, grad_bar_ + n_, 0.0);
    }
    for (int64_t t = 0; t < n_; ++t) index_[t] = t;
}

// With bias a warm start must satisfy yᵀα = 0: the class with the larger
// Σα is scaled down to the other's sum (scaling keeps 0 ≤ α_t ≤ C_t; a class
// with Σα = 0 leaves the other at zero).
void DualSolver::make_feasible() {
    double positive = 0, negative = 0;
    for (int64_t t = 0; t < n_; ++t) (y_[t] > 0 ? positive : negative) += alpha_[t];
    if (positive == negative) return;
    const double side = positive > negative ? 1.0 : -1.0;
    const double scale = positive > negative ? negative / positive : positive / negative;
    for (int64_t t = 0; t < n_; ++t)
        if (y_[t] == side) alpha_[t] *= scale;
}

// LIBSVM's WSS2 on the active variables (see the top of the file). Returns
// false when m(α) − M(α) < eps (or no pair can improve f).
bool DualSolver::select_pair(int64_t &i, int64_t &j) {
    const int64_t active = active_;
    const double *y = y_, *grad = grad_, *qd = qd_;
    const uint8_t *status = status_;
    double g_max = -kInf, g_max2 = -kInf;  // m(α) and −M(α)
    int64_t best_i = -1, best_j = -1;
    for (int64_t t = 0; t < active; ++t) {
        const double minus_yg = (status[t] & kInUp) ? -y[t] * grad[t] : -kInf;
        if (minus_yg >= g_max) {
            g_max = minus_yg;
            best_i = t;
        }
    }
    if (g_max == -kInf) best_i = -1;
    if (best_i >= 0) prepare_column(best_i);
    const float *q_i = best_i >= 0 ? q_.column(best_i, active) : nullptr;
    const double qd_i = best_i >= 0 ? qd[best_i] : 0, y_i = best_i >= 0 ? y[best_i] : 0;
    double best = kInf;
    for (int64_t t = 0; t < active; ++t) {
        if (!(status[t] & kInLow)) continue;
        const double yg = y[t] * grad[t];
        g_max2 = std::max(g_max2, yg);
        const double b = g_max + yg;  // b_it
        if (b <= 0) continue;
        // a_it = K_ii + K_tt − 2 K_it, K_it = y_i y_t Q_it
        const double a = qd_i + qd[t] - 2.0 * y_i * y[t] * double(q_i[t]);
        const double gain = -(b * b) / (a > 0 ? a : kTau);
        if (gain <= best) {
            best = gain;
            best_j = t;
        }
    }
    i = best_i;
    j = best_j;
    violation_ = g_max + g_max2;
    return !(violation_ < options_.eps || best_j < 0);
}

// Greedy second-order coordinate: the largest decrease of f by one clipped
// Newton step. Returns false when max |∇ᴾf| < eps.
bool DualSolver::select_coordinate(int64_t &i) {
    return accept_coordinate(update_and_choose<0>(nullptr, 0, nullptr, 0), i);
}

// One pass over the active variables: ∇f += δ_i Q_{·i} (+ δ_p Q_{·p}) for
// the first `Columns` columns, and select_coordinate's choice on the updated ∇f.
template <int Columns>
DualSolver::CoordinateChoice DualSolver::update_and_choose(const float *q_i, double d_i, const float *q_p, double d_p) {
    CoordinateChoice choice;
    double *grad = grad_;
    for (int64_t t = 0; t < active_; ++t) {
        double g = grad[t];
        if constexpr (Columns >= 1) g += double(q_i[t]) * d_i;
        if constexpr (Columns >= 2) g += double(q_p[t]) * d_p;
        if constexpr (Columns >= 1) grad[t] = g;
        consider_coordinate(t, g, choice);
    }
    return choice;
}

// Variable t with gradient g as a candidate of select_coordinate: max
// |∇ᴾf_t|, and the t whose clipped Newton step δ_t = clip(α_t − ∇f_t / Q_tt,
// 0, C_t) − α_t decreases f the most, by −δ_t (∇f_t + ½ Q_tt δ_t).
inline void DualSolver::consider_coordinate(int64_t t, double g, CoordinateChoice &choice) const {
    const uint8_t status = status_[t];
    const double projected = std::clamp(g, (status & kUpperBound) ? 0.0 : -kInf, (status & kLowerBound) ? 0.0 : kInf);
    choice.worst = std::max(choice.worst, std::fabs(projected));
    // the clipped step's decrease is at most (∇ᴾf_t)² / (2 Q_tt)
    const double q_tt = std::max(qd_[t], kTau);
    if (projected * projected <= 2 * q_tt * choice.best) return;
    const double delta = std::clamp(alpha_[t] - g / q_tt, 0.0, upper_[t]) - alpha_[t];
    const double decrease = -delta * (g + 0.5 * q_tt * delta);
    if (decrease > choice.best) {
        choice.best = decrease;
        choice.index = t;
    }
}

bool DualSolver::accept_coordinate(const CoordinateChoice &choice, int64_t &i) {
    i = choice.index;
    violation_ = choice.worst;
    return !(violation_ < options_.eps || i < 0);
}

// How far variable t is from optimality, as the selection sees it: with
// bias −y_t ∇f_t in I_up and y_t ∇f_t in I_low (the larger), without it
// |∇ᴾf_t|.
double DualSolver::violation_score(int64_t t) const {
    const double g = grad_[t];
    if (!options_.bias) return at_lower(t) ? -g : at_upper(t) ? g : std::fabs(g);
    const double yg = y_[t] * g;
    double score = -kInf;
    if (status_[t] & kInUp) score = -yg;
    if (status_[t] & kInLow) score = std::max(score, yg);
    return score;
}

// Column t is about to be asked for. If its active entries are not cached,
// they are computed by one GEMM together with those of up to
// prefetch_columns() − 1 other violating variables whose columns are not
// cached: a GEMM of 32 columns costs about 3.5 GEMVs (one column; X is
// streamed from memory either way). Which others:
// - while the cache has empty slots, or slots to spare beyond the free
//   variables' columns (the ones used again and again), the most violating
//   ones: every violator's column is needed sooner or later;
// - once free variables crowd the cache, those among the kRankedColumns
//   most violating variables only, the next iterations' likely choices (the
//   violation changes little per step), so that speculative columns do not
//   evict needed ones (on 30000 digits rows with 100 MB, prefetching every
//   violator's column took 215 s, this rule 70 s).
// On a 38804-row digits cluster with 1 GiB, the look-ahead of 64 alone met
// 1576 new violators one GEMV at a time; with the spare-slot rule, 678.
void DualSolver::prepare_column(int64_t t) {
    if (!q_.prefetches() || q_.cached(t, active_)) return;
    const int64_t others = q_.prefetch_columns() - 1;
    int64_t free = 0, count = 0;  // candidates_[0, count): the violators other than t
    for (int64_t u = 0; u < active_; ++u) {
        free += is_free(u);
        const double s = violation_score(u);
        if (s > 0 && u != t) candidates_[count++] = {s, u};
    }
    const bool empty = q_.cache_room() > others;
    const bool wide = empty || q_.cache_slots() - free > others;
    if (wide)  // only those without a column (while slots are empty: without any of it)
        count =
            std::remove_if(candidates_, candidates_ + count,
                           [&](const Candidate &c) { return empty ? q_.held(c.index) : q_.cached(c.index, active_); }) -
            candidates_;
    const int64_t ranked = std::min(count, wide ? others : kRankedColumns);
    std::partial_sort(candidates_, candidates_ + ranked, candidates_ + count,
                      [](const Candidate &a, const Candidate &b) { return a.score > b.score; });
    int64_t columns[SvmQMatrix::kPrefetchColumns];
    int64_t chosen = 0;
    for (int64_t k = 0; k < ranked && chosen < others; ++k)
        if (wide || !q_.cached(candidates_[k].index, active_)) columns[chosen++] = candidates_[k].index;
    if (chosen == 0) return;  // column() computes only t's missing entries
    columns[chosen++] = t;    // last: the most recently used
    q_.prefetch(columns, chosen, active_);
}

// The two-variable subproblem on (α_i, α_j) in closed form, clipped to the
// box along the line yᵀα = const (LIBSVM's update); then ∇f over the active
// set and Ḡ where a bound status changed.
void DualSolver::step_pair(int64_t i, int64_t j) {
    prepare_column(j);
    const float *q_i = q_.column(i, active_);
    const float *q_j = q_.column(j, active_);
    const double c_i = upper_[i], c_j = upper_[j];
    const double old_i = alpha_[i], old_j = alpha_[j];
    double &a_i = alpha_[i], &a_j = alpha_[j];
    if (y_[i] != y_[j]) {  // α_i − α_j stays constant
        const double quad = qd_[i] + qd_[j] + 2.0 * double(q_i[j]);
        const double delta = (-grad_[i] - grad_[j]) / (quad > 0 ? quad : kTau);
        const double diff = a_i - a_j;
        a_i += delta;
        a_j += delta;
        if (diff > 0 ? a_j < 0 : a_i < 0) {
            a_j = std::max(-diff, 0.0);
            a_i = std::max(diff, 0.0);
        }
        if (diff > c_i - c_j ? a_i > c_i : a_j > c_j) {
            a_i = diff > c_i - c_j ? c_i : c_j + diff;
            a_j = diff > c_i - c_j ? c_i - diff : c_j;
        }
    } else {  // α_i + α_j stays constant
        const double quad = qd_[i] + qd_[j] - 2.0 * double(q_i[j]);
        const double delta = (grad_[i] - grad_[j]) / (quad > 0 ? quad : kTau);
        const double sum = a_i + a_j;
        a_i -= delta;
        a_j += delta;
        if (sum > c_i ? a_i > c_i : a_j < 0) {
            a_i = sum > c_i ? c_i : sum;
            a_j = sum > c_i ? sum - c_i : 0;
        }
        if (sum > c_j ? a_j > c_j : a_i < 0) {
            a_j = sum > c_j ? c_j : sum;
            a_i = sum > c_j ? sum - c_j : 0;
        }
    }
    const double d_i = a_i - old_i, d_j = a_j - old_j;
    for (int64_t t = 0; t < active_; ++t) grad_[t] += double(q_i[t]) * d_i + double(q_j[t]) * d_j;
    const bool was_upper_i = at_upper(i), was_upper_j = at_upper(j);
    update_status(i);
    update_status(j);
    update_grad_bar(i, was_upper_i);
    update_grad_bar(j, was_upper_j);
}

// Without bias: the two-variable subproblem on (α_i, α_p), in the moves δ,
//   min φ(δ) = g_i δ_i + g_p δ_p + ½ (Q_ii δ_i² + 2 Q_ip δ_i δ_p + Q_pp δ_p²)
// over the box 0 ≤ α + δ ≤ C, solved exactly: the unconstrained Newton step
// when it stays inside the box, else the best point of the box's four edges
// (φ is convex, so a minimizer outside the interior lies on an edge). The
// one-variable Newton step on α_i is a candidate too, so that the step never
// decreases f less than greedy coordinate descent's. Returns the new values
// (a bound is returned exactly, so that the status bits see it).
struct PairValues {
    double i, p;
};

class BoxPair {
public:
    BoxPair(double g_i, double g_p, double q_ii, double q_pp, double q_ip, PairValues alpha, PairValues upper)
        : g_i_(g_i),
          g_p_(g_p),
          q_ii_(std::max(q_ii, kTau)),
          q_pp_(std::max(q_pp, kTau)),
          q_ip_(q_ip),
          a_(alpha),
          c_(upper) {}

    PairValues solve() const {
        const double det = q_ii_ * q_pp_ - q_ip_ * q_ip_;
        if (det > kTau * q_ii_ * q_pp_) {
            const PairValues newton{a_.i + (q_ip_ * g_p_ - q_pp_ * g_i_) / det,
                                    a_.p + (q_ip_ * g_i_ - q_ii_ * g_p_) / det};
            if (inside(newton.i, c_.i) && inside(newton.p, c_.p)) return newton;
        }
        PairValues best = a_;
        double best_value = 0;
        const auto consider = [&](PairValues v) {
            const double value = phi(v);
            if (value < best_value) {
                best_value = value;
                best = v;
            }
        };
        consider({along_i(a_.p), a_.p});
        for (const double bound : {0.0, c_.p}) consider({along_i(bound), bound});
        for (const double bound : {0.0, c_.i}) consider({bound, along_p(bound)});
        return best;
    }

private:
    static bool inside(double a, double c) { return a >= 0 && a <= c; }
    double phi(PairValues v) const {
        const double d_i = v.i - a_.i, d_p = v.p - a_.p;
        return g_i_ * d_i + g_p_ * d_p + 0.5 * (q_ii_ * d_i * d_i + 2 * q_ip_ * d_i * d_p + q_pp_ * d_p * d_p);
    }
    // The clipped Newton step of one variable while the other is at `other`.
    double along_i(double other) const { return std::clamp(a_.i - (g_i_ + q_ip_ * (other - a_.p)) / q_ii_, 0.0, c_.i); }
    double along_p(double other) const { return std::clamp(a_.p - (g_p_ + q_ip_ * (other - a_.i)) / q_pp_, 0.0, c_.p); }

    double g_i_, g_p_, q_ii_, q_pp_, q_ip_;
    PairValues a_, c_;
};

// Without bias: α_i (the greedy coordinate) and α_partner (the previous
// step's coordinate, whose column is still cached; −1 for none) move to the
// exact solution of their two-variable subproblem (BoxPair). On strongly
// correlated variables (near-duplicate rows) plain coordinate descent
// zigzags between the two for many iterations; the joint step ends that in
// one. Then ∇f over the active set and Ḡ where a bound status changed. With
// `next`, the same pass over ∇f also selects the next coordinate
// (select_coordinate on the updated ∇f) and returns whether there is one.
bool DualSolver::step_coordinates(int64_t i, int64_t partner, int64_t *next) {
    prepare_column(i);
    const float *q_i = q_.column(i, active_);
    const float *q_p = partner >= 0 && partner != i ? q_.column(partner, active_) : nullptr;
    const double old_i = alpha_[i], old_p = q_p ? alpha_[partner] : 0;
    PairValues updated{std::clamp(old_i - grad_[i] / std::max(qd_[i], kTau), 0.0, upper_[i]), old_p};
    if (q_p)
        updated = BoxPair(grad_[i], grad_[partner], qd_[i], qd_[partner], double(q_i[partner]), {old_i, old_p},
                          {upper_[i], upper_[partner]})
                      .solve();
    const double d_i = updated.i - old_i, d_p = updated.p - old_p;
    const bool was_upper_i = at_upper(i), was_upper_p = q_p && at_upper(partner);
    alpha_[i] = updated.i;
    update_status(i);
    if (d_p != 0) {
        alpha_[partner] = updated.p;
        update_status(partner);
    }
    CoordinateChoice choice;
    if (d_p != 0) {
        if (next) {
            choice = update_and_choose<2>(q_i, d_i, q_p, d_p);
        } else {
            for (int64_t t = 0; t < active_; ++t) grad_[t] += double(q_i[t]) * d_i + double(q_p[t]) * d_p;
        }
        update_grad_bar(partner, was_upper_p);
    } else if (next) {
        choice = update_and_choose<1>(q_i, d_i, nullptr, 0);
    } else {
        for (int64_t t = 0; t < active_; ++t) grad_[t] += double(q_i[t]) * d_i;
    }
    update_grad_bar(i, was_upper_i);
    return next ? accept_coordinate(choice, *next) : false;
}

// Ḡ = Σ_{α_t = C_t} C_t Q_{·t} gains or loses variable t's term, lazily:
// Ḡ is read only when the gradient is reconstructed, and by then many
// variables have reached C and left it again, so the terms wait in pending_
// (cancelling) and are added by flush_grad_bar, 32 columns per GEMM.
void DualSolver::update_grad_bar(int64_t t, bool was_upper) {
    if (was_upper == at_upper(t)) return;
    pending_[t] += was_upper ? -upper_[t] : upper_[t];
}

void DualSolver::flush_grad_bar() {
    add_weighted_columns(
        n_,
        [&](int64_t t) {
            const double c = pending_[t];
            pending_[t] = 0;
            return c;
        },
        0, n_, grad_bar_);
}

// out[j] += Σ_k c_k Q_kj for j in [begin, end), over the variables k <
// `variables` whose coefficient c_k = coef(k) is nonzero, prefetch_columns()
// kernel rows per GEMM.
template <class Coef>
void DualSolver::add_weighted_columns(int64_t variables, Coef coef, int64_t begin, int64_t end, double *out) {
    const int64_t block = q_.prefetch_columns();
    int64_t columns[SvmQMatrix::kPrefetchColumns];
    double coefs[SvmQMatrix::kPrefetchColumns];
    int64_t count = 0;
    for (int64_t k = 0; k < variables; ++k) {
        const double c = coef(k);
        if (c == 0) continue;
        columns[count] = k;
        coefs[count] = c;
        if (++count == block) {
            q_.add_columns(columns, coefs, count, begin, end, out);
            count = 0;
        }
    }
    q_.add_columns(columns, coefs, count, begin, end, out);
}

// The current maximal violation over the active set, and the thresholds
// that shrinking compares gradients with: with bias m(α) (up) and −M(α)
// (low), LIBSVM's Gmax1 and Gmax2; without bias both are max |∇ᴾf|.
double DualSolver::violation_thresholds(double &up, double &low) const {
    up = low = -kInf;
    if (!options_.bias) {
        double worst = 0;
        for (int64_t t = 0; t < active_; ++t) {
            const double g = grad_[t];
            worst = std::max(worst, at_lower(t) ? -g : at_upper(t) ? g : std::fabs(g));
        }
        up = low = worst;
        return worst;
    }
    for (int64_t t = 0; t < active_; ++t) {
        const double yg = y_[t] * grad_[t];
        if (status_[t] & kInUp) up = std::max(up, -yg);
        if (status_[t] & kInLow) low = std::max(low, yg);
    }
    return up + low;
}

// A bound variable whose gradient points out of the box by more than the
// current violation is expected to stay there (Chang & Lin 2011, §5.1).
bool DualSolver::be_shrunk(int64_t t, double up, double low) const {
    if (at_upper(t)) return -grad_[t] > (y_[t] > 0 ? up : low);
    if (at_lower(t)) return grad_[t] > (y_[t] > 0 ? low : up);
    return false;
}

void DualSolver::shrink() {
    double up, low;
    violation_thresholds(up, low);
    for (int64_t t = 0; t < active_; ++t) {
        if (!be_shrunk(t, up, low)) continue;
        // move t behind the active set, trading it for the last one that stays
        for (--active_; active_ > t; --active_) {
            if (!be_shrunk(active_, up, low)) {
                swap_variables(t, active_);
                break;
            }
        }
    }
    q_.fit_cache(active_);
}

void DualSolver::swap_variables(int64_t a, int64_t b) {
    q_.swap_index(a, b);
    std::swap(alpha_[a], alpha_[b]);
    std::swap(grad_[a], grad_[b]);
    std::swap(grad_bar_[a], grad_bar_[b]);
    std::swap(pending_[a], pending_[b]);
    std::swap(upper_[a], upper_[b]);
    std::swap(status_[a], status_[b]);
    std::swap(index_[a], index_[b]);
}

// ∇f_t of the shrunk variables: p_t + Ḡ_t + Σ_{free k} α_k Q_tk, the free
// variables' kernel rows over the shrunk ones only (as LIBSVM's cheaper side,
// |free| · (n − active) entries), several rows per GEMM.
void DualSolver::reconstruct_gradient() {
    if (active_ == n_) return;
    flush_grad_bar();
    for (int64_t t = active_; t < n_; ++t) grad_[t] = grad_bar_[t] + linear_term(t);
    add_weighted_columns(
        active_, [&](int64_t k) { return is_free(k) ? alpha_[k] : 0.0; }, active_, n_, grad_);
}

// b = −ρ, ρ the average of y_t ∇f_t over free α's, or the midpoint of the
// interval the bound ones leave (LIBSVM's calculate_rho).
double DualSolver::bias() const {
    int64_t free = 0;
    double upper_end = kInf, lower_end = -kInf, sum = 0;
    for (int64_t t = 0; t < n_; ++t) {
        const double yg = y_[t] * grad_[t];
        if (is_free(t)) {
            ++free;
            sum += yg;
        } else if (at_upper(t) == (y_[t] < 0)) {
            upper_end = std::min(upper_end, yg);
        } else {
            lower_end = std::max(lower_end, yg);
        }
    }
    double rho;
    if (free > 0)
        rho = sum / double(free);
    else if (std::isfinite(upper_end) && std::isfinite(lower_end))
        rho = (upper_end + lower_end) / 2;
    else
        rho = std::isfinite(upper_end) ? upper_end : std::isfinite(lower_end) ? lower_end : 0.0;
    return -rho;
}

// A rough fraction done: how far log(violation) has come from its first
// value towards log(eps).
void DualSolver::report_progress() const {
    double fraction = 0;
    if (std::isfinite(first_violation_) && first_violation_ > options_.eps && violation_ > 0)
        fraction = std::log(first_violation_ / violation_) / std::log(first_violation_ / options_.eps);
    if (options_.report_progress)
        ctx_.progress(std::clamp(fraction, 0.0, 0.99), "svm");
    else
        ctx_.check_cancel();
}

void DualSolver::iterate() {
    const int64_t period = std::min(n_, kShrinkPeriod);
    const int64_t cap = options_.max_iter > 0 ? options_.max_iter : std::max(kMinIterationCap, 100 * n_);
    int64_t countdown = period + 1;
    // Without bias the step's pass over ∇f selects the next coordinate as
    // well, unless shrinking is due first (it reorders the variables).
    bool selected = false, found = false;
    int64_t i = -1, j = -1;
    while (iterations_ < cap) {
        if (--countdown == 0) {
            countdown = period;
            if (options_.shrinking) shrink();
            report_progress();
            selected = false;
            j = -1;  // shrinking reorders the variables
        }
        if (!selected) found = options_.bias ? select_pair(i, j) : select_coordinate(i);
        if (iterations_ == 0) first_violation_ = violation_;
        if (!found) {
            if (active_ == n_) break;
            final_active_ = active_;
            reconstruct_gradient();  // check again on the full set
            active_ = n_;
            found = options_.bias ? select_pair(i, j) : select_coordinate(i);
            if (!found) break;
            countdown = 1;  // shrink at the next iteration
        }
        ++iterations_;
        if (options_.bias) {
            step_pair(i, j);
        } else {
            const int64_t partner = j;
            j = i;  // the next step's partner
            selected = countdown > 1;
            found = step_coordinates(i, partner, selected ? &i : nullptr);
        }
    }
}

SvmSolution DualSolver::finish(double *alpha) {
    reconstruct_gradient();
    active_ = n_;
    SvmSolution s;
    double up, low;
    s.kkt_violation = std::max(violation_thresholds(up, low), 0.0);
    s.converged = s.kkt_violation < options_.eps;
    s.iterations = iterations_;
    s.final_active = final_active_;
    s.bias = options_.bias ? bias() : 0.0;
    double twice_objective = 0;  // αᵀQα + 2pᵀα = Σ α_t (∇f_t + p_t)
    for (int64_t t = 0; t < n_; ++t) {
        twice_objective += alpha_[t] * (grad_[t] + linear_term(t));
        s.support_vectors += alpha_[t] > 0;
        s.bounded_support += at_upper(t);
        alpha[index_[t]] = alpha_[t];
    }
    s.objective = twice_objective / 2;
    return s;
}

SvmSolution DualSolver::solve(double *alpha) {
    start_from(alpha);
    iterate();
    SvmSolution s = finish(alpha);
    if (!s.converged) {
        if (options_.strict)
            fail(KMX_E_NOT_CONVERGED, "SVM dual: %lld iterations left a KKT violation of %g (eps = %g)",
                 (long long)s.iterations, s.kkt_violation, options_.eps);
        ctx_.log(KMX_LOG_WARNING, "SVM dual stopped at the iteration cap (%lld) with KKT violation %g > eps = %g",
                 (long long)s.iterations, s.kkt_violation, options_.eps);
    }
    ctx_.log(KMX_LOG_DEBUG, "SVM dual: n = %lld, %lld iterations, objective %.10g, bias %.10g, %lld SVs (%lld at C)",
             (long long)n_, (long long)s.iterations, s.objective, s.bias, (long long)s.support_vectors,
             (long long)s.bounded_support);
    return s;
}

}  // namespace

size_t svm_dual_workspace_bytes(int64_t n, const SvmRows &rows, size_t cache_bytes) {
    return fixed_workspace_bytes(n, rows) + KernelCache::workspace_bytes(n, KernelCache::slots_for(n, cache_bytes));
}

size_t svm_auto_cache_bytes(int64_t n, size_t budget_left) {
    return size_t(auto_cache_slots(n, budget_left)) * size_t(n) * sizeof(float);
}

size_t svm_dual_auto_workspace_bytes(int64_t n, const SvmRows &rows, size_t budget_left) {
    const size_t fixed = fixed_workspace_bytes(n, rows);
    const size_t left = budget_left > fixed ? budget_left - fixed : 0;
    return fixed + KernelCache::workspace_bytes(n, auto_cache_slots(n, left));
}

SvmSolution solve_svm_dual(Context &ctx, Arena &arena, const SvmProblem &problem, const SvmOptions &options,
                           double *alpha) {
    validate(problem, options, alpha);
    const int64_t n = problem.n;
    const size_t fixed = fixed_workspace_bytes(n, SvmRows(*problem.data, problem.kernel)),
                 free = arena.capacity() - arena.used();
    const int64_t slots = options.cache_bytes > 0 ? KernelCache::slots_for(n, options.cache_bytes)
                                                  : auto_cache_slots(n, free > fixed ? free - fixed : 0);
    const size_t needed = fixed + KernelCache::workspace_bytes(n, slots);
    if (needed > free)
        fail(KMX_E_OUT_OF_MEMORY,
             "SVM dual solver needs %s (n = %lld, d = %lld, %lld cache columns) but its workspace allows %s",
             bytes_text(double(needed)).text, (long long)n, (long long)problem.data->d, (long long)slots,
             bytes_text(double(free)).text);
    ArenaScope scope(arena);
    SvmQMatrix q(arena, problem, slots, options.threads > 0 ? options.threads : ctx.threads);
    DualSolver solver(ctx, arena, q, problem, options);
    return solver.solve(alpha);
}

}  // namespace kmx
