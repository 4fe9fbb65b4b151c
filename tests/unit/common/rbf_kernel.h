// rbf_kernel.h — a Gaussian kernel specification exp(−γ‖x − z‖²) for tests.
#pragma once
#include "kernel/kernel.h"

namespace test_common {

inline kmx::KernelSpec rbf(double gamma) {
    kmx::KernelSpec spec;
    spec.type = KMX_KERNEL_RBF;
    spec.gamma = gamma;
    return spec;
}

}  // namespace test_common
