// row_formats.h — one data line of LIBSVM or CSV text into a ParsedRow.
// Both fail with KMX_E_FORMAT at the line and column of the first bad token.
#pragma once
#include <cstdint>

#include "text_scanner.h"

namespace kmx {

// "label index:value index:value ...": blank-separated, indices 1-based and
// strictly increasing, at most kMaxColumns; a line with only a label is an
// all-zero row. A token starting with '#' ends the line (SVMlight comment).
void parse_libsvm_line(const Line &line, ParsedRow &row);

// The number of fields every CSV row must have, fixed by the first row.
struct CsvShape {
    int64_t fields = 0;      // 0 until the first row is read
    int64_t first_line = 0;  // the line that fixed it
};

// "label,x1,...,xd": d >= 1, blanks around fields allowed, the same number of
// fields on every row.
void parse_csv_line(const Line &line, CsvShape &shape, ParsedRow &row);

}  // namespace kmx
