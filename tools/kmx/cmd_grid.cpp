// kmx grid [options] TRAIN_FILE — model selection as LIBSVM's grid.py
// (svm-grid): K-fold cross-validation (kmx_solver_cross_validate) at every
// cell of a grid over log2 C (or log2 λ for the kernel ridge regression
// methods) × log2 γ, then the table, the best cell, and on request the table
// as CSV (--out) and a heat map (--png, drawn by gnuplot as grid.py does).
// Every cell sees the same folds (the context's seed), so cells compare on
// equal terms; the data is read once, and a row of the grid (one gamma)
// trains all its costs per fold on one copy of the fold's rows, the SVM
// methods svm and dcsvm warm started along increasing C
// (kmx_solver_cross_validate_path), sharing the kernel rows the first C
// computed. For those two methods early prediction may screen the grid first
// (--prune M): every cell cross-validated by dcsvm-early on the same folds,
// and the cells whose early accuracy falls more than M points below the best
// one are not trained exactly (the table shows their early accuracy in
// parentheses). The KRR methods keep per fold what does not depend on
// lambda; --num-centers-grid adds the number of centers M of falkon,
// nystrom-krr and nystrom-tron as a third axis: a table per M.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "cli.h"
#include "ranks.h"

namespace kmx_cli {

namespace {

const std::vector<OptionSpec> &grid_options() {
    static const std::vector<OptionSpec> specs = [] {
        std::vector<OptionSpec> own = {
            {nullptr, "--log2c", true,
             "BEGIN,END,STEP of log2 C, as grid.py's -log2c (default -5,15,2); methods with C"},
            {nullptr, "--log2l", true,
             "BEGIN,END,STEP of log2 lambda (default -20,-2,3); the kernel ridge regression methods"},
            {nullptr, "--log2g", true, "BEGIN,END,STEP of log2 gamma, as grid.py's -log2g (default 3,-15,-2)"},
            {nullptr, "--num-centers-grid", true,
             "M1,M2,... numbers of centers to search too (falkon, nystrom-krr, nystrom-tron): a table per M"},
            {nullptr, "--out", true,
             "write the table as CSV: log2 of the cost (or lambda), log2 gamma, the values, "
             "the score, seconds (first the centers M with --num-centers-grid)"},
            {nullptr, "--png", true, "draw the table as a heat map PNG (needs gnuplot, as grid.py)"},
            {nullptr, "--prune", true,
             "POINTS: first screen every cell by early prediction (dcsvm-early at its deepest level, same "
             "folds); cells more than POINTS below the best early accuracy are not trained exactly (-s svm, "
             "dcsvm)"},
        };
        const std::vector<OptionSpec> &train = train_options();
        own.insert(own.end(), train.begin(), train.end());
        return own;
    }();
    return specs;
}

// The comma-separated parts of text ("a,b,,c": "a", "b", "", "c").
std::vector<std::string> comma_parts(const std::string &text) {
    std::vector<std::string> parts;
    for (size_t start = 0;;) {
        const size_t comma = text.find(',', start);
        parts.push_back(text.substr(start, comma - start));
        if (comma == std::string::npos) return parts;
        start = comma + 1;
    }
}

// log2 values BEGIN, BEGIN + STEP, ... up to END (either direction), as grid.py's range.
std::vector<double> log2_range(const ParsedArgs &args, const char *option, const char *fallback) {
    const std::string text = args.get(option, fallback);
    std::vector<double> parts;
    for (const std::string &part : comma_parts(text)) parts.push_back(to_double(part, option));
    if (parts.size() != 3) throw UsageError{std::string(option) + " " + text + ": give BEGIN,END,STEP (e.g. -5,15,2)"};
    const double begin = parts[0], end = parts[1], step = parts[2];
    if (step == 0 || (end - begin) / step < 0 || (end - begin) / step > 1000)
        throw UsageError{std::string(option) + " " + text + ": STEP must go from BEGIN to END in at most 1000 steps"};
    std::vector<double> values;  // BEGIN + i STEP: no rounding piles up along the range
    for (int i = 0; i <= int(std::floor((end - begin) / step + 1e-9)); ++i) values.push_back(begin + i * step);
    return values;
}

// The first axis: C for methods that have it, lambda for the KRR methods.
struct CostAxis {
    kmx_param param;
    const char *name, *option, *fallback, *fixed_option;
};
CostAxis cost_axis(const ParsedArgs &args) {
    if (method_uses(args, KMX_PARAM_C)) return {KMX_PARAM_C, "C", "--log2c", "-5,15,2", "--cost"};
    if (method_uses(args, KMX_PARAM_LAMBDA)) return {KMX_PARAM_LAMBDA, "lambda", "--log2l", "-20,-2,3", "--lambda"};
    throw UsageError{"kmx grid searches C (or lambda) and gamma; -s " + args.get("--solver", "dcsvm") +
                     " has neither C nor lambda"};
}

void check_axes(const ParsedArgs &args, const CostAxis &axis) {
    for (const char *option : {"--log2c", "--log2l"})
        if (args.has(option) && std::string(option) != axis.option)
            throw UsageError{std::string("option ") + option + " does not apply to -s " +
                             args.get("--solver", "dcsvm") + ": its grid is over " + axis.option};
    if (args.has(axis.fixed_option))
        throw UsageError{std::string(axis.fixed_option) + " is searched: give " + axis.option +
                         " BEGIN,END,STEP instead"};
    if (args.has("--gamma")) throw UsageError{"--gamma is searched: give --log2g BEGIN,END,STEP instead"};
    if (args.get("--kernel", "rbf") == "linear" || args.get("--kernel-type", "2") == "0")
        throw UsageError{"a linear kernel has no gamma to search"};
    if (precomputed_kernel(args)) throw UsageError{"a precomputed kernel has no gamma to search: use kmx cv along C"};
}

struct Cell {
    double log2_cost, log2_gamma;
    CvScore score;
    double seconds;
    bool pruned = false;    // not trained exactly
    bool screened = false;  // pruned: score is early prediction's, for the whole row (else no score)
    long long centers = 0;  // M with --num-centers-grid, else 0
};

// --num-centers-grid M1,M2,...: the third axis (methods with centers only);
// {0} (no axis) without it.
constexpr size_t kMaxCenterValues = 100;
std::vector<long long> centers_axis(const ParsedArgs &args) {
    if (!args.has("--num-centers-grid")) return {0};
    if (!method_uses(args, KMX_PARAM_CENTERS))
        throw UsageError{"--num-centers-grid: -s " + args.get("--solver", "dcsvm") +
                         " has no number of centers (falkon, nystrom-krr and nystrom-tron have)"};
    if (args.has("--num-centers"))
        throw UsageError{"--num-centers is searched: give --num-centers-grid M1,M2,... instead"};
    if (args.has("--png")) throw UsageError{"--png draws one table: with --num-centers-grid use --out"};
    const std::string text = args.get("--num-centers-grid", "");
    std::vector<long long> values;
    for (const std::string &part : comma_parts(text)) {
        values.push_back(to_int(part, "--num-centers-grid"));
        if (values.back() < 1) throw UsageError{"--num-centers-grid " + text + ": every M must be at least 1"};
    }
    if (values.size() > kMaxCenterValues)
        throw UsageError{"--num-centers-grid: " + std::to_string(values.size()) + " values; at most " +
                         std::to_string(kMaxCenterValues)};
    return values;
}

// Every M must fit the smallest fold's training rows (n minus the largest fold).
void check_centers_fit(const std::vector<long long> &centers, int64_t n, long long folds) {
    const long long rows = n - (n + folds - 1) / folds;
    for (long long m : centers)
        if (m > rows)
            throw UsageError{"--num-centers-grid: M = " + std::to_string(m) + " is more than the " +
                             std::to_string(rows) + " training rows of a fold (" + std::to_string(n) + " rows, " +
                             std::to_string(folds) + " folds)"};
}

bool better(const CvScore &a, const CvScore &b) { return a.regression ? a.mse < b.mse : a.accuracy > b.accuracy; }

double score_value(const CvScore &score) { return score.regression ? score.mse : score.accuracy; }

// A cell's score for the CSV and the heat map: NaN for a pruned cell that was not screened.
double shown_score(const Cell &cell) { return cell.pruned && !cell.screened ? std::nan("") : score_value(cell.score); }

void print_table(const std::vector<Cell> &cells, const std::vector<double> &costs, const CostAxis &axis,
                 long long folds, const std::string &method) {
    const bool regression = cells.front().score.regression;
    std::printf("%lld-fold %s of %s; rows log2 gamma, columns log2 %s\n", folds,
                regression ? "mean squared error" : "accuracy (%)", method.c_str(), axis.name);
    std::printf("%10s", "");
    for (double c : costs) std::printf(" %9g", c);
    for (size_t i = 0; i < cells.size(); ++i) {
        if (i % costs.size() == 0) std::printf("\n%10g", cells[i].log2_gamma);
        char early[32];
        std::snprintf(early, sizeof early, "(%.2f)", score_value(cells[i].score));
        if (cells[i].pruned)
            std::printf(" %9s", cells[i].screened ? early : "-");
        else
            std::printf(regression ? " %9.4g" : " %9.2f", score_value(cells[i].score));
    }
    std::printf("\n");
    const size_t pruned = size_t(std::count_if(cells.begin(), cells.end(), [](const Cell &c) { return c.pruned; }));
    if (pruned > 0)
        std::printf(
            "%zu of %zu cells pruned (not trained exactly); in parentheses: early prediction's accuracy at "
            "the row's largest %s\n",
            pruned, cells.size(), axis.name);
}

void write_csv(const std::string &path, const std::vector<Cell> &cells, const CostAxis &axis) {
    std::FILE *file = std::fopen(path.c_str(), "w");
    if (!file) throw CommandError{"cannot write '" + path + "'"};
    const bool regression = cells.front().score.regression, with_centers = cells.front().centers > 0;
    std::fprintf(file, "%slog2_%s,log2_gamma,%s,gamma,%s,seconds,pruned\n", with_centers ? "centers," : "", axis.name,
                 axis.name, regression ? "mse" : "accuracy");
    for (const Cell &cell : cells) {
        if (with_centers) std::fprintf(file, "%lld,", cell.centers);
        std::fprintf(file, "%g,%g,%.17g,%.17g,%.17g,%.3f,%d\n", cell.log2_cost, cell.log2_gamma,
                     std::exp2(cell.log2_cost), std::exp2(cell.log2_gamma), shown_score(cell), cell.seconds,
                     int(cell.pruned));
    }
    if (std::fclose(file) != 0) throw CommandError{"cannot write '" + path + "'"};
}

// The heat map through gnuplot (a pipe, as grid.py draws its contours).
void draw_png(const std::string &png, const std::vector<Cell> &cells, const CostAxis &axis) {
    std::FILE *gnuplot = popen("gnuplot 2>&1", "w");
    if (!gnuplot) throw CommandError{"--png needs gnuplot (Debian package gnuplot-nox), which did not start"};
    const bool regression = cells.front().score.regression;
    std::fprintf(gnuplot,
                 "set terminal png size 800,600\nset output '%s'\nset view map\nset xlabel 'log2 %s'\n"
                 "set ylabel 'log2 gamma'\nset title '%s by cross-validation'\nset cblabel '%s'\n"
                 "plot '-' using 1:2:3 with image notitle\n",
                 png.c_str(), axis.name, regression ? "mean squared error" : "accuracy (%)", regression ? "MSE" : "%");
    for (const Cell &cell : cells)  // gnuplot leaves NaN cells blank
        std::fprintf(gnuplot, "%g %g %.17g\n", cell.log2_cost, cell.log2_gamma, shown_score(cell));
    std::fprintf(gnuplot, "e\n");
    if (pclose(gnuplot) != 0) throw CommandError{"gnuplot could not draw '" + png + "' (is gnuplot installed?)"};
}

// The --prune margin in accuracy points; 0 when the grid is not screened.
double prune_margin(const ParsedArgs &args, const TrainingSetup &setup) {
    if (!args.has("--prune")) return 0;
    double method = 0;
    check(kmx_solver_get_param(&method, setup.solver.get(), KMX_PARAM_METHOD));
    if (method != KMX_METHOD_SVM && method != KMX_METHOD_DCSVM)
        throw UsageError{"--prune screens by DC-SVM's early prediction: it applies to -s svm and -s dcsvm, not -s " +
                         method_name(method)};
    const std::string text = args.get("--prune", "");
    const double margin = to_double(text, "--prune");
    if (!(margin > 0) || !std::isfinite(margin))
        throw UsageError{"--prune " + text + ": give accuracy points above 0 (e.g. 3)"};
    return margin;
}

// Every value along the cost axis at the kernel's gamma, cross-validated on
// the same folds (one path) and scored; seconds per value.
std::vector<CvScore> score_row(const TrainingSetup &setup, const Dataset &data, long long folds, kmx_param param,
                               const std::vector<double> &values, const std::vector<double> &truth, double &seconds) {
    const int64_t n = int64_t(truth.size());
    std::vector<double> predicted(values.size() * size_t(n));
    kmx_task task = KMX_TASK_AUTO;
    const double start = now_seconds();
    check(kmx_solver_cross_validate_path(predicted.data(), int64_t(predicted.size()), &task, setup.ctx.get(),
                                         setup.solver.get(), setup.kernel.get(), data.get(), folds, param,
                                         values.data(), int64_t(values.size())));
    seconds = (now_seconds() - start) / double(values.size());
    std::vector<CvScore> scores;
    for (size_t v = 0; v < values.size(); ++v) {
        const std::vector<double> row(predicted.begin() + int64_t(v) * n, predicted.begin() + int64_t(v + 1) * n);
        scores.push_back(score_predictions(row, truth, task));
    }
    return scores;
}

struct Grid {
    std::vector<double> log2_costs, log2_gammas;
    long long folds;
    CostAxis axis;
};

void set_gamma(const TrainingSetup &setup, double log2_gamma) {
    check(kmx_kernel_set_param(setup.kernel.get(), KMX_PARAM_GAMMA, std::exp2(log2_gamma)));
}

std::vector<double> exp2_of(const std::vector<double> &log2_values) {
    std::vector<double> values;
    for (double v : log2_values) values.push_back(std::exp2(v));
    return values;
}

// Early prediction's accuracy of each row of the grid (one gamma) at its
// largest C: -s dcsvm-early on the same folds, at the deepest level (clusters
// of about 1000 rows each, DcsvmOptions::min_early_cluster_rows), the
// cheapest early models. The largest C stands for the row: a row's best C
// grows as gamma shrinks, and the rows worth pruning are the small gammas
// that need large C. Every cell comes back marked pruned, the row's score in
// its largest C's cell (`screened`), the others without one.
std::vector<Cell> screen_grid(const TrainingSetup &setup, const Dataset &data, const Grid &grid,
                              const std::vector<double> &truth, bool verbose) {
    double method = 0, early_level = 0, levels = 0;
    kmx_solver *solver = setup.solver.get();
    check(kmx_solver_get_param(&method, solver, KMX_PARAM_METHOD));
    check(kmx_solver_get_param(&early_level, solver, KMX_PARAM_EARLY_LEVEL));
    check(kmx_solver_get_param(&levels, solver, KMX_PARAM_LEVELS));
    check(kmx_solver_set_param(solver, KMX_PARAM_METHOD, KMX_METHOD_DCSVM_EARLY));
    check(kmx_solver_set_param(solver, KMX_PARAM_EARLY_LEVEL, levels));
    const size_t largest =
        size_t(std::max_element(grid.log2_costs.begin(), grid.log2_costs.end()) - grid.log2_costs.begin());
    std::vector<Cell> cells;
    for (double log2_gamma : grid.log2_gammas) {
        set_gamma(setup, log2_gamma);
        double seconds = 0;
        const CvScore early = score_row(setup, data, grid.folds, grid.axis.param, {std::exp2(grid.log2_costs[largest])},
                                        truth, seconds)[0];
        for (size_t c = 0; c < grid.log2_costs.size(); ++c)
            cells.push_back({grid.log2_costs[c], log2_gamma, c == largest ? early : CvScore{},
                             c == largest ? seconds : 0, true, c == largest});
        if (verbose)
            std::fprintf(stderr, "kmx grid: early prediction at log2 %s %g, log2 gamma %g: %g\n", grid.axis.name,
                         grid.log2_costs[largest], log2_gamma, score_value(early));
    }
    check(kmx_solver_set_param(solver, KMX_PARAM_METHOD, method));
    check(kmx_solver_set_param(solver, KMX_PARAM_EARLY_LEVEL, early_level));
    return cells;
}

// Trains exactly the cells of each row that are not pruned (every cell when
// `cells` comes empty: the grid was not screened), along C on the same folds.
std::vector<Cell> exact_cells(const TrainingSetup &setup, const Dataset &data, const Grid &grid,
                              const std::vector<double> &truth, std::vector<Cell> cells, bool verbose) {
    if (cells.empty())
        for (double log2_gamma : grid.log2_gammas)
            for (double log2_cost : grid.log2_costs) cells.push_back({log2_cost, log2_gamma, CvScore{}, 0, false});
    const size_t width = grid.log2_costs.size();
    for (size_t g = 0; g < grid.log2_gammas.size(); ++g) {
        std::vector<size_t> kept;  // cells of this row to train exactly
        for (size_t c = 0; c < width; ++c)
            if (!cells[g * width + c].pruned) kept.push_back(g * width + c);
        if (kept.empty()) continue;
        std::vector<double> log2_costs;
        for (size_t i : kept) log2_costs.push_back(cells[i].log2_cost);
        set_gamma(setup, grid.log2_gammas[g]);
        double seconds = 0;
        const std::vector<CvScore> scores =
            score_row(setup, data, grid.folds, grid.axis.param, exp2_of(log2_costs), truth, seconds);
        for (size_t k = 0; k < kept.size(); ++k) {
            Cell &cell = cells[kept[k]];
            cell.score = scores[k];
            cell.seconds = seconds;
            if (verbose)
                std::fprintf(stderr, "kmx grid: log2 %s %g, log2 gamma %g: %g\n", grid.axis.name, cell.log2_cost,
                             cell.log2_gamma, score_value(cell.score));
        }
    }
    return cells;
}

// Keeps (unprunes) the rows whose early accuracy is within `margin` points of the best row's.
void prune_hopeless(std::vector<Cell> &cells, size_t width, double margin) {
    double best = 0;
    for (const Cell &cell : cells)
        if (cell.screened) best = std::max(best, cell.score.accuracy);
    for (size_t row = 0; row < cells.size(); row += width) {
        double early = 0;
        for (size_t c = row; c < row + width; ++c)
            if (cells[c].screened) early = cells[c].score.accuracy;
        for (size_t c = row; c < row + width; ++c) cells[c].pruned = early < best - margin;
    }
}

// One table per M with --num-centers-grid (the cells of each M are consecutive).
void print_tables(const std::vector<Cell> &cells, const std::vector<double> &costs, const CostAxis &axis,
                  long long folds, const std::string &method) {
    if (cells.front().centers == 0) return print_table(cells, costs, axis, folds, method);
    for (size_t first = 0; first < cells.size();) {
        size_t end = first;
        while (end < cells.size() && cells[end].centers == cells[first].centers) ++end;
        std::printf("%scenters M = %lld\n", first > 0 ? "\n" : "", cells[first].centers);
        print_table(std::vector<Cell>(cells.begin() + int64_t(first), cells.begin() + int64_t(end)), costs, axis, folds,
                    method);
        first = end;
    }
}

// "centers 200, " for the best line with --num-centers-grid, else "".
std::string centers_text(const Cell &cell) {
    return cell.centers > 0 ? "centers " + std::to_string(cell.centers) + ", " : "";
}

// exact_cells at each M of the axis (the solver's centers set to it), one M
// after another; the grid as it is without the axis (centers {0}).
std::vector<Cell> cells_per_centers(const TrainingSetup &setup, const Dataset &data, const Grid &grid,
                                    const std::vector<double> &truth, const std::vector<long long> &centers,
                                    std::vector<Cell> screened, bool verbose) {
    std::vector<Cell> cells;
    for (long long m : centers) {
        if (m > 0) check(kmx_solver_set_param(setup.solver.get(), KMX_PARAM_CENTERS, double(m)));
        if (m > 0 && verbose) std::fprintf(stderr, "kmx grid: centers M = %lld\n", m);
        for (Cell cell : exact_cells(setup, data, grid, truth, screened, verbose)) {
            cell.centers = m;
            cells.push_back(cell);
        }
    }
    return cells;
}

}  // namespace

int run_grid(int argc, char **argv) {
    const TrainingArgs parsed = parse_training_args(argc, argv, grid_options());
    const ParsedArgs &args = parsed.args;
    if (args.has("--help") || args.positional.size() != 1)
        return usage(args,
                     "grid [options] [-v K] [--log2c B,E,S] [--log2g B,E,S] [--num-centers-grid M,...] TRAIN_FILE",
                     grid_options());
    if (ranks().size > 1) throw UsageError{"kmx grid runs in one process only (not under mpirun)"};
    const CostAxis axis = cost_axis(args);
    check_axes(args, axis);
    const Grid grid{log2_range(args, axis.option, axis.fallback), log2_range(args, "--log2g", "3,-15,-2"),
                    folds_option(args), axis};
    const std::vector<long long> centers = centers_axis(args);
    const TrainingSetup setup = set_up_training(parsed);
    const Dataset data = load_dataset(setup.ctx.get(), args.positional[0], args);
    int64_t n = 0;
    check(kmx_dataset_rows(&n, data.get()));
    std::vector<double> truth(static_cast<size_t>(n));
    check(kmx_dataset_get_labels(truth.data(), n, data.get()));
    check_centers_fit(centers, n, grid.folds);
    const double margin = prune_margin(args, setup);
    const bool verbose = args.has("--verbose");
    std::vector<Cell> screened;
    if (margin > 0) {
        screened = screen_grid(setup, data, grid, truth, verbose);
        prune_hopeless(screened, grid.log2_costs.size(), margin);
    }
    std::vector<Cell> cells = cells_per_centers(setup, data, grid, truth, centers, screened, verbose);
    size_t best = 0;
    while (cells[best].pruned) ++best;
    for (size_t i = best; i < cells.size(); ++i)
        if (!cells[i].pruned && better(cells[i].score, cells[best].score)) best = i;
    const std::string method = args.get("--solver", "dcsvm");
    print_tables(cells, grid.log2_costs, axis, grid.folds, method);
    const Cell &top = cells[best];
    std::printf("best: %slog2 %s %g, log2 gamma %g (%s=%g gamma=%g): %s = %.*f\n", centers_text(top).c_str(), axis.name,
                top.log2_cost, top.log2_gamma, axis.name, std::exp2(top.log2_cost), std::exp2(top.log2_gamma),
                top.score.regression ? "mean squared error" : "accuracy", top.score.regression ? 6 : 2,
                score_value(top.score));
    if (args.has("--out")) write_csv(args.get("--out", ""), cells, axis);
    if (args.has("--png")) draw_png(args.get("--png", ""), cells, axis);
    return 0;
}

}  // namespace kmx_cli
