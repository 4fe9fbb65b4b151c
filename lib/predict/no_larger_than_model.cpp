// no_larger_than_model.cpp — the default's shrink loop (no_larger_than_model.h).
#include "no_larger_than_model.h"

#include <algorithm>
#include <cmath>

#include "core/context.h"
#include "core/error.h"
#include "model/model.h"
#include "model/model_file.h"
#include "predictor_blob.h"
#include "predictor_storage.h"

namespace kmx {

namespace {

// The storages the default steps down through before it drops landmarks.
constexpr PredictorStorage kMostCompactStorage = PredictorStorage::int8;
PredictorStorage more_compact(PredictorStorage storage) { return PredictorStorage(int(storage) + 1); }

// Landmarks per leaf the options asked for, as built: the largest leaf's.
int64_t built_landmarks(const CompactPredictor &predictor) {
    int64_t m = 1;
    for (const PredictorLeaf &leaf : predictor.leaves) m = std::max(m, leaf.m);
    return m;
}

// Fewer landmarks per leaf than `m`, in proportion to limit / bytes (a
// little below, as the leaves' centers and tables do not shrink).
int64_t shrunk_landmarks(int64_t m, size_t bytes, size_t limit) {
    const double scaled = std::floor(0.95 * double(m) * double(limit) / double(bytes));
    return std::clamp<int64_t>(int64_t(scaled), 1, m - 1);
}

// The blob's bytes were `predictor` stored as `storage`: a storage changes
// the numbers, not the structure (leaves, landmarks, pseudo-landmarks), so a
// rebuild would take exactly these.
size_t bytes_as(CompactPredictor predictor, PredictorStorage storage) {
    predictor.storage = storage;
    for (PredictorLeaf &leaf : predictor.leaves) store_landmarks(leaf, storage);
    return write_predictor_blob(predictor).size();
}

}  // namespace

CompactPredictor build_no_larger_than_model(Context &ctx, const Model &model, const Dataset &train,
                                            DcpredOptions options, bool storage_given) {
    const size_t limit = model_to_bytes(model).size();
    for (;;) {
        CompactPredictor predictor = build_dcpred(ctx, model, train, options);
        const size_t built = write_predictor_blob(predictor).size();
        if (built <= limit) return predictor;
        size_t bytes = built;
        while (!storage_given && options.storage != kMostCompactStorage && bytes > limit) {
            options.storage = more_compact(options.storage);
            bytes = bytes_as(predictor, options.storage);
        }
        if (bytes > limit) {
            const int64_t m = built_landmarks(predictor);
            if (m <= 1)
                fail(KMX_E_INVALID_ARGUMENT,
                     "no predictor of this model is smaller than the model (%zu bytes): %lld leaves with one landmark "
                     "take %zu bytes; ask for fewer leaves or a budget",
                     limit, static_cast<long long>(predictor.leaves.size()), bytes);
            options.landmarks = shrunk_landmarks(m, bytes, limit);
        }
        ctx.log(KMX_LOG_INFO,
                "compress: %zu bytes > the model's %zu: rebuilding with %s and %lld landmarks per leaf (0: auto)",
                built, limit, storage_name(options.storage), static_cast<long long>(options.landmarks));
    }
}

}  // namespace kmx
