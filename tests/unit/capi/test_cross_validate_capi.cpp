// kmx_solver_cross_validate through the C ABI: the predictions equal the
// library's (a context's seed and threads decide them), the task is reported,
// and every bad argument is a status with a message, changing nothing.
#include <gtest/gtest.h>
#include <kmx/kmx.h>

#include <cmath>
#include <string>
#include <vector>

namespace {

constexpr int64_t kN = 40, kD = 2;

bool mentions(const char *words) { return std::string(kmx_last_error()).find(words) != std::string::npos; }

struct CrossValidateCapi : ::testing::Test {
    std::vector<double> x = std::vector<double>(size_t(kN * kD)), y = std::vector<double>(size_t(kN));
    kmx_dataset *ds = nullptr;
    kmx_kernel *rbf = nullptr;
    kmx_solver *svm = nullptr;
    void SetUp() override {
        for (int64_t i = 0; i < kN; ++i) {
            y[size_t(i)] = i % 2 ? 1 : -1;
            x[size_t(i * kD)] = y[size_t(i)] + std::sin(1.7 * double(i));
            x[size_t(i * kD + 1)] = std::cos(0.9 * double(i));
        }
        ASSERT_EQ(kmx_dataset_create(&ds, x.data(), kN, kD, y.data(), KMX_COPY), KMX_OK);
        ASSERT_EQ(kmx_kernel_create_from_string(&rbf, "kernel=rbf gamma=0.5"), KMX_OK);
        ASSERT_EQ(kmx_solver_create_from_string(&svm, "method=svm C=2"), KMX_OK);
    }
    void TearDown() override {
        kmx_solver_free(svm);
        kmx_kernel_free(rbf);
        kmx_dataset_free(ds);
    }
};

TEST_F(CrossValidateCapi, PredictsEveryRowAndSaysTheTask) {
    std::vector<double> out(size_t(kN), 0.5);
    kmx_task task = KMX_TASK_AUTO;
    ASSERT_EQ(kmx_solver_cross_validate(out.data(), kN, &task, nullptr, svm, rbf, ds, 5), KMX_OK) << kmx_last_error();
    EXPECT_EQ(task, KMX_TASK_CLASSIFICATION);
    int correct = 0;
    for (int64_t i = 0; i < kN; ++i) {
        EXPECT_TRUE(out[size_t(i)] == 1 || out[size_t(i)] == -1) << out[size_t(i)];
        correct += out[size_t(i)] == y[size_t(i)];
    }
    EXPECT_GE(correct, 30);  // the classes are shifted by ±1 against noise of amplitude 1
    std::vector<double> again(static_cast<size_t>(kN));
    ASSERT_EQ(kmx_solver_cross_validate(again.data(), kN, nullptr, nullptr, svm, rbf, ds, 5), KMX_OK);
    EXPECT_EQ(again, out);  // the default context's seed: the same folds
}

TEST_F(CrossValidateCapi, BadArgumentsAreStatusesThatChangeNothing) {
    std::vector<double> out(size_t(kN), 7.0);
    const std::vector<double> untouched = out;
    EXPECT_EQ(kmx_solver_cross_validate(nullptr, kN, nullptr, nullptr, svm, rbf, ds, 5), KMX_E_INVALID_ARGUMENT);
    EXPECT_TRUE(mentions("out is NULL")) << kmx_last_error();
    EXPECT_EQ(kmx_solver_cross_validate(out.data(), kN - 1, nullptr, nullptr, svm, rbf, ds, 5), KMX_E_INVALID_ARGUMENT);
    EXPECT_TRUE(mentions("out")) << kmx_last_error();
    EXPECT_EQ(kmx_solver_cross_validate(out.data(), kN, nullptr, nullptr, nullptr, rbf, ds, 5), KMX_E_INVALID_ARGUMENT);
    EXPECT_TRUE(mentions("solver is NULL")) << kmx_last_error();
    EXPECT_EQ(kmx_solver_cross_validate(out.data(), kN, nullptr, nullptr, svm, rbf, ds, 1), KMX_E_INVALID_ARGUMENT);
    EXPECT_TRUE(mentions("at least 2 folds")) << kmx_last_error();
    EXPECT_EQ(kmx_solver_cross_validate(out.data(), kN, nullptr, nullptr, svm, rbf, ds, kN + 1),
              KMX_E_INVALID_ARGUMENT);
    EXPECT_TRUE(mentions("41 folds need at least 41 rows")) << kmx_last_error();
    EXPECT_EQ(kmx_solver_cross_validate(out.data(), kN, nullptr, nullptr, svm, rbf, ds, int64_t(1) << 40),
              KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(out, untouched);
}

TEST_F(CrossValidateCapi, APathIsEachValueOnTheSameFolds) {
    kmx_solver *krr = nullptr;
    ASSERT_EQ(kmx_solver_create_from_string(&krr, "method=krr"), KMX_OK);
    const double lambdas[2] = {1e-2, 1e-4};
    std::vector<double> path(size_t(2 * kN));
    ASSERT_EQ(kmx_solver_cross_validate_path(path.data(), 2 * kN, nullptr, nullptr, krr, rbf, ds, 4, KMX_PARAM_LAMBDA,
                                             lambdas, 2),
              KMX_OK)
        << kmx_last_error();
    for (int v = 0; v < 2; ++v) {
        ASSERT_EQ(kmx_solver_set_param(krr, KMX_PARAM_LAMBDA, lambdas[v]), KMX_OK);
        std::vector<double> alone(static_cast<size_t>(kN));
        ASSERT_EQ(kmx_solver_cross_validate(alone.data(), kN, nullptr, nullptr, krr, rbf, ds, 4), KMX_OK);
        EXPECT_EQ(std::vector<double>(path.begin() + v * kN, path.begin() + (v + 1) * kN), alone);
    }
    EXPECT_EQ(kmx_solver_cross_validate_path(path.data(), 2 * kN - 1, nullptr, nullptr, krr, rbf, ds, 4,
                                             KMX_PARAM_LAMBDA, lambdas, 2),
              KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(kmx_solver_cross_validate_path(path.data(), 2 * kN, nullptr, nullptr, krr, rbf, ds, 4, KMX_PARAM_LAMBDA,
                                             nullptr, 2),
              KMX_E_INVALID_ARGUMENT);
    EXPECT_TRUE(mentions("v is NULL")) << kmx_last_error();
    EXPECT_EQ(kmx_solver_cross_validate_path(path.data(), 2 * kN, nullptr, nullptr, krr, rbf, ds, 4, KMX_PARAM_LAMBDA,
                                             lambdas, 0),
              KMX_E_INVALID_ARGUMENT);
    EXPECT_TRUE(mentions("at least one value")) << kmx_last_error();
    EXPECT_EQ(kmx_solver_cross_validate_path(path.data(), 2 * kN, nullptr, nullptr, krr, rbf, ds, 4, KMX_PARAM_EPS,
                                             lambdas, 2),
              KMX_E_INVALID_ARGUMENT);
    EXPECT_TRUE(mentions("along C or lambda")) << kmx_last_error();
    kmx_solver_free(krr);
}

}  // namespace
