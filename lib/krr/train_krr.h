// train_krr.h — training the kernel ridge regression methods into a Model:
// exact KRR, Nyström KRR, MEKA KRR and FALKON, for regression or (one-vs-rest
// on ±1 targets) classification.
#pragma once
#include "kernel/kernel.h"
#include "krr_targets.h"
#include "model/model.h"
#include "model/train_options.h"

namespace kmx {

class Context;
class Dataset;

// KMX_TASK_AUTO resolved: regression when a label is not a whole number or
// there are more than kAutoTaskMaxClasses distinct labels, else classification.
constexpr int64_t kAutoTaskMaxClasses = 256;
KrrTask resolve_task(kmx_task task, const double *labels, int64_t n);

class KrrPathCache;

// Trains options.method (one of the KRR methods) on labelled data. With
// `path` (may be null): the parts of the fit that do not depend on lambda
// are taken from it when it holds them for these data and options, and left
// there for the path's next lambda (krr_path_cache.h).
Model train_krr_model(Context &ctx, const TrainOptions &options, const KernelSpec &kernel, const Dataset &data,
                      KrrPathCache *path = nullptr);

}  // namespace kmx
