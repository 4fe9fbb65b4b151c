#include <gtest/gtest.h>

#include <string>
#include <thread>

#include "core/bytes_text.h"
#include "core/context.h"
#include "core/error.h"

TEST(Context, BudgetRefusesBeforeAllocatingAndSaysHowMuch) {
    kmx::Context ctx;
    ctx.memory_budget = 100000;
    ctx.begin_call();
    try {
        ctx.reserve(200000, "test workspace");
        FAIL() << "over-budget reservation allowed";
    } catch (const kmx::Error &e) {
        EXPECT_EQ(e.status(), KMX_E_OUT_OF_MEMORY);
        const std::string message = e.what();
        EXPECT_NE(message.find("test workspace needs 195.3 KB"), std::string::npos) << message;
        EXPECT_NE(message.find("allows 97.7 KB (memory_budget = 97.7 KB"), std::string::npos) << message;
    }
}

TEST(Context, ReservationsAddUpWithinACall) {
    kmx::Context ctx;
    ctx.memory_budget = 1 << 20;
    ctx.begin_call();
    kmx::Arena first = ctx.reserve(600 * 1024, "first");
    EXPECT_THROW(ctx.reserve(600 * 1024, "second"), kmx::Error);
    EXPECT_EQ(ctx.peak_bytes(), kmx::align_up(600 * 1024));
    ctx.begin_call();
    EXPECT_NO_THROW(ctx.reserve(600 * 1024, "next call"));
}

TEST(Context, CancelFromAnotherThreadIsSeen) {
    kmx::Context ctx;
    ctx.begin_call();
    EXPECT_NO_THROW(ctx.check_cancel());
    std::thread([&] { ctx.request_cancel(); }).join();
    try {
        ctx.check_cancel();
        FAIL() << "cancel not seen";
    } catch (const kmx::Error &e) {
        EXPECT_EQ(e.status(), KMX_E_CANCELLED);
    }
    ctx.begin_call();
    EXPECT_NO_THROW(ctx.check_cancel());
}

TEST(Context, ProgressCallbackCanCancelAndSeesPhase) {
    kmx::Context ctx;
    std::string seen;
    ctx.progress_user = &seen;
    ctx.progress_fn = [](void *user, double fraction, const char *phase) {
        *static_cast<std::string *>(user) = phase;
        return fraction > 0.5 ? 1 : 0;
    };
    EXPECT_NO_THROW(ctx.progress(0.25, "phase one"));
    EXPECT_EQ(seen, "phase one");
    EXPECT_THROW(ctx.progress(0.75, "phase two"), kmx::Error);
}

TEST(Context, LogRespectsLevel) {
    kmx::Context ctx;
    int calls = 0;
    ctx.log_user = &calls;
    ctx.log_fn = [](void *user, kmx_log_level, const char *) { ++*static_cast<int *>(user); };
    ctx.log_level = KMX_LOG_WARNING;
    ctx.log(KMX_LOG_INFO, "hidden %d", 1);
    ctx.log(KMX_LOG_ERROR, "shown %d", 2);
    EXPECT_EQ(calls, 1);
}

// Byte counts in messages read as people read them; the budgets' 2^53 is "no limit".
TEST(BytesText, UnitsOf1024) {
    EXPECT_STREQ(kmx::bytes_text(0).text, "0 bytes");
    EXPECT_STREQ(kmx::bytes_text(1023).text, "1023 bytes");
    EXPECT_STREQ(kmx::bytes_text(1024).text, "1.0 KB");
    EXPECT_STREQ(kmx::bytes_text(65536).text, "64.0 KB");
    EXPECT_STREQ(kmx::bytes_text(300.0 * 1048576).text, "300.0 MB");
    EXPECT_STREQ(kmx::bytes_text(3.5 * 1073741824).text, "3.50 GB");
    EXPECT_STREQ(kmx::bytes_text(0x1p53).text, "no limit");
}
