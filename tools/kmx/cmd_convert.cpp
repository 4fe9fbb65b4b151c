// kmx convert [options] DATA_FILE OUTPUT.kmxd — writes a data file (LIBSVM,
// CSV or .kmxd) as a .kmxd file, which kmx_dataset_load then maps and uses in
// place instead of parsing text. --precision float32 (the context's
// precision parameter) loads and stores the values as floats (half the size).

#include <cstdio>
#include <string>
#include <vector>

#include "cli.h"

namespace kmx_cli {

namespace {

const std::vector<OptionSpec> &convert_options() {
    static const std::vector<OptionSpec> specs = command_options({}, false);  // --precision is a context option
    return specs;
}

kmx_precision precision_option(const ParsedArgs &args) {
    const std::string name = args.get("--precision", "float64");
    if (name == "float64") return KMX_PRECISION_FLOAT64;
    if (name == "float32") return KMX_PRECISION_FLOAT32;
    throw UsageError{"--precision must be float64 or float32, not '" + name + "'"};  // before the library says it
}

}  // namespace

int run_convert(int argc, char **argv) {
    const ParsedArgs args = parse_args(argc, argv, convert_options());
    if (args.has("--help") || args.positional.size() != 2)
        return usage(args, "convert [options] DATA_FILE OUTPUT.kmxd", convert_options());
    const kmx_precision precision = precision_option(args);
    const Context ctx = make_context(args, convert_options());
    const double start = now_seconds();
    const Dataset data = load_dataset(ctx.get(), args.positional[0], args);
    const double loaded = now_seconds();
    const char *out = args.positional[1].c_str();
    check(kmx_dataset_save(data.get(), out, precision));
    const double saved = now_seconds();
    int64_t n = 0, d = 0, nnz = 0;
    int sparse = 0;
    int stored_float32 = 0;
    check(kmx_dataset_is_float32(&stored_float32, data.get()));
    check(kmx_dataset_rows(&n, data.get()));
    check(kmx_dataset_cols(&d, data.get()));
    check(kmx_dataset_nnz(&nnz, data.get()));
    check(kmx_dataset_is_sparse(&sparse, data.get()));
    std::printf("converted %s: n=%lld d=%lld %s (%lld stored values) %s -> %s (%lld bytes) load=%.3fs write=%.3fs\n",
                args.positional[0].c_str(), (long long)n, (long long)d, sparse ? "CSR" : "dense", (long long)nnz,
                precision == KMX_PRECISION_FLOAT32 || stored_float32 ? "float32" : "float64", out, file_bytes(out),
                loaded - start, saved - loaded);
    return 0;
}

}  // namespace kmx_cli
