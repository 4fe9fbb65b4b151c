// test_callback_kernel_capi.cpp — the kernel as the caller's function
// (kmx_kernel_create_callback) through the C ABI: a callback computing the
// Gaussian by its formula trains the model kernel=rbf trains (svm,
// multiclass, svr, one_class) on one thread and on two (where it is called
// from both at once); a failing callback stops training with its status and
// message; its model cannot be saved; feature methods refuse it.
#include <atomic>
#include <mutex>
#include <set>
#include <thread>

#include "user_kernel_support.h"

namespace {

using namespace user_kernels;

// What the Gaussian callback reads and counts.
struct GaussianData {
    double gamma = 0.4;
    std::atomic<int64_t> calls{0};
    int64_t fail_after = -1;  // the call (0-based) that fails; −1: none
    kmx_status failure = KMX_E_INVALID_ARGUMENT;
    bool nan = false;  // fill NaN instead of failing
};

kmx_status gaussian_callback(void *user, double *out, const double *a, int64_t na, const double *b, int64_t nb,
                             int64_t d, char *message, int64_t message_len) {
    GaussianData &data = *static_cast<GaussianData *>(user);
    const int64_t call = data.calls++;
    if (call == data.fail_after && !data.nan) {
        std::snprintf(message, size_t(message_len), "no kernel on call %lld", (long long)call);
        return data.failure;
    }
    for (int64_t i = 0; i < na; ++i)
        for (int64_t j = 0; j < nb; ++j)
            out[i * nb + j] = call == data.fail_after ? NAN : gaussian(data.gamma, a + i * d, b + j * d, d);
    return KMX_OK;
}

// The rbf model and the callback's model of one case; decision values on fresh rows.
struct Pair {
    Model rbf, callback;
    std::vector<double> rbf_values, callback_values;
};

void train_pair(const DualCase &c, int threads, GaussianData &data, Pair &pair) {
    const Rows train = random_rows(90, 3, c.classes, 21), test = random_rows(40, 3, c.classes, 22);
    Solver solver;
    make_solver(solver, c.solver);
    Kernel rbf, callback;
    ASSERT_EQ(kmx_kernel_create_from_string(rbf.out(), "kernel=rbf gamma=0.4"), KMX_OK);
    ASSERT_EQ(kmx_kernel_create_callback(callback.out(), gaussian_callback, &data), KMX_OK) << kmx_last_error();
    Dataset x, x_test;
    make_dataset(x, train.x, train.n, train.d, train.y.data());
    make_dataset(x_test, test.x, test.n, test.d, nullptr);
    Context ctx;
    ASSERT_EQ(kmx_context_create(ctx.out()), KMX_OK);
    ASSERT_EQ(kmx_context_set_param(ctx, KMX_PARAM_THREADS, threads), KMX_OK);
    ASSERT_EQ(kmx_solver_train(pair.rbf.out(), ctx, solver, rbf, x), KMX_OK) << kmx_last_error();
    ASSERT_EQ(kmx_solver_train(pair.callback.out(), ctx, solver, callback, x), KMX_OK) << kmx_last_error();
    pair.rbf_values = decision_values(pair.rbf, x_test, test.n);
    pair.callback_values = decision_values(pair.callback, x_test, test.n);
}

TEST(CallbackKernel, GaussianCallbackTrainsTheRbfModel) {
    for (int threads : {1, 2})
        for (const DualCase &c : kDualCases) {
            SCOPED_TRACE(std::string(c.solver) + " threads " + std::to_string(threads));
            GaussianData data;
            Pair pair;
            train_pair(c, threads, data, pair);
            if (HasFatalFailure()) return;
            EXPECT_GT(data.calls.load(), 0);
            const double objective = info(pair.rbf, KMX_INFO_OBJECTIVE);
            EXPECT_NEAR(info(pair.callback, KMX_INFO_OBJECTIVE), objective, 1e-9 * std::fabs(objective));
            EXPECT_EQ(info(pair.callback, KMX_INFO_SUPPORT_VECTORS), info(pair.rbf, KMX_INFO_SUPPORT_VECTORS));
            EXPECT_LT(max_difference(pair.callback_values, pair.rbf_values), 1e-9);
            EXPECT_EQ(info(pair.callback, KMX_INFO_KERNEL), KMX_KERNEL_CALLBACK);
        }
}

// Trains method svm with the Gaussian callback of `data`; the status.
kmx_status train_with(GaussianData &data, const char *solver_params = "method=svm") {
    const Rows train = random_rows(60, 2, 2, 31);
    Solver solver;
    make_solver(solver, solver_params);
    Kernel callback;
    EXPECT_EQ(kmx_kernel_create_callback(callback.out(), gaussian_callback, &data), KMX_OK);
    Dataset x;
    make_dataset(x, train.x, train.n, train.d, train.y.data());
    Model model;
    return kmx_solver_train(model.out(), nullptr, solver, callback, x);
}

TEST(CallbackKernel, AFailingCallbackStopsTrainingWithItsMessage) {
    GaussianData first;
    first.fail_after = 0;
    EXPECT_EQ(train_with(first), KMX_E_INVALID_ARGUMENT);
    EXPECT_TRUE(mentions("kernel callback failed (status 1): no kernel on call 0")) << kmx_last_error();
    GaussianData later;  // mid-training, with the callback's own status
    later.fail_after = 5;
    later.failure = KMX_E_IO;
    EXPECT_EQ(train_with(later), KMX_E_IO);
    EXPECT_TRUE(mentions("no kernel on call 5")) << kmx_last_error();
    EXPECT_EQ(later.calls.load(), 6);  // nothing called after the failure
    GaussianData foreign;              // not a kmx_status
    foreign.fail_after = 2;
    foreign.failure = kmx_status(4242);
    EXPECT_EQ(train_with(foreign), KMX_E_INVALID_ARGUMENT);
    EXPECT_TRUE(mentions("kernel callback failed (status 4242)")) << kmx_last_error();
    GaussianData nan;
    nan.fail_after = 1;
    nan.nan = true;
    EXPECT_EQ(train_with(nan), KMX_E_INVALID_ARGUMENT);
    EXPECT_TRUE(mentions("kernel callback gave a non-finite value nan")) << kmx_last_error();
}

TEST(CallbackKernel, ItsModelCannotBeSaved) {
    GaussianData data;
    Pair pair;
    train_pair(kDualCases[0], 1, data, pair);
    if (HasFatalFailure()) return;
    int64_t size = -1;
    EXPECT_EQ(kmx_model_save_to_buffer(nullptr, 0, &size, pair.callback), KMX_E_UNSUPPORTED);
    EXPECT_TRUE(mentions("a model trained with a callback kernel cannot be saved")) << kmx_last_error();
    const std::string path = testing::TempDir() + "callback_model_never_written.kmx";
    EXPECT_EQ(kmx_model_save(pair.callback, path.c_str()), KMX_E_UNSUPPORTED);
    EXPECT_TRUE(mentions("cannot be saved")) << kmx_last_error();
    std::FILE *file = std::fopen(path.c_str(), "rb");
    EXPECT_EQ(file, nullptr);  // nothing written
    if (file) std::fclose(file);
}

TEST(CallbackKernel, FeatureMethodsRefuseItAndANullFunctionIsAnError) {
    for (const char *method : {"method=dcsvm", "method=krr", "method=falkon"}) {
        GaussianData data;
        EXPECT_EQ(train_with(data, method), KMX_E_INVALID_ARGUMENT) << method;
        EXPECT_TRUE(mentions("needs feature vectors, which a callback kernel does not give")) << kmx_last_error();
    }
    kmx_kernel *kernel = nullptr;
    EXPECT_EQ(kmx_kernel_create_callback(&kernel, nullptr, nullptr), KMX_E_INVALID_ARGUMENT);
    EXPECT_TRUE(mentions("fn is NULL")) << kmx_last_error();
    EXPECT_EQ(kernel, nullptr);
    EXPECT_EQ(kmx_kernel_create(&kernel, KMX_KERNEL_CALLBACK), KMX_E_INVALID_ARGUMENT);  // only with a function
    EXPECT_TRUE(mentions("parameter kernel = 6 is out of range")) << kmx_last_error();
}

// The threads that called it, how many were inside it at once; the Gaussian otherwise.
struct Callers {
    GaussianData gaussian;
    std::mutex mutex;
    std::set<std::thread::id> threads;
    std::atomic<int> inside{0}, most{0};
};

kmx_status counting_callback(void *user, double *out, const double *a, int64_t na, const double *b, int64_t nb,
                             int64_t d, char *message, int64_t message_len) {
    Callers &callers = *static_cast<Callers *>(user);
    {
        const std::lock_guard<std::mutex> lock(callers.mutex);
        callers.threads.insert(std::this_thread::get_id());
    }
    const int now = ++callers.inside;
    for (int seen = callers.most.load(); now > seen && !callers.most.compare_exchange_weak(seen, now);) {
    }
    const kmx_status status = gaussian_callback(&callers.gaussian, out, a, na, b, nb, d, message, message_len);
    --callers.inside;
    return status;
}

TEST(CallbackKernel, FoldsOnTwoThreadsCallItFromBothAndAgreeWithRbf) {
    // Cross-validation trains its folds at once on the context's threads:
    // the callback is called from both (at the same moment too, on larger
    // data: 2 callers inside at once with 1000 rows), so it must be thread-safe.
    const Rows train = random_rows(200, 3, 2, 51);
    Callers callers;
    Kernel rbf, callback;
    ASSERT_EQ(kmx_kernel_create_from_string(rbf.out(), "kernel=rbf gamma=0.4"), KMX_OK);
    ASSERT_EQ(kmx_kernel_create_callback(callback.out(), counting_callback, &callers), KMX_OK);
    Dataset x;
    make_dataset(x, train.x, train.n, train.d, train.y.data());
    Solver solver;
    make_solver(solver, "method=svm C=4");
    Context ctx;
    ASSERT_EQ(kmx_context_create(ctx.out()), KMX_OK);
    ASSERT_EQ(kmx_context_set_params(ctx, "threads=2 seed=3"), KMX_OK);
    std::vector<double> by_rbf(200), by_callback(200);
    ASSERT_EQ(kmx_solver_cross_validate(by_rbf.data(), 200, nullptr, ctx, solver, rbf, x, 4), KMX_OK);
    ASSERT_EQ(kmx_solver_cross_validate(by_callback.data(), 200, nullptr, ctx, solver, callback, x, 4), KMX_OK)
        << kmx_last_error();
    EXPECT_EQ(by_callback, by_rbf);
    EXPECT_EQ(callers.threads.size(), 2u);
    std::printf("callers inside at once: at most %d\n", callers.most.load());
}

TEST(CallbackKernel, KernelBlockAndEvalCallIt) {
    GaussianData data;
    Kernel callback;
    ASSERT_EQ(kmx_kernel_create_callback(callback.out(), gaussian_callback, &data), KMX_OK);
    const Rows rows = random_rows(7, 4, 2, 41);
    std::vector<double> block(49);
    ASSERT_EQ(kmx_kernel_block(block.data(), 49, nullptr, callback, rows.x.data(), 7, rows.x.data(), 7, 4), KMX_OK);
    double one = 0;
    ASSERT_EQ(kmx_kernel_eval(&one, callback, &rows.x[4], &rows.x[8], 4), KMX_OK);
    EXPECT_DOUBLE_EQ(one, gaussian(0.4, &rows.x[4], &rows.x[8], 4));
    EXPECT_DOUBLE_EQ(block[1 * 7 + 2], one);
    double type = -1;
    EXPECT_EQ(kmx_kernel_get_param(&type, callback, KMX_PARAM_KERNEL), KMX_OK);
    EXPECT_EQ(type, KMX_KERNEL_CALLBACK);
}

}  // namespace
