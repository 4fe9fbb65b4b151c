// kmx — the command-line program: LIBSVM-style subcommands over the C ABI.
#define KMX_EXPERIMENTAL_API  // kmx_system_*: the machine probe
#include <cstdio>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <cstring>
#include <fstream>
#include <string>

#include "cli.h"
#include "ranks.h"

namespace {

struct Command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
};

// "model name", "cpu family" and "model" of the first processor in /proc/cpuinfo.
std::string cpu_description() {
    std::ifstream in("/proc/cpuinfo");
    std::string line, name = "unknown", family, model;
    auto value = [&](const char *key, std::string &out) {
        if (line.rfind(key, 0) == 0 && line.find(':') != std::string::npos && out.empty())
            out = line.substr(line.find(':') + 2);
    };
    std::string model_name;
    while (std::getline(in, line) && !line.empty()) {
        value("model name", model_name);
        value("cpu family", family);
        if (line.rfind("model\t", 0) == 0) value("model", model);
    }
    if (!model_name.empty()) name = model_name;
    if (!family.empty()) name += " (family " + family + (model.empty() ? "" : ", model " + model) + ")";
    return name;
}

std::string gigabytes(double bytes) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f GB", bytes / 1e9);
    return text;
}

// kmx version [-v]: with -v, what kmx runs on and how fast its BLIS is here.
int run_version(int argc, char **argv) {
    bool verbose = false;
    for (int i = 0; i < argc; ++i) {
        if (std::strcmp(argv[i], "-v") == 0 || std::strcmp(argv[i], "--verbose") == 0)
            verbose = true;
        else
            throw kmx_cli::UsageError{std::string("unknown option '") + argv[i] + "' (kmx version [-v])"};
    }
    std::printf("kmx %s\n", kmx_version());
    if (!verbose) return 0;
    double cores = 0, available = 0, budget = 0, gflops = 0;
    if (kmx_system_info(&cores, KMX_SYSTEM_CORES) != KMX_OK ||
        kmx_system_info(&available, KMX_SYSTEM_MEMORY_AVAILABLE) != KMX_OK ||
        kmx_system_info(&budget, KMX_SYSTEM_MEMORY_BUDGET) != KMX_OK ||
        kmx_system_info(&gflops, KMX_SYSTEM_DGEMM_GFLOPS) != KMX_OK) {
        std::fprintf(stderr, "kmx version: %s\n", kmx_last_error());
        return 1;
    }
    std::printf("cpu: %s\n", cpu_description().c_str());
    std::printf("blis kernel set: %s (from %s)\n", kmx_system_kernel_set(), kmx_system_kernel_set_origin());
    std::printf("cores: %d\n", int(cores));
    std::printf("memory available: %s\n", gigabytes(available).c_str());
    std::printf("memory budget default: %s\n", budget < 0 ? "unlimited" : gigabytes(budget).c_str());
    std::printf("dgemm, 1 thread: %.1f GFLOP/s\n", gflops);
    return 0;
}

const Command kCommands[] = {
    {"version", run_version, "print the library version; -v: CPU, BLIS kernel set, cores, memory, dgemm speed"},
    {"info", kmx_cli::run_info, "describe a data file (LIBSVM, CSV, .kmxd), or a model file"},
    {"convert", kmx_cli::run_convert, "write a data file as .kmxd (binary, mapped in place when loaded)"},
    {"train", kmx_cli::run_train,
     "train a model: kernel SVM (DC-SVM, early, BKA, dual solver) or KRR (exact, Nystrom, MEKA, FALKON)"},
    {"cv", kmx_cli::run_cv, "k-fold cross-validation (-v K, default 5): accuracy or mean squared error; no model"},
    {"grid", kmx_cli::run_grid, "search C (or lambda) and gamma by cross-validation, as LIBSVM's grid.py"},
    {"predict", kmx_cli::run_predict, "predict a data file with a model; report accuracy (rmse for regression)"},
    {"compress", kmx_cli::run_compress, "build a compact (DC-Pred++) predictor from a model and its training data"},
    {"export", kmx_cli::run_export, "write a compact predictor as a C header for the inference subset"},
    {"approx", kmx_cli::run_approx, "approximate a kernel matrix (Nystrom, MEKA); report error and memory"},
    {"kernel", kmx_cli::run_kernel, "time a kernel block on a data file"},
    {"params", kmx_cli::run_params, "list every library parameter: objects, range, default, meaning"},
};

void usage() {
    std::fprintf(stderr, "usage: kmx COMMAND [options] FILES\n\ncommands:\n");
    for (const Command &command : kCommands) std::fprintf(stderr, "  %-10s %s\n", command.name, command.summary);
    std::fprintf(stderr, "\n'kmx help COMMAND' or 'kmx COMMAND --help' describes a command's options.\n");
}

// Runs a command, its usage mistakes (exit 2) and failures (exit 1) printed.
int run_command(const Command &command, int argc, char **argv) {
    try {
        return command.run(argc, argv);
    } catch (const kmx_cli::UsageError &error) {
        std::fprintf(stderr, "kmx %s: %s\n", command.name, error.message.c_str());
        return 2;
    } catch (const kmx_cli::CommandError &error) {
        std::fprintf(stderr, "kmx: error: %s\n", error.message.c_str());
        return 1;
    }
}

// kmx help [COMMAND]: the list of commands, or COMMAND --help.
int run_help(int argc, char **argv) {
    if (argc == 0) {
        usage();
        return 0;
    }
    for (const Command &command : kCommands) {
        if (std::strcmp(argv[0], command.name) != 0) continue;
        if (command.run == run_version) {
            std::fprintf(stderr, "usage: kmx version [-v]\n  %s\n", command.summary);
            return 0;
        }
        char help[] = "--help";
        char *args[] = {help, nullptr};
        return run_command(command, 1, args);
    }
    std::fprintf(stderr, "kmx help: unknown command '%s'\n\n", argv[0]);
    usage();
    return 2;
}

}  // namespace

// glibc serves blocks below its mmap threshold from the heap, and the
// threshold rises (up to 32 MB) each time a larger mapped block is freed: the
// workspaces kmx makes and frees one after another (a DC-SVM level's
// subproblems) then stay in the heap, fragmented, and the process's RSS
// grows past the memory budget the workspaces keep to. A fixed threshold
// maps every block of 4 MiB or more and unmaps it when freed.
static void map_big_blocks() {
#if defined(__GLIBC__)
    mallopt(M_MMAP_THRESHOLD, 4 << 20);
#endif
}

int main(int argc, char **argv) {
    map_big_blocks();
    kmx_cli::start_ranks(&argc, &argv);
    if (argc < 2 || std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0) {
        usage();
        return argc < 2 ? 2 : 0;
    }
    if (std::strcmp(argv[1], "--version") == 0) return run_version(0, argv);
    if (std::strcmp(argv[1], "help") == 0) return run_help(argc - 2, argv + 2);
    for (const Command &command : kCommands) {
        if (std::strcmp(argv[1], command.name) == 0) return run_command(command, argc - 2, argv + 2);
    }
    std::fprintf(stderr, "kmx: unknown command '%s'\n\n", argv[1]);
    usage();
    return 2;
}
