// ranks_mpi.cpp — ranks.h with MPI (the build found Open MPI).
#include <kmx/kmx_mpi.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>

#include "ranks.h"

namespace kmx_cli {

namespace {

Ranks the_ranks;
MPI_Comm world = MPI_COMM_NULL;

bool launched_by_mpirun() {
    return std::getenv("OMPI_COMM_WORLD_SIZE") || std::getenv("PMI_SIZE") || std::getenv("PMIX_RANK");
}

void finalize() { MPI_Finalize(); }

int kill_callback(void *, double, const char *) {
    std::raise(SIGKILL);
    return 0;
}

// Cancels the call at the progress report counted down in *user, as if a
// user (or kmx_context_cancel from another thread) did on this rank only.
struct CancelAt {
    kmx_context *ctx;
    int reports_left;
};

int cancel_callback(void *user, double, const char *) {
    auto *at = static_cast<CancelAt *>(user);
    if (--at->reports_left == 0) kmx_context_cancel(at->ctx);
    return 0;
}

}  // namespace

void start_ranks(int *argc, char ***argv) {
    if (!launched_by_mpirun()) return;
    if (MPI_Init(argc, argv) != MPI_SUCCESS) {
        std::fprintf(stderr, "kmx: error: MPI_Init failed\n");
        std::exit(1);
    }
    std::atexit(finalize);
    world = MPI_COMM_WORLD;
    MPI_Comm_rank(world, &the_ranks.rank);
    MPI_Comm_size(world, &the_ranks.size);
}

const Ranks &ranks() { return the_ranks; }

void attach_ranks(kmx_context *ctx) {
    if (the_ranks.size > 1 && kmx_mpi_attach(ctx, &world) != KMX_OK) {
        std::fprintf(stderr, "kmx: error: %s\n", kmx_last_error());
        std::exit(1);
    }
}

int64_t sum_over_ranks(int64_t value) {
    if (the_ranks.size > 1) MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_INT64_T, MPI_SUM, world);
    return value;
}

int64_t max_over_ranks(int64_t value) {
    if (the_ranks.size > 1) MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_INT64_T, MPI_MAX, world);
    return value;
}

void install_kill_hook(kmx_context *ctx) {
    const char *rank = std::getenv("KMX_TEST_KILL_RANK");
    if (rank && std::atoi(rank) == the_ranks.rank && the_ranks.size > 1)
        kmx_context_set_progress_callback(ctx, kill_callback, nullptr);
    const char *cancel = std::getenv("KMX_TEST_CANCEL_RANK");
    if (cancel && std::atoi(cancel) == the_ranks.rank && the_ranks.size > 1) {
        static CancelAt at{ctx, 3};  // the third report: mid-training
        kmx_context_set_progress_callback(ctx, cancel_callback, &at);
    }
}

}  // namespace kmx_cli
