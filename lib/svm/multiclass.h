// multiclass.h — training a Model: the binary problems of a multiclass
// dataset (one-vs-one in LIBSVM's order, or one-vs-rest), each solved by the
// dual SVM solver or DC-SVM, collected into one model with shared support
// vectors.
#pragma once
#include <cstdint>
#include <vector>

#include "kernel/kernel.h"
#include "kmx/kmx.h"
#include "model/model.h"
#include "model/train_options.h"

namespace kmx {

class Context;
class Dataset;

// Trains an SVM model on data (labels required, at least two classes).
// Sample weights, if any, multiply C per row. (krr/train_krr.h trains the KRR
// methods; train/train.h picks.)
Model train_svm_model(Context &ctx, const TrainOptions &options, const KernelSpec &kernel, const Dataset &data);

}  // namespace kmx
