// test_compress_to_budget.cpp — compression to a budget (compress_to_budget.h)
// and the no-budget default (no_larger_than_model.h): budgets respected
// (bytes exactly, µs within kTimeSlack), the choice the most accurate of the
// explored candidates within the budget, impossible budgets failing before
// any candidate is built, the notes in the blob, and default predictors no
// larger than their models on the bundled data and on a model whose rows are
// nearly all support vectors.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "core/context.h"
#include "core/dataset.h"
#include "core/error.h"
#include "core/rng.h"
#include "infer/blob_layout.h"
#include "io/byte_codec.h"
#include "io/crc32.h"
#include "model/model.h"
#include "model/model_file.h"
#include "predict/compact_predict.h"
#include "predict/compress_to_budget.h"
#include "predict/no_larger_than_model.h"
#include "predict/predictor_blob.h"
#include "predict/predictor_notes.h"
#include "predict_test_support.h"
#include "svm/multiclass.h"

namespace {

// A measured time may exceed the budget by this much when measured again
// (the machine is shared: other processes slow single passes).
constexpr double kTimeSlack = 1.5;

// 1200 rows of binary Letter and their model (C = 8, γ = 16), built once.
struct LetterSubset {
    std::unique_ptr<kmx::Dataset> train = predict_test::load_example("letter_bin.train.libsvm", 1200);
    kmx::Context ctx;
    kmx::Model model = predict_test::train_rbf_svm(ctx, *train, 8, 16);
};

const LetterSubset &letter() {
    static const LetterSubset subset;
    return subset;
}

// `blobs`, when given, receives each candidate's blob in the order built.
kmx::BudgetSearch search(const kmx::PredictorBudget &budget, int *built = nullptr,
                         std::vector<std::vector<unsigned char>> *blobs = nullptr) {
    kmx::Context ctx;
    ctx.seed = 7;
    int count = 0;
    kmx::BudgetSearch result =
        kmx::compress_to_budget(ctx, letter().model, *letter().train, {}, budget,
                                [&](const kmx::BudgetCandidate &, const kmx::CompactPredictor &p) {
                                    ++count;
                                    if (blobs) blobs->push_back(kmx::write_predictor_blob(p));
                                });
    if (built) *built = count;
    return result;
}

// The search within 12000 bytes and its candidates' blobs, run once for the tests that read it.
struct ByteBudgetSearch {
    kmx::PredictorBudget budget{12000, 0};
    std::vector<std::vector<unsigned char>> candidates;
    kmx::BudgetSearch result = search(budget, nullptr, &candidates);
};

const ByteBudgetSearch &byte_budget_search() {
    static const ByteBudgetSearch once;
    return once;
}

// Σ (f̃(x_i) − f(x_i))² over the training rows: p's decision values against the model's.
double squared_gap_to_model(const kmx::CompactPredictor &p) {
    kmx::Context ctx;
    const kmx::Dataset &rows = *letter().train;
    std::vector<double> mine(size_t(rows.n)), model(size_t(rows.n));
    kmx::compact_predict(ctx, p, rows, mine.data(), nullptr);
    kmx::model_decision_values(ctx, letter().model, rows, model.data());
    double gap = 0;
    for (size_t i = 0; i < mine.size(); ++i) gap += (mine[i] - model[i]) * (mine[i] - model[i]);
    return gap;
}

// `blob` with its notes record's last `dropped` bytes cut and its length word
// set to `record_bytes`, total_bytes and CRC made to match again.
std::vector<unsigned char> with_record(const std::vector<unsigned char> &blob, size_t dropped, uint64_t record_bytes) {
    kmx::ByteWriter out;
    out.raw(blob.data(), blob.size() - 16 - dropped);  // the record up to what is dropped
    out.u64(record_bytes);
    out.raw(blob.data() + blob.size() - 8, 8);  // "KMXNOTE\0"
    out.patch_u64(KMX_BLOB_OFF_TOTAL_BYTES, out.size());
    out.patch_u32(KMX_BLOB_OFF_CRC,
                  kmx::crc32(out.bytes().data() + KMX_BLOB_CRC_BEGIN, out.size() - KMX_BLOB_CRC_BEGIN));
    return std::move(out.bytes());
}

// Whether a candidate is the model itself (one leaf of all its points).
bool is_model(const kmx::BudgetCandidate &c) { return c.leaves == 1 && c.landmarks == letter().model.n_points; }

// The chosen candidate is within the budget and at least as accurate as every
// explored one that is (the model's candidates may be held back: their labels changed).
// When the finalists were cross-validated (the most accurate on the split a
// DC-Pred++ build): they are at least as accurate on the split as every other
// candidate within the budget, and the chosen one has the best mean over the folds.
void expect_best_within_budget(const kmx::BudgetSearch &r, const kmx::PredictorBudget &budget) {
    ASSERT_LT(r.chosen, r.explored.size());
    const kmx::BudgetCandidate &chosen = r.explored[r.chosen];
    EXPECT_TRUE(chosen.fits);
    double weakest_finalist = 1;
    for (const kmx::BudgetCandidate &c : r.explored)
        if (c.folds_accuracy > 0) weakest_finalist = std::min(weakest_finalist, c.accuracy);
    for (const kmx::BudgetCandidate &c : r.explored) {
        const bool within = (budget.max_bytes <= 0 || double(c.bytes) <= budget.max_bytes) &&
                            (budget.max_us <= 0 || c.us <= budget.max_us);
        if (is_model(c))
            EXPECT_TRUE(!c.fits || within);
        else
            EXPECT_EQ(c.fits, within);
        if (!c.fits) continue;
        if (chosen.folds_accuracy == 0) {
            EXPECT_LE(c.accuracy, chosen.accuracy);
        } else if (c.folds_accuracy > 0) {
            EXPECT_LE(c.folds_accuracy, chosen.folds_accuracy);
        } else {
            EXPECT_LE(c.accuracy, weakest_finalist);
        }
    }
}

// µs per row of a predictor over the first rows of data, the fastest of 7 passes.
double measured_us(const kmx::CompactPredictor &p, const kmx::Dataset &data) {
    const kmx::CompactRowPredictor rows(p);
    std::vector<double> scratch(rows.scratch_size()), outputs(size_t(p.outputs));
    const int64_t count = std::min<int64_t>(data.n, 1000);
    double fastest = INFINITY, sum = 0;
    for (int pass = 0; pass < 7; ++pass) {
        const auto start = std::chrono::steady_clock::now();
        for (int64_t i = 0; i < count; ++i) sum += rows.predict(data.x + i * data.d, outputs.data(), scratch.data());
        fastest = std::min(fastest, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    EXPECT_TRUE(std::isfinite(sum));
    return fastest / double(count) * 1e6;
}

TEST(CompressToBudget, ByteBudgetIsRespectedExactlyAndTheNotesSayHowItWasChosen) {
    const kmx::PredictorBudget &budget = byte_budget_search().budget;
    const kmx::BudgetSearch &r = byte_budget_search().result;
    EXPECT_LE(double(r.blob.size()), budget.max_bytes);
    EXPECT_EQ(r.blob, kmx::append_predictor_notes(kmx::write_predictor_blob(r.predictor), r.notes));
    expect_best_within_budget(r, budget);
    EXPECT_GT(r.explored.size(), 3u);
    EXPECT_GT(r.explored[r.chosen].accuracy, 0.8);  // measured 0.873 (the model: about 0.9 on these rows)
    const kmx::CompactPredictor back = kmx::read_predictor_blob(r.blob.data(), r.blob.size());
    EXPECT_EQ(back.leaves.size(), r.predictor.leaves.size());
    EXPECT_DOUBLE_EQ(back.kernel.gamma, 16 * r.explored[r.chosen].gamma_scale);

    kmx::PredictorNotes notes;
    ASSERT_TRUE(kmx::find_predictor_notes(r.blob.data(), r.blob.size(), notes));
    const kmx::BudgetCandidate &c = r.explored[r.chosen];
    EXPECT_EQ(notes.leaves, c.leaves);
    EXPECT_EQ(notes.landmarks, c.landmarks);
    EXPECT_EQ(notes.pseudo, c.pseudo);
    EXPECT_EQ(notes.storage, c.storage);
    ASSERT_GT(c.folds_accuracy, 0);  // the finalists were cross-validated: 1200 rows in 5 folds of 240
    EXPECT_EQ(notes.validation_accuracy, c.folds_accuracy);
    EXPECT_EQ(notes.validation_rows, 1200);
    EXPECT_EQ(notes.candidates, int64_t(r.explored.size()));
    EXPECT_EQ(notes.max_bytes, 12000);
    EXPECT_EQ(notes.in_sample, 0);  // a DC-Pred++ build, scored on held-out rows
    const std::vector<unsigned char> plain = kmx::write_predictor_blob(r.predictor);
    EXPECT_FALSE(kmx::find_predictor_notes(plain.data(), plain.size(), notes));
}

// The chosen knobs are built again from every training row (as a grid
// search refits its best parameters), with 8× a candidate's landmark
// refinement: the predictor returned is build_dcpred's on all 1200 rows with
// those knobs, not the candidate measured on the validation split (built
// from 960 rows).
TEST(CompressToBudget, TheChoiceIsRebuiltFromEveryTrainingRow) {
    const kmx::PredictorBudget &budget = byte_budget_search().budget;
    const kmx::BudgetSearch &r = byte_budget_search().result;
    const std::vector<std::vector<unsigned char>> &candidates = byte_budget_search().candidates;
    ASSERT_TRUE(r.all_rows);
    ASSERT_EQ(candidates.size(), r.explored.size());
    const kmx::BudgetCandidate &chosen = r.explored[r.chosen];
    ASSERT_FALSE(chosen.from_model);
    kmx::Context ctx;
    ctx.seed = 7;
    const kmx::DcpredOptions candidate = kmx::budget_candidate_options({}, chosen);
    const kmx::DcpredOptions final_options = kmx::budget_final_options({}, chosen);
    EXPECT_EQ(final_options.refine_iterations, 8 * candidate.refine_iterations);
    EXPECT_EQ(final_options.refine_work, 8 * candidate.refine_work);
    const kmx::CompactPredictor all_rows = kmx::build_dcpred(ctx, letter().model, *letter().train, final_options);
    EXPECT_EQ(kmx::write_predictor_blob(r.predictor), kmx::write_predictor_blob(all_rows));
    const kmx::CompactPredictor candidate_refinement =
        kmx::build_dcpred(ctx, letter().model, *letter().train, candidate);
    EXPECT_LT(squared_gap_to_model(r.predictor), squared_gap_to_model(candidate_refinement));  // fits closer
    EXPECT_NE(kmx::write_predictor_blob(r.predictor), candidates[r.chosen]);                   // the split's build
    EXPECT_LE(double(r.blob.size()), budget.max_bytes);
}

// The four most accurate candidates on the split are scored on every fold of
// the 1200 rows (fold 0 the split itself: the same accuracy, rebuilt
// independently of the search's shared stages), their means are of 1200
// rows' verdicts, and the chosen one has the best.
TEST(CompressToBudget, TheFinalistsAreCrossValidated) {
    const kmx::BudgetSearch &r = byte_budget_search().result;
    std::vector<size_t> finalists;
    for (size_t i = 0; i < r.explored.size(); ++i)
        if (r.explored[i].folds_accuracy > 0) finalists.push_back(i);
    ASSERT_EQ(finalists.size(), 4u);
    kmx::Context ctx;
    ctx.seed = 7;  // the search's
    for (size_t i : finalists) {
        const kmx::BudgetCandidate &c = r.explored[i];
        EXPECT_TRUE(c.fits && !c.from_model);
        EXPECT_LE(c.folds_accuracy, r.explored[r.chosen].folds_accuracy);
        const double right = c.folds_accuracy * 1200;
        EXPECT_NEAR(right, std::round(right), 1e-6) << i;
        EXPECT_EQ(kmx::budget_fold_accuracy(ctx, letter().model, *letter().train, {}, c, 0), c.accuracy) << i;
    }
    const kmx::BudgetCandidate &chosen = r.explored[r.chosen];
    double sum = 0;
    for (int fold = 0; fold < 5; ++fold)
        sum += kmx::budget_fold_accuracy(ctx, letter().model, *letter().train, {}, chosen, fold);
    EXPECT_NEAR(sum / 5, chosen.folds_accuracy, 1e-12);
    EXPECT_THROW(kmx::budget_fold_accuracy(ctx, letter().model, *letter().train, {}, chosen, 5), kmx::Error);
}

// The sum of β² over a predictor's leaves and outputs.
double beta_squared(const std::vector<unsigned char> &blob) {
    const kmx::CompactPredictor p = kmx::read_predictor_blob(blob.data(), blob.size());
    double sum = 0;
    for (const kmx::PredictorLeaf &leaf : p.leaves)
        for (double b : leaf.beta) sum += b * b;
    return sum;
}

// The best candidate of each (storage, leaves) is built again with the
// leaves' ridge λ 10 and 100 times larger, its other knobs the same; the
// ridge reaches the fit: the predictors differ, and the larger λ shrinks the
// coefficients β.
TEST(CompressToBudget, EachBestIsTriedWithLargerRidges) {
    const kmx::BudgetSearch &r = byte_budget_search().result;
    const std::vector<std::vector<unsigned char>> &blobs = byte_budget_search().candidates;
    const auto same_knobs = [](const kmx::BudgetCandidate &a, const kmx::BudgetCandidate &b) {
        return a.storage == b.storage && a.leaves == b.leaves && a.landmarks == b.landmarks && a.pseudo == b.pseudo &&
               a.gamma_scale == b.gamma_scale && !a.from_model && !b.from_model;
    };
    int tried = 0;
    for (size_t i = 0; i < r.explored.size(); ++i) {
        if (r.explored[i].ridge_scale != 100) continue;
        ++tried;
        ASSERT_GE(i, 2u);
        std::optional<size_t> base;
        for (size_t j = 0; j + 2 <= i; ++j)
            if (same_knobs(r.explored[j], r.explored[i]) && r.explored[j].ridge_scale == 1) base = j;
        ASSERT_TRUE(base.has_value()) << "candidate " << i;
        EXPECT_TRUE(same_knobs(r.explored[i - 1], r.explored[i]));  // built in turn: × 10, then × 100
        EXPECT_EQ(r.explored[i - 1].ridge_scale, 10);
        EXPECT_NE(blobs[i - 1], blobs[*base]);
        EXPECT_NE(blobs[i], blobs[*base]);
        EXPECT_LT(beta_squared(blobs[i]), beta_squared(blobs[*base])) << "candidate " << i;
    }
    EXPECT_GE(tried, 2);
    const kmx::BudgetCandidate &chosen = r.explored[r.chosen];
    EXPECT_EQ(kmx::budget_candidate_options({}, chosen).ridge, kmx::DcpredOptions{}.ridge * chosen.ridge_scale);
}

// A tenth of the model's bytes holds the model itself in int4 on Letter (its
// features take at most 16 values: the codes are lossless), and the search
// chooses it: the model's labels, at a tenth of its size.
TEST(CompressToBudget, ATenthOfLettersModelIsTheModelInInt4) {
    const std::vector<unsigned char> model_bytes = kmx::model_to_bytes(letter().model);
    const kmx::PredictorBudget budget{0.1 * double(model_bytes.size()), 0};
    const kmx::BudgetSearch r = search(budget);
    expect_best_within_budget(r, budget);
    const kmx::BudgetCandidate &chosen = r.explored[r.chosen];
    EXPECT_TRUE(is_model(chosen));
    EXPECT_EQ(chosen.storage, KMX_STORAGE_INT4);
    kmx::PredictorNotes notes;  // its validation rows trained the model: the notes say its accuracy is in-sample
    ASSERT_TRUE(kmx::find_predictor_notes(r.blob.data(), r.blob.size(), notes));
    EXPECT_EQ(notes.in_sample, 1);
    EXPECT_EQ(notes.validation_accuracy, chosen.accuracy);
    kmx::Context ctx;
    const kmx::Dataset &rows = *letter().train;
    std::vector<double> labels(size_t(rows.n)), decision(size_t(rows.n));
    kmx::compact_predict(ctx, r.predictor, rows, nullptr, labels.data());
    kmx::model_decision_values(ctx, letter().model, rows, decision.data());
    for (int64_t i = 0; i < rows.n; ++i)
        EXPECT_EQ(labels[size_t(i)], letter().model.classes[decision[size_t(i)] > 0 ? 1 : 0]) << i;
}

// A notes record of the first layout (ten words: before in_sample) still
// reads, with in_sample unknown (−1); the current one reads back as written;
// a record length of neither layout is no notes.
TEST(PredictorNotes, BothRecordLayoutsRead) {
    kmx::PredictorNotes written;
    written.leaves = 3, written.landmarks = 7, written.storage = KMX_STORAGE_INT8, written.validation_rows = 240;
    written.candidates = 12, written.validation_accuracy = 0.75, written.validation_us = 0.5;
    written.max_bytes = 9000, written.in_sample = 1;
    kmx::Rng rng(3);
    const kmx::CompactPredictor predictor =
        predict_test::random_predictor(rng, 2, KMX_KERNEL_RBF, kmx::PredictorTask::classification, 2,
                                       KMX_MULTICLASS_OVO, kmx::TriangleEstimate::lower);
    const std::vector<unsigned char> blob = kmx::append_predictor_notes(kmx::write_predictor_blob(predictor), written);
    kmx::PredictorNotes read;
    ASSERT_TRUE(kmx::find_predictor_notes(blob.data(), blob.size(), read));
    EXPECT_EQ(read.in_sample, 1);
    EXPECT_EQ(read.landmarks, 7);
    EXPECT_EQ(read.candidates, 12);
    EXPECT_EQ(read.max_bytes, 9000);

    // The first layout: the record without its last word (in_sample), its length 80.
    const std::vector<unsigned char> first = with_record(blob, 8, 80);
    EXPECT_NO_THROW(kmx::read_predictor_blob(first.data(), first.size()));
    ASSERT_TRUE(kmx::find_predictor_notes(first.data(), first.size(), read));
    EXPECT_EQ(read.in_sample, -1);
    EXPECT_EQ(read.landmarks, 7);
    EXPECT_EQ(read.validation_accuracy, 0.75);
    EXPECT_EQ(read.max_bytes, 9000);

    const std::vector<unsigned char> odd = with_record(blob, 0, 72);  // a record length neither layout has
    EXPECT_FALSE(kmx::find_predictor_notes(odd.data(), odd.size(), read));
}

TEST(CompressToBudget, TimeBudgetIsRespectedWithinTheSlack) {
    // A time between the fastest and the slowest candidates of a byte budget
    // (which also keeps the grid, and so the test, small).
    const kmx::BudgetSearch loose = search({30000, 0});
    std::vector<double> times;
    for (const kmx::BudgetCandidate &c : loose.explored) times.push_back(c.us);
    std::sort(times.begin(), times.end());
    const kmx::PredictorBudget budget{30000, times[times.size() / 2]};
    const kmx::BudgetSearch r = search(budget);
    expect_best_within_budget(r, budget);
    EXPECT_LE(r.explored[r.chosen].us, budget.max_us);
    EXPECT_LE(measured_us(r.predictor, *letter().train), kTimeSlack * budget.max_us);
    EXPECT_LT(r.explored.size(), loose.explored.size() + 20);
}

TEST(CompressToBudget, BothBudgetsTogether) {
    const kmx::PredictorBudget budget{20000, 50};
    const kmx::BudgetSearch r = search(budget);
    expect_best_within_budget(r, budget);
    EXPECT_LE(double(r.blob.size()), budget.max_bytes);
}

TEST(CompressToBudget, ImpossibleBudgetsFailBeforeAnyCandidateIsBuilt) {
    auto expect_impossible = [](const kmx::PredictorBudget &budget, const char *fragment) {
        int built = -1;
        try {
            search(budget, &built);
            ADD_FAILURE() << "expected an error mentioning " << fragment;
        } catch (const kmx::Error &e) {
            EXPECT_EQ(e.status(), KMX_E_INVALID_ARGUMENT);
            EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
        }
        EXPECT_EQ(built, -1);  // no search ran, so the observer never counted
    };
    expect_impossible({200, 0}, "max_bytes = 200: no predictor of this model is that small");
    expect_impossible({0, 1e-6}, "no predictor of this model is that fast");
    expect_impossible({0, 0}, "give max_bytes, max_us or both");
    expect_impossible({-5, 0}, "must be >= 0");
}

TEST(CompressToBudget, ABudgetOnlyTheSmallestPredictorMeetsFailsAfterTheSearch) {
    // One leaf with one landmark fits, but no candidate of the search is that small.
    kmx::Context ctx;
    const kmx::Model &model = letter().model;
    try {
        kmx::compress_to_budget(ctx, model, *letter().train, {}, {1000, 0});
        ADD_FAILURE() << "expected no candidate within 1000 bytes";
    } catch (const kmx::Error &e) {
        EXPECT_EQ(e.status(), KMX_E_INVALID_ARGUMENT);
        EXPECT_NE(std::string(e.what()).find("no predictor within max_bytes = 1000"), std::string::npos) << e.what();
    }
}

// ------------------------------------------------ the no-budget default

size_t default_bytes(kmx::Context &ctx, const kmx::Model &model, const kmx::Dataset &train) {
    const kmx::CompactPredictor p = kmx::build_no_larger_than_model(ctx, model, train, {}, false);
    return kmx::write_predictor_blob(p).size();
}

TEST(NoLargerThanModel, DefaultPredictorsOfTheBundledDataAreNoLargerThanTheirModels) {
    kmx::Context ctx;
    for (const char *file : {"letter_bin.train.libsvm", "letter_mc.train.libsvm"}) {
        const auto train = predict_test::load_example(file, 3000);
        const kmx::Model model = predict_test::train_rbf_svm(ctx, *train, 8, 16);
        const size_t model_bytes = kmx::model_to_bytes(model).size();
        const size_t bytes = default_bytes(ctx, model, *train);
        std::printf("%s (3000 rows): model %zu bytes, default predictor %zu bytes\n", file, model_bytes, bytes);
        EXPECT_LE(bytes, model_bytes) << file;
    }
}

TEST(NoLargerThanModel, AModelOfNearlyAllSupportVectorsGetsASmallerPredictor) {
    // Random labels: almost every row is a support vector, so the automatic
    // landmarks (2.5 × the support vectors per leaf) ask for more than the model holds.
    kmx::Context ctx;
    kmx::Rng rng(3);
    const int64_t n = 1500, d = 4;
    std::vector<double> x(size_t(n * d)), y(static_cast<size_t>(n));
    for (double &v : x) v = rng.uniform();
    for (double &v : y) v = rng.uniform() < 0.5 ? -1 : 1;
    const auto data = kmx::Dataset::dense_borrow(x.data(), n, d, y.data());
    const kmx::Model model = predict_test::train_rbf_svm(ctx, *data, 1, 4);
    ASSERT_GT(model.support_vectors, n * 8 / 10);
    const size_t model_bytes = kmx::model_to_bytes(model).size();
    const kmx::DcpredOptions automatic;
    const size_t unbounded = kmx::write_predictor_blob(kmx::build_dcpred(ctx, model, *data, automatic)).size();
    const size_t bytes = default_bytes(ctx, model, *data);
    std::printf("random labels: %lld SVs, model %zu bytes, plain auto %zu, default %zu\n",
                static_cast<long long>(model.support_vectors), model_bytes, unbounded, bytes);
    EXPECT_GT(unbounded, model_bytes);  // the case the default guards against
    EXPECT_LE(bytes, model_bytes);
}

TEST(NoLargerThanModel, AutomaticLandmarksFollowTheSupportVectorsPerLeaf) {
    kmx::Context ctx;
    const kmx::Model &model = letter().model;
    kmx::DcpredOptions options;
    options.leaves = 8;
    options.overlap = false;
    const kmx::CompactPredictor p = kmx::build_dcpred(ctx, model, *letter().train, options);
    int64_t largest = 0;
    for (const kmx::PredictorLeaf &leaf : p.leaves) largest = std::max(largest, leaf.m);
    const int64_t expected = int64_t(std::ceil(2.5 * double(model.support_vectors) / 8));
    EXPECT_LE(largest, expected);
    EXPECT_GT(largest, expected / 4);  // not a fixed 40
}

}  // namespace
