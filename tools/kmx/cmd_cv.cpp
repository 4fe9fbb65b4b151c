// kmx cv [options] -v K TRAIN_FILE (and kmx train -v K, as LIBSVM's svm-train
// -v K) — K-fold cross-validation: every row predicted by the model trained
// on the other folds (kmx_solver_cross_validate), then the accuracy, or for
// regression the mean squared error and the squared correlation coefficient
// as LIBSVM prints them. No model is written.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "cli.h"
#include "ranks.h"

namespace kmx_cli {

namespace {

constexpr long long kDefaultFolds = 5;

// LIBSVM's "Squared correlation coefficient" of predictions and targets.
double squared_correlation(const std::vector<double> &predicted, const std::vector<double> &truth) {
    double sv = 0, sy = 0, svv = 0, syy = 0, svy = 0;
    const double n = double(predicted.size());
    for (size_t i = 0; i < predicted.size(); ++i) {
        sv += predicted[i];
        sy += truth[i];
        svv += predicted[i] * predicted[i];
        syy += truth[i] * truth[i];
        svy += predicted[i] * truth[i];
    }
    const double numerator = (n * svy - sv * sy) * (n * svy - sv * sy);
    const double denominator = (n * svv - sv * sv) * (n * syy - sy * sy);
    return denominator > 0 ? numerator / denominator : 0.0;
}

}  // namespace

CvScore score_predictions(const std::vector<double> &predicted, const std::vector<double> &truth, kmx_task task) {
    CvScore score;
    score.regression = task == KMX_TASK_REGRESSION;
    double squares = 0;
    int64_t correct = 0;
    for (size_t i = 0; i < predicted.size(); ++i) {
        squares += (predicted[i] - truth[i]) * (predicted[i] - truth[i]);
        correct += predicted[i] == truth[i];
    }
    const double n = std::max(1.0, double(predicted.size()));
    score.accuracy = 100.0 * double(correct) / n;
    score.mse = squares / n;
    score.squared_correlation = squared_correlation(predicted, truth);
    return score;
}

long long folds_option(const ParsedArgs &args) {
    const long long folds = to_int(args.get("--cross-validation", std::to_string(kDefaultFolds)), "-v");
    if (folds < 2) throw UsageError{"-v " + std::to_string(folds) + ": cross-validation needs at least 2 folds"};
    return folds;
}

int cross_validate_file(const TrainingArgs &parsed, const char *command) {
    const ParsedArgs &args = parsed.args;
    const bool train = std::string(command) == "train";
    if (args.has("--help") || args.positional.empty() || args.positional.size() > (train ? 2u : 1u)) {
        const std::string synopsis = std::string(command) + " [options] -v K TRAIN_FILE";
        return usage(args, synopsis.c_str(), train_options());
    }
    if (ranks().size > 1) throw UsageError{"cross-validation runs in one process only (not under mpirun)"};
    if (args.positional.size() == 2)
        std::fprintf(stderr, "kmx: note: with -v no model is written: '%s' is left alone (as LIBSVM's svm-train)\n",
                     args.positional[1].c_str());
    const long long folds = folds_option(args);
    const TrainingSetup setup = set_up_training(parsed);
    ProgressBar bar;
    bar.attach(setup.ctx.get());
    const Dataset data = load_dataset(setup.ctx.get(), args.positional[0], args);
    int64_t n = 0;
    check(kmx_dataset_rows(&n, data.get()));
    std::vector<double> predicted(static_cast<size_t>(n)), truth(static_cast<size_t>(n));
    check(kmx_dataset_get_labels(truth.data(), n, data.get()));
    kmx_task task = KMX_TASK_AUTO;
    const double start = now_seconds();
    const kmx_status status = kmx_solver_cross_validate(predicted.data(), n, &task, setup.ctx.get(), setup.solver.get(),
                                                        setup.kernel.get(), data.get(), folds);
    const double seconds = now_seconds() - start;
    bar.finish();
    check(status);
    std::printf("cross-validation: %lld folds, %lld rows, time=%.3fs\n", folds, (long long)n, seconds);
    if (task != KMX_TASK_REGRESSION) {
        report_accuracy(predicted, truth);
        return 0;
    }
    report_rmse(predicted, truth);
    std::printf("Squared correlation coefficient = %g (regression)\n",
                score_predictions(predicted, truth, task).squared_correlation);
    return 0;
}

int run_cv(int argc, char **argv) {
    const TrainingArgs parsed = parse_training_args(argc, argv, train_options());
    return cross_validate_file(parsed, "cv");
}

}  // namespace kmx_cli
