// nystrom_tron.cpp — the Nyström-TRON trainer (see nystrom_tron.h): labels
// and sizes agreed over the ranks, the workspace checked against the budget,
// then per stage: grow the basis (k-means moves only the new points), grow
// W and C by the new columns, and run TRON per output from the last stage's
// β padded with zeros.
#include "nystrom_tron.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "approx/approx_defaults.h"
#include "core/bytes_text.h"
#include "core/context.h"
#include "core/dataset.h"
#include "core/error.h"
#include "core/scratch_carver.h"
#include "krr/expansion_model.h"
#include "krr/train_krr.h"
#include "rank_basis.h"

namespace kmx {

namespace {

constexpr int64_t kAutoMaxCenters = 8192;  // W = m² doubles: 512 MB
constexpr size_t kCacheHeadroom = size_t(1) << 20;

// Runs `phase` on this rank, then every rank agrees: a kmx::Error on any
// rank is thrown on all of them (the lowest failing rank's).
template <class Phase>
void agreed(const Communicator &comm, Phase &&phase) {
    kmx_status status = KMX_OK;
    char message[480] = "";
    try {
        phase();
    } catch (const Error &e) {
        status = e.status();
        std::snprintf(message, sizeof message, "%s", e.what());
    } catch (const std::bad_alloc &) {
        status = KMX_E_OUT_OF_MEMORY;
        std::snprintf(message, sizeof message, "Nystrom-TRON: out of memory");
    }
    comm.agree(status, message);
}

// ------------------------------------------------------------ labels

struct LabelFacts {
    bool whole = true;       // every label a whole number
    int64_t most_local = 0;  // the most distinct labels on one rank
};

std::vector<double> distinct_labels(const Dataset &data) {
    std::vector<double> labels(data.y, data.y + data.n);
    std::sort(labels.begin(), labels.end());
    labels.erase(std::unique(labels.begin(), labels.end()), labels.end());
    return labels;
}

// The union over ranks of each rank's distinct labels, increasing: slot r of
// a zero-padded buffer holds rank r's labels (and a presence flag each).
std::vector<double> label_union(const Communicator &comm, const std::vector<double> &local, int64_t width) {
    const int64_t slot = 2 * width;
    std::vector<double> buffer(size_t(slot * comm.size()), 0.0);
    for (size_t i = 0; i < local.size(); ++i) {
        buffer[size_t(comm.rank() * slot) + 2 * i] = local[i];
        buffer[size_t(comm.rank() * slot) + 2 * i + 1] = 1;
    }
    comm.sum(buffer.data(), int64_t(buffer.size()));
    std::vector<double> all;
    for (size_t i = 0; i < buffer.size(); i += 2)
        if (buffer[i + 1] != 0) all.push_back(buffer[i]);
    std::sort(all.begin(), all.end());
    all.erase(std::unique(all.begin(), all.end()), all.end());
    return all;
}

// The task and (classification) the class labels, the same on every rank.
KrrTargets global_targets(const Communicator &comm, const Dataset &data, kmx_task task) {
    const std::vector<double> local = distinct_labels(data);
    double facts[2] = {0, double(local.size())};  // [a label is not whole, distinct labels]
    for (double v : local) facts[0] = std::max(facts[0], v != std::floor(v) ? 1.0 : 0.0);
    comm.max(facts, 2);
    KrrTargets targets;
    const bool regression = task == KMX_TASK_REGRESSION ||
                            (task == KMX_TASK_AUTO && (facts[0] != 0 || facts[1] > double(kAutoTaskMaxClasses)));
    if (regression) return targets;
    targets.task = KrrTask::classification;
    targets.classes = label_union(comm, local, int64_t(facts[1]));
    if (targets.classes.size() < 2)
        fail(KMX_E_INVALID_ARGUMENT, "Nystrom-TRON: classification needs at least 2 classes, the data has %zu",
             targets.classes.size());
    targets.outputs = targets.classes.size() == 2 ? 1 : int64_t(targets.classes.size());
    return targets;
}

TronLoss resolve_loss(kmx_loss loss, const KrrTargets &targets) {
    const bool classification = targets.task == KrrTask::classification;
    switch (loss) {
        case KMX_LOSS_SQUARED_HINGE:
        case KMX_LOSS_LOGISTIC:
            if (!classification)
                fail(KMX_E_INVALID_ARGUMENT,
                     "Nystrom-TRON: the %s loss needs classification labels; regression takes loss=squared",
                     loss == KMX_LOSS_LOGISTIC ? "logistic" : "squared hinge");
            return loss == KMX_LOSS_LOGISTIC ? TronLoss::logistic : TronLoss::squared_hinge;
        case KMX_LOSS_SQUARED:
            return TronLoss::squared;
        default:
            return classification ? TronLoss::squared_hinge : TronLoss::squared;
    }
}

// ------------------------------------------------------------ checks

void check_options(const NystromTronOptions &o) {
    if (!(o.C > 0) || !std::isfinite(o.C))
        fail(KMX_E_INVALID_ARGUMENT, "Nystrom-TRON: C = %g must be positive and finite", o.C);
    require(o.centers >= 0, "Nystrom-TRON: centers must be >= 0 (0 = auto)");
    require(o.stages >= 1 && o.stages <= 30, "Nystrom-TRON: stages must be in [1, 30]");
    require(o.kmeans_iterations >= 0, "Nystrom-TRON: k-means iterations must be >= 0");
    require(o.tron.tolerance > 0 && o.tron.tolerance < 1, "Nystrom-TRON: the tolerance (eps) must be in (0, 1)");
    require(o.tron.max_iterations >= 1, "Nystrom-TRON: newton_iterations must be >= 1");
    require(o.loss >= KMX_LOSS_AUTO && o.loss <= KMX_LOSS_SQUARED, "Nystrom-TRON: unknown loss");
    for (const auto &cw : o.class_weights)
        if (!(cw.second > 0) || !std::isfinite(cw.second))
            fail(KMX_E_INVALID_ARGUMENT, "Nystrom-TRON: class weight %g for label %g must be positive and finite",
                 cw.second, cw.first);
}

void check_local_data(const Dataset &data) {
    if (!data.y) fail(KMX_E_INVALID_ARGUMENT, "Nystrom-TRON: the training data has no labels or targets");
    require(data.d >= 1, "Nystrom-TRON: the dataset has no columns");
    check_finite(data.y, data.n, 1, "labels");
    check_finite_dataset(data, "features");
    if (data.w) check_finite(data.w, data.n, 1, "sample weights");
}

// Every rank's d must be the same (the basis rows are d wide everywhere).
void check_same_width(const Communicator &comm, int64_t d) {
    double widths[2] = {double(d), -double(d)};
    comm.max(widths, 2);
    if (widths[0] != -widths[1])
        fail(KMX_E_INVALID_ARGUMENT, "Nystrom-TRON: the ranks' shards have different column counts (%g to %g)",
             -widths[1], widths[0]);
}

std::vector<int64_t> stage_sizes(int64_t m, int stages) {
    std::vector<int64_t> sizes;
    for (int s = stages - 1; s >= 0; --s) {
        const int64_t size = std::max<int64_t>(1, int64_t(std::ceil(double(m) / std::ldexp(1.0, s))));
        if (sizes.empty() || size > sizes.back()) sizes.push_back(size);
    }
    return sizes;
}

// ------------------------------------------------------------ workspace

// This rank's arrays: W, the labels of the output being trained and the
// costs, each row's class, the objective's row scratch; carved by the same
// code that sizes them.
struct Workspace {
    double *gram;      // capacity x capacity
    double *y, *cost;  // n each
    int32_t *row_class;
    double *objective_rows;
};

Workspace carve_workspace(cluster::ScratchCarver &c, int64_t n, int64_t capacity) {
    Workspace w{};
    w.gram = c.take<double>(size_t(capacity * capacity));
    w.y = c.take<double>(size_t(n));
    w.cost = c.take<double>(size_t(n));
    w.row_class = c.take<int32_t>(size_t(n));
    w.objective_rows = c.take<double>(size_t(NystromObjective::row_scratch_values(n)));
    return w;
}

// basis: the final basis's shape (a dense one's values need not be set yet)
// or, CSR, its rows (held outside the workspace).
size_t workspace_bytes(const KernelSpec &kernel, const Dataset &data, const Dataset &basis, TronBasis method) {
    cluster::ScratchCarver carver;
    carve_workspace(carver, data.n, basis.n);
    WorkspacePlan plan;
    plan.add_bytes(carver.bytes());
    if (!basis.sparse()) plan.add<double>(size_t(basis.n * data.d));     // the basis points
    plan.add_bytes(BasisColumns::workspace_bytes(kernel, data, basis));  // held while k-means runs
    if (method == TronBasis::kmeans) plan.add_bytes(kmeans_basis_workspace_bytes(data, basis.n));
    return plan.bytes();
}

// C (n x capacity doubles) kept when it fits what the budget leaves (and
// options.cache_bytes, if nonzero); all of it or none.
bool cache_fits(const Context &ctx, int64_t n, int64_t capacity, size_t cap_bytes) {
    const size_t bytes = size_t(n) * size_t(capacity) * sizeof(double);
    const size_t limit = std::min(ctx.memory_budget, machine_memory_budget());
    const size_t used = ctx.reserved_bytes() + kCacheHeadroom;
    return limit > used && bytes <= limit - used && (cap_bytes == 0 || bytes <= cap_bytes);
}

// ------------------------------------------------------------ basis

// The basis points: capacity x d dense values in the workspace, or (uniform
// points of wide sparse data) CSR rows; `view` is either as a dataset.
struct Basis {
    double *dense = nullptr;
    KeptRows csr;
    std::unique_ptr<Dataset> view;
};

// Whether every rank's rows stay sparse in kernel blocks (sparse_kernel_rows;
// a rank without rows abstains), for a kernel of feature vectors. Collective.
bool rows_stay_sparse(const Communicator &comm, const KernelSpec &kernel, const Dataset &data) {
    double votes[2] = {data.n > 0 && !sparse_kernel_rows(data) ? 1.0 : 0.0, sparse_kernel_rows(data) ? 1.0 : 0.0};
    comm.max(votes, 2);
    return kernel.on_features() && votes[0] == 0 && votes[1] == 1;
}

// The uniform basis rows of sparse shards as CSR, the same on every rank,
// charged to ctx's budget (the rows and the largest broadcast) first.
void gather_csr_basis(Context &ctx, const Dataset &data, const RankRows &where, const std::vector<int64_t> &rows,
                      Basis &basis) {
    const GlobalCsrRows located = locate_global_csr_rows(ctx.comm, data, where, rows.data(), int64_t(rows.size()));
    const size_t message = located.largest_message_bytes();
    agreed(ctx.comm, [&] { ctx.check_budget(located.rows_bytes() + message, "the Nystrom-TRON basis (CSR rows)"); });
    gather_global_csr_rows(ctx.comm, data, where, rows.data(), located, basis.csr);
    ctx.release(message);  // the messages are gone; the rows stay charged
    basis.view = basis.csr.view(int64_t(rows.size()), data.d);
}

// k-means centers are means of rows: m x d dense values whatever the data.
// On rows that stay sparse they are refused unless the workspace with them
// takes at most a quarter of the budget (at 10⁷ columns, one center is 80 MB).
void check_dense_centers_fit(const Context &ctx, int64_t m, int64_t d, size_t workspace) {
    const size_t limit = std::min(ctx.memory_budget, machine_memory_budget());
    if (workspace <= limit / 4) return;
    fail(KMX_E_INVALID_ARGUMENT,
         "Nystrom-TRON: k-means centers are dense (m x d = %lld x %lld values: %s with their scratch, over a quarter "
         "of the memory budget of %s) and these rows stay sparse; use the uniform basis (center_method = uniform, "
         "kmx train --centers uniform) for wide sparse data",
         (long long)m, (long long)d, bytes_text(double(workspace)).text, bytes_text(double(limit)).text);
}

// ------------------------------------------------------------ targets

// Row classes (classification) and costs c_i = C · class weight · sample weight.
void fill_rows(const Dataset &data, const KrrTargets &targets, const NystromTronOptions &o, Workspace &w) {
    TrainOptions weights;  // TrainOptions::class_weight is the one lookup of a class's weight
    weights.class_weights = o.class_weights;
    for (int64_t i = 0; i < data.n; ++i) {
        const double label = data.y[i];
        w.row_class[i] = 0;
        if (targets.task == KrrTask::classification)
            w.row_class[i] = int32_t(std::lower_bound(targets.classes.begin(), targets.classes.end(), label) -
                                     targets.classes.begin());
        w.cost[i] = o.C * weights.class_weight(label) * (data.w ? data.w[i] : 1.0);
    }
}

// y for output k: ±1 (class k, or the larger of two classes, is +1), or the targets.
void fill_output_labels(const Dataset &data, const KrrTargets &targets, int64_t k, Workspace &w) {
    const int32_t positive = targets.outputs == 1 ? 1 : int32_t(k);
    for (int64_t i = 0; i < data.n; ++i)
        w.y[i] = targets.task == KrrTask::regression ? data.y[i] : (w.row_class[i] == positive ? 1.0 : -1.0);
}

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int64_t auto_tron_centers(int64_t n) { return std::min(auto_centers(n), kAutoMaxCenters); }

NystromTronFit nystrom_tron_fit(Context &ctx, const KernelSpec &kernel_in, const Dataset &data,
                                const NystromTronOptions &options, NystromTronStats *stats_out) {
    const Communicator &comm = ctx.comm;
    NystromTronFit fit;
    RankRows where;
    int64_t m = 0;
    // Phase 1: options, this rank's data, the sizes and labels over every rank.
    agreed(comm, [&] {
        check_options(options);
        check_local_data(data);
    });
    agreed(comm, [&] { check_same_width(comm, data.d); });
    where = rank_rows(comm, data.n);
    agreed(comm, [&] {
        if (where.total < 1) fail(KMX_E_INVALID_ARGUMENT, "Nystrom-TRON: the training data has no rows");
        m = options.centers > 0 ? options.centers : auto_tron_centers(where.total);
        if (m > where.total)
            fail(KMX_E_INVALID_ARGUMENT, "Nystrom-TRON: centers m = %lld must be at most n = %lld", (long long)m,
                 (long long)where.total);
    });
    agreed(comm, [&] {
        fit.targets = global_targets(comm, data, options.task);
        fit.loss = resolve_loss(options.loss, fit.targets);
    });
    KernelSpec kernel = kernel_in;
    kernel.gamma = kernel_in.gamma_for(data.d);

    // Phase 2: the basis rows when they are CSR (uniform points of wide
    // sparse data: gathered first, their nonzeros size the kernel's scratch),
    // the workspace from the budget, and C's cache if it fits.
    const bool sparse_rows = rows_stay_sparse(comm, kernel, data);
    const std::vector<int64_t> rows = basis_row_order(ctx.seed, where.total, m);
    Basis basis;
    double shape = 0;
    if (sparse_rows && options.basis == TronBasis::uniform)
        gather_csr_basis(ctx, data, where, rows, basis);
    else
        basis.view = Dataset::dense_borrow(&shape, m, data.d, nullptr);  // values come after the reservation
    const size_t workspace = workspace_bytes(kernel, data, *basis.view, options.basis);
    Arena arena, cache_arena;
    agreed(comm, [&] {
        if (sparse_rows && options.basis == TronBasis::kmeans) check_dense_centers_fit(ctx, m, data.d, workspace);
        arena = ctx.reserve(workspace, "Nystrom-TRON workspace");
        if (cache_fits(ctx, data.n, m, options.cache_bytes))
            cache_arena = ctx.reserve(size_t(data.n) * size_t(m) * sizeof(double), "Nystrom-TRON kernel columns C");
    });
    cluster::ScratchCarver carver(arena);
    Workspace w = carve_workspace(carver, data.n, m);
    if (!basis.csr.sparse()) {
        basis.dense = arena.alloc<double>(size_t(m * data.d));
        basis.view = Dataset::dense_borrow(basis.dense, m, data.d, nullptr);
    }
    double *cache = cache_arena.capacity() > 0 ? cache_arena.alloc<double>(size_t(data.n * m)) : nullptr;
    NystromTronStats stats;
    stats.m = m;
    stats.columns_cached = cache != nullptr || data.n == 0;
    stats.workspace_bytes = arena.capacity() + cache_arena.capacity();
    ctx.log(KMX_LOG_INFO, "Nystrom-TRON: m = %lld, basis %s, C (%.0f MB) %s", (long long)m,
            basis.csr.sparse() ? "CSR rows" : "dense", double(data.n) * double(m) * 8 / 1048576.0,
            cache ? "cached" : "recomputed on every pass");

    // Phase 3: the dense basis rows (every rank the same), then the stages.
    if (basis.dense) gather_global_rows(comm, data, where, rows.data(), m, basis.dense);
    fill_rows(data, fit.targets, options, w);
    BasisColumns columns(kernel, data, *basis.view, w.gram, cache, arena, ctx.threads);
    const int64_t outputs = fit.targets.outputs;
    std::vector<std::vector<double>> beta(static_cast<size_t>(outputs));
    for (int64_t stage_m : stage_sizes(m, options.stages)) {
        if (options.basis == TronBasis::kmeans)
            refine_basis_kmeans(ctx, data, where.total, basis.dense, columns.m(), stage_m, options.kmeans_iterations,
                                arena);
        const auto columns_start = std::chrono::steady_clock::now();
        columns.grow(stage_m);
        const double columns_seconds = seconds_since(columns_start);
        const auto tron_start = std::chrono::steady_clock::now();
        const int64_t reduced_before = comm.reduced_bytes();
        int newton = 0, cg = 0;
        double objective = 0;
        for (int64_t k = 0; k < outputs; ++k) {
            fill_output_labels(data, fit.targets, k, w);
            NystromObjective f(comm, columns, fit.loss, w.y, w.cost, w.objective_rows, options.tron.precondition,
                               ctx.threads, where.total);
            beta[size_t(k)].resize(size_t(stage_m), 0.0);  // warm start: the new entries at 0
            const TronStats run = tron_minimize(f, beta[size_t(k)].data(), options.tron, &ctx);
            newton += run.iterations;
            cg += run.cg_iterations;
            objective += run.value;
            stats.converged = stats.converged && run.converged;
        }
        stats.stage_sizes.push_back(stage_m);
        stats.newton_iterations.push_back(newton);
        stats.cg_iterations.push_back(cg);
        stats.objective.push_back(objective);
        stats.reduced_bytes.push_back(comm.reduced_bytes() - reduced_before);
        ctx.log(KMX_LOG_INFO,
                "Nystrom-TRON: stage m = %lld: %d Newton steps, %d CG steps, objective %.10g, %lld bytes AllReduced; "
                "new columns of C %.2f s, TRON %.2f s",
                (long long)stage_m, newton, cg, objective, (long long)stats.reduced_bytes.back(), columns_seconds,
                seconds_since(tron_start));
    }

    CenterExpansion &e = fit.expansion;
    e.kernel = kernel;
    e.d = data.d;
    e.outputs = outputs;
    e.m = m;
    if (basis.csr.sparse())
        e.sparse_centers = std::move(basis.csr);  // saved as sparse model points
    else
        e.centers.assign(basis.dense, basis.dense + m * data.d);
    e.beta.resize(size_t(m * outputs));
    for (int64_t j = 0; j < m; ++j)
        for (int64_t k = 0; k < outputs; ++k) e.beta[size_t(j * outputs + k)] = beta[size_t(k)][size_t(j)];
    if (stats_out) *stats_out = std::move(stats);
    return fit;
}

Model train_nystrom_tron_model(Context &ctx, const TrainOptions &o, const KernelSpec &kernel, const Dataset &data) {
    const auto start = std::chrono::steady_clock::now();
    NystromTronOptions options;
    options.loss = o.loss;
    options.task = o.task;
    options.C = o.C;
    options.centers = o.centers;
    options.stages = o.stages;
    if (o.center_method == KMX_CENTERS_LEVERAGE)
        fail(KMX_E_INVALID_ARGUMENT, "nystrom_tron: center_method must be uniform or kmeans (leverage is FALKON's)");
    options.basis = o.center_method == KMX_CENTERS_KMEANS ? TronBasis::kmeans : TronBasis::uniform;
    options.tron.tolerance = o.eps;
    options.tron.max_iterations = o.newton_iterations;
    options.tron.precondition = o.precondition;
    options.cache_bytes = o.cache_bytes;
    options.class_weights = o.class_weights;
    NystromTronStats stats;
    const NystromTronFit fit = nystrom_tron_fit(ctx, kernel, data, options, &stats);
    Model model = model_from_expansion(fit.expansion, fit.targets, KMX_METHOD_NYSTROM_TRON, 0);
    model.C = o.C;
    model.stats.iterations = 0;
    for (int it : stats.newton_iterations) model.stats.iterations += it;
    model.stats.objective = stats.objective.empty() ? 0 : stats.objective.back();
    model.stats.seconds = seconds_since(start);
    return model;
}

}  // namespace kmx
