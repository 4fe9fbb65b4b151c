/* kmx_mpi.h — hands kmx an MPI communicator: every rank of it then trains on
 * its own shard of the rows, and kmx sums over rows across the ranks.
 *
 * Header-only (static inline), so libkmx itself never includes mpi.h nor
 * links MPI: the program that includes this header links MPI, as it must to
 * call MPI_Init anyway. Uses kmx's experimental zone (kmx_communicator).
 *
 *     MPI_Comm comm = MPI_COMM_WORLD;            // must outlive ctx's use
 *     kmx_mpi_attach(ctx, &comm);                // ctx now spans the ranks
 *     kmx_dataset_load_shard(&data, ctx, path, KMX_FORMAT_AUTO, rank, size);
 *     kmx_solver_train(&model, ctx, solver, kernel, data);   // on every rank
 *
 * MPI's default error handler (MPI_ERRORS_ARE_FATAL) is left as the caller
 * set it: a rank that dies makes mpirun stop the others, so nothing hangs. */
#ifndef KMX_KMX_MPI_H
#define KMX_KMX_MPI_H

#include <limits.h>
#include <mpi.h>
#include <stdint.h>

#if defined(KMX_KMX_H) && !defined(KMX_EXPERIMENTAL_API)
#error "kmx_mpi.h needs kmx.h's experimental zone: include it first, or define KMX_EXPERIMENTAL_API before kmx.h"
#endif
#ifndef KMX_EXPERIMENTAL_API
#define KMX_EXPERIMENTAL_API
#endif
#include "kmx.h"

#ifdef __cplusplus
extern "C" {
#endif

/* MPI counts are int: long arrays go in chunks. */
static inline int kmx_mpi_chunk_(int64_t remaining) { return remaining > INT_MAX ? INT_MAX : (int)remaining; }

/* The sum as MPI_Reduce to rank 0, then MPI_Bcast of rank 0's result — not
 * MPI_Allreduce. MPI only advises, and does not require, that an Allreduce
 * give every rank the same bits; Open MPI's recursive-doubling and ring
 * algorithms add the ranks' values in a different order on different ranks,
 * so floating-point sums can differ in the last bit. kmx needs identical
 * bits everywhere (every rank then takes the same CG or TRON step, keeps the
 * same iterate and stops at the same iteration, so the ranks never disagree
 * on how many reductions follow): one rank's sum, copied, guarantees it. */
static inline int kmx_mpi_sum_(void *user, double *values, int64_t count) {
    MPI_Comm comm = *(MPI_Comm *)user;
    int rank = 0;
    if (MPI_Comm_rank(comm, &rank) != MPI_SUCCESS) return 1;
    while (count > 0) {
        const int chunk = kmx_mpi_chunk_(count);
        const void *send = rank == 0 ? MPI_IN_PLACE : (const void *)values;
        if (MPI_Reduce(send, values, chunk, MPI_DOUBLE, MPI_SUM, 0, comm) != MPI_SUCCESS) return 2;
        if (MPI_Bcast(values, chunk, MPI_DOUBLE, 0, comm) != MPI_SUCCESS) return 3;
        values += chunk;
        count -= chunk;
    }
    return 0;
}

/* A maximum does not depend on the order it is taken in: Allreduce is exact. */
static inline int kmx_mpi_max_(void *user, double *values, int64_t count) {
    MPI_Comm comm = *(MPI_Comm *)user;
    while (count > 0) {
        const int chunk = kmx_mpi_chunk_(count);
        if (MPI_Allreduce(MPI_IN_PLACE, values, chunk, MPI_DOUBLE, MPI_MAX, comm) != MPI_SUCCESS) return 1;
        values += chunk;
        count -= chunk;
    }
    return 0;
}

static inline int kmx_mpi_broadcast_(void *user, void *bytes, int64_t count, int32_t root) {
    MPI_Comm comm = *(MPI_Comm *)user;
    unsigned char *at = (unsigned char *)bytes;
    while (count > 0) {
        const int chunk = kmx_mpi_chunk_(count);
        if (MPI_Bcast(at, chunk, MPI_BYTE, root, comm) != MPI_SUCCESS) return 1;
        at += chunk;
        count -= chunk;
    }
    return 0;
}

/* Fills *out to reduce over *comm (which must outlive every use of *out).
 * Returns 0, or an MPI error code if *comm's rank or size cannot be read. */
static inline int kmx_mpi_communicator(kmx_communicator *out, MPI_Comm *comm) {
    int rank = 0, size = 1, error = MPI_Comm_rank(*comm, &rank);
    if (error == MPI_SUCCESS) error = MPI_Comm_size(*comm, &size);
    if (error != MPI_SUCCESS) return error;
    out->rank = rank;
    out->size = size;
    out->user = comm;
    out->allreduce_sum = kmx_mpi_sum_;
    out->allreduce_max = kmx_mpi_max_;
    out->broadcast = kmx_mpi_broadcast_;
    return 0;
}

/* Makes ctx span the ranks of *comm (which must outlive ctx's use of it). */
static inline kmx_status kmx_mpi_attach(kmx_context *ctx, MPI_Comm *comm) {
    kmx_communicator table;
    if (!comm || kmx_mpi_communicator(&table, comm) != 0) return KMX_E_INVALID_ARGUMENT;
    return kmx_context_set_communicator(ctx, &table);
}

#ifdef __cplusplus
}
#endif
#endif /* KMX_KMX_MPI_H */
