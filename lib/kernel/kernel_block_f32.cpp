// kernel_block_f32.cpp — kernel blocks in float32: float rows in, a float
// block out, the dot products by sgemm (twice dgemm's rate).
//
//   RBF        K_ij = exp(−γ D_ij),  D_ij = ‖a_i‖² + ‖b_j‖² − 2 a_i·b_j
//   polynomial K_ij = (γ a_i·b_j + c0)^deg
//   sigmoid    K_ij = tanh(γ a_i·b_j + c0)
//   linear     K_ij = a_i·b_j
//   Laplacian  K_ij = exp(−γ ‖a_i − b_j‖₁), in double from the floats
//
// Only a_i·b_j is a float32 sum; ‖a_i‖², γ and the maps compute in double,
// and each value is rounded to float once, when it is stored.
#include <algorithm>

#include "core/error.h"
#include "fast_exp.h"
#include "kernel_blocks.h"
#include "linalg/linalg.h"

namespace kmx {

namespace {

using kernel_detail::for_each_row_tile;

constexpr double kFloatUnitRoundoff = 0x1p-24;  // u of float, half its machine epsilon
constexpr int64_t kWideEntries = 256;           // entries of a float row widened at a time for the exp pass
constexpr int64_t kLaplacianRows = 128;         // rows of A per double block of the Laplacian

// dst (rows x cols, row stride ld_dst) ← src (row stride ld_src), converted.
template <class From, class To>
void convert_rows(const From *src, int64_t rows, int64_t ld_src, int64_t cols, To *dst, int64_t ld_dst) {
    for (int64_t i = 0; i < rows; ++i) std::copy(src + i * ld_src, src + i * ld_src + cols, dst + i * ld_dst);
}

// One row of a Gaussian block holding −2 a_i·b_j in float becomes
// exp(−γ D_ij), kWideEntries entries at a time widened to double for the
// Gaussian pass of fast_exp.h.
void gaussian_row_f32(float *row, int64_t i, int64_t nb, double gamma, const kernel_detail::GaussianNorms &norms) {
    double wide[kWideEntries];
    const double floor_a = norms.noise * norms.sq_a[i];
    for (int64_t j = 0; j < nb; j += kWideEntries) {
        const int64_t count = std::min(kWideEntries, nb - j);
        std::copy(row + j, row + j + count, wide);
        gaussian_row_from_gram(wide, count, gamma, norms.sq_a[i], norms.sq_b + j, floor_a, norms.floor_b + j);
        std::copy(wide, wide + count, row + j);
    }
}

// sgemm leaves −2 a_i·b_j in out, then each row is mapped. The clamp floor is
// float's: the dot products are float32 sums of exact products.
void gaussian_block_f32(const KernelSpec &spec, const float *a, int64_t na, int64_t lda, const float *b, int64_t nb,
                        int64_t ldb, int64_t d, float *out, int64_t ldo, Arena &scratch, int threads) {
    ArenaScope scope(scratch);
    const kernel_detail::GaussianNorms norms(a, na, lda, b, nb, ldb, d, kFloatUnitRoundoff, scratch, threads);
    const double gamma = spec.gamma_for(d);
    linalg::sgemm(linalg::Trans::No, linalg::Trans::Yes, na, nb, d, -2.0f, a, lda, b, ldb, 0.0f, out, ldo, threads);
    for_each_row_tile(na, kernel_detail::kMapRowTile, threads, [&](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i) gaussian_row_f32(out + i * ldo, i, nb, gamma, norms);
    });
}

// The Laplacian: B and kLaplacianRows rows of A at a time widened to double,
// kernel_block's L1 loop into a double block, rounded into out.
void laplacian_block_f32(const KernelSpec &spec, const float *a, int64_t na, int64_t lda, const float *b, int64_t nb,
                         int64_t ldb, int64_t d, float *out, int64_t ldo, Arena &scratch, int threads) {
    ArenaScope scope(scratch);
    const int64_t chunk = std::min(na, kLaplacianRows);
    double *wide_b = scratch.alloc<double>(size_t(nb * d));
    double *wide_a = scratch.alloc<double>(size_t(chunk * d));
    double *wide_out = scratch.alloc<double>(size_t(chunk * nb));
    convert_rows(b, nb, ldb, d, wide_b, d);
    for (int64_t i = 0; i < na; i += chunk) {
        const int64_t rows = std::min(chunk, na - i);
        convert_rows(a + i * lda, rows, lda, d, wide_a, d);
        kernel_detail::l1_kernel_block(spec, wide_a, rows, d, wide_b, nb, d, d, wide_out, nb, threads);
        convert_rows(wide_out, rows, nb, nb, out + i * ldo, ldo);
    }
}

// out ← a·b by sgemm, then map(γ a·b) in double (γ is not rounded to float).
void dot_kernel_block_f32(const KernelSpec &spec, const float *a, int64_t na, int64_t lda, const float *b, int64_t nb,
                          int64_t ldb, int64_t d, float *out, int64_t ldo, int threads) {
    linalg::sgemm(linalg::Trans::No, linalg::Trans::Yes, na, nb, d, 1.0f, a, lda, b, ldb, 0.0f, out, ldo, threads);
    if (spec.type == KMX_KERNEL_LINEAR) return;
    const double gamma = spec.gamma_for(d);
    kernel_detail::with_dot_kernel_map(spec, [&](auto map) {
        kernel_detail::map_block(out, na, nb, ldo, threads, [=](double dot) { return map(gamma * dot); });
    });
}

}  // namespace

void kernel_block_f32(const KernelSpec &spec, const float *a, int64_t na, int64_t lda, const float *b, int64_t nb,
                      int64_t ldb, int64_t d, float *out, int64_t ldo, Arena &scratch, int threads) {
    require_feature_kernel(spec, "a float32 kernel block");
    kernel_detail::require_block_shape(spec, na, lda, nb, ldb, d, ldo);
    if (na == 0 || nb == 0) return;
    threads = kernel_detail::kernel_block_threads(threads, na, nb, d);
    switch (spec.type) {
        case KMX_KERNEL_RBF:
            gaussian_block_f32(spec, a, na, lda, b, nb, ldb, d, out, ldo, scratch, threads);
            return;
        case KMX_KERNEL_LAPLACIAN:
            laplacian_block_f32(spec, a, na, lda, b, nb, ldb, d, out, ldo, scratch, threads);
            return;
        case KMX_KERNEL_POLYNOMIAL:
        case KMX_KERNEL_SIGMOID:
        case KMX_KERNEL_LINEAR:
            dot_kernel_block_f32(spec, a, na, lda, b, nb, ldb, d, out, ldo, threads);
            return;
        default:
            fail(KMX_E_INVALID_ARGUMENT, "unknown kernel type %d", int(spec.type));
    }
}

size_t kernel_block_f32_workspace_bytes(const KernelSpec &spec, int64_t na, int64_t nb, int64_t d) {
    WorkspacePlan plan;
    if (spec.type == KMX_KERNEL_RBF) {
        plan.add_bytes(kernel_detail::GaussianNorms::workspace_bytes(na, nb));
    } else if (spec.type == KMX_KERNEL_LAPLACIAN) {  // B, a chunk of A and its block, in double
        const int64_t chunk = std::min(na, kLaplacianRows);
        plan.add<double>(size_t(nb * d)).add<double>(size_t(chunk * d)).add<double>(size_t(chunk * nb));
    }
    return plan.bytes();
}

}  // namespace kmx
