// parallel.h — the library's one way to run a loop on several threads
// (OpenMP, static schedule so that the same thread count gives the same
// partition). An exception thrown by the body is carried out of the
// parallel region and rethrown on the calling thread.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <exception>
#include <mutex>

namespace kmx {

// Flops below which one more thread costs more than it saves: waking a
// sleeping OpenMP worker takes microseconds on an idle machine and a
// scheduler time slice (milliseconds) on a busy one, and a worker left
// spinning between many small loops takes a core from whatever else runs,
// so a thread joins only for at least ~4 MFLOP (tens of microseconds) of its own.
constexpr double kFlopsPerThread = 4e6;

// The threads worth using for about `flops` of work, each given at least
// `per_thread` of it: at most `threads`, at least 1.
inline int threads_for_work(int threads, double flops, double per_thread = kFlopsPerThread) {
    const double useful = std::max(1.0, std::floor(flops / per_thread));
    return threads > 1 ? int(std::min(double(threads), useful)) : 1;
}

namespace parallel_detail {
// parallel_for calls run serially on this thread, nested: inside them the
// thread is thread 0 of its (one-thread) loop, whatever team it is part of.
extern thread_local int serial_depth;
struct SerialScope {
    SerialScope() { ++serial_depth; }
    ~SerialScope() { --serial_depth; }
    SerialScope(const SerialScope &) = delete;
    SerialScope &operator=(const SerialScope &) = delete;
};
}  // namespace parallel_detail

// Calls body(i) for i in [0, count) on up to `threads` threads.
template <class Body>
void parallel_for(int64_t count, int threads, Body &&body) {
    if (count <= 0) return;
    if (threads <= 1 || count == 1) {
        parallel_detail::SerialScope serial;
        for (int64_t i = 0; i < count; ++i) body(i);
        return;
    }
    std::exception_ptr error;
    std::mutex error_mutex;
#pragma omp parallel for schedule(static) num_threads(threads)
    for (int64_t i = 0; i < count; ++i) {
        try {
            body(i);
        } catch (...) {
            std::lock_guard<std::mutex> lock(error_mutex);
            if (!error) error = std::current_exception();
        }
    }
    if (error) std::rethrow_exception(error);
}

// Index of the calling thread inside parallel_for, in [0, threads) of that
// call: 0 outside, and 0 in a call that runs serially even when it is nested
// in another parallel_for's thread k (where OpenMP's thread number is k's).
int thread_index();

}  // namespace kmx
