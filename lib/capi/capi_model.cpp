// kmx_model: information, prediction, saving and loading.
#include <cstring>
#include <string>

#include "firewall.h"
#include "handles.h"
#include "model/model_file.h"
#include "svm/probability_prediction.h"

namespace kmx::capi {

namespace {

double info_value(const Model &m, kmx_model_info_key key) {
    switch (key) {
        case KMX_INFO_METHOD:
            return m.method;
        case KMX_INFO_CLASSES:
            return double(m.classes.size());
        case KMX_INFO_COLUMNS:
            return double(m.d);
        case KMX_INFO_SUPPORT_VECTORS:
            return double(m.support_vectors);
        case KMX_INFO_DECISION_VALUES:
            return double(m.decision_values());
        case KMX_INFO_OBJECTIVE:
            return m.stats.objective;
        case KMX_INFO_KKT_VIOLATION:
            return m.stats.kkt_violation;
        case KMX_INFO_ITERATIONS:
            return double(m.stats.iterations);
        case KMX_INFO_TRAIN_SECONDS:
            return m.stats.seconds;
        case KMX_INFO_BIAS:
            return m.has_bias ? 1 : 0;
        case KMX_INFO_MULTICLASS:
            return m.multiclass;
        case KMX_INFO_TASK:
            return m.regression() ? KMX_TASK_REGRESSION : KMX_TASK_CLASSIFICATION;
        case KMX_INFO_LAMBDA:
            return m.lambda;
        case KMX_INFO_C:
            return m.C;
        case KMX_INFO_MEMORY_BYTES:
            return double(m.memory_bytes());
        case KMX_INFO_NU:
            return m.nu;
        case KMX_INFO_PROBABILITY:
            return m.probabilities() ? 1 : 0;
        case KMX_INFO_KERNEL:
            return m.kernel.type;
        default:
            fail(KMX_E_INVALID_ARGUMENT, "unknown model information key %d", int(key));
    }
}

// n x decision values, the length kmx_model_decision_values needs.
int64_t decision_values_length(const Dataset &ds, const Model &m) {
    return checked_product(ds.n, m.decision_values(), "rows x decision values");
}

}  // namespace

const Model &model_of(const kmx_model *model, const char *name) {
    require_pointer(model, name);
    return model->impl;
}

}  // namespace kmx::capi

using namespace kmx::capi;

extern "C" {

KMX_API void kmx_model_free(kmx_model *model) { delete model; }

KMX_API kmx_status kmx_model_info(double *out, const kmx_model *model, kmx_model_info_key key) {
    return KMX_GUARDED({
        require_pointer(out, "out");
        *out = info_value(model_of(model, "model"), key);
    });
}

KMX_API kmx_status kmx_model_classes(double *out, int64_t out_len, const kmx_model *model) {
    return KMX_GUARDED({
        const kmx::Model &m = model_of(model, "model");
        if (!m.classes.empty()) require_pointer(out, "out");  // a regression model has none to copy
        require_length(out_len, int64_t(m.classes.size()), "out");
        std::copy(m.classes.begin(), m.classes.end(), out);
    });
}

KMX_API kmx_status kmx_model_set_class_names(kmx_model *model, const char *names) {
    return KMX_GUARDED({
        require_pointer(model, "model");
        std::vector<std::string> given;
        for (const char *line = names; line && *line;) {
            const char *end = std::strchr(line, '\n');
            given.emplace_back(line, end ? size_t(end - line) : std::strlen(line));
            line = end ? end + 1 : nullptr;
        }
        const char *problem = given.empty() ? nullptr : kmx::class_names_problem(given, model->impl.classes.size());
        if (problem)
            kmx::fail(KMX_E_INVALID_ARGUMENT, "kmx_model_set_class_names: %s (%zu names for %zu classes)", problem,
                      given.size(), model->impl.classes.size());
        model->impl.class_names = std::move(given);
    });
}

KMX_API kmx_status kmx_model_class_names(void *out, int64_t out_len, int64_t *out_size, const kmx_model *model) {
    return KMX_GUARDED({
        require_pointer(out_size, "out_size");
        std::string joined;
        for (const std::string &name : model_of(model, "model").class_names)
            joined += (joined.empty() ? "" : "\n") + name;
        *out_size = int64_t(joined.size() + 1);
        if (!out) return;
        require_length(out_len, *out_size, "out");
        std::memcpy(out, joined.c_str(), joined.size() + 1);
    });
}

KMX_API kmx_status kmx_model_predict(double *out, int64_t out_len, kmx_context *ctx, const kmx_model *model,
                                     const kmx_dataset *data) {
    return KMX_GUARDED({
        require_pointer(out, "out");
        const kmx::Model &m = model_of(model, "model");
        const kmx::Dataset &ds = dataset_of(data, "data");
        require_length(out_len, ds.n, "out");
        CallContext call(ctx);
        kmx::model_predict(*call, m, ds, out);
    });
}

KMX_API kmx_status kmx_model_decision_values(double *out, int64_t out_len, kmx_context *ctx, const kmx_model *model,
                                             const kmx_dataset *data) {
    return KMX_GUARDED({
        require_pointer(out, "out");
        const kmx::Model &m = model_of(model, "model");
        const kmx::Dataset &ds = dataset_of(data, "data");
        require_length(out_len, decision_values_length(ds, m), "out");
        CallContext call(ctx);
        kmx::model_decision_values(*call, m, ds, out);
    });
}

KMX_API kmx_status kmx_model_predict_probability(double *out, int64_t out_len, kmx_context *ctx, const kmx_model *model,
                                                 const kmx_dataset *data) {
    return KMX_GUARDED({
        const kmx::Model &m = model_of(model, "model");
        const kmx::Dataset &ds = dataset_of(data, "data");
        kmx::check_probability_model(m);  // before out: a regression model's probabilities have no length
        require_pointer(out, "out");
        require_length(out_len, checked_product(ds.n, int64_t(m.classes.size()), "rows x classes"), "out");
        CallContext call(ctx);
        kmx::model_probabilities(*call, m, ds, out);
    });
}

KMX_API kmx_status kmx_model_save(const kmx_model *model, const char *path) {
    return KMX_GUARDED({
        const kmx::Model &m = model_of(model, "model");
        require_pointer(path, "path");
        kmx::save_model_file(m, path);
    });
}

KMX_API kmx_status kmx_model_load(kmx_model **out, const char *path) {
    return KMX_GUARDED({
        require_pointer(out, "out");
        *out = nullptr;
        require_pointer(path, "path");
        kmx_model *model = new kmx_model{kmx::load_model_file(path)};
        *out = model;
    });
}

KMX_API kmx_status kmx_model_save_to_buffer(void *out, int64_t out_len, int64_t *out_size, const kmx_model *model) {
    return KMX_GUARDED({
        require_pointer(out_size, "out_size");
        const kmx::Model &m = model_of(model, "model");
        const std::vector<unsigned char> bytes = kmx::model_to_bytes(m);
        *out_size = int64_t(bytes.size());
        if (!out) return;
        require_length(out_len, int64_t(bytes.size()), "out");
        std::copy(bytes.begin(), bytes.end(), static_cast<unsigned char *>(out));
    });
}

KMX_API kmx_status kmx_model_load_from_buffer(kmx_model **out, const void *buffer, int64_t buffer_len) {
    return KMX_GUARDED({
        require_pointer(out, "out");
        *out = nullptr;
        require_pointer(buffer, "buffer");
        if (buffer_len < 0) kmx::fail(KMX_E_INVALID_ARGUMENT, "buffer_len = %lld is negative", (long long)buffer_len);
        kmx_model *model = new kmx_model{
            kmx::model_from_bytes(static_cast<const unsigned char *>(buffer), size_t(buffer_len), "model buffer")};
        *out = model;
    });
}

}  // extern "C"
