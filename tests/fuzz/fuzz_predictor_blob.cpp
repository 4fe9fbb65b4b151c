// libFuzzer target: the C++ predictor blob reader (validated by the inference
// subset, then decoded) on arbitrary bytes; only kmx::Error may come out.
#include <cstddef>
#include <cstdint>

#include "core/error.h"
#include "predict/predictor_blob.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    try {
        const kmx::CompactPredictor predictor = kmx::read_predictor_blob(data, size);
        (void)predictor;
    } catch (const kmx::Error &) {
    }
    return 0;
}
