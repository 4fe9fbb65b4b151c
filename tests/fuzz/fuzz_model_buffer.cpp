// libFuzzer target: kmx_model_load_from_buffer on arbitrary bytes (the model
// file format); a model that loads must answer every info key.
#include <kmx/kmx.h>

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    kmx_model *model = nullptr;
    if (kmx_model_load_from_buffer(&model, data, int64_t(size)) != KMX_OK) return 0;
    for (int key = KMX_INFO_METHOD; key <= KMX_INFO_C; ++key) {
        double value = 0;
        kmx_model_info(&value, model, kmx_model_info_key(key));
    }
    kmx_model_free(model);
    return 0;
}
