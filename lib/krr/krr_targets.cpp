// krr_targets.cpp — labels to KRR target columns and outputs back to labels.
#include "krr_targets.h"

#include <algorithm>
#include <cmath>

#include "core/error.h"

namespace kmx {

namespace {

std::vector<double> distinct_sorted(const double *labels, int64_t n) {
    std::vector<double> classes(labels, labels + n);
    std::sort(classes.begin(), classes.end());
    classes.erase(std::unique(classes.begin(), classes.end()), classes.end());
    return classes;
}

int64_t class_index(const std::vector<double> &classes, double label) {
    return int64_t(std::lower_bound(classes.begin(), classes.end(), label) - classes.begin());
}

}  // namespace

KrrTargets krr_targets(const double *labels, int64_t n, KrrTask task) {
    require(labels != nullptr && n > 0, "KRR needs labels or targets for at least one row");
    for (int64_t i = 0; i < n; ++i)
        if (!std::isfinite(labels[i])) fail(KMX_E_INVALID_ARGUMENT, "label/target %lld is not finite", (long long)i);
    return krr_targets(labels, n, task,
                       task == KrrTask::classification ? distinct_sorted(labels, n) : std::vector<double>());
}

KrrTargets krr_targets(const double *labels, int64_t n, KrrTask task, const std::vector<double> &classes) {
    KrrTargets targets;
    targets.task = task;
    if (task == KrrTask::regression) {
        targets.y.assign(labels, labels + n);
        return targets;
    }
    targets.classes = classes;
    const int64_t c = int64_t(targets.classes.size());
    if (c < 2)
        fail(KMX_E_INVALID_ARGUMENT, "classification needs at least 2 classes, the labels hold %lld", (long long)c);
    targets.outputs = c == 2 ? 1 : c;
    targets.y.assign(size_t(n * targets.outputs), -1.0);
    for (int64_t i = 0; i < n; ++i) {
        const int64_t k = class_index(targets.classes, labels[i]);
        if (c == 2)
            targets.y[size_t(i)] = k == 1 ? 1.0 : -1.0;
        else
            targets.y[size_t(i * c + k)] = 1.0;
    }
    return targets;
}

double krr_label(const KrrTargets &targets, const double *outputs) {
    if (targets.task == KrrTask::regression) return outputs[0];
    if (targets.outputs == 1) return outputs[0] > 0 ? targets.classes[1] : targets.classes[0];
    int64_t best = 0;
    for (int64_t k = 1; k < targets.outputs; ++k)
        if (outputs[k] > outputs[best]) best = k;
    return targets.classes[size_t(best)];
}

}  // namespace kmx
