// CSV rows: "label,x1,...,xd", no header.
#include <cstring>

#include "row_formats.h"

namespace kmx {

namespace {

const char *find_comma(const char *p, const char *end) {
    const char *comma = static_cast<const char *>(std::memchr(p, ',', size_t(end - p)));
    return comma ? comma : end;
}

int64_t count_fields(const char *p, const char *end) {
    int64_t fields = 1;
    for (const char *comma = find_comma(p, end); comma < end; comma = find_comma(comma + 1, end)) ++fields;
    return fields;
}

[[noreturn]] void fail_ragged(const Line &line, const char *where, const CsvShape &shape, int64_t fields) {
    fail_at(line, where, "expected %lld fields as on line %lld, got %lld", (long long)shape.fields,
            (long long)shape.first_line, (long long)fields);
}

// Fields of a row once they are all read: the count every row must match.
void check_field_count(const Line &line, CsvShape &shape, int64_t fields) {
    if (fields < 2) fail_at(line, line.end, "a CSV row needs a label and at least one feature, got 1 field");
    if (fields - 1 > kMaxColumns)
        fail_at(line, line.end, "%lld features: at most %lld columns are supported", (long long)(fields - 1),
                (long long)kMaxColumns);
    if (shape.fields == 0) shape = CsvShape{fields, line.number};
    if (fields < shape.fields) fail_ragged(line, line.end, shape, fields);
}

}  // namespace

void parse_csv_line(const Line &line, CsvShape &shape, ParsedRow &row) {
    row.clear();
    int64_t index = 0;  // of the current field; 0 is the label
    for (const char *field = line.begin;; ++index) {
        if (shape.fields != 0 && index == shape.fields)
            fail_ragged(line, field, shape, index + count_fields(field, line.end));
        const char *comma = find_comma(field, line.end);
        const char *begin = field;
        const char *end = comma;
        trim_blanks(begin, end);
        const double value = parse_finite(line, begin, end, index == 0 ? "label" : "value");
        if (index == 0)
            row.label = value;
        else
            row.add(index - 1, value);
        if (comma == line.end) break;
        field = comma + 1;
    }
    check_field_count(line, shape, index + 1);
    row.width = index;
}

LineCounts count_csv_line(const Line &line, const CsvShape &shape, bool count_nonzeros) {
    LineCounts counts;
    const char *label_end = find_comma(line.begin, line.end);
    const char *label = line.begin;
    const char *label_last = label_end;
    trim_blanks(label, label_last);
    parse_finite(line, label, label_last, "label");  // pass 1 reports a bad label, as the validating pass would
    int64_t fields = 1;
    for (const char *comma = label_end; comma < line.end; ++fields) {
        const char *begin = comma + 1;
        comma = find_comma(begin, line.end);
        const char *end = comma;
        if (count_nonzeros) {
            trim_blanks(begin, end);
            counts.nonzeros += begin < end && spells_nonzero(begin, end);
        }
    }
    counts.plain = fields == shape.fields;
    counts.width = fields - 1;
    return counts;
}

}  // namespace kmx
