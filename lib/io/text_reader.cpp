// LIBSVM and CSV text into a Dataset, in two passes over the text: measure
// (count rows, columns and nonzeros), then fill one exactly-sized block,
// converting and validating every value. Well-formed texts are measured
// without converting their values (half the work of converting them twice).
//
// KMX_FORMAT_AUTO looks at the first data line only: if it holds a ',' the
// text is CSV, otherwise LIBSVM. So a first line holding a single number is
// read as LIBSVM — a label with no features, an all-zero row — which is the
// only valid reading, since a CSV row needs at least one feature.
#include "text_reader.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <exception>
#include <vector>

#include "core/arena.h"
#include "core/context.h"
#include "core/dataset.h"
#include "core/error.h"
#include "core/parallel.h"
#include "kmxd_format.h"
#include "mapped_file.h"
#include "row_formats.h"
#include "text_scanner.h"

namespace kmx {

// CSR stores a nonzero in 12 bytes (int32 column + double value) plus
// 8·(n+1) bytes of row pointers; dense rows take 8·n·d bytes. At density ρ
// CSR needs about 1.5·ρ of the dense memory, so below 10% it is at least
// 6.7 times smaller. Dense rows feed GEMM-based kernel blocks, which run
// several times faster per stored value than sparse dot products, so CSR is
// kept only where the saving is that large and matters: wide rows (d > 1024,
// where a dense row is over 8 KiB and row pointers cost under 1% of it).
// Narrow data (d <= 1024, e.g. Letter, MNIST's 784) is always dense.
namespace {
constexpr int64_t kMaxDenseOnlyColumns = 1024;  // and so only wide CSV rows' nonzeros are worth counting
}  // namespace

bool choose_dense(int64_t n, int64_t d, int64_t nnz) {
    constexpr double kMaxSparseDensity = 0.10;
    if (n <= 0 || d <= kMaxDenseOnlyColumns) return true;
    const double density = double(nnz) / (double(n) * double(d));
    return density >= kMaxSparseDensity;
}

namespace {

constexpr int64_t kRowsPerProgressReport = int64_t(1) << 16;

kmx_format detect_format(const TextInput &input) {
    LineCursor lines(input);
    Line first;
    if (lines.next_data_line(first) && std::memchr(first.begin, ',', size_t(first.end - first.begin)))
        return KMX_FORMAT_CSV;
    return KMX_FORMAT_LIBSVM;
}

kmx_format resolve_format(const TextInput &input, kmx_format format) {
    if (format == KMX_FORMAT_LIBSVM || format == KMX_FORMAT_CSV || format == KMX_FORMAT_PRECOMPUTED) return format;
    if (format != KMX_FORMAT_AUTO)
        fail(KMX_E_INVALID_ARGUMENT,
             "format %d is none of KMX_FORMAT_AUTO (0), KMX_FORMAT_LIBSVM (1), KMX_FORMAT_CSV (2), KMX_FORMAT_KMXD "
             "(3), KMX_FORMAT_PRECOMPUTED (4)",
             int(format));
    return detect_format(input);
}

// A piece of the text that starts at a line boundary: pieces are read in
// parallel, each knowing its first line's number for messages.
struct TextPiece {
    TextInput input;
    int64_t lines_before = 0;  // lines of the whole text before this piece
};

// Texts below this size are read as one piece.
constexpr size_t kMinBytesPerPiece = size_t(1) << 20;

// `count` pieces of about equal size of `whole` (itself a piece that starts
// at a line boundary), each boundary moved to just after a '\n' (pieces may
// be empty).
std::vector<TextPiece> split_at_lines(const TextPiece &whole, int count, int threads) {
    const TextInput &input = whole.input;
    const size_t size = size_t(input.end - input.begin);
    std::vector<const char *> cuts{input.begin};
    for (int p = 1; p < count; ++p) {
        const char *target = std::max(cuts.back(), input.begin + size / size_t(count) * size_t(p));
        const void *newline = std::memchr(target, '\n', size_t(input.end - target));
        cuts.push_back(newline ? static_cast<const char *>(newline) + 1 : input.end);
    }
    cuts.push_back(input.end);
    std::vector<TextPiece> pieces(static_cast<size_t>(count));
    std::vector<int64_t> newlines(static_cast<size_t>(count));
    parallel_for(count, threads, [&](int64_t p) {
        pieces[size_t(p)].input = TextInput{cuts[size_t(p)], cuts[size_t(p) + 1], input.name};
        newlines[size_t(p)] = std::count(cuts[size_t(p)], cuts[size_t(p) + 1], '\n');
    });
    pieces[0].lines_before = whole.lines_before;
    for (size_t p = 1; p < pieces.size(); ++p) pieces[p].lines_before = pieces[p - 1].lines_before + newlines[p - 1];
    return pieces;
}

// The data rows of a piece of text in one (resolved) format, one at a time.
// CSV pieces start knowing the field count the text's first row fixed.
class RowReader {
public:
    RowReader(const TextPiece &piece, kmx_format format, const CsvShape &csv_shape)
        : lines_(piece.input, piece.lines_before), format_(format), csv_shape_(csv_shape) {}

    bool next(ParsedRow &row) {
        if (!lines_.next_data_line(line_)) return false;
        if (format_ == KMX_FORMAT_CSV)
            parse_csv_line(line_, csv_shape_, row);
        else
            parse_libsvm_line(line_, row, first_index(format_));
        return true;
    }
    const Line &line() const { return line_; }
    const LineCursor &lines() const { return lines_; }

private:
    LineCursor lines_;
    kmx_format format_;
    CsvShape csv_shape_;
    Line line_{};
};

// The field count of a CSV text's first data row (which fixes it for every
// row); a LIBSVM text has none.
CsvShape first_csv_shape(const TextInput &input, kmx_format format) {
    CsvShape shape;
    if (format != KMX_FORMAT_CSV) return shape;
    LineCursor lines(input);
    Line first;
    ParsedRow row;
    if (lines.next_data_line(first)) parse_csv_line(first, shape, row);
    return shape;
}

// Calls visit(row_index, row) for every remaining row of reader. The piece
// read by the calling thread (thread 0) reports progress from
// progress_begin to progress_begin + 0.5 over its text; the others check
// for cancellation only (callbacks run on the caller's thread).
void report_progress(Context &ctx, int64_t rows_done, const LineCursor &lines, double progress_begin) {
    if (rows_done % kRowsPerProgressReport != 0) return;
    if (thread_index() == 0)
        ctx.progress(progress_begin + 0.5 * lines.fraction_done(), "loading");
    else
        ctx.check_cancel();
}

template <class Visit>
void for_each_row(Context &ctx, RowReader &reader, double progress_begin, Visit &&visit) {
    ParsedRow row;
    for (int64_t r = 0; reader.next(row); ++r) {
        visit(r, row);
        report_progress(ctx, r + 1, reader.lines(), progress_begin);
    }
}

// body(p) for every piece p on ctx.threads threads; if pieces fail, the
// error of the first failing piece is rethrown — the text's first error, as a
// sequential read would report it.
template <class Body>
void for_each_piece(Context &ctx, size_t pieces, Body &&body) {
    std::vector<std::exception_ptr> errors(pieces);
    parallel_for(int64_t(pieces), ctx.threads, [&](int64_t p) {
        try {
            body(size_t(p));
        } catch (...) {
            errors[size_t(p)] = std::current_exception();
        }
    });
    for (const std::exception_ptr &error : errors)
        if (error) std::rethrow_exception(error);
}

struct TextShape {
    int64_t rows = 0;
    int64_t cols = 0;
    int64_t nonzeros = 0;
    Line first_row{};  // valid when rows > 0
};

// Pass 1 over one piece, the validating way: every token converted and
// checked, and counted.
TextShape measure_piece(Context &ctx, const TextPiece &piece, kmx_format format, const CsvShape &csv_shape) {
    RowReader reader(piece, format, csv_shape);
    TextShape shape;
    for_each_row(ctx, reader, 0.0, [&](int64_t r, const ParsedRow &row) {
        if (r == 0) shape.first_row = reader.line();
        shape.rows = r + 1;
        shape.cols = std::max(shape.cols, row.width);
        shape.nonzeros += int64_t(row.cols.size());
    });
    return shape;
}

// Pass 1 over one piece the fast way: lines counted without converting their
// values (count_*_line); nonzeros only when `count_nonzeros` (else values,
// zeros included). False when a line is not plain: then the text is measured
// by the validating parsers instead.
bool count_piece(Context &ctx, const TextPiece &piece, kmx_format format, const CsvShape &csv_shape,
                 bool count_nonzeros, TextShape &shape) {
    LineCursor lines(piece.input, piece.lines_before);
    shape = TextShape();
    Line line;
    for (int64_t r = 0; lines.next_data_line(line); ++r) {
        const LineCounts counts = format == KMX_FORMAT_CSV
                                      ? count_csv_line(line, csv_shape, count_nonzeros)
                                      : count_libsvm_line(line, count_nonzeros, first_index(format));
        if (!counts.plain) return false;
        if (r == 0) shape.first_row = line;
        shape.rows = r + 1;
        shape.cols = std::max(shape.cols, counts.width);
        shape.nonzeros += format == KMX_FORMAT_CSV && !count_nonzeros ? counts.width : counts.nonzeros;
        report_progress(ctx, r + 1, lines, 0.0);
    }
    return true;
}

// Pass 1 the fast way, every piece in parallel; false if a line is not plain.
// Nonzeros matter only where rows may be stored sparse (choose_dense: more
// than kMaxDenseOnlyColumns columns), so narrower texts skip telling zeros
// from nonzeros, and wider ones are counted again when they turn out wide.
bool count_pieces(Context &ctx, const std::vector<TextPiece> &pieces, kmx_format format,
                  const CsvShape &csv_shape, std::vector<TextShape> &shapes) {
    bool count_nonzeros = format == KMX_FORMAT_CSV && csv_shape.fields - 1 > kMaxDenseOnlyColumns;
    for (;;) {
        std::vector<char> plain(pieces.size(), 0);
        for_each_piece(ctx, pieces.size(), [&](size_t p) {
            plain[p] = count_piece(ctx, pieces[p], format, csv_shape, count_nonzeros, shapes[p]);
        });
        if (std::find(plain.begin(), plain.end(), 0) != plain.end()) return false;
        int64_t cols = 0;
        for (const TextShape &shape : shapes) cols = std::max(cols, shape.cols);
        if (count_nonzeros || cols <= kMaxDenseOnlyColumns) return true;
        count_nonzeros = true;
    }
}

// Pass 1. Texts whose every line is plain are counted the fast way (their
// values are validated in pass 2, where the first failing piece's error is
// again the text's first error); any other text is measured by the
// validating parsers, so that its first error — structural or not — is
// reported exactly as a sequential read would.
std::vector<TextShape> measure(Context &ctx, const std::vector<TextPiece> &pieces, kmx_format format,
                               const CsvShape &csv_shape) {
    std::vector<TextShape> shapes(pieces.size());
    try {
        if (count_pieces(ctx, pieces, format, csv_shape, shapes)) return shapes;
    } catch (const Error &error) {
        if (error.status() == KMX_E_CANCELLED) throw;
    }
    for_each_piece(ctx, pieces.size(),
                   [&](size_t p) { shapes[p] = measure_piece(ctx, pieces[p], format, csv_shape); });
    return shapes;
}

// The shape of all pieces together.
TextShape sum_shapes(const std::vector<TextShape> &shapes) {
    TextShape total;
    for (const TextShape &shape : shapes) {
        if (total.rows == 0 && shape.rows > 0) total.first_row = shape.first_row;
        total.rows += shape.rows;
        total.cols = std::max(total.cols, shape.cols);
        total.nonzeros += shape.nonzeros;
    }
    return total;
}

// A whole text must hold rows and columns (a shard of one may hold neither).
void check_not_empty(const TextInput &input, const TextShape &total) {
    if (total.rows == 0) {
        LineCursor lines(input);
        Line unused;
        while (lines.next_data_line(unused)) {
        }
        const Line end = lines.end_of_input();
        fail_at(end, end.end, "no data rows: the text is empty or holds only blank and comment lines");
    }
    if (total.cols == 0)
        fail_at(total.first_row, skip_blanks(total.first_row.begin, total.first_row.end),
                "no features: all %lld rows hold only a label, so the dataset would have no columns",
                (long long)total.rows);
}

// Byte offsets of the dataset's arrays inside its one block.
struct BlockLayout {
    size_t bytes = 0;
    size_t labels = 0;
    size_t x = 0;                              // dense only
    size_t row_ptr = 0, cols = 0, values = 0;  // CSR only
};

template <class T>
size_t place(WorkspacePlan &plan, int64_t count) {
    const size_t offset = plan.bytes();
    plan.add<T>(size_t(count));
    return offset;
}

int64_t dense_count(const TextShape &shape) {
    int64_t count = 0;
    if (__builtin_mul_overflow(shape.rows, shape.cols, &count))
        fail(KMX_E_OUT_OF_MEMORY, "%lld x %lld dense values overflow", (long long)shape.rows, (long long)shape.cols);
    return count;
}

BlockLayout plan_block(const TextShape &shape, bool dense, bool float32) {
    WorkspacePlan plan;
    BlockLayout layout;
    layout.labels = place<double>(plan, shape.rows);
    const int64_t value_count = dense ? dense_count(shape) : shape.nonzeros;
    if (!dense) {
        layout.row_ptr = place<int64_t>(plan, shape.rows + 1);
        layout.cols = place<int32_t>(plan, shape.nonzeros);
    }
    (dense ? layout.x : layout.values) = float32 ? place<float>(plan, value_count) : place<double>(plan, value_count);
    layout.bytes = plan.bytes();
    return layout;
}

template <class T>
T *array_at(Dataset &ds, size_t offset) {
    return reinterpret_cast<T *>(ds.block() + offset);
}

// Where a piece's rows and nonzeros go in the dataset: prefix sums of the
// pieces' counts.
struct PieceOffset {
    int64_t row = 0;
    int64_t nonzero = 0;
};

std::vector<PieceOffset> piece_offsets(const std::vector<TextShape> &shapes) {
    std::vector<PieceOffset> offsets(shapes.size());
    for (size_t p = 1; p < shapes.size(); ++p)
        offsets[p] =
            PieceOffset{offsets[p - 1].row + shapes[p - 1].rows, offsets[p - 1].nonzero + shapes[p - 1].nonzeros};
    return offsets;
}

// The dataset's arrays inside its block, writable while the text fills them.
// The values are doubles, or floats (x32/values32) with precision=float32.
struct BlockArrays {
    double *labels = nullptr;
    double *x = nullptr;  // dense only
    float *x32 = nullptr;
    int64_t *row_ptr = nullptr;
    int32_t *cols = nullptr;
    double *values = nullptr;  // CSR only
    float *values32 = nullptr;
};

BlockArrays block_arrays(Dataset &ds, const BlockLayout &layout, bool dense, bool float32) {
    BlockArrays arrays;
    arrays.labels = array_at<double>(ds, layout.labels);
    if (dense) {
        if (float32)
            arrays.x32 = array_at<float>(ds, layout.x);
        else
            arrays.x = array_at<double>(ds, layout.x);
    } else {
        arrays.row_ptr = array_at<int64_t>(ds, layout.row_ptr);
        arrays.cols = array_at<int32_t>(ds, layout.cols);
        if (float32)
            arrays.values32 = array_at<float>(ds, layout.values);
        else
            arrays.values = array_at<double>(ds, layout.values);
    }
    return arrays;
}

// A value as a float (precision=float32), rounded to nearest; one beyond
// float range is an error at its line.
float to_float32(const Line &line, double value) {
    if (std::fabs(value) > double(FLT_MAX))
        fail_at(line, line.begin, "value %g is beyond float32's range (precision=float32)", value);
    return float(value);
}

// Stores a CSR row's nonzeros as doubles (to) or floats (to32).
void store_values(const Line &line, const ParsedRow &row, double *to, float *to32) {
    if (to) {
        std::copy(row.values.begin(), row.values.end(), to);
        return;
    }
    for (size_t e = 0; e < row.values.size(); ++e) to32[e] = to_float32(line, row.values[e]);
}

// Pass 2 of one piece, dense rows (zeroed here, by the thread that fills them).
void fill_dense_piece(Context &ctx, RowReader &reader, const BlockArrays &to, int64_t d, int64_t rows,
                      const PieceOffset &at) {
    double *labels = to.labels + at.row;
    double *x = to.x ? to.x + at.row * d : nullptr;
    float *x32 = to.x32 ? to.x32 + at.row * d : nullptr;
    if (x) std::memset(x, 0, sizeof(double) * size_t(rows) * size_t(d));
    if (x32) std::memset(x32, 0, sizeof(float) * size_t(rows) * size_t(d));
    for_each_row(ctx, reader, 0.5, [&](int64_t r, const ParsedRow &row) {
        labels[r] = row.label;
        for (size_t e = 0; e < row.cols.size(); ++e) {
            if (x)
                x[r * d + row.cols[e]] = row.values[e];
            else
                x32[r * d + row.cols[e]] = to_float32(reader.line(), row.values[e]);
        }
    });
}

// Pass 2 of one piece, CSR; row pointers count from the dataset's start.
void fill_csr_piece(Context &ctx, RowReader &reader, const BlockArrays &to, const PieceOffset &at) {
    double *labels = to.labels + at.row;
    int64_t *row_ptr = to.row_ptr + at.row;
    row_ptr[0] = at.nonzero;
    for_each_row(ctx, reader, 0.5, [&](int64_t r, const ParsedRow &row) {
        labels[r] = row.label;
        std::copy(row.cols.begin(), row.cols.end(), to.cols + row_ptr[r]);
        store_values(reader.line(), row, to.values ? to.values + row_ptr[r] : nullptr,
                     to.values32 ? to.values32 + row_ptr[r] : nullptr);
        row_ptr[r + 1] = row_ptr[r] + int64_t(row.cols.size());
    });
}

// Pass 2: every piece in parallel, into its own rows; then the dataset
// points at the filled arrays.
void fill(Context &ctx, const std::vector<TextPiece> &pieces, const std::vector<TextShape> &shapes, kmx_format format,
          const CsvShape &csv_shape, Dataset &ds, const BlockLayout &layout, bool dense) {
    const BlockArrays to = block_arrays(ds, layout, dense, ctx.float32_data);
    const std::vector<PieceOffset> offsets = piece_offsets(shapes);
    for_each_piece(ctx, pieces.size(), [&](size_t p) {
        RowReader reader(pieces[p], format, csv_shape);
        if (dense)
            fill_dense_piece(ctx, reader, to, ds.d, shapes[p].rows, offsets[p]);
        else
            fill_csr_piece(ctx, reader, to, offsets[p]);
    });
    ds.y = to.labels;
    ds.x = to.x;
    ds.x32 = to.x32;
    ds.row_ptr = to.row_ptr;
    ds.col = to.cols;
    ds.values = to.values;
    ds.values32 = to.values32;
}

// A .kmxd file: asked for, or detected by its magic (which no text starts with).
bool is_binary(const char *bytes, size_t len, kmx_format format) {
    return format == KMX_FORMAT_KMXD || (format == KMX_FORMAT_AUTO && is_kmxd(bytes, len));
}

}  // namespace

namespace {

// Reads `span` of a text whose format and CSV field count are known, in
// `pieces` pieces; a whole text must not be empty.
std::unique_ptr<Dataset> read_span(Context &ctx, const TextPiece &span, kmx_format resolved, const CsvShape &csv_shape,
                                   int pieces, bool whole_text) {
    const std::vector<TextPiece> split = split_at_lines(span, std::max(1, pieces), ctx.threads);
    const std::vector<TextShape> shapes = measure(ctx, split, resolved, csv_shape);
    const TextShape shape = sum_shapes(shapes);
    if (whole_text) check_not_empty(span.input, shape);
    const bool dense = choose_dense(shape.rows, shape.cols, shape.nonzeros);
    const BlockLayout layout = plan_block(shape, dense, ctx.float32_data);
    char what[300];
    std::snprintf(what, sizeof what, "loading '%s'", span.input.name);
    ctx.check_budget(layout.bytes, what);

    auto ds = std::make_unique<Dataset>();
    ds->n = shape.rows;
    ds->d = shape.cols;
    ds->absent_columns_are_zeros = resolved == KMX_FORMAT_LIBSVM || resolved == KMX_FORMAT_PRECOMPUTED;
    ds->adopt_block(layout.bytes);
    fill(ctx, split, shapes, resolved, csv_shape, *ds, layout, dense);
    return ds;
}

int pieces_for(const Context &ctx, size_t len) {
    return int(std::min(size_t(std::max(1, ctx.threads)), std::max<size_t>(1, len / kMinBytesPerPiece)));
}

}  // namespace

std::unique_ptr<Dataset> parse_dataset_pieces(Context &ctx, const char *text, size_t len, kmx_format format,
                                              const char *name, int pieces) {
    const TextInput input{text, text + len, name ? name : "<memory>"};
    const kmx_format resolved = resolve_format(input, format);
    return read_span(ctx, TextPiece{input, 0}, resolved, first_csv_shape(input, resolved), pieces, true);
}

std::unique_ptr<Dataset> parse_dataset_span(Context &ctx, const char *text, size_t len, const TextSpan &span,
                                            kmx_format format, const char *name) {
    const TextInput input{text, text + len, name ? name : "<memory>"};
    require(span.begin >= text && span.begin <= span.end && span.end <= text + len && span.lines_before >= 0,
            "parse_dataset_span: the span is not inside the text");
    const kmx_format resolved = resolve_format(input, format);  // from the whole text's first data line
    const TextPiece piece{TextInput{span.begin, span.end, input.name}, span.lines_before};
    return read_span(ctx, piece, resolved, first_csv_shape(input, resolved),
                     pieces_for(ctx, size_t(span.end - span.begin)), false);
}

std::unique_ptr<Dataset> parse_dataset(Context &ctx, const char *text, size_t len, kmx_format format,
                                       const char *name) {
    if (is_binary(text, len, format)) return copy_kmxd(ctx, text, len, name ? name : "<memory>");
    return parse_dataset_pieces(ctx, text, len, format, name, pieces_for(ctx, len));
}

std::unique_ptr<Dataset> read_dataset_file(Context &ctx, const char *path, kmx_format format) {
    auto file = std::make_shared<const MappedFile>(path);
    char what[300];
    std::snprintf(what, sizeof what, "reading '%s'", path);
    ctx.check_budget(file->size(), what);  // its pages join the process's memory as they are read
    if (is_binary(file->data(), file->size(), format)) return open_kmxd_mapping(ctx, std::move(file), path);
    file->advise_sequential();
    return parse_dataset(ctx, file->data(), file->size(), format, path);
}

}  // namespace kmx
