// center_expansion.cpp — f(x) = Σ_j K(x, u_j) β_j for every row of a
// dataset, in row blocks: one kernel block K(X_block, U) (GEMM speed) and one
// GEMM with β per block; with a partition, each row of the block goes to its
// nearest cluster center's expansion.
#include "center_expansion.h"

#include <algorithm>
#include <cmath>

#include "core/context.h"
#include "core/dataset.h"
#include "core/error.h"
#include "linalg/linalg.h"
#include "model.h"

namespace kmx {

namespace {

constexpr int64_t kPredictBlockDoubles = int64_t(1) << 20;  // K(block, U) entries at a time
constexpr int64_t kPredictMaxBlockRows = 2048;

void check_expansion(const CenterExpansion &e) {
    require(e.m >= 1 && e.d >= 1 && e.outputs >= 1, "center expansion: no centers, features or outputs");
    if (e.sparse_centers.sparse())
        require(e.centers.empty() && e.clusters() == 0 && e.sparse_centers.row_ptr.size() == size_t(e.m + 1),
                "center expansion: CSR centers must be the only centers, m of them, without a partition");
    else
        require(e.centers.size() == size_t(e.m * e.d), "center expansion: centers must hold m x d values");
    require(e.beta.size() == size_t(e.m * e.outputs), "center expansion: beta must hold m x outputs values");
    require(e.bias.empty() || e.bias.size() == size_t(e.outputs), "center expansion: bias must hold outputs values");
    const int64_t c = e.clusters();
    if (c == 0) return;
    require(e.cluster_centers.size() == size_t(c * e.d), "center expansion: cluster_centers must hold c x d values");
    require(e.cluster_begin.front() == 0 && e.cluster_begin.back() == e.m,
            "center expansion: cluster offsets must run from 0 to m");
    for (int64_t s = 0; s < c; ++s)
        require(e.cluster_begin[size_t(s)] <= e.cluster_begin[size_t(s + 1)],
                "center expansion: cluster offsets must not decrease");
}

int64_t largest_group(const CenterExpansion &e) {
    if (e.clusters() == 0) return e.m;
    int64_t largest = 1;
    for (int64_t s = 0; s < e.clusters(); ++s)
        largest = std::max(largest, e.cluster_begin[size_t(s + 1)] - e.cluster_begin[size_t(s)]);
    return largest;
}

// Rows [begin, end) of data as dense rows of d >= data.d columns (zero-padded).
void padded_rows(const Dataset &data, int64_t begin, int64_t end, int64_t d, double *out) {
    data.copy_rows(begin, end, out);
    if (data.d == d) return;
    for (int64_t i = end - begin - 1; i >= 0; --i) {
        for (int64_t j = data.d - 1; j >= 0; --j) out[i * d + j] = out[i * data.d + j];
        std::fill(out + i * d + data.d, out + (i + 1) * d, 0.0);
    }
}

struct PredictBuffers {
    double *rows;      // block x d
    double *group;     // block x d: the block's rows of one cluster
    double *kernel;    // block x largest group
    double *outputs;   // block x outputs
    int64_t *members;  // block
};

// out rows `members` (count of them) += K(points, U_[first, last)) β_[first, last).
void expand(Context &ctx, const CenterExpansion &e, const double *points, int64_t count, int64_t first, int64_t last,
            PredictBuffers &b, Arena &scratch) {
    const int64_t m = last - first;
    if (m == 0 || count == 0) return;
    kernel_block(e.kernel, points, count, e.d, e.centers.data() + first * e.d, m, e.d, e.d, b.kernel, m, scratch,
                 ctx.threads);
    linalg::gemm(linalg::Trans::No, linalg::Trans::No, count, e.outputs, m, 1.0, b.kernel, m,
                 e.beta.data() + first * e.outputs, e.outputs, 0.0, b.outputs, e.outputs, ctx.threads);
}

// out (n x outputs) += b.
void add_bias(const CenterExpansion &e, int64_t n, double *out) {
    if (e.bias.empty()) return;
    for (int64_t i = 0; i < n; ++i)
        for (int64_t k = 0; k < e.outputs; ++k) out[i * e.outputs + k] += e.bias[size_t(k)];
}

}  // namespace

int64_t nearest_cluster(const double *x, const double *cluster_centers, int64_t clusters, int64_t d) {
    int64_t best = 0;
    double best_distance = INFINITY;
    for (int64_t s = 0; s < clusters; ++s) {
        const double *center = cluster_centers + s * d;
        double distance = 0;
        for (int64_t j = 0; j < d; ++j) distance += (x[j] - center[j]) * (x[j] - center[j]);
        if (distance < best_distance) {
            best_distance = distance;
            best = s;
        }
    }
    return best;
}

namespace {

// f(x) for CSR centers (one global expansion): sparse rows of data against
// them on their nonzeros, dense rows as they are, in row blocks.
void predict_sparse_centers(Context &ctx, const CenterExpansion &e, const Dataset &data, double *out) {
    const std::unique_ptr<Dataset> centers = e.centers_dataset();
    Dataset rows_of = data.view();
    if (data.sparse()) rows_of.d = e.d;  // absent columns are zeros
    const int64_t block = std::clamp<int64_t>(kPredictBlockDoubles / e.m, 1, kPredictMaxBlockRows);
    const int64_t widened = data.sparse() ? 0 : block * e.d;
    Arena scratch =
        ctx.reserve(WorkspacePlan()
                        .add<double>(size_t(widened))
                        .add<double>(size_t(block * e.m))
                        .add_bytes(kernel_block_rows_workspace_bytes(e.kernel, rows_of, block, *centers, e.m))
                        .bytes(),
                    "predict: kernel blocks");
    double *dense_rows = scratch.alloc<double>(size_t(widened)), *kernel = scratch.alloc<double>(size_t(block * e.m));
    for (int64_t begin = 0; begin < data.n; begin += block) {
        const int64_t rows = std::min(block, data.n - begin);
        if (data.sparse()) {
            kernel_block_rows(e.kernel, rows_of, begin, begin + rows, *centers, 0, e.m, kernel, e.m, scratch,
                              ctx.threads);
        } else {
            padded_rows(data, begin, begin + rows, e.d, dense_rows);
            const std::unique_ptr<Dataset> dense = Dataset::dense_borrow(dense_rows, rows, e.d, nullptr);
            kernel_block_rows(e.kernel, *dense, 0, rows, *centers, 0, e.m, kernel, e.m, scratch, ctx.threads);
        }
        linalg::gemm(linalg::Trans::No, linalg::Trans::No, rows, e.outputs, e.m, 1.0, kernel, e.m, e.beta.data(),
                     e.outputs, 0.0, out + begin * e.outputs, e.outputs, ctx.threads);
        ctx.check_cancel();
    }
    add_bias(e, data.n, out);
}

}  // namespace

void keep_centers(Context &ctx, const Dataset &data, const int64_t *rows, int64_t count, const char *what,
                  CenterExpansion &e) {
    if (e.kernel.on_features() && sparse_kernel_rows(data)) {
        e.centers.clear();
        e.sparse_centers.gather_csr(ctx, data, rows, count, what);
        return;
    }
    ctx.check_budget(size_t(count) * size_t(data.d) * sizeof(double), what);
    e.centers.resize(size_t(count * data.d));
    if (rows)
        gather_rows(data, rows, count, e.centers.data());
    else
        data.copy_rows(0, count, e.centers.data());
}

std::unique_ptr<Dataset> CenterExpansion::centers_dataset() const {
    if (sparse_centers.sparse()) return sparse_centers.view(m, d);
    return Dataset::dense_borrow(centers.data(), m, d, nullptr);
}

void center_expansion_predict(Context &ctx, const CenterExpansion &e, const Dataset &data, double *out) {
    check_expansion(e);
    require(out != nullptr, "center expansion: null output");
    check_columns(data, e.d, "model");
    check_finite_dataset(data, "predict: x");
    if (e.sparse_centers.sparse()) return predict_sparse_centers(ctx, e, data, out);
    const int64_t d = e.d, width = largest_group(e);
    const int64_t block = std::clamp<int64_t>(kPredictBlockDoubles / width, 1, kPredictMaxBlockRows);
    Arena scratch = ctx.reserve(WorkspacePlan()
                                    .add<double>(size_t(block * d))
                                    .add<double>(size_t(block * d))
                                    .add<double>(size_t(block * width))
                                    .add<double>(size_t(block * e.outputs))
                                    .add<int64_t>(size_t(block))
                                    .add_bytes(kernel_block_workspace_bytes(e.kernel, block, width, d))
                                    .bytes(),
                                "predict: kernel blocks");
    PredictBuffers b{scratch.alloc<double>(size_t(block * d)), scratch.alloc<double>(size_t(block * d)),
                     scratch.alloc<double>(size_t(block * width)), scratch.alloc<double>(size_t(block * e.outputs)),
                     scratch.alloc<int64_t>(size_t(block))};
    for (int64_t begin = 0; begin < data.n; begin += block) {
        const int64_t rows = std::min(block, data.n - begin);
        padded_rows(data, begin, begin + rows, d, b.rows);
        if (e.clusters() == 0) {
            expand(ctx, e, b.rows, rows, 0, e.m, b, scratch);
            std::copy_n(b.outputs, rows * e.outputs, out + begin * e.outputs);
            continue;
        }
        std::vector<int64_t> route(static_cast<size_t>(rows));
        for (int64_t i = 0; i < rows; ++i)
            route[size_t(i)] = nearest_cluster(b.rows + i * d, e.cluster_centers.data(), e.clusters(), d);
        for (int64_t s = 0; s < e.clusters(); ++s) {
            int64_t count = 0;
            for (int64_t i = 0; i < rows; ++i)
                if (route[size_t(i)] == s) {
                    std::copy_n(b.rows + i * d, d, b.group + count * d);
                    b.members[count++] = i;
                }
            if (count == 0) continue;
            const int64_t first = e.cluster_begin[size_t(s)], last = e.cluster_begin[size_t(s + 1)];
            std::fill(b.outputs, b.outputs + count * e.outputs, 0.0);
            expand(ctx, e, b.group, count, first, last, b, scratch);
            for (int64_t j = 0; j < count; ++j)
                std::copy_n(b.outputs + j * e.outputs, e.outputs, out + (begin + b.members[j]) * e.outputs);
        }
        ctx.check_cancel();
    }
    add_bias(e, data.n, out);
}

CenterExpansion expansion_of_machines(const Model &model) {
    CenterExpansion e;
    e.kernel = model.kernel;
    e.d = model.d;
    e.m = model.n_points;
    e.outputs = model.decision_values();
    if (model.sparse_points())
        e.sparse_centers = {model.points, model.point_row_ptr, model.point_col};
    else
        e.centers = model.points;
    e.beta.assign(size_t(e.m * e.outputs), 0.0);
    for (int64_t k = 0; k < e.outputs; ++k) {
        const BinaryMachine &machine = model.machines[size_t(k)];
        for (size_t j = 0; j < machine.sv.size(); ++j) e.beta[size_t(machine.sv[j] * e.outputs + k)] += machine.coef[j];
    }
    if (model.has_bias)
        for (const BinaryMachine &machine : model.machines) e.bias.push_back(machine.bias);
    e.cluster_centers = model.route_centers;
    if (model.routes > 0) e.cluster_begin = model.machines[0].local.cluster_begin;
    return e;
}

}  // namespace kmx
