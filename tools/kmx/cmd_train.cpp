// kmx train [options] TRAIN_FILE MODEL_FILE — trains a kernel SVM and saves
// the model; a progress bar on stderr when it is a terminal.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "cli.h"

namespace kmx_cli {

namespace {

const std::vector<OptionSpec> &train_options() {
    static const std::vector<OptionSpec> specs = command_options({
        {"-s", "--solver", true, "dcsvm (default), dcsvm-early, bka, svm, krr, nystrom-krr, meka-krr or falkon"},
        {"-c", "--cost", true, "SVM cost C > 0 (default 1)"},
        {"-e", "--eps", true, "stopping tolerance on the KKT violation (default 0.001)"},
        {nullptr, "--bias", true, "auto (default: on for svm, off for DC-SVM), on or off"},
        {nullptr, "--levels", true, "DC-SVM levels (default 4)"},
        {nullptr, "--clusters-per-level", true, "DC-SVM clusters per level k (default 4)"},
        {nullptr, "--early-level", true, "level whose models predict for dcsvm-early, clusters for bka (default 3)"},
        {nullptr, "--sample-size", true, "kernel k-means sample per level (default 1000)"},
        {"-l", "--lambda", true, "KRR methods: ridge lambda > 0 (default 1e-6)"},
        {nullptr, "--task", true, "KRR methods: auto (default), classification or regression"},
        {"-m", "--num-centers", true, "nystrom-krr landmarks / falkon centers M (default: min(n, max(100, 5 sqrt n)))"},
        {nullptr, "--centers", true, "nystrom-krr / falkon center choice: uniform (default), kmeans or leverage"},
        {nullptr, "--iterations", true, "falkon: conjugate-gradient iterations (default 20)"},
        {nullptr, "--tolerance", true, "falkon: stop at this relative residual (default 1e-7; 0: iterations only)"},
        {nullptr, "--validation", true, "falkon: fraction of rows held out for early stopping (default 0)"},
        {nullptr, "--cache-size", true, "kernel cache bytes (K/M/G allowed), default auto: SVMs what the budget leaves; falkon "
                                        "keeps all of K_nM across CG passes if it fits the memory budget, "
                                        "else what does (-v says which); a value caps it"},
        {nullptr, "--rank", true, "meka-krr: rank per cluster; nystrom-krr: truncation rank (default auto / none)"},
        {nullptr, "--clusters", true, "meka-krr: clusters (default auto)"},
        {nullptr, "--threshold", true, "meka-krr: skip blocks whose center kernel value is below it (default 0.001)"},
        {nullptr, "--ovo", false, "multiclass one-vs-one (default, as LIBSVM)"},
        {nullptr, "--ovr", false, "multiclass one-vs-rest"},
    }, true);
    return specs;
}

struct NumericOption {
    const char *option;
    const char *param;
};
const NumericOption kSolverOptions[] = {
    {"--cost", "C"},
    {"--eps", "eps"},
    {"--bias", "bias"},
    {"--levels", "levels"},
    {"--clusters-per-level", "clusters_per_level"},
    {"--early-level", "early_level"},
    {"--sample-size", "sample_size"},
    {"--lambda", "lambda"},
    {"--task", "task"},
    {"--num-centers", "centers"},
    {"--centers", "center_method"},
    {"--iterations", "iterations"},
    {"--tolerance", "tolerance"},
    {"--validation", "validation"},
    {"--rank", "rank"},
    {"--clusters", "clusters"},
    {"--threshold", "threshold"},
};

kmx_solver *make_solver(const ParsedArgs &args) {
    std::string params = "method=" + args.get("--solver", "dcsvm");
    for (const NumericOption &option : kSolverOptions)
        if (args.has(option.option)) params += std::string(" ") + option.param + "=" + args.get(option.option, "");
    if (args.has("--cache-size"))
        params += " cache_size=" + std::to_string((long long)to_bytes(args.get("--cache-size", ""), "--cache-size"));
    if (args.has("--ovr") && args.has("--ovo")) throw UsageError{"--ovr and --ovo exclude each other"};
    params += args.has("--ovr") ? " multiclass=ovr" : " multiclass=ovo";
    kmx_solver *solver = nullptr;
    check(kmx_solver_create_from_string(&solver, params.c_str()));
    return solver;
}

}  // namespace

int run_train(int argc, char **argv) {
    const ParsedArgs args = parse_args(argc, argv, train_options());
    if (args.has("--help") || args.positional.size() != 2)
        return usage(args, "train [options] TRAIN_FILE MODEL_FILE", train_options());
    kmx_solver *solver = make_solver(args);
    kmx_kernel *kernel = make_kernel(args);
    kmx_context *ctx = make_context(args);
    ProgressBar bar;
    bar.attach(ctx);
    kmx_dataset *data = nullptr;
    check(kmx_dataset_load(&data, ctx, args.positional[0].c_str(), format_option(args)));
    kmx_model *model = nullptr;
    const double start = now_seconds();
    const kmx_status status = kmx_solver_train(&model, solver, ctx, kernel, data);
    const double seconds = now_seconds() - start;
    bar.finish();
    check(status);
    check(kmx_model_save(model, args.positional[1].c_str()));
    int64_t n = 0, d = 0;
    double method = 0, classes = 0, sv = 0;
    check(kmx_dataset_rows(&n, data));
    check(kmx_dataset_cols(&d, data));
    check(kmx_model_info(&method, model, KMX_INFO_METHOD));
    check(kmx_model_info(&classes, model, KMX_INFO_CLASSES));
    check(kmx_model_info(&sv, model, KMX_INFO_SUPPORT_VECTORS));
    std::printf("trained %s: n=%lld d=%lld classes=%g sv=%g time=%.3fs\n", method_name(method), (long long)n,
                (long long)d, classes, sv, seconds);
    kmx_model_free(model);
    kmx_dataset_free(data);
    kmx_context_free(ctx);
    kmx_kernel_free(kernel);
    kmx_solver_free(solver);
    return 0;
}

}  // namespace kmx_cli
