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
    static const std::vector<OptionSpec> specs = command_options({
        {"-s", "--method", true, "nystrom (default), kmeans-nystrom or meka"},
        {"-m", "--landmarks", true, "Nystrom landmarks m (default: min(n, max(100, 5 sqrt n)))"},
        {nullptr, "--rank", true, "MEKA rank per cluster (default auto); Nystrom truncation rank (default none)"},
        {nullptr, "--clusters", true, "MEKA clusters c (default auto)"},
        {nullptr, "--eps", true, "MEKA: skip blocks whose center kernel value is below it (default 0.001)"},
        {nullptr, "--oversampling", true, "MEKA rho: link blocks sample (1 + rho) k rows (default 2)"},
        {nullptr, "--rank-by-size", false, "MEKA: ranks proportional to cluster sizes"},
        {nullptr, "--sample-rows", true, "rows of G the error is measured on (default min(n, 2000); n = exact)"},
    }, true);
    return specs;
}

std::string approx_params(const ParsedArgs &args) {
    std::string method = args.get("--method", "nystrom");
    std::string params = "approx=" + method;
    const std::pair<const char *, const char *> numeric[] = {
        {"--landmarks", "centers"}, {"--rank", "rank"}, {"--clusters", "clusters"},
        {"--eps", "threshold"},     {"--oversampling", "oversampling"}};
    for (const auto &option : numeric)
        if (args.has(option.first)) params += std::string(" ") + option.second + "=" + args.get(option.first, "");
    if (args.has("--rank-by-size")) params += " rank_by_size=1";
    return params;
}

}  // namespace

int run_approx(int argc, char **argv) {
    const ParsedArgs args = parse_args(argc, argv, approx_options());
    if (args.has("--help") || args.positional.size() != 1)
        return usage(args, "approx [options] DATA_FILE", approx_options());
    kmx_kernel *kernel = make_kernel(args);
    kmx_context *ctx = make_context(args);
    ProgressBar bar;
    bar.attach(ctx);
    kmx_dataset *data = nullptr;
    check(kmx_dataset_load(&data, ctx, args.positional[0].c_str(), format_option(args)));
    int64_t n = 0;
    check(kmx_dataset_rows(&n, data));
    const long long sample_rows = to_int(args.get("--sample-rows", std::to_string(n < 2000 ? n : 2000)), "--sample-rows");
    kmx_approx *approx = nullptr;
    const double start = now_seconds();
    const kmx_status status = kmx_approx_create(&approx, ctx, kernel, data, approx_params(args).c_str());
    const double seconds = now_seconds() - start;
    bar.finish();
    check(status);
    double error = 0;
    int64_t bytes = 0, rank = 0;
    check(kmx_approx_relative_error(&error, ctx, approx, data, sample_rows));
    check(kmx_approx_memory_bytes(&bytes, approx));
    check(kmx_approx_rank(&rank, approx));
    std::printf("approximated %s: n=%lld rank=%lld (error on %lld rows)\n", args.get("--method", "nystrom").c_str(),
                (long long)n, (long long)rank, sample_rows < n ? sample_rows : (long long)n);
    std::printf("relative error = %.6g memory = %lld bytes time = %.3fs\n", error, (long long)bytes, seconds);
    kmx_approx_free(approx);
    kmx_dataset_free(data);
    kmx_context_free(ctx);
    kmx_kernel_free(kernel);
    return 0;
}

}  // namespace kmx_cli
