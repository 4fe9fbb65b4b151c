// row_shards.cpp — the global row numbering and shape that distributed
// trainers agree on.
#include "row_shards.h"

#include <algorithm>
#include <cstring>

#include "communicator.h"
#include "context.h"
#include "dataset.h"
#include "error.h"

namespace kmx {

RowShards agree_row_shards(const Communicator &comm, const Dataset &data) {
    // Rank r's row count in slot r, zero elsewhere, summed: every rank's count.
    std::vector<double> rows(size_t(comm.size()), 0.0);
    rows[size_t(comm.rank())] = double(data.n);
    comm.sum(rows.data(), int64_t(rows.size()));
    double columns = double(data.d);
    comm.max(&columns, 1);
    RowShards shards;
    for (int r = 0; r < comm.size(); ++r) {
        if (r < comm.rank()) shards.first_row += int64_t(rows[size_t(r)]);
        shards.total_rows += int64_t(rows[size_t(r)]);
    }
    shards.columns = int64_t(columns);
    return shards;
}

std::unique_ptr<Dataset> widen_columns(Context &ctx, const Dataset &data, int64_t columns) {
    require(columns >= data.d, "widen_columns: fewer columns than the data has");
    if (columns == data.d) return nullptr;
    if (data.sparse()) {  // columns past the row's last index are zero already
        auto wide = std::make_unique<Dataset>(data.view());
        wide->d = columns;
        return wide;
    }
    auto wide = std::make_unique<Dataset>();
    wide->n = data.n;
    wide->d = columns;
    wide->w = data.w;
    const size_t values = size_t(data.n) * size_t(columns), bytes = (values + size_t(data.n)) * sizeof(double);
    ctx.check_budget(bytes, "the shard's rows widened to the columns of every rank");
    wide->adopt_block(bytes);
    double *x = reinterpret_cast<double *>(wide->block());
    double *y = x + values;
    std::fill(x, x + values, 0.0);
    for (int64_t i = 0; i < data.n; ++i) data.copy_rows(i, i + 1, x + i * columns);  // either precision
    wide->x = x;
    if (data.y) {
        std::copy(data.y, data.y + data.n, y);
        wide->y = y;
    }
    return wide;
}

std::vector<double> agree_distinct_values(const Communicator &comm, const double *values, int64_t count,
                                          int64_t limit) {
    std::vector<double> own(values, values + count);
    std::sort(own.begin(), own.end());
    own.erase(std::unique(own.begin(), own.end()), own.end());
    double widest = double(own.size());
    comm.max(&widest, 1);
    if (widest > double(limit)) return {};
    // Each rank's values in its own slots of a zero buffer, with their count
    // first; the sum hands every rank all of them (x + 0 is exactly x).
    const size_t slot = size_t(widest) + 1;
    std::vector<double> all(slot * size_t(comm.size()), 0.0);
    double *mine = all.data() + slot * size_t(comm.rank());
    mine[0] = double(own.size());
    std::copy(own.begin(), own.end(), mine + 1);
    comm.sum(all.data(), int64_t(all.size()));
    std::vector<double> merged;
    for (int r = 0; r < comm.size(); ++r) {
        const double *theirs = all.data() + slot * size_t(r);
        merged.insert(merged.end(), theirs + 1, theirs + 1 + int64_t(theirs[0]));
    }
    std::sort(merged.begin(), merged.end());
    merged.erase(std::unique(merged.begin(), merged.end()), merged.end());
    return merged;
}

}  // namespace kmx
