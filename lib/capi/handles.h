// handles.h — what the opaque C handles hold. Only lib/capi sees these.
#pragma once
#include <memory>

#include "approx/approximation.h"
#include "core/context.h"
#include "core/dataset.h"
#include "kernel/kernel.h"
#include "model/model.h"
#include "model/train_options.h"

struct kmx_context {
    kmx::Context impl;
};

struct kmx_dataset {
    std::unique_ptr<kmx::Dataset> impl;
};

struct kmx_kernel {
    kmx::KernelSpec spec;
};

struct kmx_solver {
    kmx::TrainOptions options;
};

// Immutable after creation.
struct kmx_approx {
    std::unique_ptr<kmx::KernelApproximation> impl;
};

// Immutable after creation: predicting only reads it.
struct kmx_model {
    kmx::Model impl;
};

namespace kmx::capi {

// The internals behind a handle, after a NULL check naming the argument.
const Dataset &dataset_of(const kmx_dataset *ds, const char *name);
const KernelSpec &kernel_of(const kmx_kernel *kernel, const char *name);
const Model &model_of(const kmx_model *model, const char *name);
// Throws unless [begin, end) is a non-empty range of the dataset's rows.
void require_row_range(const Dataset &ds, int64_t begin, int64_t end, const char *name);

}  // namespace kmx::capi
