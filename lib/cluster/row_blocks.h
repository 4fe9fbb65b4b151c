// row_blocks.h — how k-means walks the rows of a dataset: fixed blocks of
// rows (sized so that a block's rows and its distances to all centers stay
// near cache), and one contiguous run of blocks per worker slot. Each slot
// accumulates its blocks in order and the slots are combined in slot order,
// so the same data, width and thread count always give the same sums.
#pragma once
#include <cstddef>
#include <cstdint>

#include "core/dataset.h"
#include "core/parallel.h"
#include "core/scratch_carver.h"

namespace kmx::cluster {

struct RowPartition {
    int64_t rows = 0;        // n
    int64_t block_rows = 0;  // rows per block (the last block may be shorter)
    int64_t blocks = 0;
    int slots = 0;  // workers; slot s owns blocks [first_block(s), first_block(s + 1))

    int64_t block_begin(int64_t block) const { return block * block_rows; }
    int64_t block_end(int64_t block) const {
        const int64_t end = block_begin(block) + block_rows;
        return end < rows ? end : rows;
    }
    int64_t first_block(int64_t slot) const { return blocks * slot / slots; }
};

// Blocks for `data` whose rows meet `width` centers at a time, on up to
// `threads` threads (fewer when a pass over the rows is too small to share).
RowPartition partition_rows(const Dataset &data, int64_t width, int threads);

// Per-slot buffers of one block: `rows` holds a dense copy of the block's rows
// (sparse data only), `dots` its inner products with up to `width` centers,
// `gemm` the scratch of a GEMM on centers kept in panels (nearest_centers).
struct BlockBuffers {
    double *rows;
    double *dots;
    Arena gemm;
};

// One BlockBuffers per slot (nullptr when the carver only sizes), each with
// `gemm_bytes` of GEMM scratch.
BlockBuffers *carve_block_buffers(ScratchCarver &carver, const Dataset &data, const RowPartition &partition,
                                  int64_t width, size_t gemm_bytes = 0);

// Rows [begin, end) as a dense row-major matrix: in place for dense data,
// else expanded into `buffer`.
const double *dense_rows(const Dataset &data, int64_t begin, int64_t end, double *buffer);

// The sample weight of row i (1 when the dataset has none).
inline double weight_of(const Dataset &data, int64_t i) { return data.w ? data.w[i] : 1.0; }

// Calls body(slot, begin, end) for every block; a slot's blocks run in order
// on one thread, the slots in parallel.
template <class Body>
void for_each_block(const RowPartition &partition, Body &&body) {
    parallel_for(partition.slots, partition.slots, [&](int64_t slot) {
        for (int64_t block = partition.first_block(slot); block < partition.first_block(slot + 1); ++block)
            body(int(slot), partition.block_begin(block), partition.block_end(block));
    });
}

}  // namespace kmx::cluster
