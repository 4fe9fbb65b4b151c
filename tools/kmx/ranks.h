// ranks.h — kmx as one of several processes started by mpirun.
//
// When kmx is built with MPI (-Dmpi, found by default) and launched by
// mpirun (Open MPI sets OMPI_COMM_WORLD_SIZE, other launchers PMI_SIZE or
// PMIX_RANK), start_ranks() calls MPI_Init and every context made for
// `kmx train` spans MPI_COMM_WORLD: each rank loads its shard of the data
// file (kmx_dataset_load_shard: a byte range split at line boundaries, or
// its own file when the path holds "%d"), trains collectively, and rank 0
// alone writes the model and prints the summary. Run directly, kmx never
// touches MPI. A kmx built without MPI refuses to run as several ranks.
#pragma once
#include <kmx/kmx.h>

#include <cstdint>

namespace kmx_cli {

struct Ranks {
    int rank = 0;
    int size = 1;
};

// Called first in main(): MPI_Init when launched by mpirun (MPI_Finalize at
// exit). Exits with status 1 and a message if kmx cannot run as those ranks.
void start_ranks(int *argc, char ***argv);
const Ranks &ranks();

// Makes ctx span every rank (nothing when there is one).
void attach_ranks(kmx_context *ctx);

// A value summed, or its maximum taken, over the ranks.
int64_t sum_over_ranks(int64_t value);
int64_t max_over_ranks(int64_t value);

// Test hook: with KMX_TEST_KILL_RANK=r in the environment, rank r kills
// itself (SIGKILL) at its first progress report, as a crashed machine would
// (tests/mpi checks that mpirun then ends every rank within seconds). With
// KMX_TEST_CANCEL_RANK=r, rank r alone cancels its context at its third
// progress report (every rank must then fail with KMX_E_CANCELLED).
void install_kill_hook(kmx_context *ctx);

}  // namespace kmx_cli
