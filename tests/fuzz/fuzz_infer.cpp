// libFuzzer target: kmx_infer_open, kmx_infer_predict and (blobs with
// sigmoids) kmx_infer_predict_probability on arbitrary bytes
// (copied to an 8-byte aligned buffer, as a device would hold the blob).
#include <kmx/kmx_infer.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    std::vector<uint64_t> blob(size / 8 + 1);
    std::memcpy(blob.data(), data, size);
    int64_t bytes = 0;
    if (kmx_infer_required_bytes(&bytes, blob.data(), int64_t(size)) != KMX_INFER_OK) return 0;
    std::vector<uint64_t> arena(size_t(bytes) / 8 + 1);
    kmx_infer_predictor *predictor = nullptr;
    if (kmx_infer_open(&predictor, blob.data(), int64_t(size), arena.data(), bytes) != KMX_INFER_OK) return 0;
    const int64_t d = kmx_infer_features(predictor), outputs = kmx_infer_outputs(predictor);
    if (d > 4096 || outputs > 4096) return 0;
    std::vector<double> x(size_t(d), 0.5), values(size_t(outputs) + 1);
    double label = 0;
    kmx_infer_predict(&label, values.data(), outputs, predictor, x.data(), d);
    const int64_t classes = kmx_infer_classes(predictor);
    if (kmx_infer_has_probabilities(predictor) && classes <= 4096) {
        std::vector<double> probabilities(size_t(classes) + 1);
        kmx_infer_predict_probability(probabilities.data(), classes, predictor, x.data(), d);
    }
    return 0;
}
