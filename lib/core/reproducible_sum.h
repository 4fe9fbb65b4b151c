// reproducible_sum.h — sums over rows whose bits do not depend on the order
// of the terms, nor on how the rows are split among blocks, threads and
// ranks: binned pre-rounding (J. Demmel, H. D. Nguyen, "Fast reproducible
// floating-point summation", ARITH 2013, and "Parallel reproducible
// summation", IEEE Trans. Computers 64(7), 2015 — ReproBLAS's one-reduction
// algorithm, here with boundaries fixed by a bound agreed over the ranks).
//
// With a bound M on every |term| and at most N terms per output, both the
// same on every rank, the boundaries are σ_k = 1.5·2^t_k with
// t₀ = ⌈log₂M⌉ + ⌈log₂N⌉ + 1 and t₁ = t₀ + ⌈log₂N⌉ + 1 − 53. A term x is
// split against them,
//   q₀ = (σ₀ + x) − σ₀,  x₁ = x − q₀,  q₁ = (σ₁ + x₁) − σ₁
// (every operation exact, Rump–Ogita–Oishi's ExtractScalar; σ ± x stays in
// [2^t, 2^(t+1)), so q(−x) = −q(x)): q_k is a multiple of 2^(t_k − 52) and
// |x₁| <= 2^(t₀ − 53), so the sum of N of them stays below 2^(t_k + 1) and
// every addition into bin k is exact. The bins are then the same whatever
// the order and the split, and summing them over the ranks (any order,
// MPI's included) is exact too; the result is b₁ + b₀. What two bins drop,
// x₁ − q₁, at most 2^(t₁ − 53) a term, is about 2^(2⌈log₂N⌉ + 2 − 106)·N·M
// in all: 2⁻⁶⁴ of N·M for N = 2²⁰ rows, where adding the terms in double,
// in any order, may err by N·2⁻⁵³·N·M (2⁻³³).
//
// The bound: the caller's guess, the same on every rank (from the agreed
// largest term of earlier passes). Each pass tracks its largest |term|; the
// ranks learn every rank's with the bins (in one sum) and, if one is above
// the guess, run the pass again with it (binned_pass below).
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "communicator.h"
#include "parallel.h"

namespace kmx {

class BinnedSum {
public:
    static constexpr int kBins = 2;
    static constexpr double kHeadroom = 16;  // the next guess: this times the largest term seen, scaled

    // width outputs; at most `terms` terms per output over all ranks.
    void start(int64_t width, int64_t terms, double bound);
    // start() with the guess from the last successful pass, scaled by
    // `scale` (e.g. ‖v‖∞ when the terms are linear in v), or 0 at first.
    void start_scaled(int64_t width, int64_t terms, double scale);
    // The first guess of start_scaled, where the caller knows a bound
    // (largest term / scale) before any pass: saves the first pass's rerun.
    void seed(double ratio) { ratio_ = ratio; }

    void add(int64_t j, double x);
    // Output offset + t gets w·row[t] (squared: w·row[t]²), t < count.
    void add_scaled(int64_t offset, double w, const double *row, int64_t count);
    void add_scaled_squares(int64_t offset, double w, const double *row, int64_t count);
    // Output j·k + o gets a[j]·b[o], j < m, o < k.
    void add_outer(const double *a, int64_t m, const double *b, int64_t k);
    // Adds another sum's bins (started alike): exact.
    void merge(const BinnedSum &other);
    // A sum started as this one, with empty bins (a thread's share).
    BinnedSum empty_like() const;

    double largest_term() const { return largest_; }
    double bound() const { return bound_; }
    double *bins() { return bins_.data(); }
    int64_t bin_values() const { return int64_t(bins_.size()); }
    // Records the largest term over every rank; false when it broke the bound
    // (the bins are then worthless and the pass must run again).
    bool accept(double agreed_largest, double scale = 1);
    // out[j] = b₁ + b₀ of output j.
    void result(double *out) const;

private:
    std::vector<double> bins_;  // bin k of output j at k·width + j
    double sigma_[kBins] = {0, 0};
    double bound_ = 0, largest_ = 0, ratio_ = 0;  // ratio_: last agreed largest / its scale
    int64_t width_ = 0, terms_ = 1;
};

// Runs pass() (which start()s the sums and fills them with this rank's
// terms), then sums the bins over the ranks together with each rank's
// largest term (one AllReduce of 2 × the widths + ranks × sums values); if a
// term broke its sum's bound on any rank, runs the pass again with the
// agreed largest term. Writes each sum's results to its out. Each sum's
// scale is that of start_scaled (1 when not scaled).
struct BinnedTarget {
    BinnedSum *sum;
    double *out;
    double scale = 1;
};
template <class Pass>
void binned_pass(const Communicator &comm, std::vector<BinnedTarget> targets, Pass &&pass);
// binned_pass's reduction: false when a bound was broken (nothing written).
bool reduce_binned(const Communicator &comm, std::vector<BinnedTarget> &targets);

// Calls row(i, sums) for i in [begin, end) on up to `threads` threads, each
// thread adding into its own copies of sums[0..count) (started alike), then
// merged into them: exact, so the bits do not depend on the thread count.
template <class Row>
void binned_rows(int threads, int64_t begin, int64_t end, BinnedSum *const *sums, int count, Row &&row) {
    constexpr int64_t kMinRowsPerThread = 64;
    const int64_t parts = std::min<int64_t>(threads, (end - begin) / kMinRowsPerThread);
    if (parts <= 1) {
        for (int64_t i = begin; i < end; ++i) row(i, sums);
        return;
    }
    std::vector<std::vector<BinnedSum>> copies(static_cast<size_t>(parts));
    for (auto &mine : copies)
        for (int s = 0; s < count; ++s) mine.push_back(sums[s]->empty_like());
    parallel_for(parts, threads, [&](int64_t part) {
        std::vector<BinnedSum *> mine;
        for (BinnedSum &s : copies[size_t(part)]) mine.push_back(&s);
        const int64_t rows = end - begin;
        for (int64_t i = begin + rows * part / parts; i < begin + rows * (part + 1) / parts; ++i) row(i, mine.data());
    });
    for (auto &mine : copies)
        for (int s = 0; s < count; ++s) sums[s]->merge(mine[size_t(s)]);
}

template <class Pass>
void binned_pass(const Communicator &comm, std::vector<BinnedTarget> targets, Pass &&pass) {
    do {
        pass();
    } while (!reduce_binned(comm, targets));
}

}  // namespace kmx
