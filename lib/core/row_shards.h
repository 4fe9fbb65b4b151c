// row_shards.h — where one rank's rows sit among all ranks' rows. Rank r
// holds a contiguous block of the global row numbering, after the rows of
// ranks 0..r-1 (as kmx_dataset_load_shard's shards of a file do), so row i
// of rank r is global row first_row + i. Distributed trainers agree on this
// before any work, and on the number of columns: LIBSVM shards each know
// only their own largest index.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

namespace kmx {

class Communicator;
class Context;
class Dataset;

struct RowShards {
    int64_t total_rows = 0;  // n over all ranks
    int64_t first_row = 0;   // this rank's first row in the global numbering
    int64_t columns = 0;     // d: the largest over the ranks
};

// Collective: every rank calls it with its own rows. Alone: {data.n, 0, data.d}.
RowShards agree_row_shards(const Communicator &comm, const Dataset &data);

// `data` seen with `columns` (>= data.d) columns, the new ones zero: sparse
// rows as they are (a view), dense rows copied with zero padding (checked
// against ctx's budget). Null when data already has `columns` columns.
std::unique_ptr<Dataset> widen_columns(Context &ctx, const Dataset &data, int64_t columns);

// The sorted union of every rank's distinct values[0..count), or, when some
// rank has more than `limit` distinct values, an empty vector. Collective.
std::vector<double> agree_distinct_values(const Communicator &comm, const double *values, int64_t count, int64_t limit);

}  // namespace kmx
