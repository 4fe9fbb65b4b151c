// PLACEHOLDER (replaced by the kernel implementation)
#include "kernel.h"
#include "core/error.h"
namespace kmx {
double kernel_eval(const KernelSpec &, const double *, const double *, int64_t) { fail(KMX_E_UNSUPPORTED, "PLACEHOLDER"); }
void kernel_block(const KernelSpec &, const double *, int64_t, int64_t, const double *, int64_t, int64_t, int64_t,
                  double *, int64_t, Arena &, int) { fail(KMX_E_UNSUPPORTED, "PLACEHOLDER"); }
size_t kernel_block_workspace_bytes(const KernelSpec &, int64_t, int64_t, int64_t) { return 0; }
void kernel_block_rows(const KernelSpec &, const Dataset &, int64_t, int64_t, const Dataset &, int64_t, int64_t,
                       double *, int64_t, Arena &, int) { fail(KMX_E_UNSUPPORTED, "PLACEHOLDER"); }
size_t kernel_block_rows_workspace_bytes(const KernelSpec &, const Dataset &, int64_t, const Dataset &, int64_t) { return 0; }
}
