// kmx train [options] TRAIN_FILE MODEL_FILE — trains a kernel SVM, SVR, one-class SVM or KRR and
// saves the model; a progress bar on stderr when it is a terminal. Under
// mpirun (ranks.h) every rank trains on its shard of TRAIN_FILE and rank 0
// writes the model.
#define KMX_EXPERIMENTAL_API  // kmx_dataset_load_shard
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "cli.h"
#include "ranks.h"

namespace kmx_cli {

const std::vector<OptionSpec> &train_options() {
    static const std::vector<OptionSpec> specs = command_options(
        {
            {"-s", "--solver", true, nullptr, KMX_PARAM_METHOD},
            {"-c", "--cost", true, nullptr, KMX_PARAM_C},
            {"-e", "--eps", true, nullptr, KMX_PARAM_EPS},
            {"-p", "--epsilon-svr", true, nullptr, KMX_PARAM_EPSILON_SVR},
            {nullptr, "--svr-dcsvm", true, nullptr, KMX_PARAM_SVR_DCSVM},
            {nullptr, "--libsvm-folds", true, nullptr, KMX_PARAM_LIBSVM_FOLDS},
            {nullptr, "--bias", true, nullptr, KMX_PARAM_BIAS},
            {nullptr, "--levels", true, nullptr, KMX_PARAM_LEVELS},
            {nullptr, "--clusters-per-level", true, nullptr, KMX_PARAM_CLUSTERS_PER_LEVEL},
            {nullptr, "--early-level", true, nullptr, KMX_PARAM_EARLY_LEVEL},
            {nullptr, "--sample-size", true, nullptr, KMX_PARAM_SAMPLE_SIZE},
            {"-l", "--lambda", true, nullptr, KMX_PARAM_LAMBDA},
            {nullptr, "--task", true, nullptr, KMX_PARAM_TASK},
            {nullptr, "--num-centers", true, nullptr, KMX_PARAM_CENTERS},
            {nullptr, "--centers", true, nullptr, KMX_PARAM_CENTER_METHOD},
            {nullptr, "--iterations", true, nullptr, KMX_PARAM_ITERATIONS},
            {nullptr, "--tolerance", true, nullptr, KMX_PARAM_TOLERANCE},
            {nullptr, "--validation", true, nullptr, KMX_PARAM_VALIDATION},
            {nullptr, "--reproducible", false, nullptr, KMX_PARAM_REPRODUCIBLE},
            {nullptr, "--kernel-precision", true, "float32: FALKON's K_nM in float32 (half the cache)",
             KMX_PARAM_KERNEL_PRECISION},
            {"-m", "--cache-size", true,
             "MB as LIBSVM's -m, or with a K/M/G suffix; --verbose says which cache FALKON keeps",
             KMX_PARAM_CACHE_SIZE},
            {"-h", "--shrinking", true, nullptr, KMX_PARAM_SHRINKING},
            {"-t", "--kernel-type", true,
             "LIBSVM's kernel numbers: 0 linear, 1 polynomial, 2 rbf, 3 sigmoid, 4 precomputed", KMX_PARAM_KERNEL},
            {"-q", "--quiet", false, "print nothing when training succeeds (LIBSVM's -q)"},
            {"-v", "--cross-validation", true,
             "K-fold cross-validation as LIBSVM's -v K: prints the accuracy (regression: the mean squared error) "
             "over the folds and writes no model (the same as kmx cv)"},
            {"-b", "--probability", true, nullptr, KMX_PARAM_PROBABILITY},
            {"-n", "--nu", true, nullptr, KMX_PARAM_NU},
            {nullptr, "--rank", true, nullptr, KMX_PARAM_RANK},
            {nullptr, "--clusters", true, nullptr, KMX_PARAM_CLUSTERS},
            {nullptr, "--threshold", true, nullptr, KMX_PARAM_THRESHOLD},
            {nullptr, "--loss", true, nullptr, KMX_PARAM_LOSS},
            {nullptr, "--stages", true, nullptr, KMX_PARAM_STAGES},
            {nullptr, "--newton-iterations", true, nullptr, KMX_PARAM_NEWTON_ITERATIONS},
            {nullptr, "--precondition", true, nullptr, KMX_PARAM_PRECONDITION},
            {nullptr, "--ovo", false, "multiclass one-vs-one (default, as LIBSVM)"},
            {nullptr, "--ovr", false, "multiclass one-vs-rest"},
        },
        true);
    return specs;
}

namespace {

Solver make_solver(const ParsedArgs &args) {
    if (args.has("--ovr") && args.has("--ovo")) throw UsageError{"--ovr and --ovo exclude each other"};
    std::string params = param_string(args, train_options(), KMX_PARAM_OWNER_SOLVER);
    params += args.has("--ovr") ? " multiclass=ovr" : " multiclass=ovo";
    if (!args.has("--solver")) params += " method=" + chosen_method_name(args);
    return make<Solver>(kmx_solver_create_from_string, params.c_str());
}

// LIBSVM's -wLABEL WEIGHT (C × WEIGHT for the class LABEL, e.g. -w1 2 -w-1 0.5),
// taken out of argv; the other arguments into `rest`.
std::vector<ClassWeight> class_weights(int argc, char **argv, std::vector<char *> &rest) {
    std::vector<ClassWeight> weights;
    for (int i = 0; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg.size() < 3 || arg.compare(0, 2, "-w") != 0) {
            rest.push_back(argv[i]);
            continue;
        }
        if (i + 1 >= argc) throw UsageError{"option " + arg + " needs a weight (LIBSVM's -wLABEL WEIGHT)"};
        weights.push_back({to_double(arg.substr(2), "the label of -wLABEL"), to_double(argv[++i], arg.c_str())});
    }
    return weights;
}

// The methods that train across ranks: every sum over rows is AllReduced.
void check_distributed(const ParsedArgs &args) {
    if (ranks().size == 1) return;
    const std::string method = chosen_method_name(args);
    if (method != "falkon" && method != "nystrom-tron")
        throw UsageError{"-s " + method + " runs in one process only; across " + std::to_string(ranks().size) +
                         " ranks (mpirun) use -s falkon or -s nystrom-tron"};
}

// This rank's shard of the file when there are several ranks, else all of it.
Dataset load_training_data(kmx_context *ctx, const std::string &path, const ParsedArgs &args) {
    if (ranks().size == 1) return load_dataset(ctx, path, args);
    return make<Dataset>(kmx_dataset_load_shard, ctx, path.c_str(), format_option(args), int64_t(ranks().rank),
                         int64_t(ranks().size));
}

// Rows up to which a grid search costs little next to guessing (as LIBSVM's
// guide advises one before training).
constexpr int64_t kSuggestGridRows = 100000;

// A note when C and gamma are both the defaults on data small enough to search them.
void suggest_grid(const ParsedArgs &args, int64_t n) {
    if (args.has("--cost") || args.has("--gamma") || n > kSuggestGridRows || !method_uses(args, KMX_PARAM_C)) return;
    if (args.get("--kernel", "rbf") == "linear" || args.get("--kernel-type", "2") == "0" || precomputed_kernel(args))
        return;
    std::fprintf(stderr,
                 "kmx: note: C and gamma are the defaults (C=1, gamma=1/d); 'kmx grid' searches them by "
                 "cross-validation\n");
}

}  // namespace

TrainingArgs parse_training_args(int argc, char **argv, const std::vector<OptionSpec> &specs) {
    std::vector<char *> rest;
    TrainingArgs parsed;
    parsed.weights = class_weights(argc, argv, rest);
    parsed.args = parse_args(int(rest.size()), rest.data(), specs);
    return parsed;
}

TrainingSetup set_up_training(const TrainingArgs &parsed) {
    const ParsedArgs &args = parsed.args;
    check_options_apply(args, train_options());
    check_distributed(args);
    TrainingSetup setup{make_solver(args), make_kernel(args, train_options()), make_context(args, train_options())};
    if (!parsed.weights.empty() && !method_uses(args, KMX_PARAM_C))
        throw UsageError{"option -wLABEL (a class's weight on C) does not apply to -s " + chosen_method_name(args) +
                         ", which has no C"};
    for (const ClassWeight &w : parsed.weights)
        check(kmx_solver_set_class_weight(setup.solver.get(), w.label, w.weight));
    return setup;
}

int run_train(int argc, char **argv) {
    const TrainingArgs parsed = parse_training_args(argc, argv, train_options());
    const ParsedArgs &args = parsed.args;
    if (args.has("--cross-validation") && !args.has("--help")) return cross_validate_file(parsed, "train");
    if (args.has("--help") || args.positional.size() != 2)
        return usage(args, "train [options] TRAIN_FILE MODEL_FILE   (with -v K: TRAIN_FILE only)", train_options());
    const TrainingSetup setup = set_up_training(parsed);
    attach_ranks(setup.ctx.get());
    ProgressBar bar;
    if (ranks().rank == 0) bar.attach(setup.ctx.get());
    Dataset data = load_training_data(setup.ctx.get(), args.positional[0], args);
    install_kill_hook(setup.ctx.get());
    kmx_model *trained = nullptr;
    const double start = now_seconds();
    const kmx_status status =
        kmx_solver_train(&trained, setup.ctx.get(), setup.solver.get(), setup.kernel.get(), data.get());
    const double seconds = now_seconds() - start;
    bar.finish();
    check(status);
    const Model model(trained);
    int64_t n = 0, d = 0;
    check(kmx_dataset_rows(&n, data.get()));
    check(kmx_dataset_cols(&d, data.get()));
    data.reset();  // saving holds the model's file bytes beside the model: the data's memory is free for them
    n = sum_over_ranks(n);
    d = max_over_ranks(d);
    if (ranks().rank != 0) return 0;  // every rank holds the same model: rank 0 writes it
    check(kmx_model_save(model.get(), args.positional[1].c_str()));
    if (args.has("--quiet")) return 0;
    const bool regression = model_info(model.get(), KMX_INFO_TASK) == KMX_TASK_REGRESSION;
    const std::string task =
        regression ? "regression" : "classes=" + std::to_string((long long)model_info(model.get(), KMX_INFO_CLASSES));
    std::printf("trained %s: n=%lld d=%lld %s sv=%.0f time=%.3fs\n",
                method_name(model_info(model.get(), KMX_INFO_METHOD)).c_str(), (long long)n, (long long)d, task.c_str(),
                model_info(model.get(), KMX_INFO_SUPPORT_VECTORS), seconds);
    suggest_grid(args, n);
    return 0;
}

}  // namespace kmx_cli
