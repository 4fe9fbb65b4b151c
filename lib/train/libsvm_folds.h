// libsvm_folds.h — the folds LIBSVM's svm_cross_validation (svm-train -v K,
// grid.py) makes, so that kmx cross-validates on the very rows svm-train's
// folds hold: a user moving from LIBSVM compares cell by cell, not up to the
// noise of another split.
//
// svm-train never seeds rand(), so its folds come from glibc's rand() in its
// initial state (srand(1)): TYPE_3, the additive feedback generator
// r_i = r_{i−3} + r_{i−31} (mod 2³²) seeded by r_0 = 1, r_i = 16807 r_{i−1}
// mod (2³¹ − 1), its first 310 outputs discarded, each output r_i >> 1.
// Classification (folds < n): rows grouped by class in order of first
// appearance (two classes labelled −1 then +1 swapped, as svm_group_classes),
// each class shuffled in place by j = i + rand() % (count − i), its run cut
// into folds at ⌊f·count/K⌋; otherwise one shuffle of all rows cut at ⌊f·n/K⌋.
#pragma once
#include <cstdint>
#include <vector>

namespace kmx {

// glibc's rand() from srand(seed), in a state of its own.
class GlibcRand {
public:
    explicit GlibcRand(uint32_t seed = 1);
    int32_t next();  // in [0, 2³¹ − 1], as rand()

private:
    uint32_t r_[34];  // the last 34 values of the recurrence, as a ring
    int position_ = 0;
};

// The fold (0..folds−1) of each of the n rows with labels y, as
// svm_cross_validation assigns them (stratified: classification with
// folds < n, as LIBSVM's C-SVC).
std::vector<int> libsvm_folds(const double *y, int64_t n, int folds, bool stratified);

}  // namespace kmx
