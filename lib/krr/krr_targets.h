// krr_targets.h — the target matrix a kernel ridge regression fits, from a
// dataset's labels, and labels back from the fitted outputs.
//
//   regression          one column: y itself
//   classification, 2   one column: +1 for the larger label, −1 for the other
//   classification, c>2 c columns, one-vs-rest: +1 in the row's class, −1 elsewhere
//
// Prediction: regression returns output 0; two classes return the larger
// label when output 0 > 0; c classes return the class of the largest output
// (ties to the lowest class index).
#pragma once
#include <cstdint>
#include <vector>

namespace kmx {

enum class KrrTask { regression, classification };

struct KrrTargets {
    KrrTask task = KrrTask::regression;
    std::vector<double> classes;  // classification: distinct labels, increasing
    int64_t outputs = 1;
    std::vector<double> y;  // n x outputs row-major
};

// Fails with KMX_E_INVALID_ARGUMENT for non-finite labels, and for
// classification with fewer than 2 classes.
KrrTargets krr_targets(const double *labels, int64_t n, KrrTask task);
// The same with the classes given (classification: every distinct label of
// all ranks, increasing, which include labels[0..n)); n may be 0 (a rank with
// no rows) and the labels must be finite.
KrrTargets krr_targets(const double *labels, int64_t n, KrrTask task, const std::vector<double> &classes);

// The label that one row of outputs (`outputs` values) predicts.
double krr_label(const KrrTargets &targets, const double *outputs);

}  // namespace kmx
