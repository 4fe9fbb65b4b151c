// reproducible_sum.cpp — binned pre-rounding (see reproducible_sum.h).
//
// The splitting relies on every operation being rounded as written: no
// -ffast-math, and no contraction of σ + w·r into a fused multiply-add
// (GCC contracts nothing under -std=c++17, an ISO mode, which kmx builds with).
#include "reproducible_sum.h"

#include <algorithm>
#include <cmath>

#include "error.h"
#include "isa_dispatch.h"

namespace kmx {

namespace {

static_assert(BinnedSum::kBins == 3, "the kernels below split into three bins");

constexpr int kMantissa = 53;
constexpr int kLowestExponent = -1000;  // σ never subnormal: its grid stays exactly representable
constexpr int kHighestExponent = 1023;

struct Bins {
    double s0, s1, s2;        // σ₀, σ₁, σ₂
    double *b0, *b1, *b2;     // the three bins of output 0
};

// Splits x into the bins of output j; returns |x|.
KMX_ALWAYS_INLINE double deposit(const Bins &b, int64_t j, double x) {
    const double q0 = (b.s0 + x) - b.s0, r1 = x - q0;
    const double q1 = (b.s1 + r1) - b.s1, r2 = r1 - q1;
    const double q2 = (b.s2 + r2) - b.s2;
    b.b0[j] += q0;
    b.b1[j] += q1;
    b.b2[j] += q2;
    return std::fabs(x);
}

KMX_ALWAYS_INLINE double larger(double a, double b) { return a > b ? a : b; }

KMX_ALWAYS_INLINE double add_scaled_kernel_body(Bins b, double w, const double *__restrict row, int64_t count) {
    double largest = 0;
    for (int64_t t = 0; t < count; ++t) largest = larger(largest, deposit(b, t, w * row[t]));
    return largest;
}

KMX_ALWAYS_INLINE double add_scaled_squares_kernel_body(Bins b, double w, const double *__restrict row, int64_t count) {
    double largest = 0;
    for (int64_t t = 0; t < count; ++t) largest = larger(largest, deposit(b, t, w * row[t] * row[t]));
    return largest;
}

KMX_ISA_VARIANTS(double, add_scaled_kernel, (Bins b, double w, const double *row, int64_t count), (b, w, row, count))
KMX_ISA_VARIANTS(double, add_scaled_squares_kernel, (Bins b, double w, const double *row, int64_t count),
                 (b, w, row, count))

// ⌈log₂ x⌉ for x > 0 (an exponent e with x <= 2^e).
int ceil_log2(double x) {
    int e = 0;
    const double f = std::frexp(x, &e);  // x = f·2^e, f in [0.5, 1)
    return f == 0.5 ? e - 1 : e;
}

}  // namespace

void BinnedSum::start(int64_t width, int64_t terms, double bound) {
    width_ = width;
    terms_ = std::max<int64_t>(terms, 1);
    bound_ = bound;
    largest_ = 0;
    bins_.assign(size_t(kBins * width), 0.0);
    // Level k holds the residues of level k−1, at most M_k = σ_{k−1}·2⁻⁵³ each.
    const int count_bits = ceil_log2(double(terms_));
    int top = (bound > 0 ? ceil_log2(bound) : kLowestExponent) + count_bits + 1;
    if (top > kHighestExponent) fail(KMX_E_NUMERICAL, "a sum's terms are too large (%g) to be summed", bound);
    for (int k = 0; k < kBins; ++k) {
        sigma_[k] = std::ldexp(1.0, std::max(top, kLowestExponent));
        top += count_bits + 1 - kMantissa;
    }
}

void BinnedSum::start_scaled(int64_t width, int64_t terms, double scale) {
    start(width, terms, ratio_ * scale * kHeadroom);
}

void BinnedSum::add(int64_t j, double x) {
    const Bins b{sigma_[0], sigma_[1], sigma_[2], &bins_[0], &bins_[size_t(width_)], &bins_[size_t(2 * width_)]};
    largest_ = larger(largest_, deposit(b, j, x));
}

void BinnedSum::add_scaled(int64_t offset, double w, const double *row, int64_t count) {
    double *at = bins_.data() + offset;
    const Bins b{sigma_[0], sigma_[1], sigma_[2], at, at + width_, at + 2 * width_};
    largest_ = larger(largest_, add_scaled_kernel(b, w, row, count));
}

void BinnedSum::add_scaled_squares(int64_t offset, double w, const double *row, int64_t count) {
    double *at = bins_.data() + offset;
    const Bins b{sigma_[0], sigma_[1], sigma_[2], at, at + width_, at + 2 * width_};
    largest_ = larger(largest_, add_scaled_squares_kernel(b, w, row, count));
}

void BinnedSum::add_outer(const double *a, int64_t m, const double *b, int64_t k) {
    if (k == 1) {
        add_scaled(0, b[0], a, m);
        return;
    }
    for (int64_t j = 0; j < m; ++j) add_scaled(j * k, a[j], b, k);
}

void BinnedSum::merge(const BinnedSum &other) {
    for (size_t i = 0; i < bins_.size(); ++i) bins_[i] += other.bins_[i];
    largest_ = larger(largest_, other.largest_);
}

bool BinnedSum::accept(double agreed_largest, double scale) {
    if (!std::isfinite(agreed_largest))
        fail(KMX_E_NUMERICAL, "a sum over rows met a term that is not finite (%g)", agreed_largest);
    if (agreed_largest > 0 && scale > 0) ratio_ = agreed_largest / scale;
    return agreed_largest <= bound_;
}

void BinnedSum::result(double *out) const {
    const double *b0 = bins_.data(), *b1 = b0 + width_, *b2 = b1 + width_;
    for (int64_t j = 0; j < width_; ++j) out[j] = (b2[j] + b1[j]) + b0[j];
}

bool agree_bounds(const Communicator &comm, std::vector<BinnedTarget> &targets) {
    std::vector<double> largest;
    for (const BinnedTarget &t : targets) largest.push_back(t.sum->largest_term());
    comm.max(largest.data(), int64_t(largest.size()));
    bool fits = true;
    for (size_t i = 0; i < targets.size(); ++i) fits = targets[i].sum->accept(largest[i], targets[i].scale) && fits;
    return fits;
}

void reduce_bins(const Communicator &comm, std::vector<BinnedTarget> &targets) {
    if (comm.distributed()) {
        std::vector<double> all;
        for (const BinnedTarget &t : targets) all.insert(all.end(), t.sum->bins(), t.sum->bins() + t.sum->bin_values());
        comm.sum(all.data(), int64_t(all.size()));  // exact: every partial sum is on each bin's grid
        const double *at = all.data();
        for (const BinnedTarget &t : targets) {
            std::copy(at, at + t.sum->bin_values(), t.sum->bins());
            at += t.sum->bin_values();
        }
    }
    for (const BinnedTarget &t : targets) t.sum->result(t.out);
}

}  // namespace kmx
