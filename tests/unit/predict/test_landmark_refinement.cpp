// test_landmark_refinement.cpp — reduced-set refinement of landmarks
// (landmark_refinement.h): the closed-form β and bias satisfy the normal
// equations; the gradient of the projected objective equals central finite
// differences for every kernel; refinement never raises the objective and
// recovers a kernel expansion's own centers from perturbed ones; and in
// DC-Pred++ with few landmarks per leaf it predicts Letter better than the
// k-means landmarks it starts from.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "core/context.h"
#include "core/error.h"
#include "core/rng.h"
#include "kernel/kernel.h"
#include "model/model.h"
#include "predict/compact_predict.h"
#include "predict/dcpred.h"
#include "predict/landmark_refinement.h"
#include "predict_test_support.h"
#include "svm/multiclass.h"

namespace {

constexpr double kRidge = 1e-4;

std::vector<double> uniform(kmx::Rng &rng, size_t count) {
    std::vector<double> v(count);
    for (double &x : v) x = rng.uniform();
    return v;
}

kmx::KernelSpec kernel_of(kmx_kernel_type type) {
    kmx::KernelSpec k;
    k.type = type;
    k.gamma = type == KMX_KERNEL_RBF || type == KMX_KERNEL_LAPLACIAN ? 2.0 : 0.5;
    k.coef0 = 0.5;
    k.degree = 3;
    return k;
}

// Targets of a known expansion f_k(x) = Σ_j β_jk k(x, c_j) + b_k at x.
std::vector<double> expansion_targets(const kmx::KernelSpec &kernel, const std::vector<double> &x, int64_t n, int64_t d,
                                      const std::vector<double> &centers, int64_t outputs) {
    const int64_t m = int64_t(centers.size()) / d;
    std::vector<double> t(size_t(n * outputs));
    for (int64_t i = 0; i < n; ++i)
        for (int64_t k = 0; k < outputs; ++k) {
            double f = 0.1 * double(k + 1);
            for (int64_t j = 0; j < m; ++j)
                f += (j % 2 ? -1.0 : 1.0) * (1 + 0.5 * double(k)) *
                     kmx::kernel_eval(kernel, &x[size_t(i * d)], &centers[size_t(j * d)], d);
            t[size_t(i * outputs + k)] = f;
        }
    return t;
}

TEST(LandmarkRefinement, WeightsSatisfyTheNormalEquations) {
    kmx::Rng rng(3);
    const int64_t n = 60, d = 4, m = 7, outputs = 2;
    const std::vector<double> x = uniform(rng, size_t(n * d)), u = uniform(rng, size_t(m * d));
    const std::vector<double> t = uniform(rng, size_t(n * outputs));
    const kmx::KernelSpec kernel = kernel_of(KMX_KERNEL_RBF);
    const kmx::LandmarkFit fit = kmx::fit_landmark_weights(kernel, x.data(), n, d, t.data(), outputs, u, kRidge, 1);
    for (int64_t k = 0; k < outputs; ++k) {
        std::vector<double> r(static_cast<size_t>(n));
        double sum = 0;
        for (int64_t i = 0; i < n; ++i) {
            double f = fit.bias[size_t(k)] - t[size_t(i * outputs + k)];
            for (int64_t j = 0; j < m; ++j)
                f += fit.beta[size_t(j * outputs + k)] *
                     kmx::kernel_eval(kernel, &x[size_t(i * d)], &u[size_t(j * d)], d);
            r[size_t(i)] = f;
            sum += f;
        }
        EXPECT_NEAR(sum / double(n), 0.0, 1e-10);  // ∂/∂b
        for (int64_t j = 0; j < m; ++j) {          // ∂/∂β_j: (1/n) Σ_i r_i K_ij + λ β_j = 0
            double g = kRidge * fit.beta[size_t(j * outputs + k)];
            for (int64_t i = 0; i < n; ++i)
                g += r[size_t(i)] * kmx::kernel_eval(kernel, &x[size_t(i * d)], &u[size_t(j * d)], d) / double(n);
            EXPECT_NEAR(g, 0.0, 1e-10) << "landmark " << j << " output " << k;
        }
    }
}

TEST(LandmarkRefinement, GradientEqualsFiniteDifferencesForEveryKernel) {
    for (kmx_kernel_type type :
         {KMX_KERNEL_RBF, KMX_KERNEL_LAPLACIAN, KMX_KERNEL_LINEAR, KMX_KERNEL_POLYNOMIAL, KMX_KERNEL_SIGMOID}) {
        SCOPED_TRACE(int(type));
        kmx::Rng rng(11);
        const int64_t n = 40, d = 3, m = 4, outputs = 2;
        const std::vector<double> x = uniform(rng, size_t(n * d)), t = uniform(rng, size_t(n * outputs));
        std::vector<double> u = uniform(rng, size_t(m * d));
        const kmx::KernelSpec kernel = kernel_of(type);
        const std::vector<double> grad =
            kmx::landmark_loss_gradient(kernel, x.data(), n, d, t.data(), outputs, u, kRidge, 1);
        const double h = 1e-6;
        double largest = 0;
        for (double g : grad) largest = std::max(largest, std::fabs(g));
        ASSERT_GT(largest, 1e-6);
        for (size_t c = 0; c < u.size(); ++c) {
            const double keep = u[c];
            u[c] = keep + h;
            const double up = kmx::fit_landmark_weights(kernel, x.data(), n, d, t.data(), outputs, u, kRidge, 1).loss;
            u[c] = keep - h;
            const double down = kmx::fit_landmark_weights(kernel, x.data(), n, d, t.data(), outputs, u, kRidge, 1).loss;
            u[c] = keep;
            EXPECT_NEAR(grad[c], (up - down) / (2 * h), 1e-5 * largest) << "coordinate " << c;
        }
    }
}

TEST(LandmarkRefinement, RecoversAnExpansionsCentersFromPerturbedOnes) {
    kmx::Rng rng(5);
    const int64_t n = 400, d = 3, m = 5, outputs = 2;
    const std::vector<double> x = uniform(rng, size_t(n * d)), centers = uniform(rng, size_t(m * d));
    const kmx::KernelSpec kernel = kernel_of(KMX_KERNEL_RBF);
    const std::vector<double> t = expansion_targets(kernel, x, n, d, centers, outputs);
    std::vector<double> u = centers;
    for (double &v : u) v += 0.15 * (rng.uniform() - 0.5);
    const double before = kmx::fit_landmark_weights(kernel, x.data(), n, d, t.data(), outputs, u, 1e-10, 1).loss;
    const kmx::LandmarkFit after = kmx::refine_landmarks(kernel, x.data(), n, d, t.data(), outputs, u, 1e-10, 300, 1);
    std::printf("loss: perturbed %.3g, refined %.3g\n", before, after.loss);
    EXPECT_LT(after.loss, 1e-3 * before);
    EXPECT_NEAR(after.loss, kmx::fit_landmark_weights(kernel, x.data(), n, d, t.data(), outputs, u, 1e-10, 1).loss,
                1e-12);
}

TEST(LandmarkRefinement, NeverRaisesTheObjective) {
    for (kmx_kernel_type type : {KMX_KERNEL_RBF, KMX_KERNEL_LAPLACIAN, KMX_KERNEL_POLYNOMIAL}) {
        kmx::Rng rng(17);
        const int64_t n = 120, d = 5, m = 6, outputs = 1;
        const std::vector<double> x = uniform(rng, size_t(n * d)), t = uniform(rng, size_t(n));
        std::vector<double> u = uniform(rng, size_t(m * d));
        const kmx::KernelSpec kernel = kernel_of(type);
        const double before = kmx::fit_landmark_weights(kernel, x.data(), n, d, t.data(), outputs, u, kRidge, 1).loss;
        const double after = kmx::refine_landmarks(kernel, x.data(), n, d, t.data(), outputs, u, kRidge, 20, 1).loss;
        EXPECT_LT(after, before) << int(type);
    }
}

// 3000 Letter rows (C = 8, γ = 16): 32 leaves of 8 landmarks, refined or not.
TEST(LandmarkRefinement, FewLandmarksPerLeafPredictLetterBetterRefined) {
    const auto train = predict_test::load_example("letter_bin.train.libsvm", 3000);
    const auto test = predict_test::load_example("letter_bin.test.libsvm", 2000);
    kmx::Context ctx;
    const kmx::Model model = predict_test::train_rbf_svm(ctx, *train, 8, 16);
    double accuracy[2];
    for (int refine = 0; refine < 2; ++refine) {
        kmx::DcpredOptions o;
        o.leaves = 32, o.landmarks = 8, o.pseudo = 0, o.refine_iterations = refine ? 30 : 0;
        const kmx::CompactPredictor p = kmx::build_dcpred(ctx, model, *train, o);
        std::vector<double> labels(size_t(test->n));
        kmx::compact_predict(ctx, p, *test, nullptr, labels.data());
        int64_t right = 0;
        for (int64_t i = 0; i < test->n; ++i) right += labels[size_t(i)] == test->y[i];
        accuracy[refine] = double(right) / double(test->n);
    }
    std::printf("Letter 3000/2000, 32 x 8 landmarks: k-means %.4f, refined %.4f\n", accuracy[0], accuracy[1]);
    EXPECT_GT(accuracy[1], accuracy[0] + 0.03);
}

TEST(LandmarkRefinement, BadRefinementOptionsAreRejectedNamingThem) {
    const auto train = predict_test::load_example("letter_bin.train.libsvm", 300);
    kmx::Context ctx;
    const kmx::Model model = predict_test::train_rbf_svm(ctx, *train, 8, 16);
    const auto expect_rejected = [&](void (*change)(kmx::DcpredOptions &), const char *fragment) {
        kmx::DcpredOptions o;
        change(o);
        try {
            kmx::build_dcpred(ctx, model, *train, o);
            ADD_FAILURE() << "expected an error naming " << fragment;
        } catch (const kmx::Error &e) {
            EXPECT_EQ(e.status(), KMX_E_INVALID_ARGUMENT);
            EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
        }
    };
    expect_rejected([](kmx::DcpredOptions &o) { o.gamma_scale = 0; }, "gamma_scale must be > 0");
    expect_rejected([](kmx::DcpredOptions &o) { o.gamma_scale = NAN; }, "gamma_scale must be > 0");
    expect_rejected([](kmx::DcpredOptions &o) { o.refine_iterations = -1; }, "refine_iterations must be >= 0");
    expect_rejected([](kmx::DcpredOptions &o) { o.refine_work = -1; }, "refine_work must be >= 0");
}

}  // namespace
