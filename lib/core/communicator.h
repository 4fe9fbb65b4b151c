// communicator.h — the ranks one training call spans. Each rank holds a shard
// of the rows; a sum over rows is the sum of the shards' sums, AllReduced. One
// process alone is a communicator of one rank, where every reduction is the
// identity. The transport (MPI, through <kmx/kmx_mpi.h>) fills a C table of
// functions, kmx_communicator, so the library does not depend on mpi.h.
#pragma once
#include <cstdint>
#include <cstring>
#include <new>

#ifndef KMX_EXPERIMENTAL_API
#define KMX_EXPERIMENTAL_API  // kmx_communicator, for code that includes this header outside the library
#endif
#include "error.h"
#include "kmx/kmx.h"

namespace kmx {

class Communicator {
public:
    Communicator();  // this process alone
    explicit Communicator(const kmx_communicator &ops);

    int rank() const { return ops_.rank; }
    int size() const { return ops_.size; }
    bool distributed() const { return ops_.size > 1; }

    // values[0..count) summed over the ranks, in place; the same bits on every rank.
    void sum(double *values, int64_t count) const;
    // values[0..count) replaced by their maximum over the ranks.
    void max(double *values, int64_t count) const;
    // bytes[0..count) of rank root copied to every rank.
    void broadcast(void *bytes, int64_t count, int root) const;

    // Every rank calls this at the same point (before work and after each
    // phase) with its own outcome. If any rank failed, every rank throws the
    // same Error: the status and message of the lowest failing rank, prefixed
    // "rank R: ". Returns normally only when every rank succeeded.
    void agree(kmx_status status, const char *message) const;

    // Bytes this rank has handed to sum and max so far (0 alone): what a
    // training call communicates per step, measured.
    int64_t reduced_bytes() const { return reduced_bytes_; }

private:
    kmx_communicator ops_;
    mutable int64_t reduced_bytes_ = 0;
};

// Runs one phase of a distributed call on every rank, then agrees on its
// outcome: a rank that fails inside the phase (bad data, over its budget,
// out of memory) still reaches the agreement, so every rank stops with the
// same error instead of leaving the others waiting in the next reduction.
// Alone, the phase simply runs (its error thrown unchanged).
template <class Phase>
void run_agreed(const Communicator &comm, Phase &&phase) {
    if (!comm.distributed()) {
        phase();
        return;
    }
    kmx_status status = KMX_OK;
    char message[480] = {0};  // copied: the exception is gone after its catch
    try {
        phase();
    } catch (const Error &e) {
        status = e.status();
        std::strncpy(message, e.what(), sizeof message - 1);
    } catch (const std::bad_alloc &) {
        status = KMX_E_OUT_OF_MEMORY;
        std::strncpy(message, "out of memory", sizeof message - 1);
    }
    comm.agree(status, message);
}

}  // namespace kmx
