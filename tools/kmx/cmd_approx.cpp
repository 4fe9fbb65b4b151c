// kmx approx [options] DATA_FILE — builds a kernel approximation (Nyström,
// k-means Nyström or MEKA) of a data file's kernel matrix and reports its
// relative error ‖G − G̃‖_F / ‖G‖_F, the memory it holds and the time it took.
#include <cstdio>
#include <string>
#include <vector>

#include "cli.h"

namespace kmx_cli {

namespace {

const std::vector<OptionSpec> &approx_options() {
    static const std::vector<OptionSpec> specs = command_options(
        {
            {"-s", "--method", true, nullptr, KMX_PARAM_APPROX},
            {"-m", "--landmarks", true, nullptr, KMX_PARAM_CENTERS},
            {nullptr, "--rank", true, nullptr, KMX_PARAM_RANK},
            {nullptr, "--clusters", true, nullptr, KMX_PARAM_CLUSTERS},
            {nullptr, "--eps", true, nullptr, KMX_PARAM_THRESHOLD},
            {nullptr, "--oversampling", true, nullptr, KMX_PARAM_OVERSAMPLING},
            {nullptr, "--rank-by-size", false, nullptr, KMX_PARAM_RANK_BY_SIZE},
            {nullptr, "--sample-rows", true, "rows of G the error is measured on (default min(n, 2000); n = exact)"},
        },
        true);
    return specs;
}

}  // namespace

int run_approx(int argc, char **argv) {
    const ParsedArgs args = parse_args(argc, argv, approx_options());
    if (args.has("--help") || args.positional.size() != 1)
        return usage(args, "approx [options] DATA_FILE", approx_options());
    const Kernel kernel = make_kernel(args, approx_options());
    const Context ctx = make_context(args, approx_options());
    ProgressBar bar;
    bar.attach(ctx.get());
    const Dataset data = load_dataset(ctx.get(), args.positional[0], args);
    int64_t n = 0;
    check(kmx_dataset_rows(&n, data.get()));
    const long long sample_rows =
        to_int(args.get("--sample-rows", std::to_string(n < 2000 ? n : 2000)), "--sample-rows");
    const std::string params = param_string(args, approx_options(), KMX_PARAM_OWNER_APPROX);
    kmx_approx *created = nullptr;
    const double start = now_seconds();
    const kmx_status status = kmx_approx_create(&created, ctx.get(), kernel.get(), data.get(), params.c_str());
    const double seconds = now_seconds() - start;
    bar.finish();
    check(status);
    const Approx approx(created);
    double error = 0, method = 0;
    int64_t bytes = 0, rank = 0;
    check(kmx_approx_relative_error(&error, ctx.get(), approx.get(), data.get(), sample_rows));
    check(kmx_approx_memory_bytes(&bytes, approx.get()));
    check(kmx_approx_rank(&rank, approx.get()));
    check(kmx_param_default(&method, KMX_PARAM_APPROX));
    const std::string method_name = args.get("--method", cli_spelling(kmx_param_value_name(KMX_PARAM_APPROX, method)));
    std::printf("approximated %s: n=%lld rank=%lld (error on %lld rows)\n", method_name.c_str(), (long long)n,
                (long long)rank, sample_rows < n ? sample_rows : (long long)n);
    std::printf("relative error = %.6g memory = %s (%lld bytes) time = %.3fs\n", error,
                readable_bytes(double(bytes)).c_str(), (long long)bytes, seconds);
    return 0;
}

}  // namespace kmx_cli
