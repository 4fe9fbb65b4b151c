// ranks_alone.cpp — ranks.h in a kmx built without MPI: always one process.
#include <cstdio>
#include <cstdlib>

#include "ranks.h"

namespace kmx_cli {

namespace {
const Ranks alone;
}

void start_ranks(int *, char ***) {
    const char *size = std::getenv("OMPI_COMM_WORLD_SIZE");
    if (size && std::atoi(size) > 1) {
        std::fprintf(stderr,
                     "kmx: error: this kmx was built without MPI (-Dmpi=disabled or Open MPI not found), "
                     "so it cannot run as %s ranks under mpirun\n",
                     size);
        std::exit(1);
    }
}

const Ranks &ranks() { return alone; }
void attach_ranks(kmx_context *) {}
int64_t sum_over_ranks(int64_t value) { return value; }
int64_t max_over_ranks(int64_t value) { return value; }
void install_kill_hook(kmx_context *) {}

}  // namespace kmx_cli
