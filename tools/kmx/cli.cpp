#include "cli.h"

#include <unistd.h>

#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>

namespace kmx_cli {

namespace {
constexpr double kUnlimitedMemory = 9007199254740992.0;  // 2^53: KMX_PARAM_MEMORY_BUDGET's "unlimited"
}  // namespace

const OptionSpec kContextOptions[4] = {
    {nullptr, "--threads", true, "worker threads (default: every core this process may use)"},
    {nullptr, "--seed", true, "random seed (default 0)"},
    {nullptr, "--memory", true,
     "memory budget in bytes, K/M/G suffixes allowed, or 'unlimited' (default: 80% of available memory)"},
    {"-v", "--verbose", false, "log what the library does (levels, solver statistics) on stderr"},
};

const OptionSpec kKernelOptions[4] = {
    {"-k", "--kernel", true, "rbf (default), laplacian, polynomial, linear or sigmoid"},
    {"-g", "--gamma", true, "kernel width gamma > 0 (default 1/columns)"},
    {"-d", "--degree", true, "polynomial degree (default 3)"},
    {"-r", "--coef0", true, "coef0 of polynomial and sigmoid kernels (default 0)"},
};

std::vector<OptionSpec> command_options(std::vector<OptionSpec> own, bool kernel) {
    if (kernel) own.insert(own.end(), std::begin(kKernelOptions), std::end(kKernelOptions));
    own.push_back({"-f", "--format", true, "auto (default), libsvm or csv"});
    own.push_back({"-h", "--help", false, "show this help"});
    own.insert(own.end(), std::begin(kContextOptions), std::end(kContextOptions));
    return own;
}

bool ParsedArgs::has(const char *long_name) const {
    for (const auto &option : options)
        if (option.first == long_name) return true;
    return false;
}

std::string ParsedArgs::get(const char *long_name, const std::string &fallback) const {
    std::string value = fallback;
    for (const auto &option : options)
        if (option.first == long_name) value = option.second;
    return value;
}

namespace {
const OptionSpec *find_option(const std::vector<OptionSpec> &specs, const char *arg) {
    for (const OptionSpec &spec : specs)
        if ((spec.short_name && std::strcmp(arg, spec.short_name) == 0) || std::strcmp(arg, spec.long_name) == 0)
            return &spec;
    return nullptr;
}
}  // namespace

ParsedArgs parse_args(int argc, char **argv, const std::vector<OptionSpec> &specs) {
    ParsedArgs parsed;
    for (int i = 0; i < argc; ++i) {
        const char *arg = argv[i];
        if (arg[0] != '-' || arg[1] == '\0') {
            parsed.positional.emplace_back(arg);
            continue;
        }
        const OptionSpec *spec = find_option(specs, arg);
        if (!spec) throw UsageError{std::string("unknown option ") + arg};
        if (!spec->takes_value) {
            parsed.options.emplace_back(spec->long_name, "");
            continue;
        }
        if (i + 1 >= argc) throw UsageError{std::string("option ") + arg + " needs a value"};
        parsed.options.emplace_back(spec->long_name, argv[++i]);
    }
    return parsed;
}

void print_options(const std::vector<OptionSpec> &specs) {
    for (const OptionSpec &spec : specs) {
        char names[64];
        std::snprintf(names, sizeof names, "%s%s%s%s", spec.short_name ? spec.short_name : "",
                      spec.short_name ? ", " : "", spec.long_name, spec.takes_value ? " VALUE" : "");
        std::fprintf(stderr, "  %-26s %s\n", names, spec.help);
    }
}

int usage(const ParsedArgs &args, const char *synopsis, const std::vector<OptionSpec> &specs) {
    std::fprintf(stderr, "usage: kmx %s\n", synopsis);
    print_options(specs);
    return args.has("--help") ? 0 : 2;
}

void check(kmx_status status) {
    if (status == KMX_OK) return;
    std::fprintf(stderr, "kmx: error: %s\n", kmx_last_error());
    std::exit(1);
}

long long to_int(const std::string &text, const char *name) {
    char *end = nullptr;
    const long long value = std::strtoll(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0') throw UsageError{std::string(name) + " must be a whole number, not '" + text + "'"};
    return value;
}

double to_double(const std::string &text, const char *name) {
    char *end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || !std::isfinite(value))
        throw UsageError{std::string(name) + " must be a number, not '" + text + "'"};
    return value;
}

namespace {
void log_to_stderr(void *, kmx_log_level, const char *message) { std::fprintf(stderr, "kmx: %s\n", message); }
}  // namespace

kmx_context *make_context(const ParsedArgs &args) {
    kmx_context *ctx = nullptr;
    check(kmx_context_create(&ctx));
    if (args.has("--verbose")) {
        check(kmx_context_set_param(ctx, KMX_PARAM_LOG_LEVEL, KMX_LOG_INFO));
        check(kmx_context_set_log_callback(ctx, log_to_stderr, nullptr));
    }
    if (args.has("--threads"))
        check(kmx_context_set_param(ctx, KMX_PARAM_THREADS, double(to_int(args.get("--threads", ""), "--threads"))));
    if (args.has("--seed"))
        check(kmx_context_set_param(ctx, KMX_PARAM_SEED, double(to_int(args.get("--seed", ""), "--seed"))));
    if (args.has("--memory")) {
        const std::string memory = args.get("--memory", "");
        const double budget = memory == "unlimited" ? kUnlimitedMemory : to_bytes(memory, "--memory");
        check(kmx_context_set_param(ctx, KMX_PARAM_MEMORY_BUDGET, budget));
    }
    return ctx;
}

double to_bytes(const std::string &text, const char *name) {
    static const char kSuffixes[] = "KMG";
    double scale = 1;
    std::string number = text;
    const char *suffix = text.empty() ? nullptr : std::strchr(kSuffixes, std::toupper(static_cast<unsigned char>(text.back())));
    if (suffix && *suffix) {
        scale = std::pow(1024.0, double(suffix - kSuffixes + 1));
        number.pop_back();
    }
    return std::floor(to_double(number, name) * scale);
}

kmx_kernel *make_kernel(const ParsedArgs &args) {
    std::string params = "kernel=" + args.get("--kernel", "rbf");
    if (args.has("--gamma")) params += " gamma=" + args.get("--gamma", "");
    if (args.has("--degree")) params += " degree=" + args.get("--degree", "");
    if (args.has("--coef0")) params += " coef0=" + args.get("--coef0", "");
    kmx_kernel *kernel = nullptr;
    check(kmx_kernel_create_from_string(&kernel, params.c_str()));
    return kernel;
}

namespace {
bool starts_with_magic(const char *path, const char (&expected)[9]) {
    char magic[8] = {};
    std::FILE *file = std::fopen(path, "rb");
    if (!file) return false;
    const bool read = std::fread(magic, 1, sizeof magic, file) == sizeof magic;
    std::fclose(file);
    return read && std::memcmp(magic, expected, sizeof magic) == 0;
}
}  // namespace

bool is_model_file(const char *path) { return starts_with_magic(path, "KMXMODEL"); }
bool is_predictor_file(const char *path) { return starts_with_magic(path, "KMXPRED\0"); }

double now_seconds() {
    using clock = std::chrono::steady_clock;
    return std::chrono::duration<double>(clock::now().time_since_epoch()).count();
}

const char *method_name(double method) {
    static const char *const names[] = {"svm", "dcsvm", "dcsvm-early", "bka", "krr", "nystrom-krr", "meka-krr", "falkon"};
    const int index = int(method);
    return index >= 0 && index < int(sizeof names / sizeof names[0]) ? names[index] : "unknown";
}

namespace {
int draw_progress(void *user, double fraction, const char *phase) {
    ProgressBar &bar = *static_cast<ProgressBar *>(user);
    const int percent = int(fraction * 100.0 + 0.5);
    if (percent == bar.shown_percent) return 0;
    bar.shown_percent = percent;
    bar.drawn = true;
    const int width = 40, filled = percent * width / 100;
    std::fprintf(stderr, "\r[%.*s%*s] %3d%% %-24.24s", filled, "========================================",
                 width - filled, "", percent, phase);
    std::fflush(stderr);
    return 0;
}
}  // namespace

void ProgressBar::attach(kmx_context *ctx) {
    if (isatty(STDERR_FILENO)) check(kmx_context_set_progress_callback(ctx, draw_progress, this));
}

void ProgressBar::finish() const {
    if (drawn) std::fprintf(stderr, "\n");
}

}  // namespace kmx_cli
