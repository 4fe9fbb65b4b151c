// text_scanner.h — what the LIBSVM and CSV readers share: walking the lines
// of an in-memory text, locating errors as "name:line:column: what", and
// turning tokens into finite doubles.
//
// Nothing here needs the text to be NUL-terminated: every token is a
// [begin, end) range inside the caller's buffer.
#pragma once
#include <cstdint>
#include <vector>

namespace kmx {

// The whole input: text [begin, end) and the name used in messages.
struct TextInput {
    const char *begin;
    const char *end;
    const char *name;
};

// One line without its '\n' (or "\r\n"); number is 1-based.
struct Line {
    const TextInput *input;
    const char *begin;
    const char *end;
    int64_t number;
};

// Throws KMX_E_FORMAT "name:line:column: message" with the column of `where`
// (1-based; `where` may be line.end to point just past the last character).
[[noreturn]] void fail_at(const Line &line, const char *where, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

// A token in single quotes for messages, cut short (with "...") if long.
struct Quoted {
    char text[56];
};
Quoted quote(const char *begin, const char *end);

inline bool is_blank(char c) { return c == ' ' || c == '\t'; }
const char *skip_blanks(const char *p, const char *end);
const char *find_blank(const char *p, const char *end);
// [begin, end) without leading and trailing blanks.
void trim_blanks(const char *&begin, const char *&end);

// Visits the data lines of a text: blank lines (only spaces and tabs) and
// comment lines (first non-blank character '#') are skipped; a trailing '\r'
// is dropped (CRLF files); a UTF-8 byte-order mark at the start is ignored.
class LineCursor {
public:
    // lines_before: the number of the line before input.begin (a piece of a
    // larger text starts at a line boundary); only the start of the whole
    // text (lines_before == 0) may hold a byte-order mark.
    explicit LineCursor(const TextInput &input, int64_t lines_before = 0);
    // The next data line; false when the text is used up.
    bool next_data_line(Line &line);
    // Once next_data_line() returned false: the last line, pointing just
    // past its last character (for "no data rows" errors).
    Line end_of_input() const;
    // Share of the text consumed so far, in [0, 1].
    double fraction_done() const;

private:
    Line next_line();
    const TextInput &input_;
    const char *position_;
    const char *last_line_begin_;
    int64_t lines_read_ = 0;
};

// The finite double spelled by [begin, end) — decimal, optionally signed
// (a leading '+' is allowed), as written by printf's %g/%e/%f. Fails at the
// token naming `what` ("label", "value") when it is missing, not a number,
// NaN, infinite or too large for a double; values too small for a double
// become zero.
double parse_finite(const Line &line, const char *begin, const char *end, const char *what);

// Whether the number spelled by [begin, end), once parse_finite accepts it, is
// nonzero — decided from its digits where that is certain (a mantissa of
// zeros is zero; a short one with a nonzero digit and no exponent is not),
// by parsing otherwise. Pass 1 counts nonzeros with this and pass 2 stores
// exactly the values parse_finite makes nonzero, so the counts agree.
bool spells_nonzero(const char *begin, const char *end);

// Largest column index a file may use (columns are stored as int32_t).
constexpr int64_t kMaxColumns = 2147483647;

// One parsed data row: its label and its nonzero features.
struct ParsedRow {
    double label = 0;
    int64_t width = 0;          // columns the row spans (LIBSVM: last index; CSV: fields - 1)
    std::vector<int32_t> cols;  // 0-based columns of nonzero values, increasing
    std::vector<double> values;

    void clear() {
        width = 0;
        cols.clear();
        values.clear();
    }
    void add(int64_t col, double value) {
        if (value == 0) return;
        cols.push_back(int32_t(col));
        values.push_back(value);
    }
};

}  // namespace kmx
