// reproducible_sum.cpp — binned pre-rounding (see reproducible_sum.h).
//
// The splitting relies on every operation being rounded as written: no
// -ffast-math, and no contraction of σ + w·r into a fused multiply-add
// (GCC contracts nothing under -std=c++17, an ISO mode, which kmx builds with).
#include "reproducible_sum.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "error.h"
#include "isa_dispatch.h"

namespace kmx {

namespace {

static_assert(BinnedSum::kBins == 2, "the kernels below split into two bins");

constexpr int kMantissa = 53;
constexpr int kLowestExponent = -1000;  // σ never subnormal: its grid stays exactly representable
constexpr int kHighestExponent = 1022;  // σ + x stays below 2^1024

struct Bins {
    double s0, s1;    // σ₀, σ₁
    double *b0, *b1;  // the two bins of output 0
};

// Splits x into the bins of output t (σ fixed, so no result depends on a bin's value).
KMX_ALWAYS_INLINE void deposit(const Bins &b, double *__restrict b0, double *__restrict b1, int64_t t, double x) {
    const double q0 = (b.s0 + x) - b.s0, r1 = x - q0;
    const double q1 = (b.s1 + r1) - b.s1;  // r1 − q1, below σ₁·2⁻⁵³, is dropped
    b0[t] += q0;
    b1[t] += q1;
}

// |x|'s bits: for x >= 0 (or NaN) the integer order is the order of the
// values, and an integer maximum vectorises where a floating-point one does not.
KMX_ALWAYS_INLINE uint64_t magnitude_bits(double x) {
    uint64_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    return bits & ~(uint64_t(1) << 63);
}

KMX_ALWAYS_INLINE double from_bits(uint64_t bits) {
    double x;
    std::memcpy(&x, &bits, sizeof x);
    return x;
}

// Adds w·row[t] (squared: w·row[t]²) to output t; returns the largest |term|.
template <bool kSquared>
KMX_ALWAYS_INLINE double add_row(const Bins &b, double w, const double *__restrict row, int64_t count) {
    double *__restrict b0 = b.b0, *__restrict b1 = b.b1;
    uint64_t largest = 0;
    for (int64_t t = 0; t < count; ++t) {
        const double x = kSquared ? w * row[t] * row[t] : w * row[t];
        deposit(b, b0, b1, t, x);
        const uint64_t bits = magnitude_bits(x);
        largest = bits > largest ? bits : largest;
    }
    return from_bits(largest);
}

KMX_ALWAYS_INLINE double larger(double a, double b) { return a > b ? a : b; }

KMX_ALWAYS_INLINE double add_scaled_kernel_body(Bins b, double w, const double *row, int64_t count) {
    return add_row<false>(b, w, row, count);
}

KMX_ALWAYS_INLINE double add_scaled_squares_kernel_body(Bins b, double w, const double *row, int64_t count) {
    return add_row<true>(b, w, row, count);
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
        // 1.5·2^t: σ ± x stays in [2^t, 2^(t+1)), one spacing, so q(−x) = −q(x).
        sigma_[k] = 1.5 * std::ldexp(1.0, std::max(top, kLowestExponent));
        top += count_bits + 1 - kMantissa;
    }
}

void BinnedSum::start_scaled(int64_t width, int64_t terms, double scale) {
    start(width, terms, ratio_ * scale * kHeadroom);
}

void BinnedSum::add(int64_t j, double x) {
    const Bins b{sigma_[0], sigma_[1], &bins_[0], &bins_[size_t(width_)]};
    deposit(b, b.b0, b.b1, j, x);
    largest_ = larger(largest_, std::fabs(x));
}

void BinnedSum::add_scaled(int64_t offset, double w, const double *row, int64_t count) {
    double *at = bins_.data() + offset;
    const Bins b{sigma_[0], sigma_[1], at, at + width_};
    largest_ = larger(largest_, add_scaled_kernel(b, w, row, count));
}

void BinnedSum::add_scaled_squares(int64_t offset, double w, const double *row, int64_t count) {
    double *at = bins_.data() + offset;
    const Bins b{sigma_[0], sigma_[1], at, at + width_};
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

BinnedSum BinnedSum::empty_like() const {
    BinnedSum empty = *this;
    std::fill(empty.bins_.begin(), empty.bins_.end(), 0.0);
    empty.largest_ = 0;
    return empty;
}

bool BinnedSum::accept(double agreed_largest, double scale) {
    if (!std::isfinite(agreed_largest))
        fail(KMX_E_NUMERICAL, "a sum over rows met a term that is not finite (%g)", agreed_largest);
    if (agreed_largest > 0 && scale > 0) ratio_ = agreed_largest / scale;
    return agreed_largest <= bound_;
}

void BinnedSum::result(double *out) const {
    const double *b0 = bins_.data(), *b1 = b0 + width_;
    for (int64_t j = 0; j < width_; ++j) out[j] = b1[j] + b0[j];
}

bool reduce_binned(const Communicator &comm, std::vector<BinnedTarget> &targets) {
    // The bins of every target, then each rank's largest term per target in
    // its own slot (zeros elsewhere): one sum carries both, exactly.
    const size_t ranks = size_t(comm.size()), slots = targets.size() * ranks;
    std::vector<double> all;
    for (const BinnedTarget &t : targets) all.insert(all.end(), t.sum->bins(), t.sum->bins() + t.sum->bin_values());
    const size_t bins = all.size();
    all.resize(bins + slots, 0.0);
    for (size_t i = 0; i < targets.size(); ++i)
        all[bins + i * ranks + size_t(comm.rank())] = targets[i].sum->largest_term();
    comm.sum(all.data(), int64_t(all.size()));  // exact: every partial sum is on each bin's grid
    bool fits = true;
    for (size_t i = 0; i < targets.size(); ++i) {
        const double *largest = all.data() + bins + i * ranks;
        fits = targets[i].sum->accept(*std::max_element(largest, largest + ranks), targets[i].scale) && fits;
    }
    if (!fits) return false;
    const double *at = all.data();
    for (const BinnedTarget &t : targets) {
        std::copy(at, at + t.sum->bin_values(), t.sum->bins());
        at += t.sum->bin_values();
        t.sum->result(t.out);
    }
    return true;
}

}  // namespace kmx
