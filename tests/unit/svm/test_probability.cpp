// test_probability.cpp — probability estimates (LIBSVM's -b 1): Platt's
// sigmoid fit against its closed form (two distinct decision values: the
// fit reproduces the smoothed targets exactly) and against a zero gradient
// computed here; pairwise coupling against a direct solve of its optimality
// system; then training with probability=1 through the C API: rows summing
// to 1, agreement with the votes, determinism by the seed, one-vs-rest,
// DC-SVM, too few rows for 5 folds, and the errors. Agreement with LIBSVM
// itself is compare_libsvm_probability.py's.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "core/rng.h"
#include "kmx/kmx.h"
#include "svm/pairwise_coupling.h"
#include "svm/platt_scaling.h"
#include "../common/blobs.h"
#include "../common/dense_solve.h"

namespace {

// ---------------------------------------------------------------- Platt scaling

// Two distinct decision values (+1 for every positive, −1 for every negative):
// two parameters fit the two smoothed targets exactly, so
//   A + B = log(1/t₊ − 1),  −A + B = log(1/t₋ − 1).
TEST(PlattScaling, TwoDecisionValuesGiveTheClosedForm) {
    const int positives = 30, negatives = 50;
    std::vector<double> f, y;
    for (int i = 0; i < positives + negatives; ++i) {
        f.push_back(i < positives ? 1.0 : -1.0);
        y.push_back(i < positives ? 1.0 : -1.0);
    }
    const kmx::PlattSigmoid s = kmx::fit_platt_sigmoid(f.data(), y.data(), int64_t(f.size()));
    const double hi = (positives + 1.0) / (positives + 2.0), lo = 1.0 / (negatives + 2.0);
    const double upper = std::log(1 / hi - 1), lower = std::log(1 / lo - 1);
    EXPECT_NEAR(s.A, (upper - lower) / 2, 1e-4);
    EXPECT_NEAR(s.B, (upper + lower) / 2, 1e-4);
    EXPECT_NEAR(kmx::platt_probability(s, 1.0), hi, 1e-6);
    EXPECT_NEAR(kmx::platt_probability(s, -1.0), lo, 1e-6);
}

// Overlapping classes: the fit is where the cross-entropy's gradient,
// computed here, vanishes (LIBSVM's stopping rule: both entries below 1e-5).
TEST(PlattScaling, OverlappingClassesEndAtAZeroGradient) {
    kmx::Rng rng(7);
    std::vector<double> f, y;
    for (int i = 0; i < 400; ++i) {
        const double label = i % 3 == 0 ? 1.0 : -1.0;
        y.push_back(label);
        f.push_back(0.8 * label + 1.5 * test_common::gaussian(rng));
    }
    const kmx::PlattSigmoid s = kmx::fit_platt_sigmoid(f.data(), y.data(), int64_t(f.size()));
    double positives = 0;
    for (double label : y) positives += label > 0;
    const double hi = (positives + 1) / (positives + 2), lo = 1 / (double(y.size()) - positives + 2);
    double gA = 0, gB = 0;
    for (size_t i = 0; i < f.size(); ++i) {
        const double p = 1 / (1 + std::exp(s.A * f[i] + s.B)), t = y[i] > 0 ? hi : lo;
        gA += f[i] * (t - p);
        gB += t - p;
    }
    EXPECT_LT(std::fabs(gA), 1e-5);
    EXPECT_LT(std::fabs(gB), 1e-5);
    EXPECT_LT(s.A, 0);  // larger f: more likely positive
}

TEST(PlattScaling, ProbabilityIsStableForHugeArguments) {
    const kmx::PlattSigmoid s{-1, 0};
    EXPECT_EQ(kmx::platt_probability(s, 1e6), 1.0);
    EXPECT_EQ(kmx::platt_probability(s, -1e6), 0.0);
    EXPECT_DOUBLE_EQ(kmx::platt_probability(s, 0), 0.5);
}

// ----------------------------------------------------------- pairwise coupling

// The optimum of min ½ pᵀQp, Σp = 1 solves [Q e; eᵀ 0] [p; b] = [0; 1].
std::vector<double> direct_coupling(int64_t k, const std::vector<double> &r) {
    std::vector<double> a(size_t((k + 1) * (k + 1)), 0.0), rhs(size_t(k + 1), 0.0);
    for (int64_t t = 0; t < k; ++t) {
        for (int64_t j = 0; j < k; ++j) {
            if (j == t) continue;
            a[size_t(t * (k + 1) + t)] += r[size_t(j * k + t)] * r[size_t(j * k + t)];
            a[size_t(t * (k + 1) + j)] = -r[size_t(j * k + t)] * r[size_t(t * k + j)];
        }
        a[size_t(t * (k + 1) + k)] = 1;
        a[size_t(k * (k + 1) + t)] = 1;
    }
    rhs[size_t(k)] = 1;
    std::vector<double> p = test_common::dense_solve(a, rhs);
    p.pop_back();
    return p;
}

std::vector<double> random_pairwise(int64_t k, uint64_t seed) {
    kmx::Rng rng(seed);
    std::vector<double> r(size_t(k * k), 0.0);
    for (int64_t i = 0; i < k; ++i)
        for (int64_t j = i + 1; j < k; ++j) {
            r[size_t(i * k + j)] = 0.02 + 0.96 * rng.uniform();
            r[size_t(j * k + i)] = 1 - r[size_t(i * k + j)];
        }
    return r;
}

TEST(PairwiseCoupling, MatchesTheDirectSolveOfItsLinearSystem) {
    for (int64_t k : {3, 4, 7, 26}) {
        const std::vector<double> r = random_pairwise(k, uint64_t(k));
        std::vector<double> p(static_cast<size_t>(k));
        kmx::couple_pairwise(k, r.data(), p.data());
        const std::vector<double> expected = direct_coupling(k, r);
        double sum = 0;
        for (int64_t t = 0; t < k; ++t) {
            // The iteration stops at max_t |(Qp)_t − pᵀQp| < 0.005 / k, not at the exact optimum.
            EXPECT_NEAR(p[size_t(t)], expected[size_t(t)], 0.01 / double(k)) << "k " << k << " class " << t;
            EXPECT_GE(p[size_t(t)], 0);
            sum += p[size_t(t)];
        }
        EXPECT_NEAR(sum, 1, 1e-12);
    }
}

// Consistent estimates r_ij = p_i / (p_i + p_j) give back p.
TEST(PairwiseCoupling, ConsistentEstimatesGiveBackTheirProbabilities) {
    const std::vector<double> truth = {0.5, 0.25, 0.15, 0.1};
    const int64_t k = 4;
    std::vector<double> r(size_t(k * k), 0.0), p(static_cast<size_t>(k));
    for (int64_t i = 0; i < k; ++i)
        for (int64_t j = 0; j < k; ++j)
            if (i != j) r[size_t(i * k + j)] = truth[size_t(i)] / (truth[size_t(i)] + truth[size_t(j)]);
    kmx::couple_pairwise(k, r.data(), p.data());
    for (int64_t t = 0; t < k; ++t) EXPECT_NEAR(p[size_t(t)], truth[size_t(t)], 1e-3);
}

// ------------------------------------------------------- training through the C API

struct Blobs {
    std::vector<double> x, y;
    int64_t n, d = 2;
};

// Overlapping blobs of `classes` classes, labels 1..classes.
Blobs overlapping_blobs(int64_t n, int classes, uint64_t seed) {
    const test_common::BlobPoints p = test_common::make_blob_points(n, 2, classes, 4.0, 1.2, seed);
    Blobs b{p.x, {}, n};
    for (int c : p.truth) b.y.push_back(c + 1.0);
    return b;
}

struct Trained {
    kmx_dataset *data = nullptr;
    kmx_kernel *kernel = nullptr;
    kmx_model *model = nullptr;
    kmx_status status = KMX_OK;
    ~Trained() {
        kmx_model_free(model);
        kmx_kernel_free(kernel);
        kmx_dataset_free(data);
    }
};

void train(Trained &t, const Blobs &b, const char *params, uint64_t seed = 0) {
    ASSERT_EQ(kmx_dataset_create(&t.data, b.x.data(), b.n, b.d, b.y.data(), KMX_COPY), KMX_OK);
    ASSERT_EQ(kmx_kernel_create(&t.kernel, KMX_KERNEL_RBF), KMX_OK);
    ASSERT_EQ(kmx_kernel_set_param(t.kernel, KMX_PARAM_GAMMA, 0.5), KMX_OK);
    kmx_solver *solver = nullptr;
    ASSERT_EQ(kmx_solver_create_from_string(&solver, params), KMX_OK) << kmx_last_error();
    kmx_context *ctx = nullptr;
    ASSERT_EQ(kmx_context_create(&ctx), KMX_OK);
    ASSERT_EQ(kmx_context_set_param(ctx, KMX_PARAM_SEED, double(seed)), KMX_OK);
    ASSERT_EQ(kmx_context_set_param(ctx, KMX_PARAM_THREADS, 1), KMX_OK);
    t.status = kmx_solver_train(&t.model, ctx, solver, t.kernel, t.data);
    kmx_context_free(ctx);
    kmx_solver_free(solver);
}

std::vector<double> probabilities(const Trained &t, int64_t n, int64_t classes) {
    std::vector<double> p(size_t(n * classes), -1.0);
    EXPECT_EQ(kmx_model_predict_probability(p.data(), int64_t(p.size()), nullptr, t.model, t.data), KMX_OK)
        << kmx_last_error();
    return p;
}

// Rows sum to 1, every value in (0, 1), and the most probable class is the
// voted one on most rows (they can differ near a boundary, as in LIBSVM).
void expect_sound_probabilities(const Trained &t, const Blobs &b, int64_t classes, double agreement) {
    const std::vector<double> p = probabilities(t, b.n, classes);
    std::vector<double> labels(size_t(b.n)), classes_of(static_cast<size_t>(classes));
    ASSERT_EQ(kmx_model_predict(labels.data(), b.n, nullptr, t.model, t.data), KMX_OK);
    ASSERT_EQ(kmx_model_classes(classes_of.data(), classes, t.model), KMX_OK);
    int64_t agree = 0;
    for (int64_t i = 0; i < b.n; ++i) {
        double sum = 0;
        int64_t best = 0;
        for (int64_t c = 0; c < classes; ++c) {
            const double v = p[size_t(i * classes + c)];
            EXPECT_GT(v, 0);
            EXPECT_LT(v, 1);
            sum += v;
            if (v > p[size_t(i * classes + best)]) best = c;
        }
        EXPECT_NEAR(sum, 1, 1e-9) << "row " << i;
        agree += classes_of[size_t(best)] == labels[size_t(i)];
    }
    EXPECT_GE(double(agree), agreement * double(b.n));
}

double info(const kmx_model *model, kmx_model_info_key key) {
    double v = -1;
    EXPECT_EQ(kmx_model_info(&v, model, key), KMX_OK);
    return v;
}

TEST(ProbabilityTraining, OneVsOneThreeClassesSumToOneAndAgreeWithTheVotes) {
    const Blobs b = overlapping_blobs(300, 3, 11);
    Trained t;
    train(t, b, "method=svm C=1 probability=1");
    ASSERT_EQ(t.status, KMX_OK) << kmx_last_error();
    EXPECT_EQ(info(t.model, KMX_INFO_PROBABILITY), 1);
    expect_sound_probabilities(t, b, 3, 0.9);
}

TEST(ProbabilityTraining, TwoClassesOneVsRestAndDcsvm) {
    const char *params[] = {"method=svm C=2 probability=1", "method=svm C=1 multiclass=ovr probability=1",
                            "method=dcsvm C=1 levels=1 clusters_per_level=2 sample_size=50 probability=1",
                            "method=bka C=1 early_level=1 clusters_per_level=2 sample_size=50 probability=1"};
    const int classes[] = {2, 4, 3, 3};
    for (int i = 0; i < 4; ++i) {
        const Blobs b = overlapping_blobs(200, classes[i], 5 + uint64_t(i));
        Trained t;
        train(t, b, params[i]);
        ASSERT_EQ(t.status, KMX_OK) << params[i] << ": " << kmx_last_error();
        expect_sound_probabilities(t, b, classes[i], 0.85);
    }
}

// The folds come from the context's seed: the same seed gives the same
// probabilities bit for bit, another seed other sigmoids (close values).
TEST(ProbabilityTraining, TheSeedPicksTheFolds) {
    const Blobs b = overlapping_blobs(150, 3, 3);
    Trained first, again, other;
    train(first, b, "method=svm probability=1", 1);
    train(again, b, "method=svm probability=1", 1);
    train(other, b, "method=svm probability=1", 2);
    ASSERT_TRUE(first.model && again.model && other.model) << kmx_last_error();
    EXPECT_EQ(probabilities(first, b.n, 3), probabilities(again, b.n, 3));
    const std::vector<double> p1 = probabilities(first, b.n, 3), p2 = probabilities(other, b.n, 3);
    EXPECT_NE(p1, p2);
    for (size_t i = 0; i < p1.size(); ++i) EXPECT_NEAR(p1[i], p2[i], 0.2);
}

int record_progress(void *user, double fraction, const char *) {
    static_cast<std::vector<double> *>(user)->push_back(fraction);
    return 0;
}

// The cross-validations report the first half of the progress, the machines
// the second: it never goes back. The context's peak covers the folds' memory.
TEST(ProbabilityTraining, ProgressNeverGoesBackAndThePeakCoversTheFolds) {
    const Blobs b = overlapping_blobs(200, 3, 8);
    kmx_dataset *data = nullptr;
    ASSERT_EQ(kmx_dataset_create(&data, b.x.data(), b.n, b.d, b.y.data(), KMX_COPY), KMX_OK);
    kmx_kernel *kernel = nullptr;
    ASSERT_EQ(kmx_kernel_create(&kernel, KMX_KERNEL_RBF), KMX_OK);
    int64_t peaks[2] = {0, 0};
    std::vector<double> fractions;
    for (int probability = 0; probability < 2; ++probability) {
        kmx_solver *solver = nullptr;
        ASSERT_EQ(kmx_solver_create_from_string(&solver, probability ? "method=svm probability=1" : "method=svm"),
                  KMX_OK);
        kmx_context *ctx = nullptr;
        ASSERT_EQ(kmx_context_create(&ctx), KMX_OK);
        if (probability) ASSERT_EQ(kmx_context_set_progress_callback(ctx, record_progress, &fractions), KMX_OK);
        kmx_model *model = nullptr;
        ASSERT_EQ(kmx_solver_train(&model, ctx, solver, kernel, data), KMX_OK) << kmx_last_error();
        ASSERT_EQ(kmx_context_peak_bytes(&peaks[probability], ctx), KMX_OK);
        kmx_model_free(model);
        kmx_context_free(ctx);
        kmx_solver_free(solver);
    }
    ASSERT_FALSE(fractions.empty());
    for (size_t i = 1; i < fractions.size(); ++i) EXPECT_GE(fractions[i], fractions[i - 1]) << "report " << i;
    EXPECT_DOUBLE_EQ(fractions.back(), 1.0);
    EXPECT_GE(peaks[1], peaks[0]);  // a fold's copy of its rows comes on top
    kmx_kernel_free(kernel);
    kmx_dataset_free(data);
}

// A sparse (LIBSVM) dataset's folds stay sparse; they give what the same rows
// stored dense give.
TEST(ProbabilityTraining, SparseDataGivesWhatDenseDataGives) {
    const Blobs b = overlapping_blobs(120, 3, 12);
    std::string text;
    char line[128];
    for (int64_t i = 0; i < b.n; ++i) {
        // Column 2000, 1e-300 in the first row only, makes the file sparse (d > 1024, 0.1% dense) and adds nothing
        // to a kernel value (its square underflows).
        std::snprintf(line, sizeof line, "%g 1:%.17g 2:%.17g%s\n", b.y[size_t(i)], b.x[size_t(2 * i)],
                      b.x[size_t(2 * i + 1)], i == 0 ? " 2000:1e-300" : "");
        text += line;
    }
    kmx_dataset *sparse = nullptr;
    ASSERT_EQ(kmx_dataset_parse(&sparse, nullptr, text.data(), int64_t(text.size()), KMX_FORMAT_LIBSVM, "blobs"),
              KMX_OK)
        << kmx_last_error();
    int is_sparse = 0;
    ASSERT_EQ(kmx_dataset_is_sparse(&is_sparse, sparse), KMX_OK);
    ASSERT_TRUE(is_sparse);
    Trained dense;
    train(dense, b, "method=svm probability=1", 4);
    ASSERT_EQ(dense.status, KMX_OK) << kmx_last_error();
    kmx_solver *solver = nullptr;
    ASSERT_EQ(kmx_solver_create_from_string(&solver, "method=svm probability=1"), KMX_OK);
    kmx_context *ctx = nullptr;
    ASSERT_EQ(kmx_context_create(&ctx), KMX_OK);
    ASSERT_EQ(kmx_context_set_param(ctx, KMX_PARAM_SEED, 4), KMX_OK);
    ASSERT_EQ(kmx_context_set_param(ctx, KMX_PARAM_THREADS, 1), KMX_OK);
    kmx_model *model = nullptr;
    ASSERT_EQ(kmx_solver_train(&model, ctx, solver, dense.kernel, sparse), KMX_OK) << kmx_last_error();
    std::vector<double> p(size_t(3 * b.n));
    ASSERT_EQ(kmx_model_predict_probability(p.data(), int64_t(p.size()), nullptr, model, sparse), KMX_OK);
    const std::vector<double> expected = probabilities(dense, b.n, 3);
    for (size_t i = 0; i < p.size(); ++i) EXPECT_NEAR(p[i], expected[i], 1e-6) << i;
    kmx_model_free(model);
    kmx_context_free(ctx);
    kmx_solver_free(solver);
    kmx_dataset_free(sparse);
}

// Three rows of a class: most folds' training parts still hold both classes;
// one that does not gets LIBSVM's constant decision value. Training works.
TEST(ProbabilityTraining, TooFewRowsForFiveFoldsStillTrain) {
    Blobs b = overlapping_blobs(40, 2, 9);
    for (int64_t i = 0; i < b.n; ++i) b.y[size_t(i)] = i < 3 ? 2.0 : 1.0;
    Trained t;
    train(t, b, "method=svm C=1 probability=1");
    ASSERT_EQ(t.status, KMX_OK) << kmx_last_error();
    expect_sound_probabilities(t, b, 2, 0.5);
    Blobs tiny = overlapping_blobs(4, 2, 9);
    Trained small;
    train(small, tiny, "method=svm C=1 probability=1");
    ASSERT_EQ(small.status, KMX_OK) << kmx_last_error();
    expect_sound_probabilities(small, tiny, 2, 0.0);
}

TEST(ProbabilityTraining, MethodsWithoutProbabilitiesAreRefusedByName) {
    const Blobs b = overlapping_blobs(60, 2, 4);
    for (const char *method : {"svr", "one_class", "krr", "falkon", "nystrom_tron"}) {
        Trained t;
        train(t, b, (std::string("method=") + method + " probability=1").c_str());
        EXPECT_EQ(t.status, KMX_E_INVALID_ARGUMENT) << method;
        const std::string error = kmx_last_error();
        EXPECT_NE(error.find(std::string("method ") + method + " has no probability estimates"), std::string::npos)
            << error;
    }
}

TEST(ProbabilityTraining, PredictingProbabilitiesOfAModelWithoutThemIsAnError) {
    const Blobs b = overlapping_blobs(60, 2, 4);
    Trained plain, regression;
    train(plain, b, "method=svm");
    train(regression, b, "method=svr");
    ASSERT_TRUE(plain.model && regression.model) << kmx_last_error();
    EXPECT_EQ(info(plain.model, KMX_INFO_PROBABILITY), 0);
    std::vector<double> p(size_t(2 * b.n));
    EXPECT_EQ(kmx_model_predict_probability(p.data(), int64_t(p.size()), nullptr, plain.model, plain.data),
              KMX_E_INVALID_ARGUMENT);
    EXPECT_NE(std::string(kmx_last_error()).find("trained without probability estimates"), std::string::npos)
        << kmx_last_error();
    EXPECT_EQ(kmx_model_predict_probability(p.data(), int64_t(p.size()), nullptr, regression.model, plain.data),
              KMX_E_INVALID_ARGUMENT);
    EXPECT_NE(std::string(kmx_last_error()).find("svr (regression) model has no probability"), std::string::npos)
        << kmx_last_error();
}

TEST(ProbabilityTraining, ArgumentsAreChecked) {
    const Blobs b = overlapping_blobs(60, 3, 4);
    Trained t;
    train(t, b, "method=svm probability=1");
    ASSERT_EQ(t.status, KMX_OK) << kmx_last_error();
    std::vector<double> p(size_t(3 * b.n));
    EXPECT_EQ(kmx_model_predict_probability(p.data(), int64_t(p.size()) - 1, nullptr, t.model, t.data),
              KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(kmx_model_predict_probability(nullptr, int64_t(p.size()), nullptr, t.model, t.data),
              KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(kmx_model_predict_probability(p.data(), int64_t(p.size()), nullptr, nullptr, t.data),
              KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(kmx_model_predict_probability(p.data(), int64_t(p.size()), nullptr, t.model, nullptr),
              KMX_E_INVALID_ARGUMENT);
    kmx_solver *solver = nullptr;
    ASSERT_EQ(kmx_solver_create(&solver, KMX_METHOD_SVM), KMX_OK);
    EXPECT_EQ(kmx_solver_set_param(solver, KMX_PARAM_PROBABILITY, 2), KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(kmx_solver_set_param(solver, KMX_PARAM_PROBABILITY, 1), KMX_OK);
    double value = 0;
    ASSERT_EQ(kmx_solver_get_param(&value, solver, KMX_PARAM_PROBABILITY), KMX_OK);
    EXPECT_EQ(value, 1);
    int used = -1;
    ASSERT_EQ(kmx_param_used_by(&used, KMX_PARAM_PROBABILITY, KMX_METHOD_BKA), KMX_OK);
    EXPECT_EQ(used, 1);
    ASSERT_EQ(kmx_param_used_by(&used, KMX_PARAM_PROBABILITY, KMX_METHOD_SVR), KMX_OK);
    EXPECT_EQ(used, 0);
    EXPECT_STREQ(kmx_param_name(KMX_PARAM_PROBABILITY), "probability");
    kmx_solver_free(solver);
}

}  // namespace
