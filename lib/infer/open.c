/* open.c — kmx_infer_required_bytes and kmx_infer_open: every field, size,
 * offset, alignment, checksum and index of the blob is checked here, once,
 * so predicting can trust it. The header is decoded byte by byte; arrays
 * are used in place, so they need a little-endian host. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "blob_layout.h"
#include "infer_internal.h"
#include "le_bytes.h"

#define CHECK(condition)                             \
    do {                                             \
        if (!(condition)) return KMX_INFER_E_FORMAT; \
    } while (0)
#define TRY(call)                                            \
    do {                                                     \
        const kmx_infer_status try_status_ = (call);         \
        if (try_status_ != KMX_INFER_OK) return try_status_; \
    } while (0)

static double read_f64(const unsigned char *at) {
    const uint64_t bits = kmx_le_u64(at);
    double value;
    memcpy(&value, &bits, sizeof value);
    return value;
}

static int host_is_little_endian(void) {
    const uint32_t one = 1;
    unsigned char first;
    memcpy(&first, &one, 1);
    return first == 1;
}

/* `count` items of `item_bytes` at `offset`: aligned to the item and inside the blob. */
static kmx_infer_status check_array(uint64_t offset, uint64_t count, uint64_t item_bytes, uint64_t blob_len) {
    CHECK(offset % item_bytes == 0 && offset <= blob_len);
    CHECK(count <= (blob_len - offset) / item_bytes);
    return KMX_INFER_OK;
}

/* Every value of a real array (float or double) is finite. */
static kmx_infer_status check_finite(const unsigned char *values, uint64_t count, int float32) {
    uint64_t i;
    if (float32) {
        for (i = 0; i < count; ++i) CHECK(isfinite(((const float *)(const void *)values)[i]));
    } else {
        for (i = 0; i < count; ++i) CHECK(isfinite(((const double *)(const void *)values)[i]));
    }
    return KMX_INFER_OK;
}

/* A real array: in range, aligned, finite. */
static kmx_infer_status check_reals(const unsigned char *blob, uint64_t offset, uint64_t count, int float32,
                                    uint64_t blob_len) {
    TRY(check_array(offset, count, float32 ? 4 : 8, blob_len));
    return check_finite(blob + offset, count, float32);
}

/* a · b, or KMX_INFER_E_FORMAT when it overflows. */
static kmx_infer_status multiply(uint64_t a, uint64_t b, uint64_t *product) {
    CHECK(b == 0 || a <= UINT64_MAX / b);
    *product = a * b;
    return KMX_INFER_OK;
}

static kmx_infer_status check_preamble(const unsigned char *blob, size_t blob_len) {
    uint32_t version;
    if (blob_len < KMX_BLOB_OFF_CRC) return KMX_INFER_E_FORMAT;
    CHECK(memcmp(blob, KMX_BLOB_MAGIC, KMX_BLOB_MAGIC_BYTES) == 0);
    version = kmx_le_u32(blob + KMX_BLOB_OFF_VERSION);
    if (version > KMX_BLOB_VERSION) return KMX_INFER_E_VERSION;
    CHECK(version >= 1);
    if (((uintptr_t)blob & (KMX_BLOB_ALIGN - 1)) != 0) return KMX_INFER_E_ALIGNMENT;
    CHECK(blob_len >= KMX_BLOB_HEADER_BYTES);
    CHECK(kmx_le_u64(blob + KMX_BLOB_OFF_TOTAL_BYTES) == blob_len);
    CHECK(kmx_le_u32(blob + KMX_BLOB_OFF_HEADER_BYTES) ==
          ((kmx_le_u32(blob + KMX_BLOB_OFF_FLAGS) & KMX_BLOB_FLAG_SIGMOIDS) ? KMX_BLOB_HEADER_BYTES_SIGMOIDS
                                                                            : KMX_BLOB_HEADER_BYTES));
    CHECK(blob_len >= kmx_le_u32(blob + KMX_BLOB_OFF_HEADER_BYTES));
#ifndef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION /* fuzz builds let mutations past the CRC */
    CHECK(kmx_le_u32(blob + KMX_BLOB_OFF_CRC) ==
          kmx_infer__crc32(blob + KMX_BLOB_CRC_BEGIN, blob_len - KMX_BLOB_CRC_BEGIN));
#endif
    if (!host_is_little_endian()) return KMX_INFER_E_UNSUPPORTED;
    return KMX_INFER_OK;
}

/* The storage flags: version 1 knows only float32; version 2 adds int16 or
 * int8 landmarks (one of them, with float32 reals); version 3 the sigmoids
 * (decoded by decode_sigmoids), which a version-3 blob always carries;
 * version 4 the int4 landmarks, which a version-4 blob always has (with
 * float32 reals, sigmoids or not). */
static kmx_infer_status decode_storage(uint32_t flags, uint32_t version, kmx_infer_predictor *p) {
    const uint32_t codes =
        flags & (KMX_BLOB_FLAG_INT16_LANDMARKS | KMX_BLOB_FLAG_INT8_LANDMARKS | KMX_BLOB_FLAG_INT4_LANDMARKS);
    const uint32_t sigmoids = flags & KMX_BLOB_FLAG_SIGMOIDS;
    CHECK((flags & ~(KMX_BLOB_FLAG_FLOAT32 | codes | sigmoids)) == 0);
    /* each version exists for its flag (and the version is outside the CRC) */
    CHECK((codes == KMX_BLOB_FLAG_INT4_LANDMARKS) == (version == 4));
    CHECK(version == 4 || (sigmoids != 0) == (version == 3));
    CHECK(codes == 0 || (version >= 2 && (codes & (codes - 1)) == 0 && (flags & KMX_BLOB_FLAG_FLOAT32) != 0));
    p->float32 = (flags & KMX_BLOB_FLAG_FLOAT32) != 0;
    p->landmark_bits = codes == KMX_BLOB_FLAG_INT16_LANDMARKS  ? 16
                       : codes == KMX_BLOB_FLAG_INT8_LANDMARKS ? 8
                       : codes == KMX_BLOB_FLAG_INT4_LANDMARKS ? 4
                                                               : 0;
    p->leaf_words = version == 1   ? KMX_BLOB_LEAF_WORDS_V1
                    : version == 4 ? KMX_BLOB_LEAF_WORDS_V4
                                   : KMX_BLOB_LEAF_WORDS_V2;
    return KMX_INFER_OK;
}

static kmx_infer_status decode_scalars(const unsigned char *blob, kmx_infer_predictor *p) {
    const uint32_t flags = kmx_le_u32(blob + KMX_BLOB_OFF_FLAGS);
    const uint32_t version = kmx_le_u32(blob + KMX_BLOB_OFF_VERSION);
    const uint32_t kernel = kmx_le_u32(blob + KMX_BLOB_OFF_KERNEL);
    const uint32_t task = kmx_le_u32(blob + KMX_BLOB_OFF_TASK);
    const uint32_t multiclass = kmx_le_u32(blob + KMX_BLOB_OFF_MULTICLASS);
    const uint32_t triangle_estimate = kmx_le_u32(blob + KMX_BLOB_OFF_TRIANGLE_ESTIMATE);
    const int32_t degree = (int32_t)kmx_le_u32(blob + KMX_BLOB_OFF_DEGREE);
    TRY(decode_storage(flags, version, p));
    CHECK(kmx_le_u32(blob + KMX_BLOB_OFF_RESERVED) == 0);
    CHECK(kernel <= INFER_KERNEL_SIGMOID && task <= INFER_TASK_REGRESSION);
    CHECK(multiclass <= INFER_MULTICLASS_OVR && triangle_estimate <= INFER_TRIANGLE_MIDPOINT);
    CHECK(kernel != INFER_KERNEL_POLYNOMIAL || degree >= 1);
    p->blob = blob;
    p->kernel = (int)kernel;
    p->degree = (int)degree;
    p->task = (int)task;
    p->multiclass = (int)multiclass;
    p->triangle_estimate = (int)triangle_estimate;
    p->gamma = read_f64(blob + KMX_BLOB_OFF_GAMMA);
    p->coef0 = read_f64(blob + KMX_BLOB_OFF_COEF0);
    CHECK(isfinite(p->gamma) && p->gamma > 0 && isfinite(p->coef0));
    return KMX_INFER_OK;
}

/* Outputs and classes must agree with the task: regression has no classes;
 * binary has one output; one-vs-rest one per class; one-vs-one one per pair. */
static kmx_infer_status check_outputs(uint64_t task, uint64_t multiclass, uint64_t outputs, uint64_t classes,
                                      uint64_t blob_len) {
    CHECK(outputs >= 1 && outputs <= blob_len && classes <= blob_len);
    if (task == INFER_TASK_REGRESSION) {
        CHECK(classes == 0 && outputs == 1);
    } else if (classes == 2) {
        CHECK(outputs == 1);
    } else if (multiclass == INFER_MULTICLASS_OVR) {
        CHECK(classes > 2 && outputs == classes);
    } else {
        uint64_t twice_pairs;
        CHECK(classes > 2);
        TRY(multiply(classes, classes - 1, &twice_pairs));
        CHECK(outputs == twice_pairs / 2);
    }
    return KMX_INFER_OK;
}

static kmx_infer_status decode_counts(const unsigned char *blob, size_t blob_len, kmx_infer_predictor *p) {
    const uint64_t d = kmx_le_u64(blob + KMX_BLOB_OFF_D);
    const uint64_t outputs = kmx_le_u64(blob + KMX_BLOB_OFF_OUTPUTS);
    const uint64_t classes = kmx_le_u64(blob + KMX_BLOB_OFF_CLASSES);
    const uint64_t top = kmx_le_u64(blob + KMX_BLOB_OFF_TOP);
    const uint64_t leaves = kmx_le_u64(blob + KMX_BLOB_OFF_LEAVES);
    CHECK(d >= 1 && d <= blob_len && top >= 1 && top <= blob_len && leaves >= top && leaves <= blob_len);
    TRY(check_outputs((uint64_t)p->task, (uint64_t)p->multiclass, outputs, classes, blob_len));
    p->d = (size_t)d;
    p->outputs = (size_t)outputs;
    p->classes = (size_t)classes;
    p->top = (size_t)top;
    p->leaves = (size_t)leaves;
    return KMX_INFER_OK;
}

/* The probabilities' doubles (the outputs and the coupling's 2k² + k, which
 * kmx_infer__scratch_bytes adds) in at most half of what a size_t counts,
 * so the scratch size cannot wrap on a 32-bit device: k² <= (max / 8 −
 * outputs − k) / 4. (outputs <= blob_len / 16 and k <= blob_len / 8: the
 * subtraction stays positive.) */
static kmx_infer_status check_probability_scratch(uint64_t classes, uint64_t outputs) {
    const uint64_t doubles = (uint64_t)(size_t)-1 / 8;
    uint64_t squares;
    CHECK(outputs + classes <= doubles);
    TRY(multiply(classes, classes, &squares));
    CHECK(squares <= (doubles - outputs - classes) / 4);
    return KMX_INFER_OK;
}

/* Version 3's sigmoids: a classifier's, one (A, B) pair of finite doubles
 * per output, at the offset the header's extra word gives. */
static kmx_infer_status decode_sigmoids(const unsigned char *blob, size_t blob_len, kmx_infer_predictor *p) {
    uint64_t at;
    if ((kmx_le_u32(blob + KMX_BLOB_OFF_FLAGS) & KMX_BLOB_FLAG_SIGMOIDS) == 0) return KMX_INFER_OK;
    CHECK(p->task == INFER_TASK_CLASSIFICATION);
    at = kmx_le_u64(blob + KMX_BLOB_OFF_SIGMOIDS_AT);
    TRY(check_reals(blob, at, 2 * (uint64_t)p->outputs, 0, blob_len)); /* outputs <= blob_len: no overflow */
    TRY(check_probability_scratch(p->classes, p->outputs));
    p->has_sigmoids = 1;
    return KMX_INFER_OK;
}

static kmx_infer_status check_classes_increase(const double *labels, size_t classes) {
    size_t c;
    for (c = 1; c < classes; ++c) CHECK(labels[c - 1] < labels[c]);
    return KMX_INFER_OK;
}

static kmx_infer_status decode_arrays(const unsigned char *blob, size_t blob_len, kmx_infer_predictor *p) {
    const uint64_t classes_at = kmx_le_u64(blob + KMX_BLOB_OFF_CLASSES_AT);
    const uint64_t centers_at = kmx_le_u64(blob + KMX_BLOB_OFF_TOP_CENTERS_AT);
    const uint64_t begin_at = kmx_le_u64(blob + KMX_BLOB_OFF_TOP_LEAF_BEGIN_AT);
    const uint64_t table_at = kmx_le_u64(blob + KMX_BLOB_OFF_LEAF_TABLE_AT);
    uint64_t centers, table_words;
    TRY(multiply(p->top, p->d, &centers));
    TRY(multiply(p->leaves, (uint64_t)p->leaf_words, &table_words));
    TRY(check_array(classes_at, p->classes, 8, blob_len));
    TRY(check_reals(blob, centers_at, centers, p->float32, blob_len));
    TRY(check_array(begin_at, (uint64_t)p->top + 1, 8, blob_len));
    TRY(check_array(table_at, table_words, 8, blob_len));
    p->class_labels = (const double *)(const void *)(blob + classes_at);
    TRY(check_classes_increase(p->class_labels, p->classes));
    p->top_centers = blob + centers_at;
    p->top_leaf_begin = (const uint64_t *)(const void *)(blob + begin_at);
    p->leaf_table = (const uint64_t *)(const void *)(blob + table_at);
    return KMX_INFER_OK;
}

/* top_leaf_begin: 0, strictly increasing (no empty top node), ends at leaves. */
static kmx_infer_status check_routing(const kmx_infer_predictor *p) {
    size_t t;
    CHECK(p->top_leaf_begin[0] == 0 && p->top_leaf_begin[p->top] == p->leaves);
    for (t = 0; t < p->top; ++t) CHECK(p->top_leaf_begin[t] < p->top_leaf_begin[t + 1]);
    return KMX_INFER_OK;
}

static kmx_infer_status check_pairs(const int32_t *pairs, uint64_t products, uint64_t m) {
    uint64_t q;
    for (q = 0; q < products; ++q) {
        const int32_t i = pairs[2 * q], j = pairs[2 * q + 1];
        CHECK(i >= 0 && i <= j && (uint64_t)j < m);
    }
    return KMX_INFER_OK;
}

static int kernel_is_stationary(int kernel) { return kernel == INFER_KERNEL_RBF || kernel == INFER_KERNEL_LAPLACIAN; }

/* int4 landmarks: count codes, two per byte (the last odd one's high half
 * 0), and a codebook of 16 finite reals per feature. */
static kmx_infer_status check_codebook_landmarks(const kmx_infer_predictor *p, const uint64_t *words, uint64_t count,
                                                 uint64_t blob_len) {
    const uint64_t at = words[KMX_BLOB_LEAF_LANDMARKS_AT];
    TRY(check_array(at, count / 2 + count % 2, 1, blob_len));
    CHECK(count % 2 == 0 || (p->blob[at + count / 2] >> 4) == 0);
    return check_reals(p->blob, words[KMX_BLOB_LEAF_CODEBOOK_AT], (uint64_t)p->d * KMX_BLOB_CODEBOOK_VALUES, p->float32,
                       blob_len); /* d <= blob_len: no overflow */
}

/* A leaf's landmarks: reals, or (int16/int8) codes of landmark_bits with a
 * scale that is a float in [FLT_MIN, KMX_BLOB_MAX_LANDMARK_SCALE], or (int4)
 * codes into a codebook; a version-2 or -4 record's scale word is 0 unless
 * int16/int8. */
static kmx_infer_status check_landmarks(const kmx_infer_predictor *p, const uint64_t *words, uint64_t count,
                                        uint64_t blob_len) {
    double scale = 0;
    if (p->leaf_words > KMX_BLOB_LEAF_SCALE) scale = read_f64((const unsigned char *)(words + KMX_BLOB_LEAF_SCALE));
    if (p->landmark_bits == 0 || p->landmark_bits == 4) {
        CHECK(scale == 0);
        if (p->landmark_bits == 4) return check_codebook_landmarks(p, words, count, blob_len);
        return check_reals(p->blob, words[KMX_BLOB_LEAF_LANDMARKS_AT], count, p->float32, blob_len);
    }
    CHECK(scale >= FLT_MIN && scale <= KMX_BLOB_MAX_LANDMARK_SCALE && (double)(float)scale == scale);
    return check_array(words[KMX_BLOB_LEAF_LANDMARKS_AT], count, (uint64_t)p->landmark_bits / 8, blob_len);
}

/* One leaf record: counts, then each of its arrays in range and aligned. */
static kmx_infer_status check_leaf(kmx_infer_predictor *p, size_t l, uint64_t blob_len) {
    const uint64_t *words = p->leaf_table + l * (size_t)p->leaf_words;
    const uint64_t m = words[KMX_BLOB_LEAF_M], triangle = words[KMX_BLOB_LEAF_TRIANGLE];
    const uint64_t products = words[KMX_BLOB_LEAF_PRODUCTS];
    uint64_t landmark_values, dist_values, pair_values, beta_values, features;
    CHECK(m >= 1 && m <= blob_len && triangle <= blob_len && products <= blob_len);
    CHECK(triangle == 0 || kernel_is_stationary(p->kernel));
    features = m + triangle + products;
    TRY(multiply(m, p->d, &landmark_values));
    TRY(multiply(triangle, m, &dist_values));
    TRY(multiply(products, 2, &pair_values));
    TRY(multiply(features, p->outputs, &beta_values));
    TRY(check_reals(p->blob, words[KMX_BLOB_LEAF_CENTER_AT], p->d, p->float32, blob_len));
    TRY(check_landmarks(p, words, landmark_values, blob_len));
    TRY(check_reals(p->blob, words[KMX_BLOB_LEAF_TRIANGLE_DIST_AT], dist_values, p->float32, blob_len));
    TRY(check_array(words[KMX_BLOB_LEAF_PAIRS_AT], pair_values, 4, blob_len));
    TRY(check_reals(p->blob, words[KMX_BLOB_LEAF_BETA_AT], beta_values, p->float32, blob_len));
    TRY(check_reals(p->blob, words[KMX_BLOB_LEAF_BIAS_AT], p->outputs, p->float32, blob_len));
    TRY(check_pairs((const int32_t *)(const void *)(p->blob + words[KMX_BLOB_LEAF_PAIRS_AT]), products, m));
    if (m > p->max_landmarks) p->max_landmarks = (size_t)m;
    if (features > p->max_features) p->max_features = (size_t)features;
    if (triangle > 0) p->has_triangles = 1;
    return KMX_INFER_OK;
}

static size_t struct_bytes(void) { return (sizeof(kmx_infer_predictor) + 7u) & ~(size_t)7u; }

/* Fills *p from a blob, checking everything; no scratch yet. */
static kmx_infer_status decode_blob(const void *blob_pointer, size_t blob_len, kmx_infer_predictor *p) {
    const unsigned char *blob = (const unsigned char *)blob_pointer;
    size_t l;
    memset(p, 0, sizeof *p);
    TRY(check_preamble(blob, blob_len));
    TRY(decode_scalars(blob, p));
    TRY(decode_counts(blob, blob_len, p));
    TRY(decode_arrays(blob, blob_len, p));
    TRY(decode_sigmoids(blob, blob_len, p));
    TRY(check_routing(p));
    for (l = 0; l < p->leaves; ++l) TRY(check_leaf(p, l, blob_len));
    p->scratch_bytes = kmx_infer__scratch_bytes(p);
    return KMX_INFER_OK;
}

kmx_infer_status kmx_infer_required_bytes(int64_t *out_bytes, const void *blob, int64_t blob_bytes) {
    kmx_infer_predictor probe;
    size_t blob_len;
    if (!out_bytes) return KMX_INFER_E_INVALID_ARGUMENT;
    *out_bytes = 0;
    if (!blob || !kmx_infer__size(blob_bytes, &blob_len)) return KMX_INFER_E_INVALID_ARGUMENT;
    TRY(decode_blob(blob, blob_len, &probe));
    *out_bytes = (int64_t)(struct_bytes() + probe.scratch_bytes);
    return KMX_INFER_OK;
}

kmx_infer_status kmx_infer_open(kmx_infer_predictor **out, const void *blob, int64_t blob_bytes, void *arena,
                                int64_t arena_bytes) {
    kmx_infer_predictor probe;
    kmx_infer_predictor *p = (kmx_infer_predictor *)arena;
    size_t blob_len, arena_len;
    if (!out) return KMX_INFER_E_INVALID_ARGUMENT;
    *out = NULL;
    if (!blob || !arena || !kmx_infer__size(blob_bytes, &blob_len) || !kmx_infer__size(arena_bytes, &arena_len))
        return KMX_INFER_E_INVALID_ARGUMENT;
    if (((uintptr_t)arena & 7u) != 0) return KMX_INFER_E_ALIGNMENT;
    TRY(decode_blob(blob, blob_len, &probe));
    if (arena_len < struct_bytes() || arena_len - struct_bytes() < probe.scratch_bytes)
        return KMX_INFER_E_ARENA_TOO_SMALL;
    *p = probe;
    p->scratch = (unsigned char *)arena + struct_bytes();
    *out = p;
    return KMX_INFER_OK;
}
