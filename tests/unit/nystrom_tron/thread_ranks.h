// thread_ranks.h — a communicator of several ranks inside one process: each
// rank is a thread, and a sum or maximum is exchanged through shared slots
// between two barriers, combined in rank order (so every rank gets the same
// bits, as an AllReduce must give them).
#pragma once
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <vector>

#include "kmx/kmx.h"

namespace tron_test {

class ThreadRanks {
public:
    explicit ThreadRanks(int size) : size_(size), slots_(size_t(size)), handles_(size_t(size)) {
        for (int r = 0; r < size; ++r) handles_[size_t(r)] = {this, r};
    }
    // The table rank r's context uses.
    kmx_communicator communicator(int rank) {
        return kmx_communicator{rank, size_, &handles_[size_t(rank)], &sum, &max, &broadcast};
    }
    int sums = 0;  // AllReduce calls made by rank 0

private:
    struct Handle {
        ThreadRanks *group;
        int rank;
    };

    void barrier() {
        std::unique_lock<std::mutex> lock(mutex_);
        const unsigned long generation = generation_;
        if (++arrived_ == size_) {
            arrived_ = 0;
            ++generation_;
            changed_.notify_all();
        } else {
            changed_.wait(lock, [&] { return generation_ != generation; });
        }
    }

    template <class Combine>
    static int reduce(void *user, double *values, int64_t count, Combine combine) {
        Handle &h = *static_cast<Handle *>(user);
        ThreadRanks &g = *h.group;
        g.slots_[size_t(h.rank)].assign(values, values + count);
        g.barrier();
        for (int64_t i = 0; i < count; ++i) {
            double v = g.slots_[0][size_t(i)];
            for (int r = 1; r < g.size_; ++r) v = combine(v, g.slots_[size_t(r)][size_t(i)]);
            values[i] = v;
        }
        if (h.rank == 0) ++g.sums;
        g.barrier();
        return 0;
    }
    static int sum(void *user, double *values, int64_t count) {
        return reduce(user, values, count, [](double a, double b) { return a + b; });
    }
    static int max(void *user, double *values, int64_t count) {
        return reduce(user, values, count, [](double a, double b) { return a > b ? a : b; });
    }
    static int broadcast(void *user, void *bytes, int64_t count, int32_t root) {
        Handle &h = *static_cast<Handle *>(user);
        ThreadRanks &g = *h.group;
        if (h.rank == root)
            g.bytes_.assign(static_cast<unsigned char *>(bytes), static_cast<unsigned char *>(bytes) + count);
        g.barrier();
        if (h.rank != root) std::memcpy(bytes, g.bytes_.data(), size_t(count));
        g.barrier();
        return 0;
    }

    int size_;
    std::vector<std::vector<double>> slots_;
    std::vector<unsigned char> bytes_;
    std::vector<Handle> handles_;
    std::mutex mutex_;
    std::condition_variable changed_;
    int arrived_ = 0;
    unsigned long generation_ = 0;
};

}  // namespace tron_test
