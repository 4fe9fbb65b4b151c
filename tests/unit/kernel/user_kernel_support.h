// user_kernel_support.h — what the tests of the caller's kernels (precomputed
// matrices, callbacks) share: RAII handles over the C ABI, random data, the
// Gaussian kernel by its formula, and a model's objective and decision values.
#pragma once
#include <gtest/gtest.h>
#include <kmx/kmx.h>

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace user_kernels {

inline bool mentions(const char *text) { return std::strstr(kmx_last_error(), text) != nullptr; }

// A handle freed at scope exit.
template <class T, void (*Free)(T *)>
struct Handle {
    T *p = nullptr;
    Handle() = default;
    Handle(const Handle &) = delete;
    Handle &operator=(const Handle &) = delete;
    ~Handle() { Free(p); }
    T **out() { return &p; }
    operator T *() const { return p; }
};
using Dataset = Handle<kmx_dataset, kmx_dataset_free>;
using Kernel = Handle<kmx_kernel, kmx_kernel_free>;
using Solver = Handle<kmx_solver, kmx_solver_free>;
using Model = Handle<kmx_model, kmx_model_free>;
using Context = Handle<kmx_context, kmx_context_free>;

// Rows of features and labels: `classes` Gaussian blobs in d dimensions (or,
// with classes == 0, a regression target sin(x_0) + x_1 / 2).
struct Rows {
    int64_t n = 0, d = 0;
    std::vector<double> x, y;
};

inline Rows random_rows(int64_t n, int64_t d, int classes, uint32_t seed) {
    std::mt19937 rng(seed);
    std::normal_distribution<double> normal(0.0, 1.0);
    Rows rows{n, d, std::vector<double>(size_t(n * d)), std::vector<double>(size_t(n))};
    for (int64_t i = 0; i < n; ++i) {
        const int label = classes > 0 ? int(i % classes) : 0;
        for (int64_t k = 0; k < d; ++k) rows.x[size_t(i * d + k)] = normal(rng) + (k == 0 ? 1.5 * label : 0.0);
        const double *xi = &rows.x[size_t(i * d)];
        rows.y[size_t(i)] = classes > 0 ? double(label) : std::sin(xi[0]) + 0.5 * xi[1];
    }
    return rows;
}

// exp(−γ‖a − b‖²) by its formula.
inline double gaussian(double gamma, const double *a, const double *b, int64_t d) {
    double sum = 0;
    for (int64_t k = 0; k < d; ++k) sum += (a[k] - b[k]) * (a[k] - b[k]);
    return std::exp(-gamma * sum);
}

// LIBSVM's precomputed rows of the Gaussian kernel between `rows` and the
// training rows: (serial, K(x, x_1), ..., K(x, x_l)); serial i + 1 for the
// training rows themselves (first_serial 1), 0 for others.
inline std::vector<double> precomputed_rows(const Rows &rows, const Rows &train, double gamma, bool serials) {
    const int64_t width = train.n + 1;
    std::vector<double> k(size_t(rows.n * width));
    for (int64_t i = 0; i < rows.n; ++i) {
        k[size_t(i * width)] = serials ? double(i + 1) : 0.0;
        for (int64_t j = 0; j < train.n; ++j)
            k[size_t(i * width + 1 + j)] =
                gaussian(gamma, &rows.x[size_t(i * rows.d)], &train.x[size_t(j * train.d)], rows.d);
    }
    return k;
}

inline void make_dataset(Dataset &ds, const std::vector<double> &x, int64_t n, int64_t d, const double *y) {
    ASSERT_EQ(kmx_dataset_create(ds.out(), x.data(), n, d, y, KMX_COPY), KMX_OK) << kmx_last_error();
}

inline void make_solver(Solver &solver, const char *params) {
    ASSERT_EQ(kmx_solver_create_from_string(solver.out(), params), KMX_OK) << kmx_last_error();
}

inline double info(const kmx_model *model, kmx_model_info_key key) {
    double value = NAN;
    EXPECT_EQ(kmx_model_info(&value, model, key), KMX_OK) << kmx_last_error();
    return value;
}

inline std::vector<double> decision_values(const kmx_model *model, const kmx_dataset *data, int64_t n) {
    std::vector<double> out(size_t(n * int64_t(info(model, KMX_INFO_DECISION_VALUES))));
    EXPECT_EQ(kmx_model_decision_values(out.data(), int64_t(out.size()), nullptr, model, data), KMX_OK)
        << kmx_last_error();
    return out;
}

// The largest |a_i − b_i|.
inline double max_difference(const std::vector<double> &a, const std::vector<double> &b) {
    EXPECT_EQ(a.size(), b.size());
    double most = 0;
    for (size_t i = 0; i < a.size() && i < b.size(); ++i) most = std::max(most, std::fabs(a[i] - b[i]));
    return most;
}

// The solver strings of the dual solver's three problems, with data for each.
struct DualCase {
    const char *solver;
    int classes;  // 0: regression
};
inline const DualCase kDualCases[] = {{"method=svm C=2", 2},
                                      {"method=svm C=1", 3},
                                      {"method=svr C=2 epsilon_svr=0.1", 0},
                                      {"method=one_class nu=0.3", 2}};

}  // namespace user_kernels
