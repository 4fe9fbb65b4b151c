// kmx_predictor: compact (DC-Pred++) predictors through the C ABI — built from
// a model, saved and loaded as the blob the inference subset reads in place.
#include <kmx/kmx_infer.h>

#include <algorithm>
#include <cmath>

#include "core/params.h"
#include "firewall.h"
#include "handles.h"
#include "io/binary_file.h"
#include "predict/c_export.h"
#include "predict/compact_predict.h"
#include "predict/compress_to_budget.h"
#include "predict/dcpred.h"
#include "predict/predictor_blob.h"
#include "predict/no_larger_than_model.h"
#include "predict/predictor_from_expansion.h"
#include "predict/predictor_storage.h"
#include "predict/predictor_notes.h"
#include "krr/expansion_model.h"
#include "svm/probability_prediction.h"

// Immutable after creation: the predictor, its blob, the arena it needs, and
// how a budget search chose it (has_notes: built to a budget); its row
// predictor, made on the first call that predicts rows one at a time, kept
// for the next (a call of one row then costs about what the row does).
struct kmx_predictor {
    kmx::CompactPredictor impl;
    std::vector<unsigned char> blob;
    size_t arena_bytes = 0;
    bool has_notes = false;
    kmx::PredictorNotes notes;
    kmx::PreparedRows rows{impl};
};

namespace kmx::capi {

namespace {

// storage=..., or float32=1 (its older spelling of storage=float32); both
// given must agree.
PredictorStorage storage(const ParamList &list) {
    const double chosen = list.get(KMX_PARAM_STORAGE, NAN);
    const bool float32 = list.get_or_default(KMX_PARAM_FLOAT32) != 0;
    if (std::isnan(chosen)) return float32 ? PredictorStorage::float32 : PredictorStorage::float64;
    if (float32 && chosen != KMX_STORAGE_FLOAT32)
        fail(KMX_E_INVALID_ARGUMENT, "float32=1 means storage=float32, but storage=%s was given",
             kmx_param_value_name(KMX_PARAM_STORAGE, chosen));
    return PredictorStorage(int(chosen));
}

DcpredOptions dcpred_options(const ParamList &list, const Model &model) {
    DcpredOptions o;
    o.leaves = int64_t(list.get_or_default(KMX_PARAM_LEAVES));
    o.landmarks = int64_t(list.get_or_default(KMX_PARAM_LANDMARKS));
    o.pseudo = int64_t(list.get_or_default(KMX_PARAM_PSEUDO));
    o.storage = storage(list);
    o.C = model.C;
    return o;
}

// A predictor and its blob (with notes when a budget search chose it).
struct Built {
    CompactPredictor predictor;
    std::vector<unsigned char> blob;
};

PredictorBudget budget_of(const ParamList &list) {
    return {list.get_or_default(KMX_PARAM_MAX_BYTES), list.get_or_default(KMX_PARAM_MAX_US)};
}

bool given(const ParamList &list, kmx_param param) { return !std::isnan(list.get(param, NAN)); }

// SVM models: to a budget, else never larger than the model unless the
// landmarks are given, else exactly as asked.
Built build_svm(Context &ctx, const Model &model, const Dataset &train, const ParamList &list) {
    const DcpredOptions options = dcpred_options(list, model);
    const PredictorBudget budget = budget_of(list);
    if (budget.max_bytes > 0 || budget.max_us > 0) {
        BudgetSearch search = compress_to_budget(ctx, model, train, options, budget);
        return {std::move(search.predictor), std::move(search.blob)};
    }
    CompactPredictor predictor =
        given(list, KMX_PARAM_LANDMARKS)
            ? build_dcpred(ctx, model, train, options)
            : build_no_larger_than_model(ctx, model, train, options,
                                         given(list, KMX_PARAM_FLOAT32) || given(list, KMX_PARAM_STORAGE));
    std::vector<unsigned char> blob = write_predictor_blob(predictor);
    return {std::move(predictor), std::move(blob)};
}

// What a compact predictor's landmarks cost when the model's points are
// sparse (wide sparse data): a predictor holds dense landmarks of d values
// each, so it is refused before work unless the model's points fit densely.
constexpr const char *kDenseLandmarks =
    "a compact predictor's landmarks (dense, d values each: the model's support vectors are sparse rows)";

Built build(Context &ctx, const Model &model, const Dataset &train, const char *params) {
    const ParamList list = kmx::ParamList(params, kmx::kPredictorParams);
    if (model.sparse_points())
        ctx.check_budget(size_t(model.n_points) * size_t(model.d) * sizeof(double), kDenseLandmarks);
    // A one-class model's training rows carry no classes for DC-Pred++'s
    // per-leaf C-SVC to learn from: it keeps its support vectors, as SVR's.
    if (!model.krr() && !model.svr() && !model.one_class()) return build_svm(ctx, model, train, list);
    for (const kmx_param tree_param :
         {KMX_PARAM_LEAVES, KMX_PARAM_LANDMARKS, KMX_PARAM_PSEUDO, KMX_PARAM_MAX_BYTES, KMX_PARAM_MAX_US})
        if (given(list, tree_param))
            fail(KMX_E_INVALID_ARGUMENT,
                 "parameter %s applies to SVM classifiers; a kernel ridge regression, SVR or one-class SVM model's "
                 "predictor keeps the model's own centers (support vectors)",
                 find_param(tree_param)->name);
    if (model.n_points == 0)
        fail(KMX_E_INVALID_ARGUMENT,
             "the model has no support vectors (every training row lies inside the epsilon tube): it predicts the "
             "constant %g everywhere, with nothing to compress",
             model.machines.empty() ? 0.0 : model.machines[0].bias);
    const PredictorTask task = model.regression() ? PredictorTask::regression : PredictorTask::classification;
    CenterExpansion expansion = expansion_from_model(model);
    if (expansion.sparse_centers.sparse()) {
        expansion.centers = model.dense_points(ctx, kDenseLandmarks);
        expansion.sparse_centers = {};
    }
    CompactPredictor predictor =
        predictor_from_expansion(std::move(expansion), task, model.classes, KMX_MULTICLASS_OVR, storage(list));
    std::vector<unsigned char> blob = write_predictor_blob(predictor);
    return {std::move(predictor), std::move(blob)};
}

// The handle for a predictor: its blob written once, the inference arena it needs.
kmx_predictor *adopt(CompactPredictor predictor, std::vector<unsigned char> blob) {
    int64_t arena = 0;
    const kmx_infer_status status = kmx_infer_required_bytes(&arena, blob.data(), int64_t(blob.size()));
    if (status != KMX_INFER_OK)
        fail(KMX_E_INTERNAL, "the inference subset rejects a predictor blob: %s", kmx_infer_status_name(status));
    kmx_predictor *handle = new kmx_predictor{std::move(predictor), std::move(blob), size_t(arena), false, {}};
    handle->has_notes = find_predictor_notes(handle->blob.data(), handle->blob.size(), handle->notes);
    return handle;
}

// A value of the budget search's notes; NaN when the predictor was not built to a budget.
double note_value(const kmx_predictor &h, double value) { return h.has_notes ? value : NAN; }

const kmx_predictor &predictor_of(const kmx_predictor *predictor) {
    require_pointer(predictor, "predictor");
    return *predictor;
}

int64_t leaf_sum(const CompactPredictor &p, int64_t (*count)(const PredictorLeaf &)) {
    int64_t sum = 0;
    for (const PredictorLeaf &leaf : p.leaves) sum += count(leaf);
    return sum;
}

double info_value(const kmx_predictor &h, kmx_predictor_info_key key) {
    const CompactPredictor &p = h.impl;
    switch (key) {
        case KMX_PREDICTOR_BYTES:
            return double(h.blob.size());
        case KMX_PREDICTOR_LEAVES:
            return double(p.leaves.size());
        case KMX_PREDICTOR_LANDMARKS:
            return double(leaf_sum(p, [](const PredictorLeaf &l) { return l.m; }));
        case KMX_PREDICTOR_PSEUDO:
            return double(leaf_sum(p, [](const PredictorLeaf &l) { return l.triangle + l.products; }));
        case KMX_PREDICTOR_ARENA_BYTES:
            return double(h.arena_bytes);
        case KMX_PREDICTOR_COLUMNS:
            return double(p.d);
        case KMX_PREDICTOR_CLASSES:
            return double(p.classes.size());
        case KMX_PREDICTOR_OUTPUTS:
            return double(p.outputs);
        case KMX_PREDICTOR_FLOAT32:
            return stores_float(p.storage) ? 1 : 0;
        case KMX_PREDICTOR_STORAGE:
            return double(p.storage);
        case KMX_PREDICTOR_VALIDATION_ACCURACY:
            return note_value(h, h.notes.validation_accuracy);
        case KMX_PREDICTOR_VALIDATION_US:
            return note_value(h, h.notes.validation_us);
        case KMX_PREDICTOR_LANDMARKS_PER_LEAF:
            return note_value(h, double(h.notes.landmarks));
        case KMX_PREDICTOR_CANDIDATES:
            return note_value(h, double(h.notes.candidates));
        case KMX_PREDICTOR_PROBABILITY:
            return p.probabilities() ? 1 : 0;
        case KMX_PREDICTOR_VALIDATION_IN_SAMPLE:
            return h.notes.in_sample < 0 ? NAN : note_value(h, double(h.notes.in_sample));
        default:
            fail(KMX_E_INVALID_ARGUMENT, "unknown predictor information key %d", int(key));
    }
}

// Outputs (n x outputs) or labels (n) of every row: labels alone need no
// n x outputs array, only compact_predict's block.
void predict_rows(kmx_context *ctx, const kmx_predictor &h, const Dataset &ds, double *outputs, double *labels) {
    CallContext call(ctx);
    compact_predict(*call, h.impl, ds, outputs, labels, CompactPredictPath::automatic, &h.rows);
}

void check_probability_predictor(const kmx_predictor &h) {
    if (!h.impl.probabilities())
        fail(KMX_E_INVALID_ARGUMENT,
             "the predictor carries no probability estimates: build it from a classifier trained with probability=1 "
             "(kmx train -b 1)");
}

// n x classes probabilities: the decision values of a block of rows at a
// time, then the model's sigmoids and coupling (probabilities_from_outputs).
void predict_probabilities(kmx_context *ctx, const kmx_predictor &h, const Dataset &ds, double *out) {
    CallContext call(ctx);
    const CompactPredictor &p = h.impl;
    const int64_t k = int64_t(p.classes.size()), block = std::clamp<int64_t>(ds.n, 1, 1024);
    call->check_budget(size_t(block * p.outputs) * sizeof(double), "a block of decision values");
    std::vector<double> values(size_t(block * p.outputs));
    for (int64_t begin = 0; begin < ds.n; begin += block) {
        const int64_t end = std::min(ds.n, begin + block);
        compact_predict(*call, p, ds.row_range(begin, end), values.data(), nullptr, CompactPredictPath::automatic,
                        &h.rows);
        probabilities_from_outputs(k, p.multiclass == KMX_MULTICLASS_OVR, p.sigmoids, values.data(), end - begin,
                                   out + begin * k);
    }
}

kmx_predictor *load(const unsigned char *bytes, size_t len) {
    CompactPredictor predictor = read_predictor_blob(bytes, len);
    return adopt(std::move(predictor), std::vector<unsigned char>(bytes, bytes + len));
}

}  // namespace

}  // namespace kmx::capi

using namespace kmx::capi;

extern "C" {

KMX_API kmx_status kmx_predictor_build(kmx_predictor **out, kmx_context *ctx, const kmx_model *model,
                                       const kmx_dataset *train, const char *params) {
    return KMX_GUARDED({
        require_pointer(out, "out");
        *out = nullptr;
        const kmx::Model &m = model_of(model, "model");
        kmx::require_feature_kernel(m.kernel, "a compact predictor (DC-Pred++)");
        const kmx::Dataset &ds = dataset_of(train, "train");
        CallContext call(ctx);
        Built built = build(*call, m, ds, params);
        *out = adopt(std::move(built.predictor), std::move(built.blob));
    });
}

KMX_API void kmx_predictor_free(kmx_predictor *predictor) { delete predictor; }

KMX_API kmx_status kmx_predictor_info(double *out, const kmx_predictor *predictor, kmx_predictor_info_key key) {
    return KMX_GUARDED({
        require_pointer(out, "out");
        *out = info_value(predictor_of(predictor), key);
    });
}

KMX_API kmx_status kmx_predictor_classes(double *out, int64_t out_len, const kmx_predictor *predictor) {
    return KMX_GUARDED({
        const std::vector<double> &classes = predictor_of(predictor).impl.classes;
        if (!classes.empty()) require_pointer(out, "out");  // a regression predictor has none to copy
        require_length(out_len, int64_t(classes.size()), "out");
        std::copy(classes.begin(), classes.end(), out);
    });
}

KMX_API kmx_status kmx_predictor_predict(double *out, int64_t out_len, kmx_context *ctx, const kmx_predictor *predictor,
                                         const kmx_dataset *data) {
    return KMX_GUARDED({
        require_pointer(out, "out");
        const kmx_predictor &h = predictor_of(predictor);
        const kmx::Dataset &ds = dataset_of(data, "data");
        require_length(out_len, ds.n, "out");
        predict_rows(ctx, h, ds, nullptr, out);
    });
}

KMX_API kmx_status kmx_predictor_decision_values(double *out, int64_t out_len, kmx_context *ctx,
                                                 const kmx_predictor *predictor, const kmx_dataset *data) {
    return KMX_GUARDED({
        require_pointer(out, "out");
        const kmx_predictor &h = predictor_of(predictor);
        const kmx::Dataset &ds = dataset_of(data, "data");
        require_length(out_len, checked_product(ds.n, h.impl.outputs, "rows x outputs"), "out");
        predict_rows(ctx, h, ds, out, nullptr);
    });
}

KMX_API kmx_status kmx_predictor_predict_probability(double *out, int64_t out_len, kmx_context *ctx,
                                                     const kmx_predictor *predictor, const kmx_dataset *data) {
    return KMX_GUARDED({
        const kmx_predictor &h = predictor_of(predictor);
        const kmx::Dataset &ds = dataset_of(data, "data");
        check_probability_predictor(h);  // before out: a regression predictor's probabilities have no length
        require_pointer(out, "out");
        require_length(out_len, checked_product(ds.n, int64_t(h.impl.classes.size()), "rows x classes"), "out");
        predict_probabilities(ctx, h, ds, out);
    });
}

KMX_API kmx_status kmx_predictor_save(const kmx_predictor *predictor, const char *path) {
    return KMX_GUARDED({
        const kmx_predictor &h = predictor_of(predictor);
        require_pointer(path, "path");
        kmx::write_binary_file_atomically(path, h.blob.data(), h.blob.size());
    });
}

KMX_API kmx_status kmx_predictor_load(kmx_predictor **out, const char *path) {
    return KMX_GUARDED({
        require_pointer(out, "out");
        *out = nullptr;
        require_pointer(path, "path");
        const std::vector<unsigned char> bytes = kmx::read_binary_file(path);
        *out = load(bytes.data(), bytes.size());
    });
}

KMX_API kmx_status kmx_predictor_save_to_buffer(void *out, int64_t out_len, int64_t *out_size,
                                                const kmx_predictor *predictor) {
    return KMX_GUARDED({
        require_pointer(out_size, "out_size");
        const kmx_predictor &h = predictor_of(predictor);
        *out_size = int64_t(h.blob.size());
        if (!out) return;
        require_length(out_len, *out_size, "out");
        std::copy(h.blob.begin(), h.blob.end(), static_cast<unsigned char *>(out));
    });
}

KMX_API kmx_status kmx_predictor_load_from_buffer(kmx_predictor **out, const void *buffer, int64_t buffer_len) {
    return KMX_GUARDED({
        require_pointer(out, "out");
        *out = nullptr;
        require_pointer(buffer, "buffer");
        if (buffer_len < 0) kmx::fail(KMX_E_INVALID_ARGUMENT, "buffer_len = %lld is negative", (long long)buffer_len);
        *out = load(static_cast<const unsigned char *>(buffer), size_t(buffer_len));
    });
}

KMX_API kmx_status kmx_predictor_export_c(const kmx_predictor *predictor, const char *path, const char *name) {
    return KMX_GUARDED({
        const kmx_predictor &h = predictor_of(predictor);
        require_pointer(path, "path");
        require_pointer(name, "name");
        const std::string header = kmx::predictor_blob_c_header(h.blob.data(), h.blob.size(), name);
        kmx::write_binary_file_atomically(path, reinterpret_cast<const unsigned char *>(header.data()), header.size());
    });
}

}  // extern "C"
