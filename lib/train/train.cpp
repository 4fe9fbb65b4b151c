#include "train.h"

#include "krr/train_krr.h"
#include "nystrom_tron/nystrom_tron.h"
#include "svm/multiclass.h"

namespace kmx {

Model train(Context &ctx, const TrainOptions &options, const KernelSpec &kernel, const Dataset &data) {
    if (options.method == KMX_METHOD_NYSTROM_TRON) return train_nystrom_tron_model(ctx, options, kernel, data);
    if (options.method >= KMX_METHOD_KRR) return train_krr_model(ctx, options, kernel, data);
    return train_svm_model(ctx, options, kernel, data);
}

}  // namespace kmx
