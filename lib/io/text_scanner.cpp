#include "text_scanner.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstring>

#include "core/error.h"

namespace kmx {

void fail_at(const Line &line, const char *where, const char *fmt, ...) {
    char message[400];
    va_list args;
    va_start(args, fmt);
    std::vsnprintf(message, sizeof message, fmt, args);
    va_end(args);
    const long long column = (long long)(where - line.begin) + 1;
    fail(KMX_E_FORMAT, "%s:%lld:%lld: %s", line.input->name, (long long)line.number, column, message);
}

Quoted quote(const char *begin, const char *end) {
    constexpr ptrdiff_t kShown = 44;
    Quoted quoted;
    const ptrdiff_t length = end - begin;
    if (length <= kShown + 3)
        std::snprintf(quoted.text, sizeof quoted.text, "'%.*s'", int(length), begin);
    else
        std::snprintf(quoted.text, sizeof quoted.text, "'%.*s...'", int(kShown), begin);
    return quoted;
}

const char *skip_blanks(const char *p, const char *end) {
    while (p < end && is_blank(*p)) ++p;
    return p;
}

const char *find_blank(const char *p, const char *end) {
    while (p < end && !is_blank(*p)) ++p;
    return p;
}

void trim_blanks(const char *&begin, const char *&end) {
    begin = skip_blanks(begin, end);
    while (end > begin && is_blank(end[-1])) --end;
}

// ---------------------------------------------------------------- lines

LineCursor::LineCursor(const TextInput &input, int64_t lines_before)
    : input_(input), position_(input.begin), lines_read_(lines_before) {
    static const char kByteOrderMark[] = "\xEF\xBB\xBF";
    if (lines_before == 0 && input.end - input.begin >= 3 && std::memcmp(input.begin, kByteOrderMark, 3) == 0)
        position_ += 3;
    last_line_begin_ = position_;
}

Line LineCursor::next_line() {
    const size_t left = size_t(input_.end - position_);
    const char *newline = static_cast<const char *>(std::memchr(position_, '\n', left));
    Line line{&input_, position_, newline ? newline : input_.end, ++lines_read_};
    if (line.end > line.begin && line.end[-1] == '\r') --line.end;
    last_line_begin_ = position_;
    position_ = newline ? newline + 1 : input_.end;
    return line;
}

bool LineCursor::next_data_line(Line &line) {
    while (position_ < input_.end) {
        line = next_line();
        const char *first = skip_blanks(line.begin, line.end);
        if (first != line.end && *first != '#') return true;
    }
    return false;
}

Line LineCursor::end_of_input() const {
    const bool last_line_unterminated = lines_read_ > 0 && input_.end[-1] != '\n';
    if (last_line_unterminated) return Line{&input_, last_line_begin_, input_.end, lines_read_};
    return Line{&input_, input_.end, input_.end, lines_read_ + 1};
}

double LineCursor::fraction_done() const {
    const ptrdiff_t total = input_.end - input_.begin;
    return total > 0 ? double(position_ - input_.begin) / double(total) : 1.0;
}

// --------------------------------------------------------------- numbers

namespace {

// The exponent after 'e' of a well-formed number, saturated far beyond any
// double's range so that absurdly long exponents cannot overflow.
int64_t saturated_exponent(const char *p, const char *end) {
    constexpr int64_t kCap = int64_t(1) << 50;
    const bool negative = p < end && *p == '-';
    if (p < end && (*p == '-' || *p == '+')) ++p;
    int64_t exponent = 0;
    for (; p < end; ++p) exponent = std::min(exponent * 10 + (*p - '0'), kCap);
    return negative ? -exponent : exponent;
}

// Decimal exponent of the first significant digit of a well-formed, nonzero
// decimal number: "123.4" -> 2, "0.05" -> -2, "5e-400" -> -400.
int64_t leading_decimal_exponent(const char *p, const char *end) {
    int64_t integer_digits = 0;
    int64_t zeros_after_point = 0;
    bool significant = false;
    bool after_point = false;
    for (; p < end && *p != 'e' && *p != 'E'; ++p) {
        if (*p == '.') {
            after_point = true;
            continue;
        }
        if (*p < '0' || *p > '9') continue;  // the sign
        significant = significant || *p != '0';
        if (!after_point && significant) ++integer_digits;
        if (after_point && !significant) ++zeros_after_point;
    }
    const int64_t exponent = integer_digits > 0 ? integer_digits - 1 : -(zeros_after_point + 1);
    return exponent + (p < end ? saturated_exponent(p + 1, end) : 0);
}

// from_chars found [begin, end) outside a double's range: values too small
// round to a signed zero, values too large are an error.
double beyond_double_range(const Line &line, const char *begin, const char *end, const char *what) {
    if (leading_decimal_exponent(begin, end) < 0) return *begin == '-' ? -0.0 : 0.0;
    fail_at(line, begin, "%s %s overflows a double (magnitude above 1.8e308)", what, quote(begin, end).text);
}

}  // namespace

double parse_finite(const Line &line, const char *begin, const char *end, const char *what) {
    if (begin == end) fail_at(line, begin, "missing %s", what);
    const char *number = begin;
    if (*number == '+' && end - number > 1 && number[1] != '-') ++number;  // from_chars refuses '+'
    double value = 0;
    const std::from_chars_result result = std::from_chars(number, end, value);
    if (result.ec == std::errc::invalid_argument || result.ptr != end)
        fail_at(line, begin, "%s %s is not a number", what, quote(begin, end).text);
    if (result.ec == std::errc::result_out_of_range) value = beyond_double_range(line, begin, end, what);
    if (std::isnan(value))
        fail_at(line, begin, "%s %s is NaN: only finite numbers are allowed", what, quote(begin, end).text);
    if (std::isinf(value))
        fail_at(line, begin, "%s %s is infinite: only finite numbers are allowed", what, quote(begin, end).text);
    return value;
}

bool spells_nonzero(const char *begin, const char *end) {
    constexpr ptrdiff_t kSurelyInRange = 300;  // digits after which a plain decimal could underflow
    bool nonzero_digit = false;
    const char *p = begin;
    for (; p < end && *p != 'e' && *p != 'E'; ++p) nonzero_digit = nonzero_digit || (*p >= '1' && *p <= '9');
    if (!nonzero_digit) return false;
    if (p == end && end - begin < kSurelyInRange) return true;
    const char *number = begin + (*begin == '+' && end - begin > 1 && begin[1] != '-');
    double value = 0;
    const std::from_chars_result result = std::from_chars(number, end, value);
    return !(result.ec == std::errc::result_out_of_range && leading_decimal_exponent(begin, end) < 0) && value != 0;
}

}  // namespace kmx
