/* letter_mcu.c — the firmware of examples/mcu: a DC-Pred++ predictor of
 * binary Letter (letter_predictor.h, made at build time from
 * letter_predictor.kmxp by the code of `kmx export --c`) predicts the first
 * rows of the Letter test set (letter_rows.h, also made at build time) and
 * prints one label per line, then the accuracy. On a Cortex-M the output goes
 * out through semihosting (picolibc); the same file built for the build
 * machine is the reference the test compares the labels with.
 *
 * The predictor and the rows stay in flash (const); RAM holds only the arena
 * below, the C library's data and the stack. No heap. */
#include <stdint.h>
#include <stdio.h>

#include "kmx/kmx_infer.h"
#include "letter_predictor.h"
#include "letter_rows.h"

/* 8-byte aligned as kmx_infer_open requires; this predictor needs 376 bytes
 * with 32-bit pointers, 432 with 64-bit ones (kmx_infer_required_bytes,
 * printed below). */
static uint64_t arena[64];

/* Opens the predictor in the arena and checks it takes our rows; NULL on failure. */
/* kmx_infer_storage's values, in order. */
static const char *const storage_names[] = {"float64", "float32", "int16", "int8"};

static kmx_infer_predictor *open_predictor(void) {
    kmx_infer_predictor *predictor = NULL;
    int64_t needed = 0;
    kmx_infer_status status = kmx_infer_required_bytes(&needed, letter_predictor, LETTER_PREDICTOR_LEN);
    if (status == KMX_INFER_OK)
        status = kmx_infer_open(&predictor, letter_predictor, LETTER_PREDICTOR_LEN, arena, sizeof arena);
    if (status != KMX_INFER_OK) {
        printf("letter_mcu: cannot open the predictor: %s (arena %u bytes, %ld needed)\n",
               kmx_infer_status_name(status), (unsigned)sizeof arena, (long)needed);
        return NULL;
    }
    if (kmx_infer_features(predictor) != LETTER_FEATURES) {
        printf("letter_mcu: the predictor takes %ld features, the rows have %d\n",
               (long)kmx_infer_features(predictor), LETTER_FEATURES);
        return NULL;
    }
    printf("letter_mcu: %u-byte predictor (%s), %ld of %u arena bytes, %d rows\n", (unsigned)LETTER_PREDICTOR_LEN,
           storage_names[kmx_infer_storage(predictor) & 3], (long)needed, (unsigned)sizeof arena,
           LETTER_ROWS);
    return predictor;
}

int main(void) {
    kmx_infer_predictor *predictor = open_predictor();
    int row, correct = 0;
    if (!predictor) return 1;
    for (row = 0; row < LETTER_ROWS; ++row) {
        double label = 0;
        if (kmx_infer_predict(&label, NULL, 0, predictor, letter_x + row * LETTER_FEATURES, LETTER_FEATURES) !=
            KMX_INFER_OK) {
            printf("letter_mcu: row %d: prediction failed\n", row);
            return 1;
        }
        correct += label == letter_y[row];
        printf("label %g\n", label);
    }
    printf("letter_mcu: accuracy %d/%d\n", correct, LETTER_ROWS);
    return 0;
}
