/* test_infer.c — the inference subset on the checked-in blobs of
 * tests/infer/data, in C alone (it runs in -Dtraining=disabled builds and
 * under qemu-arm): predictions against the expectations written by
 * make_infer_data's reference (format version 1: float64 and float32;
 * version 2: int16 and int8 landmarks; version 3: sigmoids, whose probabilities
 * are checked against NAME.prob; version 4: int4 codes into a codebook), pinned arena footprints, corrupt blobs
 * (every truncation, every bit flip, a newer version, a short arena).
 * Linked with --wrap=malloc,calloc,realloc,free wrappers that abort: the
 * runtime must never allocate. Usage: test_infer DATA_DIR */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "kmx/kmx_infer.h"

uint32_t kmx_infer__crc32(const unsigned char *data, size_t len); /* lib/infer/crc32.c */

static int failures = 0;

#define EXPECT(condition, ...)                                              \
    do {                                                                    \
        if (!(condition)) {                                                 \
            ++failures;                                                     \
            fprintf(stderr, "%s:%d: %s: ", __FILE__, __LINE__, #condition); \
            fprintf(stderr, __VA_ARGS__);                                   \
            fputc('\n', stderr);                                            \
        }                                                                   \
    } while (0)

#define MAX_BLOB_WORDS 8192
#define MAX_ARENA_WORDS 1024
static uint64_t blob_words[MAX_BLOB_WORDS];
static uint64_t work_words[MAX_BLOB_WORDS];
static uint64_t arena_words[MAX_ARENA_WORDS];

/* Arena bytes pinned per checked-in blob (64-bit, 32-bit pointers): the
 * test fails when one grows by more than 3%. */
struct footprint {
    const char *name;
    size_t bytes_64;
    size_t bytes_32;
};
static const struct footprint footprints[] = {
    {"binary_rbf_f64", 320, 264},           {"ovo_laplacian_f32", 280, 224},  {"ovr_poly_f64", 288, 232},
    {"regression_sigmoid_f32", 208, 152},   {"tiny_rbf_f64", 232, 176},       {"ovr_rbf_i16", 288, 232},
    {"binary_laplacian_i8", 272, 216},      {"regression_poly_i8", 224, 168}, {"tiny_rbf_i8", 216, 160},
    {"ovo_rbf_prob_f64", 680, 624},         {"tiny_rbf_prob_f32", 216, 160},  {"ovo_rbf_i4", 392, 336},
    {"binary_laplacian_prob_i4", 240, 184}, {"tiny_rbf_i4", 224, 168},
};
#define BLOBS (sizeof footprints / sizeof footprints[0])

static size_t load_blob(const char *dir, const char *name) {
    char path[512];
    FILE *file;
    size_t len;
    snprintf(path, sizeof path, "%s/%s.kmxp", dir, name);
    file = fopen(path, "rb");
    if (!file) {
        fprintf(stderr, "cannot open %s\n", path);
        ++failures;
        return 0;
    }
    len = fread(blob_words, 1, sizeof blob_words, file);
    fclose(file);
    EXPECT(len > 0 && len < sizeof blob_words, "%s: %zu bytes", path, len);
    return len;
}

static double relative_gap(double got, double want) { return fabs(got - want) / (fabs(want) > 1 ? fabs(want) : 1); }

/* Predicts the rows of DIR/NAME.expect: labels equal, outputs close. */
static void check_expectations(const char *dir, const char *name, kmx_infer_predictor *p) {
    char path[512];
    double x[64], want[64], got[64], label, want_label;
    const double tolerance = kmx_infer_is_float32(p) ? 1e-4 : 1e-12;
    long rows, d, outputs, i, k;
    FILE *file;
    snprintf(path, sizeof path, "%s/%s.expect", dir, name);
    file = fopen(path, "r");
    EXPECT(file != NULL, "cannot open %s", path);
    if (!file) return;
    if (fscanf(file, "%ld %ld %ld", &rows, &d, &outputs) != 3 || d > 64 || outputs > 64) {
        EXPECT(0, "%s: bad first line", path);
        fclose(file);
        return;
    }
    EXPECT(d == kmx_infer_features(p) && outputs == kmx_infer_outputs(p), "%s: shape", name);
    for (i = 0; i < rows; ++i) {
        int ok = 1;
        for (k = 0; k < d; ++k) ok &= fscanf(file, "%lf", &x[k]) == 1;
        ok &= fscanf(file, "%lf", &want_label) == 1;
        for (k = 0; k < outputs; ++k) ok &= fscanf(file, "%lf", &want[k]) == 1;
        EXPECT(ok, "%s: row %ld unreadable", path, i);
        EXPECT(kmx_infer_predict(&label, got, 64, p, x, d) == KMX_INFER_OK, "%s row %ld", name, i);
        if (kmx_infer_classes(p) > 0)
            EXPECT(label == want_label, "%s row %ld: label %g, expected %g", name, i, label, want_label);
        else
            EXPECT(relative_gap(label, want_label) <= tolerance, "%s row %ld: %.17g vs %.17g", name, i, label,
                   want_label);
        for (k = 0; k < outputs; ++k)
            EXPECT(relative_gap(got[k], want[k]) <= tolerance, "%s row %ld output %ld: %.17g vs %.17g", name, i, k,
                   got[k], want[k]);
    }
    fclose(file);
}

/* The probabilities of the .expect rows against DIR/NAME.prob (blobs with
 * sigmoids): within 1e-12 (float: 1e-4), summing to 1. */
static void check_probabilities(const char *dir, const char *name, kmx_infer_predictor *p) {
    char path[512];
    double x[64], skip, want, got[64], sum;
    const double tolerance = kmx_infer_is_float32(p) ? 1e-4 : 1e-12;
    long rows, d, outputs, classes, i, k;
    FILE *expect, *prob;
    snprintf(path, sizeof path, "%s/%s.prob", dir, name);
    prob = fopen(path, "r");
    snprintf(path, sizeof path, "%s/%s.expect", dir, name);
    expect = fopen(path, "r");
    EXPECT(prob && expect, "%s: no .prob or .expect", name);
    if (prob && expect && fscanf(expect, "%ld %ld %ld", &rows, &d, &outputs) == 3 &&
        fscanf(prob, "%ld %ld", &i, &classes) == 2 && i == rows && classes == kmx_infer_classes(p) && d <= 64 &&
        classes <= 64) {
        for (i = 0; i < rows; ++i) {
            int ok = 1;
            for (k = 0; k < d; ++k) ok &= fscanf(expect, "%lf", &x[k]) == 1;
            for (k = 0; k < 1 + outputs; ++k) ok &= fscanf(expect, "%lf", &skip) == 1;
            EXPECT(ok && kmx_infer_predict_probability(got, 64, p, x, d) == KMX_INFER_OK, "%s row %ld", name, i);
            for (k = 0, sum = 0; k < classes; ++k) {
                ok &= fscanf(prob, "%lf", &want) == 1;
                EXPECT(ok && fabs(got[k] - want) <= tolerance, "%s row %ld class %ld: %.17g vs %.17g", name, i, k,
                       got[k], want);
                sum += got[k];
            }
            EXPECT(fabs(sum - 1) <= 1e-12, "%s row %ld: probabilities sum to %.17g", name, i, sum);
        }
    } else {
        EXPECT(0, "%s: bad .prob or .expect", name);
    }
    if (prob) fclose(prob);
    if (expect) fclose(expect);
}

static void check_blob(const char *dir, const struct footprint *pin) {
    const size_t len = load_blob(dir, pin->name);
    const size_t pinned = sizeof(void *) == 8 ? pin->bytes_64 : pin->bytes_32;
    int64_t arena_bytes = 0;
    size_t bytes;
    kmx_infer_predictor *p = NULL;
    EXPECT(kmx_infer_required_bytes(&arena_bytes, blob_words, (int64_t)len) == KMX_INFER_OK, "%s", pin->name);
    bytes = (size_t)arena_bytes;
    printf("%-24s blob %6zu bytes, arena %5zu bytes (scratch included)\n", pin->name, len, bytes);
    EXPECT(bytes * 100 <= pinned * 103, "%s: arena %zu bytes, pinned %zu (+3%% allowed)", pin->name, bytes, pinned);
    EXPECT(bytes <= sizeof arena_words, "%s: arena %zu", pin->name, bytes);
    EXPECT(kmx_infer_open(&p, blob_words, len, arena_words, bytes - 1) == KMX_INFER_E_ARENA_TOO_SMALL && p == NULL,
           "%s: arena one byte short", pin->name);
    EXPECT(kmx_infer_open(&p, blob_words, len, (unsigned char *)arena_words + 4, bytes) == KMX_INFER_E_ALIGNMENT,
           "%s: misaligned arena", pin->name);
    EXPECT(kmx_infer_open(&p, blob_words, len, arena_words, bytes) == KMX_INFER_OK && p != NULL, "%s", pin->name);
    if (p) check_expectations(dir, pin->name, p);
    if (p && kmx_infer_has_probabilities(p)) check_probabilities(dir, pin->name, p);
    if (p && !kmx_infer_has_probabilities(p)) {
        double x[64] = {0}, probabilities[64];
        EXPECT(kmx_infer_features(p) > 64 ||
                   kmx_infer_predict_probability(probabilities, 64, p, x, kmx_infer_features(p)) ==
                       KMX_INFER_E_NO_PROBABILITIES,
               "%s: probabilities without sigmoids", pin->name);
    }
}

static void store_crc(unsigned char *blob, size_t len) {
    const uint32_t crc = kmx_infer__crc32(blob + 16, len - 16);
    int i;
    for (i = 0; i < 4; ++i) blob[12 + i] = (unsigned char)(crc >> (8 * i));
}

/* Opens a corrupt blob: must give a clean status; when the corruption is
 * a valid predictor after all, predicting must work. */
static kmx_infer_status open_and_use(size_t len) {
    kmx_infer_predictor *p = NULL;
    double x[64] = {0.25, -0.5}, label;
    const kmx_infer_status status = kmx_infer_open(&p, work_words, len, arena_words, sizeof arena_words);
    if (status == KMX_INFER_OK && kmx_infer_features(p) <= 64)
        EXPECT(kmx_infer_predict(&label, NULL, 0, p, x, kmx_infer_features(p)) == KMX_INFER_OK, "predict");
    return status;
}

static void check_corrupt_blobs(const char *dir, const char *name) {
    const size_t len = load_blob(dir, name);
    unsigned char *work = (unsigned char *)work_words;
    size_t cut, bit, accepted = 0;
    kmx_infer_predictor *p = NULL;
    for (cut = 0; cut < len; ++cut) {
        memcpy(work_words, blob_words, len);
        EXPECT(open_and_use(cut) == KMX_INFER_E_FORMAT, "truncated at %zu", cut);
    }
    for (bit = 0; bit < 8 * len; ++bit) {
        memcpy(work_words, blob_words, len);
        work[bit / 8] ^= (unsigned char)(1u << (bit % 8));
        EXPECT(open_and_use(len) != KMX_INFER_OK, "bit %zu flipped", bit);
        if (bit / 8 < 16) continue;
        store_crc(work, len); /* now only the field checks stand in the way */
        accepted += open_and_use(len) == KMX_INFER_OK;
    }
    printf("%s: bit flips with a valid CRC: %zu of %zu still valid predictors\n", name, accepted, 8 * len - 128);
    memcpy(work_words, blob_words, len);
    work[8] = KMX_INFER_BLOB_VERSION + 1;
    EXPECT(open_and_use(len) == KMX_INFER_E_VERSION, "newer version");
    memcpy(work_words, blob_words, len);
    memmove(work + 1, work, len);
    EXPECT(kmx_infer_open(&p, work + 1, len, arena_words, sizeof arena_words) == KMX_INFER_E_ALIGNMENT,
           "misaligned blob");
}

static void check_arguments(void) {
    kmx_infer_predictor *p = (kmx_infer_predictor *)arena_words;
    int64_t bytes = 1;
    EXPECT(kmx_infer_required_bytes(&bytes, NULL, 10) == KMX_INFER_E_INVALID_ARGUMENT && bytes == 0, "NULL blob");
    EXPECT(kmx_infer_required_bytes(&bytes, blob_words, -1) == KMX_INFER_E_INVALID_ARGUMENT, "negative length");
    EXPECT(kmx_infer_open(&p, blob_words, 10, arena_words, -8) == KMX_INFER_E_INVALID_ARGUMENT && p == NULL,
           "negative arena");
    EXPECT(kmx_infer_required_bytes(NULL, blob_words, 10) == KMX_INFER_E_INVALID_ARGUMENT, "NULL bytes");
    EXPECT(kmx_infer_open(NULL, blob_words, 10, arena_words, 10) == KMX_INFER_E_INVALID_ARGUMENT, "NULL out");
    EXPECT(kmx_infer_open(&p, blob_words, 10, NULL, 10) == KMX_INFER_E_INVALID_ARGUMENT && p == NULL, "NULL arena");
    EXPECT(kmx_infer_predict(NULL, NULL, 0, NULL, NULL, 0) == KMX_INFER_E_INVALID_ARGUMENT, "NULL predictor");
    EXPECT(kmx_infer_features(NULL) == 0 && kmx_infer_class_label(NULL, 0) == 0, "NULL facts");
}

static void check_status_names(void) {
    EXPECT(strcmp(kmx_infer_status_name(KMX_INFER_OK), "KMX_INFER_OK") == 0, "OK");
    EXPECT(strcmp(kmx_infer_status_name(KMX_INFER_E_FORMAT), "KMX_INFER_E_FORMAT") == 0, "FORMAT");
    EXPECT(strcmp(kmx_infer_status_name(KMX_INFER_E_UNSUPPORTED), "KMX_INFER_E_UNSUPPORTED") == 0, "UNSUPPORTED");
    EXPECT(strcmp(kmx_infer_status_name(KMX_INFER_E_NO_PROBABILITIES), "KMX_INFER_E_NO_PROBABILITIES") == 0,
           "NO_PROBABILITIES");
    EXPECT(strcmp(kmx_infer_status_name((kmx_infer_status)99), "KMX_INFER_E_UNKNOWN") == 0, "unknown");
}

int main(int argc, char **argv) {
    size_t i;
    if (argc != 2) {
        fprintf(stderr, "usage: test_infer DATA_DIR\n");
        return 2;
    }
    for (i = 0; i < BLOBS; ++i) check_blob(argv[1], &footprints[i]);
    check_corrupt_blobs(argv[1], "tiny_rbf_f64");
    check_corrupt_blobs(argv[1], "tiny_rbf_i8");       /* format version 2: int8 landmark codes and a scale */
    check_corrupt_blobs(argv[1], "tiny_rbf_prob_f32"); /* format version 3: sigmoids */
    check_corrupt_blobs(argv[1], "tiny_rbf_i4");       /* format version 4: int4 codes and a codebook */
    check_arguments();
    check_status_names();
    printf("%s: %d failure(s)\n", failures ? "FAILED" : "passed", failures);
    return failures ? 1 : 0;
}
