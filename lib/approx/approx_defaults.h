// approx_defaults.h — what "auto" (0) means for the sizes of kernel
// approximations, from n alone, so that defaults are sound on data of any
// size rather than tuned to one set.
//
//   Nyström landmarks / FALKON centers   M = min(n, max(100, ⌈5√n⌉))
//       (FALKON's theory asks for M ≈ √n; a constant factor buys accuracy
//        cheaply since the cost is O(nM + M³))
//   MEKA clusters and rank               0: MEKA chooses (c, k) itself among
//       configurations of the memory of the reference sizes below, on
//       held-out rows (meka_choice.cpp); auto_meka_clusters is 0, and so is
//       auto_meka_rank(n, 0)
//   MEKA reference clusters              c₀ = clamp(round(√n / 10), 1, 64)
//   MEKA rank per cluster for c clusters k = clamp(n / (4c), 1, 128)
//       (clusters keep about 4k rows, so 2k sampled columns fit in each)
#pragma once
#include <cstdint>

namespace kmx {

int64_t auto_centers(int64_t n);
int64_t auto_meka_clusters(int64_t n);                     // 0: MEKA chooses
int64_t auto_meka_rank(int64_t n, int64_t clusters);       // 0 when clusters is 0 (MEKA chooses)
int64_t meka_reference_clusters(int64_t n);                // c₀
int64_t meka_reference_rank(int64_t n, int64_t clusters);  // k for c >= 1 clusters

}  // namespace kmx
