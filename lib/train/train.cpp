#include "train.h"

#include "core/context.h"
#include "core/error.h"
#include "krr/train_krr.h"
#include "svm/multiclass.h"

namespace kmx {

Model train(Context &ctx, const TrainOptions &options, const KernelSpec &kernel, const Dataset &data) {
    if (options.method >= KMX_METHOD_KRR) return train_krr_model(ctx, options, kernel, data);
    if (ctx.comm.distributed())
        fail(KMX_E_UNSUPPORTED, "the SVM methods run in one process only; across %d ranks use falkon", ctx.comm.size());
    return train_svm_model(ctx, options, kernel, data);
}

}  // namespace kmx
