// communicator.cpp — reductions across ranks, and agreement on failure.
#include "communicator.h"

#include <cstring>

#include "error.h"

namespace kmx {

namespace {

int single_sum(void *, double *, int64_t) { return 0; }
int single_broadcast(void *, void *, int64_t, int32_t) { return 0; }

void check_transport(int result, const char *what) {
    if (result != 0) fail(KMX_E_IO, "communication between ranks failed in %s (transport error %d)", what, result);
}

constexpr int64_t kMessageBytes = 400;

}  // namespace

Communicator::Communicator() : ops_{0, 1, nullptr, single_sum, single_sum, single_broadcast} {}

Communicator::Communicator(const kmx_communicator &ops) : ops_(ops) {
    require(ops.size >= 1 && ops.rank >= 0 && ops.rank < ops.size, "communicator: rank must be in [0, size)");
    require(ops.allreduce_sum && ops.allreduce_max && ops.broadcast, "communicator: every function must be given");
}

void Communicator::sum(double *values, int64_t count) const {
    if (!distributed() || count <= 0) return;
    reduced_bytes_ += count * int64_t(sizeof(double));
    check_transport(ops_.allreduce_sum(ops_.user, values, count), "a sum");
}

void Communicator::max(double *values, int64_t count) const {
    if (!distributed() || count <= 0) return;
    reduced_bytes_ += count * int64_t(sizeof(double));
    check_transport(ops_.allreduce_max(ops_.user, values, count), "a maximum");
}

void Communicator::broadcast(void *bytes, int64_t count, int root) const {
    if (distributed() && count > 0) check_transport(ops_.broadcast(ops_.user, bytes, count, root), "a broadcast");
}

void Communicator::agree(kmx_status status, const char *message) const {
    if (!distributed()) {
        if (status != KMX_OK) fail(status, "%s", message);
        return;
    }
    // The lowest failing rank r is found as the maximum of (size - r) over the failing ranks.
    double failing = status != KMX_OK ? double(size() - rank()) : 0.0;
    max(&failing, 1);
    if (failing == 0.0) return;
    const int root = size() - int(failing);
    double root_status = rank() == root ? double(status) : 0.0;
    char root_message[kMessageBytes] = {0};
    if (rank() == root) std::strncpy(root_message, message ? message : "", kMessageBytes - 1);
    broadcast(&root_status, sizeof root_status, root);
    broadcast(root_message, kMessageBytes, root);
    root_message[kMessageBytes - 1] = '\0';
    fail(kmx_status(int(root_status)), "rank %d: %s", root, root_message);
}

}  // namespace kmx
