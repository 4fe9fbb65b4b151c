#include "row_blocks.h"

#include <algorithm>
#include <new>
#include <utility>

namespace kmx::cluster {

namespace {

// A block's rows plus its distances to all centers: about an L2 cache.
constexpr int64_t kBlockBytes = int64_t(2) << 20;
constexpr int64_t kMinBlockRows = 64;    // below this GEMM efficiency drops
constexpr int64_t kMaxBlockRows = 2048;  // more rows gain nothing
// Sparse rows are expanded to dense per block; wide data gets fewer rows.
constexpr int64_t kMaxExpandedBytes = int64_t(64) << 20;

int64_t rows_per_block(const Dataset &data, int64_t width) {
    const int64_t bytes_per_row = int64_t(sizeof(double)) * (data.d + width);
    int64_t rows = std::clamp(kBlockBytes / bytes_per_row, kMinBlockRows, kMaxBlockRows);
    if (!data.rows_in_place())
        rows = std::min(rows, std::max<int64_t>(1, kMaxExpandedBytes / (int64_t(sizeof(double)) * data.d)));
    return std::max<int64_t>(1, std::min(rows, data.n));
}

}  // namespace

RowPartition partition_rows(const Dataset &data, int64_t width, int threads) {
    RowPartition partition;
    partition.rows = data.n;
    partition.block_rows = rows_per_block(data, width);
    partition.blocks = (data.n + partition.block_rows - 1) / partition.block_rows;
    // As many slots as a pass over the rows (2 d flops per row and center) keeps busy.
    const double pass_flops = 2.0 * double(data.n) * double(data.d) * double(std::max<int64_t>(width, 1));
    partition.slots = int(std::min<int64_t>(threads_for_work(threads, pass_flops), partition.blocks));
    return partition;
}

BlockBuffers *carve_block_buffers(ScratchCarver &carver, const Dataset &data, const RowPartition &partition,
                                  int64_t width, size_t gemm_bytes) {
    BlockBuffers *buffers = carver.take<BlockBuffers>(size_t(partition.slots));
    const size_t expanded = !data.rows_in_place() ? size_t(partition.block_rows * data.d) : 0;
    for (int slot = 0; slot < partition.slots; ++slot) {
        double *rows = carver.take<double>(expanded);
        double *dots = carver.take<double>(size_t(partition.block_rows * width));
        Arena gemm = carver.take_arena(gemm_bytes);
        // Carved memory, never destroyed: an arena over carved memory frees nothing.
        if (buffers) new (buffers + slot) BlockBuffers{rows, dots, std::move(gemm)};
    }
    return buffers;
}

const double *dense_rows(const Dataset &data, int64_t begin, int64_t end, double *buffer) {
    if (data.rows_in_place()) return data.x + begin * data.d;
    data.copy_rows(begin, end, buffer);
    return buffer;
}

}  // namespace kmx::cluster
