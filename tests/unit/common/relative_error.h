// relative_error.h — how far one vector of results is from a reference.
#pragma once
#include <algorithm>
#include <cmath>
#include <vector>

namespace test_common {

// max_i |a_i − b_i| / max_i |b_i|: b is the reference.
inline double max_relative(const std::vector<double> &a, const std::vector<double> &b) {
    double worst = 0, scale = 0;
    for (double v : b) scale = std::max(scale, std::fabs(v));
    for (size_t i = 0; i < a.size(); ++i) worst = std::max(worst, std::fabs(a[i] - b[i]));
    return worst / scale;
}

}  // namespace test_common
