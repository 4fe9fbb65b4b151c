// kmx params — the library's parameter table: every parameter's name, the
// objects that take it, its range and default, and what it means.
#include <cstdio>
#include <string>

#include "cli.h"

namespace kmx_cli {

namespace {

std::string owner_names(int64_t owners) {
    static const std::pair<int64_t, const char *> kOwners[] = {
        {KMX_PARAM_OWNER_CONTEXT, "context"}, {KMX_PARAM_OWNER_KERNEL, "kernel"},
        {KMX_PARAM_OWNER_KMEANS, "kmeans"},   {KMX_PARAM_OWNER_SOLVER, "solver"},
        {KMX_PARAM_OWNER_APPROX, "approx"},   {KMX_PARAM_OWNER_PREDICTOR, "predictor"}};
    std::string names;
    for (const auto &owner : kOwners)
        if (owners & owner.first) names += std::string(names.empty() ? "" : ",") + owner.second;
    return names;
}

}  // namespace

int run_params(int argc, char **argv) {
    if (argc == 1 && std::string(argv[0]) == "--help") {
        std::fprintf(stderr, "usage: kmx params\n  list every library parameter: name, the objects that take it (as "
                             "name=value in their parameter strings), range, default and meaning\n");
        return 0;
    }
    if (argc > 0) throw UsageError{std::string("kmx params takes no arguments, not '") + argv[0] + "'"};
    std::printf("%-19s %-15s %-24s %s\n", "name", "objects", "range", "description");
    for (int64_t i = 0; i < kmx_param_count(); ++i) {
        kmx_param param = kmx_param(0);
        int64_t owners = 0;
        check(kmx_param_at(&param, i));
        check(kmx_param_owners(&owners, param));
        std::printf("%-19s %-15s %-24s %s\n", kmx_param_name(param), owner_names(owners).c_str(),
                    range_text(param, "int ").c_str(), param_help(param).c_str());
    }
    return 0;
}

}  // namespace kmx_cli
