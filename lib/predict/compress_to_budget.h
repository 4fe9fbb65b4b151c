// compress_to_budget.h — the most accurate DC-Pred++ predictor within a size
// and/or time budget (`kmx compress --max-bytes B --max-us T`).
//
// The training rows are split (seeded by the context): a validation part
// (kValidationFraction of them) that no candidate trains on, and the fitting
// part every candidate is built from. The search builds candidates over the
// knobs — storage precision × leaves × landmarks per leaf (relative to the
// model's support vectors per leaf) × pseudo-landmarks — and measures each
// exactly: its blob's bytes (notes included), its µs per row predicted one
// row at a time (CompactRowPredictor, the median of kTimingPasses passes
// over up to kTimingRows validation rows: what a user would measure),
// and its accuracy on the validation rows. The four most accurate candidates
// within the budget (ties: fewer bytes, then fewer µs) are the finalists:
// each is built and scored again with each other fifth of the rows as the
// validation part (5-fold cross-validation, the split being fold 0), and the
// one of best mean accuracy is chosen (one fifth alone ranks candidates a few
// tenths of a point apart by chance). The model's own candidates are not
// cross-validated: when one of them is the most accurate it is chosen. Notes
// (predictor_notes.h) say how. Like a grid search that refits its best
// parameters, the chosen knobs are then built again from every training row
// (build_dcpred with budget_final_options: 8× the refinement of a candidate,
// as it is built once): that predictor is returned
// when its bytes are within the budget and its µs, measured again, are too or
// are no more than those of the build from the fitting part, measured again
// just after (the same knobs: only a slower machine moved them), else the
// one built from the fitting part. The notes' accuracy is the validation
// estimate (the finalists' mean over the folds, else the split's), their µs
// those of the predictor returned.
//
// Every candidate distills the model: its leaves fit the model's decision
// values at the fitting rows (DcpredFit::distill_model, computed once), and
// leaves without pseudo-landmarks refine their landmarks
// (landmark_refinement.h) with 4× DC-Pred++'s default refinement work.
//
// The grid, with S support vectors and n fitting rows:
//   storage   float64, float32, int16, int8, int4 (kStorageKnob);
//   leaves    L = L_lo, 2 L_lo, 4 L_lo, … up to L_auto (DC-Pred++'s automatic
//             count, min(S/16, n/24) <= 256), L_lo = ceil(n / 2000) so that no
//             leaf's local SVM trains on more than ~2000 rows (~4000 with
//             overlap);
//   landmarks m = ratio · S / L for ratio in 1/16, 1/8, 1/4, 1/2, 1, 5/2 (at least 1);
//   pseudo    0, and m for the best candidate of each (storage, L) if m <= 64;
//   γ scale   1, then 1/2 and 1/4 in turn on the best candidate of each
//             (storage, L) while they gain (a wider kernel than the model's:
//             with few landmarks each must cover more).
//   ridge     λ × 1, then × 10 and × 100 each on the best candidate of each
//             (storage, L): the leaves' fit to the model's decision values
//             regularised more (which helps depends on the data).
//   the model the model itself (its support vectors as one leaf's landmarks,
//             its coefficients as β: predictor_from_svm_model) in each
//             storage whose bytes fit, last; scored in-sample (the
//             validation rows trained the model), so chosen only in a
//             storage that keeps its labels on the validation rows.
// Bytes grow with m and with L, so a (storage, L) stops at the first m over
// the byte budget (or twice over the time budget) and tries one m between
// the last within and that one (bytes interpolated to the budget); larger L
// stop when the smallest m is over the byte budget.
//
// Budgets nothing can meet fail with KMX_E_INVALID_ARGUMENT: before any
// work when even the smallest predictor the format holds (one leaf, one
// landmark, the most compact storage) is over the bytes or its measured time
// over max_us, else after the search, naming the smallest and fastest
// candidates seen. µs are measured on this machine now: another machine,
// or this one under other load, gives other times.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "compact_predictor.h"
#include "dcpred.h"
#include "predictor_notes.h"

namespace kmx {

class Context;
class Dataset;
struct Model;

struct PredictorBudget {
    double max_bytes = 0;  // the blob's bytes at most; 0 = no limit
    double max_us = 0;     // µs per row (one row at a time) at most; 0 = no limit
};

// One explored point of the frontier.
struct BudgetCandidate {
    int64_t leaves = 0, landmarks = 0, pseudo = 0, storage = 0;  // the knobs (storage: kmx_storage value)
    double gamma_scale = 1;                                      // the predictor's γ / the model's
    double ridge_scale = 1;                                      // the leaves' ridge λ / the base options'
    size_t bytes = 0;                                            // the blob with notes, exactly
    double us = 0;                                               // µs per row on the validation rows
    double accuracy = 0;                                         // on the validation rows
    double folds_accuracy = 0;  // the finalists: the mean accuracy over the 5 folds (0: not a finalist)
    bool fits = false;          // within the budget (the model's candidates: and its labels kept, see the grid above)
    double seconds = 0;  // to build it (the first of its leaves and rounding also builds their tree and local models)
    bool from_model = false;  // the model itself (predictor_from_svm_model), not a DC-Pred++ build
};

struct BudgetSearch {
    CompactPredictor predictor;       // the chosen candidate
    std::vector<unsigned char> blob;  // its blob, notes appended
    PredictorNotes notes;
    std::vector<BudgetCandidate> explored;  // in the order built
    size_t chosen = 0;                      // index into explored
    bool all_rows = false;                  // predictor was built from every training row (else from the fitting part)
};

// Called after each candidate is measured (for benchmarks: the candidate
// predictor itself, e.g. to score it on a test set).
using CandidateObserver = std::function<void(const BudgetCandidate &, const CompactPredictor &)>;

// `base` gives every DC-Pred++ option the search does not turn (C, fit,
// overlap, …); its leaves, landmarks, pseudo and storage are ignored. Needs
// a trained SVM classifier and at least kMinBudgetRows labelled rows.
BudgetSearch compress_to_budget(Context &ctx, const Model &model, const Dataset &train, const DcpredOptions &base,
                                const PredictorBudget &budget, const CandidateObserver &observer = {});

constexpr int64_t kMinBudgetRows = 20;

// The DC-Pred++ options a DC-Pred++ candidate is built with: `base` with
// its knobs, fitted to the model's decision values (DcpredFit::distill_model,
// computed by build_dcpred when model_decision is null) and 4× the
// refinement work.
DcpredOptions budget_candidate_options(const DcpredOptions &base, const BudgetCandidate &c);
// The options of the chosen knobs' rebuild from every training row: a
// candidate's, with 8 times its landmark refinement (iterations and work):
// one build, whose landmarks then fit the model's decision values closer.
DcpredOptions budget_final_options(const DcpredOptions &base, const BudgetCandidate &c);

// The accuracy of candidate c's knobs on fold `fold` (0–4) of train's rows,
// built from the rows outside it: the search's validation split is fold 0,
// and a finalist's folds_accuracy is the mean over the five. Seed from ctx,
// as the search's.
double budget_fold_accuracy(Context &ctx, const Model &model, const Dataset &train, const DcpredOptions &base,
                            const BudgetCandidate &c, int fold);

}  // namespace kmx
