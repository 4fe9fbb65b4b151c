// predict_test_support.h — what the compact-predictor tests share: random
// predictors that exercise every part of the rule, and example data.
#pragma once
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>

#include "core/context.h"
#include "core/dataset.h"
#include "core/rng.h"
#include "io/text_reader.h"
#include "model/model.h"
#include "svm/multiclass.h"
#include "predict/compact_predictor.h"
#include "predict/pseudo_landmarks.h"

namespace predict_test {

// `leaves` leaves under two top nodes; per leaf 3..7 landmarks in [0,1]^6,
// triangle pseudo-landmarks (stationary kernels) and product pairs, random β and bias.
inline kmx::CompactPredictor random_predictor(kmx::Rng &rng, int64_t leaves, kmx_kernel_type kernel,
                                              kmx::PredictorTask task, int classes, kmx_multiclass multiclass,
                                              kmx::TriangleEstimate estimate) {
    kmx::CompactPredictor p;
    p.d = 6;
    p.kernel.type = kernel;
    p.kernel.gamma = kernel == KMX_KERNEL_POLYNOMIAL ? 0.7 : 1.3;
    p.kernel.coef0 = 0.5;
    p.kernel.degree = 2;
    p.task = task;
    p.multiclass = multiclass;
    for (int c = 0; c < classes; ++c) p.classes.push_back(2.0 * c - 1.0);
    p.outputs = task == kmx::PredictorTask::regression || classes == 2 ? 1
                : multiclass == KMX_MULTICLASS_OVR                     ? classes
                                                                       : classes * (classes - 1) / 2;
    p.triangle_estimate = estimate;
    auto point = [&](std::vector<double> &out) {
        for (int64_t f = 0; f < p.d; ++f) out.push_back(rng.uniform());
    };
    point(p.top_centers);
    point(p.top_centers);
    p.top_leaf_begin = {0, leaves / 2, leaves};
    for (int64_t l = 0; l < leaves; ++l) {
        kmx::PredictorLeaf leaf;
        point(leaf.center);
        leaf.m = 3 + int64_t(rng.below(5));
        for (int64_t j = 0; j < leaf.m; ++j) point(leaf.landmarks);
        if (p.kernel.stationary()) {
            std::vector<double> v;
            for (int t = 0; t < 4; ++t) point(v);
            kmx::choose_triangle_pseudo_landmarks(rng, p.kernel, v.data(), 4, p.d, int64_t(rng.below(5)), leaf);
        }
        kmx::choose_product_pairs(rng, int64_t(rng.below(7)), leaf);
        for (int64_t i = 0; i < leaf.features() * p.outputs; ++i) leaf.beta.push_back(2 * rng.uniform() - 1);
        for (int64_t k = 0; k < p.outputs; ++k) leaf.bias.push_back(0.2 * rng.uniform() - 0.1);
        p.leaves.push_back(std::move(leaf));
    }
    return p;
}

// An example data file (KMX_EXAMPLE_DATA), dense; the first `rows` rows.
inline std::unique_ptr<kmx::Dataset> load_example(const char *file, int64_t rows = INT64_MAX) {
    const char *dir = std::getenv("KMX_EXAMPLE_DATA");
    kmx::Context ctx;
    const std::string path = std::string(dir ? dir : "examples/data") + "/" + file;
    const std::unique_ptr<kmx::Dataset> all = kmx::read_dataset_file(ctx, path.c_str(), KMX_FORMAT_LIBSVM);
    const std::unique_ptr<kmx::Dataset> dense = all->to_dense();
    const int64_t n = std::min(rows, dense->n);
    return kmx::Dataset::dense_copy(dense->x, n, dense->d, dense->y);
}

// An exact C-SVC with the RBF kernel (the dual solver, as LIBSVM's -s 0 -t 2,
// or another exact method such as DC-SVM).
inline kmx::Model train_rbf_svm(kmx::Context &ctx, const kmx::Dataset &data, double C, double gamma,
                                kmx_method method = KMX_METHOD_SVM) {
    kmx::TrainOptions options;
    options.method = method;
    options.C = C;
    kmx::KernelSpec rbf;
    rbf.type = KMX_KERNEL_RBF;
    rbf.gamma = gamma;
    return kmx::train_svm_model(ctx, options, rbf, data);
}

}  // namespace predict_test
