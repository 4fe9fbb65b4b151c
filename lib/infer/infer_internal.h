/* infer_internal.h — the open predictor, shared by the C runtime's files.
 * Every pointer points into the blob (validated by kmx_infer_open). */
#ifndef KMX_INFER_INTERNAL_H
#define KMX_INFER_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "kmx/kmx_infer.h"
#include "probability.h"

enum { INFER_KERNEL_RBF, INFER_KERNEL_LAPLACIAN, INFER_KERNEL_POLYNOMIAL, INFER_KERNEL_LINEAR, INFER_KERNEL_SIGMOID };
enum { INFER_TASK_CLASSIFICATION, INFER_TASK_REGRESSION };
enum { INFER_MULTICLASS_OVO, INFER_MULTICLASS_OVR };
enum { INFER_TRIANGLE_LOWER, INFER_TRIANGLE_UPPER, INFER_TRIANGLE_MIDPOINT };

struct kmx_infer_predictor {
    const unsigned char *blob;
    int float32;       /* real arrays are float */
    int landmark_bits; /* 0: landmarks are reals; 16 or 8: int16/int8 codes with a scale per leaf; 4: codebook codes */
    int leaf_words;    /* words per leaf-table record (by format version) */
    int kernel;
    int degree;
    int task;
    int multiclass;
    int triangle_estimate;
    double gamma;
    double coef0;
    size_t d;
    size_t outputs;
    size_t classes;
    size_t top;
    size_t leaves;
    const double *class_labels;     /* classes */
    const void *top_centers;        /* real[top * d] */
    const uint64_t *top_leaf_begin; /* top + 1 */
    const uint64_t *leaf_table;     /* leaves * leaf_words */
    size_t max_landmarks;           /* largest m over the leaves */
    size_t max_features;            /* largest m + p_tri + p_prod */
    /* Flags as bytes: the second fits in the first's padding, so the struct (and the arena) did not grow
     * when has_sigmoids came (format version 3: f64[2 * outputs], (A_k, B_k), at the header's
     * KMX_BLOB_OFF_SIGMOIDS_AT, read there when used). */
    unsigned char has_triangles;
    unsigned char has_sigmoids;
    void *scratch; /* in the arena, scratch_bytes long */
    size_t scratch_bytes;
};

/* One leaf's arrays, resolved from the leaf table. */
typedef struct infer_leaf {
    size_t m;
    size_t triangle;
    size_t products;
    const void *center;
    const void *landmarks; /* reals, or codes (landmark_bits) */
    double scale;          /* int16/int8 landmarks: u = center + scale·q */
    const void *codebook;  /* int4 landmarks: real[16 d], u_k = codebook[16k + q_k] */
    const void *triangle_dist;
    const int32_t *pairs;
    const void *beta;
    const void *bias;
} infer_leaf;

infer_leaf kmx_infer__leaf(const kmx_infer_predictor *p, size_t l);

/* Scratch layout for one call (real = float or double): c̄ (max_features
 * reals), r (max_landmarks reals, when there are triangles), o (outputs
 * reals), u (d reals, one dequantized landmark, when quantized), votes
 * (classes uint32), rounded up to 8 bytes (kmx_infer__predict_scratch_bytes);
 * with sigmoids then the probabilities' doubles: the outputs, and
 * kmx_infer__probability_work(classes). p's counts must be set. */
size_t kmx_infer__predict_scratch_bytes(const kmx_infer_predictor *p);
size_t kmx_infer__scratch_bytes(const kmx_infer_predictor *p);

/* One row, in double or float; scratch already checked. */
void kmx_infer__predict_f64(const kmx_infer_predictor *p, const double *x, double *label, double *outputs,
                            void *scratch);
void kmx_infer__predict_f32(const kmx_infer_predictor *p, const double *x, double *label, double *outputs,
                            void *scratch);

/* A length or count from the API (int64_t, as in kmx.h) as a size_t: 0 when
 * it is negative or too large for this machine, else 1 with *out set. */
static inline int kmx_infer__size(int64_t value, size_t *out) {
    if (value < 0 || (uint64_t)value > (uint64_t)(size_t)-1) return 0;
    *out = (size_t)value;
    return 1;
}

/* kmx's one CRC-32 (crc32.c); _update(crc32(a), b) is the CRC of a then b. */
uint32_t kmx_infer__crc32(const unsigned char *data, size_t len);
uint32_t kmx_infer__crc32_update(uint32_t crc, const unsigned char *data, size_t len);

#endif
