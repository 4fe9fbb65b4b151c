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
Landmarks leverage_landmarks(Context &ctx, const KernelSpec &kernel, const Dataset &data,
                             const LandmarkOptions &options);

}  // namespace kmx
