// PLACEHOLDER (replaced by the linalg implementation)
#include "linalg.h"
#include "core/error.h"
namespace kmx::linalg {
double cholesky(Uplo, int64_t, double *, int64_t, double) { fail(KMX_E_UNSUPPORTED, "PLACEHOLDER"); }
void eig_sym(int64_t, double *, int64_t, double *, double *, int64_t, Arena &) { fail(KMX_E_UNSUPPORTED, "PLACEHOLDER"); }
int64_t pinv_sym(int64_t, double *, int64_t, double *, int64_t, Arena &, double) { fail(KMX_E_UNSUPPORTED, "PLACEHOLDER"); }
int64_t pinv(int64_t, int64_t, double *, int64_t, double *, int64_t, Arena &, double) { fail(KMX_E_UNSUPPORTED, "PLACEHOLDER"); }
size_t eig_sym_workspace_bytes(int64_t) { return 0; }
size_t pinv_sym_workspace_bytes(int64_t) { return 0; }
size_t pinv_workspace_bytes(int64_t, int64_t) { return 0; }
void ensure_flame_initialized() {}
}
