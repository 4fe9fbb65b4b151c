// The machine as kmx sees it: cores, memory, the BLIS kernel set and its speed.
#include "core/context.h"
#include "core/system.h"
#include "firewall.h"
#include "linalg/blis_arch.h"

extern "C" {

KMX_API kmx_status kmx_system_info(double *out, kmx_system_key key) {
    return KMX_GUARDED({
        kmx::capi::require_pointer(out, "out");
        switch (key) {
            case KMX_SYSTEM_CORES:
                *out = kmx::usable_cores();
                return;
            case KMX_SYSTEM_MEMORY_AVAILABLE:
                *out = double(kmx::available_memory_bytes());
                return;
            case KMX_SYSTEM_MEMORY_BUDGET: {
                const size_t budget = kmx::machine_memory_budget();
                *out = budget >= kmx::kUnlimitedBudget ? -1.0 : double(budget);
                return;
            }
            case KMX_SYSTEM_DGEMM_GFLOPS:
                *out = kmx::linalg::measure_dgemm_gflops();
                return;
            default:
                kmx::fail(KMX_E_INVALID_ARGUMENT, "unknown system key %d", int(key));
        }
    });
}

KMX_API const char *kmx_system_kernel_set(void) { return kmx::linalg::kernel_set_in_use(); }

KMX_API const char *kmx_system_kernel_set_origin(void) { return kmx::linalg::kernel_set_origin(); }

}  // extern "C"
