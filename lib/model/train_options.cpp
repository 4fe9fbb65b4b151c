#include "train_options.h"

namespace kmx {

bool TrainOptions::uses_bias() const {
    if (bias == KMX_BIAS_AUTO) return method == KMX_METHOD_SVM || method == KMX_METHOD_SVR;
    return bias == KMX_BIAS_ON;
}

double TrainOptions::class_weight(double label) const {
    double weight = 1;
    for (const auto &entry : class_weights)
        if (entry.first == label) weight = entry.second;
    return weight;
}

}  // namespace kmx
