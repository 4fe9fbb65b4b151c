// LIBSVM and CSV text into a Dataset, in two passes over the text: measure
// (validating every token), then fill one exactly-sized block.
//
// KMX_FORMAT_AUTO looks at the first data line only: if it holds a ',' the
// text is CSV, otherwise LIBSVM. So a first line holding a single number is
// read as LIBSVM — a label with no features, an all-zero row — which is the
// only valid reading, since a CSV row needs at least one feature.
#include "text_reader.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "core/arena.h"
#include "core/context.h"
#include "core/dataset.h"
#include "core/error.h"
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
bool choose_dense(int64_t n, int64_t d, int64_t nnz) {
    constexpr int64_t kMaxDenseOnlyColumns = 1024;
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
    if (format == KMX_FORMAT_LIBSVM || format == KMX_FORMAT_CSV) return format;
    if (format != KMX_FORMAT_AUTO)
        fail(KMX_E_INVALID_ARGUMENT,
             "format %d is none of KMX_FORMAT_AUTO (0), KMX_FORMAT_LIBSVM (1), KMX_FORMAT_CSV (2)", int(format));
    return detect_format(input);
}

// The data rows of a text in one (resolved) format, one at a time.
class RowReader {
public:
    RowReader(const TextInput &input, kmx_format format) : lines_(input), format_(format) {}

    bool next(ParsedRow &row) {
        if (!lines_.next_data_line(line_)) return false;
        if (format_ == KMX_FORMAT_CSV)
            parse_csv_line(line_, csv_shape_, row);
        else
            parse_libsvm_line(line_, row);
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

// Calls visit(row_index, row) for every remaining row of reader; progress
// runs from progress_begin to progress_begin + 0.5 over the text.
template <class Visit>
void for_each_row(Context &ctx, RowReader &reader, double progress_begin, Visit &&visit) {
    ParsedRow row;
    for (int64_t r = 0; reader.next(row); ++r) {
        visit(r, row);
        if ((r + 1) % kRowsPerProgressReport == 0)
            ctx.progress(progress_begin + 0.5 * reader.lines().fraction_done(), "loading");
    }
}

struct TextShape {
    int64_t rows = 0;
    int64_t cols = 0;
    int64_t nonzeros = 0;
};

// Pass 1: validates every token and counts what the dataset will hold.
TextShape measure(Context &ctx, const TextInput &input, kmx_format format) {
    RowReader reader(input, format);
    TextShape shape;
    Line first_row{};
    for_each_row(ctx, reader, 0.0, [&](int64_t r, const ParsedRow &row) {
        if (r == 0) first_row = reader.line();
        shape.rows = r + 1;
        shape.cols = std::max(shape.cols, row.width);
        shape.nonzeros += int64_t(row.cols.size());
    });
    if (shape.rows == 0) {
        const Line end = reader.lines().end_of_input();
        fail_at(end, end.end, "no data rows: the text is empty or holds only blank and comment lines");
    }
    if (shape.cols == 0)
        fail_at(first_row, skip_blanks(first_row.begin, first_row.end),
                "no features: all %lld rows hold only a label, so the dataset would have no columns",
                (long long)shape.rows);
    return shape;
}

// Byte offsets of the dataset's arrays inside its one block.
struct BlockLayout {
    size_t bytes = 0;
    size_t labels = 0;
    size_t x = 0;  // dense only
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
        fail(KMX_E_OUT_OF_MEMORY, "%lld x %lld dense values overflow", (long long)shape.rows,
             (long long)shape.cols);
    return count;
}

BlockLayout plan_block(const TextShape &shape, bool dense) {
    WorkspacePlan plan;
    BlockLayout layout;
    layout.labels = place<double>(plan, shape.rows);
    if (dense) {
        layout.x = place<double>(plan, dense_count(shape));
    } else {
        layout.row_ptr = place<int64_t>(plan, shape.rows + 1);
        layout.cols = place<int32_t>(plan, shape.nonzeros);
        layout.values = place<double>(plan, shape.nonzeros);
    }
    layout.bytes = plan.bytes();
    return layout;
}

template <class T>
T *array_at(Dataset &ds, size_t offset) {
    return reinterpret_cast<T *>(ds.block() + offset);
}

// Pass 2, dense rows.
void fill_dense(Context &ctx, RowReader &reader, Dataset &ds, const BlockLayout &layout) {
    double *labels = array_at<double>(ds, layout.labels);
    double *x = array_at<double>(ds, layout.x);
    std::memset(x, 0, sizeof(double) * size_t(ds.n) * size_t(ds.d));
    for_each_row(ctx, reader, 0.5, [&](int64_t r, const ParsedRow &row) {
        labels[r] = row.label;
        double *dense_row = x + r * ds.d;
        for (size_t e = 0; e < row.cols.size(); ++e) dense_row[row.cols[e]] = row.values[e];
    });
    ds.y = labels;
    ds.x = x;
}

// Pass 2, CSR.
void fill_csr(Context &ctx, RowReader &reader, Dataset &ds, const BlockLayout &layout) {
    double *labels = array_at<double>(ds, layout.labels);
    int64_t *row_ptr = array_at<int64_t>(ds, layout.row_ptr);
    int32_t *cols = array_at<int32_t>(ds, layout.cols);
    double *values = array_at<double>(ds, layout.values);
    row_ptr[0] = 0;
    for_each_row(ctx, reader, 0.5, [&](int64_t r, const ParsedRow &row) {
        labels[r] = row.label;
        std::copy(row.cols.begin(), row.cols.end(), cols + row_ptr[r]);
        std::copy(row.values.begin(), row.values.end(), values + row_ptr[r]);
        row_ptr[r + 1] = row_ptr[r] + int64_t(row.cols.size());
    });
    ds.y = labels;
    ds.row_ptr = row_ptr;
    ds.col = cols;
    ds.values = values;
}

// ------------------------------------------------------------------ files

struct CloseFile {
    void operator()(std::FILE *file) const { std::fclose(file); }
};

[[noreturn]] void fail_io(const char *action, const char *path, int error_number) {
    fail(KMX_E_IO, "cannot %s '%s': %s", action, path, std::strerror(error_number));
}

size_t regular_file_size(std::FILE *file, const char *path) {
    struct stat info;
    if (fstat(fileno(file), &info) != 0) fail_io("inspect", path, errno);
    if (!S_ISREG(info.st_mode)) fail(KMX_E_IO, "cannot read '%s': not a regular file", path);
    return size_t(info.st_size);
}

struct FileText {
    std::unique_ptr<char[]> bytes;
    size_t size = 0;
};

// The whole file in memory, after checking its size against the budget.
FileText read_whole_file(Context &ctx, const char *path) {
    errno = 0;
    std::unique_ptr<std::FILE, CloseFile> file(std::fopen(path, "rb"));
    if (!file) fail_io("open", path, errno);
    FileText text;
    text.size = regular_file_size(file.get(), path);
    char what[300];
    std::snprintf(what, sizeof what, "reading '%s'", path);
    ctx.check_budget(text.size, what);
    text.bytes.reset(new char[std::max<size_t>(text.size, 1)]);
    if (std::fread(text.bytes.get(), 1, text.size, file.get()) != text.size) {
        if (std::ferror(file.get())) fail_io("read", path, errno);
        fail(KMX_E_IO, "cannot read '%s': it shrank below %zu bytes while being read", path, text.size);
    }
    return text;
}

}  // namespace

std::unique_ptr<Dataset> parse_dataset(Context &ctx, const char *text, size_t len, kmx_format format,
                                       const char *name) {
    const TextInput input{text, text + len, name ? name : "<memory>"};
    const kmx_format resolved = resolve_format(input, format);
    const TextShape shape = measure(ctx, input, resolved);
    const bool dense = choose_dense(shape.rows, shape.cols, shape.nonzeros);
    const BlockLayout layout = plan_block(shape, dense);
    char what[300];
    std::snprintf(what, sizeof what, "loading '%s'", input.name);
    ctx.check_budget(layout.bytes, what);

    auto ds = std::make_unique<Dataset>();
    ds->n = shape.rows;
    ds->d = shape.cols;
    ds->adopt_block(layout.bytes);
    RowReader reader(input, resolved);
    if (dense)
        fill_dense(ctx, reader, *ds, layout);
    else
        fill_csr(ctx, reader, *ds, layout);
    return ds;
}

std::unique_ptr<Dataset> read_dataset_file(Context &ctx, const char *path, kmx_format format) {
    const FileText text = read_whole_file(ctx, path);
    return parse_dataset(ctx, text.bytes.get(), text.size, format, path);
}

}  // namespace kmx
