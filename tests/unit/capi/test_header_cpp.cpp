// kmx.h as C++11: compiles with -pedantic-errors and links.
#include <kmx/kmx.h>
#include <cstdio>
#include <cstring>

int main(void) {
    kmx_context *ctx = nullptr;
    kmx_kernel *kernel = nullptr;
    double a[2] = {1.0, 2.0}, b[2] = {1.0, 0.0}, k = 0.0;
    if (std::strcmp(kmx_version(), KMX_VERSION_STRING) != 0) return 1;
    if (kmx_context_create(&ctx) != KMX_OK) return 2;
    if (kmx_kernel_create(&kernel, KMX_KERNEL_LINEAR) != KMX_OK) return 3;
    if (kmx_kernel_eval(&k, kernel, a, b, 2) != KMX_OK || k != 1.0) return 4;
    if (kmx_kernel_set_param(kernel, KMX_PARAM_GAMMA, -1.0) != KMX_E_INVALID_ARGUMENT) return 5;
    std::printf("C++: %s, last error: %s\n", kmx_status_name(KMX_E_INVALID_ARGUMENT), kmx_last_error());
    kmx_kernel_free(kernel);
    kmx_context_free(ctx);
    return 0;
}
