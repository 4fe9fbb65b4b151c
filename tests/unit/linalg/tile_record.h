// tile_record.h — what a tiled product's epilogue saw (gemm_tiles and
// gemm_abt_packed tests): how often each entry of C was in a visited tile,
// and its value at that moment (a tile must be visited once, when final).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

struct TileRecord {
    const std::vector<double> &c;
    int64_t ldc;
    std::vector<int> visits;
    std::vector<double> seen;

    TileRecord(const std::vector<double> &product, int64_t ld)
        : c(product), ldc(ld), visits(product.size(), 0), seen(product.size(), 0.0) {}
    void operator()(int64_t i0, int64_t i1, int64_t j0, int64_t j1) {
        for (int64_t i = i0; i < i1; ++i)
            for (int64_t j = j0; j < j1; ++j) {
                ++visits[size_t(i * ldc + j)];
                seen[size_t(i * ldc + j)] = c[size_t(i * ldc + j)];
            }
    }
};
