#include "context.h"

#include <chrono>
#include <climits>
#include <cstdarg>
#include <cstdio>

#include "bytes_text.h"
#include "error.h"
#include "system.h"

namespace kmx {

size_t machine_memory_budget() {
    using Clock = std::chrono::steady_clock;
    static std::atomic<int64_t> read_at{INT64_MIN};
    static std::atomic<size_t> budget{kUnlimitedBudget};
    const int64_t now = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now().time_since_epoch()).count();
    const int64_t last = read_at.load(std::memory_order_relaxed);
    if (last == INT64_MIN || now - last >= 1000) {
        const size_t available = available_memory_bytes();
        const double share = kMachineBudgetShare * double(available);
        budget.store(available == 0 || share >= double(kUnlimitedBudget) ? kUnlimitedBudget : size_t(share),
                     std::memory_order_relaxed);
        read_at.store(now, std::memory_order_relaxed);
    }
    return budget.load(std::memory_order_relaxed);
}

int machine_threads() {
    static const int cores = usable_cores();
    return cores;
}

void Context::use_machine_defaults() {
    threads = machine_threads();
    memory_budget = machine_memory_budget();
}

void Context::begin_call() {
    cancel_requested_.store(false, std::memory_order_relaxed);
    reserved_bytes_ = held_bytes();
    peak_bytes_ = reserved_bytes_;
}

std::shared_ptr<const void> Context::hold(size_t bytes) {
    held_->fetch_add(bytes, std::memory_order_relaxed);
    std::shared_ptr<std::atomic<size_t>> account = held_;
    return std::shared_ptr<const void>(nullptr, [account, bytes](const void *) {
        account->fetch_sub(bytes, std::memory_order_relaxed);
    });
}

void Context::check_budget(size_t bytes, const char *what) {
    const size_t available = left_bytes();
    if (bytes > available)
        fail(KMX_E_OUT_OF_MEMORY, "%s needs %s but the memory budget allows %s (memory_budget = %s, %s already reserved)",
             what, bytes_text(double(bytes)).text, bytes_text(double(available)).text,
             bytes_text(double(memory_budget)).text, bytes_text(double(reserved_bytes_)).text);
    reserved_bytes_ += bytes;
    if (reserved_bytes_ > peak_bytes_) peak_bytes_ = reserved_bytes_;
}

Arena Context::reserve(size_t bytes, const char *what) {
    check_budget(align_up(bytes), what);
    return Arena(bytes);
}

void Context::release(Arena &arena) {
    const size_t bytes = align_up(arena.capacity());
    arena = Arena();
    release(bytes);
}

void Context::release(size_t bytes) {
    const size_t floor = held_bytes();
    reserved_bytes_ = reserved_bytes_ > floor + bytes ? reserved_bytes_ - bytes : floor;
}

void Context::check_cancel() const {
    if (cancel_requested_.load(std::memory_order_relaxed)) fail(KMX_E_CANCELLED, "cancelled by kmx_context_cancel()");
}

void Context::progress(double fraction, const char *phase) const {
    check_cancel();
    if (progress_fn && progress_fn(progress_user, fraction, phase) != 0)
        fail(KMX_E_CANCELLED, "cancelled by the progress callback during '%s'", phase);
}

void Context::log(kmx_log_level level, const char *fmt, ...) const {
    if (!log_fn || level > log_level) return;
    char text[512];
    va_list args;
    va_start(args, fmt);
    std::vsnprintf(text, sizeof text, fmt, args);
    va_end(args);
    log_fn(log_user, level, text);
}

}  // namespace kmx
