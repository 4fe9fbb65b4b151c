/* predict.c — kmx_infer_predict*: the prediction rule in double and float
 * (predict_real.h, included once per precision) and the checks on the
 * caller's arguments. Nothing here allocates or writes outside the caller's
 * buffers and the scratch. */
#include <math.h>
#include <string.h>

#include "blob_layout.h"
#include "infer_internal.h"
#include "le_bytes.h"

#define REAL double
#define FN(name) name##_f64
#define R_EXP exp
#define R_SQRT sqrt
#define R_FABS fabs
#define R_TANH tanh
#define QUANTIZED 0
#include "predict_real.h"
#undef REAL
#undef FN
#undef R_EXP
#undef R_SQRT
#undef R_FABS
#undef R_TANH
#undef QUANTIZED

#define REAL float
#define FN(name) name##_f32
#define R_EXP expf
#define R_SQRT sqrtf
#define R_FABS fabsf
#define R_TANH tanhf
#define QUANTIZED 1
#include "predict_real.h"

infer_leaf kmx_infer__leaf(const kmx_infer_predictor *p, size_t l) {
    const uint64_t *words = p->leaf_table + l * (size_t)p->leaf_words;
    infer_leaf leaf;
    leaf.m = (size_t)words[KMX_BLOB_LEAF_M];
    leaf.triangle = (size_t)words[KMX_BLOB_LEAF_TRIANGLE];
    leaf.products = (size_t)words[KMX_BLOB_LEAF_PRODUCTS];
    leaf.center = p->blob + words[KMX_BLOB_LEAF_CENTER_AT];
    leaf.landmarks = p->blob + words[KMX_BLOB_LEAF_LANDMARKS_AT];
    leaf.triangle_dist = p->blob + words[KMX_BLOB_LEAF_TRIANGLE_DIST_AT];
    leaf.pairs = (const int32_t *)(const void *)(p->blob + words[KMX_BLOB_LEAF_PAIRS_AT]);
    leaf.beta = p->blob + words[KMX_BLOB_LEAF_BETA_AT];
    leaf.bias = p->blob + words[KMX_BLOB_LEAF_BIAS_AT];
    leaf.scale = 0;
    leaf.codebook = NULL;
    if (p->landmark_bits == 4)
        leaf.codebook = p->blob + words[KMX_BLOB_LEAF_CODEBOOK_AT];
    else if (p->landmark_bits)
        memcpy(&leaf.scale, words + KMX_BLOB_LEAF_SCALE, sizeof leaf.scale);
    return leaf;
}

static size_t round_up_8(size_t bytes) { return (bytes + 7u) & ~(size_t)7u; }

size_t kmx_infer__predict_scratch_bytes(const kmx_infer_predictor *p) {
    const size_t real_bytes = p->float32 ? sizeof(float) : sizeof(double);
    const size_t reals =
        p->max_features + (p->has_triangles ? p->max_landmarks : 0) + p->outputs + (p->landmark_bits ? p->d : 0);
    return round_up_8(reals * real_bytes + p->classes * sizeof(uint32_t));
}

size_t kmx_infer__scratch_bytes(const kmx_infer_predictor *p) {
    const size_t probability_doubles = p->has_sigmoids ? p->outputs + kmx_infer__probability_work(p->classes) : 0;
    return kmx_infer__predict_scratch_bytes(p) + probability_doubles * sizeof(double);
}

static int misaligned(const void *pointer) { return ((uintptr_t)pointer & 7u) != 0; }

static kmx_infer_status check_row_arguments(const kmx_infer_predictor *p, const double *x, size_t x_len,
                                            const double *outputs, size_t outputs_len) {
    if (!p || !x || x_len != p->d) return KMX_INFER_E_INVALID_ARGUMENT;
    if (outputs_len > 0 && !outputs) return KMX_INFER_E_INVALID_ARGUMENT;
    if (outputs && outputs_len < p->outputs) return KMX_INFER_E_INVALID_ARGUMENT;
    return KMX_INFER_OK;
}

static void predict_row(const kmx_infer_predictor *p, const double *x, double *label, double *outputs, void *scratch) {
    if (p->float32)
        kmx_infer__predict_f32(p, x, label, outputs, scratch);
    else
        kmx_infer__predict_f64(p, x, label, outputs, scratch);
}

kmx_infer_status kmx_infer_predict_r(double *label, double *outputs, int64_t outputs_count,
                                     const kmx_infer_predictor *p, const double *x, int64_t x_count, void *scratch,
                                     int64_t scratch_bytes) {
    size_t outputs_len, x_len, scratch_len;
    kmx_infer_status status;
    if (!kmx_infer__size(outputs_count, &outputs_len) || !kmx_infer__size(x_count, &x_len) ||
        !kmx_infer__size(scratch_bytes, &scratch_len))
        return KMX_INFER_E_INVALID_ARGUMENT;
    status = check_row_arguments(p, x, x_len, outputs, outputs_len);
    if (status != KMX_INFER_OK) return status;
    if (!scratch) return KMX_INFER_E_INVALID_ARGUMENT;
    if (misaligned(scratch)) return KMX_INFER_E_ALIGNMENT;
    if (scratch_len < p->scratch_bytes) return KMX_INFER_E_ARENA_TOO_SMALL;
    predict_row(p, x, label, outputs, scratch);
    return KMX_INFER_OK;
}

kmx_infer_status kmx_infer_predict(double *label, double *outputs, int64_t outputs_len, kmx_infer_predictor *p,
                                   const double *x, int64_t x_len) {
    if (!p) return KMX_INFER_E_INVALID_ARGUMENT;
    return kmx_infer_predict_r(label, outputs, outputs_len, p, x, x_len, p->scratch, (int64_t)p->scratch_bytes);
}

kmx_infer_status kmx_infer_predict_batch(double *labels, double *outputs, int64_t outputs_count, kmx_infer_predictor *p,
                                         const double *x, int64_t x_count, int64_t row_count) {
    size_t i, outputs_len, x_len, rows;
    if (!kmx_infer__size(outputs_count, &outputs_len) || !kmx_infer__size(x_count, &x_len) ||
        !kmx_infer__size(row_count, &rows))
        return KMX_INFER_E_INVALID_ARGUMENT;
    if (!p || !x || (p->d > 0 && rows > (size_t)-1 / p->d) || x_len != rows * p->d) return KMX_INFER_E_INVALID_ARGUMENT;
    if (outputs && (rows > (size_t)-1 / p->outputs || outputs_len < rows * p->outputs))
        return KMX_INFER_E_INVALID_ARGUMENT;
    if (!outputs && outputs_len > 0) return KMX_INFER_E_INVALID_ARGUMENT;
    for (i = 0; i < rows; ++i)
        predict_row(p, x + i * p->d, labels ? labels + i : NULL, outputs ? outputs + i * p->outputs : NULL, p->scratch);
    return KMX_INFER_OK;
}

/* The sigmoids kmx_infer_open checked (version 3). */
static const double *sigmoids(const kmx_infer_predictor *p) {
    return (const double *)(const void *)(p->blob + kmx_le_u64(p->blob + KMX_BLOB_OFF_SIGMOIDS_AT));
}

/* The probabilities of one row: its decision values into the scratch after
 * the prediction's part, then the sigmoids and the coupling (probability.c). */
kmx_infer_status kmx_infer_predict_probability_r(double *probabilities, int64_t probabilities_count,
                                                 const kmx_infer_predictor *p, const double *x, int64_t x_count,
                                                 void *scratch, int64_t scratch_bytes) {
    size_t probabilities_len, x_len, scratch_len;
    double *values;
    if (!kmx_infer__size(probabilities_count, &probabilities_len) || !kmx_infer__size(x_count, &x_len) ||
        !kmx_infer__size(scratch_bytes, &scratch_len))
        return KMX_INFER_E_INVALID_ARGUMENT;
    if (!p || !x || x_len != p->d || !probabilities) return KMX_INFER_E_INVALID_ARGUMENT;
    if (!p->has_sigmoids) return KMX_INFER_E_NO_PROBABILITIES;
    if (probabilities_len < p->classes) return KMX_INFER_E_INVALID_ARGUMENT;
    if (!scratch) return KMX_INFER_E_INVALID_ARGUMENT;
    if (misaligned(scratch)) return KMX_INFER_E_ALIGNMENT;
    if (scratch_len < p->scratch_bytes) return KMX_INFER_E_ARENA_TOO_SMALL;
    values = (double *)(void *)((unsigned char *)scratch + kmx_infer__predict_scratch_bytes(p));
    predict_row(p, x, NULL, values, scratch);
    kmx_infer__probabilities(p->classes, p->multiclass == INFER_MULTICLASS_OVR && p->classes > 2, sigmoids(p), values,
                             probabilities, values + p->outputs);
    return KMX_INFER_OK;
}

kmx_infer_status kmx_infer_predict_probability(double *probabilities, int64_t probabilities_len, kmx_infer_predictor *p,
                                               const double *x, int64_t x_len) {
    if (!p) return KMX_INFER_E_INVALID_ARGUMENT;
    return kmx_infer_predict_probability_r(probabilities, probabilities_len, p, x, x_len, p->scratch,
                                           (int64_t)p->scratch_bytes);
}

int kmx_infer_has_probabilities(const kmx_infer_predictor *p) { return p && p->has_sigmoids ? 1 : 0; }

int64_t kmx_infer_features(const kmx_infer_predictor *p) { return p ? (int64_t)p->d : 0; }
int64_t kmx_infer_outputs(const kmx_infer_predictor *p) { return p ? (int64_t)p->outputs : 0; }
int64_t kmx_infer_classes(const kmx_infer_predictor *p) { return p ? (int64_t)p->classes : 0; }
int kmx_infer_is_float32(const kmx_infer_predictor *p) { return p ? p->float32 : 0; }
int kmx_infer_storage(const kmx_infer_predictor *p) {
    if (!p) return 0;
    if (p->landmark_bits == 4) return KMX_INFER_STORAGE_INT4;
    if (p->landmark_bits) return p->landmark_bits == 16 ? KMX_INFER_STORAGE_INT16 : KMX_INFER_STORAGE_INT8;
    return p->float32 ? KMX_INFER_STORAGE_FLOAT32 : KMX_INFER_STORAGE_FLOAT64;
}
int64_t kmx_infer_scratch_bytes(const kmx_infer_predictor *p) { return p ? (int64_t)p->scratch_bytes : 0; }

double kmx_infer_class_label(const kmx_infer_predictor *p, int64_t i) {
    return p && i >= 0 && (uint64_t)i < (uint64_t)p->classes ? p->class_labels[i] : 0.0;
}
