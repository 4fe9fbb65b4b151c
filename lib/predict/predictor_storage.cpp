// predictor_storage.cpp — rounding and landmark codes (predictor_storage.h).
#include "predictor_storage.h"

#include <algorithm>
#include <cfloat>
#include <cmath>

#include "core/error.h"
#include "infer/blob_layout.h"

namespace kmx {

bool stores_float(PredictorStorage storage) { return storage != PredictorStorage::float64; }

bool quantizes_landmarks(PredictorStorage storage) {
    return storage == PredictorStorage::int16 || storage == PredictorStorage::int8;
}

int32_t landmark_code_limit(PredictorStorage storage) {
    return storage == PredictorStorage::int16 ? 32767 : storage == PredictorStorage::int8 ? 127 : 0;
}

const char *storage_name(PredictorStorage storage) {
    static const char *const names[] = {"float64", "float32", "int16", "int8"};
    return names[int(storage)];
}

void round_reals(std::vector<double> &values, PredictorStorage storage) {
    if (!stores_float(storage)) return;
    for (double &v : values) v = double(float(v));
}

bool valid_landmark_scale(double scale) {
    return scale >= double(FLT_MIN) && scale <= KMX_BLOB_MAX_LANDMARK_SCALE && double(float(scale)) == scale;
}

int32_t landmark_code(double value, double center, double scale, PredictorStorage storage) {
    const double limit = landmark_code_limit(storage);
    return int32_t(std::clamp(std::nearbyint((value - center) / scale), -limit, limit));
}

double landmark_value(double center, double scale, int32_t code) { return center + scale * double(code); }

namespace {

// The smallest float s with spread / s <= limit (1 when spread is 0).
double scale_for(double spread, int32_t limit) {
    if (spread == 0) return 1;
    float s = std::max(float(spread / limit), FLT_MIN);
    if (double(s) * limit < spread) s = std::nextafter(s, FLT_MAX);
    return double(s);
}

}  // namespace

void store_landmarks(PredictorLeaf &leaf, PredictorStorage storage) {
    leaf.landmark_scale = 0;
    if (!quantizes_landmarks(storage)) {
        round_reals(leaf.landmarks, storage);
        return;
    }
    const size_t d = leaf.center.size();
    double spread = 0;
    for (size_t i = 0; i < leaf.landmarks.size(); ++i)
        spread = std::max(spread, std::fabs(leaf.landmarks[i] - leaf.center[i % d]));
    const double scale = scale_for(spread, landmark_code_limit(storage));
    if (!valid_landmark_scale(scale))
        fail(KMX_E_INVALID_ARGUMENT, "predictor storage %s: landmarks lie %g from their leaf's center, too far to quantize",
             storage_name(storage), spread);
    for (size_t i = 0; i < leaf.landmarks.size(); ++i) {
        const double center = leaf.center[i % d];
        leaf.landmarks[i] = landmark_value(center, scale, landmark_code(leaf.landmarks[i], center, scale, storage));
    }
    leaf.landmark_scale = scale;
}

}  // namespace kmx
