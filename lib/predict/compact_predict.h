// compact_predict.h — the full library's predictor for a CompactPredictor:
// exactly the rule in compact_predictor.h, batched (rows routed to leaves,
// then per leaf one kernel block against its landmarks through kernel_block,
// the pseudo-landmark expansion, and one GEMM with β, or rows one at a time
// where leaves are small) or for a single row.
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "core/aligned_vector.h"
#include "compact_predictor.h"

namespace kmx {

class Context;
class Dataset;

// Fails with KMX_E_INVALID_ARGUMENT naming the first inconsistency (sizes of
// centers, landmarks, distances, pairs, β, bias; offsets; classes/outputs).
void check_compact_predictor(const CompactPredictor &predictor);

// outputs (n x predictor.outputs, row-major; may be null) and labels (n; may
// be null) for every row of data (dense or sparse; fewer columns than
// predictor.d are padded with zeros when the data is LIBSVM's, else they
// are, as more columns, KMX_E_INVALID_ARGUMENT: core/dataset.h's check_columns). The
// workspace (row blocks of at most 1024 rows) is checked against ctx's budget
// before any work.
// How: rows in blocks sorted by leaf (each leaf's rows one kernel block and
// one GEMM), or one at a time through a CompactRowPredictor (faster where a
// block holds few rows of a leaf times few landmarks times d); automatic
// picks the faster by that product (measured: compact_predict.cpp).
enum class CompactPredictPath { automatic, blocks, rows };
class PreparedRows;
// prepared: the predictor checked once and its row predictor made once, kept
// by whoever predicts with it many times (a handle): the call then neither
// checks nor copies the predictor, so a call of one row or a few costs about
// what their rows do, and rows go one at a time also when fewer than the leaves.
void compact_predict(Context &ctx, const CompactPredictor &predictor, const Dataset &data, double *outputs,
                     double *labels, CompactPredictPath path = CompactPredictPath::automatic,
                     const PreparedRows *prepared = nullptr);

// The label that one row of outputs predicts (step 5 of the rule).
double compact_label(const CompactPredictor &predictor, const double *outputs);

// The leaf that routes x (d values): step 1 of the rule.
int64_t compact_route(const CompactPredictor &predictor, const double *x);

// Doubles of scratch compact_predict_row needs: 2 · max m + max features().
size_t compact_row_scratch(const CompactPredictor &predictor);

// One row x (predictor.d values), directly: outputs (predictor.outputs) are
// written, the label returned. scratch holds compact_row_scratch() doubles.
double compact_predict_row(const CompactPredictor &predictor, const double *x, double *outputs, double *scratch);

// The single-row predictor for many calls ("prepare once, predict many"):
// transposed copies of the centers, landmarks and triangle distances so
// that the distances of one row to all of them vectorise across points
// (each distance still sums its d terms in order, as the rule's direct
// loop, so routing and r_j are the same numbers), and the exponentials
// through the library's vectorised exp. With AVX-512 or AVX2 the distances
// of up to 16 points at a time stay in registers for the nearest center
// (groups of up to 32) and for the exponentials, fused with the dot product
// with β where there is one output and no pseudo-landmark. On AVX2 (half the
// lanes, two add pipes) the route first screens the centers by
// ‖x‖² + ‖c‖² − 2 x·c within a bound of the rule's sums (they decide
// near-ties), and the Gaussian kernel's fused values take that form too
// (within the batched path's tolerance). The predictor must outlive it.
// predict() is const and thread-safe with one scratch per thread.
class CompactRowPredictor {
public:
    explicit CompactRowPredictor(const CompactPredictor &predictor);
    // Doubles of scratch predict() needs.
    size_t scratch_size() const { return scratch_; }
    // The same, before making one; and the bytes one holds (its copies, and
    // the temporaries while it is made).
    static size_t scratch_doubles(const CompactPredictor &predictor);
    static size_t footprint_bytes(const CompactPredictor &predictor);
    // outputs (predictor.outputs) for x (predictor.d values); returns the label.
    double predict(const double *x, double *outputs, double *scratch) const;

private:
    // What one row reads of its leaf, in one block of data_ per leaf
    // (landmarks, β, bias, distances: no pointer chasing through the
    // predictor's vectors after routing).
    struct Leaf {
        const double *landmarks_t;  // d x padded(m)
        const double *norms;        // padded(m): ‖u_j‖²
        const double *beta;         // features x outputs
        const double *bias;         // outputs
        const double *dist_t;       // m x padded(p_tri) (D transposed)
        const int32_t *pairs;       // 2 p_prod
        int64_t m, triangle, products;
        double largest_norm;  // max_j ‖u_j‖²
    };
    const CompactPredictor &p_;
    // (on cache lines: their rows of 8 doubles are read by 64-byte loads)
    AlignedVector<double> top_t_;       // d x top, then their squared norms
    AlignedVector<double> groups_t_;    // per top node t, at group_offset_[t]: its leaves' centers, as top_t_
    std::vector<size_t> group_offset_;  // top nodes
    double largest_center_norm_ = 0;    // of the top and leaf centers
    AlignedVector<double> data_;        // the leaves' blocks
    std::vector<Leaf> leaves_;
    size_t scratch_ = 0;

    int64_t route(const double *x, double x_norm, double *scratch) const;
    bool fused(const Leaf &leaf, double x_norm) const;
    void landmark_values(int64_t l, const Leaf &leaf, const double *x, double x_norm, double *c, double *r) const;
    void triangle_values(const Leaf &leaf, const double *r, double *c_tri) const;
};

// A predictor, checked once (check_compact_predictor), what a call needs to
// know of it (a row's multiply-adds), and its CompactRowPredictor, made on
// first need (thread-safe) and kept: a call that may make it counts its
// footprint against the budget first (made() false). The predictor must
// outlive it and not change.
class PreparedRows {
public:
    explicit PreparedRows(const CompactPredictor &predictor);
    const CompactRowPredictor &get() const {
        std::call_once(once_, [this] {
            rows_ = std::make_unique<CompactRowPredictor>(p_);
            made_.store(true, std::memory_order_release);
        });
        return *rows_;
    }
    bool made() const { return made_.load(std::memory_order_acquire); }
    double row_multiply_adds() const { return row_multiply_adds_; }

private:
    const CompactPredictor &p_;
    double row_multiply_adds_;
    mutable std::once_flag once_;
    mutable std::unique_ptr<CompactRowPredictor> rows_;
    mutable std::atomic<bool> made_{false};
};

// The expanded features C̄ (rows x leaf.features(), row-major, ld features())
// of `rows` consecutive rows x (rows x predictor.d) in `leaf`: one kernel
// block against the landmarks, then the pseudo-landmark expansion. Scratch:
// compact_leaf_features_workspace_bytes.
void compact_leaf_features(const CompactPredictor &predictor, const PredictorLeaf &leaf, const double *x, int64_t rows,
                           double *cbar, Arena &scratch, int threads);
size_t compact_leaf_features_workspace_bytes(const CompactPredictor &predictor, int64_t rows, int64_t m);

}  // namespace kmx
