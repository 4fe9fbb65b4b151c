// landmark_refinement.cpp — reduced-set refinement (landmark_refinement.h).
#include "landmark_refinement.h"

#include <algorithm>
#include <cmath>

#include "core/error.h"
#include "core/arena.h"
#include "linalg/linalg.h"

namespace kmx {

namespace {

using linalg::Trans;

// K_ij = k(x_i, u_j): n x m.
std::vector<double> kernel_values(const KernelSpec &kernel, const double *x, int64_t n, int64_t d,
                                  const std::vector<double> &landmarks, int threads) {
    const int64_t m = int64_t(landmarks.size()) / d;
    std::vector<double> values(size_t(n * m));
    Arena scratch(kernel_block_workspace_bytes(kernel, n, m, d));
    kernel_block(kernel, x, n, d, landmarks.data(), m, d, d, values.data(), m, scratch, threads);
    return values;
}

// s_ij with ∂k(x_i, u_j)/∂u_j = s_ij (x_i − u_j) (RBF) or s_ij x_i (the
// dot-product kernels: linear, polynomial, sigmoid); Laplacian in place.
std::vector<double> gradient_scales(const KernelSpec &kernel, const double *x, int64_t n, int64_t d,
                                    const std::vector<double> &landmarks, const std::vector<double> &values,
                                    int threads) {
    const int64_t m = int64_t(landmarks.size()) / d;
    const double gamma = kernel.gamma_for(d);
    std::vector<double> scales(values.size());
    if (kernel.type == KMX_KERNEL_RBF) {  // exp(−γ‖x − u‖²): 2γ k (x − u)
        for (size_t t = 0; t < values.size(); ++t) scales[t] = 2 * gamma * values[t];
    } else if (kernel.type == KMX_KERNEL_LINEAR) {  // xᵀu: x
        std::fill(scales.begin(), scales.end(), 1.0);
    } else if (kernel.type == KMX_KERNEL_SIGMOID) {  // tanh(γ xᵀu + c): γ (1 − k²) x
        for (size_t t = 0; t < values.size(); ++t) scales[t] = gamma * (1 - values[t] * values[t]);
    } else {  // polynomial (γ xᵀu + c)^p: p γ (γ xᵀu + c)^(p−1) x
        linalg::gemm(Trans::No, Trans::Yes, n, m, d, 1.0, x, d, landmarks.data(), d, 0.0, scales.data(), m, threads);
        for (double &s : scales) s = kernel.degree * gamma * std::pow(gamma * s + kernel.coef0, kernel.degree - 1);
    }
    return scales;
}

// β, b from the normal equations of A = [K 1] (n x (m+1)):
// (AᵀA/n + λ diag(1..1, 0)) θ = AᵀT/n, one right-hand side per output.
LandmarkFit solve_weights(const std::vector<double> &values, int64_t n, int64_t m, const double *targets,
                          int64_t outputs, double ridge, int threads) {
    const int64_t p = m + 1;
    std::vector<double> a(size_t(n * p)), gram(size_t(p * p)), rhs(size_t(p * outputs));
    for (int64_t i = 0; i < n; ++i) {
        std::copy(&values[size_t(i * m)], &values[size_t((i + 1) * m)], &a[size_t(i * p)]);
        a[size_t(i * p + m)] = 1;
    }
    const double scale = 1.0 / double(n);
    linalg::syrk(linalg::Uplo::Lower, Trans::Yes, p, n, scale, a.data(), p, 0.0, gram.data(), p, threads);
    for (int64_t j = 0; j < m; ++j) gram[size_t(j * p + j)] += ridge;
    linalg::gemm(Trans::Yes, Trans::No, p, outputs, n, scale, a.data(), p, targets, outputs, 0.0, rhs.data(), outputs,
                 threads);
    linalg::cholesky(linalg::Uplo::Lower, p, gram.data(), p);
    linalg::trsm(linalg::Side::Left, linalg::Uplo::Lower, Trans::No, p, outputs, 1.0, gram.data(), p, rhs.data(),
                 outputs);
    linalg::trsm(linalg::Side::Left, linalg::Uplo::Lower, Trans::Yes, p, outputs, 1.0, gram.data(), p, rhs.data(),
                 outputs);
    LandmarkFit fit;
    fit.beta.assign(rhs.begin(), rhs.begin() + m * outputs);
    fit.bias.assign(rhs.begin() + m * outputs, rhs.end());
    return fit;
}

// r = K β + b − T (n x outputs), and the objective L into fit.loss.
std::vector<double> residuals(const std::vector<double> &values, int64_t n, int64_t m, const double *targets,
                              int64_t outputs, double ridge, LandmarkFit &fit, int threads) {
    std::vector<double> r(size_t(n * outputs));
    for (int64_t i = 0; i < n; ++i)
        for (int64_t k = 0; k < outputs; ++k)
            r[size_t(i * outputs + k)] = fit.bias[size_t(k)] - targets[i * outputs + k];
    linalg::gemm(Trans::No, Trans::No, n, outputs, m, 1.0, values.data(), m, fit.beta.data(), outputs, 1.0, r.data(),
                 outputs, threads);
    double squares = 0, norm = 0;
    for (double v : r) squares += v * v;
    for (double b : fit.beta) norm += b * b;
    fit.loss = squares / double(n) + ridge * norm;
    return r;
}

// ∂L/∂U (m x d) at the fit: with c_ij = (2/n) Σ_k r_ik β_jk, row j is
// Σ_i c_ij s_ij (x_i − u_j) or Σ_i c_ij s_ij x_i, one GEMM.
std::vector<double> loss_gradient(const KernelSpec &kernel, const double *x, int64_t n, int64_t d,
                                  const std::vector<double> &landmarks, const std::vector<double> &values,
                                  const std::vector<double> &r, int64_t outputs, const LandmarkFit &fit, int threads) {
    const int64_t m = int64_t(landmarks.size()) / d;
    std::vector<double> c(size_t(n * m)), grad(landmarks.size(), 0.0);
    linalg::gemm(Trans::No, Trans::Yes, n, m, outputs, 2.0 / double(n), r.data(), outputs, fit.beta.data(), outputs,
                 0.0, c.data(), m, threads);
    if (kernel.type == KMX_KERNEL_LAPLACIAN) {  // exp(−γ‖x − u‖₁): γ k sign(x − u)
        const double gamma = kernel.gamma_for(d);
        for (int64_t i = 0; i < n; ++i)
            for (int64_t j = 0; j < m; ++j) {
                const double w = c[size_t(i * m + j)] * gamma * values[size_t(i * m + j)];
                const double *xi = x + i * d, *uj = &landmarks[size_t(j * d)];
                for (int64_t t = 0; t < d; ++t)
                    grad[size_t(j * d + t)] += w * double((xi[t] > uj[t]) - (xi[t] < uj[t]));
            }
        return grad;
    }
    const std::vector<double> scales = gradient_scales(kernel, x, n, d, landmarks, values, threads);
    for (size_t t = 0; t < c.size(); ++t) c[t] *= scales[t];
    linalg::gemm(Trans::Yes, Trans::No, m, d, n, 1.0, c.data(), m, x, d, 0.0, grad.data(), d, threads);
    if (kernel.type == KMX_KERNEL_RBF)
        for (int64_t j = 0; j < m; ++j) {
            double column = 0;
            for (int64_t i = 0; i < n; ++i) column += c[size_t(i * m + j)];
            for (int64_t t = 0; t < d; ++t) grad[size_t(j * d + t)] -= column * landmarks[size_t(j * d + t)];
        }
    return grad;
}

// Root-mean-square distance of the rows from their mean: the step scale.
double spread(const double *x, int64_t n, int64_t d) {
    double total = 0;
    for (int64_t t = 0; t < d; ++t) {
        double mean = 0, squares = 0;
        for (int64_t i = 0; i < n; ++i) mean += x[i * d + t] / double(n);
        for (int64_t i = 0; i < n; ++i) squares += (x[i * d + t] - mean) * (x[i * d + t] - mean);
        total += squares / double(n);
    }
    return std::sqrt(total);
}

constexpr double kFirstStep = 0.05;        // the first step moves a landmark by this × the rows' spread at most
constexpr int kBacktracks = 6;             // step halvings tried before giving up
constexpr double kStopImprovement = 1e-6;  // relative fall of L below which the descent stops

}  // namespace

LandmarkFit fit_landmark_weights(const KernelSpec &kernel, const double *x, int64_t n, int64_t d, const double *targets,
                                 int64_t outputs, const std::vector<double> &landmarks, double ridge, int threads) {
    require(n > 0 && d > 0 && outputs > 0 && !landmarks.empty() && landmarks.size() % size_t(d) == 0 && ridge > 0,
            "landmark refinement: bad shapes or ridge");
    const int64_t m = int64_t(landmarks.size()) / d;
    const std::vector<double> values = kernel_values(kernel, x, n, d, landmarks, threads);
    LandmarkFit fit = solve_weights(values, n, m, targets, outputs, ridge, threads);
    residuals(values, n, m, targets, outputs, ridge, fit, threads);
    return fit;
}

std::vector<double> landmark_loss_gradient(const KernelSpec &kernel, const double *x, int64_t n, int64_t d,
                                           const double *targets, int64_t outputs, const std::vector<double> &landmarks,
                                           double ridge, int threads) {
    const int64_t m = int64_t(landmarks.size()) / d;
    const std::vector<double> values = kernel_values(kernel, x, n, d, landmarks, threads);
    LandmarkFit fit = solve_weights(values, n, m, targets, outputs, ridge, threads);
    const std::vector<double> r = residuals(values, n, m, targets, outputs, ridge, fit, threads);
    return loss_gradient(kernel, x, n, d, landmarks, values, r, outputs, fit, threads);
}

LandmarkFit refine_landmarks(const KernelSpec &kernel, const double *x, int64_t n, int64_t d, const double *targets,
                             int64_t outputs, std::vector<double> &landmarks, double ridge, int iterations,
                             int threads) {
    require(kernel.gamma > 0, "landmark refinement: the kernel's gamma must be set");
    const int64_t m = int64_t(landmarks.size()) / d;
    std::vector<double> values = kernel_values(kernel, x, n, d, landmarks, threads);
    LandmarkFit fit = solve_weights(values, n, m, targets, outputs, ridge, threads);
    std::vector<double> r = residuals(values, n, m, targets, outputs, ridge, fit, threads);
    double step = -1;
    for (int it = 0; it < iterations; ++it) {
        const std::vector<double> grad = loss_gradient(kernel, x, n, d, landmarks, values, r, outputs, fit, threads);
        double largest = 0;
        for (double g : grad) largest = std::max(largest, std::fabs(g));
        if (!(largest > 0) || !std::isfinite(largest)) break;
        if (step < 0) step = kFirstStep * spread(x, n, d) / largest;
        bool moved = false;
        for (int tries = 0; tries < kBacktracks && !moved; ++tries, step /= 2) {
            std::vector<double> trial = landmarks;
            for (size_t t = 0; t < trial.size(); ++t) trial[t] -= step * grad[t];
            std::vector<double> trial_values = kernel_values(kernel, x, n, d, trial, threads);
            LandmarkFit trial_fit = solve_weights(trial_values, n, m, targets, outputs, ridge, threads);
            std::vector<double> trial_r = residuals(trial_values, n, m, targets, outputs, ridge, trial_fit, threads);
            if (!(trial_fit.loss < fit.loss)) continue;
            moved = true;
            const double improvement = (fit.loss - trial_fit.loss) / fit.loss;
            landmarks.swap(trial), values.swap(trial_values), r.swap(trial_r), fit = std::move(trial_fit);
            if (improvement < kStopImprovement) return fit;
            step *= 4;  // undoes the loop's halving, then grows by 2
        }
        if (!moved) break;
    }
    return fit;
}

}  // namespace kmx
