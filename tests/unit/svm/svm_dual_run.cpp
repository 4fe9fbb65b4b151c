// svm_dual_run.cpp — trains one binary C-SVC with the dual solver on a LIBSVM
// file and prints what compare_libsvm.py checks against svm-train:
//   objective bias support_vectors bounded_support iterations seconds
// Usage: svm_dual_run FILE C GAMMA [rows=0 (all)] [w+=1] [w-=1] [bias=1] [shrinking=1] [threads=1] [cache_mb=100]
// Labels > 0 are +1, the rest −1; C_i = C × w(y_i) (LIBSVM's -wi).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "core/arena.h"
#include "core/context.h"
#include "core/dataset.h"
#include "core/error.h"
#include "io/text_reader.h"
#include "svm/svm_dual.h"

int main(int argc, char **argv) {
    if (argc < 4) {
        std::fprintf(stderr, "usage: %s FILE C GAMMA [rows] [w+] [w-] [bias] [shrinking] [threads] [cache_mb]\n",
                     argv[0]);
        return 2;
    }
    auto arg = [&](int i, double fallback) { return argc > i ? std::atof(argv[i]) : fallback; };
    const double c = arg(2, 1), gamma = arg(3, 0), w_pos = arg(5, 1), w_neg = arg(6, 1);
    try {
        kmx::Context ctx;
        ctx.threads = int(arg(9, 1));
        auto data = kmx::read_dataset_file(ctx, argv[1], KMX_FORMAT_LIBSVM);
        const int64_t rows = int64_t(arg(4, 0));
        const int64_t n = rows > 0 && rows < data->n ? rows : data->n;
        std::vector<double> y(static_cast<size_t>(n)), upper(static_cast<size_t>(n)),
            alpha(static_cast<size_t>(n), 0.0);
        for (int64_t i = 0; i < n; ++i) {
            y[size_t(i)] = data->y[i] > 0 ? 1.0 : -1.0;
            upper[size_t(i)] = c * (y[size_t(i)] > 0 ? w_pos : w_neg);
        }
        kmx::SvmProblem problem;
        problem.data = data.get();
        problem.n = n;
        problem.y = y.data();
        problem.upper = upper.data();
        problem.kernel.type = KMX_KERNEL_RBF;
        problem.kernel.gamma = gamma;
        kmx::SvmOptions options;
        options.bias = arg(7, 1) != 0;
        options.shrinking = arg(8, 1) != 0;
        options.cache_bytes = size_t(arg(10, 100)) << 20;  // svm-train's default -m 100
        const auto start = std::chrono::steady_clock::now();
        kmx::Arena arena = ctx.reserve(kmx::svm_dual_workspace_bytes(n, data->d, options.cache_bytes), "svm");
        const kmx::SvmSolution s = kmx::solve_svm_dual(ctx, arena, problem, options, alpha.data());
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::printf("%.12g %.12g %lld %lld %lld %.4f\n", s.objective, s.bias, (long long)s.support_vectors,
                    (long long)s.bounded_support, (long long)s.iterations, seconds);
    } catch (const kmx::Error &e) {
        std::fprintf(stderr, "svm_dual_run: %s\n", e.what());
        return 1;
    }
    return 0;
}
