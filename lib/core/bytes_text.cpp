#include "bytes_text.h"

#include <cstdio>

namespace kmx {

BytesText bytes_text(double bytes) {
    BytesText out;
    if (bytes >= 0x1p53) {
        std::snprintf(out.text, sizeof out.text, "no limit");
    } else if (bytes < 1024) {
        std::snprintf(out.text, sizeof out.text, "%.0f bytes", bytes);
    } else if (bytes < 1024.0 * 1024) {
        std::snprintf(out.text, sizeof out.text, "%.1f KB", bytes / 1024);
    } else if (bytes < 1024.0 * 1024 * 1024) {
        std::snprintf(out.text, sizeof out.text, "%.1f MB", bytes / (1024.0 * 1024));
    } else {
        std::snprintf(out.text, sizeof out.text, "%.2f GB", bytes / (1024.0 * 1024 * 1024));
    }
    return out;
}

}  // namespace kmx
