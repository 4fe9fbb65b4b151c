// libsvm_folds.cpp — LIBSVM's cross-validation folds (see libsvm_folds.h).
#include "libsvm_folds.h"

#include <algorithm>
#include <utility>

namespace kmx {

namespace {

constexpr int kLag = 31, kShortLag = 3, kDiscarded = 310;

// The rows of each class in order (classes by first appearance; LIBSVM's −1/+1 swap).
std::vector<std::vector<int64_t>> rows_by_class(const double *y, int64_t n) {
    std::vector<int> labels;
    std::vector<std::vector<int64_t>> rows;
    for (int64_t i = 0; i < n; ++i) {
        const int label = int(y[i]);  // LIBSVM groups by (int) label
        const size_t c = size_t(std::find(labels.begin(), labels.end(), label) - labels.begin());
        if (c == labels.size()) {
            labels.push_back(label);
            rows.emplace_back();
        }
        rows[c].push_back(i);
    }
    if (labels.size() == 2 && labels[0] == -1 && labels[1] == 1) std::swap(rows[0], rows[1]);
    return rows;
}

// Fisher–Yates as svm_cross_validation writes it: j = i + rand() % (count − i).
void shuffle(std::vector<int64_t> &rows, GlibcRand &rand) {
    const int64_t count = int64_t(rows.size());
    for (int64_t i = 0; i < count; ++i) std::swap(rows[size_t(i)], rows[size_t(i + rand.next() % (count - i))]);
}

}  // namespace

GlibcRand::GlibcRand(uint32_t seed) {
    int32_t word = seed == 0 ? 1 : int32_t(seed);
    r_[0] = uint32_t(word);
    for (int i = 1; i < kLag; ++i) {  // 16807 · word mod (2³¹ − 1) by Schrage's method, as srandom_r
        const int32_t hi = word / 127773, lo = word % 127773;
        word = 16807 * lo - 2836 * hi;
        if (word < 0) word += 2147483647;
        r_[i] = uint32_t(word);
    }
    for (int i = kLag; i < 34; ++i) r_[i] = r_[i - kLag];
    position_ = 0;  // r_[position_] is the oldest of the 34
    for (int i = 0; i < kDiscarded; ++i) next();
}

int32_t GlibcRand::next() {
    // r_i = r_{i−31} + r_{i−3}: with the 34 last values r_{i−34..i−1} in the ring
    // from position_, r_{i−31} is at position_ + 3 and r_{i−3} at position_ + 31.
    const uint32_t value = r_[(position_ + 34 - kLag) % 34] + r_[(position_ + 34 - kShortLag) % 34];
    r_[position_] = value;
    position_ = (position_ + 1) % 34;
    return int32_t(value >> 1);
}

std::vector<int> libsvm_folds(const double *y, int64_t n, int folds, bool stratified) {
    std::vector<int> fold_of(size_t(n), 0);
    GlibcRand rand(1);
    if (!stratified || folds >= n) {
        std::vector<int64_t> rows(static_cast<size_t>(n));
        for (int64_t i = 0; i < n; ++i) rows[size_t(i)] = i;
        shuffle(rows, rand);
        for (int f = 0; f < folds; ++f)
            for (int64_t i = f * n / folds; i < (f + 1) * n / folds; ++i) fold_of[size_t(rows[size_t(i)])] = f;
        return fold_of;
    }
    std::vector<std::vector<int64_t>> classes = rows_by_class(y, n);
    for (std::vector<int64_t> &rows : classes) shuffle(rows, rand);  // every class shuffled before any is cut
    for (const std::vector<int64_t> &rows : classes) {
        const int64_t count = int64_t(rows.size());
        for (int f = 0; f < folds; ++f)
            for (int64_t i = f * count / folds; i < (f + 1) * count / folds; ++i) fold_of[size_t(rows[size_t(i)])] = f;
    }
    return fold_of;
}

}  // namespace kmx
