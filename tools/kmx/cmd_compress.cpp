// kmx compress [options] MODEL_FILE TRAIN_FILE PREDICTOR_FILE — builds a
// compact (DC-Pred++) predictor from a model and its training data.
// kmx export --c PREDICTOR_FILE OUT.h — writes a predictor as a C header.
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "cli.h"

namespace kmx_cli {

namespace {

const std::vector<OptionSpec> &compress_options() {
    static const std::vector<OptionSpec> specs = command_options(
        {
            {nullptr, "--leaves", true, nullptr, KMX_PARAM_LEAVES},
            {nullptr, "--landmarks", true, nullptr, KMX_PARAM_LANDMARKS},
            {nullptr, "--pseudo", true, "triangle and product pseudo-landmarks", KMX_PARAM_PSEUDO},
            {nullptr, "--storage", true, nullptr, KMX_PARAM_STORAGE},
            {nullptr, "--float32", false, "the same as --storage float32", KMX_PARAM_FLOAT32},
            {nullptr, "--max-bytes", true,
             "budget: the most accurate predictor of at most this many bytes (K/M/G suffixes allowed), its knobs "
             "searched on a validation split of TRAIN_FILE, the four best cross-validated on its fifths, "
             "the choice then built from all of it, its landmarks refined 8x longer (-v lists the candidates)",
             KMX_PARAM_MAX_BYTES},
            {nullptr, "--max-us", true,
             "budget: ... of at most this many microseconds per row, one row at a time, as measured on this machine "
             "while compressing",
             KMX_PARAM_MAX_US},
        },
        false);
    return specs;
}

}  // namespace

double predictor_info(const kmx_predictor *predictor, kmx_predictor_info_key key) {
    double value = 0;
    check(kmx_predictor_info(&value, predictor, key));
    return value;
}

namespace {

// "float64", "float32", "int16", "int8" or "int4".
const char *storage_name(const kmx_predictor *predictor) {
    return kmx_param_value_name(KMX_PARAM_STORAGE, predictor_info(predictor, KMX_PREDICTOR_STORAGE));
}

// What a storage keeps in which type, for kmx info.
const char *storage_detail(double storage) {
    if (storage == KMX_STORAGE_INT16 || storage == KMX_STORAGE_INT8)
        return " (landmarks as integers with a scale per leaf; the other arrays float32)";
    if (storage == KMX_STORAGE_INT4)
        return " (landmarks as 4-bit codes into 16 values per feature and leaf; the other arrays float32)";
    return "";
}

// How a budget search chose the predictor (nothing for other predictors).
// When it chose the model itself, its accuracy on the validation rows is on
// rows that trained it, and is named so.
void print_budget_choice(const kmx_predictor *predictor, const char *prefix) {
    const double accuracy = predictor_info(predictor, KMX_PREDICTOR_VALIDATION_ACCURACY);
    if (std::isnan(accuracy)) return;
    const bool in_sample = predictor_info(predictor, KMX_PREDICTOR_VALIDATION_IN_SAMPLE) == 1;
    std::printf(
        "%slandmarks per leaf=%.0f %s=%.2f%%%s validation us/row=%.4g (this machine, when built) of %.0f candidates\n",
        prefix, predictor_info(predictor, KMX_PREDICTOR_LANDMARKS_PER_LEAF),
        in_sample ? "training-row accuracy" : "validation accuracy", 100 * accuracy,
        in_sample ? " (the model itself, chosen: in-sample)" : "",
        predictor_info(predictor, KMX_PREDICTOR_VALIDATION_US), predictor_info(predictor, KMX_PREDICTOR_CANDIDATES));
}

}  // namespace

int run_compress(int argc, char **argv) {
    const ParsedArgs args = parse_args(argc, argv, compress_options());
    if (args.has("--help") || args.positional.size() != 3)
        return usage(args, "compress [options] MODEL_FILE TRAIN_FILE PREDICTOR_FILE", compress_options());
    const Context ctx = make_context(args, compress_options());
    ProgressBar bar;
    bar.attach(ctx.get());
    const Model model = make<Model>(kmx_model_load, args.positional[0].c_str());
    const Dataset data = load_dataset(ctx.get(), args.positional[1], args);
    const std::string params = param_string(args, compress_options(), KMX_PARAM_OWNER_PREDICTOR);
    kmx_predictor *built = nullptr;
    const double start = now_seconds();
    const kmx_status status = kmx_predictor_build(&built, ctx.get(), model.get(), data.get(), params.c_str());
    const double seconds = now_seconds() - start;
    bar.finish();
    check(status);
    const Predictor owned(built);
    const kmx_predictor *predictor = owned.get();
    check(kmx_predictor_save(predictor, args.positional[2].c_str()));
    int64_t model_bytes = 0;
    check(kmx_model_save_to_buffer(nullptr, 0, &model_bytes, model.get()));
    std::printf(
        "compressed: leaves=%.0f landmarks=%.0f pseudo=%.0f storage=%s bytes=%.0f (model %lld bytes) arena=%.0f "
        "time=%.3fs\n",
        predictor_info(predictor, KMX_PREDICTOR_LEAVES), predictor_info(predictor, KMX_PREDICTOR_LANDMARKS),
        predictor_info(predictor, KMX_PREDICTOR_PSEUDO), storage_name(predictor),
        predictor_info(predictor, KMX_PREDICTOR_BYTES), (long long)model_bytes,
        predictor_info(predictor, KMX_PREDICTOR_ARENA_BYTES), seconds);
    if (predictor_info(predictor, KMX_PREDICTOR_PROBABILITY) != 0)
        std::printf("compressed with the model's probability estimates (predict -b 1)\n");
    print_budget_choice(predictor, "compressed to a budget: ");
    return 0;
}

int run_export(int argc, char **argv) {
    static const std::vector<OptionSpec> specs = {
        {nullptr, "--c", false, "write a C header (the only format so far; required)"},
        {nullptr, "--name", true, "the array's C identifier (default kmx_predictor_blob)"},
        {"-h", "--help", false, "show this help"},
    };
    const ParsedArgs args = parse_args(argc, argv, specs);
    if (args.has("--help") || args.positional.size() != 2 || !args.has("--c"))
        return usage(args, "export --c [--name NAME] PREDICTOR_FILE OUT.h", specs);
    const Predictor owned = make<Predictor>(kmx_predictor_load, args.positional[0].c_str());
    const kmx_predictor *predictor = owned.get();
    const std::string name = args.get("--name", "kmx_predictor_blob");
    check(kmx_predictor_export_c(predictor, args.positional[1].c_str(), name.c_str()));
    std::printf("exported %s: %.0f bytes as %s[] (arena %.0f bytes)\n", args.positional[1].c_str(),
                predictor_info(predictor, KMX_PREDICTOR_BYTES), name.c_str(),
                predictor_info(predictor, KMX_PREDICTOR_ARENA_BYTES));
    return 0;
}

int describe_predictor(const char *path) {
    const Predictor owned = make<Predictor>(kmx_predictor_load, path);
    const kmx_predictor *predictor = owned.get();
    const double classes = predictor_info(predictor, KMX_PREDICTOR_CLASSES);
    std::printf("file      %s (kmx compact predictor)\n", path);
    std::printf("bytes     %.0f (%s)\n", predictor_info(predictor, KMX_PREDICTOR_BYTES), storage_name(predictor));
    std::printf("storage   %s%s\n", storage_name(predictor),
                storage_detail(predictor_info(predictor, KMX_PREDICTOR_STORAGE)));
    std::printf("columns   %.0f\n", predictor_info(predictor, KMX_PREDICTOR_COLUMNS));
    if (classes == 0)
        std::printf("task      regression\n");
    else
        std::printf("classes   %.0f (%.0f decision values)\n", classes,
                    predictor_info(predictor, KMX_PREDICTOR_OUTPUTS));
    if (classes != 0)
        std::printf("probability %s\n", predictor_info(predictor, KMX_PREDICTOR_PROBABILITY) != 0
                                            ? "yes (the model's Platt sigmoids: predict -b 1)"
                                            : "no");
    std::printf("leaves    %.0f\n", predictor_info(predictor, KMX_PREDICTOR_LEAVES));
    std::printf("landmarks %.0f\n", predictor_info(predictor, KMX_PREDICTOR_LANDMARKS));
    std::printf("pseudo    %.0f\n", predictor_info(predictor, KMX_PREDICTOR_PSEUDO));
    std::printf("arena     %.0f bytes (kmx_infer_open)\n", predictor_info(predictor, KMX_PREDICTOR_ARENA_BYTES));
    print_budget_choice(predictor, "budget    ");
    return 0;
}

}  // namespace kmx_cli
