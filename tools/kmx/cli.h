// cli.h — what every kmx subcommand shares: option parsing in the style of
// LIBSVM's tools (short flags with a value, then positional files), error
// reporting from kmx_last_error(), and a monotonic clock.
#pragma once
#include <kmx/kmx.h>

#include <string>
#include <vector>

namespace kmx_cli {

// One option a subcommand accepts: "-g" / "--gamma", and whether it takes a value.
struct OptionSpec {
    const char *short_name;  // "-g" or nullptr
    const char *long_name;   // "--gamma"
    bool takes_value;
    const char *help;
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

ParsedArgs parse_args(int argc, char **argv, const std::vector<OptionSpec> &specs);
void print_options(const std::vector<OptionSpec> &specs);
// Prints "usage: kmx <synopsis>" and the options on stderr; returns the exit
// status for it: 0 when --help asked for it, 2 for a usage mistake.
int usage(const ParsedArgs &args, const char *synopsis, const std::vector<OptionSpec> &specs);

// Exits with status 1 and "kmx: error: <message>" unless status is KMX_OK.
void check(kmx_status status);

// Parses a whole number or a finite real for option `name` (UsageError if not).
long long to_int(const std::string &text, const char *name);
double to_double(const std::string &text, const char *name);

// A context with threads/seed/memory budget from --threads/--seed/--memory, logging to stderr with --verbose
// (--memory takes bytes with an optional K, M or G suffix: 512M, 2G).
kmx_context *make_context(const ParsedArgs &args);
extern const OptionSpec kContextOptions[4];
double to_bytes(const std::string &text, const char *name);

// A kernel from -k/-g/-d/-r (--kernel, --gamma, --degree, --coef0).
kmx_kernel *make_kernel(const ParsedArgs &args);
extern const OptionSpec kKernelOptions[4];

// A command's full option list: its own options, then the kernel options
// (kernel = true), -f/--format, -h/--help and all four context options.
std::vector<OptionSpec> command_options(std::vector<OptionSpec> own, bool kernel);

// --format: auto (default), libsvm or csv.
kmx_format format_option(const ParsedArgs &args);

// True if `path` starts with the model file / predictor blob magic.
bool is_model_file(const char *path);
bool is_predictor_file(const char *path);

double now_seconds();

// "svm", "dcsvm", "dcsvm-early", ... for a kmx_method value.
const char *method_name(double method);

// A one-line progress bar redrawn in place on stderr, installed on ctx when
// stderr is a terminal; finish() ends its line.
struct ProgressBar {
    int shown_percent = -1;
    bool drawn = false;
    void attach(kmx_context *ctx);
    void finish() const;
};

// Subcommands: each returns the process exit status.
int run_info(int argc, char **argv);
int run_kernel(int argc, char **argv);
int run_train(int argc, char **argv);
int run_predict(int argc, char **argv);
int run_approx(int argc, char **argv);
int run_compress(int argc, char **argv);
int run_export(int argc, char **argv);
int describe_predictor(const char *path);
double predictor_info(const kmx_predictor *predictor, kmx_predictor_info_key key);
int describe_model(const char *path);

}  // namespace kmx_cli
