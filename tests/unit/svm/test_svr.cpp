// test_svr.cpp — ε-SVR (lib/svm/svr.*) and the dual solver's linear term,
// checked against computations written here: the closed form of a two-point
// problem, KKT conditions and objectives by direct loops over the kernel,
// an independent solver of the same dual in the coefficients β = α − α*
// (proximal coordinate descent, n variables instead of 2n), C-SVC unchanged
// when the linear term is −1, and the trained Model's predictions.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>
#include <vector>

#include "core/arena.h"
#include "core/context.h"
#include "core/dataset.h"
#include "core/error.h"
#include "kernel/kernel.h"
#include "model/model.h"
#include "model/train_options.h"
#include "svm/dcsvm.h"
#include "svm/svm_dual.h"
#include "svm/svr.h"
#include "../common/kernel_spec.h"
#include "../common/status_of.h"

namespace {

using kmx::Dataset;
using kmx::KernelSpec;
using kmx::SvmOptions;
using kmx::SvmSolution;
using kmx::SvrDual;

using test_common::rbf;

// z = sin(3 x_0) + x_1² + noise, x uniform in [−1, 1]^d.
std::unique_ptr<Dataset> regression_data(int64_t n, int64_t d, uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> uniform(-1.0, 1.0);
    std::normal_distribution<double> noise(0.0, 0.1);
    std::vector<double> x(size_t(n * d)), z(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
        for (int64_t k = 0; k < d; ++k) x[size_t(i * d + k)] = uniform(rng);
        z[size_t(i)] = std::sin(3 * x[size_t(i * d)]) + x[size_t(i * d + 1)] * x[size_t(i * d + 1)] + noise(rng);
    }
    return Dataset::dense_copy(x.data(), n, d, z.data());
}

// K over every pair of the dataset's rows, by kernel_eval.
std::vector<double> gram(const Dataset &data, const KernelSpec &kernel) {
    const int64_t n = data.n, d = data.d;
    std::vector<double> x(size_t(n * d)), k(size_t(n * n));
    data.copy_rows(0, n, x.data());
    for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < n; ++j)
            k[size_t(i * n + j)] = kmx::kernel_eval(kernel, &x[size_t(i * d)], &x[size_t(j * d)], d);
    return k;
}

// The dual of ε-SVR solved by solve_svm_dual, its arrays owned here.
struct SvrRun {
    kmx::Arena arena;
    SvrDual dual;
    SvmSolution solution;
    std::vector<double> beta;  // α − α* per row

    SvrRun(const Dataset &data, const KernelSpec &kernel, double c, double epsilon, SvmOptions options)
        : arena(kmx::svr_dual_bytes(data.n) + kmx::svm_dual_workspace_bytes(2 * data.n, data.d, 1 << 20)) {
        kmx::Context ctx;
        ctx.threads = 1;
        options.cache_bytes = 1 << 20;
        dual = kmx::carve_svr_dual(arena, data, c, epsilon);
        solution = kmx::solve_svm_dual(ctx, arena, kmx::svr_problem(dual, data, kernel), options, dual.alpha);
        for (int64_t k = 0; k < dual.rows_used; ++k) beta.push_back(dual.coefficient(k));
    }
};

SvmOptions options_with(bool bias, double eps) {
    SvmOptions options;
    options.bias = bias;
    options.eps = eps;
    return options;
}

// ½βᵀKβ + ε Σ|β_i| − zᵀβ: the dual's objective in β (equal to the 2n form
// when α_i α*_i = 0, which every optimum with ε > 0 has).
double beta_objective(const std::vector<double> &k, const double *z, const std::vector<double> &beta, double epsilon) {
    const size_t n = beta.size();
    double sum = 0;
    for (size_t i = 0; i < n; ++i) {
        double kb = 0;
        for (size_t j = 0; j < n; ++j) kb += k[i * n + j] * beta[j];
        sum += 0.5 * beta[i] * kb + epsilon * std::fabs(beta[i]) - z[i] * beta[i];
    }
    return sum;
}

// f(x_i) − b = Σ_j K_ij β_j for every row.
std::vector<double> expansion(const std::vector<double> &k, const std::vector<double> &beta) {
    const size_t n = beta.size();
    std::vector<double> f(n, 0.0);
    for (size_t i = 0; i < n; ++i)
        for (size_t j = 0; j < n; ++j) f[i] += k[i * n + j] * beta[j];
    return f;
}

// The largest violation of ε-SVR's optimality conditions on the residuals
// r_i = f(x_i) − z_i: β_i = 0 ⇒ |r_i| ≤ ε; 0 < β_i < C ⇒ r_i = −ε;
// −C < β_i < 0 ⇒ r_i = ε; β_i = C ⇒ r_i ≤ −ε; β_i = −C ⇒ r_i ≥ ε.
double kkt_violation(const std::vector<double> &f, double bias, const double *z, const std::vector<double> &beta,
                     double c, double epsilon) {
    double worst = 0;
    for (size_t i = 0; i < beta.size(); ++i) {
        const double r = f[i] + bias - z[i], b = beta[i];
        double v;
        if (b == 0)
            v = std::fabs(r) - epsilon;
        else if (b >= c)
            v = r + epsilon;
        else if (b <= -c)
            v = epsilon - r;
        else
            v = std::fabs(r + (b > 0 ? epsilon : -epsilon));
        worst = std::max(worst, v);
    }
    return worst;
}

// The dual without bias in β by proximal coordinate descent:
// β_i ← clip(soft(z_i − Σ_{j≠i} K_ij β_j, ε) / K_ii, −C, C).
std::vector<double> coordinate_descent(const std::vector<double> &k, const double *z, double c, double epsilon) {
    const size_t n = size_t(std::sqrt(double(k.size())));
    std::vector<double> beta(n, 0.0), kb(n, 0.0);
    for (int sweep = 0; sweep < 20000; ++sweep) {
        double moved = 0;
        for (size_t i = 0; i < n; ++i) {
            const double kii = k[i * n + i], rest = z[i] - (kb[i] - kii * beta[i]);
            const double soft = std::copysign(std::max(std::fabs(rest) - epsilon, 0.0), rest);
            const double next = std::clamp(soft / kii, -c, c), delta = next - beta[i];
            if (delta == 0) continue;
            for (size_t j = 0; j < n; ++j) kb[j] += k[j * n + i] * delta;
            beta[i] = next;
            moved = std::max(moved, std::fabs(delta));
        }
        if (moved < 1e-13) break;
    }
    return beta;
}

using test_common::status_of;

// ------------------------------------------------------------ the dual

// Two points: with bias β_2 = −β_1 = −β, and the dual is
// ½ a β² + 2ε|β| − (z_1 − z_2) β, a = K_11 + K_22 − 2K_12, so
// β = sign(Δz) max(|Δz| − 2ε, 0) / a (inside [−C, C]), and both points lie
// on the tube's edges: f(x_1) = z_1 − ε, f(x_2) = z_2 + ε.
TEST(SvrDual, TwoPointsMatchTheClosedForm) {
    const double x[] = {0.0, 0.0, 1.0, 0.5}, z[] = {3.0, 1.0};
    const auto data = Dataset::dense_copy(x, 2, 2, z);
    const double gamma = 0.7, epsilon = 0.25, c = 100;
    const double a = 2 - 2 * std::exp(-gamma * 1.25), beta = (z[0] - z[1] - 2 * epsilon) / a;
    SvrRun run(*data, rbf(gamma), c, epsilon, options_with(true, 1e-10));
    ASSERT_TRUE(run.solution.converged);
    // Q is cached as floats (as LIBSVM's): a relative 6e-8 of K_12 moves β by about that much.
    constexpr double kFloatQ = 1e-7;
    EXPECT_NEAR(run.beta[0], beta, kFloatQ * beta);
    EXPECT_EQ(run.beta[1], -run.beta[0]);
    const double objective = 0.5 * a * beta * beta + 2 * epsilon * beta - (z[0] - z[1]) * beta;
    EXPECT_NEAR(run.solution.objective, objective, kFloatQ * std::fabs(objective));
    const double k12 = std::exp(-gamma * 1.25);
    EXPECT_NEAR(beta * (1 - k12) + run.solution.bias, z[0] - epsilon, kFloatQ);
    EXPECT_NEAR(beta * (k12 - 1) + run.solution.bias, z[1] + epsilon, kFloatQ);
}

// A wide tube holds both points: nothing to fit, β = 0, objective 0.
TEST(SvrDual, TubeWiderThanTheTargetsGivesZero) {
    const double x[] = {0.0, 1.0}, z[] = {1.0, 1.3};
    const auto data = Dataset::dense_copy(x, 2, 1, z);
    SvrRun run(*data, rbf(1.0), 10, 0.2, options_with(true, 1e-8));
    EXPECT_EQ(run.beta[0], 0.0);
    EXPECT_EQ(run.beta[1], 0.0);
    EXPECT_EQ(run.solution.objective, 0.0);
    EXPECT_GE(run.solution.bias, 1.1 - 1e-12);  // any b with |b − z_i| ≤ ε
    EXPECT_LE(run.solution.bias, 1.2 + 1e-12);
}

// With bias: the KKT conditions on the residuals hold to eps, Σβ = 0, the
// objective is the direct one in β, and α_i α*_i = 0.
TEST(SvrDual, KktConditionsHoldWithBias) {
    const auto data = regression_data(120, 3, 11);
    const KernelSpec kernel = rbf(1.5);
    const double c = 5, epsilon = 0.1, eps = 1e-4;
    SvrRun run(*data, kernel, c, epsilon, options_with(true, eps));
    ASSERT_TRUE(run.solution.converged);
    const std::vector<double> k = gram(*data, kernel), f = expansion(k, run.beta);
    // LIBSVM's stopping rule bounds m(α) − M(α) ≤ eps; the residual conditions then hold to eps.
    EXPECT_LE(kkt_violation(f, run.solution.bias, data->y, run.beta, c, epsilon), eps);
    double sum = 0;
    for (double b : run.beta) sum += b;
    EXPECT_NEAR(sum, 0.0, 1e-10);
    const double direct = beta_objective(k, data->y, run.beta, epsilon);  // Q in doubles; the solver's in floats
    EXPECT_NEAR(run.solution.objective, direct, 1e-7 * std::fabs(direct));
    for (int64_t i = 0; i < run.dual.rows_used; ++i) EXPECT_EQ(run.dual.alpha[i] * run.dual.alpha[i + data->n], 0.0);
    int64_t free = 0;
    for (double b : run.beta) free += b != 0 && std::fabs(b) < c;
    EXPECT_GT(free, 5);  // the bias comes from free variables, as LIBSVM's calculate_rho
}

// Without bias the dual has no equality constraint: the solver (2n
// variables, coordinate steps) and coordinate descent in β (n variables)
// reach the same optimum.
TEST(SvrDual, WithoutBiasMatchesCoordinateDescentInBeta) {
    const auto data = regression_data(60, 2, 5);
    const KernelSpec kernel = rbf(2.0);
    const double c = 3, epsilon = 0.05;
    SvrRun run(*data, kernel, c, epsilon, options_with(false, 1e-9));
    ASSERT_TRUE(run.solution.converged);
    EXPECT_EQ(run.solution.bias, 0.0);
    const std::vector<double> k = gram(*data, kernel);
    const std::vector<double> reference = coordinate_descent(k, data->y, c, epsilon);
    const double expected = beta_objective(k, data->y, reference, epsilon);
    EXPECT_NEAR(run.solution.objective, expected, 1e-7 * std::fabs(expected));  // the solver's Q is in floats
    for (size_t i = 0; i < reference.size(); ++i) EXPECT_NEAR(run.beta[i], reference[i], 1e-3) << i;
}

// A warm start from the solution converges in a few steps (its gradient is
// rebuilt in doubles, the steps use float columns) to the same objective;
// from an infeasible guess (Σα ≠ Σα*) to the same optimum.
TEST(SvrDual, WarmStartKeepsTheLinearTerm) {
    const auto data = regression_data(80, 3, 3);
    const KernelSpec kernel = rbf(1.0);
    SvrRun cold(*data, kernel, 2, 0.1, options_with(true, 1e-6));
    kmx::Context ctx;
    const kmx::SvmProblem problem = kmx::svr_problem(cold.dual, *data, kernel);
    SvmOptions options = options_with(true, 1e-6);
    options.cache_bytes = 1 << 20;
    const SvmSolution warm = kmx::solve_svm_dual(ctx, cold.arena, problem, options, cold.dual.alpha);
    EXPECT_LE(warm.iterations, 20);
    EXPECT_LT(warm.iterations, cold.solution.iterations / 10);
    EXPECT_NEAR(warm.objective, cold.solution.objective, 1e-7 * std::fabs(cold.solution.objective));
    for (int64_t t = 0; t < problem.n; ++t) cold.dual.alpha[t] = t < data->n ? 1.0 : 0.5;
    const SvmSolution guessed = kmx::solve_svm_dual(ctx, cold.arena, problem, options, cold.dual.alpha);
    EXPECT_NEAR(guessed.objective, cold.solution.objective, 1e-5 * std::fabs(cold.solution.objective));
}

// A linear term of −1 everywhere is C-SVC: the same bits as nullptr.
TEST(SvrDual, LinearTermOfMinusOneIsCsvc) {
    const auto data = regression_data(150, 3, 9);
    std::vector<double> y(150), upper(150, 2.0), minus_one(150, -1.0);
    for (int64_t i = 0; i < 150; ++i) y[size_t(i)] = data->y[i] > 0.3 ? 1.0 : -1.0;
    kmx::SvmProblem problem;
    problem.data = data.get();
    problem.n = 150;
    problem.y = y.data();
    problem.upper = upper.data();
    problem.kernel = rbf(1.0);
    SvmOptions options = options_with(true, 1e-3);
    options.cache_bytes = 64 << 10;  // small: shrinking and gradient reconstruction take part
    auto solve = [&](const double *linear, std::vector<double> &alpha) {
        problem.linear = linear;
        kmx::Context ctx;
        kmx::Arena arena(kmx::svm_dual_workspace_bytes(150, 3, options.cache_bytes));
        alpha.assign(150, 0.0);
        return kmx::solve_svm_dual(ctx, arena, problem, options, alpha.data());
    };
    std::vector<double> a, b;
    const SvmSolution plain = solve(nullptr, a), explicit_term = solve(minus_one.data(), b);
    EXPECT_EQ(plain.objective, explicit_term.objective);
    EXPECT_EQ(plain.bias, explicit_term.bias);
    EXPECT_EQ(plain.iterations, explicit_term.iterations);
    EXPECT_EQ(a, b);
}

TEST(SvrDual, BadInputFails) {
    const auto data = regression_data(10, 2, 1);
    kmx::Arena arena(kmx::svr_dual_bytes(10));
    EXPECT_EQ(status_of([&] { kmx::carve_svr_dual(arena, *data, 1, -0.1); }), KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(status_of([&] { kmx::carve_svr_dual(arena, *data, 1, NAN); }), KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(status_of([&] { kmx::carve_svr_dual(arena, *data, 0, 0.1); }), KMX_E_INVALID_ARGUMENT);
    const auto unlabelled = Dataset::dense_copy(std::vector<double>(20, 0.5).data(), 10, 2, nullptr);
    EXPECT_EQ(status_of([&] { kmx::carve_svr_dual(arena, *unlabelled, 1, 0.1); }), KMX_E_INVALID_ARGUMENT);
    // a non-finite linear term
    SvrDual dual = kmx::carve_svr_dual(arena, *data, 1, 0.1);
    dual.linear[3] = INFINITY;
    kmx::Context ctx;
    kmx::Arena work(kmx::svm_dual_workspace_bytes(20, 2, 0));
    EXPECT_EQ(status_of([&] {
                  kmx::solve_svm_dual(ctx, work, kmx::svr_problem(dual, *data, rbf(1)), options_with(true, 1e-3),
                                      dual.alpha);
              }),
              KMX_E_INVALID_ARGUMENT);
}

// ------------------------------------------------------------ DC-SVM

// DC-SVM on ε-SVR's dual (a row's α and α* in one cluster): with a cache too
// small for the direct solve it divides (steps: levels, refine, global), and
// its answer is the plain solver's: the same objective, bias and
// coefficients β = α − α* to the tolerance; the levels' warm start leaves the
// global solve fewer iterations than the cold start needs.
TEST(SvrDcsvm, DividesAndMatchesThePlainSolver) {
    const int64_t n = 2400, d = 3;
    const auto data = regression_data(n, d, 21);
    const double c = 4, epsilon = 0.05;
    const KernelSpec kernel = rbf(2.0);
    SvmOptions svm = options_with(true, 1e-4);
    svm.cache_bytes = 60 * size_t(n) * sizeof(float);  // 60 kernel rows of 2400
    const SvrRun plain(*data, kernel, c, epsilon, svm);
    ASSERT_TRUE(plain.solution.converged);

    kmx::Arena arena(kmx::svr_dual_bytes(n));
    SvrDual dual = kmx::carve_svr_dual(arena, *data, c, epsilon);
    kmx::DcsvmOptions options;
    options.sample_size = 200;
    options.svm = svm;
    kmx::Context ctx;
    ctx.threads = 2;
    const kmx::DcsvmResult result = kmx::train_dcsvm(ctx, kmx::svr_problem(dual, *data, kernel), options, dual.alpha);
    ASSERT_TRUE(result.solution.converged);
    ASSERT_GE(result.levels.size(), 2u);
    EXPECT_EQ(result.levels.front().step, kmx::DcsvmStep::level);
    EXPECT_GT(result.levels.front().clusters, 1);
    EXPECT_EQ(result.levels.back().step, kmx::DcsvmStep::global);
    EXPECT_TRUE(result.partition.k == 0 && result.cluster_of.empty());  // full DC-SVM: no local models
    EXPECT_LT(result.solution.iterations, plain.solution.iterations);
    EXPECT_NEAR(result.solution.objective, plain.solution.objective, 1e-6 * std::fabs(plain.solution.objective));
    EXPECT_NEAR(result.solution.bias, plain.solution.bias, 2e-3);
    double largest = 0;
    for (int64_t k = 0; k < n; ++k) largest = std::max(largest, std::fabs(dual.coefficient(k) - plain.beta[size_t(k)]));
    EXPECT_LT(largest, 0.05 * c);
    // α_k α*_k = 0 at the optimum with ε > 0
    for (int64_t k = 0; k < n; ++k) EXPECT_EQ(dual.alpha[k] * dual.alpha[k + n], 0.0) << k;
}

// The model path: svr_dcsvm = 1 and 0 (the default) give the same model to
// the tolerance (sample_size 100 and a 40-row cache, so that DC-SVM
// divides); early prediction is refused for the regression dual.
TEST(SvrDcsvm, ModelWithAndWithoutDcsvm) {
    const auto data = regression_data(1500, 2, 4);
    kmx::TrainOptions options;
    options.method = KMX_METHOD_SVR;
    options.C = 2;
    options.epsilon_svr = 0.1;
    options.eps = 1e-4;
    options.sample_size = 100;
    options.cache_bytes = 40 * 1500 * sizeof(float);
    KernelSpec kernel = rbf(1.0);
    kmx::Context ctx;
    options.svr_dcsvm = false;
    const kmx::Model plain = kmx::train_svr_model(ctx, options, kernel, *data);
    options.svr_dcsvm = true;
    const kmx::Model divided = kmx::train_svr_model(ctx, options, kernel, *data);
    EXPECT_NEAR(divided.stats.objective, plain.stats.objective, 1e-6 * std::fabs(plain.stats.objective));
    EXPECT_NEAR(divided.machines[0].bias, plain.machines[0].bias, 2e-3);
    EXPECT_NEAR(double(divided.support_vectors), double(plain.support_vectors), 0.02 * double(plain.support_vectors));

    kmx::Arena arena(kmx::svr_dual_bytes(1500));
    SvrDual dual = kmx::carve_svr_dual(arena, *data, 2, 0.1);
    kmx::DcsvmOptions early;
    early.early_level = 1;
    EXPECT_EQ(status_of([&] { kmx::train_dcsvm(ctx, kmx::svr_problem(dual, *data, kernel), early, dual.alpha); }),
              KMX_E_INVALID_ARGUMENT);
}

// ------------------------------------------------------------ the model

kmx::TrainOptions svr_options(double c, double epsilon) {
    kmx::TrainOptions options;
    options.method = KMX_METHOD_SVR;
    options.C = c;
    options.epsilon_svr = epsilon;
    return options;
}

// The model's support vectors are the rows with β ≠ 0, its predictions
// Σ β_i K(x_i, x) + b; its objective is the dual's.
TEST(SvrModel, PredictsTheExpansionOfItsSupportVectors) {
    const auto data = regression_data(200, 3, 21), test = regression_data(50, 3, 22);
    const KernelSpec kernel = rbf(1.0);
    kmx::Context ctx;
    ctx.threads = 1;
    const kmx::Model model = kmx::train_svr_model(ctx, svr_options(4, 0.1), kernel, *data);
    EXPECT_TRUE(model.regression());
    EXPECT_TRUE(model.svr());
    EXPECT_FALSE(model.krr());
    EXPECT_TRUE(model.has_bias);
    ASSERT_EQ(model.machines.size(), 1u);
    const kmx::BinaryMachine &machine = model.machines[0];
    ASSERT_EQ(int64_t(machine.coef.size()), model.support_vectors);
    for (double coef : machine.coef) {
        EXPECT_NE(coef, 0.0);
        EXPECT_LE(std::fabs(coef), 4.0);
    }
    EXPECT_LT(model.support_vectors, data->n);                    // the tube holds some rows
    SvrRun run(*data, kernel, 4, 0.1, options_with(true, 1e-3));  // another cache size: the same optimum to eps
    EXPECT_NEAR(model.stats.objective, run.solution.objective, 1e-3 * std::fabs(run.solution.objective));
    std::vector<double> predicted(50), xt(150);
    kmx::model_predict(ctx, model, *test, predicted.data());
    test->copy_rows(0, 50, xt.data());
    double squares = 0, spread = 0;
    for (int64_t t = 0; t < 50; ++t) {
        double f = machine.bias;
        for (size_t j = 0; j < machine.coef.size(); ++j)
            f += machine.coef[j] *
                 kmx::kernel_eval(model.kernel, model.points.data() + machine.sv[j] * 3, &xt[size_t(t * 3)], 3);
        EXPECT_NEAR(predicted[size_t(t)], f, 1e-9);
        squares += (f - test->y[t]) * (f - test->y[t]);
        spread += test->y[t] * test->y[t];
    }
    EXPECT_LT(squares, 0.1 * spread);  // it learnt the function
}

// Rows of weight 0 take no part; a weight multiplies C.
TEST(SvrModel, SampleWeightsScaleC) {
    auto data = regression_data(40, 2, 31);
    std::vector<double> w(40, 1.0);
    w[0] = 0;
    w[1] = 0.5;
    data->set_weights(w.data());
    kmx::Arena arena(kmx::svr_dual_bytes(40));
    const SvrDual dual = kmx::carve_svr_dual(arena, *data, 2, 0.1);
    ASSERT_EQ(dual.rows_used, 39);
    EXPECT_EQ(dual.rows[0], 1);
    EXPECT_EQ(dual.rows[39], 1);
    EXPECT_EQ(dual.upper[0], 1.0);
    EXPECT_EQ(dual.upper[39], 1.0);
    EXPECT_EQ(dual.upper[1], 2.0);
    EXPECT_EQ(dual.linear[0], 0.1 - data->y[1]);
    EXPECT_EQ(dual.linear[39], 0.1 + data->y[1]);
    EXPECT_EQ(dual.y[0], 1.0);
    EXPECT_EQ(dual.y[39], -1.0);
}

TEST(SvrModel, ParameterTableKnowsSvr) {
    int used = -1;
    ASSERT_EQ(kmx_param_used_by(&used, KMX_PARAM_EPSILON_SVR, KMX_METHOD_SVR), KMX_OK);
    EXPECT_EQ(used, 1);
    ASSERT_EQ(kmx_param_used_by(&used, KMX_PARAM_EPSILON_SVR, KMX_METHOD_SVM), KMX_OK);
    EXPECT_EQ(used, 0);
    for (const kmx_param p :
         {KMX_PARAM_C, KMX_PARAM_EPS, KMX_PARAM_BIAS, KMX_PARAM_SHRINKING, KMX_PARAM_CACHE_SIZE, KMX_PARAM_SVR_DCSVM,
          KMX_PARAM_LEVELS, KMX_PARAM_CLUSTERS_PER_LEVEL, KMX_PARAM_SAMPLE_SIZE}) {
        ASSERT_EQ(kmx_param_used_by(&used, p, KMX_METHOD_SVR), KMX_OK);
        EXPECT_EQ(used, 1) << kmx_param_name(p);
    }
    ASSERT_EQ(kmx_param_used_by(&used, KMX_PARAM_SVR_DCSVM, KMX_METHOD_DCSVM), KMX_OK);
    EXPECT_EQ(used, 0);
    // svr's DC-SVM is the full one: no early prediction
    for (const kmx_param p : {KMX_PARAM_LAMBDA, KMX_PARAM_EARLY_LEVEL, KMX_PARAM_MULTICLASS, KMX_PARAM_TASK}) {
        ASSERT_EQ(kmx_param_used_by(&used, p, KMX_METHOD_SVR), KMX_OK);
        EXPECT_EQ(used, 0) << kmx_param_name(p);
    }
    EXPECT_STREQ(kmx_param_name(KMX_PARAM_EPSILON_SVR), "epsilon_svr");
    EXPECT_STREQ(kmx_param_value_name(KMX_PARAM_METHOD, KMX_METHOD_SVR), "svr");
    EXPECT_EQ(kmx_param_check(KMX_PARAM_EPSILON_SVR, -0.1), KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(kmx_param_check(KMX_PARAM_EPSILON_SVR, NAN), KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(kmx_param_check(KMX_PARAM_EPSILON_SVR, 0.0), KMX_OK);
    EXPECT_STREQ(kmx_param_name(KMX_PARAM_SVR_DCSVM), "svr_dcsvm");
    EXPECT_EQ(kmx_param_check(KMX_PARAM_SVR_DCSVM, 2), KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(kmx_param_check(KMX_PARAM_SVR_DCSVM, 0.5), KMX_E_INVALID_ARGUMENT);
}

}  // namespace
