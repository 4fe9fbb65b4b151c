// kmx — the command-line program: LIBSVM-style subcommands over the C ABI.
#include <cstdio>
#include <cstring>

#include "cli.h"

namespace {

struct Command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
};

int run_version(int, char **) {
    std::printf("kmx %s\n", kmx_version());
    return 0;
}

const Command kCommands[] = {
    {"version", run_version, "print the library version"},
    {"info", kmx_cli::run_info, "describe a LIBSVM or CSV data file, or a model file"},
    {"train", kmx_cli::run_train, "train a model: kernel SVM (DC-SVM, early, BKA, dual solver) or KRR (exact, Nystrom, MEKA, FALKON)"},
    {"predict", kmx_cli::run_predict, "predict a data file with a model; report accuracy (rmse for regression)"},
    {"compress", kmx_cli::run_compress, "build a compact (DC-Pred++) predictor from a model and its training data"},
    {"export", kmx_cli::run_export, "write a compact predictor as a C header for the inference subset"},
    {"approx", kmx_cli::run_approx, "approximate a kernel matrix (Nystrom, MEKA); report error and memory"},
    {"kernel", kmx_cli::run_kernel, "time a kernel block on a data file"},
};

void usage() {
    std::fprintf(stderr, "usage: kmx COMMAND [options] FILES\n\ncommands:\n");
    for (const Command &command : kCommands) std::fprintf(stderr, "  %-10s %s\n", command.name, command.summary);
    std::fprintf(stderr, "\n'kmx COMMAND --help' describes a command's options.\n");
}

}  // namespace

int main(int argc, char **argv) {
    if (argc < 2 || std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0) {
        usage();
        return argc < 2 ? 2 : 0;
    }
    if (std::strcmp(argv[1], "--version") == 0) return run_version(0, nullptr);
    for (const Command &command : kCommands) {
        if (std::strcmp(argv[1], command.name) != 0) continue;
        try {
            return command.run(argc - 2, argv + 2);
        } catch (const kmx_cli::UsageError &error) {
            std::fprintf(stderr, "kmx %s: %s\n", command.name, error.message.c_str());
            return 2;
        }
    }
    std::fprintf(stderr, "kmx: unknown command '%s'\n\n", argv[1]);
    usage();
    return 2;
}
