// LIBSVM rows: "label index:value index:value ...".
#include <cstring>

#include "row_formats.h"

namespace kmx {

namespace {

// [begin, end) as a column index: decimal digits, 1 <= index <= kMaxColumns.
int64_t parse_index(const Line &line, const char *begin, const char *end) {
    const bool negative = *begin == '-';
    const char *digit = negative ? begin + 1 : begin;
    if (digit == end) fail_at(line, begin, "index %s is not a positive integer", quote(begin, end).text);
    int64_t index = 0;
    for (; digit < end; ++digit) {
        if (*digit < '0' || *digit > '9')
            fail_at(line, begin, "index %s is not a positive integer", quote(begin, end).text);
        if (index <= kMaxColumns) index = index * 10 + (*digit - '0');
    }
    if (negative || index == 0)
        fail_at(line, begin, "index %s is not positive: LIBSVM indices start at 1", quote(begin, end).text);
    if (index > kMaxColumns)
        fail_at(line, begin, "index %s is too large: at most %lld columns are supported", quote(begin, end).text,
                (long long)kMaxColumns);
    return index;
}

// One "index:value" token after index `previous`; returns its index.
int64_t parse_feature(const Line &line, const char *begin, const char *end, int64_t previous, ParsedRow &row) {
    const char *colon = static_cast<const char *>(std::memchr(begin, ':', size_t(end - begin)));
    if (!colon)
        fail_at(line, begin, "expected index:value, got %s (dense rows without indices must be CSV)",
                quote(begin, end).text);
    if (colon == begin) fail_at(line, begin, "missing index before ':' in %s", quote(begin, end).text);
    if (colon + 1 == end) fail_at(line, colon + 1, "missing value after ':' in %s", quote(begin, end).text);
    const int64_t index = parse_index(line, begin, colon);
    if (index == previous) fail_at(line, begin, "index %lld repeats: indices must increase", (long long)index);
    if (index < previous)
        fail_at(line, begin, "index %lld comes after index %lld: indices must increase", (long long)index,
                (long long)previous);
    row.add(index - 1, parse_finite(line, colon + 1, end, "value"));
    return index;
}

}  // namespace

void parse_libsvm_line(const Line &line, ParsedRow &row) {
    row.clear();
    const char *label = skip_blanks(line.begin, line.end);
    const char *label_end = find_blank(label, line.end);
    row.label = parse_finite(line, label, label_end, "label");
    int64_t index = 0;
    for (const char *token = skip_blanks(label_end, line.end); token < line.end && *token != '#';) {
        const char *token_end = find_blank(token, line.end);
        index = parse_feature(line, token, token_end, index, row);
        token = skip_blanks(token_end, line.end);
    }
    row.width = index;
}

}  // namespace kmx
