// text_shard.h — one rank's share of a LIBSVM or CSV file: shard s of P holds
// the lines that start in bytes [s·S/P, (s+1)·S/P) of the file's S bytes. Each
// line starts in exactly one such range, so the P shards partition the lines
// (a shard may hold none) while each rank reads only about S/P bytes.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>

#include "kmx/kmx.h"
#include "text_reader.h"

namespace kmx {

class Context;
class Dataset;

// The lines of shard `shard` of `shards` of the text [text, text + len).
TextSpan shard_span(const char *text, size_t len, int64_t shard, int64_t shards);

// Shard `shard` of `shards` of a text in memory (see parse_dataset_span).
std::unique_ptr<Dataset> parse_dataset_shard(Context &ctx, const char *text, size_t len, kmx_format format,
                                             const char *name, int64_t shard, int64_t shards);

// Shard `shard` of `shards` of a file. A path holding "%d" names one file per
// shard instead: "%d" is replaced by the shard number and that whole file is
// the shard (it may hold no rows). Fails with KMX_E_INVALID_ARGUMENT unless
// 0 <= shard < shards, or for any other '%' in the path.
std::unique_ptr<Dataset> read_dataset_shard(Context &ctx, const char *path, kmx_format format, int64_t shard,
                                            int64_t shards);

}  // namespace kmx
