// kmx kernel [-k rbf] [-g gamma] ... DATA_FILE — times K(X[0:n], X[0:m]).
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "cli.h"

namespace kmx_cli {

namespace {

const std::vector<OptionSpec> &kernel_options() {
    static const std::vector<OptionSpec> specs = {
        kKernelOptions[0],
        kKernelOptions[1],
        kKernelOptions[2],
        kKernelOptions[3],
        {"-n", "--rows", true, "rows of the block (default 1024, at most the file's rows)"},
        {"-m", "--cols", true, "columns of the block (default 1024, at most the file's rows)"},
        {nullptr, "--repeat", true, "timed repetitions; the best is reported (default 3)"},
        kFormatOption,
        {"-h", "--help", false, "show this help"},
        kContextOptions[0],
        kContextOptions[2],
    };
    return specs;
}

void print_kernel(const kmx_kernel *kernel, int64_t cols) {
    double type = 0, gamma = 0, coef0 = 0, degree = 0;
    check(kmx_kernel_get_param(&type, kernel, KMX_PARAM_KERNEL));
    check(kmx_kernel_get_param(&gamma, kernel, KMX_PARAM_GAMMA));
    check(kmx_kernel_get_param(&coef0, kernel, KMX_PARAM_COEF0));
    check(kmx_kernel_get_param(&degree, kernel, KMX_PARAM_DEGREE));
    // Only what the kernel uses: linear none, rbf/laplacian γ, sigmoid γ and coef0, polynomial all three.
    const kmx_kernel_type kind = kmx_kernel_type(type);
    std::printf("kernel    %s", kmx_param_value_name(KMX_PARAM_KERNEL, type));
    if (kind != KMX_KERNEL_LINEAR)
        std::printf(" gamma=%g%s", gamma > 0 ? gamma : 1.0 / double(cols), gamma > 0 ? "" : " (auto: 1/columns)");
    if (kind == KMX_KERNEL_POLYNOMIAL || kind == KMX_KERNEL_SIGMOID) std::printf(" coef0=%g", coef0);
    if (kind == KMX_KERNEL_POLYNOMIAL) std::printf(" degree=%g", degree);
    std::printf("\n");
}

}  // namespace

int run_kernel(int argc, char **argv) {
    const ParsedArgs args = parse_args(argc, argv, kernel_options());
    if (args.has("--help") || args.positional.size() != 1)
        return usage(args, "kernel [options] DATA_FILE", kernel_options());
    const Kernel owned_kernel = make_kernel(args, kernel_options());
    const Context owned_ctx = make_context(args, kernel_options());
    const Dataset owned_ds = load_dataset(owned_ctx.get(), args.positional[0], args);
    const kmx_kernel *kernel = owned_kernel.get();
    kmx_context *ctx = owned_ctx.get();
    const kmx_dataset *ds = owned_ds.get();
    int64_t n = 0, d = 0;
    check(kmx_dataset_rows(&n, ds));
    check(kmx_dataset_cols(&d, ds));
    const int64_t rows = std::min<int64_t>(n, to_int(args.get("--rows", "1024"), "--rows"));
    const int64_t cols = std::min<int64_t>(n, to_int(args.get("--cols", "1024"), "--cols"));
    const long long repeat = to_int(args.get("--repeat", "3"), "--repeat");
    if (rows < 1 || cols < 1 || repeat < 1) throw UsageError{"--rows, --cols and --repeat must be positive"};
    std::vector<double> block(static_cast<size_t>(rows * cols));
    double best = 1e300;
    for (long long r = 0; r < repeat; ++r) {
        const double start = now_seconds();
        check(kmx_kernel_block_rows(block.data(), rows * cols, ctx, kernel, ds, 0, rows, ds, 0, cols));
        best = std::min(best, now_seconds() - start);
    }
    double sum = 0;
    for (double v : block) sum += v;
    int64_t peak = 0;
    check(kmx_context_peak_bytes(&peak, ctx));
    print_kernel(kernel, d);
    std::printf("block     %lld x %lld over %lld columns\n", (long long)rows, (long long)cols, (long long)d);
    std::printf("time      %.6f s (best of %lld)\n", best, repeat);
    std::printf("rate      %.2f GFLOP/s (2*rows*cols*columns flops), %.1f M entries/s\n",
                2.0 * double(rows) * double(cols) * double(d) / best * 1e-9, double(rows * cols) / best * 1e-6);
    std::printf("mean K    %.10g\n", sum / double(rows * cols));
    std::printf("scratch   %lld bytes besides the block\n", (long long)peak);
    return 0;
}

}  // namespace kmx_cli
