// cli.h — what every kmx subcommand shares: option parsing in the style of
// LIBSVM's tools (short flags with a value, then positional files), error
// reporting from kmx_last_error(), and a monotonic clock.
#pragma once
#include <kmx/kmx.h>

#include <memory>
#include <string>
#include <vector>

namespace kmx_cli {

// Owned C handles: each is freed by its kmx_*_free when it goes out of scope.
template <class T, void (*Free)(T *)>
struct FreeWith {
    void operator()(T *handle) const { Free(handle); }
};
template <class T, void (*Free)(T *)>
using Handle = std::unique_ptr<T, FreeWith<T, Free>>;
using Context = Handle<kmx_context, kmx_context_free>;
using Dataset = Handle<kmx_dataset, kmx_dataset_free>;
using Kernel = Handle<kmx_kernel, kmx_kernel_free>;
using Solver = Handle<kmx_solver, kmx_solver_free>;
using Model = Handle<kmx_model, kmx_model_free>;
using Approx = Handle<kmx_approx, kmx_approx_free>;
using Predictor = Handle<kmx_predictor, kmx_predictor_free>;

// One option a subcommand accepts: "-g" / "--gamma", and whether it takes a
// value. An option that sets a library parameter names it: its help then
// comes from the parameter table (description, default, value names), with
// `help`, if any, added as a note.
struct OptionSpec {
    const char *short_name;  // "-g" or nullptr
    const char *long_name;   // "--gamma"
    bool takes_value;
    const char *help;
    kmx_param param = kmx_param(0);
};

struct ParsedArgs {
    std::vector<std::pair<std::string, std::string>> options;  // long name -> value ("" for flags)
    std::vector<std::string> positional;
    bool has(const char *long_name) const;
    std::string get(const char *long_name, const std::string &fallback) const;
};

// Thrown for a usage mistake (exit status 2).
struct UsageError {
    std::string message;
};
// Thrown for a failed command (exit status 1, "kmx: error: <message>"). Both
// unwind to main, so every handle a command holds is freed on the way out.
struct CommandError {
    std::string message;
};

ParsedArgs parse_args(int argc, char **argv, const std::vector<OptionSpec> &specs);
// "name=value ..." for the given options of specs that set a parameter taken by
// `owner` (KMX_PARAM_OWNER_*); a flag sets 1, --memory and --cache-size take K/M/G.
std::string param_string(const ParsedArgs &args, const std::vector<OptionSpec> &specs, int64_t owner);
// A parameter's range as the CLI prints it: "(0, inf)", "64K or more" (byte
// counts), "enum"; whole-number ranges start with `integers` ("int [1, 8]").
std::string range_text(kmx_param param, const char *integers);
// The help line of a parameter: its description, its values or default.
std::string param_help(kmx_param param);
// The CLI's spelling of a value name: dashes for underscores ("dcsvm-early").
std::string cli_spelling(const char *name);
// `text` (a description or an error from the library) with the library's
// value names in the CLI's spelling: "nystrom_tron" becomes "nystrom-tron".
std::string in_cli_words(std::string text);
void print_options(const std::vector<OptionSpec> &specs);
// Prints "usage: kmx <synopsis>" and the options on stderr; returns the exit
// status for it: 0 when --help asked for it, 2 for a usage mistake.
int usage(const ParsedArgs &args, const char *synopsis, const std::vector<OptionSpec> &specs);

// Throws CommandError with kmx_last_error() unless status is KMX_OK.
void check(kmx_status status);

// Parses a whole number or a finite real for option `name` (UsageError if not).
long long to_int(const std::string &text, const char *name);
double to_double(const std::string &text, const char *name);

// A context with threads/seed/memory budget/precision from --threads/--seed/--memory/--precision, logging to
// stderr with --verbose
// (--memory takes bytes with an optional K, M or G suffix: 512M, 2G).
Context make_context(const ParsedArgs &args, const std::vector<OptionSpec> &specs);
extern const OptionSpec kContextOptions[5];
double to_bytes(const std::string &text, const char *name, double unit = 1);  // unit: of a number without K/M/G

// -f/--format: auto (default), libsvm, csv or kmxd.
extern const OptionSpec kFormatOption;

// A kernel from -k/-g/-d/-r (--kernel, --gamma, --degree, --coef0).
Kernel make_kernel(const ParsedArgs &args, const std::vector<OptionSpec> &specs);
extern const OptionSpec kKernelOptions[4];

// Calls create(&handle, args...), exits on failure, returns the owned handle.
template <class H, class Create, class... Args>
H make(Create create, Args... args) {
    typename H::pointer handle = nullptr;
    check(create(&handle, args...));
    return H(handle);
}
// A data file (--format) loaded with ctx.
Dataset load_dataset(kmx_context *ctx, const std::string &path, const ParsedArgs &args);

// Whether the method of -s (the default when none is given) uses solver
// parameter `param`; true when -s names no method (param_string says so).
bool method_uses(const ParsedArgs &args, kmx_param param);

// A command's full option list: its own options, then the kernel options
// (kernel = true), -f/--format, -h/--help and all four context options.
std::vector<OptionSpec> command_options(std::vector<OptionSpec> own, bool kernel);
// A UsageError for an option the chosen method (-s, default dcsvm) does not
// use: "option -p/--epsilon-svr does not apply to -s dcsvm; it applies to -s svr".
void check_options_apply(const ParsedArgs &args, const std::vector<OptionSpec> &specs);

// --format: auto (default), libsvm, csv or kmxd.
kmx_format format_option(const ParsedArgs &args);

// True if `path` starts with the model file / predictor blob magic.
bool is_model_file(const char *path);
// Bytes of a file (-1 if it cannot be read).
long long file_bytes(const char *path);
// Takes `bytes` the command itself holds (a model read whole, result arrays)
// out of ctx's memory budget, so that the library's calls get what is left and
// the process stays within --memory; fails before work if they do not fit.
void hold_in_budget(kmx_context *ctx, double bytes, const char *what);
// "812 bytes", "64.0 KB", "466.2 MB", "3.21 GB", "no limit" (2^53), as the library's messages say them.
std::string readable_bytes(double bytes);
// Gives bytes taken by hold_in_budget back (the command freed them).
void return_to_budget(kmx_context *ctx, double bytes);
bool is_predictor_file(const char *path);

double now_seconds();

// "svm", "dcsvm", "dcsvm-early", ... for a kmx_method value.
std::string method_name(double method);

// A one-line progress bar redrawn in place on stderr, installed on ctx when
// stderr is a terminal; finish() ends its line.
// A bar on stderr (when it is a terminal): percent, phase, time so far and
// the time left at the rate so far; redrawn when the percent changes, or
// each second so the clock moves.
struct ProgressBar {
    int shown_percent = -1;
    bool drawn = false;
    double started = 0;   // now_seconds() at attach
    double drawn_at = 0;  // seconds after started
    void attach(kmx_context *ctx);
    void finish() const;
};

// What kmx train and kmx cv share: train's options, LIBSVM's -wLABEL WEIGHT
// class weights (taken out of argv before the options are parsed), and the
// solver, kernel and context they ask for.
const std::vector<OptionSpec> &train_options();
struct ClassWeight {
    double label, weight;
};
struct TrainingArgs {
    ParsedArgs args;
    std::vector<ClassWeight> weights;
};
struct TrainingSetup {
    Solver solver;
    Kernel kernel;
    Context ctx;
};
// `specs`: train_options(), or a command's own list that extends it.
TrainingArgs parse_training_args(int argc, char **argv, const std::vector<OptionSpec> &specs);
// Checks the options (LIBSVM letters kmx refuses, options the method does not
// use, one process only for the SVM methods) and makes the handles.
TrainingSetup set_up_training(const TrainingArgs &parsed);
// kmx cv / kmx train -v K: cross-validates the training file `parsed` names
// and prints the accuracy (regression: mean squared error and squared
// correlation); `command` names the command in its usage line.
int cross_validate_file(const TrainingArgs &parsed, const char *command);
// -v K (default 5), at least 2: a UsageError otherwise.
long long folds_option(const ParsedArgs &args);
// What cross-validated predictions score against the labels: accuracy (%),
// and for regression (task) the mean squared error and LIBSVM's squared
// correlation coefficient.
struct CvScore {
    bool regression = false;
    double accuracy = 0, mse = 0, squared_correlation = 0;
};
CvScore score_predictions(const std::vector<double> &predicted, const std::vector<double> &truth, kmx_task task);

// "accuracy = 97.50% (1950/2000)" of predicted labels against the true ones.
void report_accuracy(const std::vector<double> &predicted, const std::vector<double> &truth);
// "rmse = ..." and svm-predict's "Mean squared error = ... (regression)".
void report_rmse(const std::vector<double> &predicted, const std::vector<double> &truth);

// Subcommands: each returns the process exit status.
int run_info(int argc, char **argv);
int run_kernel(int argc, char **argv);
int run_train(int argc, char **argv);
int run_cv(int argc, char **argv);
int run_grid(int argc, char **argv);
int run_predict(int argc, char **argv);
int run_approx(int argc, char **argv);
int run_compress(int argc, char **argv);
int run_export(int argc, char **argv);
int run_params(int argc, char **argv);
int run_convert(int argc, char **argv);
int describe_predictor(const char *path);
double predictor_info(const kmx_predictor *predictor, kmx_predictor_info_key key);
double model_info(const kmx_model *model, kmx_model_info_key key);
int describe_model(const char *path);

}  // namespace kmx_cli
