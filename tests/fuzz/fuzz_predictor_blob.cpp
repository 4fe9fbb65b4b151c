// libFuzzer target: the C++ predictor blob reader (validated by the inference
// subset, then decoded) on arbitrary bytes; only kmx::Error may come out. A
// blob that reads also predicts two rows (zeros, and its first top center)
// through the prepared single-row predictor, whatever its shapes: groups of
// any size, leaves of one landmark, pseudo-landmarks, every storage.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/error.h"
#include "predict/compact_predict.h"
#include "predict/predictor_blob.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    try {
        const kmx::CompactPredictor predictor = kmx::read_predictor_blob(data, size);
        const kmx::CompactRowPredictor rows(predictor);
        std::vector<double> scratch(rows.scratch_size()), outputs(size_t(predictor.outputs));
        std::vector<double> x(size_t(predictor.d), 0.0);
        rows.predict(x.data(), outputs.data(), scratch.data());
        rows.predict(predictor.top_centers.data(), outputs.data(), scratch.data());
    } catch (const kmx::Error &) {
    }
    return 0;
}
