// test_support.cpp — direct computations the DC-SVM tests compare against.
#include "test_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>

#include "core/context.h"
#include "core/rng.h"
#include "io/text_reader.h"

namespace dcsvm_test {

std::unique_ptr<kmx::Dataset> load_example(const char *file, int64_t rows) {
    const char *dir = std::getenv("KMX_EXAMPLE_DATA");
    if (!dir) ADD_FAILURE() << "KMX_EXAMPLE_DATA is not set: run the tests through `meson test`";
    kmx::Context ctx;
    const std::string path = std::string(dir ? dir : ".") + "/" + file;
    const std::unique_ptr<kmx::Dataset> all = kmx::read_dataset_file(ctx, path.c_str(), KMX_FORMAT_LIBSVM);
    const std::unique_ptr<kmx::Dataset> dense = all->to_dense();
    const int64_t n = std::min(rows, dense->n);
    return kmx::Dataset::dense_copy(dense->x, n, dense->d, dense->y);
}

kmx::SvmProblem rbf_problem(const kmx::Dataset &data, const std::vector<double> &upper, double gamma) {
    kmx::SvmProblem problem;
    problem.data = &data;
    problem.n = data.n;
    problem.y = data.y;
    problem.upper = upper.data();
    problem.kernel.type = KMX_KERNEL_RBF;
    problem.kernel.gamma = gamma;
    return problem;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

Blobs make_blobs(int64_t n, int64_t d, int clusters, double spread, double noise, uint64_t seed) {
    Blobs b;
    static_cast<test_common::BlobPoints &>(b) = test_common::make_blob_points(n, d, clusters, spread, noise, seed);
    b.data = kmx::Dataset::dense_borrow(b.x.data(), n, d, nullptr);
    return b;
}

std::vector<double> direct_kernel_matrix(const kmx::Dataset &data, const int64_t *rows, int64_t n,
                                         const kmx::KernelSpec &kernel) {
    std::vector<double> gram(size_t(n * n));
    for (int64_t i = 0; i < n; ++i) {
        const double *xi = data.x + (rows ? rows[i] : i) * data.d;
        for (int64_t j = 0; j <= i; ++j) {
            const double *xj = data.x + (rows ? rows[j] : j) * data.d;
            gram[size_t(i * n + j)] = gram[size_t(j * n + i)] = kmx::kernel_eval(kernel, xi, xj, data.d);
        }
    }
    return gram;
}

std::vector<double> dual_gradient(const std::vector<double> &gram, const double *y, const double *alpha, int64_t n) {
    std::vector<double> gradient(size_t(n), -1.0);
    for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < n; ++j)
            if (alpha[j] != 0) gradient[size_t(i)] += y[i] * y[j] * gram[size_t(i * n + j)] * alpha[j];
    return gradient;
}

double dual_objective(const std::vector<double> &gram, const double *y, const double *alpha, int64_t n) {
    const std::vector<double> gradient = dual_gradient(gram, y, alpha, n);
    double twice = 0;  // αᵀQα − 2eᵀα = Σ α_i (∇f_i − 1)
    for (int64_t i = 0; i < n; ++i) twice += alpha[i] * (gradient[size_t(i)] - 1.0);
    return twice / 2;
}

double kkt_violation(const std::vector<double> &gradient, const double *y, const double *alpha, double C, bool bias) {
    const int64_t n = int64_t(gradient.size());
    if (!bias) {
        double worst = 0;
        for (int64_t i = 0; i < n; ++i) {
            const double g = gradient[size_t(i)];
            worst = std::max(worst, alpha[i] <= 0 ? -g : alpha[i] >= C ? g : std::fabs(g));
        }
        return worst;
    }
    double up = -HUGE_VAL, low = -HUGE_VAL;  // m(α) = up, M(α) = −low
    for (int64_t i = 0; i < n; ++i) {
        const double yg = y[i] * gradient[size_t(i)];
        const bool below_upper = alpha[i]<C, above_lower = alpha[i]> 0;
        if (y[i] > 0 ? below_upper : above_lower) up = std::max(up, -yg);
        if (y[i] > 0 ? above_lower : below_upper) low = std::max(low, yg);
    }
    return up + low;
}

double partition_disagreement(const std::vector<int> &a, const std::vector<int> &b) {
    std::map<int, std::map<int, int64_t>> counts;
    for (size_t i = 0; i < a.size(); ++i) ++counts[a[i]][b[i]];
    int64_t agree = 0;
    for (const auto &row : counts) {
        int64_t best = 0;
        for (const auto &cell : row.second) best = std::max(best, cell.second);
        agree += best;
    }
    return 1.0 - double(agree) / double(a.size());
}

}  // namespace dcsvm_test
