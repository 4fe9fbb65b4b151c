// text_shard.cpp — shards of LIBSVM/CSV files split at line boundaries, and
// one file per shard.
#include "text_shard.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>

#include "core/context.h"
#include "core/dataset.h"
#include "core/error.h"
#include "kmxd_format.h"
#include "mapped_file.h"

namespace kmx {

namespace {

void check_shard(int64_t shard, int64_t shards) {
    if (shards < 1 || shard < 0 || shard >= shards)
        fail(KMX_E_INVALID_ARGUMENT, "shard %lld of %lld: shards must be >= 1 and shard in [0, shards)",
             (long long)shard, (long long)shards);
}

// The first line start at or after byte `at`: `at` itself when it is the
// text's start or follows a '\n', else just after the next '\n' (or the end).
const char *line_start_from(const char *text, size_t len, size_t at) {
    if (at == 0 || at >= len) return text + std::min(at, len);
    if (text[at - 1] == '\n') return text + at;
    const void *newline = std::memchr(text + at, '\n', len - at);
    return newline ? static_cast<const char *>(newline) + 1 : text + len;
}

// s·len/P without overflow.
size_t shard_offset(size_t len, int64_t shard, int64_t shards) {
    return size_t((unsigned __int128)len * (unsigned __int128)shard / (unsigned __int128)shards);
}

// "%d" replaced by the shard number; an empty string if the path has none.
std::string per_shard_path(const char *path, int64_t shard) {
    const char *marker = std::strstr(path, "%d");
    if (!marker) return std::string();
    const std::string before(path, marker), after(marker + 2);
    if (before.find('%') != std::string::npos || after.find('%') != std::string::npos)
        fail(KMX_E_INVALID_ARGUMENT, "shard path '%s': only one '%%d' (the shard number) may hold a '%%'", path);
    return before + std::to_string(shard) + after;
}

// The file (or its part) that is the shard: the whole of a per-shard file.
std::unique_ptr<Dataset> read_mapped_shard(Context &ctx, const char *path, kmx_format format, int64_t shard,
                                           int64_t shards) {
    const MappedFile file(path);
    const TextSpan span = shard_span(file.data(), file.size(), shard, shards);
    char what[300];
    std::snprintf(what, sizeof what, "reading shard %lld of '%s'", (long long)shard, path);
    ctx.check_budget(size_t(span.end - span.begin), what);  // its pages join the process's memory as they are read
    return parse_dataset_span(ctx, file.data(), file.size(), span, format, path);
}

}  // namespace

TextSpan shard_span(const char *text, size_t len, int64_t shard, int64_t shards) {
    check_shard(shard, shards);
    TextSpan span;
    span.begin = line_start_from(text, len, shard_offset(len, shard, shards));
    span.end = line_start_from(text, len, shard_offset(len, shard + 1, shards));
    span.lines_before = std::count(text, span.begin, '\n');  // messages keep the file's line numbers
    return span;
}

std::unique_ptr<Dataset> parse_dataset_shard(Context &ctx, const char *text, size_t len, kmx_format format,
                                             const char *name, int64_t shard, int64_t shards) {
    return parse_dataset_span(ctx, text, len, shard_span(text, len, shard, shards), format, name);
}

std::unique_ptr<Dataset> read_dataset_shard(Context &ctx, const char *path, kmx_format format, int64_t shard,
                                            int64_t shards) {
    check_shard(shard, shards);
    const std::string own_file = per_shard_path(path, shard);
    const char *file = own_file.empty() ? path : own_file.c_str();
    // A .kmxd file is cut by rows (each shard maps only its rows), a text by bytes at line boundaries.
    if (format == KMX_FORMAT_KMXD || (format == KMX_FORMAT_AUTO && file_is_kmxd(file)))
        return own_file.empty() ? open_kmxd_shard(ctx, path, shard, shards) : open_kmxd_shard(ctx, file, 0, 1);
    if (format != KMX_FORMAT_AUTO && format != KMX_FORMAT_LIBSVM && format != KMX_FORMAT_CSV)
        fail(KMX_E_INVALID_ARGUMENT, "format %d: shards are read from LIBSVM, CSV or .kmxd files only", int(format));
    if (!own_file.empty()) return read_mapped_shard(ctx, file, format, 0, 1);
    return read_mapped_shard(ctx, path, format, shard, shards);
}

}  // namespace kmx
