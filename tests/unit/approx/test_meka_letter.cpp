// MEKA on the whole Letter training set (slow suite): at equal memory its
// relative error beats uniform Nyström's where the Gaussian kernel is close
// to block diagonal (γ = 16), and KRR on it classifies the test set better.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "approx/approximation.h"
#include "core/context.h"
#include "core/dataset.h"
#include "io/text_reader.h"
#include "krr/krr.h"

namespace {

std::unique_ptr<kmx::Dataset> letter(const char *file) {
    const char *dir = std::getenv("KMX_EXAMPLE_DATA");
    if (!dir) ADD_FAILURE() << "KMX_EXAMPLE_DATA is not set: run the tests through `meson test`";
    kmx::Context ctx;
    const std::string path = std::string(dir ? dir : ".") + "/" + file;
    return kmx::read_dataset_file(ctx, path.c_str(), KMX_FORMAT_LIBSVM)->to_dense();
}

// The largest Nyström rank m whose features, landmarks and basis fit `bytes`.
int64_t equal_memory_rank(int64_t n, int64_t d, size_t bytes) {
    int64_t m = 1;
    while (size_t(8 * ((m + 1) * (n + d + m + 2))) <= bytes) ++m;
    return m;
}

double accuracy(kmx::Context &ctx, const kmx::CenterExpansion &e, const kmx::Dataset &test) {
    std::vector<double> out(static_cast<size_t>(test.n));
    kmx::center_expansion_predict(ctx, e, test, out.data());
    int64_t right = 0;
    for (int64_t i = 0; i < test.n; ++i) right += (out[size_t(i)] > 0) == (test.y[i] > 0);
    return double(right) / double(test.n);
}

TEST(MekaLetter, BeatsNystromAtEqualMemory) {
    const auto train = letter("letter_bin.train.libsvm"), test = letter("letter_bin.test.libsvm");
    ASSERT_EQ(train->n, 12000);
    kmx::KernelSpec k;
    k.type = KMX_KERNEL_RBF;
    k.gamma = 16;
    kmx::Context ctx;
    kmx::ApproxOptions meka_options;
    meka_options.method = kmx::ApproxMethod::meka;
    meka_options.clusters = 10;
    meka_options.rank = 64;
    const auto meka = kmx::make_approximation(ctx, k, *train, meka_options);
    kmx::ApproxOptions nystrom_options;
    nystrom_options.method = kmx::ApproxMethod::nystrom;
    nystrom_options.rank = equal_memory_rank(train->n, train->d, meka->bytes());
    const auto nystrom = kmx::make_approximation(ctx, k, *train, nystrom_options);
    EXPECT_LE(nystrom->bytes(), meka->bytes());
    const double meka_error = meka->relative_error(ctx, *train, 1000);
    const double nystrom_error = nystrom->relative_error(ctx, *train, 1000);
    std::printf("relative error: MEKA %.4f (%zu bytes), Nystrom m=%lld %.4f (%zu bytes)\n", meka_error, meka->bytes(),
                (long long)nystrom->rank(), nystrom_error, nystrom->bytes());
    EXPECT_LT(meka_error, 0.7 * nystrom_error);

    const kmx::KrrTargets targets = kmx::krr_targets(train->y, train->n, kmx::KrrTask::classification);
    kmx::KrrOptions krr;
    krr.lambda = 1e-6;
    const double meka_accuracy = accuracy(ctx, kmx::fit_krr_approx(ctx, *meka, targets, krr).expansion, *test);
    const double nystrom_accuracy = accuracy(ctx, kmx::fit_krr_approx(ctx, *nystrom, targets, krr).expansion, *test);
    std::printf("KRR test accuracy: MEKA %.4f, Nystrom %.4f\n", meka_accuracy, nystrom_accuracy);
    EXPECT_GT(meka_accuracy, nystrom_accuracy);
    EXPECT_GT(meka_accuracy, 0.85);
}

}  // namespace
