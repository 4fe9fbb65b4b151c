// libFuzzer target: the "key=value" parameter strings of every object that
// takes them (context, kernel, solver), on arbitrary text.
#include <kmx/kmx.h>

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const std::string text(reinterpret_cast<const char *>(data), size);
    kmx_solver *solver = nullptr;
    if (kmx_solver_create_from_string(&solver, text.c_str()) == KMX_OK) kmx_solver_free(solver);
    kmx_kernel *kernel = nullptr;
    if (kmx_kernel_create_from_string(&kernel, text.c_str()) == KMX_OK) kmx_kernel_free(kernel);
    kmx_context *ctx = nullptr;
    if (kmx_context_create(&ctx) == KMX_OK) {
        kmx_context_set_params(ctx, text.c_str());
        kmx_context_free(ctx);
    }
    return 0;
}
