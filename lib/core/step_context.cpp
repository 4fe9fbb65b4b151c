#include "step_context.h"

namespace kmx {

StepContext::StepContext(const Context &parent, int64_t index, int64_t count)
    : share_{&parent, index, count} {
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

}  // namespace kmx
