// approx_error.cpp — the relative error ‖G − G̃‖_F / ‖G‖_F of a kernel
// approximation (the MEKA paper's measure of quality), estimated on rows
// drawn uniformly: Σ_rows ‖G_i − G̃_i‖² / Σ_rows ‖G_i‖², exact when every
// row is taken.
#include <algorithm>
#include <cmath>
#include <vector>

#include "approximation.h"
#include "core/context.h"
#include "core/dataset.h"
#include "core/error.h"
#include "core/rng.h"

namespace kmx {

namespace {

constexpr int64_t kErrorBlockDoubles = int64_t(2) << 20;  // G and G̃ rows held at a time (x 2)

std::vector<int64_t> error_rows(const Context &ctx, int64_t n, int64_t wanted) {
    if (wanted >= n) {
        std::vector<int64_t> all(static_cast<size_t>(n));
        for (int64_t i = 0; i < n; ++i) all[size_t(i)] = i;
        return all;
    }
    Rng rng(ctx.seed ^ 0x6D656B61657272ull);
    return sample_rows(rng, n, wanted);
}

}  // namespace

double KernelApproximation::relative_error(Context &ctx, const Dataset &data, int64_t wanted) const {
    if (data.n != n() || data.d != d())
        fail(KMX_E_INVALID_ARGUMENT, "relative error: data is %lld x %lld, the approximation was built on %lld x %lld",
             (long long)data.n, (long long)data.d, (long long)n(), (long long)d());
    require(wanted >= 1, "relative error: sample_rows must be at least 1");
    const std::vector<int64_t> rows = error_rows(ctx, n(), wanted);
    const int64_t count = int64_t(rows.size()), step = std::clamp<int64_t>(kErrorBlockDoubles / n(), 1, count);
    // Rows that stay sparse are read in place by row number; others are gathered densely.
    const bool sparse = sparse_kernel_block(kernel(), data, data);
    const size_t kernel_bytes = sparse ? sparse_kernel_block_listed_workspace_bytes(step, widest_row(data))
                                       : kernel_block_rows_workspace_bytes(kernel(), data, step, data, n());
    Arena scratch = ctx.reserve(WorkspacePlan()
                                    .add<double>(size_t(sparse ? 0 : step * d()))
                                    .add<double>(size_t(step * n()))
                                    .add<double>(size_t(step * n()))
                                    .add_bytes(std::max(kernel_bytes, rows_workspace_bytes(step)))
                                    .bytes(),
                                "relative error: rows of G and G~");
    double *points = scratch.alloc<double>(size_t(sparse ? 0 : step * d()));
    double *exact = scratch.alloc<double>(size_t(step * n()));
    double *approx = scratch.alloc<double>(size_t(step * n()));
    double difference = 0, total = 0;
    for (int64_t begin = 0; begin < count; begin += step) {
        const int64_t size = std::min(step, count - begin);
        if (sparse) {
            sparse_kernel_block_listed(kernel(), data, rows.data() + begin, size, data, nullptr, n(), exact, n(),
                                       scratch, ctx.threads);
        } else {
            gather_rows(data, rows.data() + begin, size, points);
            const std::unique_ptr<Dataset> block = Dataset::dense_borrow(points, size, d(), nullptr);
            kernel_block_rows(kernel(), *block, 0, size, data, 0, n(), exact, n(), scratch, ctx.threads);
        }
        training_rows(ctx, scratch, rows.data() + begin, size, approx);
        for (int64_t i = 0; i < size * n(); ++i) {
            difference += (exact[i] - approx[i]) * (exact[i] - approx[i]);
            total += exact[i] * exact[i];
        }
        ctx.progress(double(begin + size) / double(count), "relative error");
    }
    return total > 0 ? std::sqrt(difference / total) : 0.0;
}

}  // namespace kmx
