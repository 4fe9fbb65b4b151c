// kmx predict [options] MODEL_FILE TEST_FILE [OUTPUT_FILE] — labels one per
// line to OUTPUT_FILE (as svm-predict), accuracy (for regression rmse and
// svm-predict's mean squared error) and
// speed on stdout. MODEL_FILE may be a model or a compact predictor. With -b 1
// (a model trained with -b 1) OUTPUT_FILE is svm-predict -b 1's: a line
// "labels L1 L2 ...", then per row the most probable label and each class's probability.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "cli.h"

namespace kmx_cli {

namespace {

const std::vector<OptionSpec> &predict_options() {
    static const std::vector<OptionSpec> specs = {
        kFormatOption,
        {"-h", "--help", false, "show this help"},
        {"-q", "--quiet", false, "print nothing (LIBSVM's -q); the labels still go to OUTPUT_FILE"},
        {"-b", "--probability", true,
         "1 = probability estimates as LIBSVM's -b 1 (a model trained with -b 1, or a predictor compressed from one): "
         "OUTPUT_FILE gets a 'labels ...' line, then per row the most probable label and each class's probability; "
         "0 (default) = labels"},
        kContextOptions[0],
        kContextOptions[2],
        kContextOptions[4],
    };
    return specs;
}

void write_labels(const char *path, const std::vector<double> &labels) {
    std::FILE *file = std::fopen(path, "w");
    if (!file) throw CommandError{"cannot write '" + std::string(path) + "'"};
    for (double label : labels) std::fprintf(file, "%.17g\n", label);
    if (std::fclose(file) != 0) throw CommandError{"cannot write '" + std::string(path) + "'"};
}

// Says so when the library padded the data (only LIBSVM's rows may be narrower
// than the model: their absent trailing columns are zeros; dense ones fail).
void note_padding(const char *test_path, const kmx_dataset *data, int64_t expected) {
    int64_t d = 0;
    check(kmx_dataset_cols(&d, data));
    if (d >= expected) return;
    std::fprintf(stderr,
                 "kmx: note: '%s' has %lld columns, the model %lld: the %lld absent trailing columns were taken as "
                 "zeros (LIBSVM's sparse format)\n",
                 test_path, (long long)d, (long long)expected, (long long)(expected - d));
}

struct Predictions {
    std::vector<double> predicted, truth;
    std::vector<double> classes, probabilities;  // -b 1: the classes, n x classes probabilities
    bool regression = false;
    double seconds = 0;  // prediction alone
};

// -b: 0 (labels) or 1 (probabilities).
bool probability_option(const ParsedArgs &args) {
    const std::string b = args.get("--probability", "0");
    if (b != "0" && b != "1") throw UsageError{"-b " + b + ": probability estimates are -b 0 (default) or -b 1"};
    return b == "1";
}

// -b 1: each row's probabilities (of the model, or of the compact predictor
// when model is null), and as its label the most probable class (the first
// of equal ones), as svm-predict -b 1.
void predict_probabilities(kmx_context *ctx, const kmx_model *model, const kmx_predictor *predictor,
                           const kmx_dataset *data, Predictions &p) {
    const int64_t n = int64_t(p.predicted.size());
    const int64_t k =
        int64_t(model ? model_info(model, KMX_INFO_CLASSES) : predictor_info(predictor, KMX_PREDICTOR_CLASSES));
    hold_in_budget(ctx, sizeof(double) * double(n) * double(k), "the probabilities");
    p.classes.resize(size_t(k));
    p.probabilities.resize(size_t(n * k));
    if (model) {
        check(kmx_model_classes(p.classes.data(), k, model));
        check(kmx_model_predict_probability(p.probabilities.data(), n * k, ctx, model, data));
    } else {
        check(kmx_predictor_classes(p.classes.data(), k, predictor));
        check(kmx_predictor_predict_probability(p.probabilities.data(), n * k, ctx, predictor, data));
    }
    for (int64_t i = 0; i < n; ++i) {
        const double *row = p.probabilities.data() + i * k;
        p.predicted[size_t(i)] = p.classes[size_t(std::max_element(row, row + k) - row)];
    }
}

void write_probabilities(const char *path, const Predictions &p) {
    std::FILE *file = std::fopen(path, "w");
    if (!file) throw CommandError{"cannot write '" + std::string(path) + "'"};
    std::fprintf(file, "labels");
    for (double label : p.classes) std::fprintf(file, " %.17g", label);
    std::fprintf(file, "\n");
    const size_t k = p.classes.size();
    for (size_t i = 0; i < p.predicted.size(); ++i) {
        std::fprintf(file, "%.17g", p.predicted[i]);
        for (size_t c = 0; c < k; ++c) std::fprintf(file, " %g", p.probabilities[i * k + c]);
        std::fprintf(file, "\n");
    }
    if (std::fclose(file) != 0) throw CommandError{"cannot write '" + std::string(path) + "'"};
}

// Predicts test_path with a model file or a compact predictor file. The model
// (about its file's size, twice that while the file is read) and the result
// arrays come out of the memory budget before the data and the prediction.
Predictions predict_file(kmx_context *ctx, const char *model_path, const char *test_path, kmx_format format,
                         bool probability) {
    const bool compact = is_predictor_file(model_path);
    const double model_bytes = double(std::max(0LL, file_bytes(model_path)));
    hold_in_budget(ctx, 2 * model_bytes, "reading the model");
    const Predictor predictor = compact ? make<Predictor>(kmx_predictor_load, model_path) : Predictor();
    const Model model = compact ? Model() : make<Model>(kmx_model_load, model_path);
    return_to_budget(ctx, model_bytes);  // the file's copy is gone
    if (compact && probability && predictor_info(predictor.get(), KMX_PREDICTOR_PROBABILITY) == 0)
        throw CommandError{"-b 1: the compact predictor '" + std::string(model_path) +
                           "' carries no probability estimates: compress a model trained with -b 1, or predict with "
                           "the model file"};
    if (model) {  // a model of many machines holds more than its file's bytes in memory
        const double held = model_info(model.get(), KMX_INFO_MEMORY_BYTES);
        if (held > model_bytes) hold_in_budget(ctx, held - model_bytes, "the loaded model");
    }
    if (model && format == KMX_FORMAT_AUTO && model_info(model.get(), KMX_INFO_KERNEL) == KMX_KERNEL_PRECOMPUTED)
        format = KMX_FORMAT_PRECOMPUTED;  // rows of kernel values, as the model was trained on
    const Dataset data = make<Dataset>(kmx_dataset_load, ctx, test_path, format);
    int64_t n = 0;
    check(kmx_dataset_rows(&n, data.get()));
    hold_in_budget(ctx, 2.0 * sizeof(double) * double(n), "the predictions and labels");
    Predictions p;
    p.predicted.resize(size_t(n));
    p.truth.resize(size_t(n));
    const double start = now_seconds();
    if (probability)
        predict_probabilities(ctx, model.get(), predictor.get(), data.get(), p);
    else
        check(model ? kmx_model_predict(p.predicted.data(), n, ctx, model.get(), data.get())
                    : kmx_predictor_predict(p.predicted.data(), n, ctx, predictor.get(), data.get()));
    p.seconds = now_seconds() - start;
    check(kmx_dataset_get_labels(p.truth.data(), n, data.get()));
    p.regression = model ? model_info(model.get(), KMX_INFO_TASK) == KMX_TASK_REGRESSION
                         : predictor_info(predictor.get(), KMX_PREDICTOR_CLASSES) == 0;
    const double expected =
        model ? model_info(model.get(), KMX_INFO_COLUMNS) : predictor_info(predictor.get(), KMX_PREDICTOR_COLUMNS);
    note_padding(test_path, data.get(), int64_t(expected));
    if (model && !probability && model_info(model.get(), KMX_INFO_PROBABILITY) != 0)
        std::fprintf(stderr, "kmx: note: the model has probability estimates; -b 1 prints them\n");
    if (!model && !probability && predictor_info(predictor.get(), KMX_PREDICTOR_PROBABILITY) != 0)
        std::fprintf(stderr, "kmx: note: the predictor has probability estimates; -b 1 prints them\n");
    return p;
}

}  // namespace

int run_predict(int argc, char **argv) {
    const ParsedArgs args = parse_args(argc, argv, predict_options());
    if (args.has("--help") || args.positional.size() < 2 || args.positional.size() > 3)
        return usage(args, "predict [options] MODEL_FILE TEST_FILE [OUTPUT_FILE]", predict_options());
    const Context ctx = make_context(args, predict_options());
    const bool probability = probability_option(args);
    const Predictions p = predict_file(ctx.get(), args.positional[0].c_str(), args.positional[1].c_str(),
                                       format_option(args), probability);
    if (args.positional.size() == 3 && probability) write_probabilities(args.positional[2].c_str(), p);
    if (args.positional.size() == 3 && !probability) write_labels(args.positional[2].c_str(), p.predicted);
    if (args.has("--quiet")) return 0;
    if (p.regression)
        report_rmse(p.predicted, p.truth);
    else
        report_accuracy(p.predicted, p.truth);
    const double n = double(p.predicted.size());
    std::printf("predict time = %.3g us/sample\n", n > 0 ? p.seconds * 1e6 / n : 0.0);
    return 0;
}

}  // namespace kmx_cli
