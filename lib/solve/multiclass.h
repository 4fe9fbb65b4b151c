// multiclass.h — training a Model: the binary problems of a multiclass
// dataset (one-vs-one in LIBSVM's order, or one-vs-rest), each solved by the
// dual SVM solver or DC-SVM, collected into one model with shared support
// vectors.
#pragma once
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "kernel/kernel.h"
#include "kmx/kmx.h"
#include "model.h"

namespace kmx {

class Context;
class Dataset;

struct TrainOptions {
    kmx_method method = KMX_METHOD_DCSVM;
    double C = 1;
    double eps = 1e-3;
    kmx_bias bias = KMX_BIAS_AUTO;
    bool shrinking = true;
    size_t cache_bytes = 0;  // 0 = auto
    kmx_multiclass multiclass = KMX_MULTICLASS_OVO;
    int levels = 4;
    int clusters_per_level = 4;
    int early_level = 3;
    int64_t sample_size = 1000;
    std::vector<std::pair<double, double>> class_weights;  // (label, weight): C multiplier per class

    bool uses_bias() const;
    double class_weight(double label) const;
};

// Trains a model on data (labels required, at least two classes). Sample
// weights, if any, multiply C per row.
Model train_model(Context &ctx, const TrainOptions &options, const KernelSpec &kernel, const Dataset &data);

}  // namespace kmx
