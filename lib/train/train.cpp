#include "train.h"

#include <string>

#include "core/context.h"
#include "core/dataset.h"
#include "core/error.h"
#include "core/params.h"
#include "core/row_shards.h"
#include "krr/train_krr.h"
#include "nystrom_tron/nystrom_tron.h"
#include "svm/multiclass.h"
#include "svm/one_class.h"
#include "svm/svr.h"

namespace kmx {

namespace {

// Probability estimates (probability=1) are the SVM classifiers' only.
void check_probability_option(const TrainOptions &options) {
    if (!options.probability || options.method <= KMX_METHOD_BKA) return;
    fail(KMX_E_INVALID_ARGUMENT,
         "parameter probability = 1 is for the SVM classifiers (svm, dcsvm, dcsvm_early, bka); method %s has no "
         "probability estimates",
         param_value_name(*find_param(KMX_PARAM_METHOD), options.method));
}

// The KRR methods minimise an unweighted squared loss: a dataset's sample
// weights would be ignored, so they are refused (unless every one is 1).
void check_weights_are_used(const TrainOptions &options, const Dataset &data) {
    if (!data.w || options.method < KMX_METHOD_KRR || options.method > KMX_METHOD_FALKON) return;
    for (int64_t i = 0; i < data.n; ++i)
        if (data.w[i] != 1.0)
            fail(KMX_E_INVALID_ARGUMENT,
                 "method %s does not use sample weights, and the data has them (weight[%lld] = %g): the SVM methods "
                 "and nystrom_tron do; train without them",
                 param_value_name(*find_param(KMX_PARAM_METHOD), options.method), (long long)i, data.w[i]);
}

// The caller's kernels (precomputed, callback) give kernel values only: the
// dual solver's methods take them; a precomputed one's rows are checked.
void check_kernel_for_method(const TrainOptions &options, const KernelSpec &kernel, const Dataset &data) {
    const kmx_method method = options.method;
    if (method != KMX_METHOD_SVM && method != KMX_METHOD_SVR && method != KMX_METHOD_ONE_CLASS) {
        const std::string name = std::string("method ") + param_value_name(*find_param(KMX_PARAM_METHOD), method);
        require_feature_kernel(kernel, name.c_str());
    }
    if (kernel.type == KMX_KERNEL_PRECOMPUTED) check_precomputed_training(data);
}

}  // namespace

Model train(Context &ctx, const TrainOptions &options, const KernelSpec &kernel, const Dataset &data,
            SvmWarmStart *warm, KrrPathCache *krr_path) {
    check_probability_option(options);
    check_weights_are_used(options, data);
    check_kernel_for_method(options, kernel, data);
    if (options.method == KMX_METHOD_NYSTROM_TRON) {
        // LIBSVM shards know only their own largest column: across ranks,
        // every rank's rows get the widest rank's columns first.
        std::unique_ptr<Dataset> widened;
        if (ctx.comm.distributed()) {
            const int64_t columns = agree_row_shards(ctx.comm, data).columns;
            run_agreed(ctx.comm, [&] { widened = widen_columns(ctx, data, columns); });
        }
        return train_nystrom_tron_model(ctx, options, kernel, widened ? *widened : data);
    }
    if (options.method >= KMX_METHOD_KRR && options.method <= KMX_METHOD_FALKON)
        return train_krr_model(ctx, options, kernel, data, krr_path);
    if (ctx.comm.distributed())
        fail(KMX_E_UNSUPPORTED, "the SVM methods run in one process only; across %d ranks use falkon or nystrom-tron",
             ctx.comm.size());
    if (options.method == KMX_METHOD_SVR) return train_svr_model(ctx, options, kernel, data);
    if (options.method == KMX_METHOD_ONE_CLASS) return train_one_class_model(ctx, options, kernel, data);
    return train_svm_model(ctx, options, kernel, data, warm);
}

}  // namespace kmx
