// LIBSVM's folds: GlibcRand against this machine's glibc rand() itself, and
// the folds' shape as svm_cross_validation cuts them (its agreement with
// svm-train -v is tested end to end in test_cli.py's CrossValidation).
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <vector>

#include "train/libsvm_folds.h"

namespace {

TEST(GlibcRand, IsRandFromTheSameSeed) {
    for (unsigned seed : {1u, 42u, 0u, 2147483647u}) {
        std::srand(seed);
        kmx::GlibcRand ours(seed);
        for (int i = 0; i < 100000; ++i) ASSERT_EQ(ours.next(), std::rand()) << "seed " << seed << ", draw " << i;
    }
}

TEST(LibsvmFolds, ClassesInOrderOfFirstAppearanceEachCutEvenly) {
    // 3 classes of 10, 7 and 4 rows, interleaved; 3 folds
    std::vector<double> y;
    for (int i = 0; i < 21; ++i) y.push_back(i < 12 ? (i % 2 ? 5.0 : 2.0) : (i < 16 ? 5.0 : 9.0));
    const std::vector<int> fold_of = kmx::libsvm_folds(y.data(), 21, 3, true);
    std::map<double, std::map<int, int>> per_class;
    for (size_t i = 0; i < y.size(); ++i) ++per_class[y[i]][fold_of[i]];
    for (auto &[label, folds] : per_class) {
        int count = 0;
        for (auto &[fold, rows] : folds) count += rows;
        for (int f = 0; f < 3; ++f)  // fold f holds floor((f+1)c/3) - floor(fc/3) rows of a class of c
            EXPECT_EQ(folds[f], (f + 1) * count / 3 - f * count / 3) << "class " << label << ", fold " << f;
    }
}

TEST(LibsvmFolds, ItsShufflesAreRandFromSeedOne) {
    // Regression (not stratified): one Fisher–Yates over all rows, j = i + rand() % (n − i), cut at f·n/K.
    const int n = 50, folds = 4;
    std::vector<double> y(n, 0.5);
    std::vector<int> perm(n);
    std::srand(1);
    for (int i = 0; i < n; ++i) perm[size_t(i)] = i;
    for (int i = 0; i < n; ++i) std::swap(perm[size_t(i)], perm[size_t(i + std::rand() % (n - i))]);
    std::vector<int> expected(n);
    for (int f = 0; f < folds; ++f)
        for (int i = f * n / folds; i < (f + 1) * n / folds; ++i) expected[size_t(perm[size_t(i)])] = f;
    EXPECT_EQ(kmx::libsvm_folds(y.data(), n, folds, false), expected);
    // Two classes labelled -1 first and +1: LIBSVM shuffles the +1 rows first.
    std::vector<double> binary = {-1, 1, -1, 1, 1, -1, 1, -1, -1, 1};
    std::vector<int> plus, minus;
    for (int i = 0; i < 10; ++i) (binary[size_t(i)] > 0 ? plus : minus).push_back(i);
    std::srand(1);
    for (std::vector<int> *rows : {&plus, &minus})
        for (int i = 0; i < 5; ++i) std::swap((*rows)[size_t(i)], (*rows)[size_t(i + std::rand() % (5 - i))]);
    std::vector<int> cut(10);
    for (const std::vector<int> *rows : {&plus, &minus})
        for (int f = 0; f < 2; ++f)
            for (int i = f * 5 / 2; i < (f + 1) * 5 / 2; ++i) cut[size_t((*rows)[size_t(i)])] = f;
    EXPECT_EQ(kmx::libsvm_folds(binary.data(), 10, 2, true), cut);
}

}  // namespace
