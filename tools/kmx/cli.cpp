#include "cli.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>

#include <cctype>
#include <chrono>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <optional>
#include <sstream>

namespace kmx_cli {

const OptionSpec kContextOptions[5] = {
    {nullptr, "--threads", true, nullptr, KMX_PARAM_THREADS},
    {nullptr, "--seed", true, nullptr, KMX_PARAM_SEED},
    {nullptr, "--memory", true,
     "kmx counts the whole command against it: the data it loads, the model it reads (at its file's size), "
     "its results and each call's work; K/M/G suffixes allowed, or 'unlimited'",
     KMX_PARAM_MEMORY_BUDGET},
    {"-v", "--verbose", false, "log what the library does (levels, solver statistics) on stderr"},
    {nullptr, "--precision", true, nullptr, KMX_PARAM_PRECISION},
};

const OptionSpec kFormatOption = {"-f", "--format", true,
                                  "auto (default: .kmxd by its magic, else the text's format), libsvm, csv or kmxd"};

const OptionSpec kKernelOptions[4] = {
    {"-k", "--kernel", true, nullptr, KMX_PARAM_KERNEL},
    {"-g", "--gamma", true, nullptr, KMX_PARAM_GAMMA},
    {"-d", "--degree", true, nullptr, KMX_PARAM_DEGREE},
    {"-r", "--coef0", true, nullptr, KMX_PARAM_COEF0},
};

// The command's own options, then the shared ones; a shared option whose
// short name the command uses for something else (train's -h and -v, as
// LIBSVM's svm-train) keeps its long name only.
std::vector<OptionSpec> command_options(std::vector<OptionSpec> own, bool kernel) {
    std::vector<OptionSpec> shared;
    if (kernel) shared.insert(shared.end(), std::begin(kKernelOptions), std::end(kKernelOptions));
    shared.push_back(kFormatOption);
    shared.push_back({"-h", "--help", false, "show this help"});
    shared.insert(shared.end(), std::begin(kContextOptions), std::end(kContextOptions));
    const size_t own_count = own.size();
    for (OptionSpec spec : shared) {
        for (size_t i = 0; i < own_count && spec.short_name; ++i)
            if (own[i].short_name && std::strcmp(own[i].short_name, spec.short_name) == 0) spec.short_name = nullptr;
        own.push_back(spec);
    }
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
const OptionSpec *find_option(const std::vector<OptionSpec> &specs, const std::string &arg) {
    for (const OptionSpec &spec : specs)
        if ((spec.short_name && arg == spec.short_name) || arg == spec.long_name) return &spec;
    return nullptr;
}

// Levenshtein distance: how many letters to insert, delete or change.
size_t edit_distance(const std::string &a, const std::string &b) {
    std::vector<size_t> row(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        size_t diagonal = row[0];
        row[0] = i;
        for (size_t j = 1; j <= b.size(); ++j) {
            const size_t above = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = above;
        }
    }
    return row[b.size()];
}

// "unknown option --gama (did you mean --gamma?)": the nearest long name
// within a third of its length, if any.
std::string unknown_option(const std::vector<OptionSpec> &specs, const std::string &arg) {
    const OptionSpec *nearest = nullptr;
    size_t best = arg.size() / 3 + 1;
    for (const OptionSpec &spec : specs) {
        const size_t distance = edit_distance(arg, spec.long_name);
        if (distance < best) best = distance, nearest = &spec;
    }
    std::string message = "unknown option " + arg;
    if (nearest) message += std::string(" (did you mean ") + nearest->long_name + "?)";
    return message;
}
}  // namespace

ParsedArgs parse_args(int argc, char **argv, const std::vector<OptionSpec> &specs) {
    ParsedArgs parsed;
    for (int i = 0; i < argc; ++i) {
        std::string arg = argv[i];
        if (arg.size() < 2 || arg[0] != '-') {
            parsed.positional.push_back(arg);
            continue;
        }
        std::optional<std::string> attached;  // --name=value
        const size_t equals = arg.find('=');
        if (arg.compare(0, 2, "--") == 0 && equals != std::string::npos) {
            attached = arg.substr(equals + 1);
            arg.resize(equals);
        }
        const OptionSpec *spec = find_option(specs, arg);
        if (!spec) throw UsageError{unknown_option(specs, arg)};
        if (!spec->takes_value) {
            if (attached) throw UsageError{"option " + arg + " takes no value"};
            parsed.options.emplace_back(spec->long_name, "");
            continue;
        }
        if (!attached && i + 1 >= argc)
            throw UsageError{"option " + arg + " needs a value" +
                             (arg == "-h" ? " (LIBSVM's shrinking, 0 or 1; --help shows the help)" : "")};
        parsed.options.emplace_back(spec->long_name, attached ? *attached : argv[++i]);
    }
    return parsed;
}

std::string cli_spelling(const char *name) {
    std::string spelled = name;
    for (char &c : spelled)
        if (c == '_') c = '-';
    return spelled;
}

namespace {
bool is_word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Replaces whole-word occurrences of `word` in `text` with `spelled`.
void replace_word(std::string &text, const std::string &word, const std::string &spelled) {
    size_t at = text.find(word);
    while (at != std::string::npos) {
        const size_t end = at + word.size();
        const bool whole = (at == 0 || !is_word_char(text[at - 1])) && (end == text.size() || !is_word_char(text[end]));
        if (whole) text.replace(at, word.size(), spelled);
        at = text.find(word, whole ? at + spelled.size() : end);
    }
}
}  // namespace

std::string in_cli_words(std::string text) {
    kmx_param param;
    for (int64_t i = 0; i < kmx_param_count(); ++i) {
        if (kmx_param_at(&param, i) != KMX_OK) continue;
        for (int v = 0; const char *name = kmx_param_value_name(param, v); ++v)
            if (std::strchr(name, '_')) replace_word(text, name, cli_spelling(name));
    }
    return text;
}

namespace {
constexpr double kUnlimitedMemory = 9007199254740992.0;  // 2^53: KMX_PARAM_MEMORY_BUDGET's "unlimited"

double param_default(kmx_param param) {
    double value = 0;
    check(kmx_param_default(&value, param));
    return value;
}

// "rbf (default), laplacian, polynomial, linear or sigmoid"
std::string value_list(kmx_param param) {
    const double fallback = param_default(param);
    std::string list;
    for (int v = 0; kmx_param_value_name(param, v); ++v) {
        if (v > 0) list += kmx_param_value_name(param, v + 1) ? ", " : " or ";
        list += cli_spelling(kmx_param_value_name(param, v));
        if (v == fallback) list += " (default)";
    }
    return list;
}

std::string option_help(const OptionSpec &spec) {
    if (!spec.param) return spec.help;
    std::string help = param_help(spec.param);
    if (spec.help) help += std::string("; ") + spec.help;
    return help;
}

// LIBSVM's -t numbers as kmx's kernel names.
std::string libsvm_kernel(const std::string &number) {
    static const char *const kNames[] = {"linear", "polynomial", "rbf", "sigmoid"};
    if (number.size() == 1 && number[0] >= '0' && number[0] <= '3') return kNames[number[0] - '0'];
    if (number == "4") throw UsageError{"-t 4 (LIBSVM's precomputed kernel) is not in kmx yet"};
    throw UsageError{"-t must be LIBSVM's 0 (linear), 1 (polynomial), 2 (rbf) or 3 (sigmoid), not '" + number +
                     "' (-k takes kmx's kernel names)"};
}

// The option's value as the parameter string takes it.
std::string param_value(const OptionSpec &spec, const std::string &text) {
    if (!spec.takes_value) return "1";
    if (spec.param == KMX_PARAM_MEMORY_BUDGET && text == "unlimited")
        return std::to_string((long long)kUnlimitedMemory);
    if (spec.param == KMX_PARAM_CACHE_SIZE)  // MB, as LIBSVM's -m, unless a suffix says otherwise
        return std::to_string((long long)to_bytes(text, spec.long_name, 1 << 20));
    if (spec.param == KMX_PARAM_MEMORY_BUDGET || spec.param == KMX_PARAM_MAX_BYTES)
        return std::to_string((long long)to_bytes(text, spec.long_name));
    if (std::strcmp(spec.long_name, "--kernel-type") == 0) return libsvm_kernel(text);
    return text;
}
}  // namespace

namespace {
// "-s/--solver", or "--levels" for an option without a letter.
std::string option_names(const OptionSpec &spec) {
    return spec.short_name ? std::string(spec.short_name) + "/" + spec.long_name : spec.long_name;
}

// The value of enum parameter `param` that `text` names (the CLI's spelling or
// kmx's), or -1.
int enum_value(kmx_param param, const std::string &text) {
    for (int v = 0; kmx_param_value_name(param, v); ++v)
        if (text == kmx_param_value_name(param, v) || text == cli_spelling(kmx_param_value_name(param, v))) return v;
    return -1;
}

bool is_byte_count(kmx_param param) {
    return param == KMX_PARAM_MEMORY_BUDGET || param == KMX_PARAM_CACHE_SIZE || param == KMX_PARAM_MAX_BYTES;
}

// A byte count as the options take it: "64K", "1.5G", "812".
std::string bytes_as_typed(double bytes) {
    static const char kSuffixes[] = "GMK";
    for (int s = 0; s < 3; ++s) {
        const double unit = std::pow(1024.0, double(3 - s));
        if (bytes >= unit) return std::to_string((long long)(bytes / unit)) + kSuffixes[s];
    }
    return std::to_string((long long)bytes);
}

// A bound as people read it: "0.5", "1e-06", "2^53".
std::string bound_text(double bound) {
    if (bound == kUnlimitedMemory) return "2^53";
    char text[32];
    std::snprintf(text, sizeof text, "%g", bound);
    return text;
}
}  // namespace

std::string range_text(kmx_param param, const char *integers) {
    double lower = 0, upper = 0;
    int flags = 0;
    check(kmx_param_bounds(&lower, &upper, &flags, param));
    if (flags & KMX_BOUND_ENUM) return "enum";
    if (is_byte_count(param)) return bytes_as_typed(lower) + " or more";
    return std::string((flags & KMX_BOUND_INTEGER) ? integers : "") + ((flags & KMX_BOUND_LOWER_OPEN) ? "(" : "[") +
           bound_text(lower) + ", " + bound_text(upper) + ((flags & KMX_BOUND_UPPER_OPEN) ? ")" : "]");
}

namespace {
// A UsageError in the CLI's words when the parameter would refuse the option's
// value: `text` as typed, `value` as the parameter string takes it.
void check_option_value(const OptionSpec &spec, const std::string &text, const std::string &value) {
    if (kmx_param_value_name(spec.param, 0)) {  // named values
        if (enum_value(spec.param, value) >= 0) return;
        throw UsageError{"option " + option_names(spec) + ": '" + text + "' is not one of " + value_list(spec.param)};
    }
    const double number = to_double(value, option_names(spec).c_str());
    if (kmx_param_check(spec.param, number) != KMX_OK)
        throw UsageError{"option " + option_names(spec) + ": " + text +
                         " is out of range; allowed: " + range_text(spec.param, "whole numbers in ")};
}

// The methods (CLI spelling) that use solver parameter `param`: "svm, dcsvm or svr".
std::string methods_using(kmx_param param) {
    std::vector<std::string> names;
    for (int m = 0; kmx_param_value_name(KMX_PARAM_METHOD, m); ++m) {
        int used = 0;
        check(kmx_param_used_by(&used, param, kmx_method(m)));
        if (used) names.push_back(method_name(m));
    }
    std::string list;
    for (size_t i = 0; i < names.size(); ++i) list += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
    return list;
}

// Whether the kernel `kernel` (a kmx_kernel_type) has the parameter `param`.
bool kernel_uses(kmx_kernel_type kernel, kmx_param param) {
    switch (param) {
        case KMX_PARAM_GAMMA:
            return kernel != KMX_KERNEL_LINEAR;
        case KMX_PARAM_COEF0:
            return kernel == KMX_KERNEL_POLYNOMIAL || kernel == KMX_KERNEL_SIGMOID;
        case KMX_PARAM_DEGREE:
            return kernel == KMX_KERNEL_POLYNOMIAL;
        default:
            return true;
    }
}
}  // namespace

namespace {
// The kmx_method -s names (default dcsvm), or -1 for a name that is none.
int chosen_method(const ParsedArgs &args) {
    return enum_value(KMX_PARAM_METHOD, args.get("--solver", method_name(param_default(KMX_PARAM_METHOD))));
}

// "option -p/--epsilon-svr does not apply to -s dcsvm; it applies to -s svr"
UsageError not_applying(const std::string &option, int method, kmx_param param) {
    return UsageError{"option " + option + " does not apply to -s " + method_name(method) + "; it applies to -s " +
                      methods_using(param)};
}
}  // namespace

bool method_uses(const ParsedArgs &args, kmx_param param) {
    const int method = chosen_method(args);
    int used = 1;
    if (method >= 0) check(kmx_param_used_by(&used, param, kmx_method(method)));
    return used != 0;
}

void check_options_apply(const ParsedArgs &args, const std::vector<OptionSpec> &specs) {
    const int method = chosen_method(args);
    if (method < 0) return;  // param_string names the mistake
    for (const OptionSpec &spec : specs) {
        int64_t owners = 0;
        if (!spec.param || spec.param == KMX_PARAM_METHOD || !args.has(spec.long_name)) continue;
        check(kmx_param_owners(&owners, spec.param));
        if ((owners & KMX_PARAM_OWNER_SOLVER) && !method_uses(args, spec.param))
            throw not_applying(option_names(spec), method, spec.param);
    }
    for (const char *flag : {"--ovr", "--ovo"})
        if (args.has(flag) && !method_uses(args, KMX_PARAM_MULTICLASS))
            throw not_applying(flag, method, KMX_PARAM_MULTICLASS);
}

std::string param_help(kmx_param param) {
    std::string help = in_cli_words(kmx_param_description(param));
    if (kmx_param_value_name(param, 0)) return help + ": " + value_list(param);
    const double fallback = param_default(param);
    if (fallback >= kUnlimitedMemory) return help;
    char text[64];
    std::snprintf(text, sizeof text, " (default %g)", fallback);
    return help + text;
}

std::string param_string(const ParsedArgs &args, const std::vector<OptionSpec> &specs, int64_t owner) {
    std::string params;
    for (const OptionSpec &spec : specs) {
        int64_t owners = 0;
        if (!spec.param || !args.has(spec.long_name)) continue;
        check(kmx_param_owners(&owners, spec.param));
        if (!(owners & owner)) continue;
        const std::string text = args.get(spec.long_name, ""), value = param_value(spec, text);
        check_option_value(spec, text, value);
        params += std::string(" ") + kmx_param_name(spec.param) + "=" + value;
    }
    return params;
}

void print_options(const std::vector<OptionSpec> &specs) {
    for (const OptionSpec &spec : specs) {
        char names[64];
        std::snprintf(names, sizeof names, "%s%s%s%s", spec.short_name ? spec.short_name : "",
                      spec.short_name ? ", " : "", spec.long_name, spec.takes_value ? " VALUE" : "");
        std::fprintf(stderr, "  %-26s %s\n", names, option_help(spec).c_str());
    }
}

namespace {
// The operands a synopsis names after its options ("TRAIN_FILE", "[OUTPUT_FILE]").
std::vector<std::string> operands(const char *synopsis) {
    std::istringstream words(synopsis);
    std::vector<std::string> names;
    std::string word;
    words >> word;           // the command
    bool in_option = false;  // inside "[--name NAME]"
    while (words >> word) {
        const bool option = word[0] == '-' || word.compare(0, 2, "[-") == 0 || word == "[options]";
        if (!in_option && !option) names.push_back(word);
        in_option = (in_option || option) && word.back() != ']';
    }
    return names;
}

// "missing operand MODEL_FILE" or "extra operand 'x'" for `given` operands.
std::string operand_problem(const char *synopsis, const std::vector<std::string> &given) {
    const std::vector<std::string> names = operands(synopsis);
    size_t required = 0;
    while (required < names.size() && names[required][0] != '[') ++required;
    if (given.size() < required) return "missing operand " + names[given.size()];
    if (given.size() > names.size()) return "extra operand '" + given[names.size()] + "'";
    return "";
}
}  // namespace

int usage(const ParsedArgs &args, const char *synopsis, const std::vector<OptionSpec> &specs) {
    const std::string problem = args.has("--help") ? "" : operand_problem(synopsis, args.positional);
    if (!problem.empty())
        std::fprintf(stderr, "kmx %.*s: %s\n", int(std::strcspn(synopsis, " ")), synopsis, problem.c_str());
    std::fprintf(stderr, "usage: kmx %s\n", synopsis);
    print_options(specs);
    return args.has("--help") ? 0 : 2;
}

void check(kmx_status status) {
    if (status != KMX_OK) throw CommandError{in_cli_words(kmx_last_error())};
}

long long file_bytes(const char *path) {
    struct stat info;
    return stat(path, &info) == 0 ? (long long)info.st_size : -1;
}

std::string readable_bytes(double bytes) {
    char text[32];
    if (bytes >= kUnlimitedMemory) return "no limit";
    if (bytes < 1024) {
        std::snprintf(text, sizeof text, "%.0f bytes", bytes);
    } else {
        const char *units[] = {"KB", "MB", "GB", "TB"};
        int unit = 0;
        for (bytes /= 1024; bytes >= 1024 && unit < 3; ++unit) bytes /= 1024;
        std::snprintf(text, sizeof text, unit >= 2 ? "%.2f %s" : "%.1f %s", bytes, units[unit]);
    }
    return text;
}

void hold_in_budget(kmx_context *ctx, double bytes, const char *what) {
    double budget = 0;
    check(kmx_context_get_param(&budget, ctx, KMX_PARAM_MEMORY_BUDGET));
    if (bytes > budget)
        throw CommandError{std::string(what) + " needs " + readable_bytes(bytes) + " but the memory budget is " +
                           readable_bytes(budget) + " (--memory)"};
    check(kmx_context_set_param(ctx, KMX_PARAM_MEMORY_BUDGET, std::max(budget - bytes, 65536.0)));
}

void return_to_budget(kmx_context *ctx, double bytes) {
    double budget = 0;
    check(kmx_context_get_param(&budget, ctx, KMX_PARAM_MEMORY_BUDGET));
    check(kmx_context_set_param(ctx, KMX_PARAM_MEMORY_BUDGET, budget + bytes));
}

long long to_int(const std::string &text, const char *name) {
    char *end = nullptr;
    const long long value = std::strtoll(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0')
        throw UsageError{std::string(name) + " must be a whole number, not '" + text + "'"};
    return value;
}

double to_double(const std::string &text, const char *name) {
    // Decimal only, as the library's parameter strings: no hexadecimal (0x10), no inf or nan.
    const char *begin = text.c_str(), *end = begin + text.size();
    if (begin[0] == '+' && begin[1] != '-') ++begin;
    double value = 0;
    const std::from_chars_result parsed = std::from_chars(begin, end, value);
    if (text.empty() || parsed.ec != std::errc() || parsed.ptr != end || !std::isfinite(value))
        throw UsageError{std::string(name) + " must be a decimal number, not '" + text + "'"};
    return value;
}

namespace {
void log_to_stderr(void *, kmx_log_level, const char *message) { std::fprintf(stderr, "kmx: %s\n", message); }
}  // namespace

Context make_context(const ParsedArgs &args, const std::vector<OptionSpec> &specs) {
    Context ctx = make<Context>(kmx_context_create);
    if (args.has("--verbose")) {
        check(kmx_context_set_param(ctx.get(), KMX_PARAM_LOG_LEVEL, KMX_LOG_INFO));
        check(kmx_context_set_log_callback(ctx.get(), log_to_stderr, nullptr));
    }
    check(kmx_context_set_params(ctx.get(), param_string(args, specs, KMX_PARAM_OWNER_CONTEXT).c_str()));
    return ctx;
}

Dataset load_dataset(kmx_context *ctx, const std::string &path, const ParsedArgs &args) {
    return make<Dataset>(kmx_dataset_load, ctx, path.c_str(), format_option(args));
}

double to_bytes(const std::string &text, const char *name, double unit) {
    static const char kSuffixes[] = "KMG";
    double scale = unit;
    std::string number = text;
    const char *suffix =
        text.empty() ? nullptr : std::strchr(kSuffixes, std::toupper(static_cast<unsigned char>(text.back())));
    if (suffix && *suffix) {
        scale = std::pow(1024.0, double(suffix - kSuffixes + 1));
        number.pop_back();
    }
    return std::floor(to_double(number, name) * scale);
}

Kernel make_kernel(const ParsedArgs &args, const std::vector<OptionSpec> &specs) {
    if (args.has("--kernel") && args.has("--kernel-type")) throw UsageError{"-k and -t exclude each other"};
    const std::string params = param_string(args, specs, KMX_PARAM_OWNER_KERNEL);
    const std::string kernel_name =
        args.has("--kernel-type") ? libsvm_kernel(args.get("--kernel-type", "")) : args.get("--kernel", "rbf");
    const int kernel = enum_value(KMX_PARAM_KERNEL, kernel_name);
    for (const OptionSpec &spec : kKernelOptions)
        if (args.has(spec.long_name) && !kernel_uses(kmx_kernel_type(kernel), spec.param))
            throw UsageError{"option " + option_names(spec) + " does not apply to the " + kernel_name + " kernel"};
    return make<Kernel>(kmx_kernel_create_from_string, params.c_str());
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

std::string method_name(double method) {
    const char *name = kmx_param_value_name(KMX_PARAM_METHOD, method);
    return name ? cli_spelling(name) : "unknown";
}

namespace {
// "12s" / "3m05s" / "1h02m": how long, in the units a person reads.
std::string duration_text(double seconds) {
    char text[32];
    const long s = long(seconds + 0.5);
    if (s < 60)
        std::snprintf(text, sizeof text, "%lds", s);
    else if (s < 3600)
        std::snprintf(text, sizeof text, "%ldm%02lds", s / 60, s % 60);
    else
        std::snprintf(text, sizeof text, "%ldh%02ldm", s / 3600, s / 60 % 60);
    return text;
}

// The remaining time at the rate so far, once there is a rate to speak of.
std::string eta_text(double fraction, double elapsed) {
    if (fraction < 0.02 || elapsed < 1.0 || fraction >= 1.0) return "";
    return "ETA " + duration_text(elapsed * (1.0 - fraction) / fraction);
}

int draw_progress(void *user, double fraction, const char *phase) {
    ProgressBar &bar = *static_cast<ProgressBar *>(user);
    const int percent = int(fraction * 100.0 + 0.5);
    const double elapsed = now_seconds() - bar.started;
    if (percent == bar.shown_percent && elapsed - bar.drawn_at < 1.0) return 0;
    bar.shown_percent = percent;
    bar.drawn_at = elapsed;
    bar.drawn = true;
    const int width = 40, filled = percent * width / 100;
    std::fprintf(stderr, "\r[%.*s%*s] %3d%% %-24.24s %7s %-11s", filled,
                 "========================================", width - filled, "", percent, phase,
                 duration_text(elapsed).c_str(), eta_text(fraction, elapsed).c_str());
    std::fflush(stderr);
    return 0;
}
}  // namespace

void ProgressBar::attach(kmx_context *ctx) {
    started = now_seconds();
    if (isatty(STDERR_FILENO)) check(kmx_context_set_progress_callback(ctx, draw_progress, this));
}

void ProgressBar::finish() const {
    if (drawn) std::fprintf(stderr, "\n");
}

void report_accuracy(const std::vector<double> &predicted, const std::vector<double> &truth) {
    int64_t correct = 0;
    for (size_t i = 0; i < predicted.size(); ++i) correct += predicted[i] == truth[i];
    const double n = double(predicted.size());
    std::printf("accuracy = %.2f%% (%lld/%lld)\n", n > 0 ? 100.0 * double(correct) / n : 0.0, (long long)correct,
                (long long)predicted.size());
}

void report_rmse(const std::vector<double> &predicted, const std::vector<double> &truth) {
    double squares = 0;
    for (size_t i = 0; i < predicted.size(); ++i) squares += (predicted[i] - truth[i]) * (predicted[i] - truth[i]);
    const double mse = predicted.empty() ? 0.0 : squares / double(predicted.size());
    std::printf("rmse = %.6g\n", std::sqrt(mse));
    std::printf("Mean squared error = %g (regression)\n", mse);
}

}  // namespace kmx_cli
