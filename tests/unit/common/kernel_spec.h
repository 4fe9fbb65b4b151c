// kernel_spec.h — kernel specifications for tests: any type with its
// parameters, and the Gaussian exp(−γ‖x − z‖²).
#pragma once
#include "kernel/kernel.h"

namespace test_common {

inline kmx::KernelSpec kernel_spec(kmx_kernel_type type, double gamma = 0, double coef0 = 0, int degree = 3) {
    kmx::KernelSpec spec;
    spec.type = type;
    spec.gamma = gamma;
    spec.coef0 = coef0;
    spec.degree = degree;
    return spec;
}

inline kmx::KernelSpec rbf(double gamma) { return kernel_spec(KMX_KERNEL_RBF, gamma); }

}  // namespace test_common
