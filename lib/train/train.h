// train.h — the one entry point of training: options.method picks the
// family (svm/multiclass.h for the SVM methods, svm/svr.h for ε-SVR,
// svm/one_class.h for the one-class SVM,
// krr/train_krr.h for the kernel ridge regression methods).
#pragma once
#include "kernel/kernel.h"
#include "model/model.h"
#include "model/train_options.h"

namespace kmx {

class Context;
class Dataset;

struct SvmWarmStart;
class KrrPathCache;

// Trains options.method on labelled data into a Model. `warm` (may be null):
// see train_svm_model; only the methods svm and dcsvm use it. `krr_path`
// (may be null): see train_krr_model; only the KRR methods use it.
Model train(Context &ctx, const TrainOptions &options, const KernelSpec &kernel, const Dataset &data,
            SvmWarmStart *warm = nullptr, KrrPathCache *krr_path = nullptr);

}  // namespace kmx
