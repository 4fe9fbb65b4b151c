#include "params.h"

#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "error.h"

namespace kmx {

namespace {

const char *const kKernelNames[] = {"rbf", "laplacian", "polynomial", "linear", "sigmoid", "precomputed", nullptr};
const char *const kLogLevelNames[] = {"error", "warning", "info", "debug", nullptr};
const char *const kMethodNames[] = {"svm",      "dcsvm",  "dcsvm_early",  "bka", "krr",       "nystrom_krr",
                                    "meka_krr", "falkon", "nystrom_tron", "svr", "one_class", nullptr};
const char *const kTaskNames[] = {"auto", "classification", "regression", nullptr};
const char *const kLossNames[] = {"auto", "squared_hinge", "logistic", "squared", nullptr};
const char *const kCenterMethodNames[] = {"uniform", "kmeans", "leverage", nullptr};
const char *const kApproxNames[] = {"nystrom", "kmeans_nystrom", "meka", nullptr};
const char *const kBiasNames[] = {"auto", "off", "on", nullptr};
const char *const kMulticlassNames[] = {"ovo", "ovr", nullptr};
const char *const kPrecisionNames[] = {"float64", "float32", nullptr};
const char *const kStorageNames[] = {"float64", "float32", "int16", "int8", "int4", nullptr};
constexpr double kInf = INFINITY;
constexpr double kMaxExact = 9007199254740992.0;  // 2^53

// Method bits for ParamSpec::methods.
constexpr unsigned bit(kmx_method method) { return 1u << unsigned(method); }
constexpr unsigned kSvmMethods =
    bit(KMX_METHOD_SVM) | bit(KMX_METHOD_DCSVM) | bit(KMX_METHOD_DCSVM_EARLY) | bit(KMX_METHOD_BKA);
constexpr unsigned kDcsvmMethods = bit(KMX_METHOD_DCSVM) | bit(KMX_METHOD_DCSVM_EARLY) | bit(KMX_METHOD_BKA);
constexpr unsigned kKrrMethods =
    bit(KMX_METHOD_KRR) | bit(KMX_METHOD_NYSTROM_KRR) | bit(KMX_METHOD_MEKA_KRR) | bit(KMX_METHOD_FALKON);
constexpr unsigned kTron = bit(KMX_METHOD_NYSTROM_TRON);
constexpr unsigned kSvr = bit(KMX_METHOD_SVR);
constexpr unsigned kOneClass = bit(KMX_METHOD_ONE_CLASS);
constexpr unsigned kAllMethods = kSvmMethods | kKrrMethods | kTron | kSvr | kOneClass;
constexpr unsigned kMeka = bit(KMX_METHOD_MEKA_KRR);
constexpr unsigned kSolverApprox = kOwnerSolver | kOwnerApprox;

const ParamSpec kParams[] = {
    // context
    {KMX_PARAM_THREADS, "threads", 0, 1024, KMX_BOUND_INTEGER, 0, nullptr, kOwnerContext, 0,
     "worker threads; 0 = every core this process may use (affinity mask, cgroup CPU quota)"},
    {KMX_PARAM_SEED, "seed", 0, kMaxExact, KMX_BOUND_INTEGER, 0, nullptr, kOwnerContext, 0, "random seed"},
    {KMX_PARAM_MEMORY_BUDGET, "memory_budget", 65536, kMaxExact, KMX_BOUND_INTEGER, kMaxExact, nullptr, kOwnerContext,
     0,
     "bytes a call may use, counting the datasets loaded with this context that are still alive (2^53: "
     "unlimited); a call that cannot fit fails before work, and prediction goes through its rows in blocks that "
     "fit; a new context takes 80% of the memory available when it is made (cgroup-aware), unlimited if unknown"},
    {KMX_PARAM_LOG_LEVEL, "log_level", 0, 3, KMX_BOUND_ENUM, KMX_LOG_WARNING, kLogLevelNames, kOwnerContext, 0,
     "messages at or below this level reach the log callback"},
    {KMX_PARAM_PRECISION, "precision", 0, 1, KMX_BOUND_ENUM, KMX_PRECISION_FLOAT64, kPrecisionNames, kOwnerContext, 0,
     "how kmx_dataset_load stores feature values: float32 halves the memory (values rounded to float); kernels "
     "and distances still compute in double"},
    // kernel
    {KMX_PARAM_KERNEL, "kernel", 0, 5, KMX_BOUND_ENUM, KMX_KERNEL_RBF, kKernelNames, kOwnerKernel, 0,
     "kernel function; precomputed: the caller's kernel matrix, LIBSVM's -t 4 (methods svm, svr, one_class)"},
    {KMX_PARAM_GAMMA, "gamma", 0, kInf, KMX_BOUND_LOWER_OPEN | KMX_BOUND_UPPER_OPEN, 0, nullptr, kOwnerKernel, 0,
     "kernel width gamma; 0 = auto: 1/columns, as LIBSVM"},
    {KMX_PARAM_COEF0, "coef0", -kInf, kInf, KMX_BOUND_LOWER_OPEN | KMX_BOUND_UPPER_OPEN, 0, nullptr, kOwnerKernel, 0,
     "coef0 of the polynomial and sigmoid kernels"},
    {KMX_PARAM_DEGREE, "degree", 1, 100, KMX_BOUND_INTEGER, 3, nullptr, kOwnerKernel, 0, "polynomial degree"},
    // k-means
    {KMX_PARAM_KMEANS_MAX_ITER, "max_iter", 1, 1e6, KMX_BOUND_INTEGER, 100, nullptr, kOwnerKMeans, 0,
     "Lloyd iterations at most"},
    {KMX_PARAM_KMEANS_TOL, "tol", 0, 1, KMX_BOUND_UPPER_OPEN, 1e-6, nullptr, kOwnerKMeans, 0,
     "stop when the relative objective decrease is below it"},
    // solvers
    {KMX_PARAM_METHOD, "method", 0, 10, KMX_BOUND_ENUM, KMX_METHOD_DCSVM, kMethodNames, kOwnerSolver, kAllMethods,
     "training method"},
    {KMX_PARAM_C, "C", 0, kInf, KMX_BOUND_LOWER_OPEN | KMX_BOUND_UPPER_OPEN, 1, nullptr, kOwnerSolver,
     kSvmMethods | kSvr | kTron,
     "cost C: SVM's (svr: of the epsilon-insensitive loss); nystrom_tron minimises 1/2 b'K_BB b + C sum_i loss_i"},
    {KMX_PARAM_EPS, "eps", 0, 1, KMX_BOUND_LOWER_OPEN | KMX_BOUND_UPPER_OPEN, 1e-3, nullptr, kOwnerSolver,
     kSvmMethods | kSvr | kOneClass | kTron,
     "stopping tolerance: the largest KKT violation, as LIBSVM's -e; nystrom_tron: |grad f| <= eps |grad f(0)|"},
    {KMX_PARAM_BIAS, "bias", 0, 2, KMX_BOUND_ENUM, KMX_BIAS_AUTO, kBiasNames, kOwnerSolver, kSvmMethods | kSvr,
     "bias term; auto = with a bias for svm and svr, without for dcsvm, dcsvm_early and bka"},
    {KMX_PARAM_SHRINKING, "shrinking", 0, 1, KMX_BOUND_INTEGER, 1, nullptr, kOwnerSolver,
     kSvmMethods | kSvr | kOneClass, "1 = shrink the active set, as LIBSVM's -h 1"},
    {KMX_PARAM_CACHE_SIZE, "cache_size", 0, kMaxExact, KMX_BOUND_INTEGER, 0, nullptr, kOwnerSolver,
     kSvmMethods | kSvr | kOneClass | bit(KMX_METHOD_FALKON) | kTron,
     "kernel cache bytes; 0 = auto: the SVMs take what the budget leaves after the workspace (all of Q at most), "
     "FALKON keeps all of K_nM across CG passes when it fits the budget, else as many row blocks as do, "
     "nystrom_tron keeps C = K(X, B) when all of it fits, else recomputes it on every pass; a value caps it"},
    {KMX_PARAM_MULTICLASS, "multiclass", 0, 1, KMX_BOUND_ENUM, KMX_MULTICLASS_OVO, kMulticlassNames, kOwnerSolver,
     kSvmMethods, "multiclass scheme: one-vs-one (as LIBSVM) or one-vs-rest"},
    {KMX_PARAM_LEVELS, "levels", 1, 8, KMX_BOUND_INTEGER, 8, nullptr, kOwnerSolver, kDcsvmMethods | kSvr,
     "DC-SVM levels lmax, at most: it starts at the deepest level whose clusters keep about 1000 rows"},
    {KMX_PARAM_CLUSTERS_PER_LEVEL, "clusters_per_level", 2, 64, KMX_BOUND_INTEGER, 4, nullptr, kOwnerSolver,
     kDcsvmMethods | kSvr, "DC-SVM k: level l has k^l clusters"},
    {KMX_PARAM_EARLY_LEVEL, "early_level", 0, 8, KMX_BOUND_INTEGER, 0, nullptr, kOwnerSolver, kDcsvmMethods,
     "dcsvm_early: the level whose models predict (at most levels; 0: chosen from the data, the coarsest level reached "
     "from the deepest while each coarser level's support vectors' kernel columns fit the cache and their kernel work, "
     "the sum over its clusters of rows x support vectors, is at most 2^32); bka: its clusters' level (0: 3)"},
    {KMX_PARAM_SAMPLE_SIZE, "sample_size", 2, 1e6, KMX_BOUND_INTEGER, 1000, nullptr, kOwnerSolver, kDcsvmMethods | kSvr,
     "DC-SVM kernel k-means sample m per level"},
    // kernel ridge regression: min (1/n) sum |f(x_i) - y_i|^2 + lambda |f|^2
    {KMX_PARAM_TASK, "task", 0, 2, KMX_BOUND_ENUM, KMX_TASK_AUTO, kTaskNames, kOwnerSolver, kKrrMethods | kTron,
     "KRR task; auto = regression when a label is not a whole number or there are more than 256 labels"},
    {KMX_PARAM_LAMBDA, "lambda", 0, kInf, KMX_BOUND_LOWER_OPEN | KMX_BOUND_UPPER_OPEN, 1e-6, nullptr, kOwnerSolver,
     kKrrMethods, "ridge lambda; exact KRR solves (G + n lambda I) a = y"},
    {KMX_PARAM_CENTERS, "centers", 0, 1e7, KMX_BOUND_INTEGER, 0, nullptr, kSolverApprox,
     bit(KMX_METHOD_NYSTROM_KRR) | bit(KMX_METHOD_FALKON) | kTron,
     "Nystrom landmarks / FALKON centers M / nystrom_tron basis m; 0 = auto: min(n, max(100, 5 sqrt n)), "
     "nystrom_tron at most 8192"},
    {KMX_PARAM_CENTER_METHOD, "center_method", 0, 2, KMX_BOUND_ENUM, KMX_CENTERS_UNIFORM, kCenterMethodNames,
     kOwnerSolver, bit(KMX_METHOD_NYSTROM_KRR) | bit(KMX_METHOD_FALKON) | kTron,
     "how the centers are chosen (nystrom_tron: uniform, or kmeans with 3 distributed Lloyd steps per stage)"},
    {KMX_PARAM_ITERATIONS, "iterations", 1, 1e6, KMX_BOUND_INTEGER, 20, nullptr, kOwnerSolver, bit(KMX_METHOD_FALKON),
     "FALKON: conjugate-gradient iterations at most"},
    {KMX_PARAM_TOLERANCE, "tolerance", 0, 1, KMX_BOUND_UPPER_OPEN, 1e-7, nullptr, kOwnerSolver, bit(KMX_METHOD_FALKON),
     "FALKON: stop when the relative residual is below it (0: iterations only)"},
    {KMX_PARAM_VALIDATION, "validation", 0, 0.5, KMX_BOUND_UPPER_OPEN, 0, nullptr, kOwnerSolver, bit(KMX_METHOD_FALKON),
     "FALKON: fraction of rows held out for early stopping (0: none)"},
    {KMX_PARAM_KERNEL_PRECISION, "kernel_precision", 0, 1, KMX_BOUND_ENUM, KMX_PRECISION_FLOAT64, kPrecisionNames,
     kOwnerSolver, bit(KMX_METHOD_FALKON),
     "FALKON: float32 computes K_nM's row blocks by sgemm and caches them in half the bytes (faster where the "
     "kernel GEMM dominates: large d, K_nM recomputed); K_MM, the preconditioner, the CG vectors and every sum stay "
     "float64"},
    {KMX_PARAM_REPRODUCIBLE, "reproducible", 0, 1, KMX_BOUND_INTEGER, 0, nullptr, kOwnerSolver, bit(KMX_METHOD_FALKON),
     "FALKON: 1 = sum K_nM's rows in bins, so the fit has the same bits however the rows are split across "
     "processes (always so on several ranks); 0 = one process sums them by GEMM, 20-30x faster per CG iteration"},
    // nystrom_tron: min 1/2 b'Wb + C sum_i c_i loss(y_i, K(x_i, B) b) by TRON
    {KMX_PARAM_LOSS, "loss", 0, 3, KMX_BOUND_ENUM, KMX_LOSS_AUTO, kLossNames, kOwnerSolver, kTron,
     "nystrom_tron loss; auto = squared_hinge for classification, squared for regression"},
    {KMX_PARAM_STAGES, "stages", 1, 30, KMX_BOUND_INTEGER, 1, nullptr, kOwnerSolver, kTron,
     "nystrom_tron: grow the basis in stages m/2^(s-1), ..., m/2, m, each warm-started from the last"},
    {KMX_PARAM_NEWTON_ITERATIONS, "newton_iterations", 1, 1e6, KMX_BOUND_INTEGER, 100, nullptr, kOwnerSolver, kTron,
     "nystrom_tron: TRON (trust-region Newton) iterations at most, per output and stage"},
    {KMX_PARAM_PRECONDITION, "precondition", 0, 1, KMX_BOUND_INTEGER, 1, nullptr, kOwnerSolver, kTron,
     "nystrom_tron: 1 = diagonal preconditioner in TRON's conjugate gradient (as LIBLINEAR)"},
    // svr: min 1/2 |w|^2 + C sum_i max(0, |f(x_i) - y_i| - epsilon_svr)
    {KMX_PARAM_EPSILON_SVR, "epsilon_svr", 0, kInf, KMX_BOUND_UPPER_OPEN, 0.1, nullptr, kOwnerSolver, kSvr,
     "svr: the epsilon-insensitive tube's half-width, as LIBSVM's -p (errors within it cost nothing)"},
    {KMX_PARAM_SVR_DCSVM, "svr_dcsvm", 0, 1, KMX_BOUND_INTEGER, 0, nullptr, kOwnerSolver, kSvr,
     "svr: 1 = DC-SVM's divide and conquer on the 2n-variable dual (a row's two variables in one cluster; with "
     "levels, clusters_per_level, sample_size), solved directly when dividing would not pay, as method dcsvm; "
     "0 = the dual solver alone, the default (faster on 40000 diamonds rows, 66% of them support vectors); "
     "precomputed and callback kernels always take it (no feature vectors to cluster)"},
    {KMX_PARAM_LIBSVM_FOLDS, "libsvm_folds", 0, 1, KMX_BOUND_INTEGER, 0, nullptr, kOwnerSolver, kAllMethods,
     "cross-validation: 1 = LIBSVM's folds (the rows svm-train -v K and grid.py put in each fold: glibc's rand() as "
     "svm-train leaves it, classes by first appearance), so that scores compare with theirs on the same rows; 0 = "
     "kmx's folds from the context's seed"},
    // one_class: min 1/2 a'Ka, 0 <= a_i <= 1, sum_i a_i = nu n (LIBSVM's -s 2)
    {KMX_PARAM_NU, "nu", 0, 1, KMX_BOUND_LOWER_OPEN, 0.5, nullptr, kOwnerSolver, kOneClass,
     "one_class: nu, as LIBSVM's -n: at most a fraction nu of the training rows fall outside (f < 0), at least nu "
     "are support vectors"},
    // probability estimates of the SVM classifiers (LIBSVM's -b 1)
    {KMX_PARAM_PROBABILITY, "probability", 0, 1, KMX_BOUND_INTEGER, 0, nullptr, kOwnerSolver, kSvmMethods,
     "1 = probability estimates: each binary machine's Platt sigmoid fitted on the decision values of an internal "
     "5-fold cross-validation (as LIBSVM's -b 1, folds from the seed; training takes about 6 times as long), "
     "classes coupled pairwise (one-vs-rest: normalised); not for svr, one_class or the KRR methods"},
    // kernel approximations (nystrom_krr and meka_krr take them too)
    {KMX_PARAM_APPROX, "approx", 0, 2, KMX_BOUND_ENUM, KMX_APPROX_NYSTROM, kApproxNames, kOwnerApprox, 0,
     "approximation method"},
    {KMX_PARAM_RANK, "rank", 0, 1e6, KMX_BOUND_INTEGER, 0, nullptr, kSolverApprox, bit(KMX_METHOD_NYSTROM_KRR) | kMeka,
     "Nystrom: rank k of the truncation (0: none); MEKA: rank per cluster (0: auto)"},
    {KMX_PARAM_CLUSTERS, "clusters", 0, 1e6, KMX_BOUND_INTEGER, 0, nullptr, kSolverApprox, kMeka,
     "MEKA clusters c; 0 = auto"},
    {KMX_PARAM_THRESHOLD, "threshold", 0, kInf, KMX_BOUND_UPPER_OPEN, 1e-3, nullptr, kSolverApprox, kMeka,
     "MEKA: skip the blocks whose center kernel value K(center_s, center_t) is below it"},
    {KMX_PARAM_OVERSAMPLING, "oversampling", 0, 16, 0, 2, nullptr, kSolverApprox, kMeka,
     "MEKA rho: link blocks sample (1 + rho) k rows"},
    {KMX_PARAM_RANK_BY_SIZE, "rank_by_size", 0, 1, KMX_BOUND_INTEGER, 0, nullptr, kSolverApprox, kMeka,
     "MEKA: 1 = ranks proportional to cluster sizes, 0 = equal ranks"},
    // compact predictors
    {KMX_PARAM_MAX_BYTES, "max_bytes", 0, kMaxExact, KMX_BOUND_INTEGER, 0, nullptr, kOwnerPredictor, 0,
     "SVM models: the predictor's blob in at most this many bytes, the most accurate found on a validation split; "
     "0 = no limit"},
    {KMX_PARAM_MAX_US, "max_us", 0, kInf, KMX_BOUND_UPPER_OPEN, 0, nullptr, kOwnerPredictor, 0,
     "SVM models: at most this many microseconds per row (one row at a time, measured on this machine), the most "
     "accurate found on a validation split; 0 = no limit"},
    {KMX_PARAM_LEAVES, "leaves", 0, 1e6, KMX_BOUND_INTEGER, 0, nullptr, kOwnerPredictor, 0,
     "k-means tree leaves; 0 = auto: about 16 support vectors per leaf, at most 256"},
    {KMX_PARAM_LANDMARKS, "landmarks", 0, 1e5, KMX_BOUND_INTEGER, 0, nullptr, kOwnerPredictor, 0,
     "landmarks per leaf; 0 = auto: 40, fewer in small leaves"},
    {KMX_PARAM_PSEUDO, "pseudo", -1, 1e5, KMX_BOUND_INTEGER, -1, nullptr, kOwnerPredictor, 0,
     "pseudo-landmarks per leaf; -1 = auto (none)"},
    {KMX_PARAM_FLOAT32, "float32", 0, 1, KMX_BOUND_INTEGER, 0, nullptr, kOwnerPredictor, 0,
     "1 = store the predictor as float (half the bytes), 0 = double; storage=float32 says the same"},
    {KMX_PARAM_STORAGE, "storage", 0, 4, KMX_BOUND_ENUM, KMX_STORAGE_FLOAT64, kStorageNames, kOwnerPredictor, 0,
     "how the predictor stores its numbers: float64; float32 (half the bytes); int16 or int8 (landmarks as "
     "integers with a scale per leaf, the rest float32; the leaves' models are fitted to them); int4 (landmarks "
     "as 4-bit codes into 16 values per feature and leaf: exact where a feature takes at most 16 values)"},
};

// Aliases accepted for enum values in the string form.
struct EnumAlias {
    kmx_param param;
    const char *name;
    int value;
};
const EnumAlias kAliases[] = {
    {KMX_PARAM_KERNEL, "gaussian", KMX_KERNEL_RBF},
    {KMX_PARAM_KERNEL, "laplace", KMX_KERNEL_LAPLACIAN},
    {KMX_PARAM_KERNEL, "poly", KMX_KERNEL_POLYNOMIAL},
    {KMX_PARAM_METHOD, "dcsvm-early", KMX_METHOD_DCSVM_EARLY},
    {KMX_PARAM_METHOD, "nystrom-krr", KMX_METHOD_NYSTROM_KRR},
    {KMX_PARAM_METHOD, "meka-krr", KMX_METHOD_MEKA_KRR},
    {KMX_PARAM_METHOD, "nystrom-tron", KMX_METHOD_NYSTROM_TRON},
    {KMX_PARAM_METHOD, "one-class", KMX_METHOD_ONE_CLASS},
    {KMX_PARAM_LOSS, "squared-hinge", KMX_LOSS_SQUARED_HINGE},
    {KMX_PARAM_APPROX, "kmeans-nystrom", KMX_APPROX_KMEANS_NYSTROM},
};

bool token_is(const char *token, size_t len, const char *name) {
    return std::strlen(name) == len && std::strncmp(token, name, len) == 0;
}

// Whether `token` spells value name `name`, a dash standing for an underscore
// (the CLI's spelling: "dcsvm-early" is "dcsvm_early").
bool token_spells(const char *token, size_t len, const char *name) {
    if (std::strlen(name) != len) return false;
    for (size_t i = 0; i < len; ++i)
        if (token[i] != name[i] && !(token[i] == '-' && name[i] == '_')) return false;
    return true;
}

// An enum value given by name (or alias); -1 if unknown.
int enum_value(const ParamSpec &spec, const char *token, size_t len) {
    for (int v = 0; spec.enum_names[v]; ++v)
        if (token_spells(token, len, spec.enum_names[v])) return v;
    for (const EnumAlias &alias : kAliases)
        if (alias.param == spec.id && token_is(token, len, alias.name)) return alias.value;
    return -1;
}

double parse_value(const ParamSpec &spec, const char *token, size_t len) {
    char text[128];
    if (len == 0 || len >= sizeof text) fail(KMX_E_INVALID_ARGUMENT, "parameter %s has no valid value", spec.name);
    std::memcpy(text, token, len);
    text[len] = '\0';
    if (spec.flags & KMX_BOUND_ENUM) {
        const int v = enum_value(spec, token, len);
        if (v >= 0) return v;
    }
    // Decimal numbers only, as in data files (from_chars): no hexadecimal
    // (threads=0x10), no leading blanks; a leading '+' is allowed.
    const char *number = text[0] == '+' && text[1] != '-' ? text + 1 : text;
    double value = 0;
    const std::from_chars_result parsed = std::from_chars(number, text + len, value);
    if (parsed.ec == std::errc::result_out_of_range && parsed.ptr == text + len)
        fail(KMX_E_INVALID_ARGUMENT, "parameter %s: '%s' is beyond a double's range", spec.name, text);
    if (parsed.ec != std::errc() || parsed.ptr != text + len) {
        char range[256];
        describe_range(spec, range, sizeof range);
        fail(KMX_E_INVALID_ARGUMENT, "parameter %s: '%s' is not %s; allowed: %s", spec.name, text,
             (spec.flags & KMX_BOUND_ENUM) ? "one of its values" : "a decimal number", range);
    }
    return value;
}

// "threads, seed, memory_budget" for the parameters a group accepts.
void list_names(const ParamGroup &group, char *out, size_t out_len) {
    size_t used = 0;
    out[0] = '\0';
    for (const ParamSpec &spec : kParams)
        if ((spec.owners & group.owner) && used < out_len)
            used += std::snprintf(out + used, out_len - used, "%s%s", used ? ", " : "", spec.name);
}

}  // namespace

int param_count() { return int(sizeof kParams / sizeof kParams[0]); }

const ParamSpec &param_at(int index) { return kParams[index]; }

const ParamSpec *find_param(kmx_param param) {
    for (const ParamSpec &spec : kParams)
        if (spec.id == param) return &spec;
    return nullptr;
}

const ParamSpec *find_param(const char *name, size_t name_len) {
    for (const ParamSpec &spec : kParams)
        if (token_is(name, name_len, spec.name)) return &spec;
    return nullptr;
}

void describe_range(const ParamSpec &spec, char *out, size_t out_len) {
    if (spec.flags & KMX_BOUND_ENUM) {
        size_t used = std::snprintf(out, out_len, "one of {");
        for (int v = 0; spec.enum_names[v] && used < out_len; ++v)
            used += std::snprintf(out + used, out_len - used, "%s%s=%d", v ? ", " : "", spec.enum_names[v], v);
        if (used < out_len) std::snprintf(out + used, out_len - used, "}");
        return;
    }
    char upper[48];  // 2^53, the byte counts' "no limit", said so rather than as 9007199254740992
    if (spec.upper == 0x1p53)
        std::snprintf(upper, sizeof upper, "2^53 (no limit)");
    else
        std::snprintf(upper, sizeof upper, "%.17g", spec.upper);
    std::snprintf(out, out_len, "%s%c%.17g, %s%c", (spec.flags & KMX_BOUND_INTEGER) ? "whole numbers in " : "",
                  (spec.flags & KMX_BOUND_LOWER_OPEN) ? '(' : '[', spec.lower, upper,
                  (spec.flags & KMX_BOUND_UPPER_OPEN) ? ')' : ']');
}

void check_param(const ParamSpec &spec, double value) {
    bool ok = !std::isnan(value);
    ok = ok && ((spec.flags & KMX_BOUND_LOWER_OPEN) ? value > spec.lower : value >= spec.lower);
    ok = ok && ((spec.flags & KMX_BOUND_UPPER_OPEN) ? value < spec.upper : value <= spec.upper);
    if (spec.flags & (KMX_BOUND_INTEGER | KMX_BOUND_ENUM)) ok = ok && value == std::floor(value);
    if (ok) return;
    char range[256];
    describe_range(spec, range, sizeof range);
    fail(KMX_E_INVALID_ARGUMENT, "parameter %s = %g is out of range; allowed: %s", spec.name, value, range);
}

const char *param_value_name(const ParamSpec &spec, double value) {
    if (!(spec.flags & KMX_BOUND_ENUM) || !(value >= 0) || value != std::floor(value)) return nullptr;
    for (int v = 0; spec.enum_names[v]; ++v)
        if (v == value) return spec.enum_names[v];
    return nullptr;
}

bool ParamGroup::has(kmx_param param) const {
    const ParamSpec *spec = find_param(param);
    return spec && (spec->owners & owner);
}

void ParamGroup::require_member(kmx_param param) const {
    if (has(param)) return;
    const ParamSpec *spec = find_param(param);
    char names[512];
    list_names(*this, names, sizeof names);
    if (!spec) fail(KMX_E_INVALID_ARGUMENT, "unknown parameter %d; a %s takes: %s", int(param), name, names);
    fail(KMX_E_INVALID_ARGUMENT, "parameter %s does not apply to a %s, which takes: %s", spec->name, name, names);
}

void ParamGroup::check(kmx_param param, double value) const {
    require_member(param);
    check_param(*find_param(param), value);
}

ParamList::ParamList(const char *text, const ParamGroup &group) {
    if (!text) return;
    const char *p = text;
    for (;;) {
        while (std::isspace(static_cast<unsigned char>(*p)) || *p == ',') ++p;
        if (!*p) break;
        const char *key = p;
        while (*p && *p != '=' && !std::isspace(static_cast<unsigned char>(*p)) && *p != ',') ++p;
        const size_t key_len = size_t(p - key);
        if (*p != '=') fail(KMX_E_INVALID_ARGUMENT, "expected key=value, got '%.*s'", int(key_len), key);
        const char *value = ++p;
        while (*p && !std::isspace(static_cast<unsigned char>(*p)) && *p != ',') ++p;
        const ParamSpec *spec = find_param(key, key_len);
        if (!spec) {
            char names[512];
            list_names(group, names, sizeof names);
            fail(KMX_E_INVALID_ARGUMENT, "unknown parameter '%.*s'; a %s takes: %s", int(key_len), key, group.name,
                 names);
        }
        group.require_member(spec->id);
        const double v = parse_value(*spec, value, size_t(p - value));
        check_param(*spec, v);
        if (count_ == kMax) fail(KMX_E_INVALID_ARGUMENT, "more than %d parameters in one string", kMax);
        items_[count_++] = {spec, v};
    }
}

double ParamList::get(kmx_param param, double fallback) const {
    double value = fallback;
    for (int i = 0; i < count_; ++i)
        if (items_[i].spec->id == param) value = items_[i].value;
    return value;
}

double ParamList::get_or_default(kmx_param param) const { return get(param, find_param(param)->default_value); }

}  // namespace kmx
