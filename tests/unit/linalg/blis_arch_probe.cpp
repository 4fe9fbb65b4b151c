// blis_arch_probe.cpp — prints the kernel set in use, then the results of a
// GEMM, a Gaussian kernel block, a Cholesky solve and an eigen-decomposition
// on fixed random data, one number per line (%.17g). blis_arch_agreement.py
// runs it under different kernel sets and compares the numbers.
#include <cstdio>
#include <random>
#include <vector>

#include "core/arena.h"
#include "kernel/kernel.h"
#include "linalg/blis_arch.h"
#include "linalg/linalg.h"

namespace {

std::vector<double> random_values(size_t count, std::mt19937_64 &rng) {
    std::uniform_real_distribution<double> uniform(-1, 1);
    std::vector<double> values(count);
    for (double &v : values) v = uniform(rng);
    return values;
}

void print(const char *what, const std::vector<double> &values) {
    std::printf("# %s\n", what);
    for (double v : values) std::printf("%.17g\n", v);
}

}  // namespace

int main() {
    using namespace kmx;
    std::printf("kernel set: %s (%s)\n", linalg::kernel_set_in_use(), linalg::kernel_set_origin());
    std::mt19937_64 rng(20261124);
    constexpr int64_t m = 97, n = 83, k = 131;
    const std::vector<double> a = random_values(m * k, rng), b = random_values(k * n, rng);
    std::vector<double> c(m * n);
    linalg::gemm(linalg::Trans::No, linalg::Trans::No, m, n, k, 1.0, a.data(), k, b.data(), n, 0.0, c.data(), n, 2);
    print("gemm", c);

    KernelSpec rbf;
    rbf.gamma = 0.05;
    std::vector<double> block(m * n);
    Arena scratch(kernel_block_workspace_bytes(rbf, m, n, k) + 4096);
    kernel_block(rbf, a.data(), m, k, a.data() + k, n, k, k, block.data(), n, scratch, 2);
    print("rbf block", block);

    // SPD system G + I from the block's rows: Cholesky, then two solves.
    std::vector<double> spd(n * n), rhs = random_values(n, rng);
    linalg::syrk(linalg::Uplo::Lower, linalg::Trans::Yes, n, m, 1.0, block.data(), n, 0.0, spd.data(), n, 1);
    for (int64_t i = 0; i < n; ++i) spd[i * n + i] += 1.0;
    std::vector<double> eig_input = spd;
    linalg::cholesky(linalg::Uplo::Lower, n, spd.data(), n);
    linalg::trsv(linalg::Uplo::Lower, linalg::Trans::No, n, spd.data(), n, rhs.data());
    linalg::trsv(linalg::Uplo::Lower, linalg::Trans::Yes, n, spd.data(), n, rhs.data());
    print("cholesky solve", rhs);

    std::vector<double> eigenvalues(n);
    Arena eig_scratch(linalg::eig_sym_workspace_bytes(n) + 4096);
    linalg::eig_sym(n, eig_input.data(), n, eigenvalues.data(), nullptr, 0, eig_scratch);
    print("eigenvalues", eigenvalues);
    return 0;
}
