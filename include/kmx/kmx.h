/*
 * kmx.h — the stable C ABI of kmx, a library of scalable kernel machines.
 *
 * Conventions (after libgit2 and zstd):
 *  - Every fallible function returns kmx_status (KMX_OK == 0). On failure,
 *    kmx_last_error() holds a message for the calling thread.
 *  - Outputs come first and are named out/out_*. A handle returned through
 *    `out` belongs to the caller and is released by its NULL-safe _free.
 *  - No struct layout crosses the ABI. Options are enum-keyed parameters
 *    (kmx_param) set by value or by a "key=value key=value" string (a value is
 *    a decimal number, e.g. 0.5, -2, 1e-3, or a value name; not hexadecimal);
 *    new options add enum values, never fields.
 *  - Sizes and counts are int64_t. Matrices are dense, row-major doubles.
 *
 * Thread safety: a kmx_context is used by one thread at a time, except
 * kmx_context_cancel(), which any thread may call. A kmx_kernel is immutable
 * once its parameters are set and may then be shared by many threads.
 * A kmx_dataset's values are read-only after creation; its sample weights may
 * be set (kmx_dataset_set_weights) before it is shared by many threads.
 * There is no global mutable state.
 */
#ifndef KMX_KMX_H
#define KMX_KMX_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* KMX_API marks the exported functions: dllexport/dllimport on Windows,
 * default visibility with GCC and Clang (the library builds hidden). */
#if defined(_WIN32) && defined(KMX_BUILDING_LIBRARY)
#define KMX_API __declspec(dllexport)
#elif defined(_WIN32) && !defined(KMX_STATIC)
#define KMX_API __declspec(dllimport)
#elif defined(KMX_BUILDING_LIBRARY) && defined(__GNUC__)
#define KMX_API __attribute__((visibility("default")))
#else
#define KMX_API
#endif

/* ------------------------------------------------------------------ version */
/* KMX_VERSION_MAJOR, _MINOR, _PATCH, _NUMBER (major * 10000 + minor * 100 +
 * patch) and _STRING ("MAJOR.MINOR.PATCH"), generated from the build's one
 * version. */
#include "kmx/kmx_version.h"

/* The library's version as "MAJOR.MINOR.PATCH". Compare with KMX_VERSION_STRING
 * to check that the header matches the library at run time. */
KMX_API const char *kmx_version(void);
/* The library's KMX_VERSION_NUMBER. */
KMX_API int kmx_version_number(void);

/* ------------------------------------------------------------------- status */
/* clang-format off */
/* The one list of status codes: the enum and kmx_status_name() are both made
 * from it. Numeric values are frozen: never renumber, only append. */
#define KMX_STATUS_LIST(X)                                                     \
    X(KMX_OK, 0)                /* success */                                  \
    X(KMX_E_INVALID_ARGUMENT, 1) /* bad pointer, size or parameter value */    \
    X(KMX_E_OUT_OF_MEMORY, 2)   /* memory budget too small, or no memory */    \
    X(KMX_E_IO, 3)              /* a file could not be opened/read/written */  \
    X(KMX_E_FORMAT, 4)          /* malformed input file or corrupt model */    \
    X(KMX_E_NOT_CONVERGED, 5)   /* a solver stopped before its tolerance */    \
    X(KMX_E_UNSUPPORTED, 6)     /* valid request this build cannot do */       \
    X(KMX_E_CANCELLED, 7)       /* stopped by kmx_context_cancel/progress */   \
    X(KMX_E_INTERNAL, 8)        /* a bug in kmx: please report it */           \
    X(KMX_E_NUMERICAL, 9)       /* a factorization failed (not positive definite) */

#define KMX_STATUS_ENUM_ITEM_(name, value) name = value,
typedef enum kmx_status {
    KMX_STATUS_LIST(KMX_STATUS_ENUM_ITEM_)
    KMX_STATUS_FORCE_INT_ = 0x7FFFFFFF /* not a value */
} kmx_status;
#undef KMX_STATUS_ENUM_ITEM_
/* clang-format on */

/* "KMX_OK", "KMX_E_INVALID_ARGUMENT", ...; "KMX_E_UNKNOWN" for other values. */
KMX_API const char *kmx_status_name(kmx_status status);

/* The message of the last failure on this thread ("" if none). The text lives
 * in fixed-size thread-local storage: valid until the next kmx call on this
 * thread; reporting never allocates. */
KMX_API const char *kmx_last_error(void);
/* Forget the last error on this thread. */
KMX_API void kmx_clear_error(void);

/* --------------------------------------------------------------- parameters */
/* Every tunable value in kmx. Values are passed as double; integer
 * parameters must hold whole numbers; enum parameters hold the enum value
 * (in the string form they may also be given by name, e.g. "kernel=rbf", a
 * dash standing for an underscore as the CLI spells it: "method=dcsvm-early").
 * Each parameter is described once, in the library's table: its range
 * (kmx_param_bounds), default (kmx_param_default), meaning
 * (kmx_param_description), the names of its values (kmx_param_value_name),
 * the objects that take it (kmx_param_owners) and the methods that use it
 * (kmx_param_used_by). `kmx params` prints the whole table. */
typedef enum kmx_param {
    /* context */
    KMX_PARAM_THREADS = 100,
    KMX_PARAM_SEED = 101,
    KMX_PARAM_MEMORY_BUDGET = 102,
    KMX_PARAM_LOG_LEVEL = 103, /* a kmx_log_level */
    KMX_PARAM_PRECISION = 104, /* a kmx_precision: how kmx_dataset_load stores feature values */
    /* kernel */
    KMX_PARAM_KERNEL = 200, /* a kmx_kernel_type */
    KMX_PARAM_GAMMA = 201,
    KMX_PARAM_COEF0 = 202,
    KMX_PARAM_DEGREE = 203,
    /* k-means */
    KMX_PARAM_KMEANS_MAX_ITER = 301,
    KMX_PARAM_KMEANS_TOL = 302,
    /* solvers (kmx_solver) */
    KMX_PARAM_METHOD = 400, /* a kmx_method */
    KMX_PARAM_C = 401,
    KMX_PARAM_EPS = 402,
    KMX_PARAM_BIAS = 403, /* a kmx_bias */
    KMX_PARAM_SHRINKING = 404,
    KMX_PARAM_CACHE_SIZE = 405,
    KMX_PARAM_MULTICLASS = 406, /* a kmx_multiclass */
    KMX_PARAM_LEVELS = 407,
    KMX_PARAM_CLUSTERS_PER_LEVEL = 408,
    KMX_PARAM_EARLY_LEVEL = 409,
    KMX_PARAM_SAMPLE_SIZE = 410,
    /* kernel ridge regression (krr, nystrom_krr, meka_krr, falkon): min (1/n) sum |f(x_i) - y_i|^2 + lambda |f|^2 */
    KMX_PARAM_TASK = 411, /* a kmx_task */
    KMX_PARAM_LAMBDA = 412,
    KMX_PARAM_CENTERS = 413,
    KMX_PARAM_CENTER_METHOD = 414, /* a kmx_center_method */
    KMX_PARAM_ITERATIONS = 415,
    KMX_PARAM_TOLERANCE = 416,
    KMX_PARAM_VALIDATION = 417,
    KMX_PARAM_KERNEL_PRECISION = 422, /* a kmx_precision: FALKON computes and caches K_nM in float32 or float64 */
    KMX_PARAM_REPRODUCIBLE = 430,     /* FALKON: 1 = the same bits however the rows are split across processes */
    /* nystrom_tron (with C, eps, task, centers, center_method, cache_size) */
    KMX_PARAM_LOSS = 418, /* a kmx_loss */
    KMX_PARAM_STAGES = 419,
    KMX_PARAM_NEWTON_ITERATIONS = 420,
    KMX_PARAM_PRECONDITION = 421,
    /* svr (with C, eps, bias, shrinking, cache_size) */
    KMX_PARAM_EPSILON_SVR = 423, /* the width of the epsilon-insensitive tube (LIBSVM's -p) */
    /* svr: 1 = DC-SVM's divide and conquer (with levels, clusters_per_level, sample_size; it solves directly
     * when dividing would not pay, as method dcsvm), 0 = the dual solver alone (LIBSVM's algorithm; default) */
    KMX_PARAM_SVR_DCSVM = 440,
    /* cross-validation (kmx_solver_cross_validate, _path): 1 = LIBSVM's folds, the rows svm-train -v K puts in each
     * fold (glibc's rand() as svm-train leaves it seeded, classes by first appearance), so that scores compare
     * with svm-train's and grid.py's on the same rows; 0 = kmx's folds from the context's seed (default) */
    KMX_PARAM_LIBSVM_FOLDS = 441,
    /* one_class (with eps, shrinking, cache_size) */
    KMX_PARAM_NU = 424, /* nu in (0, 1]: an upper bound on the fraction of outliers (LIBSVM's -n) */
    /* svm, dcsvm, dcsvm_early, bka classifiers: 1 = probability estimates (LIBSVM's -b 1), Platt sigmoids
     * fitted on decision values of an internal 5-fold cross-validation (folds from the context's seed) */
    KMX_PARAM_PROBABILITY = 425,
    /* kernel approximations (kmx_approx; nystrom_krr and meka_krr take them too) */
    KMX_PARAM_APPROX = 500, /* a kmx_approx_method */
    KMX_PARAM_RANK = 501,     /* MEKA: rank per cluster; 0 (default) with clusters 0: chosen on held-out rows */
    KMX_PARAM_CLUSTERS = 502, /* MEKA: clusters c; 0 (default) = automatic (c = 1, one basis, among the choices) */
    KMX_PARAM_THRESHOLD = 503,
    KMX_PARAM_OVERSAMPLING = 504,
    KMX_PARAM_RANK_BY_SIZE = 505,
    /* compact predictors (kmx_predictor) */
    /* a budget: kmx_predictor_build searches the knobs below on a validation
     * split of the training rows for the most accurate predictor within it
     * (the four best cross-validated on five folds) */
    KMX_PARAM_MAX_BYTES = 610, /* the blob's bytes at most; 0 = no limit */
    KMX_PARAM_MAX_US = 611,    /* microseconds per row, one row at a time, on this machine; 0 = no limit */
    KMX_PARAM_LEAVES = 600,
    KMX_PARAM_LANDMARKS = 601,
    KMX_PARAM_PSEUDO = 602,
    KMX_PARAM_FLOAT32 = 603, /* 1 = storage float32 (the older spelling) */
    KMX_PARAM_STORAGE = 604, /* a kmx_storage */
    KMX_PARAM_FORCE_INT_ = 0x7FFFFFFF /* not a value */
} kmx_param;

/* Bound flags returned by kmx_param_bounds(). */
#define KMX_BOUND_LOWER_OPEN 1 /* lower bound excluded */
#define KMX_BOUND_UPPER_OPEN 2 /* upper bound excluded */
#define KMX_BOUND_INTEGER 4    /* only whole numbers */
#define KMX_BOUND_ENUM 8       /* an enum: whole numbers, names accepted */

/* Owner bits returned by kmx_param_owners(): the objects that take a parameter. */
#define KMX_PARAM_OWNER_CONTEXT 1
#define KMX_PARAM_OWNER_KERNEL 2
#define KMX_PARAM_OWNER_KMEANS 4
#define KMX_PARAM_OWNER_SOLVER 8
#define KMX_PARAM_OWNER_APPROX 16
#define KMX_PARAM_OWNER_PREDICTOR 32

/* How many parameters there are, and the one at `index` (table order, 0-based). */
KMX_API int64_t kmx_param_count(void);
KMX_API kmx_status kmx_param_at(kmx_param *out, int64_t index);
/* The allowed range of a parameter. */
KMX_API kmx_status kmx_param_bounds(double *out_lower, double *out_upper, int *out_flags, kmx_param param);
/* The value a new object starts with (0 often means "auto": see the description). */
KMX_API kmx_status kmx_param_default(double *out, kmx_param param);
/* KMX_PARAM_OWNER_* bits of the objects that take the parameter. */
KMX_API kmx_status kmx_param_owners(int64_t *out, kmx_param param);
/* The parameter's name in the "key=value" form ("threads", "gamma", ...); "" if unknown. */
KMX_API const char *kmx_param_name(kmx_param param);
/* One line on what the parameter is and what its special values mean; "" if unknown. */
KMX_API const char *kmx_param_description(kmx_param param);
/* The name of an enum parameter's value ("rbf" for KMX_PARAM_KERNEL, 0), or
 * NULL when the parameter is not an enum or `value` is not one of its values. */
KMX_API const char *kmx_param_value_name(kmx_param param, double value);
/* Looks a parameter up by its name. */
KMX_API kmx_status kmx_param_from_name(kmx_param *out, const char *name);
/* KMX_OK if `value` is allowed for `param`, else KMX_E_INVALID_ARGUMENT with a
 * message naming the parameter and its allowed range. Changes nothing. */
KMX_API kmx_status kmx_param_check(kmx_param param, double value);

/* ------------------------------------------------------------------ context */
typedef struct kmx_context kmx_context;

typedef enum kmx_log_level {
    KMX_LOG_ERROR = 0,
    KMX_LOG_WARNING = 1,
    KMX_LOG_INFO = 2,
    KMX_LOG_DEBUG = 3,
    KMX_LOG_FORCE_INT_ = 0x7FFFFFFF /* not a value */
} kmx_log_level;

/* Receives log messages; `message` is valid only during the call. */
typedef void (*kmx_log_fn)(void *user_data, kmx_log_level level, const char *message);
/* Receives progress: fraction done in [0,1] and the current phase's name.
 * Return nonzero to cancel the running call (it then fails with KMX_E_CANCELLED). */
typedef int (*kmx_progress_fn)(void *user_data, double fraction, const char *phase);

/* A context carries threads, seed, memory budget and callbacks for the calls
 * made with it. The budget spans the context's lasting objects too: a dataset
 * loaded (or parsed, or made dense) with ctx counts against it while it lives. */
KMX_API kmx_status kmx_context_create(kmx_context **out);
KMX_API void kmx_context_free(kmx_context *ctx);
KMX_API kmx_status kmx_context_set_param(kmx_context *ctx, kmx_param param, double value);
KMX_API kmx_status kmx_context_get_param(double *out, const kmx_context *ctx, kmx_param param);
/* "threads=2 seed=7 memory_budget=1e9": all checked first; on error nothing changes. */
KMX_API kmx_status kmx_context_set_params(kmx_context *ctx, const char *params);
/* NULL fn removes the callback. */
KMX_API kmx_status kmx_context_set_log_callback(kmx_context *ctx, kmx_log_fn fn, void *user_data);
KMX_API kmx_status kmx_context_set_progress_callback(kmx_context *ctx, kmx_progress_fn fn, void *user_data);
/* Asks the call running with ctx to stop soon (it fails with KMX_E_CANCELLED).
 * Safe from any thread. The request is cleared when the next call starts. */
KMX_API kmx_status kmx_context_cancel(kmx_context *ctx);
/* Largest reservation in bytes during the last call on ctx: its workspace plus
 * the datasets loaded with ctx still alive then. */
KMX_API kmx_status kmx_context_peak_bytes(int64_t *out, const kmx_context *ctx);

/* ------------------------------------------------------------------ dataset */
typedef struct kmx_dataset kmx_dataset;

typedef enum kmx_ownership {
    KMX_COPY = 0,                         /* kmx copies the caller's arrays */
    KMX_BORROW = 1,                       /* kmx uses them in place; they must outlive the dataset */
    KMX_OWNERSHIP_FORCE_INT_ = 0x7FFFFFFF /* not a value */
} kmx_ownership;

typedef enum kmx_format {
    KMX_FORMAT_AUTO = 0,               /* .kmxd by its magic, else text detected from the first data line */
    KMX_FORMAT_LIBSVM = 1,             /* "label j:v j:v ...", j 1-based and increasing */
    KMX_FORMAT_CSV = 2,                /* "label,x1,...,xd", no header */
    KMX_FORMAT_KMXD = 3,               /* kmx's binary dataset file (kmx convert), used in place */
    KMX_FORMAT_PRECOMPUTED = 4,        /* LIBSVM's precomputed-kernel rows "label 0:i 1:K(x,x1) ... l:K(x,xl)":
                                          index j becomes column j (0: the serial number, "0:?" reads as 0) */
    KMX_FORMAT_FORCE_INT_ = 0x7FFFFFFF /* not a value */
} kmx_format;

typedef enum kmx_precision {
    KMX_PRECISION_FLOAT64 = 0,            /* feature values stored as doubles */
    KMX_PRECISION_FLOAT32 = 1,            /* as floats: half the memory; kernels still compute in double */
    KMX_PRECISION_FORCE_INT_ = 0x7FFFFFFF /* not a value */
} kmx_precision;

/* A dataset from dense row-major x (n rows, d columns) and optional targets y
 * (length n; NULL for none). Values must be finite. */
KMX_API kmx_status kmx_dataset_create(kmx_dataset **out, const double *x, int64_t n, int64_t d, const double *y,
                                      kmx_ownership ownership);
/* A dataset from CSR arrays (scipy.sparse.csr_matrix's layout, 0-based): row r
 * holds entries row_ptr[r] .. row_ptr[r+1]-1 of col and values, its columns
 * increasing and in [0, d); row_ptr has n+1 entries, starts at 0 and never
 * decreases (col and values may be NULL when row_ptr[n] = 0). The dataset
 * stays sparse, as a sparse LIBSVM file does: a column a row does not list is
 * zero, and so are columns past d when a model trained on more predicts it.
 * Values and y (NULL for none) must be finite. KMX_BORROW uses the arrays in
 * place (they must outlive the dataset); KMX_COPY copies them into one block
 * counted against ctx's memory budget while the dataset lives (ctx may be NULL). */
KMX_API kmx_status kmx_dataset_create_csr(kmx_dataset **out, kmx_context *ctx, const int64_t *row_ptr,
                                          const int32_t *col, const double *values, int64_t n, int64_t d,
                                          const double *y, kmx_ownership ownership);
/* Reads a LIBSVM or CSV file (label first). Sparse LIBSVM input stays sparse
 * (CSR) when d is large and few entries are nonzero, else becomes dense rows.
 * ctx may be NULL; its memory budget bounds the dataset's size. A malformed
 * file fails with KMX_E_FORMAT naming file, line and column. A .kmxd file
 * (written by `kmx convert`) is mapped and its arrays used in place, not
 * copied, after its checksums and structure are verified; a truncated or
 * corrupt one fails with KMX_E_FORMAT naming the file and the fault. */
KMX_API kmx_status kmx_dataset_load(kmx_dataset **out, kmx_context *ctx, const char *path, kmx_format format);
/* Like kmx_dataset_load, from text in memory (`name` appears in messages);
 * the bytes of a .kmxd file are copied and decoded. */
KMX_API kmx_status kmx_dataset_parse(kmx_dataset **out, kmx_context *ctx, const char *text, int64_t text_len,
                                     kmx_format format, const char *name);
KMX_API void kmx_dataset_free(kmx_dataset *ds);
/* Writes ds (dense or CSR, with its labels and weights) to `path` as a .kmxd
 * file, atomically: a versioned header, then the arrays as they lie in memory
 * (little-endian, 64-byte aligned, a CRC-32 per MiB), so kmx_dataset_load
 * maps them in place. The values are stored as floats when precision is
 * KMX_PRECISION_FLOAT32 (a value beyond float range is KMX_E_INVALID_ARGUMENT)
 * or ds already holds floats. */
KMX_API kmx_status kmx_dataset_save(const kmx_dataset *ds, const char *path, kmx_precision precision);
/* Per-row sample weights (copied; finite and >= 0, not all zero). */
KMX_API kmx_status kmx_dataset_set_weights(kmx_dataset *ds, const double *w, int64_t n);
KMX_API kmx_status kmx_dataset_rows(int64_t *out, const kmx_dataset *ds);
KMX_API kmx_status kmx_dataset_cols(int64_t *out, const kmx_dataset *ds);
/* Number of stored nonzeros (n*d for dense data). */
KMX_API kmx_status kmx_dataset_nnz(int64_t *out, const kmx_dataset *ds);
/* Number of values that are not zero: the stored ones but explicit zeros
 * (a LIBSVM "3:0"); time proportional to the stored values, not to n*d. */
KMX_API kmx_status kmx_dataset_nonzeros(int64_t *out, const kmx_dataset *ds);
/* 1 if the dataset is stored sparse (CSR), else 0. */
KMX_API kmx_status kmx_dataset_is_sparse(int *out, const kmx_dataset *ds);
/* 1 if the feature values are stored as floats (kmx_dataset_get_rows gives doubles either way). */
KMX_API kmx_status kmx_dataset_is_float32(int *out, const kmx_dataset *ds);
/* 1 if it has labels/targets, 1 if it has weights. */
KMX_API kmx_status kmx_dataset_has_labels(int *out, const kmx_dataset *ds);
KMX_API kmx_status kmx_dataset_has_weights(int *out, const kmx_dataset *ds);
/* Copies rows [row_begin, row_end) as dense row-major values into out
 * (out_len >= (row_end-row_begin)*d). Works for dense and sparse datasets. */
KMX_API kmx_status kmx_dataset_get_rows(double *out, int64_t out_len, const kmx_dataset *ds, int64_t row_begin,
                                        int64_t row_end);
/* Copies the n labels/targets into out. */
KMX_API kmx_status kmx_dataset_get_labels(double *out, int64_t out_len, const kmx_dataset *ds);
/* Distinct label values in increasing order and their counts. Pass out_len 0
 * to learn the number of classes through out_count only. */
KMX_API kmx_status kmx_dataset_classes(int64_t *out_count, double *out_labels, int64_t *out_counts, int64_t out_len,
                                       const kmx_dataset *ds);
/* A dense copy of a (possibly sparse) dataset, within ctx's budget (ctx may be NULL). */
KMX_API kmx_status kmx_dataset_to_dense(kmx_dataset **out, kmx_context *ctx, const kmx_dataset *ds);

/* ------------------------------------------------------------------- kernel */
typedef struct kmx_kernel kmx_kernel;

typedef enum kmx_kernel_type {
    KMX_KERNEL_RBF = 0,                /* exp(-gamma |a-b|^2)  (Gaussian) */
    KMX_KERNEL_LAPLACIAN = 1,          /* exp(-gamma |a-b|_1) */
    KMX_KERNEL_POLYNOMIAL = 2,         /* (gamma a.b + coef0)^degree */
    KMX_KERNEL_LINEAR = 3,             /* a.b */
    KMX_KERNEL_SIGMOID = 4,            /* tanh(gamma a.b + coef0) */
    KMX_KERNEL_PRECOMPUTED = 5,        /* the caller's kernel matrix (LIBSVM's -t 4): see below */
    KMX_KERNEL_CALLBACK = 6,           /* the caller's function (kmx_kernel_create_callback only) */
    KMX_KERNEL_FORCE_INT_ = 0x7FFFFFFF /* not a value */
} kmx_kernel_type;

/* Precomputed kernel (LIBSVM's -t 4). A row is x = (s, K(x, x_1), ..., K(x, x_l)): column 0 holds the row's
 * serial number s (1-based: training row i of l has s = i, its kernel row K(x_i, x_1..l) in columns 1..l), and
 * K(x, x') = x[s'], the column of x named by x''s serial number. Training data are the square matrix: l rows,
 * l + 1 columns, each serial 1..l once, K symmetric (to 1e-6 relative to its largest value); a test row is
 * (anything, K(x, x_1), ..., K(x, x_l)) with the training rows' order. KMX_FORMAT_PRECOMPUTED reads LIBSVM's
 * text of it. Models store their support vectors as serial numbers (as LIBSVM's), so predicting reads the
 * kernel values in the support vectors' columns. Only the dual solver's methods (svm, svr, one_class) take
 * precomputed or callback kernels: the others need feature vectors (clusters, landmarks) and refuse them, as do
 * kmx_approx_create and kmx_predictor_build. */
KMX_API kmx_status kmx_kernel_create(kmx_kernel **out, kmx_kernel_type type);
/* The caller's kernel function (scikit-learn's callable kernel): fills out[i*nb + j] = K(a_i, b_j) for the
 * row-major blocks a (na x d) and b (nb x d) and returns KMX_OK; or writes a NUL-terminated reason into message
 * (message_len bytes) and returns another kmx_status, which stops the call that needed the block with that status
 * (KMX_E_INVALID_ARGUMENT when it is not a kmx_status) and the message. It must not call kmx with the context of
 * the call that invoked it. */
typedef kmx_status (*kmx_kernel_fn)(void *user_data, double *out, const double *a, int64_t na, const double *b,
                                    int64_t nb, int64_t d, char *message, int64_t message_len);
/* A kernel computed by fn (type KMX_KERNEL_CALLBACK; gamma, coef0 and degree are ignored). Training (methods
 * svm, svr, one_class), cross-validation and prediction call fn, from the calling thread and, when the context
 * has threads > 1, from its worker threads at once: fn must then be safe to call concurrently. A model trained
 * with it keeps fn and user_data (which must outlive the model) and cannot be saved (kmx_model_save and
 * kmx_model_save_to_buffer fail with KMX_E_UNSUPPORTED): a loaded model never holds a callback. */
KMX_API kmx_status kmx_kernel_create_callback(kmx_kernel **out, kmx_kernel_fn fn, void *user_data);
/* A kernel from "kernel=rbf gamma=0.5" (kernel defaults to rbf). */
KMX_API kmx_status kmx_kernel_create_from_string(kmx_kernel **out, const char *params);
KMX_API void kmx_kernel_free(kmx_kernel *kernel);
KMX_API kmx_status kmx_kernel_set_param(kmx_kernel *kernel, kmx_param param, double value);
KMX_API kmx_status kmx_kernel_get_param(double *out, const kmx_kernel *kernel, kmx_param param);
KMX_API kmx_status kmx_kernel_set_params(kmx_kernel *kernel, const char *params);
/* K(a, b) for two vectors of length d. */
KMX_API kmx_status kmx_kernel_eval(double *out, const kmx_kernel *kernel, const double *a, const double *b, int64_t d);
/* out[i*nb + j] = K(a_i, b_j) for row-major a (na x d) and b (nb x d);
 * out_len >= na*nb. ctx (may be NULL) gives threads and budget. */
KMX_API kmx_status kmx_kernel_block(double *out, int64_t out_len, kmx_context *ctx, const kmx_kernel *kernel,
                                    const double *a, int64_t na, const double *b, int64_t nb, int64_t d);
/* The same for row ranges of two datasets (dense or sparse, equal d). */
KMX_API kmx_status kmx_kernel_block_rows(double *out, int64_t out_len, kmx_context *ctx, const kmx_kernel *kernel,
                                         const kmx_dataset *a, int64_t a_begin, int64_t a_end, const kmx_dataset *b,
                                         int64_t b_begin, int64_t b_end);

/* ----------------------------------------------------------- solver, model */
typedef enum kmx_method {
    KMX_METHOD_SVM = 0,                /* C-SVC by the dual solver alone (LIBSVM's algorithm) */
    KMX_METHOD_DCSVM = 1,              /* DC-SVM: divide and conquer, then the exact global solve */
    KMX_METHOD_DCSVM_EARLY = 2,        /* DC-SVM stopped at early_level; each point uses its cluster's model */
    KMX_METHOD_BKA = 3,                /* one level of clusters solved independently, no conquer step */
    KMX_METHOD_KRR = 4,                /* exact kernel ridge regression (Cholesky): the reference for small n */
    KMX_METHOD_NYSTROM_KRR = 5,        /* kernel ridge regression on a Nystrom approximation */
    KMX_METHOD_MEKA_KRR = 6,           /* kernel ridge regression on MEKA (memory efficient kernel approximation) */
    KMX_METHOD_FALKON = 7,             /* FALKON: Nystrom KRR by preconditioned conjugate gradient, O(M^2) memory */
    KMX_METHOD_NYSTROM_TRON = 8,       /* Nystrom kernel machine in the primal by TRON (squared hinge, logistic,
                                          squared loss), rank-ready: sums over rows AllReduced */
    KMX_METHOD_SVR = 9,                /* epsilon-SVR by the dual solver (LIBSVM's svm-train -s 3): regression */
    KMX_METHOD_ONE_CLASS = 10,         /* one-class SVM by the dual solver (LIBSVM's svm-train -s 2): labels are
                                          ignored; the model predicts +1 (inlier) or -1 (outlier) */
    KMX_METHOD_FORCE_INT_ = 0x7FFFFFFF /* not a value */
} kmx_method;
/* 1 if training with `method` uses the (solver) parameter, else 0. */
KMX_API kmx_status kmx_param_used_by(int *out, kmx_param param, kmx_method method);

typedef enum kmx_bias {
    KMX_BIAS_AUTO = 0,
    KMX_BIAS_OFF = 1,
    KMX_BIAS_ON = 2,
    KMX_BIAS_FORCE_INT_ = 0x7FFFFFFF /* not a value */
} kmx_bias;
typedef enum kmx_multiclass {
    KMX_MULTICLASS_OVO = 0,
    KMX_MULTICLASS_OVR = 1,
    KMX_MULTICLASS_FORCE_INT_ = 0x7FFFFFFF /* not a value */
} kmx_multiclass;
/* What a KRR-family model fits. Auto: regression when a label is not a whole
 * number or there are more than 256 distinct labels, else classification
 * (one-vs-rest on +-1 targets). SVM methods always classify; svr always regresses;
 * one_class has the classes -1 (outlier) and +1 (inlier). */
typedef enum kmx_task {
    KMX_TASK_AUTO = 0,
    KMX_TASK_CLASSIFICATION = 1,
    KMX_TASK_REGRESSION = 2,
    KMX_TASK_FORCE_INT_ = 0x7FFFFFFF /* not a value */
} kmx_task;
typedef enum kmx_loss {
    KMX_LOSS_AUTO = 0,               /* squared hinge for classification, squared for regression */
    KMX_LOSS_SQUARED_HINGE = 1,      /* max(0, 1 - y f)^2 (L2-loss SVM) */
    KMX_LOSS_LOGISTIC = 2,           /* log(1 + exp(-y f)) (kernel logistic regression) */
    KMX_LOSS_SQUARED = 3,            /* (f - y)^2 (regression, or least squares on +-1 labels) */
    KMX_LOSS_FORCE_INT_ = 0x7FFFFFFF /* not a value */
} kmx_loss;
typedef enum kmx_center_method {
    KMX_CENTERS_UNIFORM = 0,            /* training rows uniformly at random */
    KMX_CENTERS_KMEANS = 1,             /* k-means centroids */
    KMX_CENTERS_LEVERAGE = 2,           /* rows sampled by approximate ridge leverage scores */
    KMX_CENTERS_FORCE_INT_ = 0x7FFFFFFF /* not a value */
} kmx_center_method;

/* What kmx_model_info() reports. */
typedef enum kmx_model_info_key {
    KMX_INFO_METHOD = 0,             /* kmx_method */
    KMX_INFO_CLASSES = 1,            /* number of classes */
    KMX_INFO_COLUMNS = 2,            /* features d the model expects */
    KMX_INFO_SUPPORT_VECTORS = 3,    /* distinct support vectors stored */
    KMX_INFO_DECISION_VALUES = 4,    /* decision values per row: 1 (binary), c (ovr), c(c-1)/2 (ovo) */
    KMX_INFO_OBJECTIVE = 5,          /* dual objective, summed over the binary problems */
    KMX_INFO_KKT_VIOLATION = 6,      /* largest final KKT violation over the binary problems */
    KMX_INFO_ITERATIONS = 7,         /* solver iterations, summed */
    KMX_INFO_TRAIN_SECONDS = 8,      /* wall-clock training time */
    KMX_INFO_BIAS = 9,               /* 1 if the model has a bias term */
    KMX_INFO_MULTICLASS = 10,        /* kmx_multiclass */
    KMX_INFO_TASK = 11,              /* kmx_task: classification or regression (never auto) */
    KMX_INFO_LAMBDA = 12,            /* KRR methods: the ridge lambda; SVM methods and nystrom_tron: 0 */
    KMX_INFO_C = 13,                 /* SVM methods, svr and nystrom_tron: the cost C; KRR methods, one_class: 0 */
    KMX_INFO_NU = 14,                /* one_class: nu; every other method: 0 */
    KMX_INFO_MEMORY_BYTES = 15,      /* bytes the loaded model holds in memory (a model of many machines: ~3x its file) */
    KMX_INFO_PROBABILITY = 16,       /* 1 if the model has probability estimates (trained with probability=1), else 0 */
    KMX_INFO_KERNEL = 17,            /* its kernel type, a kmx_kernel_type value (precomputed: predict kernel rows) */
    KMX_INFO_FORCE_INT_ = 0x7FFFFFFF /* not a value */
} kmx_model_info_key;

/* A solver holds a training method and its parameters; a model is what it
 * trains: immutable, shareable across threads, saved and loaded as a
 * versioned, checksummed binary file. */
typedef struct kmx_solver kmx_solver;
typedef struct kmx_model kmx_model;

KMX_API kmx_status kmx_solver_create(kmx_solver **out, kmx_method method);
/* A solver from "method=dcsvm C=8 levels=4 ..." (method defaults to dcsvm). */
KMX_API kmx_status kmx_solver_create_from_string(kmx_solver **out, const char *params);
KMX_API void kmx_solver_free(kmx_solver *solver);
KMX_API kmx_status kmx_solver_set_param(kmx_solver *solver, kmx_param param, double value);
KMX_API kmx_status kmx_solver_get_param(double *out, const kmx_solver *solver, kmx_param param);
KMX_API kmx_status kmx_solver_set_params(kmx_solver *solver, const char *params);
/* Multiplies C for the class with this label (LIBSVM's -wi); weight > 0. */
KMX_API kmx_status kmx_solver_set_class_weight(kmx_solver *solver, double label, double weight);
/* Trains on data (labels required, >= 2 classes; sample weights, if the
 * dataset has them, multiply C per row). ctx may be NULL. */
KMX_API kmx_status kmx_solver_train(kmx_model **out, kmx_context *ctx, const kmx_solver *solver,
                                    const kmx_kernel *kernel, const kmx_dataset *data);
/* k-fold cross-validation (LIBSVM's svm_cross_validation, svm-train -v K):
 * out[i] (out_len >= rows) is row i's prediction (a label, or a value for
 * regression) by the model trained on the folds without row i; *out_task
 * (may be NULL) says which the models were. Classification folds are
 * stratified by label; regression and one-class folds are a random split;
 * the folds come from the context's seed. 2 <= folds <= rows; labels
 * required. Folds train at once on the context's threads when its memory
 * budget holds their copies of the rows. ctx may be NULL. */
KMX_API kmx_status kmx_solver_cross_validate(double *out, int64_t out_len, kmx_task *out_task, kmx_context *ctx,
                                             const kmx_solver *solver, const kmx_kernel *kernel,
                                             const kmx_dataset *data, int64_t folds);
/* kmx_solver_cross_validate at each of v_len values v of one parameter
 * (KMX_PARAM_C, or KMX_PARAM_LAMBDA for kernel ridge regression), on the
 * same folds: value i's predictions at out + i * rows (out_len >= v_len *
 * rows). For the methods svm and dcsvm each fold trains the values in
 * increasing order, each warm started from the previous solution (the same
 * models to the solver's tolerance, in a fraction of the time): what a grid
 * search over C does (kmx grid). Values positive and finite. */
KMX_API kmx_status kmx_solver_cross_validate_path(double *out, int64_t out_len, kmx_task *out_task,
                                                  kmx_context *ctx, const kmx_solver *solver,
                                                  const kmx_kernel *kernel, const kmx_dataset *data, int64_t folds,
                                                  kmx_param param, const double *v, int64_t v_len);

KMX_API void kmx_model_free(kmx_model *model);
KMX_API kmx_status kmx_model_info(double *out, const kmx_model *model, kmx_model_info_key key);
/* The class labels in increasing order (out_len >= classes). */
KMX_API kmx_status kmx_model_classes(double *out, int64_t out_len, const kmx_model *model);
/* (Regression models have no classes: KMX_INFO_CLASSES is 0, and out may be NULL.) */
/* Names for the classes (R's factor levels, Java's String labels), one per line in kmx_model_classes' order:
 * "setosa\nversicolor\nvirginica". One name per class, each 1 to 255 bytes without control characters, all
 * distinct. They are saved with the model (file and buffer: model format version 3, which kmx builds older than this
 * function cannot read). NULL or "" removes them. Call it before the model is shared: not while another thread uses
 * the model. */
KMX_API kmx_status kmx_model_set_class_names(kmx_model *model, const char *names);
/* The class names, one per line as kmx_model_set_class_names takes them, NUL-terminated ("" when the classes have no
 * names); *out_size gets the bytes with the NUL: pass out NULL to learn it (too small is KMX_E_INVALID_ARGUMENT and
 * still sets it). */
KMX_API kmx_status kmx_model_class_names(void *out, int64_t out_len, int64_t *out_size, const kmx_model *model);
/* Predicted labels (regression: predicted values) for every row of data (out_len >= n). More columns than the
 * model is an error (KMX_E_INVALID_ARGUMENT). So are fewer, except for a dataset read from LIBSVM's format,
 * whose absent trailing columns are zeros (it is padded with zeros, as LIBSVM does). Both this and
 * kmx_model_decision_values go through the rows in blocks that fit ctx's memory budget (beyond out);
 * KMX_E_OUT_OF_MEMORY, saying what one row needs, only when one row's block does not fit. */
KMX_API kmx_status kmx_model_predict(double *out, int64_t out_len, kmx_context *ctx, const kmx_model *model,
                                     const kmx_dataset *data);
/* Decision values, n x KMX_INFO_DECISION_VALUES row-major. Two classes: one
 * value, > 0 for the larger label (+1 of ±1 labels). One-vs-one: pairs (i, j),
 * i < j, in LIBSVM's order (0v1, 0v2, ..., 1v2, ...), > 0 for class i (classes
 * in increasing label order). One-vs-rest: one value per class (KRR-family
 * classifiers are one-vs-rest). Regression: the predicted value. One-class:
 * one value, sum_i alpha_i K(x_i, x) - rho as LIBSVM's, > 0 for +1 (inlier). */
KMX_API kmx_status kmx_model_decision_values(double *out, int64_t out_len, kmx_context *ctx, const kmx_model *model,
                                             const kmx_dataset *data);
/* Class probabilities, n x KMX_INFO_CLASSES row-major (classes in kmx_model_classes' order; each row sums to 1),
 * as LIBSVM's -b 1: each machine's Platt sigmoid on its decision value, then one-vs-one pairs coupled by Wu, Lin &
 * Weng's second method (two classes: the one sigmoid); one-vs-rest models normalise the per-class sigmoids to sum 1.
 * KMX_E_INVALID_ARGUMENT for a model without them (trained without probability=1; KMX_INFO_PROBABILITY is 0),
 * a regression (svr, KRR), one_class or KRR-family model. Rows and columns as kmx_model_predict. */
KMX_API kmx_status kmx_model_predict_probability(double *out, int64_t out_len, kmx_context *ctx,
                                                 const kmx_model *model, const kmx_dataset *data);
/* Saving writes a temporary file and renames it. */
KMX_API kmx_status kmx_model_save(const kmx_model *model, const char *path);
KMX_API kmx_status kmx_model_load(kmx_model **out, const char *path);
/* The saved form in memory: pass out == NULL (or too small) to learn the size in *out_size. */
KMX_API kmx_status kmx_model_save_to_buffer(void *out, int64_t out_len, int64_t *out_size, const kmx_model *model);
KMX_API kmx_status kmx_model_load_from_buffer(kmx_model **out, const void *buffer, int64_t buffer_len);

/* ------------------------------------------------- kernel approximations */
/* A low-rank or block approximation G~ of the kernel matrix G of a dataset:
 * Nystrom (uniform or k-means landmarks, optional rank truncation) or MEKA
 * (per-cluster Nystrom bases linked by small blocks: G~ = W L W^T with W block
 * diagonal, O(nk + (ck)^2) memory). Parameters ("approx=meka rank=64
 * clusters=8 ..."): approx, centers (Nystrom landmarks m, 0 = auto), rank,
 * clusters, threshold, oversampling, rank_by_size. Immutable once built. */
typedef struct kmx_approx kmx_approx;
typedef enum kmx_approx_method {
    KMX_APPROX_NYSTROM = 0,            /* uniformly sampled landmarks */
    KMX_APPROX_KMEANS_NYSTROM = 1,     /* k-means centroids as landmarks */
    KMX_APPROX_MEKA = 2,               /* memory efficient kernel approximation */
    KMX_APPROX_FORCE_INT_ = 0x7FFFFFFF /* not a value */
} kmx_approx_method;

KMX_API kmx_status kmx_approx_create(kmx_approx **out, kmx_context *ctx, const kmx_kernel *kernel,
                                     const kmx_dataset *data, const char *params);
KMX_API void kmx_approx_free(kmx_approx *approx);
/* out = G~ v (v and out have n entries, n = rows of the dataset it was built on). */
KMX_API kmx_status kmx_approx_matvec(double *out, int64_t out_len, kmx_context *ctx, const kmx_approx *approx,
                                     const double *v, int64_t v_len);
/* out = (G~ + lambda I)^-1 v, lambda > 0 (Woodbury's identity). */
KMX_API kmx_status kmx_approx_solve(double *out, int64_t out_len, kmx_context *ctx, const kmx_approx *approx,
                                    double lambda, const double *v, int64_t v_len);
/* |G - G~|_F / |G|_F over sample_rows rows of G drawn at random (exact when
 * sample_rows >= n). data must be the dataset the approximation was built on. */
KMX_API kmx_status kmx_approx_relative_error(double *out, kmx_context *ctx, const kmx_approx *approx,
                                             const kmx_dataset *data, int64_t sample_rows);
/* Bytes the approximation holds (its factors, exactly). */
KMX_API kmx_status kmx_approx_memory_bytes(int64_t *out, const kmx_approx *approx);
/* Rows n it approximates, and its rank (columns of W: m, k or c*k). */
KMX_API kmx_status kmx_approx_rows(int64_t *out, const kmx_approx *approx);
KMX_API kmx_status kmx_approx_rank(int64_t *out, const kmx_approx *approx);

/* ------------------------------------------------------ compact predictors */
/* A DC-Pred++ predictor: a k-means tree in input space, per leaf a Nystrom
 * expansion over alpha^2-weighted k-means landmarks plus pseudo-landmarks.
 * Thousands of times cheaper than a full model, stored as a blob that the
 * inference subset (<kmx/kmx_infer.h>) reads in place. Immutable. */
typedef struct kmx_predictor kmx_predictor;

/* What kmx_predictor_info() reports. */
typedef enum kmx_predictor_info_key {
    KMX_PREDICTOR_BYTES = 0,                   /* size of the saved blob */
    KMX_PREDICTOR_LEAVES = 1,                  /* leaves of the tree */
    KMX_PREDICTOR_LANDMARKS = 2,               /* landmarks, summed over the leaves */
    KMX_PREDICTOR_PSEUDO = 3,                  /* pseudo-landmarks, summed over the leaves */
    KMX_PREDICTOR_ARENA_BYTES = 4,             /* arena kmx_infer_open needs for it */
    KMX_PREDICTOR_COLUMNS = 5,                 /* features d */
    KMX_PREDICTOR_CLASSES = 6,                 /* classes (0 for regression) */
    KMX_PREDICTOR_OUTPUTS = 7,                 /* decision values per row */
    KMX_PREDICTOR_FLOAT32 = 8,                 /* 1 if its real arrays are float (storage float32, int16, int8, int4) */
    KMX_PREDICTOR_STORAGE = 9,                 /* its kmx_storage */
    /* A predictor built to a budget (KMX_PARAM_MAX_BYTES / KMX_PARAM_MAX_US)
     * carries how it was chosen; NaN for other predictors. */
    KMX_PREDICTOR_VALIDATION_ACCURACY = 16, /* fraction right on the validation rows (see _IN_SAMPLE) */
    KMX_PREDICTOR_VALIDATION_US = 17,       /* us per row measured there, when built (machine-dependent) */
    KMX_PREDICTOR_LANDMARKS_PER_LEAF = 18,  /* the landmarks knob chosen (leaves may hold fewer) */
    KMX_PREDICTOR_CANDIDATES = 19,          /* predictors the search built and measured */
    KMX_PREDICTOR_PROBABILITY = 20,         /* 1 if it carries the model's probability estimates (sigmoids), else 0 */
    /* Built to a budget: 1 if the search chose the model itself, whose
     * training rows include the validation rows, so _VALIDATION_ACCURACY is
     * its accuracy on rows it was trained on (in-sample, optimistic); 0 if
     * measured on held-out rows; NaN for other predictors, and for notes
     * written by an earlier kmx, which did not record it. */
    KMX_PREDICTOR_VALIDATION_IN_SAMPLE = 21,
    KMX_PREDICTOR_INFO_FORCE_INT_ = 0x7FFFFFFF /* not a value */
} kmx_predictor_info_key;

/* How a predictor's blob stores its numbers (KMX_PARAM_STORAGE). */
typedef enum kmx_storage {
    KMX_STORAGE_FLOAT64 = 0,            /* every array as double */
    KMX_STORAGE_FLOAT32 = 1,            /* every array as float: half the bytes */
    KMX_STORAGE_INT16 = 2,              /* landmarks as int16 with a scale per leaf, the rest float */
    KMX_STORAGE_INT8 = 3,               /* landmarks as int8 with a scale per leaf, the rest float */
    KMX_STORAGE_INT4 = 4,               /* landmarks as 4-bit codes into 16 values per feature and leaf, the rest float */
    KMX_STORAGE_FORCE_INT_ = 0x7FFFFFFF /* not a value */
} kmx_storage;

/* Builds a predictor from a trained model and its (labelled) training data. SVM models:
 * the full DC-Pred++ (params: leaves, landmarks, pseudo, storage or float32; the
 * leaves' models are fitted to the stored, rounded or quantized, numbers);
 * KRR-family models: their own centers become the landmarks (params: storage
 * or float32; int16/int8 quantize the centers under the model's beta).
 * SVM models with max_bytes and/or max_us: the most accurate predictor within
 * that budget, its knobs searched on a validation split (a fifth) of the
 * training rows, then built from all of them, its landmarks refined 8x longer
 * than a candidate's (kept if still within the budget;
 * leaves, landmarks, pseudo, storage, float32 are then ignored); a
 * budget nothing meets is KMX_E_INVALID_ARGUMENT, before the search when even
 * the smallest predictor is over it. SVM models without a budget or landmarks
 * given: never larger than the model's file (a more compact storage unless one
 * was given, then fewer landmarks per leaf, as needed). */
KMX_API kmx_status kmx_predictor_build(kmx_predictor **out, kmx_context *ctx, const kmx_model *model,
                                       const kmx_dataset *train, const char *params);
KMX_API void kmx_predictor_free(kmx_predictor *predictor);
KMX_API kmx_status kmx_predictor_info(double *out, const kmx_predictor *predictor, kmx_predictor_info_key key);
/* The class labels in increasing order (out_len >= KMX_PREDICTOR_CLASSES; a regression predictor has none, and
 * out may then be NULL): the columns of kmx_predictor_predict_probability. */
KMX_API kmx_status kmx_predictor_classes(double *out, int64_t out_len, const kmx_predictor *predictor);
/* Labels (or regression values) for every row (out_len >= n). */
KMX_API kmx_status kmx_predictor_predict(double *out, int64_t out_len, kmx_context *ctx, const kmx_predictor *predictor,
                                         const kmx_dataset *data);
/* Decision values, n x KMX_PREDICTOR_OUTPUTS row-major, in the model's order. */
KMX_API kmx_status kmx_predictor_decision_values(double *out, int64_t out_len, kmx_context *ctx,
                                                 const kmx_predictor *predictor, const kmx_dataset *data);
/* Class probabilities, n x KMX_PREDICTOR_CLASSES row-major (classes in kmx_predictor_classes' order; each row sums
 * to 1), as kmx_model_predict_probability does to the model's decision values, on the predictor's: a predictor built
 * from a model trained with probability=1 carries the model's Platt sigmoids (KMX_PREDICTOR_PROBABILITY is 1; its
 * blob is format version 3, which kmx_infer_predict_probability reads too). KMX_E_INVALID_ARGUMENT for a predictor
 * without them (from a model without them, a regression, one_class or KRR-family model). */
KMX_API kmx_status kmx_predictor_predict_probability(double *out, int64_t out_len, kmx_context *ctx,
                                                     const kmx_predictor *predictor, const kmx_dataset *data);
KMX_API kmx_status kmx_predictor_save(const kmx_predictor *predictor, const char *path);
KMX_API kmx_status kmx_predictor_load(kmx_predictor **out, const char *path);
/* The blob in memory: pass out == NULL to learn the size in *out_size (a
 * buffer too small is an error that still sets *out_size). */
KMX_API kmx_status kmx_predictor_save_to_buffer(void *out, int64_t out_len, int64_t *out_size,
                                                const kmx_predictor *predictor);
KMX_API kmx_status kmx_predictor_load_from_buffer(kmx_predictor **out, const void *buffer, int64_t buffer_len);
/* Writes the blob as a C header for <kmx/kmx_infer.h> programs: an aligned
 * `static const unsigned char <name>[]` and `#define <NAME>_LEN` (its length;
 * NAME is name in capitals). name must be a C identifier. */
KMX_API kmx_status kmx_predictor_export_c(const kmx_predictor *predictor, const char *path, const char *name);

/* ------------------------------------------------------------------ k-means */
/* k-means with k-means++ seeding (Lloyd iterations, distances through GEMM),
 * k clusters, 1 <= k <= n. If the dataset has weights, the weighted objective
 * sum_i w_i |x_i - c(i)|^2 is minimised. max_iter and tol come from params
 * ("max_iter=100 tol=1e-6", NULL for defaults). Outputs: centers (k*d, row-major), assignment (n),
 * objective; any output may be NULL. Same seed and threads give the same result. */
KMX_API kmx_status kmx_kmeans(double *out_centers, int64_t centers_len, int32_t *out_assignment, int64_t assignment_len,
                              double *out_objective, kmx_context *ctx, const kmx_dataset *data, int64_t k,
                              const char *params);
/* Nearest center for each row of data: out_assignment (n), and optionally the
 * squared distances (n). centers is k x d row-major. */
KMX_API kmx_status kmx_kmeans_assign(int32_t *out_assignment, int64_t assignment_len, double *out_sqdist,
                                     int64_t sqdist_len, kmx_context *ctx, const kmx_dataset *data,
                                     const double *centers, int64_t k);

/* ------------------------------------------------------ experimental zone */
/* Not frozen: what follows may change between minor versions. Define
 * KMX_EXPERIMENTAL_API before including kmx.h to use it (as zstd's
 * ZSTD_STATIC_LINKING_ONLY). The machine probe is here because what it
 * reports (and how the BLIS kernel set is chosen) is the newest part of kmx. */
#if defined(KMX_EXPERIMENTAL_API) || defined(KMX_BUILDING_LIBRARY)

/* ------------------------------------------------------------------- system */
/* What kmx sees of the machine it runs on (kmx version -v prints it). */
typedef enum kmx_system_key {
    KMX_SYSTEM_CORES = 1,              /* cores this process may use: affinity mask and cgroup CPU quota */
    KMX_SYSTEM_MEMORY_AVAILABLE = 2,   /* bytes the machine can give now: MemAvailable, within a cgroup limit */
    KMX_SYSTEM_MEMORY_BUDGET = 3,      /* a new context's memory budget in bytes (80% of available); -1: unlimited */
    KMX_SYSTEM_DGEMM_GFLOPS = 4,       /* one-thread dgemm GFLOP/s, measured by this call (0.1-0.5 s) */
    KMX_SYSTEM_FORCE_INT_ = 0x7FFFFFFF /* not a value */
} kmx_system_key;
KMX_API kmx_status kmx_system_info(double *out, kmx_system_key key);
/* The BLIS kernel set kmx's private BLIS runs ("skx", "zen3", "haswell",
 * "generic", ...). kmx chooses it from the CPU's features (AVX-512 F/DQ/BW/VL:
 * skx; AVX2 and FMA: zen3 on AMD, haswell otherwise; else generic), before
 * BLIS's first use, unless BLIS_ARCH_TYPE names (by BLIS number or name) a
 * kernel set this CPU can run: the user's choice wins. */
KMX_API const char *kmx_system_kernel_set(void);
/* Why that kernel set: "cpu features", "BLIS_ARCH_TYPE", or "cpu features
 * (BLIS_ARCH_TYPE=... ignored: reason)". */
KMX_API const char *kmx_system_kernel_set_origin(void);

/* -------------------------------------------------------------------- ranks */
/* A training call can span several processes (ranks), each holding a shard of
 * the rows: every sum over rows is then also summed across the ranks (the
 * distributed Nystrom machine's AllReduce). kmx itself does not depend on MPI:
 * <kmx/kmx_mpi.h> fills this table from an MPI communicator, and any other
 * transport can fill it too. Each function returns 0 on success and nonzero on
 * failure (kmx then fails the call with KMX_E_IO). Every rank must call kmx with
 * the same parameters, in the same order. */
typedef struct kmx_communicator {
    int32_t rank; /* this process, 0 .. size-1 */
    int32_t size; /* how many ranks take part */
    void *user;   /* passed back to every function below */
    /* values[0..count) summed element-wise over the ranks, in place; every
     * rank must receive the same bits (e.g. reduce to one rank, then broadcast). */
    int (*allreduce_sum)(void *user, double *values, int64_t count);
    /* values[0..count) replaced by their element-wise maximum over the ranks. */
    int (*allreduce_max)(void *user, double *values, int64_t count);
    /* bytes[0..count) of rank `root` copied to every rank. */
    int (*broadcast)(void *user, void *bytes, int64_t count, int32_t root);
} kmx_communicator;
/* The ranks the calls made with ctx span (the table is copied; comm->user
 * must outlive ctx's use of it). NULL: this process alone (the default). */
KMX_API kmx_status kmx_context_set_communicator(kmx_context *ctx, const kmx_communicator *comm);

/* One shard of a LIBSVM or CSV file: shard s of `shards` holds the lines that
 * start in bytes [s*S/shards, (s+1)*S/shards) of the file's S bytes, so the
 * shards partition the file's lines exactly and each reads about S/shards
 * bytes (a shard may hold no rows: n = 0). KMX_FORMAT_AUTO and CSV's field
 * count follow the file's first data line; messages give the file's own line
 * numbers. A path holding "%d" names one file per shard instead: "%d" becomes
 * the shard number and that whole file is the shard. A .kmxd file
 * (KMX_FORMAT_KMXD, or KMX_FORMAT_AUTO recognising it) is cut by rows
 * instead: shard s holds rows [s*n/shards, (s+1)*n/shards), mapping only
 * those rows' bytes, and must hold at least one. LIBSVM shards each have
 * as many columns as their own largest index; distributed training agrees
 * on the largest. When ctx spans several ranks the call is collective: every
 * rank calls it (usually with shard = its rank, shards = the ranks) and, if
 * any rank fails, every rank fails with that rank's message ("rank R: ..."). */
KMX_API kmx_status kmx_dataset_load_shard(kmx_dataset **out, kmx_context *ctx, const char *path, kmx_format format,
                                          int64_t shard, int64_t shards);

#endif /* KMX_EXPERIMENTAL_API */

#ifdef __cplusplus
}
#endif
#endif /* KMX_KMX_H */
