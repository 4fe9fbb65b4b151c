// step_context.h — a context for one step of a longer call (one binary
// problem of a multiclass training, one block of a prediction). Library
// functions reserve their workspace from the context they are given and a
// reservation lasts until the call ends; running each step in a context of
// its own keeps steps from piling their reservations up, while the step
// sees the caller's threads, seed and log, the budget the caller has left,
// and reports progress into the caller's (which also carries its cancellation).
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "context.h"

namespace kmx {

class StepContext {
public:
    // Step `index` of `count`, with the budget the parent's reservations
    // (its call's workspace, its context's datasets) leave.
    StepContext(const Context &parent, int64_t index, int64_t count);
    StepContext(const StepContext &) = delete;
    StepContext &operator=(const StepContext &) = delete;

    Context &operator*() { return ctx_; }
    Context *operator->() { return &ctx_; }

private:
    struct Share {
        const Context *parent;
        int64_t index;
        int64_t count;
    };
    static int forward_progress(void *user, double fraction, const char *phase);
    Share share_;
    Context ctx_;
};

// Contexts for `workers` steps run at once on the parent's threads: each
// gets an even share of the threads (at least one), the parent's seed, no
// budget and no log of its own, and a progress hook that reports nothing
// but forwards the parent's cancellation (the parent's progress and log
// callbacks need not be thread-safe).
std::vector<std::unique_ptr<Context>> worker_contexts(const Context &parent, int workers);

// fn(step) run as step `index` of `count` of ctx; then the step's peak is
// charged to ctx's (reserved and released at once), so ctx's peak covers the
// step's memory on top of what ctx holds. Returns what fn returns.
template <class Fn>
auto run_step(Context &ctx, int64_t index, int64_t count, const char *what, Fn &&fn) {
    StepContext step(ctx, index, count);
    auto result = fn(*step);
    ctx.check_budget(step->peak_bytes(), what);
    ctx.release(step->peak_bytes());
    return result;
}

}  // namespace kmx
