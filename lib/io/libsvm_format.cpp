// LIBSVM rows: "label index:value index:value ...".
#include <charconv>
#include <cmath>
#include <cstring>

#include "row_formats.h"

namespace kmx {

namespace {

// [begin, end) as a column index: decimal digits, first <= index <= kMaxColumns.
int64_t parse_index(const Line &line, const char *begin, const char *end, int64_t first) {
    const bool negative = *begin == '-';
    const char *digit = negative ? begin + 1 : begin;
    if (digit == end) fail_at(line, begin, "index %s is not a positive integer", quote(begin, end).text);
    int64_t index = 0;
    for (; digit < end; ++digit) {
        if (*digit < '0' || *digit > '9')
            fail_at(line, begin, "index %s is not a positive integer", quote(begin, end).text);
        if (index <= kMaxColumns) index = index * 10 + (*digit - '0');
    }
    if (negative || index < first)
        fail_at(line, begin,
                "index %s is not positive: LIBSVM indices start at 1 (0:i, a serial number, only for precomputed "
                "kernels)",
                quote(begin, end).text);
    if (index > kMaxColumns)
        fail_at(line, begin, "index %s is too large: at most %lld columns are supported", quote(begin, end).text,
                (long long)kMaxColumns);
    return index;
}

// A precomputed-kernel test row's unknown serial number: "0:?".
bool unknown_serial(int64_t index, const char *value, const char *end) {
    return index == 0 && end - value == 1 && *value == '?';
}

// One "index:value" token after index `previous`, indices from `first`; returns its index.
int64_t parse_feature(const Line &line, const char *begin, const char *end, int64_t previous, int64_t first,
                      ParsedRow &row) {
    const char *colon = static_cast<const char *>(std::memchr(begin, ':', size_t(end - begin)));
    if (!colon)
        fail_at(line, begin, "expected index:value, got %s (dense rows without indices must be CSV)",
                quote(begin, end).text);
    if (colon == begin) fail_at(line, begin, "missing index before ':' in %s", quote(begin, end).text);
    if (colon + 1 == end) fail_at(line, colon + 1, "missing value after ':' in %s", quote(begin, end).text);
    const int64_t index = parse_index(line, begin, colon, first);
    if (index == previous) fail_at(line, begin, "index %lld repeats: indices must increase", (long long)index);
    if (index < previous)
        fail_at(line, begin, "index %lld comes after index %lld: indices must increase", (long long)index,
                (long long)previous);
    row.add(index - first, unknown_serial(index, colon + 1, end) ? 0.0 : parse_finite(line, colon + 1, end, "value"));
    return index;
}

inline bool is_digit(char c) { return c >= '0' && c <= '9'; }

// The digits of an index up to its ':' — a plain index only (at most 10
// digits, no sign); nullptr when [p, end) does not start with one.
const char *plain_index(const char *p, const char *end, int64_t &index) {
    const char *first = p;
    index = 0;
    while (p < end && is_digit(*p) && p - first < 10) index = index * 10 + (*p++ - '0');
    return p > first && p < end && *p == ':' ? p : nullptr;
}

// The common case of parse_feature in one scan: a plain index above
// `previous`, ':', and a finite number ending at a blank or the line's end.
// Returns where the token ends and sets `index`, or returns nullptr to leave
// it to parse_feature (which then says exactly what is wrong, or handles the
// rare spellings).
const char *parse_plain_feature(const Line &line, const char *token, int64_t previous, int64_t first, ParsedRow &row,
                                int64_t &index) {
    const char *colon = plain_index(token, line.end, index);
    if (!colon || index <= previous || index > kMaxColumns) return nullptr;
    double value = 0;
    const std::from_chars_result result = std::from_chars(colon + 1, line.end, value);
    if (result.ec != std::errc() || result.ptr == colon + 1 || !std::isfinite(value)) return nullptr;
    if (result.ptr != line.end && !is_blank(*result.ptr)) return nullptr;
    row.add(index - first, value);
    return result.ptr;
}

}  // namespace

void parse_libsvm_line(const Line &line, ParsedRow &row, int64_t first_index) {
    row.clear();
    const char *label = skip_blanks(line.begin, line.end);
    const char *label_end = find_blank(label, line.end);
    row.label = parse_finite(line, label, label_end, "label");
    int64_t index = first_index - 1;
    for (const char *token = skip_blanks(label_end, line.end); token < line.end && *token != '#';) {
        int64_t plain = 0;
        const char *token_end = parse_plain_feature(line, token, index, first_index, row, plain);
        if (token_end) {
            index = plain;
        } else {
            token_end = find_blank(token, line.end);
            index = parse_feature(line, token, token_end, index, first_index, row);
        }
        token = skip_blanks(token_end, line.end);
    }
    row.width = index + 1 - first_index;
}

LineCounts count_libsvm_line(const Line &line, bool count_nonzeros, int64_t first_index) {
    LineCounts counts;
    const char *label = skip_blanks(line.begin, line.end);
    const char *label_end = find_blank(label, line.end);
    parse_finite(line, label, label_end, "label");  // pass 1 reports a bad label, as the validating pass would
    int64_t previous = first_index - 1;
    for (const char *token = skip_blanks(label_end, line.end); token < line.end && *token != '#';) {
        int64_t index = 0;
        const char *colon = plain_index(token, line.end, index);
        const char *token_end = find_blank(token, line.end);
        if (!colon || index <= previous || index > kMaxColumns || colon + 1 == token_end) {
            counts.plain = false;
            return counts;
        }
        counts.nonzeros += count_nonzeros ? spells_nonzero(colon + 1, token_end) : 1;
        previous = index;
        token = skip_blanks(token_end, line.end);
    }
    counts.width = previous + 1 - first_index;
    return counts;
}

}  // namespace kmx
