/* kmx_infer.h — kmx's inference-only subset: run a compact predictor
 * (DC-Pred++) that the full library exported, on a device with no heap.
 *
 * Plain C99, no dependency on kmx.h, no allocation, no stdio, no BLAS; only
 * exp/sqrt/fabs/tanh (and their float versions) from libm.
 *
 * The predictor blob is the file `kmx export` writes (its fields and byte
 * offsets: <kmx/blob_layout.h>, installed beside this header): little-endian,
 * versioned, CRC-32 checked, every array 8-byte aligned. It is read in place,
 * never copied, so it may sit in read-only flash; it must start at an 8-byte
 * aligned address (the header `kmx export --c` writes declares it so) and
 * outlive the predictor.
 *
 * Usage:
 *     int64_t bytes;
 *     kmx_infer_required_bytes(&bytes, blob, blob_len);       // or a constant
 *     static uint64_t arena[ARENA_WORDS];                      // 8-byte aligned
 *     kmx_infer_predictor *p;
 *     if (kmx_infer_open(&p, blob, blob_len, arena, sizeof arena) != KMX_INFER_OK) ...
 *     double label;
 *     kmx_infer_predict(&label, NULL, 0, p, x, n_features);
 *
 * Arguments: outputs first (as in kmx.h), then the predictor and inputs;
 * every array is a (pointer, length) pair and lengths are checked. Sizes and
 * counts are int64_t, as in kmx.h (a negative one is KMX_INFER_E_INVALID_ARGUMENT).
 *
 * Memory: the arena holds the predictor (a few hundred bytes) and one
 * call's scratch: kmx_infer_required_bytes tells the exact total, which
 * depends only on the blob's largest leaf, outputs and classes
 * (kmx_infer_scratch_bytes gives the scratch part).
 *
 * Threads: after kmx_infer_open the predictor and the blob are only read,
 * except that kmx_infer_predict and kmx_infer_predict_batch use the scratch
 * inside the arena: one thread at a time per predictor. Threads sharing a
 * predictor call kmx_infer_predict_r with a scratch buffer of their own
 * (kmx_infer_scratch_bytes(p) bytes, 8-byte aligned, e.g. on the stack).
 *
 * Numbers: float64 predictors compute in double, float32 ones in float
 * (inputs are double and rounded to float on use); both give the same
 * results as the full library's predictor (double: to about 1e-12; float:
 * same labels, outputs to about 1e-4 relative). int16 and int8 predictors
 * (format version 2) store their landmarks as integer codes with a scale per
 * leaf, everything else as float32; they compute in float from the landmarks
 * dequantized one at a time into the scratch (d more floats), with the
 * float32 guarantees against the full library's predictor; int4 predictors
 * (format version 4) likewise, from 4-bit codes into a table of 16 floats per
 * feature and leaf.
 *
 * Probabilities: a blob compressed from a model trained with probability
 * estimates (probability=1, kmx train -b 1) carries each output's Platt
 * sigmoid (format version 3), and kmx_infer_predict_probability gives the
 * class probabilities as the full library's kmx_predictor_predict_probability
 * (LIBSVM's -b 1 on the predictor's decision values: the sigmoids, then Wu,
 * Lin & Weng's pairwise coupling for one-vs-one classes). Its scratch is
 * part of kmx_infer_scratch_bytes (and so of kmx_infer_required_bytes) for
 * such blobs only: the outputs and 2k² + k more doubles for k > 2 classes.
 */
#ifndef KMX_INFER_H
#define KMX_INFER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(SWIG)
#define KMX_INFER_API
#elif defined(_WIN32) && defined(KMX_INFER_BUILDING_LIBRARY)
#define KMX_INFER_API __declspec(dllexport)
#elif defined(__GNUC__)
#define KMX_INFER_API __attribute__((visibility("default")))
#else
#define KMX_INFER_API
#endif

/* The subset ships with kmx and carries its version (KMX_VERSION_STRING in
 * kmx/kmx_version.h, generated from the build's one version); what a device
 * needs to know is the blob format. The newest predictor blob format version
 * this runtime reads: */
#define KMX_INFER_BLOB_VERSION 4 /* int4; versions 1 (float64, float32), 2 (int16, int8) and 3 (sigmoids) too */

/* Status codes: 0 is success; the numbers are frozen. One list generates the
 * enum and kmx_infer_status_name's table. */
/* clang-format off */
#define KMX_INFER_STATUS_LIST(X)                                                            \
    X(KMX_INFER_OK, 0)                                                                      \
    X(KMX_INFER_E_INVALID_ARGUMENT, 1) /* NULL pointer, wrong length */                     \
    X(KMX_INFER_E_ARENA_TOO_SMALL, 2)  /* arena or scratch below what is needed */          \
    X(KMX_INFER_E_FORMAT, 3)           /* not a predictor blob, or corrupt */               \
    X(KMX_INFER_E_VERSION, 4)          /* blob from a newer format version */               \
    X(KMX_INFER_E_ALIGNMENT, 5)        /* blob, arena or scratch not 8-aligned */           \
    X(KMX_INFER_E_UNSUPPORTED, 6)      /* valid, but not on this machine (big-endian) */    \
    X(KMX_INFER_E_NO_PROBABILITIES, 7) /* probabilities asked of a blob without sigmoids */

#define KMX_INFER_STATUS_ENUM_(name, value) name = value,
typedef enum kmx_infer_status {
    KMX_INFER_STATUS_LIST(KMX_INFER_STATUS_ENUM_)
    KMX_INFER_STATUS_FORCE_INT_ = 0x7FFFFFFF /* not a value */
} kmx_infer_status;
#undef KMX_INFER_STATUS_ENUM_
/* clang-format on */

/* "KMX_INFER_OK", "KMX_INFER_E_FORMAT", ...; "KMX_INFER_E_UNKNOWN" otherwise. */
KMX_INFER_API const char *kmx_infer_status_name(kmx_infer_status status);

/* An open predictor: lives in the caller's arena; nothing to free (the
 * arena and the blob may be reused once it is no longer used). */
typedef struct kmx_infer_predictor kmx_infer_predictor;

/* Validates the blob (everything kmx_infer_open checks) and stores in *bytes
 * the arena size kmx_infer_open needs for it. */
KMX_INFER_API kmx_infer_status kmx_infer_required_bytes(int64_t *out_bytes, const void *blob, int64_t blob_len);

/* Validates the blob completely — magic, version, sizes, offsets,
 * alignment, CRC, kernel and task codes, index ranges (routing ranges,
 * product pairs), finite values, increasing class labels: the rules of the
 * full library's reader — then builds the predictor in `arena` (8-byte
 * aligned, at least kmx_infer_required_bytes). The checks read the whole
 * blob once (O(blob size)); predicting never checks again. On failure
 * *out is NULL. */
KMX_INFER_API kmx_infer_status kmx_infer_open(kmx_infer_predictor **out, const void *blob, int64_t blob_len,
                                              void *arena, int64_t arena_len);

/* Predicts one row x (x_len must equal kmx_infer_features(p)). *label gets
 * the label (regression: the value); outputs (NULL when outputs_len is 0,
 * else outputs_len >= kmx_infer_outputs(p)) gets the decision values o_k.
 * label may be NULL. Uses the arena's scratch: one thread at a time. */
KMX_INFER_API kmx_infer_status kmx_infer_predict(double *out_label, double *out_outputs, int64_t outputs_len,
                                                 kmx_infer_predictor *p, const double *x, int64_t x_len);

/* The same with the caller's scratch (kmx_infer_scratch_bytes(p) bytes,
 * 8-byte aligned): p is only read, so many threads may share it. */
KMX_INFER_API kmx_infer_status kmx_infer_predict_r(double *out_label, double *out_outputs, int64_t outputs_len,
                                                   const kmx_infer_predictor *p, const double *x, int64_t x_len,
                                                   void *scratch, int64_t scratch_len);

/* Predicts `rows` rows of x (row-major, x_len = rows * features). labels
 * gets `rows` labels (NULL allowed); outputs, when not NULL, gets
 * rows * kmx_infer_outputs(p) values, row-major (outputs_len at least that).
 * Uses the arena's scratch: one thread at a time. */
KMX_INFER_API kmx_infer_status kmx_infer_predict_batch(double *out_labels, double *out_outputs, int64_t outputs_len,
                                                       kmx_infer_predictor *p, const double *x, int64_t x_len,
                                                       int64_t rows);

/* Class probabilities of one row x (x_len = kmx_infer_features(p)):
 * out_probabilities gets kmx_infer_classes(p) values (probabilities_len at
 * least that), in class-label order, summing to 1. A blob without sigmoids
 * is KMX_INFER_E_NO_PROBABILITIES (kmx_infer_has_probabilities says which).
 * Uses the arena's scratch: one thread at a time. */
KMX_INFER_API kmx_infer_status kmx_infer_predict_probability(double *out_probabilities, int64_t probabilities_len,
                                                             kmx_infer_predictor *p, const double *x, int64_t x_len);

/* The same with the caller's scratch (kmx_infer_scratch_bytes(p) bytes, 8-byte aligned). */
KMX_INFER_API kmx_infer_status kmx_infer_predict_probability_r(double *out_probabilities, int64_t probabilities_len,
                                                               const kmx_infer_predictor *p, const double *x,
                                                               int64_t x_len, void *scratch, int64_t scratch_len);

/* Facts about an open predictor (0 for NULL). */
KMX_INFER_API int64_t kmx_infer_features(const kmx_infer_predictor *p);              /* d: values per input row */
KMX_INFER_API int64_t kmx_infer_outputs(const kmx_infer_predictor *p);               /* decision values per row */
KMX_INFER_API int64_t kmx_infer_classes(const kmx_infer_predictor *p);               /* 0 for regression */
KMX_INFER_API double kmx_infer_class_label(const kmx_infer_predictor *p, int64_t i); /* 0 when out of range */
KMX_INFER_API int kmx_infer_is_float32(const kmx_infer_predictor *p); /* real arrays are float (all but float64) */
/* How the blob stores its arrays (the values of kmx_storage in kmx.h). */
#define KMX_INFER_STORAGE_FLOAT64 0
#define KMX_INFER_STORAGE_FLOAT32 1
#define KMX_INFER_STORAGE_INT16 2 /* landmarks int16 codes, a scale per leaf; the rest float32 */
#define KMX_INFER_STORAGE_INT8 3  /* landmarks int8 codes, a scale per leaf; the rest float32 */
#define KMX_INFER_STORAGE_INT4 4  /* landmarks 4-bit codes into 16 values per feature and leaf; the rest float32 */
KMX_INFER_API int kmx_infer_storage(const kmx_infer_predictor *p);
KMX_INFER_API int64_t kmx_infer_scratch_bytes(const kmx_infer_predictor *p); /* for kmx_infer_predict_r */
/* 1 if the blob carries sigmoids (kmx_infer_predict_probability works), else 0. */
KMX_INFER_API int kmx_infer_has_probabilities(const kmx_infer_predictor *p);

#ifdef __cplusplus
}
#endif

#endif /* KMX_INFER_H */
