// status_of.h — the status a call of the library's C++ internals fails with
// (kmx::Error's), or KMX_OK when it returns: for tests of failure modes.
#pragma once
#include "core/error.h"
#include "kmx/kmx.h"

namespace test_common {

template <class Body>
kmx_status status_of(Body &&body) {
    try {
        body();
    } catch (const kmx::Error &e) {
        return e.status();
    }
    return KMX_OK;
}

}  // namespace test_common
