// train_options.h — what a training call is asked to do: the method and the
// parameters of every method (the SVM family's and the KRR family's), as the
// C API's kmx_params resolves them.
#pragma once
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "kmx/kmx.h"

namespace kmx {

struct TrainOptions {
    kmx_method method = KMX_METHOD_DCSVM;
    double C = 1;
    double eps = 1e-3;
    kmx_bias bias = KMX_BIAS_AUTO;
    bool shrinking = true;
    size_t cache_bytes = 0;  // 0 = auto
    kmx_multiclass multiclass = KMX_MULTICLASS_OVO;
    int levels = 8;  // at most: DC-SVM starts where clusters keep ~1000 rows (level 4 at 1M rows, 6 at 10M, k = 4)
    int clusters_per_level = 4;
    int early_level = 0;  // 0: dcsvm_early chooses it from the data, bka takes 3
    int64_t sample_size = 1000;
    std::vector<std::pair<double, double>> class_weights;  // (label, weight): C multiplier per class
    // The SVM classifiers: fit Platt sigmoids by internal 5-fold cross-validation (LIBSVM's -b 1).
    bool probability = false;
    // Kernel ridge regression methods (train_krr.h).
    kmx_task task = KMX_TASK_AUTO;
    double lambda = 1e-6;
    int64_t centers = 0;  // 0 = auto
    kmx_center_method center_method = KMX_CENTERS_UNIFORM;
    int iterations = 20;
    double tolerance = 1e-7;
    double validation = 0;
    // FALKON: K_nM's blocks in float32 (FalkonOptions::kernel_float32).
    bool kernel_float32 = false;
    // FALKON: binned sums in one process too (FalkonOptions::reproducible_sums).
    bool reproducible = false;
    int64_t rank = 0;      // 0 = auto (MEKA) / no truncation (Nyström)
    int64_t clusters = 0;  // 0 = auto
    double threshold = 1e-3;
    double oversampling = 2;
    bool rank_by_size = false;
    // Nyström-TRON (lib/nystrom_tron); with C, eps, task, centers, center_method, cache_bytes.
    kmx_loss loss = KMX_LOSS_AUTO;
    int stages = 1;
    int newton_iterations = 100;
    bool precondition = true;
    // ε-SVR (svm/svr.h); with C, eps, bias, shrinking, cache_bytes.
    double epsilon_svr = 0.1;
    bool svr_dcsvm = false;  // DC-SVM instead of the dual solver alone (svr.h)
    // Cross-validation (train/cross_validation.h) on LIBSVM's folds (train/libsvm_folds.h).
    bool libsvm_folds = false;
    // one-class SVM (svm/one_class.h); with eps, shrinking, cache_bytes.
    double nu = 0.5;

    bool uses_bias() const;
    double class_weight(double label) const;
};

}  // namespace kmx
