// row_formats.h — one data line of LIBSVM or CSV text into a ParsedRow.
// Both fail with KMX_E_FORMAT at the line and column of the first bad token.
#pragma once
#include <cstdint>

#include "kmx/kmx.h"
#include "text_scanner.h"

namespace kmx {

// "label index:value index:value ...": blank-separated, indices 1-based and
// strictly increasing, at most kMaxColumns; a line with only a label is an
// all-zero row. A token starting with '#' ends the line (SVMlight comment).
// With first_index 0 (LIBSVM's precomputed kernels, KMX_FORMAT_PRECOMPUTED)
// index j is column j, index 0 holding the row's serial number, where "0:?"
// (a test row's) reads as 0.
void parse_libsvm_line(const Line &line, ParsedRow &row, int64_t first_index = 1);
// The first index of a LIBSVM format: 0 for precomputed kernels, else 1.
inline int64_t first_index(kmx_format format) { return format == KMX_FORMAT_PRECOMPUTED ? 0 : 1; }

// What pass 1 of a read needs of a line, found without converting values:
// the columns it spans and how many of its values are nonzero (when
// `count_nonzeros`; else how many values it spells, zeros included). `plain` is
// false when the line is anything but well-formed in the simple way (then the
// reader measures the text with the validating parsers instead, so that the
// first error is reported as always); values themselves are validated later,
// by the parsers above, when they are converted.
struct LineCounts {
    int64_t width = 0;
    int64_t nonzeros = 0;
    bool plain = true;
};
LineCounts count_libsvm_line(const Line &line, bool count_nonzeros, int64_t first_index = 1);

// The number of fields every CSV row must have, fixed by the first row.
struct CsvShape {
    int64_t fields = 0;      // 0 until the first row is read
    int64_t first_line = 0;  // the line that fixed it
};

// "label,x1,...,xd": d >= 1, blanks around fields allowed, the same number of
// fields on every row.
void parse_csv_line(const Line &line, CsvShape &shape, ParsedRow &row);
// Pass 1's view of a CSV line after the first (shape fixed): plain when it has
// shape.fields fields. Nonzeros are counted only when `count_nonzeros`.
LineCounts count_csv_line(const Line &line, const CsvShape &shape, bool count_nonzeros);

}  // namespace kmx
