// compress_to_budget.cpp — the budget search of compress_to_budget.h.
#include "compress_to_budget.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <memory>
#include <numeric>
#include <optional>
#include <string>
#include <utility>

#include "compact_predict.h"
#include "core/context.h"
#include "core/dataset.h"
#include "core/error.h"
#include "core/rng.h"
#include "model/model.h"
#include "predictor_blob.h"
#include "predictor_from_expansion.h"
#include "predictor_storage.h"
#include "svm/probability_prediction.h"

namespace kmx {

namespace {

// ------------------------------------------------------- the storage knob
// The storage precisions the search tries, largest first.
constexpr PredictorStorage kStorageKnob[] = {PredictorStorage::float64, PredictorStorage::float32,
                                             PredictorStorage::int16, PredictorStorage::int8, PredictorStorage::int4};

// ------------------------------------------------------------ the knobs
constexpr double kValidationFraction = 0.2;
constexpr int kFolds = 5;               // 1 / kValidationFraction: the split's validation part is fold 0
constexpr size_t kFinalists = 4;        // the most accurate candidates within the budget, scored again on every fold
constexpr int64_t kMaxLeafRows = 2000;  // rows per leaf at the fewest leaves tried
// Landmarks per leaf / support vectors per leaf.
constexpr double kLandmarkRatios[] = {1.0 / 16, 1.0 / 8, 0.25, 0.5, 1.0, 2.5};
constexpr int64_t kTimingRows = 4000;  // validation rows timed per pass, at most
constexpr int kTimingPasses = 7;
constexpr double kTimeStopFactor = 2;    // a (storage, leaves) stops adding landmarks this far over max_us
constexpr double kSearchRefineWork = 4;  // × DC-Pred++'s refinement work per candidate: accuracy is what a budget buys
// × a candidate's refinement (iterations and work) for the one rebuild of the
// chosen knobs from every training row (bench/README.md, "Compression to a
// budget": Letter's 80 × 36 int8 leaves, 30 → 240 iterations).
constexpr int kFinalRefineScale = 8;
constexpr int64_t kMaxPseudo = 64;  // pseudo-landmarks are tried up to this many (their fit costs O(m²) per row)
constexpr double kGammaScales[] = {0.5, 0.25};  // tried in turn on the best of each (storage, leaves) while they gain
// × the base ridge λ, each tried on the best of each (storage, leaves): how
// much a leaf's fit should trust its rows depends on the data
// (bench/README.md, "Compression to a budget").
constexpr double kRidgeScales[] = {10, 100};
// The model in a storage may be chosen when its labels differ from the exact
// model's on at most this fraction of the validation rows.
constexpr double kModelLabelChanges = 0.002;

// L_lo, 2 L_lo, … up to DC-Pred++'s automatic leaf count.
std::vector<int64_t> leaf_ladder(int64_t support_vectors, int64_t n) {
    const int64_t top = std::clamp<int64_t>(std::min((support_vectors + 8) / 16, n / 24), 1, std::min<int64_t>(256, n));
    const int64_t low = std::min(top, std::max<int64_t>(1, (n + kMaxLeafRows - 1) / kMaxLeafRows));
    std::vector<int64_t> ladder;
    for (int64_t leaves = low; leaves < top; leaves *= 2) ladder.push_back(leaves);
    ladder.push_back(top);
    return ladder;
}

// Landmarks per leaf for `leaves` leaves: the ratios times the support vectors per leaf, increasing, distinct.
std::vector<int64_t> landmark_ladder(int64_t support_vectors, int64_t leaves) {
    std::vector<int64_t> ladder;
    for (double ratio : kLandmarkRatios) {
        const int64_t m = std::max<int64_t>(1, std::llround(ratio * double(support_vectors) / double(leaves)));
        if (ladder.empty() || m > ladder.back()) ladder.push_back(m);
    }
    return ladder;
}

// ------------------------------------------------------- the split
struct Split {
    int64_t d = 0, fit_n = 0, validation_n = 0;
    std::vector<double> fit_x, fit_y, validation_x, validation_y;  // dense, d columns
    std::vector<int64_t> fit_rows;                                 // the fitting rows' indices in train, in order
    std::unique_ptr<Dataset> fit, validation;                      // borrow the vectors above
};

// Rows in a seeded random order, cut into kFolds folds; fold `fold`
// validates (fold 0: the first kValidationFraction, the search's split).
Split split_rows(const Context &ctx, const Dataset &train, int64_t d, int fold = 0) {
    require(train.y != nullptr, "compress to a budget: the training data needs labels");
    if (train.n < kMinBudgetRows)
        fail(KMX_E_INVALID_ARGUMENT,
             "compress to a budget: %lld training rows; the validation split needs at least %lld",
             static_cast<long long>(train.n), static_cast<long long>(kMinBudgetRows));
    if (train.d > d)
        fail(KMX_E_INVALID_ARGUMENT, "compress to a budget: training data has %lld columns, the model %lld",
             static_cast<long long>(train.d), static_cast<long long>(d));
    std::vector<int64_t> order(static_cast<size_t>(train.n));
    std::iota(order.begin(), order.end(), 0);
    Rng rng(ctx.seed ^ 0xB0D6E7);
    for (size_t i = order.size() - 1; i > 0; --i) std::swap(order[i], order[size_t(rng.below(uint64_t(i + 1)))]);
    Split s;
    s.d = d;
    s.validation_n = std::max<int64_t>(1, std::llround(kValidationFraction * double(train.n)));
    s.fit_n = train.n - s.validation_n;
    const int64_t first =
        std::min<int64_t>(fold * s.validation_n, s.fit_n);  // the last fold may overlap the one before
    std::vector<double> row(static_cast<size_t>(train.d));
    for (int64_t k = 0; k < train.n; ++k) {
        const bool validates = k >= first && k < first + s.validation_n;
        std::vector<double> &x = validates ? s.validation_x : s.fit_x;
        train.copy_rows(order[size_t(k)], order[size_t(k)] + 1, row.data());
        x.insert(x.end(), row.begin(), row.end());
        x.resize(x.size() + size_t(d - train.d), 0.0);
        (validates ? s.validation_y : s.fit_y).push_back(train.y[order[size_t(k)]]);
        if (!validates) s.fit_rows.push_back(order[size_t(k)]);
    }
    s.fit = Dataset::dense_borrow(s.fit_x.data(), s.fit_n, d, s.fit_y.data());
    s.validation = Dataset::dense_borrow(s.validation_x.data(), s.validation_n, d, s.validation_y.data());
    return s;
}

// ------------------------------------------------------- measurements
size_t blob_bytes(const CompactPredictor &predictor) {
    return append_predictor_notes(write_predictor_blob(predictor), PredictorNotes{}).size();
}

std::vector<double> validation_labels(Context &ctx, const CompactPredictor &predictor, const Split &split) {
    std::vector<double> labels(static_cast<size_t>(split.validation_n));
    compact_predict(ctx, predictor, *split.validation, nullptr, labels.data());
    return labels;
}

double validation_accuracy(Context &ctx, const CompactPredictor &predictor, const Split &split) {
    const std::vector<double> labels = validation_labels(ctx, predictor, split);
    int64_t right = 0;
    for (int64_t i = 0; i < split.validation_n; ++i) right += labels[size_t(i)] == split.validation_y[size_t(i)];
    return double(right) / double(split.validation_n);
}

// The model's decision values at every row of data (n x outputs).
std::vector<double> decision_values(Context &ctx, const Model &model, const Dataset &data) {
    ctx.check_budget(sizeof(double) * size_t(data.n) * model.machines.size(), "compress (decision values)");
    std::vector<double> decision(size_t(data.n) * model.machines.size());
    model_decision_values(ctx, model, data, decision.data());
    return decision;
}

// The rows of all_rows (the model's decision values at every training row)
// at the split's fitting rows, in its order (fit_n x outputs).
std::vector<double> fit_decision_values(const std::vector<double> &all_rows, const Split &split, size_t outputs) {
    std::vector<double> decision;
    decision.reserve(size_t(split.fit_n) * outputs);
    for (int64_t row : split.fit_rows)
        decision.insert(decision.end(), all_rows.begin() + ptrdiff_t(size_t(row) * outputs),
                        all_rows.begin() + ptrdiff_t(size_t(row + 1) * outputs));
    return decision;
}

// µs per row, one row at a time: the median of kTimingPasses passes (what
// a user measures, not the best case: the fastest pass was up to 1.3× below
// bench_dcpred's median of alternated chunks on the chosen predictor).
double validation_us(const CompactPredictor &predictor, const Split &split) {
    const CompactRowPredictor rows(predictor);
    std::vector<double> scratch(rows.scratch_size()), outputs(static_cast<size_t>(predictor.outputs));
    const int64_t count = std::min(split.validation_n, kTimingRows);
    double passes[kTimingPasses], labels = 0;
    for (double &seconds : passes) {
        const auto start = std::chrono::steady_clock::now();
        for (int64_t i = 0; i < count; ++i)
            labels += rows.predict(&split.validation_x[size_t(i * split.d)], outputs.data(), scratch.data());
        seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    volatile double keep = labels;  // the predictions must happen
    (void)keep;
    std::nth_element(passes, passes + kTimingPasses / 2, passes + kTimingPasses);
    return passes[kTimingPasses / 2] / double(count) * 1e6;
}

// The smallest predictor the format holds for this model: one top node, one
// leaf, one landmark (values irrelevant: only its bytes and time count).
CompactPredictor smallest_predictor(const Model &model, PredictorStorage storage) {
    CompactPredictor p;
    p.kernel = model.kernel;
    p.kernel.gamma = model.kernel.gamma_for(model.d);
    p.d = model.d;
    p.multiclass = model.multiclass;
    p.classes = model.classes;
    p.outputs = int64_t(model.machines.size());
    p.sigmoids = sigmoid_pairs(model);
    p.top_centers.assign(size_t(p.d), 0.0);
    p.top_leaf_begin = {0, 1};
    PredictorLeaf leaf;
    leaf.center.assign(size_t(p.d), 0.0);
    leaf.m = 1;
    leaf.landmarks.assign(size_t(p.d), 0.0);
    leaf.beta.assign(size_t(p.outputs), 0.0);
    leaf.bias.assign(size_t(p.outputs), 0.0);
    p.leaves.push_back(std::move(leaf));
    p.storage = storage;
    store_landmarks(p.leaves.back(), storage);
    return p;
}

bool within_bytes(const PredictorBudget &budget, double bytes) {
    return budget.max_bytes <= 0 || bytes <= budget.max_bytes;
}
bool within_us(const PredictorBudget &budget, double us) { return budget.max_us <= 0 || us <= budget.max_us; }

// Fails before any work when even the smallest predictor is over the budget.
void check_budget_reachable(const Model &model, const Split &split, const PredictorBudget &budget) {
    PredictorStorage most_compact = kStorageKnob[0];  // the fewest bytes for one landmark (int4's codebook costs)
    size_t bytes = SIZE_MAX;
    for (PredictorStorage storage : kStorageKnob) {
        const size_t these = blob_bytes(smallest_predictor(model, storage));
        if (these < bytes) bytes = these, most_compact = storage;
    }
    const CompactPredictor smallest = smallest_predictor(model, most_compact);
    if (!within_bytes(budget, double(bytes)))
        fail(KMX_E_INVALID_ARGUMENT,
             "max_bytes = %.0f: no predictor of this model is that small (one leaf with one landmark in %s takes "
             "%zu bytes)",
             budget.max_bytes, storage_name(most_compact), bytes);
    const double us = validation_us(smallest, split);
    if (!within_us(budget, us))
        fail(KMX_E_INVALID_ARGUMENT,
             "max_us = %g: no predictor of this model is that fast here (one leaf with one landmark takes %.3g us "
             "per row on this machine now)",
             budget.max_us, us);
}

// ------------------------------------------------------------ the search
class Search {
public:
    Search(Context &ctx, const Model &model, const Dataset &train, const Split &split, const DcpredOptions &base,
           const PredictorBudget &budget, const CandidateObserver &observer)
        : ctx_(ctx),
          model_(model),
          train_(train),
          split_(split),
          base_(base),
          budget_(budget),
          // Every candidate distills the model's decision values: computed once here, at every training row.
          all_decision_(decision_values(ctx, model, train)),
          decision_(fit_decision_values(all_decision_, split, model.machines.size())),
          observer_(observer) {}

    // Leaves outside, storage inside, so that one tree and its local models
    // (DcpredStages) serve every candidate of a leaf count and rounding.
    void run() {
        std::vector<bool> done(std::size(kStorageKnob));  // more leaves only take more bytes
        for (int64_t l : leaf_ladder(model_.support_vectors, split_.fit_n))
            for (size_t s = 0; s < std::size(kStorageKnob); ++s)
                if (!done[s]) done[s] = !explore_leaves(kStorageKnob[s], l);
        explore_model();
        cross_validate_finalists();
    }

    BudgetSearch result() {
        if (!best_) fail(KMX_E_INVALID_ARGUMENT, "%s", nothing_fits().c_str());
        BudgetSearch out;
        out.explored = explored_;
        out.chosen = best_index_;
        const BudgetCandidate &c = explored_[best_index_];
        double us = c.us;
        if (std::optional<CompactPredictor> all_rows = refit(c, us)) {
            *best_ = std::move(*all_rows);
            out.all_rows = true;
        }
        const bool folds = c.folds_accuracy > 0;
        out.notes = {c.leaves,
                     c.landmarks,
                     c.pseudo,
                     c.storage,
                     folds ? c.folds_accuracy : c.accuracy,
                     us,
                     folds ? std::min(train_.n, kFolds * split_.validation_n) : split_.validation_n,
                     int64_t(explored_.size()),
                     budget_.max_bytes,
                     budget_.max_us,
                     c.from_model ? 1 : 0};
        out.predictor = std::move(*best_);
        out.blob = append_predictor_notes(write_predictor_blob(out.predictor), out.notes);
        ctx_.log(KMX_LOG_INFO, "compress: chose #%zu of %zu: %s", best_index_ + 1, explored_.size(),
                 describe(c).c_str());
        return out;
    }

private:
    Context &ctx_;
    const Model &model_;
    const Dataset &train_;
    const Split &split_;
    DcpredOptions base_;
    const PredictorBudget &budget_;
    std::vector<double> all_decision_;  // the model's at every training row (n x outputs)
    std::vector<double> decision_;      // the model's at the fitting rows (fit_n x outputs)
    const CandidateObserver &observer_;
    std::vector<BudgetCandidate> explored_;
    std::unique_ptr<CompactPredictor> best_;
    size_t best_index_ = 0;
    std::unique_ptr<DcpredStages> stages_;  // of the last candidate's leaves and rounding

    // Landmarks up the ladder at `leaves`; under a byte budget, one more m
    // between the last that fit and the first over (bytes interpolated);
    // then pseudo-landmarks, wider kernels (kGammaScales) and a larger ridge
    // (kRidgeScales) on the best.
    // False when even the fewest landmarks are over the byte budget.
    bool explore_leaves(PredictorStorage storage, int64_t leaves) {
        std::optional<size_t> best_here, last_within, first_over;
        for (int64_t m : landmark_ladder(model_.support_vectors, leaves)) {
            const size_t i = measure(knobs(storage, leaves, m));
            consider(i, best_here);
            if (!within_bytes(budget_, double(explored_[i].bytes))) {
                first_over = i;
                break;
            }
            last_within = i;
            if (budget_.max_us > 0 && explored_[i].us > kTimeStopFactor * budget_.max_us) break;
        }
        if (!last_within) return false;  // more leaves only take more bytes
        if (first_over) {
            const int64_t m = interpolated_landmarks(explored_[*last_within], explored_[*first_over]);
            if (m > explored_[*last_within].landmarks) consider(measure(knobs(storage, leaves, m)), best_here);
        }
        if (!best_here) return true;
        const int64_t m = explored_[*best_here].landmarks;
        if (m >= 2 && m <= kMaxPseudo) {
            BudgetCandidate pseudo = knobs(storage, leaves, m);
            pseudo.pseudo = m;
            measure(pseudo);
        }
        for (double scale : kGammaScales) {  // a wider kernel: fewer landmarks cover more
            BudgetCandidate wider = knobs(storage, leaves, m);
            wider.gamma_scale = scale;
            const size_t i = measure(wider);
            if (!(explored_[i].fits && better(explored_[i], explored_[*best_here]))) break;
            best_here = i;
        }
        const double best_gamma_scale = explored_[*best_here].gamma_scale;
        for (double scale : kRidgeScales) {
            BudgetCandidate smoother = knobs(storage, leaves, m);
            smoother.gamma_scale = best_gamma_scale, smoother.ridge_scale = scale;
            consider(measure(smoother), best_here);
        }
        return true;
    }

    // A candidate's knobs, the others at their defaults.
    static BudgetCandidate knobs(PredictorStorage storage, int64_t leaves, int64_t m) {
        BudgetCandidate c;
        c.leaves = leaves, c.landmarks = m, c.storage = int64_t(storage);
        return c;
    }

    // The finalists, the kFinalists most accurate DC-Pred++ candidates within
    // the budget, scored again on the other folds (each built from the rows
    // outside it, as on the split, which is fold 0); the best mean over the
    // kFolds folds is chosen. One validation fifth ranks candidates a few
    // tenths of a point apart by chance (Letter: ±0.4 points on 2400 rows),
    // and the best of some 200 such estimates is biased upwards. The model's
    // own candidates are scored in-sample: when one is chosen it stays.
    void cross_validate_finalists() {
        if (!best_ || explored_[best_index_].from_model) return;
        std::vector<size_t> finalists;
        for (size_t i = 0; i < explored_.size(); ++i)
            if (explored_[i].fits && !explored_[i].from_model) finalists.push_back(i);
        const auto more_accurate = [&](size_t a, size_t b) { return better(explored_[a], explored_[b]); };
        const size_t count = std::min(kFinalists, finalists.size());
        std::partial_sort(finalists.begin(), finalists.begin() + ptrdiff_t(count), finalists.end(), more_accurate);
        finalists.resize(count);
        if (count < 2) return;
        stages_.reset();  // its copy of the fitting rows is no longer needed
        for (size_t i : finalists) explored_[i].folds_accuracy = explored_[i].accuracy;
        // Finalists of one tree (same leaves and rounding) in turn share its stages on a fold.
        std::vector<size_t> by_tree = finalists;
        std::stable_sort(by_tree.begin(), by_tree.end(), [&](size_t a, size_t b) {
            return std::make_pair(explored_[a].leaves, explored_[a].storage) <
                   std::make_pair(explored_[b].leaves, explored_[b].storage);
        });
        for (int fold = 1; fold < kFolds; ++fold) {
            const Split split = split_rows(ctx_, train_, model_.d, fold);
            const std::vector<double> decision = fit_decision_values(all_decision_, split, model_.machines.size());
            std::unique_ptr<DcpredStages> stages;
            for (size_t i : by_tree) {
                ctx_.check_cancel();
                DcpredOptions options = budget_candidate_options(base_, explored_[i]);
                options.model_decision = decision.data();
                if (!stages || !stages->same_stages(options)) {
                    stages.reset();
                    stages = std::make_unique<DcpredStages>(ctx_, model_, *split.fit, options);
                }
                explored_[i].folds_accuracy += validation_accuracy(ctx_, stages->build(options), split);
            }
        }
        size_t chosen = finalists[0];
        for (size_t i : finalists) {
            explored_[i].folds_accuracy /= kFolds;
            ctx_.log(KMX_LOG_INFO, "compress: finalist #%zu: %.2f%% over %d folds", i + 1,
                     100 * explored_[i].folds_accuracy, kFolds);
            if (explored_[i].folds_accuracy > explored_[chosen].folds_accuracy) chosen = i;
        }
        if (chosen == best_index_) return;
        DcpredOptions options = budget_candidate_options(base_, explored_[chosen]);
        options.model_decision = decision_.data();  // the split's build, as measured
        best_ = std::make_unique<CompactPredictor>(build_dcpred(ctx_, model_, *split_.fit, options));
        best_index_ = chosen;
    }

    // The chosen knobs built again from every training row, as a grid search
    // refits its best parameters (more rows per leaf: better local models and
    // landmarks). Kept when its bytes are still within the budget and its µs
    // (measured here, into `us`) are too, or are no more than those of the
    // chosen build from the fitting rows measured again now: the same knobs,
    // over the budget only if the machine slowed since that build was timed
    // (its time moves by ±10% from minute to minute on a shared machine). The
    // model's own candidates are the model already.
    std::optional<CompactPredictor> refit(const BudgetCandidate &c, double &us) {
        if (c.from_model) return std::nullopt;
        ctx_.check_cancel();
        stages_.reset();  // its copy of the fitting rows is no longer needed
        DcpredOptions options = budget_final_options(base_, c);
        options.model_decision = all_decision_.data();
        CompactPredictor predictor = build_dcpred(ctx_, model_, train_, options);
        const size_t bytes = blob_bytes(predictor);
        const double all_rows_us = validation_us(predictor, split_);
        const bool fits = within_bytes(budget_, double(bytes)) &&
                          (within_us(budget_, all_rows_us) || all_rows_us <= validation_us(*best_, split_));
        ctx_.log(KMX_LOG_INFO, "compress: the chosen knobs on all %lld rows: bytes=%zu us=%.4g%s",
                 static_cast<long long>(train_.n), bytes, all_rows_us,
                 fits ? "" : " (over budget: the predictor from the fitting rows is kept)");
        if (!fits) return std::nullopt;
        us = all_rows_us;
        return predictor;
    }

    // Keeps candidate i as best_here if it fits and beats it.
    void consider(size_t i, std::optional<size_t> &best_here) const {
        if (explored_[i].fits && (!best_here || better(explored_[i], explored_[*best_here]))) best_here = i;
    }

    // The landmarks whose bytes, interpolated between a candidate within the
    // byte budget and one over it, reach the budget (a little below).
    int64_t interpolated_landmarks(const BudgetCandidate &within, const BudgetCandidate &over) const {
        const double slope = double(over.bytes - within.bytes) / double(over.landmarks - within.landmarks);
        const double room = 0.97 * budget_.max_bytes - double(within.bytes);
        return std::min(over.landmarks - 1, within.landmarks + int64_t(std::floor(room / slope)));
    }

    // The model itself in each storage that fits the bytes
    // (predictor_from_svm_model), when it predicts as a compact predictor.
    // The validation rows were among the model's training rows, so its
    // accuracy there is in-sample (Letter: 100% against 98.3% on the test
    // set): a storage that changes its labels (int4 where features take more
    // than 16 values) would be scored above what it does elsewhere. So it may
    // be chosen only where its labels are the exact model's on all but
    // kModelLabelChanges of the validation rows: then it is the model.
    void explore_model() {
        std::optional<CompactPredictor> exact = predictor_from_svm_model(model_, PredictorStorage::float64);
        if (!exact) return;
        const std::vector<double> model_labels = validation_labels(ctx_, *exact, split_);
        exact.reset();
        for (PredictorStorage storage : kStorageKnob) {
            ctx_.check_cancel();
            const auto start = std::chrono::steady_clock::now();
            CompactPredictor predictor = *predictor_from_svm_model(model_, storage);
            if (!within_bytes(budget_, double(blob_bytes(predictor)))) continue;
            const std::vector<double> labels = validation_labels(ctx_, predictor, split_);
            int64_t changed = 0;
            for (size_t i = 0; i < labels.size(); ++i) changed += labels[i] != model_labels[i];
            BudgetCandidate c;
            c.leaves = 1, c.landmarks = predictor.leaves[0].m, c.storage = int64_t(storage);
            c.from_model = true;
            record(c, std::move(predictor), start, double(changed) <= kModelLabelChanges * double(labels.size()));
        }
    }

    // Builds and measures the candidate of `knobs` (its leaves, landmarks,
    // pseudo, storage, γ and ridge scales); keeps it if it is the best within
    // the budget. Returns its index in explored_.
    size_t measure(const BudgetCandidate &knobs) {
        ctx_.check_cancel();
        DcpredOptions options = budget_candidate_options(base_, knobs);
        options.model_decision = decision_.data();
        const auto start = std::chrono::steady_clock::now();
        if (!stages_ || !stages_->same_stages(options)) {
            stages_.reset();  // one at a time: each holds a copy of the rows
            stages_ = std::make_unique<DcpredStages>(ctx_, model_, *split_.fit, options);
        }
        return record(knobs, stages_->build(options), start);
    }

    // Measures a built candidate (its knobs in c); keeps it if it is the best
    // within the budget (and `eligible`). Returns its index in explored_.
    size_t record(BudgetCandidate c, CompactPredictor predictor, std::chrono::steady_clock::time_point start,
                  bool eligible = true) {
        c.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        c.bytes = blob_bytes(predictor);
        c.us = validation_us(predictor, split_);
        c.accuracy = validation_accuracy(ctx_, predictor, split_);
        c.fits = eligible && within_bytes(budget_, double(c.bytes)) && within_us(budget_, c.us);
        explored_.push_back(c);
        ctx_.log(KMX_LOG_INFO, "compress: #%zu %s", explored_.size(), describe(c).c_str());
        if (observer_) observer_(c, predictor);
        if (c.fits && (!best_ || better(c, explored_[best_index_]))) {
            best_ = std::make_unique<CompactPredictor>(std::move(predictor));
            best_index_ = explored_.size() - 1;
        }
        return explored_.size() - 1;
    }

    // More accurate; then fewer bytes; then fewer µs.
    static bool better(const BudgetCandidate &a, const BudgetCandidate &b) {
        if (a.accuracy != b.accuracy) return a.accuracy > b.accuracy;
        if (a.bytes != b.bytes) return a.bytes < b.bytes;
        return a.us < b.us;
    }

    std::string describe(const BudgetCandidate &c) const {
        char line[256];
        std::snprintf(line, sizeof line,
                      "storage=%s leaves=%lld landmarks=%lld pseudo=%lld gamma_scale=%g ridge_scale=%g bytes=%zu "
                      "us=%.4g validation=%.2f%% build=%.2fs%s",
                      storage_name(PredictorStorage(c.storage)), static_cast<long long>(c.leaves),
                      static_cast<long long>(c.landmarks), static_cast<long long>(c.pseudo), c.gamma_scale,
                      c.ridge_scale, c.bytes, c.us, 100 * c.accuracy, c.seconds, verdict(c));
        return line;
    }

    // Why a candidate cannot be chosen ("" when it can).
    const char *verdict(const BudgetCandidate &c) const {
        if (c.fits) return "";
        if (!within_bytes(budget_, double(c.bytes)) || !within_us(budget_, c.us)) return " (over budget)";
        return " (changes the model's labels on the validation rows)";
    }

    std::string nothing_fits() const {
        size_t smallest = 0, fastest = 0;
        for (size_t i = 1; i < explored_.size(); ++i) {
            if (explored_[i].bytes < explored_[smallest].bytes) smallest = i;
            if (explored_[i].us < explored_[fastest].us) fastest = i;
        }
        char text[512];
        std::snprintf(text, sizeof text,
                      "no predictor within max_bytes = %.0f, max_us = %g (0: none) among %zu candidates: the "
                      "smallest took %zu bytes (%.3g us/row), the fastest %.3g us/row (%zu bytes)",
                      budget_.max_bytes, budget_.max_us, explored_.size(), explored_[smallest].bytes,
                      explored_[smallest].us, explored_[fastest].us, explored_[fastest].bytes);
        return text;
    }
};

}  // namespace

DcpredOptions budget_candidate_options(const DcpredOptions &base, const BudgetCandidate &c) {
    DcpredOptions options = base;
    options.fit = DcpredFit::distill_model;
    options.refine_work *= kSearchRefineWork;
    options.model_decision = nullptr;
    options.leaves = c.leaves, options.landmarks = c.landmarks, options.pseudo = c.pseudo;
    options.storage = PredictorStorage(c.storage), options.gamma_scale = c.gamma_scale;
    options.ridge *= c.ridge_scale;
    return options;
}

DcpredOptions budget_final_options(const DcpredOptions &base, const BudgetCandidate &c) {
    DcpredOptions options = budget_candidate_options(base, c);
    options.refine_iterations *= kFinalRefineScale;
    options.refine_work *= kFinalRefineScale;
    return options;
}

double budget_fold_accuracy(Context &ctx, const Model &model, const Dataset &train, const DcpredOptions &base,
                            const BudgetCandidate &c, int fold) {
    require(fold >= 0 && fold < kFolds, "compress to a budget: fold must be in [0, 5)");
    const Split split = split_rows(ctx, train, model.d, fold);
    const std::vector<double> decision = decision_values(ctx, model, *split.fit);
    DcpredOptions options = budget_candidate_options(base, c);
    options.model_decision = decision.data();
    return validation_accuracy(ctx, build_dcpred(ctx, model, *split.fit, options), split);
}

BudgetSearch compress_to_budget(Context &ctx, const Model &model, const Dataset &train, const DcpredOptions &base,
                                const PredictorBudget &budget, const CandidateObserver &observer) {
    require(model.classes.size() >= 2 && !model.machines.empty(),
            "compress to a budget: the model must be a trained classifier");
    require(
        budget.max_bytes >= 0 && budget.max_us >= 0 && std::isfinite(budget.max_bytes) && std::isfinite(budget.max_us),
        "compress to a budget: max_bytes and max_us must be >= 0 (0: no limit)");
    require(budget.max_bytes > 0 || budget.max_us > 0, "compress to a budget: give max_bytes, max_us or both");
    const Split split = split_rows(ctx, train, model.d);
    check_budget_reachable(model, split, budget);
    ctx.log(KMX_LOG_INFO, "compress: %lld rows fit, %lld validate; budget max_bytes=%.0f max_us=%g (0: none)",
            static_cast<long long>(split.fit_n), static_cast<long long>(split.validation_n), budget.max_bytes,
            budget.max_us);
    Search search(ctx, model, train, split, base, budget, observer);
    search.run();
    return search.result();
}

}  // namespace kmx
