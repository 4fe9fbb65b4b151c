// test_precomputed_capi.cpp — precomputed kernels (LIBSVM's -t 4) through the
// C ABI: a precomputed Gaussian matrix trains the model the Gaussian kernel
// trains on the features (svm, multiclass, svr, one_class: objective, support
// vectors, decision values), the saved model holds serial numbers, LIBSVM's
// text reads, and every kind of bad matrix is refused with a clear error.
// Agreement with svm-train -t 4 is compare_libsvm_precomputed.py's.
#include "user_kernel_support.h"

namespace {

using namespace user_kernels;

constexpr double kGamma = 0.4;

// The features' model and the precomputed matrix's, on the same rows, and
// both models' decision values on fresh rows.
struct Pair {
    Model features, precomputed;
    std::vector<double> feature_values, precomputed_values;
};

void train_pair(const DualCase &c, Pair &pair) {
    const Rows train = random_rows(90, 3, c.classes, 11), test = random_rows(40, 3, c.classes, 12);
    Solver solver;
    make_solver(solver, c.solver);
    Kernel rbf, pre;
    ASSERT_EQ(kmx_kernel_create_from_string(rbf.out(), "kernel=rbf gamma=0.4"), KMX_OK);
    ASSERT_EQ(kmx_kernel_create(pre.out(), KMX_KERNEL_PRECOMPUTED), KMX_OK) << kmx_last_error();
    Dataset x, k, x_test, k_test;
    make_dataset(x, train.x, train.n, train.d, train.y.data());
    make_dataset(k, precomputed_rows(train, train, kGamma, true), train.n, train.n + 1, train.y.data());
    make_dataset(x_test, test.x, test.n, test.d, nullptr);
    make_dataset(k_test, precomputed_rows(test, train, kGamma, false), test.n, train.n + 1, nullptr);
    ASSERT_EQ(kmx_solver_train(pair.features.out(), nullptr, solver, rbf, x), KMX_OK) << kmx_last_error();
    ASSERT_EQ(kmx_solver_train(pair.precomputed.out(), nullptr, solver, pre, k), KMX_OK) << kmx_last_error();
    pair.feature_values = decision_values(pair.features, x_test, test.n);
    pair.precomputed_values = decision_values(pair.precomputed, k_test, test.n);
}

TEST(PrecomputedKernel, TrainsTheModelTheGaussianTrainsOnFeatures) {
    for (const DualCase &c : kDualCases) {
        SCOPED_TRACE(c.solver);
        Pair pair;
        train_pair(c, pair);
        if (HasFatalFailure()) return;
        const double objective = info(pair.features, KMX_INFO_OBJECTIVE);
        EXPECT_NEAR(info(pair.precomputed, KMX_INFO_OBJECTIVE), objective, 1e-9 * std::fabs(objective));
        EXPECT_EQ(info(pair.precomputed, KMX_INFO_SUPPORT_VECTORS), info(pair.features, KMX_INFO_SUPPORT_VECTORS));
        EXPECT_LT(max_difference(pair.precomputed_values, pair.feature_values), 1e-9);
        EXPECT_EQ(info(pair.precomputed, KMX_INFO_KERNEL), KMX_KERNEL_PRECOMPUTED);
        EXPECT_EQ(info(pair.precomputed, KMX_INFO_COLUMNS), 91);  // serial + 90 kernel values
    }
}

TEST(PrecomputedKernel, SavedModelHoldsSerialNumbersAndPredictsTheSame) {
    Pair pair;
    train_pair(kDualCases[1], pair);
    if (HasFatalFailure()) return;
    int64_t size = 0, feature_size = 0;
    EXPECT_EQ(kmx_model_save_to_buffer(nullptr, 0, &size, pair.precomputed), KMX_OK);
    EXPECT_EQ(kmx_model_save_to_buffer(nullptr, 0, &feature_size, pair.features), KMX_OK);
    // One f64 per support vector instead of 3 (the features' d).
    const int64_t sv = int64_t(info(pair.features, KMX_INFO_SUPPORT_VECTORS));
    EXPECT_EQ(feature_size - size, sv * 2 * 8);
    std::vector<unsigned char> bytes(static_cast<size_t>(size));
    ASSERT_EQ(kmx_model_save_to_buffer(bytes.data(), size, &size, pair.precomputed), KMX_OK);
    Model loaded;
    ASSERT_EQ(kmx_model_load_from_buffer(loaded.out(), bytes.data(), size), KMX_OK) << kmx_last_error();
    const Rows train = random_rows(90, 3, 3, 11), test = random_rows(40, 3, 3, 12);
    Dataset k_test;
    make_dataset(k_test, precomputed_rows(test, train, kGamma, false), test.n, train.n + 1, nullptr);
    EXPECT_EQ(decision_values(loaded, k_test, test.n), pair.precomputed_values);
}

TEST(PrecomputedKernel, ReadsLibsvmRowsWithSerialNumbers) {
    const char text[] = "1 0:1 1:4 2:0.5\n-1 0:2 1:0.5 2:3\n7 0:? 1:0.25 2:0.125\n";
    Dataset ds;
    ASSERT_EQ(kmx_dataset_parse(ds.out(), nullptr, text, int64_t(sizeof text - 1), KMX_FORMAT_PRECOMPUTED, "k"), KMX_OK)
        << kmx_last_error();
    int64_t rows = 0, cols = 0;
    EXPECT_EQ(kmx_dataset_rows(&rows, ds), KMX_OK);
    EXPECT_EQ(kmx_dataset_cols(&cols, ds), KMX_OK);
    EXPECT_EQ(rows, 3);
    EXPECT_EQ(cols, 3);
    std::vector<double> values(9);
    EXPECT_EQ(kmx_dataset_get_rows(values.data(), 9, ds, 0, 3), KMX_OK);
    EXPECT_EQ(values, (std::vector<double>{1, 4, 0.5, 2, 0.5, 3, 0, 0.25, 0.125}));
    Dataset plain;
    EXPECT_EQ(kmx_dataset_parse(plain.out(), nullptr, text, int64_t(sizeof text - 1), KMX_FORMAT_LIBSVM, "k"),
              KMX_E_FORMAT);
    EXPECT_TRUE(mentions("only for precomputed kernels")) << kmx_last_error();
    const char unknown_value[] = "1 0:1 1:?\n";
    EXPECT_EQ(kmx_dataset_parse(plain.out(), nullptr, unknown_value, int64_t(sizeof unknown_value - 1),
                                KMX_FORMAT_PRECOMPUTED, "k"),
              KMX_E_FORMAT);  // '?' only as a serial number
    EXPECT_TRUE(mentions("value '?' is not a number")) << kmx_last_error();
}

// Trains method `solver` with a precomputed kernel on text rows; the status.
kmx_status train_text(const char *text, const char *solver_params = "method=svm") {
    Dataset ds;
    EXPECT_EQ(kmx_dataset_parse(ds.out(), nullptr, text, int64_t(std::strlen(text)), KMX_FORMAT_PRECOMPUTED, "k"),
              KMX_OK)
        << kmx_last_error();
    Solver solver;
    make_solver(solver, solver_params);
    Kernel pre;
    EXPECT_EQ(kmx_kernel_create(pre.out(), KMX_KERNEL_PRECOMPUTED), KMX_OK);
    Model model;
    return kmx_solver_train(model.out(), nullptr, solver, pre, ds);
}

TEST(PrecomputedKernel, BadMatricesAreRefusedWithTheirReason) {
    const char *square = "1 0:1 1:2 2:1 3:0\n-1 0:2 1:1 2:2 3:1\n1 0:3 1:0 2:1 3:2\n";
    EXPECT_EQ(train_text(square), KMX_OK) << kmx_last_error();
    EXPECT_EQ(train_text("1 0:1 1:2 2:1 3:0\n-1 0:4 1:1 2:2 3:1\n1 0:3 1:0 2:1 3:2\n"), KMX_E_INVALID_ARGUMENT);
    EXPECT_TRUE(mentions("training row 2: precomputed kernel: serial number 4 is not a whole number in 1..3"))
        << kmx_last_error();
    EXPECT_EQ(train_text("1 0:1 1:2 2:1 3:0\n-1 1:1 2:2 3:1\n1 0:3 1:0 2:1 3:2\n"), KMX_E_INVALID_ARGUMENT);
    EXPECT_TRUE(mentions("training row 2 has no serial number (0:i)")) << kmx_last_error();
    EXPECT_EQ(train_text("1 0:1 1:2 2:1 3:0\n-1 0:1.5 1:1 2:2 3:1\n1 0:3 1:0 2:1 3:2\n"), KMX_E_INVALID_ARGUMENT);
    EXPECT_TRUE(mentions("serial number 1.5 is not a whole number")) << kmx_last_error();
    EXPECT_EQ(train_text("1 0:1 1:2 2:1 3:0\n-1 0:1 1:2 2:1 3:0\n1 0:3 1:0 2:1 3:2\n"), KMX_E_INVALID_ARGUMENT);
    EXPECT_TRUE(mentions("training rows 1 and 2 have the same serial number 1")) << kmx_last_error();
    EXPECT_EQ(train_text("1 0:1 1:2 2:1\n-1 0:2 1:1 2:2\n1 0:3 1:0 2:1\n"), KMX_E_INVALID_ARGUMENT);
    EXPECT_TRUE(mentions("3 training rows but 2 columns of kernel values: the training matrix must be square"))
        << kmx_last_error();
    EXPECT_EQ(train_text("1 0:1 1:2 2:1 3:0\n-1 0:2 1:1.5 2:2 3:1\n1 0:3 1:0 2:1 3:2\n"), KMX_E_INVALID_ARGUMENT);
    EXPECT_TRUE(
        mentions("the matrix is not symmetric: training row 1 has 1 in column 2, training row 2 has 1.5 in "
                 "column 1"))
        << kmx_last_error();
    for (const char *method : {"method=dcsvm", "method=bka", "method=krr", "method=falkon", "method=nystrom_tron"}) {
        EXPECT_EQ(train_text(square, method), KMX_E_INVALID_ARGUMENT) << method;
        EXPECT_TRUE(mentions(("method " + std::string(method + 7) + " needs feature vectors").c_str()))
            << kmx_last_error();
    }
}

TEST(PrecomputedKernel, TestRowsMustMatchTheTrainingColumns) {
    Pair pair;
    train_pair(kDualCases[0], pair);
    if (HasFatalFailure()) return;
    // 92 columns: one more kernel value than the 90 training rows have.
    const std::vector<double> wide(size_t(2 * 92), 0.5);
    Dataset ds;
    make_dataset(ds, wide, 2, 92, nullptr);
    std::vector<double> out(2);
    EXPECT_EQ(kmx_model_predict(out.data(), 2, nullptr, pair.precomputed, ds), KMX_E_INVALID_ARGUMENT);
    EXPECT_TRUE(mentions("the data has 92 columns but the model was trained on 91")) << kmx_last_error();
}

TEST(PrecomputedKernel, FeatureMethodsAndApproximationsRefuseIt) {
    Kernel pre;
    ASSERT_EQ(kmx_kernel_create(pre.out(), KMX_KERNEL_PRECOMPUTED), KMX_OK);
    const Rows train = random_rows(20, 2, 2, 3);
    Dataset k;
    make_dataset(k, precomputed_rows(train, train, kGamma, true), train.n, train.n + 1, train.y.data());
    kmx_approx *approx = nullptr;
    EXPECT_EQ(kmx_approx_create(&approx, nullptr, pre, k, "approx=nystrom centers=4"), KMX_E_INVALID_ARGUMENT);
    EXPECT_TRUE(mentions("a kernel approximation (Nystrom, MEKA) needs feature vectors")) << kmx_last_error();
    EXPECT_EQ(approx, nullptr);
    Solver solver;
    make_solver(solver, "method=svm");
    Model model;
    ASSERT_EQ(kmx_solver_train(model.out(), nullptr, solver, pre, k), KMX_OK) << kmx_last_error();
    kmx_predictor *predictor = nullptr;
    EXPECT_EQ(kmx_predictor_build(&predictor, nullptr, model, k, ""), KMX_E_INVALID_ARGUMENT);
    EXPECT_TRUE(mentions("a compact predictor (DC-Pred++) needs feature vectors")) << kmx_last_error();
}

TEST(PrecomputedKernel, CrossValidationFoldsKeepTheirKernelValues) {
    // Each fold trains on a subset of the rows: their serial numbers still
    // name their columns, so the folds' predictions are the Gaussian's.
    const Rows train = random_rows(60, 3, 2, 5);
    Kernel rbf, pre;
    ASSERT_EQ(kmx_kernel_create_from_string(rbf.out(), "kernel=rbf gamma=0.4"), KMX_OK);
    ASSERT_EQ(kmx_kernel_create(pre.out(), KMX_KERNEL_PRECOMPUTED), KMX_OK);
    Dataset x, k;
    make_dataset(x, train.x, train.n, train.d, train.y.data());
    make_dataset(k, precomputed_rows(train, train, kGamma, true), train.n, train.n + 1, train.y.data());
    Solver solver;
    make_solver(solver, "method=svm C=4");
    std::vector<double> by_features(60), by_matrix(60);
    ASSERT_EQ(kmx_solver_cross_validate(by_features.data(), 60, nullptr, nullptr, solver, rbf, x, 5), KMX_OK);
    ASSERT_EQ(kmx_solver_cross_validate(by_matrix.data(), 60, nullptr, nullptr, solver, pre, k, 5), KMX_OK)
        << kmx_last_error();
    EXPECT_EQ(by_matrix, by_features);
}

}  // namespace
