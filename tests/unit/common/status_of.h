// status_of.h — the status a call of the library's C++ internals fails with
// (kmx::Error's), or KMX_OK when it returns: for tests of failure modes.
#pragma once
#include <functional>

#include "core/error.h"
#include "kmx/kmx.h"

namespace test_common {

inline kmx_status status_of(const std::function<void()> &call) {
    try {
        call();
    } catch (const kmx::Error &e) {
        return e.status();
    }
    return KMX_OK;
}

}  // namespace test_common
