#include "step_context.h"

#include <algorithm>

#include "error.h"

namespace kmx {

StepContext::StepContext(const Context &parent, int64_t index, int64_t count) : share_{&parent, index, count} {
    ctx_.threads = parent.threads;
    ctx_.seed = parent.seed;
    ctx_.memory_budget = parent.left_bytes();
    ctx_.log_level = parent.log_level;
    ctx_.log_fn = parent.log_fn;
    ctx_.log_user = parent.log_user;
    ctx_.progress_fn = forward_progress;
    ctx_.progress_user = &share_;
}

// Throws (through Context::progress) when the caller's call is cancelled.
int StepContext::forward_progress(void *user, double fraction, const char *phase) {
    const Share &share = *static_cast<const Share *>(user);
    share.parent->progress((double(share.index) + fraction) / double(share.count), phase);
    return 0;
}

namespace {

// Worker contexts see the parent's cancellation through their progress hook.
int forward_cancellation(void *parent, double, const char *) {
    try {
        static_cast<const Context *>(parent)->check_cancel();
        return 0;
    } catch (const Error &) {
        return 1;
    }
}

}  // namespace

std::vector<std::unique_ptr<Context>> worker_contexts(const Context &parent, int workers) {
    std::vector<std::unique_ptr<Context>> contexts;
    for (int w = 0; w < workers; ++w) {
        auto worker = std::make_unique<Context>();
        worker->threads = std::max(1, parent.threads / workers);
        worker->seed = parent.seed;
        worker->progress_fn = forward_cancellation;
        worker->progress_user = const_cast<Context *>(&parent);
        contexts.push_back(std::move(worker));
    }
    return contexts;
}

}  // namespace kmx
