// train(): the one entry point picks the family from the method, and gives
// the same model as calling that family's trainer directly.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "core/context.h"
#include "core/dataset.h"
#include "core/error.h"
#include "krr/train_krr.h"
#include "nystrom_tron/nystrom_tron.h"
#include "svm/multiclass.h"
#include "train/train.h"

namespace {

// Two Gaussian blobs in 3 dimensions, labels -1 and +1.
std::unique_ptr<kmx::Dataset> two_blobs(int64_t n) {
    std::mt19937 rng(3);
    std::normal_distribution<double> noise(0.0, 0.6);
    std::vector<double> x(static_cast<size_t>(n * 3)), y(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
        y[size_t(i)] = i % 2 ? 1.0 : -1.0;
        for (int k = 0; k < 3; ++k) x[size_t(i * 3 + k)] = y[size_t(i)] + noise(rng);
    }
    return kmx::Dataset::dense_copy(x.data(), n, 3, y.data());
}

void expect_same_model(const kmx::Model &a, const kmx::Model &b) {
    EXPECT_EQ(a.method, b.method);
    EXPECT_EQ(a.points, b.points);
    ASSERT_EQ(a.machines.size(), b.machines.size());
    for (size_t k = 0; k < a.machines.size(); ++k) {
        EXPECT_EQ(a.machines[k].coef, b.machines[k].coef);
        EXPECT_EQ(a.machines[k].bias, b.machines[k].bias);
    }
}

kmx::Model train_with(kmx_method method, const kmx::Dataset &data, bool direct) {
    kmx::Context ctx;
    kmx::TrainOptions options;
    options.method = method;
    kmx::KernelSpec kernel;
    kernel.gamma = 0.5;
    if (!direct) return kmx::train(ctx, options, kernel, data);
    if (method == KMX_METHOD_NYSTROM_TRON) return kmx::train_nystrom_tron_model(ctx, options, kernel, data);
    return method >= KMX_METHOD_KRR ? kmx::train_krr_model(ctx, options, kernel, data)
                                    : kmx::train_svm_model(ctx, options, kernel, data);
}

}  // namespace

TEST(Train, EachMethodGoesToItsFamily) {
    const auto data = two_blobs(120);
    for (kmx_method method :
         {KMX_METHOD_SVM, KMX_METHOD_DCSVM, KMX_METHOD_KRR, KMX_METHOD_FALKON, KMX_METHOD_NYSTROM_TRON}) {
        const kmx::Model model = train_with(method, *data, false);
        EXPECT_EQ(model.method, method);
        EXPECT_EQ(model.krr(), method >= KMX_METHOD_KRR);
        expect_same_model(model, train_with(method, *data, true));
    }
}

// The KRR methods would ignore sample weights: weights other than 1 are
// refused by name; all-ones weights change nothing and are accepted.
TEST(Train, KrrMethodsRefuseSampleWeightsTheyWouldIgnore) {
    auto data = two_blobs(60);
    std::vector<double> weights(60, 1.0);
    data->set_weights(weights.data());
    const kmx::Model unweighted = train_with(KMX_METHOD_KRR, *two_blobs(60), false);
    expect_same_model(train_with(KMX_METHOD_KRR, *data, false), unweighted);
    weights[7] = 2.5;
    data->set_weights(weights.data());
    for (kmx_method method : {KMX_METHOD_KRR, KMX_METHOD_NYSTROM_KRR, KMX_METHOD_MEKA_KRR, KMX_METHOD_FALKON}) {
        try {
            train_with(method, *data, false);
            ADD_FAILURE() << "method " << int(method) << " trained with weights it ignores";
        } catch (const kmx::Error &e) {
            EXPECT_EQ(e.status(), KMX_E_INVALID_ARGUMENT);
            EXPECT_NE(
                std::string(e.what()).find("does not use sample weights, and the data has them (weight[7] = 2.5)"),
                std::string::npos)
                << e.what();
        }
    }
    EXPECT_NO_THROW(train_with(KMX_METHOD_SVM, *data, false));  // the SVMs weigh C by them
}
