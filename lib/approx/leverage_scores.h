// leverage_scores.h — approximate ridge leverage scores and the landmarks
// they sample (FALKON paper, Theorem 4 / its appendix): rows are drawn with
// probability proportional to an estimate of
//   ℓ_λ(i) = (G (G + λ n I)⁻¹)_ii,
// computed from a uniform sub-sample, so rows that the kernel's span needs
// most are drawn first.
#pragma once
#include <cstdint>
#include <vector>

#include "landmarks.h"

namespace kmx {

// The `leverage` method of select_landmarks (options.leverage_lambda > 0).
// Draws options.m distinct rows, without replacement, with probability
// proportional to the approximate scores below (sub-sample of
// leverage_subsample_size(n, m) rows); deterministic for a given ctx.seed.
Landmarks leverage_landmarks(Context &ctx, const KernelSpec &kernel, const Dataset &data,
                             const LandmarkOptions &options);

// Approximate ridge leverage scores of every row from a uniform sub-sample J
// of s rows (ctx.seed), with K_JJ weighted as the Nyström estimate of G:
//   ℓ̃_λ(i) = (K_ii − k_iᵀ (K_JJ + λ s I)⁻¹ k_i) / (λ n),   k_i = K(J, x_i),
// which is exactly ℓ_λ(i) when s = n. scores: n values. Costs O(n s d + n s²
// + s³) time and O(s² + s·block) memory, checked against ctx's budget.
void approximate_leverage_scores(Context &ctx, const KernelSpec &kernel, const Dataset &data, double lambda,
                                 int64_t subsample, double *scores);

// The sub-sample size leverage_landmarks uses for m landmarks of n rows.
int64_t leverage_subsample_size(int64_t n, int64_t m);

}  // namespace kmx
