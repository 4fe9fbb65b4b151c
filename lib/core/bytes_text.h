// bytes_text.h — a byte count as people read it in a message: "812 bytes",
// "64.0 KB", "466.2 MB", "3.21 GB" (units of 1024, as the CLI's K/M/G
// suffixes), and "no limit" for 2^53, the budgets' unlimited. No allocation.
#pragma once
#include <cstddef>

namespace kmx {

struct BytesText {
    char text[32];
};

BytesText bytes_text(double bytes);

}  // namespace kmx
