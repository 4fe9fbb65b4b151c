// context.h — what every library call runs with: threads, seed, memory
// budget, log and progress callbacks, cooperative cancellation.
// (The C handle kmx_context wraps one of these; lib/ code sees only this.)
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "arena.h"
#include "communicator.h"
#include "kmx/kmx.h"

namespace kmx {

constexpr size_t kUnlimitedBudget = size_t(1) << 53;
// The share of available memory a new context may use by default.
constexpr double kMachineBudgetShare = 0.8;

// The default budget now: kMachineBudgetShare of available_memory_bytes()
// (read at most once a second), or kUnlimitedBudget if that is unknown.
size_t machine_memory_budget();
// usable_cores(), read once per process.
int machine_threads();

class Context {
public:
    int threads = 1;
    uint64_t seed = 0;
    size_t memory_budget = kUnlimitedBudget;
    kmx_log_level log_level = KMX_LOG_WARNING;
    bool float32_data = false;  // precision=float32: datasets loaded with this context store floats

    kmx_log_fn log_fn = nullptr;
    void *log_user = nullptr;
    kmx_progress_fn progress_fn = nullptr;
    void *progress_user = nullptr;

    // The ranks a call spans (this process alone unless kmx_context_set_communicator).
    Communicator comm;

    // What a new kmx_context starts with: every core this process may use and
    // a memory budget of kMachineBudgetShare of the memory the machine can give
    // now (unlimited if that is unknown). A Context constructed directly keeps
    // one thread and no budget (the white-box tests' setting).
    void use_machine_defaults();

    // Called at the start of each API call made with this context.
    void begin_call();
    // Throws KMX_E_OUT_OF_MEMORY (naming `what`, bytes needed and allowed)
    // if `bytes` would not fit the budget; otherwise records the reservation.
    void check_budget(size_t bytes, const char *what);
    // check_budget, then an arena of exactly that size.
    Arena reserve(size_t bytes, const char *what);
    // Frees an arena from reserve() and returns its bytes (or, with an empty
    // arena, `bytes` of reservations whose memory is gone) to the call's budget.
    void release(Arena &arena);
    void release(size_t bytes);
    // Counted from held_bytes(): what the context's lasting objects hold is
    // part of every call's reservation.
    size_t peak_bytes() const { return peak_bytes_; }
    size_t reserved_bytes() const { return reserved_bytes_; }
    // What the budget leaves after this call's reservations.
    size_t left_bytes() const { return memory_budget > reserved_bytes_ ? memory_budget - reserved_bytes_ : 0; }

    // Memory that outlives the call that made it (a dataset loaded with this
    // context) is charged to the context until the returned token is destroyed
    // (the object keeps it), and every later call's budget counts it: a process
    // using one context stays within its budget across calls. The token may
    // outlive the context.
    std::shared_ptr<const void> hold(size_t bytes);
    size_t held_bytes() const { return held_->load(std::memory_order_relaxed); }

    // Cooperative cancellation: request() may come from any thread; the
    // running call sees it at its next check_cancel() or progress().
    void request_cancel() { cancel_requested_.store(true, std::memory_order_relaxed); }
    void check_cancel() const;
    // Reports progress; throws KMX_E_CANCELLED if cancelled or the callback asks to stop.
    void progress(double fraction, const char *phase) const;
    void log(kmx_log_level level, const char *fmt, ...) const __attribute__((format(printf, 3, 4)));

private:
    std::atomic<bool> cancel_requested_{false};
    std::shared_ptr<std::atomic<size_t>> held_ = std::make_shared<std::atomic<size_t>>(0);
    size_t reserved_bytes_ = 0;
    size_t peak_bytes_ = 0;
};

}  // namespace kmx
