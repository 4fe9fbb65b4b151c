// PLACEHOLDER (replaced by the k-means implementation)
#include "kmeans.h"
#include "core/error.h"
namespace kmx {
KMeansResult kmeans(Context &, Arena &, const Dataset &, const KMeansOptions &, double *, int32_t *, double *) {
    fail(KMX_E_UNSUPPORTED, "PLACEHOLDER"); }
size_t kmeans_workspace_bytes(const Dataset &, int64_t, int) { return 0; }
void kmeans_assign(Context &, Arena &, const Dataset &, const double *, int64_t, int32_t *, double *) {
    fail(KMX_E_UNSUPPORTED, "PLACEHOLDER"); }
size_t kmeans_assign_workspace_bytes(const Dataset &, int64_t, int) { return 0; }
}
