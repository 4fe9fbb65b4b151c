// model_test_data.h — small datasets for the model tests, cut from the
// Letter files in examples/data (KMX_EXAMPLE_DATA).
#pragma once
#include <gtest/gtest.h>
#include <kmx/kmx.h>

#include <cstdlib>
#include <string>
#include <vector>

namespace model_test {

inline std::string example_path(const char *file) {
    const char *dir = std::getenv("KMX_EXAMPLE_DATA");
    return std::string(dir ? dir : "examples/data") + "/" + file;
}

struct Rows {
    std::vector<double> x, y;
    int64_t d = 0;
    int64_t n() const { return int64_t(y.size()); }
};

// Rows of `file` whose label is at most `max_label`, at most `limit` of them.
inline Rows load_rows(const char *file, double max_label, int64_t limit) {
    kmx_dataset *ds = nullptr;
    Rows rows;
    EXPECT_EQ(kmx_dataset_load(&ds, nullptr, example_path(file).c_str(), KMX_FORMAT_LIBSVM), KMX_OK)
        << kmx_last_error();
    if (!ds) return rows;
    int64_t n = 0;
    kmx_dataset_rows(&n, ds);
    kmx_dataset_cols(&rows.d, ds);
    std::vector<double> x(static_cast<size_t>(n * rows.d)), y(static_cast<size_t>(n));
    kmx_dataset_get_rows(x.data(), n * rows.d, ds, 0, n);
    kmx_dataset_get_labels(y.data(), n, ds);
    kmx_dataset_free(ds);
    for (int64_t i = 0; i < n && rows.n() < limit; ++i) {
        if (y[size_t(i)] > max_label) continue;
        rows.y.push_back(y[size_t(i)]);
        rows.x.insert(rows.x.end(), x.begin() + i * rows.d, x.begin() + (i + 1) * rows.d);
    }
    return rows;
}

inline kmx_dataset *make_dataset(const Rows &rows) {
    kmx_dataset *ds = nullptr;
    EXPECT_EQ(kmx_dataset_create(&ds, rows.x.data(), rows.n(), rows.d, rows.y.data(), KMX_COPY), KMX_OK)
        << kmx_last_error();
    return ds;
}

inline kmx_kernel *rbf(double gamma) {
    kmx_kernel *kernel = nullptr;
    EXPECT_EQ(kmx_kernel_create(&kernel, KMX_KERNEL_RBF), KMX_OK);
    EXPECT_EQ(kmx_kernel_set_param(kernel, KMX_PARAM_GAMMA, gamma), KMX_OK);
    return kernel;
}

inline kmx_model *train(const char *params, const kmx_kernel *kernel, const kmx_dataset *data,
                        kmx_context *ctx = nullptr) {
    kmx_solver *solver = nullptr;
    EXPECT_EQ(kmx_solver_create_from_string(&solver, params), KMX_OK) << kmx_last_error();
    kmx_model *model = nullptr;
    EXPECT_EQ(kmx_solver_train(&model, ctx, solver, kernel, data), KMX_OK) << kmx_last_error();
    kmx_solver_free(solver);
    return model;
}

inline double accuracy(const kmx_model *model, const kmx_dataset *data, const Rows &rows) {
    std::vector<double> predicted(static_cast<size_t>(rows.n()));
    EXPECT_EQ(kmx_model_predict(predicted.data(), rows.n(), nullptr, model, data), KMX_OK) << kmx_last_error();
    int64_t correct = 0;
    for (size_t i = 0; i < predicted.size(); ++i) correct += predicted[i] == rows.y[i];
    return double(correct) / double(rows.n());
}

inline std::vector<double> decision_values(const kmx_model *model, const kmx_dataset *data, int64_t n) {
    double per_row = 0;
    EXPECT_EQ(kmx_model_info(&per_row, model, KMX_INFO_DECISION_VALUES), KMX_OK);
    std::vector<double> values(size_t(n * int64_t(per_row)));
    EXPECT_EQ(kmx_model_decision_values(values.data(), int64_t(values.size()), nullptr, model, data), KMX_OK)
        << kmx_last_error();
    return values;
}

inline std::vector<unsigned char> saved_bytes(const kmx_model *model) {
    int64_t size = 0;
    EXPECT_EQ(kmx_model_save_to_buffer(nullptr, 0, &size, model), KMX_OK);
    std::vector<unsigned char> bytes(static_cast<size_t>(size));
    EXPECT_EQ(kmx_model_save_to_buffer(bytes.data(), size, &size, model), KMX_OK);
    return bytes;
}

}  // namespace model_test
