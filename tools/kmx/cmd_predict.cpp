// kmx predict [options] MODEL_FILE TEST_FILE [OUTPUT_FILE] — labels one per
// line to OUTPUT_FILE (as svm-predict), accuracy and speed on stdout.
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
        {"-f", "--format", true, "auto (default), libsvm or csv"},
        {"-h", "--help", false, "show this help"},
        kContextOptions[0],
        kContextOptions[2],
    };
    return specs;
}

void write_labels(const char *path, const std::vector<double> &labels) {
    std::FILE *file = std::fopen(path, "w");
    if (!file) {
        std::fprintf(stderr, "kmx: error: cannot write '%s'\n", path);
        std::exit(1);
    }
    for (double label : labels) std::fprintf(file, "%.17g\n", label);
    if (std::fclose(file) != 0) {
        std::fprintf(stderr, "kmx: error: cannot write '%s'\n", path);
        std::exit(1);
    }
}

void report_accuracy(const std::vector<double> &predicted, const std::vector<double> &truth) {
    int64_t correct = 0;
    for (size_t i = 0; i < predicted.size(); ++i) correct += predicted[i] == truth[i];
    const double n = double(predicted.size());
    std::printf("accuracy = %.4g%% (%lld/%lld)\n", n > 0 ? 100.0 * double(correct) / n : 0.0, (long long)correct,
                (long long)predicted.size());
}

void report_rmse(const std::vector<double> &predicted, const std::vector<double> &truth) {
    double squares = 0;
    for (size_t i = 0; i < predicted.size(); ++i) squares += (predicted[i] - truth[i]) * (predicted[i] - truth[i]);
    std::printf("rmse = %.6g\n", predicted.empty() ? 0.0 : std::sqrt(squares / double(predicted.size())));
}

}  // namespace

int run_predict(int argc, char **argv) {
    const ParsedArgs args = parse_args(argc, argv, predict_options());
    if (args.has("--help") || args.positional.size() < 2 || args.positional.size() > 3) {
        std::fprintf(stderr, "usage: kmx predict [options] MODEL_FILE TEST_FILE [OUTPUT_FILE]\n");
        print_options(predict_options());
        return args.has("--help") ? 0 : 2;
    }
    kmx_context *ctx = make_context(args);
    kmx_model *model = nullptr;
    check(kmx_model_load(&model, args.positional[0].c_str()));
    kmx_dataset *data = nullptr;
    check(kmx_dataset_load(&data, ctx, args.positional[1].c_str(), format_option(args)));
    int64_t n = 0;
    check(kmx_dataset_rows(&n, data));
    std::vector<double> predicted(static_cast<size_t>(n)), truth(static_cast<size_t>(n));
    const double start = now_seconds();
    check(kmx_model_predict(predicted.data(), n, ctx, model, data));
    const double seconds = now_seconds() - start;
    check(kmx_dataset_get_labels(truth.data(), n, data));
    if (args.positional.size() == 3) write_labels(args.positional[2].c_str(), predicted);
    double task = KMX_TASK_CLASSIFICATION;
    check(kmx_model_info(&task, model, KMX_INFO_TASK));
    if (task == KMX_TASK_REGRESSION)
        report_rmse(predicted, truth);
    else
        report_accuracy(predicted, truth);
    std::printf("predict time = %.3g us/sample\n", n ? seconds * 1e6 / double(n) : 0.0);
    kmx_dataset_free(data);
    kmx_model_free(model);
    kmx_context_free(ctx);
    return 0;
}

}  // namespace kmx_cli
