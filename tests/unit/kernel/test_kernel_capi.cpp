// test_kernel_capi.cpp — kmx_kernel_* through the public C ABI (links the
// shared library): parameters, values, blocks, and every kind of bad input.
#include <gtest/gtest.h>
#include <kmx/kmx.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace {

bool mentions(const char *text) { return std::strstr(kmx_last_error(), text) != nullptr; }

// A kernel handle freed at scope exit.
struct Kernel {
    kmx_kernel *k = nullptr;
    Kernel() = default;
    explicit Kernel(kmx_kernel_type type) { EXPECT_EQ(kmx_kernel_create(&k, type), KMX_OK) << kmx_last_error(); }
    explicit Kernel(const char *params) {
        EXPECT_EQ(kmx_kernel_create_from_string(&k, params), KMX_OK) << kmx_last_error();
    }
    ~Kernel() { kmx_kernel_free(k); }
    Kernel(const Kernel &) = delete;
    Kernel &operator=(const Kernel &) = delete;
    double get(kmx_param param) const {
        double v = std::numeric_limits<double>::quiet_NaN();
        EXPECT_EQ(kmx_kernel_get_param(&v, k, param), KMX_OK) << kmx_last_error();
        return v;
    }
};

struct Context {
    kmx_context *ctx = nullptr;
    Context() { EXPECT_EQ(kmx_context_create(&ctx), KMX_OK); }
    ~Context() { kmx_context_free(ctx); }
    Context(const Context &) = delete;
    Context &operator=(const Context &) = delete;
};

struct Dataset {
    kmx_dataset *ds = nullptr;
    Dataset(const std::vector<double> &x, int64_t n, int64_t d) {
        EXPECT_EQ(kmx_dataset_create(&ds, x.data(), n, d, nullptr, KMX_COPY), KMX_OK) << kmx_last_error();
    }
    ~Dataset() { kmx_dataset_free(ds); }
    Dataset(const Dataset &) = delete;
    Dataset &operator=(const Dataset &) = delete;
};

std::vector<double> random_values(size_t count, uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> uniform(-1, 1);
    std::vector<double> v(count);
    for (double &x : v) x = uniform(rng);
    return v;
}

TEST(KernelCapi, DefaultsAndParameters) {
    Kernel rbf(KMX_KERNEL_RBF);
    EXPECT_EQ(rbf.get(KMX_PARAM_KERNEL), KMX_KERNEL_RBF);
    EXPECT_EQ(rbf.get(KMX_PARAM_GAMMA), 0.0);  // auto: 1/d
    EXPECT_EQ(rbf.get(KMX_PARAM_COEF0), 0.0);
    EXPECT_EQ(rbf.get(KMX_PARAM_DEGREE), 3.0);
    EXPECT_EQ(kmx_kernel_set_param(rbf.k, KMX_PARAM_GAMMA, 0.25), KMX_OK);
    EXPECT_EQ(rbf.get(KMX_PARAM_GAMMA), 0.25);
    EXPECT_EQ(kmx_kernel_set_params(rbf.k, "kernel=poly degree=2 coef0=-1.5"), KMX_OK) << kmx_last_error();
    EXPECT_EQ(rbf.get(KMX_PARAM_KERNEL), KMX_KERNEL_POLYNOMIAL);
    EXPECT_EQ(rbf.get(KMX_PARAM_DEGREE), 2.0);
    EXPECT_EQ(rbf.get(KMX_PARAM_COEF0), -1.5);
    EXPECT_EQ(rbf.get(KMX_PARAM_GAMMA), 0.25);

    Kernel parsed("kernel=laplacian gamma=0.5");
    EXPECT_EQ(parsed.get(KMX_PARAM_KERNEL), KMX_KERNEL_LAPLACIAN);
    EXPECT_EQ(parsed.get(KMX_PARAM_GAMMA), 0.5);
    Kernel fallback("gamma=2");
    EXPECT_EQ(fallback.get(KMX_PARAM_KERNEL), KMX_KERNEL_RBF);
    Kernel empty("");
    EXPECT_EQ(empty.get(KMX_PARAM_KERNEL), KMX_KERNEL_RBF);
}

TEST(KernelCapi, EvalMatchesFormulas) {
    const double a[] = {1.0, -2.0, 0.5}, b[] = {0.0, 1.0, 2.0};
    const double dot = -2.0 + 1.0, sq = 1 + 9 + 2.25, l1 = 1 + 3 + 1.5;
    struct Case {
        const char *params;
        double want;
    } cases[] = {
        {"kernel=rbf", std::exp(-sq / 3)},
        {"kernel=rbf gamma=0.2", std::exp(-0.2 * sq)},
        {"kernel=laplacian gamma=0.3", std::exp(-0.3 * l1)},
        {"kernel=polynomial gamma=0.5 coef0=2 degree=3", std::pow(0.5 * dot + 2, 3)},
        {"kernel=linear", dot},
        {"kernel=sigmoid gamma=0.4 coef0=-0.1", std::tanh(0.4 * dot - 0.1)},
    };
    for (const Case &c : cases) {
        Kernel k(c.params);
        double got = 0;
        ASSERT_EQ(kmx_kernel_eval(&got, k.k, a, b, 3), KMX_OK) << kmx_last_error();
        EXPECT_NEAR(got, c.want, 1e-13 * std::fabs(c.want)) << c.params;
    }
}

TEST(KernelCapi, BlockAndBlockRowsMatchEval) {
    const int64_t na = 37, nb = 23, d = 11;
    const std::vector<double> a = random_values(size_t(na * d), 1), b = random_values(size_t(nb * d), 2);
    Dataset da(a, na, d), db(b, nb, d);
    Context ctx;
    ASSERT_EQ(kmx_context_set_param(ctx.ctx, KMX_PARAM_THREADS, 2), KMX_OK);
    for (const char *params : {"kernel=rbf", "kernel=laplacian gamma=0.4", "kernel=poly degree=4 coef0=1",
                               "kernel=linear", "kernel=sigmoid gamma=0.1"}) {
        Kernel k(params);
        std::vector<double> block(size_t(na * nb)), rows(size_t(6 * 10));
        ASSERT_EQ(kmx_kernel_block(block.data(), int64_t(block.size()), ctx.ctx, k.k, a.data(), na, b.data(), nb, d),
                  KMX_OK)
            << kmx_last_error();
        ASSERT_EQ(kmx_kernel_block_rows(rows.data(), int64_t(rows.size()), nullptr, k.k, da.ds, 4, 10, db.ds, 13, 23),
                  KMX_OK)
            << kmx_last_error();
        for (int64_t i = 0; i < na; ++i)
            for (int64_t j = 0; j < nb; ++j) {
                double want = 0;
                ASSERT_EQ(kmx_kernel_eval(&want, k.k, a.data() + i * d, b.data() + j * d, d), KMX_OK);
                const double tol = 1e-12 * (1 + std::fabs(want));
                EXPECT_NEAR(block[size_t(i * nb + j)], want, tol) << params << " (" << i << "," << j << ")";
                if (i >= 4 && i < 10 && j >= 13) {
                    EXPECT_NEAR(rows[size_t((i - 4) * 10 + j - 13)], want, tol) << params;
                }
            }
    }
}

TEST(KernelCapi, BadGammaDegreeNameAndKey) {
    Kernel k(KMX_KERNEL_RBF);
    for (double gamma : {-1.0, 0.0, std::numeric_limits<double>::infinity()}) {
        EXPECT_EQ(kmx_kernel_set_param(k.k, KMX_PARAM_GAMMA, gamma), KMX_E_INVALID_ARGUMENT);
        EXPECT_TRUE(mentions("gamma")) << kmx_last_error();
        EXPECT_TRUE(mentions("(0, inf)")) << kmx_last_error();
    }
    EXPECT_EQ(k.get(KMX_PARAM_GAMMA), 0.0);
    for (double degree : {0.0, -2.0, 2.5}) {
        EXPECT_EQ(kmx_kernel_set_param(k.k, KMX_PARAM_DEGREE, degree), KMX_E_INVALID_ARGUMENT);
        EXPECT_TRUE(mentions("degree")) << kmx_last_error();
    }
    int sentinel = 0;  // `made` points here until a failing call sets it to NULL
    kmx_kernel *made = reinterpret_cast<kmx_kernel *>(&sentinel);
    EXPECT_EQ(kmx_kernel_create_from_string(&made, "kernel=rbf gamma=-3"), KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(made, nullptr);
    EXPECT_TRUE(mentions("gamma")) << kmx_last_error();
    EXPECT_EQ(kmx_kernel_create_from_string(&made, "kernel=poly degree=0"), KMX_E_INVALID_ARGUMENT);
    EXPECT_TRUE(mentions("degree")) << kmx_last_error();
    EXPECT_EQ(kmx_kernel_create_from_string(&made, "kernel=cubic"), KMX_E_INVALID_ARGUMENT);
    EXPECT_TRUE(mentions("cubic")) << kmx_last_error();
    EXPECT_EQ(kmx_kernel_create_from_string(&made, "gama=1"), KMX_E_INVALID_ARGUMENT);
    EXPECT_TRUE(mentions("gama")) << kmx_last_error();
    EXPECT_EQ(kmx_kernel_create(&made, kmx_kernel_type(9)), KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(made, nullptr);
    // A failing string changes nothing.
    EXPECT_EQ(kmx_kernel_set_params(k.k, "gamma=2 degree=0"), KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(k.get(KMX_PARAM_GAMMA), 0.0);
    // Parameters of other objects.
    EXPECT_EQ(kmx_kernel_set_param(k.k, KMX_PARAM_THREADS, 2), KMX_E_INVALID_ARGUMENT);
    EXPECT_TRUE(mentions("threads")) << kmx_last_error();
    EXPECT_EQ(kmx_kernel_set_params(k.k, "seed=3"), KMX_E_INVALID_ARGUMENT);
}

TEST(KernelCapi, NullPointers) {
    Kernel k(KMX_KERNEL_RBF);
    const double a[2] = {1, 2};
    double out = 0, out4[4];
    EXPECT_EQ(kmx_kernel_create(nullptr, KMX_KERNEL_RBF), KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(kmx_kernel_create_from_string(nullptr, "gamma=1"), KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(kmx_kernel_set_param(nullptr, KMX_PARAM_GAMMA, 1), KMX_E_INVALID_ARGUMENT);
    EXPECT_TRUE(mentions("kernel")) << kmx_last_error();
    EXPECT_EQ(kmx_kernel_get_param(nullptr, k.k, KMX_PARAM_GAMMA), KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(kmx_kernel_set_params(nullptr, "gamma=1"), KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(kmx_kernel_eval(nullptr, k.k, a, a, 2), KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(kmx_kernel_eval(&out, nullptr, a, a, 2), KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(kmx_kernel_eval(&out, k.k, nullptr, a, 2), KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(kmx_kernel_eval(&out, k.k, a, nullptr, 2), KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(kmx_kernel_block(nullptr, 4, nullptr, k.k, a, 1, a, 1, 2), KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(kmx_kernel_block(out4, 4, nullptr, nullptr, a, 1, a, 1, 2), KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(kmx_kernel_block(out4, 4, nullptr, k.k, nullptr, 1, a, 1, 2), KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(kmx_kernel_block(out4, 4, nullptr, k.k, a, 1, nullptr, 1, 2), KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(kmx_kernel_block_rows(out4, 4, nullptr, k.k, nullptr, 0, 1, nullptr, 0, 1), KMX_E_INVALID_ARGUMENT);
    kmx_kernel_free(nullptr);  // NULL-safe
}

TEST(KernelCapi, BadSizesAndShortOutput) {
    Kernel k(KMX_KERNEL_RBF);
    const std::vector<double> a = random_values(12, 3);
    std::vector<double> out(16);
    double one = 0;
    EXPECT_EQ(kmx_kernel_eval(&one, k.k, a.data(), a.data(), 0), KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(kmx_kernel_eval(&one, k.k, a.data(), a.data(), -3), KMX_E_INVALID_ARGUMENT);
    for (int64_t na : {0, -1}) {
        EXPECT_EQ(kmx_kernel_block(out.data(), 16, nullptr, k.k, a.data(), na, a.data(), 2, 3), KMX_E_INVALID_ARGUMENT);
        EXPECT_EQ(kmx_kernel_block(out.data(), 16, nullptr, k.k, a.data(), 2, a.data(), na, 3), KMX_E_INVALID_ARGUMENT);
        EXPECT_EQ(kmx_kernel_block(out.data(), 16, nullptr, k.k, a.data(), 2, a.data(), 2, na), KMX_E_INVALID_ARGUMENT);
    }
    EXPECT_EQ(kmx_kernel_block(out.data(), 11, nullptr, k.k, a.data(), 4, a.data(), 3, 1), KMX_E_INVALID_ARGUMENT);
    EXPECT_TRUE(mentions("out")) << kmx_last_error();
    EXPECT_EQ(kmx_kernel_block(out.data(), 12, nullptr, k.k, a.data(), 4, a.data(), 3, 1), KMX_OK);
}

TEST(KernelCapi, NonFiniteInputNamesTheElement) {
    Kernel k(KMX_KERNEL_RBF);
    std::vector<double> a = random_values(6, 4), b = random_values(6, 5);
    std::vector<double> out(9);
    a[5] = std::numeric_limits<double>::quiet_NaN();  // a[1,2] with d = 3
    EXPECT_EQ(kmx_kernel_block(out.data(), 9, nullptr, k.k, a.data(), 2, b.data(), 2, 3), KMX_E_INVALID_ARGUMENT);
    EXPECT_TRUE(mentions("a[1,2]") && mentions("NaN")) << kmx_last_error();
    a[5] = 0;
    b[3] = -std::numeric_limits<double>::infinity();  // b[1,0]
    EXPECT_EQ(kmx_kernel_block(out.data(), 9, nullptr, k.k, a.data(), 2, b.data(), 2, 3), KMX_E_INVALID_ARGUMENT);
    EXPECT_TRUE(mentions("b[1,0]") && mentions("infinite")) << kmx_last_error();
    double one = 0;
    EXPECT_EQ(kmx_kernel_eval(&one, k.k, a.data(), b.data() + 3, 3), KMX_E_INVALID_ARGUMENT);
    EXPECT_TRUE(mentions("b[0,0]")) << kmx_last_error();
}

TEST(KernelCapi, BlockRowsRejectsMismatchedDatasetsAndRanges) {
    Kernel k(KMX_KERNEL_RBF);
    const std::vector<double> x = random_values(12, 6);
    Dataset three(x, 4, 3), four(x, 3, 4);
    std::vector<double> out(16);
    EXPECT_EQ(kmx_kernel_block_rows(out.data(), 16, nullptr, k.k, three.ds, 0, 2, four.ds, 0, 2),
              KMX_E_INVALID_ARGUMENT);
    EXPECT_TRUE(mentions("3") && mentions("4") && mentions("columns")) << kmx_last_error();
    EXPECT_EQ(kmx_kernel_block_rows(out.data(), 16, nullptr, k.k, three.ds, 0, 5, three.ds, 0, 2),
              KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(kmx_kernel_block_rows(out.data(), 16, nullptr, k.k, three.ds, 2, 2, three.ds, 0, 2),
              KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(kmx_kernel_block_rows(out.data(), 3, nullptr, k.k, three.ds, 0, 2, three.ds, 0, 2),
              KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(kmx_kernel_block_rows(out.data(), 4, nullptr, k.k, three.ds, 0, 2, three.ds, 0, 2), KMX_OK);
}

TEST(KernelCapi, MemoryBudgetTooSmall) {
    Kernel k(KMX_KERNEL_RBF);
    Context ctx;
    ASSERT_EQ(kmx_context_set_param(ctx.ctx, KMX_PARAM_MEMORY_BUDGET, 65536), KMX_OK);
    // The Gaussian needs ‖a_i‖² for 9000 rows: 72 KB of workspace.
    const int64_t na = 9000, nb = 2, d = 2;
    const std::vector<double> a = random_values(size_t(na * d), 7);
    std::vector<double> out(size_t(na * nb));
    EXPECT_EQ(kmx_kernel_block(out.data(), na * nb, ctx.ctx, k.k, a.data(), na, a.data(), nb, d), KMX_E_OUT_OF_MEMORY);
    EXPECT_TRUE(mentions("kernel block needs ") && mentions(" KB but") && mentions("memory_budget = 64.0 KB") &&
                mentions("allows"))
        << kmx_last_error();
    // A block that fits runs with the same context.
    EXPECT_EQ(kmx_kernel_block(out.data(), na * nb, ctx.ctx, k.k, a.data(), 100, a.data(), nb, d), KMX_OK)
        << kmx_last_error();
    // The linear kernel needs no workspace at all.
    Kernel linear(KMX_KERNEL_LINEAR);
    EXPECT_EQ(kmx_kernel_block(out.data(), na * nb, ctx.ctx, linear.k, a.data(), na, a.data(), nb, d), KMX_OK)
        << kmx_last_error();
}

TEST(KernelCapi, SameThreadsGiveSameBits) {
    const int64_t na = 300, nb = 257, d = 20;
    const std::vector<double> a = random_values(size_t(na * d), 8), b = random_values(size_t(nb * d), 9);
    Kernel k(KMX_KERNEL_RBF);
    Context one, two;
    ASSERT_EQ(kmx_context_set_param(two.ctx, KMX_PARAM_THREADS, 2), KMX_OK);
    std::vector<double> out1(size_t(na * nb)), out2(size_t(na * nb)), again(size_t(na * nb));
    ASSERT_EQ(kmx_kernel_block(out1.data(), na * nb, one.ctx, k.k, a.data(), na, b.data(), nb, d), KMX_OK);
    ASSERT_EQ(kmx_kernel_block(out2.data(), na * nb, two.ctx, k.k, a.data(), na, b.data(), nb, d), KMX_OK);
    ASSERT_EQ(kmx_kernel_block(again.data(), na * nb, two.ctx, k.k, a.data(), na, b.data(), nb, d), KMX_OK);
    EXPECT_EQ(std::memcmp(out2.data(), again.data(), out2.size() * sizeof(double)), 0);
    for (size_t e = 0; e < out1.size(); ++e) EXPECT_NEAR(out1[e], out2[e], 1e-13) << e;
}

}  // namespace
