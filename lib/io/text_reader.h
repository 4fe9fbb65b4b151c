// text_reader.h — LIBSVM and CSV text into a Dataset.
//
// Two passes, each over pieces of the text in parallel: the first counts
// rows, columns and nonzeros and validates every token (a bad one fails with KMX_E_FORMAT naming file, line and column); the
// dataset's one block is then sized exactly and checked against the memory
// budget before the second pass fills it. Sparse LIBSVM input stays CSR when
// it is wide and sparse, else becomes dense rows (see choose_dense()). With
// ctx.float32_data (precision=float32) the values are stored as floats.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>

#include "kmx/kmx.h"

namespace kmx {

class Context;
class Dataset;

// A .kmxd file (KMX_FORMAT_KMXD, or KMX_FORMAT_AUTO and its magic) goes to
// kmxd_format.h instead: mapped and used in place by read_dataset_file,
// copied and decoded by parse_dataset.
std::unique_ptr<Dataset> read_dataset_file(Context &ctx, const char *path, kmx_format format);
std::unique_ptr<Dataset> parse_dataset(Context &ctx, const char *text, size_t len, kmx_format format, const char *name);
// The same with the text cut into `pieces` pieces at line boundaries, read
// in parallel on ctx.threads threads (parse_dataset uses one piece per
// thread, each at least 1 MiB). The result and any error are those of a
// one-piece read: line numbers count from the text's start, and the error
// reported is the text's first.
std::unique_ptr<Dataset> parse_dataset_pieces(Context &ctx, const char *text, size_t len, kmx_format format,
                                              const char *name, int pieces);

// A run of whole lines of a text: [begin, end) starts at the text's start or
// just after a '\n', and ends at its end or just after a '\n'; lines_before
// is the number of lines of the text before begin.
struct TextSpan {
    const char *begin;
    const char *end;
    int64_t lines_before;
};
// The lines of `span` of the text [text, text + len) as a dataset (a shard
// of it). The format (KMX_FORMAT_AUTO) and CSV's field count come from the
// whole text's first data line, and messages give the text's own line
// numbers. A span with no data rows gives an empty dataset (n = 0; d = 0
// when no row has a feature), as may a span whose rows hold only labels.
std::unique_ptr<Dataset> parse_dataset_span(Context &ctx, const char *text, size_t len, const TextSpan &span,
                                            kmx_format format, const char *name);

// Dense rows are chosen when d is small or the data is not sparse enough for
// CSR to save memory.
bool choose_dense(int64_t n, int64_t d, int64_t nnz);

}  // namespace kmx
