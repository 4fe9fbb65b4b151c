// Prediction with a trained model: kernel rows between a block of test rows
// and the support vectors (one kernel_block, GEMM-based), then each machine's
// Σ y_i α_i K(x_i, x) + b over its coefficients — all of them, or for early
// prediction / BKA only those of the point's nearest cluster in feature space.
// The rows go through in blocks sized from the memory budget the call has
// left (at most 16 MiB of kernel and decision values each): a row's values do
// not depend on the block it is in, so any block size gives the same bits.
#include "model.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <memory>

#include "core/bytes_text.h"
#include "core/context.h"
#include "core/dataset.h"
#include "core/error.h"
#include "core/parallel.h"
#include "core/row_subset.h"
#include "cluster/kmeans.h"
#include "core/step_context.h"

namespace kmx {

namespace {

constexpr int64_t kBlockEntries = int64_t(1) << 21;  // 16 MiB of kernel and decision values per block
constexpr int64_t kMaxBlockRows = 1024;

// The most rows a block takes whatever the budget: `entries` values per row.
int64_t largest_block(int64_t n, int64_t entries) {
    const int64_t rows = std::clamp<int64_t>(kBlockEntries / std::max<int64_t>(entries, 1), 1, kMaxBlockRows);
    return std::min(rows, std::max<int64_t>(n, 1));
}

// The most coefficients one cluster of an early machine holds.
int64_t largest_cluster(const Model &model) {
    int64_t largest = 0;
    for (const BinaryMachine &machine : model.machines)
        for (size_t c = 0; c + 1 < machine.local.cluster_begin.size(); ++c)
            largest = std::max(largest, machine.local.cluster_begin[c + 1] - machine.local.cluster_begin[c]);
    return largest;
}

// Kernel columns per row: every support vector, or (early models, which only
// ever use the nearest cluster's) the largest cluster's.
int64_t kernel_columns(const Model &model) {
    return std::max<int64_t>(model.early() ? largest_cluster(model) : model.support_vectors, 1);
}

// The columns a block's rows are widened to: the model's d when a kernel is
// evaluated on them, none for a model without stored points (its values are
// its biases). A model's d is bounded by its points' bytes only when it has
// points: a file declaring millions of columns and no points costs nothing.
// Sparse test rows against sparse points are not widened at all: the
// kernel runs on their nonzeros (rows_in_place), for global machines and for
// early ones routed by a kernel partition (models with input-space routes,
// MEKA's, keep dense points).
bool rows_in_place(const Model &model, const Dataset &data) {
    return model.sparse_points() && model.routes == 0 && data.sparse();
}
int64_t widened_columns(const Model &model, const Dataset &data) {
    if (rows_in_place(model, data)) return 0;
    return model.support_vectors > 0 || model.early() ? model.d : 0;
}

// Scratch of a block's kernel values against every support vector.
size_t global_kernel_bytes(const Model &model, const Dataset &data, int64_t rows) {
    const int64_t columns = kernel_columns(model);
    if (!model.sparse_points()) return kernel_block_workspace_bytes(model.kernel, rows, columns, model.d);
    const std::unique_ptr<Dataset> points = model.points_dataset();
    if (rows_in_place(model, data))
        return kernel_block_rows_workspace_bytes(model.kernel, data, rows, *points, columns);
    const std::unique_ptr<Dataset> shape = Dataset::dense_borrow(nullptr, rows, model.d, nullptr);
    return kernel_block_rows_workspace_bytes(model.kernel, *shape, rows, *points, columns);
}

// Scratch of the input-space routing of a block of rows (MEKA models).
size_t routing_workspace_bytes(const Model &model, int64_t rows, int threads) {
    if (model.routes == 0) return 0;
    // Only the shape matters: any non-null row pointer makes it dense.
    const std::unique_ptr<Dataset> shape = Dataset::dense_borrow(model.route_centers.data(), rows, model.d, nullptr);
    return kmeans_assign_workspace_bytes(*shape, model.routes, threads);
}

// The arrays one block of prediction carves from its arena.
struct BlockBuffers {
    double *raw;          // rows x data.d, as read (only when padding)
    double *x;            // rows x model.d, padded with zeros
    double *kernel;       // rows x kernel_columns
    double *values;       // rows x machines
    int32_t *cluster_of;  // rows: nearest cluster (early machines)
    int64_t *order;       // rows: block rows sorted by cluster (early machines)
    int64_t *data_rows;   // rows: one cluster's rows of the data (early machines, rows in place)
    double *cluster_x;    // rows x model.d: one cluster's rows (early machines)
    double *cluster_sv;   // largest cluster x model.d: its support vectors (early machines)
};

// Scratch of the feature-space routing of a block (early machines with a
// kernel partition): the most any machine's needs; it does not grow with the
// block's rows (the assignment goes 256 rows at a time).
size_t partition_workspace_bytes(const Model &model, const Dataset &points, const Dataset &data) {
    size_t most = 0;
    const std::unique_ptr<Dataset> shape = Dataset::dense_borrow(nullptr, 1, model.d, nullptr);
    const Dataset &rows = rows_in_place(model, data) ? data : *shape;
    for (const BinaryMachine &machine : model.machines) {
        const KernelPartition &partition = machine.local.partition;
        if (partition.k > 0)
            most = std::max(most, kernel_partition_assign_workspace_bytes(points, int64_t(partition.sample_rows.size()),
                                                                          partition.k, rows, model.kernel));
    }
    return most;
}

// Scratch of one cluster's kernel values in place (rows_in_place early
// machines): a listed block of at most `rows` rows by the largest cluster.
size_t cluster_kernel_bytes(const Model &model, const Dataset &data, int64_t rows) {
    if (!model.early() || !rows_in_place(model, data)) return 0;
    const std::unique_ptr<Dataset> points = model.points_dataset();
    return sparse_kernel_block_listed_workspace_bytes(std::min(rows, kernel_columns(model)),
                                                      std::max(widest_row(data), widest_row(*points)));
}

// The workspace of a block of `rows` rows: its arrays, then the scratch of
// the largest step that runs after them (`partition_bytes`: the routing of
// early machines, from partition_workspace_bytes).
WorkspacePlan block_plan(const Model &model, const Dataset &data, int64_t rows, int threads, size_t partition_bytes) {
    const bool widen_clusters = model.early() && !rows_in_place(model, data);
    const int64_t columns = kernel_columns(model), local_sv = widen_clusters ? columns : 0;
    const int64_t local_rows = widen_clusters ? rows : 0;
    WorkspacePlan plan;
    const int64_t widened = widened_columns(model, data), raw = widened > 0 ? data.d : 0;
    plan.add<double>(size_t(rows * raw)).add<double>(size_t(rows * widened));
    plan.add<double>(size_t(rows * columns)).add<double>(size_t(rows * model.decision_values()));
    plan.add<int32_t>(size_t(rows)).add<int64_t>(size_t(rows)).add<int64_t>(size_t(rows));
    plan.add<double>(size_t(local_rows * model.d)).add<double>(size_t(local_sv * model.d));
    plan.add_bytes(std::max({global_kernel_bytes(model, data, rows), routing_workspace_bytes(model, rows, threads),
                             partition_bytes, cluster_kernel_bytes(model, data, rows)}));
    return plan;
}

BlockBuffers carve(Arena &arena, const Model &model, const Dataset &data, int64_t rows) {
    const bool widen_clusters = model.early() && !rows_in_place(model, data);
    const int64_t columns = kernel_columns(model), local_sv = widen_clusters ? columns : 0;
    const int64_t local_rows = widen_clusters ? rows : 0;
    const int64_t widened = widened_columns(model, data), raw = widened > 0 ? data.d : 0;
    BlockBuffers b;
    b.raw = arena.alloc<double>(size_t(rows * raw));
    b.x = arena.alloc<double>(size_t(rows * widened));
    b.kernel = arena.alloc<double>(size_t(rows * columns));
    b.values = arena.alloc<double>(size_t(rows * model.decision_values()));
    b.cluster_of = arena.alloc<int32_t>(size_t(rows));
    b.order = arena.alloc<int64_t>(size_t(rows));
    b.data_rows = arena.alloc<int64_t>(size_t(rows));
    b.cluster_x = arena.alloc<double>(size_t(local_rows * model.d));
    b.cluster_sv = arena.alloc<double>(size_t(local_sv * model.d));
    return b;
}

// Rows [begin, end) of data as model.d dense columns (zeros past data.d).
void load_rows(const Dataset &data, int64_t begin, int64_t end, int64_t d, BlockBuffers &b) {
    if (data.d == d) {
        data.copy_rows(begin, end, b.x);
        return;
    }
    data.copy_rows(begin, end, b.raw);
    const int64_t rows = end - begin;
    std::fill(b.x, b.x + rows * d, 0.0);
    for (int64_t i = 0; i < rows; ++i) std::memcpy(b.x + i * d, b.raw + i * data.d, sizeof(double) * size_t(data.d));
}

// Σ_j coef_j K_j + b over coefficients [begin, end), K indexed by `column`.
template <class Column>
double weighted_sum(const BinaryMachine &machine, const double *kernel_row, int64_t begin, int64_t end, Column column) {
    double sum = machine.bias;
    for (int64_t j = begin; j < end; ++j) sum += machine.coef[size_t(j)] * kernel_row[column(j)];
    return sum;
}

// Global machines: kernel rows against every support vector are in b.kernel;
// each row's values for every machine on one thread (one parallel loop per
// block, not per machine: a 400-class one-vs-one model has 79800 machines).
void global_machine_values(const Model &model, int64_t rows, int threads, BlockBuffers &b) {
    const int64_t columns = kernel_columns(model), stride = model.decision_values();
    double coefficients = 0;
    for (const BinaryMachine &machine : model.machines) coefficients += double(machine.coef.size());
    parallel_for(rows, threads_for_work(threads, 2.0 * double(rows) * coefficients), [&](int64_t i) {
        for (size_t m = 0; m < model.machines.size(); ++m) {
            const BinaryMachine &machine = model.machines[m];
            b.values[i * stride + int64_t(m)] =
                weighted_sum(machine, b.kernel + i * columns, 0, int64_t(machine.coef.size()),
                             [&](int64_t j) { return machine.sv[size_t(j)]; });
        }
    });
}

// Point p of the model as d dense values.
void copy_point(const Model &model, int64_t p, double *out) {
    const int64_t d = model.d;
    if (!model.sparse_points()) {
        std::memcpy(out, model.points.data() + p * d, sizeof(double) * size_t(d));
        return;
    }
    std::fill(out, out + d, 0.0);
    for (int64_t e = model.point_row_ptr[size_t(p)]; e < model.point_row_ptr[size_t(p) + 1]; ++e)
        out[model.point_col[size_t(e)]] = model.points[size_t(e)];
}

// The block's rows as they are (rows_in_place): the data with the model's
// columns, the block's first row in it, the model's points; rows == nullptr:
// the block is widened into b.x.
struct RowsInPlace {
    const Dataset *rows = nullptr;
    int64_t first = 0;
    const Dataset *points = nullptr;
};

// The rows of one cluster (order[0..count)) against its support vectors.
void cluster_values(const Model &model, size_t m, int32_t cluster, const int64_t *order, int64_t count,
                    const RowsInPlace &in_place, Arena &arena, int threads, BlockBuffers &b) {
    const BinaryMachine &machine = model.machines[m];
    const int64_t begin = machine.local.cluster_begin[size_t(cluster)];
    const int64_t sv = machine.local.cluster_begin[size_t(cluster) + 1] - begin;
    const int64_t d = model.d, stride = model.decision_values();
    if (in_place.rows) {  // the data's rows and the points by number, on their nonzeros
        for (int64_t i = 0; i < count; ++i) b.data_rows[i] = in_place.first + order[i];
        sparse_kernel_block_listed(model.kernel, *in_place.rows, b.data_rows, count, *in_place.points,
                                   machine.sv.data() + begin, sv, b.kernel, sv, arena, threads);
    } else {
        for (int64_t i = 0; i < count; ++i)
            std::memcpy(b.cluster_x + i * d, b.x + order[i] * d, sizeof(double) * size_t(d));
        for (int64_t j = 0; j < sv; ++j) copy_point(model, machine.sv[size_t(begin + j)], b.cluster_sv + j * d);
        if (sv > 0)
            kernel_block(model.kernel, b.cluster_x, count, d, b.cluster_sv, sv, d, d, b.kernel, sv, arena, threads);
    }
    const double cluster_bias = machine.local.cluster_bias.empty() ? 0.0 : machine.local.cluster_bias[size_t(cluster)];
    for (int64_t i = 0; i < count; ++i)
        b.values[order[i] * stride + int64_t(m)] =
            cluster_bias +
            weighted_sum(machine, b.kernel + i * sv, begin, begin + sv, [&](int64_t j) { return j - begin; });
}

// About the flops of an early machine on a block of `rows` rows: kernel
// values against its partition's sample (or distances to the routes), then
// against its nearest cluster's support vectors (the largest's, at most).
double early_machine_flops(const Model &model, size_t m, int64_t rows) {
    const MachinePartition &local = model.machines[m].local;
    const double routing = local.partition.k > 0 ? double(local.partition.sample_rows.size()) : double(model.routes);
    int64_t largest = 0;
    for (int64_t c = 0; c < local.clusters(); ++c)
        largest = std::max(largest, local.cluster_begin[size_t(c) + 1] - local.cluster_begin[size_t(c)]);
    return 2.0 * double(rows) * double(model.d) * (routing + double(largest));
}

// Kernel values of rows [begin, end) against every support vector into
// b.kernel: the widened rows in b.x against dense points by one
// kernel_block; against sparse points from the rows as they are
// (rows_in_place) or from b.x.
void global_kernel_values(Context &ctx, const Model &model, const Dataset &columns, int64_t begin, int64_t end,
                          const Dataset &points, Arena &arena, BlockBuffers &b) {
    const int64_t sv = model.support_vectors, rows = end - begin;
    if (!model.sparse_points())
        return kernel_block(model.kernel, b.x, rows, model.d, model.points.data(), sv, model.point_columns(), model.d,
                            b.kernel, sv, arena, ctx.threads);
    if (rows_in_place(model, columns))
        return kernel_block_rows(model.kernel, columns, begin, end, points, 0, sv, b.kernel, sv, arena, ctx.threads);
    const std::unique_ptr<Dataset> widened = Dataset::dense_borrow(b.x, rows, model.d, nullptr);
    kernel_block_rows(model.kernel, *widened, 0, rows, points, 0, sv, b.kernel, sv, arena, ctx.threads);
}

// An early machine: each row uses only its nearest cluster's coefficients,
// so only those kernel values are computed, cluster by cluster.
void local_machine_values(Context &ctx, const Model &model, const Dataset &points, size_t m, int64_t rows,
                          const RowsInPlace &in_place, Arena &arena, BlockBuffers &b) {
    const BinaryMachine &machine = model.machines[m];
    const std::unique_ptr<Dataset> block =
        in_place.rows ? std::make_unique<Dataset>(in_place.rows->row_range(in_place.first, in_place.first + rows))
                      : Dataset::dense_borrow(b.x, rows, model.d, nullptr);
    if (machine.local.partition.k > 0)
        kernel_partition_assign(ctx, arena, points, machine.local.partition, *block, nullptr, rows, model.kernel,
                                b.cluster_of);
    else
        kmeans_assign(ctx, arena, *block, model.route_centers.data(), model.routes, b.cluster_of, nullptr);
    for (int64_t i = 0; i < rows; ++i) b.order[i] = i;
    std::sort(b.order, b.order + rows, [&](int64_t p, int64_t q) {
        return b.cluster_of[p] != b.cluster_of[q] ? b.cluster_of[p] < b.cluster_of[q] : p < q;
    });
    for (int64_t first = 0; first < rows;) {
        int64_t last = first;
        while (last < rows && b.cluster_of[b.order[last]] == b.cluster_of[b.order[first]]) ++last;
        cluster_values(model, m, b.cluster_of[b.order[first]], b.order + first, last - first, in_place, arena,
                       ctx.threads, b);
        first = last;
    }
}

}  // namespace

size_t prediction_block_bytes(const Model &model, const Dataset &data, int64_t rows, int threads) {
    const std::unique_ptr<Dataset> points = model.points_dataset();
    const size_t partition_bytes = model.early() ? partition_workspace_bytes(model, *points, data) : 0;
    return block_plan(model, data, rows, threads, partition_bytes).bytes();
}

PredictionBlock prediction_block(const Context &ctx, const Model &model, const Dataset &data) {
    auto bytes = [&](int64_t rows) { return prediction_block_bytes(model, data, rows, ctx.threads); };
    const size_t left = ctx.left_bytes();
    PredictionBlock block{largest_block(data.n, kernel_columns(model) + model.decision_values()), 0};
    block.bytes = bytes(block.rows);
    if (block.bytes <= left) return block;
    const size_t one_row = bytes(1);
    if (one_row > left)
        fail(KMX_E_OUT_OF_MEMORY,
             "prediction needs %s for a block of one row (%lld kernel values, %lld decision values) but the "
             "memory budget allows %s (memory_budget = %s, %s already reserved)",
             bytes_text(double(one_row)).text, (long long)kernel_columns(model), (long long)model.decision_values(),
             bytes_text(double(left)).text, bytes_text(double(ctx.memory_budget)).text,
             bytes_text(double(ctx.reserved_bytes())).text);
    int64_t fits = 1, over = block.rows;  // bytes(fits) <= left < bytes(over)
    while (over - fits > 1) {
        const int64_t middle = fits + (over - fits) / 2;
        (bytes(middle) <= left ? fits : over) = middle;
    }
    return {fits, bytes(fits)};
}

namespace {

// Calls consume(begin, end, values) with the decision values of each block of
// rows, the blocks as large as the budget allows (prediction_block).
void for_each_block(Context &ctx, const Model &model, const Dataset &data,
                    const std::function<void(int64_t, int64_t, const double *)> &consume) {
    check_columns(data, model.d, "model");
    const PredictionBlock size = prediction_block(ctx, model, data);
    const int64_t rows = size.rows;
    Arena arena = ctx.reserve(size.bytes, "prediction workspace");
    BlockBuffers b = carve(arena, model, data, rows);
    const std::unique_ptr<Dataset> points = model.points_dataset();
    Dataset columns = data.view();  // CSR rows: as many columns as the model (absent ones are zeros)
    if (data.sparse()) columns.d = model.d;
    const int64_t blocks = (data.n + rows - 1) / rows;
    for (int64_t block = 0; block < blocks; ++block) {
        ctx.progress(double(block) / double(blocks), "predicting");
        const int64_t begin = block * rows, end = std::min(data.n, begin + rows);
        if (widened_columns(model, data) > 0) load_rows(data, begin, end, model.d, b);
        if (!model.early() && model.support_vectors > 0)
            global_kernel_values(ctx, model, columns, begin, end, *points, arena, b);
        if (!model.early()) {
            global_machine_values(model, end - begin, ctx.threads, b);
        } else {
            // Each machine's routing and kernel values are small loops: more
            // threads only for the work to keep them (parallel.h).
            StepContext step(ctx, block, blocks);
            const RowsInPlace in_place =
                rows_in_place(model, data) ? RowsInPlace{&columns, begin, points.get()} : RowsInPlace{};
            for (size_t m = 0; m < model.machines.size(); ++m) {
                step->threads = threads_for_work(ctx.threads, early_machine_flops(model, m, end - begin));
                local_machine_values(*step, model, *points, m, end - begin, in_place, arena, b);
            }
        }
        consume(begin, end, b.values);
    }
}

}  // namespace

namespace {

// The rows as CSR points, within ctx's budget.
void store_sparse_points(Context &ctx, const Dataset &data, const std::vector<int64_t> &rows, Model &model) {
    KeptRows kept;
    kept.gather_csr(ctx, data, rows.data(), int64_t(rows.size()), "the model's support vectors");
    model.points = std::move(kept.values);
    model.point_row_ptr = std::move(kept.row_ptr);
    model.point_col = std::move(kept.col);
}

}  // namespace

void store_points(Context &ctx, const Dataset &data, const std::vector<int64_t> &rows, Model &model) {
    const int64_t columns = model.point_columns();
    model.n_points = int64_t(rows.size());
    model.point_row_ptr.clear();
    model.point_col.clear();
    if (model.kernel.on_features() && sparse_kernel_rows(data)) return store_sparse_points(ctx, data, rows, model);
    ctx.check_budget(size_t(model.n_points * columns) * sizeof(double), "the model's support vectors");
    model.points.resize(size_t(model.n_points * columns));
    for (size_t p = 0; p < rows.size(); ++p) {
        if (columns < data.d)  // a precomputed kernel's point: the row's serial number, column 0
            model.points[p] = data.at(rows[p], 0);
        else
            data.copy_rows(rows[p], rows[p] + 1, model.points.data() + p * size_t(columns));
    }
}

std::unique_ptr<Dataset> Model::points_dataset() const {
    if (sparse_points())
        return Dataset::csr_borrow(n_points, d, point_row_ptr.data(), point_col.data(), points.data(), nullptr);
    return Dataset::dense_borrow(points.data(), n_points, point_columns(), nullptr);
}

std::vector<double> Model::dense_points(Context &ctx, const char *what) const {
    const int64_t columns = point_columns();
    ctx.check_budget(size_t(n_points) * size_t(columns) * sizeof(double), what);
    if (!sparse_points()) return points;
    std::vector<double> dense(size_t(n_points) * size_t(columns));
    for (int64_t p = 0; p < n_points; ++p) copy_point(*this, p, dense.data() + p * columns);
    return dense;
}

bool Model::early() const {
    for (const BinaryMachine &machine : machines)
        if (!machine.local.empty()) return true;
    return false;
}

namespace {
template <class T>
size_t vector_bytes(const std::vector<T> &v) {
    return v.size() * sizeof(T);
}

size_t machine_bytes(const BinaryMachine &m) {
    const KernelPartition &p = m.local.partition;
    return sizeof m + vector_bytes(m.sv) + vector_bytes(m.coef) + vector_bytes(p.sample_rows) +
           vector_bytes(p.sample_cluster) + vector_bytes(p.cluster_self) + vector_bytes(p.cluster_size) +
           vector_bytes(m.local.cluster_begin) + vector_bytes(m.local.cluster_bias);
}
}  // namespace

size_t Model::memory_bytes() const {
    size_t bytes = sizeof *this + vector_bytes(classes) + vector_bytes(points) + vector_bytes(point_row_ptr) +
                   vector_bytes(point_col) + vector_bytes(route_centers) + vector_bytes(sigmoids) +
                   vector_bytes(machines) - machines.size() * sizeof(BinaryMachine);
    for (const std::string &name : class_names) bytes += sizeof name + name.size();
    for (const BinaryMachine &machine : machines) bytes += machine_bytes(machine);
    return bytes;
}

const char *class_names_problem(const std::vector<std::string> &names, size_t classes) {
    if (names.size() != classes) return "one name per class is needed";
    for (const std::string &name : names) {
        if (name.empty() || name.size() > kMaxClassNameBytes) return "a class name must have 1 to 255 bytes";
        for (unsigned char c : name)
            if (c < 0x20 || c == 0x7f) return "a class name holds a control character";
    }
    std::vector<std::string> sorted = names;
    std::sort(sorted.begin(), sorted.end());
    if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) return "two classes have the same name";
    return nullptr;
}

int64_t machines_for(int64_t classes, kmx_multiclass mode) {
    if (classes <= 2) return 1;
    return mode == KMX_MULTICLASS_OVR ? classes : classes * (classes - 1) / 2;
}

int64_t class_from_decision_values(const Model &model, const double *values) {
    const int64_t classes = int64_t(model.classes.size());
    if (model.multiclass == KMX_MULTICLASS_OVR && model.machines.size() > 1) {
        int64_t best = 0;
        for (int64_t c = 1; c < classes; ++c)
            if (values[c] > values[best]) best = c;
        return best;
    }
    int64_t votes[256];
    std::vector<int64_t> many;
    int64_t *count = votes;
    if (classes > 256) {
        many.assign(size_t(classes), 0);
        count = many.data();
    } else {
        std::fill(votes, votes + classes, 0);
    }
    for (size_t m = 0; m < model.machines.size(); ++m) {
        const BinaryMachine &machine = model.machines[m];
        ++count[values[m] > 0 ? machine.positive : machine.negative];
    }
    return std::max_element(count, count + classes) - count;  // first maximum: the smaller class index
}

void model_decision_values(Context &ctx, const Model &model, const Dataset &data, double *out) {
    const int64_t stride = model.decision_values();
    for_each_block(ctx, model, data, [&](int64_t begin, int64_t end, const double *values) {
        std::copy(values, values + (end - begin) * stride, out + begin * stride);
    });
}

void model_predict(Context &ctx, const Model &model, const Dataset &data, double *out) {
    const int64_t stride = model.decision_values();
    for_each_block(ctx, model, data, [&](int64_t begin, int64_t end, const double *values) {
        for (int64_t i = begin; i < end; ++i)
            out[i] = model.regression()
                         ? values[(i - begin) * stride]
                         : model.classes[size_t(class_from_decision_values(model, values + (i - begin) * stride))];
    });
}

}  // namespace kmx
