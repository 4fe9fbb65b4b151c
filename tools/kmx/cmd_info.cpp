// kmx info DATA_FILE — rows, columns, storage, sparsity, classes or target range
// (a LIBSVM, CSV or .kmxd file; model and predictor files too).
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "cli.h"

namespace kmx_cli {

namespace {

const std::vector<OptionSpec> &info_options() {
    static const std::vector<OptionSpec> specs = {
        kFormatOption,      {"-h", "--help", false, "show this help"}, kContextOptions[0], kContextOptions[2],
        kContextOptions[4],
    };
    return specs;
}

const int kMaxListedClasses = 50;

bool all_whole(const std::vector<double> &values) {
    for (double v : values)
        if (v != std::floor(v)) return false;
    return true;
}

void print_labels(const kmx_dataset *ds, int64_t rows) {
    int64_t classes = 0;
    check(kmx_dataset_classes(&classes, nullptr, nullptr, 0, ds));
    std::vector<double> labels(static_cast<size_t>(classes));
    std::vector<int64_t> counts(static_cast<size_t>(classes));
    check(kmx_dataset_classes(&classes, labels.data(), counts.data(), classes, ds));
    if (classes <= kMaxListedClasses && all_whole(labels)) {
        std::printf("classes   %lld\n", (long long)classes);
        for (int64_t c = 0; c < classes; ++c)
            std::printf("  label %-8g %8lld rows (%.1f%%)\n", labels[size_t(c)], (long long)counts[size_t(c)],
                        100.0 * double(counts[size_t(c)]) / double(rows));
        return;
    }
    std::vector<double> y(static_cast<size_t>(rows));
    check(kmx_dataset_get_labels(y.data(), rows, ds));
    double sum = 0;
    for (double v : y) sum += v;
    std::printf("target    real-valued: %lld distinct values in [%g, %g], mean %g\n", (long long)classes,
                labels.front(), labels.back(), sum / double(rows));
}

kmx_format parse_format(const std::string &name) {
    if (name == "auto") return KMX_FORMAT_AUTO;
    if (name == "libsvm") return KMX_FORMAT_LIBSVM;
    if (name == "csv") return KMX_FORMAT_CSV;
    if (name == "kmxd") return KMX_FORMAT_KMXD;
    if (name == "precomputed") return KMX_FORMAT_PRECOMPUTED;
    throw UsageError{"--format must be auto, libsvm, csv, kmxd or precomputed, not '" + name + "'"};
}

}  // namespace

kmx_format format_option(const ParsedArgs &args) {
    const kmx_format format = parse_format(args.get("--format", "auto"));
    return format == KMX_FORMAT_AUTO && precomputed_kernel(args) ? KMX_FORMAT_PRECOMPUTED : format;
}

int run_info(int argc, char **argv) {
    const ParsedArgs args = parse_args(argc, argv, info_options());
    if (args.has("--help") || args.positional.size() != 1)
        return usage(args, "info [options] DATA_FILE|MODEL_FILE", info_options());
    const char *path = args.positional[0].c_str();
    if (is_model_file(path)) return describe_model(path);
    if (is_predictor_file(path)) return describe_predictor(path);
    const Context ctx = make_context(args, info_options());
    const Dataset owned = load_dataset(ctx.get(), path, args);
    const kmx_dataset *ds = owned.get();
    int64_t rows = 0, cols = 0, nnz = 0;
    int sparse = 0;
    int float32 = 0;
    check(kmx_dataset_is_float32(&float32, ds));
    check(kmx_dataset_rows(&rows, ds));
    check(kmx_dataset_cols(&cols, ds));
    check(kmx_dataset_nnz(&nnz, ds));
    check(kmx_dataset_is_sparse(&sparse, ds));
    int64_t nonzero = 0;
    check(kmx_dataset_nonzeros(&nonzero, ds));
    std::printf("file      %s\n", path);
    std::printf("rows      %lld\n", (long long)rows);
    std::printf("columns   %lld\n", (long long)cols);
    std::printf("storage   %s (%lld stored values, %s)\n", sparse ? "sparse CSR" : "dense", (long long)nnz,
                float32 ? "float32" : "float64");
    std::printf("nonzeros  %lld (%.2f%% of entries; sparsity %.2f%%)\n", (long long)nonzero,
                100.0 * double(nonzero) / (double(rows) * double(cols)),
                100.0 - 100.0 * double(nonzero) / (double(rows) * double(cols)));
    print_labels(ds, rows);
    return 0;
}

}  // namespace kmx_cli
