// dcsvm.h — DC-SVM (Hsieh, Si, Dhillon 2014): multilevel divide and conquer
// for the kernel SVM dual, with early prediction and BKA-SVM.
//
// Levels l = lmax … 1 have k^l clusters (two-step kernel k-means, adaptive:
// level l samples its clustering points from level l+1's support vectors);
// each cluster's subproblem is solved independently (in parallel), warm
// started from the level below; before the top level a refine step solves
// the union of level-1 support vectors; the final global solve is warm
// started from the concatenated α.
//
// When dividing pays: the levels only warm-start the global solve, and they
// save it work only if it would otherwise recompute kernel columns. So full
// DC-SVM (not early prediction or BKA) solves the whole problem directly,
// without levels (the log says why), when
//   - n ≤ 2·sample_size (the clustering sample would be half the data), or
//   - the whole Q, n² floats, fits the kernel cache (dcsvm_whole_matrix_cached:
//     then every column is computed at most once, and the levels' kernel
//     k-means, O(n·m·d) assignment and subproblem solves are pure overhead), or
//   - the columns the global solve works with, about one per support vector,
//     fit in half the cache: support vectors are estimated by solving a
//     systematic sample of m = min(sample_size, n) rows (m² kernel entries)
//     and scaling its support-vector fraction to n (this errs towards
//     dividing: a sample has the larger fraction).
// The direct solve's answer is the DC-SVM answer (the same global problem to
// the same eps). Otherwise full DC-SVM starts at the deepest level
// whose clusters keep about kDcsvmMinRowsPerBottomCluster rows, stops
// dividing once a level leaves few support vectors, and solves the levels
// and the refine step to a looser tolerance than the global solve (see the
// constants below).
// Level l asks for k^l clusters, at most n / kDcsvmMinRowsPerCluster of them
// (at least 1), so small problems get fewer, larger clusters; a level whose
// count equals the level run before it, or that would be a single cluster,
// is skipped (unless it is the level that early prediction stops at).
// Early prediction starts at the deepest level whose clusters keep about
// kDcsvmMinRowsPerBottomCluster rows, or at the early level if that is
// deeper, and caps the early level's clusters by min_early_cluster_rows
// (one cluster: the whole problem solved exactly, with a one-point partition).
// With early_auto it chooses its level from the data: it solves the levels
// from the deepest up, each warm-started from the one below, and stops at the
// first whose coarser successor would not pay (level 1 at the latest): it
// clusters the coarser level and solves it only if
//  - its support vectors' kernel work, Σ_c |V_c| · |S̄ ∩ V_c| (each cluster's
//    rows times its support vectors, the rows with α_i > 0 after the finer
//    level), is at most early_max_work entries (kDcsvmEarlyMaxWork), and
//  - every one of its clusters' support vectors fit, as columns of the length
//    the solver works with after shrinking (taken as min(rows, 2 · support
//    vectors); the cache re-slots to it), in a worker's share of the kernel cache;
// else the finer level, kept, predicts. That level is then solved to the
// caller's eps. Coarser levels predict better (each local model sees more of
// the data and fewer test points fall near a cluster's edge: binary Letter,
// C = 8, γ = 16, lost 0.75 points against the exact model with 12 clusters
// and 0.17 with 4; deformed digits at 100k rows, d = 256, C = 8, γ = 0.16,
// lost 0.6 with 16 clusters and 0.35 with 4), and a subproblem whose support
// vectors' columns stay cached computes each kernel column about once, while
// one that must recompute them costs far more than its size (LIBSVM with a
// 1 GiB cache: 21 min at 50k digits rows against 3.4 at 30k). But a level
// costs at least its kernel work, and that grows with n at a fixed number of
// clusters: on those digits at 1M rows, 64 clusters took 286 s and 16 did not
// finish in 23 min, while at 100k rows 4 clusters (0.9e9 entries) took 73 s.
// So the level is the most accurate one that still solves at about the cost
// of computing its support vectors' columns, within a bound on that cost;
// it depends on the data (its support vectors), the cache and the threads
// sharing it.
// Each level's clusters are capped (balance_clusters.h) at 2·n/k rows, at
// 20000 rows or more when the level may predict; rows of a larger cluster
// move to their second-nearest cluster, or the next nearest with room, those
// that lose least first.
// Adaptive clustering samples from the current support vectors S̄ once there
// are at least max(min(m, n)/2, 4·k^l) of them, else from all rows.
// Memory: the whole run is checked against the budget once, up front: the
// support-vector estimate's sample solve, the clustering scratch, O(n)
// bookkeeping, and the solver workspace of n rows
// with one kernel cache (options.svm.cache_bytes, or auto) that concurrent
// subproblems share (each of the P = min(threads, clusters) workers gets 1/P).
#pragma once
#include <cstdint>
#include <vector>

#include "cluster/kernel_kmeans.h"
#include "svm_dual.h"

namespace kmx {

// early_auto solves a coarser level only if its support vectors' kernel work,
// Σ_c |V_c| · |S̄ ∩ V_c| entries, is at most this (see the rule above).
constexpr double kDcsvmEarlyMaxWork = 4294967296.0;  // 2^32

struct DcsvmOptions {
    int levels = 4;              // lmax
    int clusters_per_level = 4;  // k
    int64_t sample_size = 1000;  // m, kernel k-means sample per level
    int early_level = 0;         // > 0: stop after this level (early prediction)
    bool early_auto = false;     // early prediction at the level chosen from the data (see below)
    bool bka = false;            // BKA-SVM: one level of k^early_level clusters (k^kDcsvmBkaDefaultLevel
                                 // when early_level is 0), each solved from zeros; no multilevel, no conquer
    bool refine = true;
    // Early prediction: the early level has at most n / min_early_cluster_rows
    // clusters (at least 1): each cluster's model predicts on its own, and
    // models of a few hundred rows lose accuracy (Letter: 64 clusters of ~190
    // rows, 1.2 points below the exact model). Problems below this size are
    // solved whole (one cluster, the exact model). 0: no cap (k^early_level).
    int64_t min_early_cluster_rows = 1000;
    // early_auto: a coarser level's support vectors' kernel work may be at most
    // this many entries (see the rule above).
    double early_max_work = kDcsvmEarlyMaxWork;
    SvmOptions svm;  // per-subproblem and global solver options
};

constexpr int64_t kDcsvmMinRowsPerCluster = 32;
constexpr int kDcsvmBkaDefaultLevel = 3;
// A level's clusters keep at most this many times the mean cluster size n/k:
// rows of larger clusters move to their second-nearest cluster, or failing
// room there to one of the next nearest, kDcsvmBalanceChoices in all
// (balance_clusters.h), as the level's time grows as Σ_c |V_c|².
constexpr double kDcsvmClusterSizeCap = 2.0;
constexpr int kDcsvmBalanceChoices = 4;
// With early prediction and BKA a level's clusters may be the ones that
// predict, and a test point goes to its nearest cluster, whose model then
// lacks the rows moved away: there only clusters of more than this many rows
// are capped (a subproblem of 20000 digits rows takes about 5 s; on deformed
// digits at 1M rows, 256 clusters, one held 59307 rows after balancing and
// took 153 s of the level's 260).
constexpr int64_t kDcsvmBalanceMinRows = 20000;
// Full DC-SVM starts at the deepest level (at most `levels`, at least 1)
// whose clusters keep about this many rows each: smaller subproblems are
// solved quickly but their solutions warm-start the next level poorly, and
// each level clusters all n rows.
constexpr int64_t kDcsvmMinRowsPerBottomCluster = 1000;
// Full DC-SVM stops dividing after a level whose solution has at most this
// fraction of the rows as support vectors: finer levels would solve little
// more than they already have, and the global solve warm started from so few
// nonzeros is cheap.
constexpr double kDcsvmFewSupportFraction = 0.1;
// The divide levels and the refine step stop at max(eps, min(this factor ·
// eps, kDcsvmWarmStartEpsCap)) (their solutions only warm-start the next
// step; the gradient's scale is that of e, 1); the global solve uses eps.
constexpr double kDcsvmWarmStartEpsFactor = 100;
constexpr double kDcsvmWarmStartEpsCap = 0.1;
// Full DC-SVM solves problems of at most this many times sample_size rows
// directly (no divide levels): dividing so few rows costs more than it saves.
constexpr int64_t kDcsvmDirectSolveFactor = 2;
// Full DC-SVM also solves directly when the whole problem's Q (n² floats)
// fits the solver's kernel cache: the divide levels exist to warm-start a
// global solve that would otherwise recompute kernel columns, but then the
// global solve computes every column at most once and the levels' kernel
// k-means, O(n·m·d) assignment and subproblem solves are pure overhead (the
// log says "whole Q cached"). The DC-SVM answer is the global solve's either way.
bool dcsvm_whole_matrix_cached(int64_t n, size_t cache_bytes);

enum class DcsvmStep { level, refine, global };

// Statistics of one step, for logs and tests.
struct DcsvmLevelStats {
    int level;                // l for a divide level; 0 for the refine and global steps
    int64_t clusters;         // subproblems solved (1 for refine and global)
    int64_t support_vectors;  // of α after the step (whole problem)
    // A divide level: Σ_c of the subproblem objectives, i.e. f̄(ᾱ), the
    // objective of the concatenated ᾱ under the block-diagonal kernel K̄
    // (Lemma 1; f(ᾱ) adds the between-cluster terms). Refine and global:
    // f(α) on the whole problem (α is zero outside the refine set).
    double objective;
    double seconds;
    DcsvmStep step = DcsvmStep::level;
    int64_t rows = 0;  // rows solved: n (ε-SVR: n/2, its rows), or |S̄| for the refine step
};

struct DcsvmResult {
    SvmSolution solution;                 // of the last solve run (global, or the early level's sum)
    std::vector<DcsvmLevelStats> levels;  // in the order run
    // Early prediction and BKA: the partition of the level that predicts and
    // each problem row's cluster in it (empty after a full solve).
    KernelPartition partition;
    std::vector<int32_t> cluster_of;   // n
    std::vector<double> cluster_bias;  // k: b_c of cluster c's model (zeros without bias)
};

// alpha: n outputs (DC-SVM starts from zeros). The problem may have a linear
// term only if its variables are paired as ε-SVR's (rows[k] = rows[k + n/2]):
// then the n/2 rows are clustered, a row's α and α* share its cluster, and
// early prediction and BKA are refused (KMX_E_INVALID_ARGUMENT). With early prediction or BKA
// the result's solution sums the clusters' objectives, iterations and
// support vectors (kkt_violation: the largest; converged: all; bias: 0 —
// see cluster_bias).
DcsvmResult train_dcsvm(Context &ctx, const SvmProblem &problem, const DcsvmOptions &options, double *alpha);

}  // namespace kmx
