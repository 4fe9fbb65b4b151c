/* edge_predict.c — a device program: a predictor exported by the full
 * library (`kmx export --c`, here edge_predictor.h made at build time from
 * edge_predictor.kmxp) runs from read-only memory in a static arena. No
 * heap anywhere (linked with no_heap.c's aborting malloc/free), no BLAS.
 * The predictor: binary RBF on 4 features, float32, two top nodes with two
 * leaves each. Prints one label per sample; fails on a wrong label. */
#include <stdint.h>
#include <stdio.h>

#include "edge_predictor.h"
#include "kmx/kmx_infer.h"

/* 8-byte aligned, as kmx_infer_open requires; 64 words is far more than this
 * predictor needs (kmx_infer_required_bytes says how much). */
static uint64_t arena[64];

struct sample {
    double x[4];
    double expected_label; /* from the reference predictor in tests/infer */
};

static const struct sample samples[] = {
    {{0.479354763, -0.801084152, 0.77894089, -0.296234993}, -1},
    {{1.03307917, -0.424293791, -0.152089403, 0.598296834}, 1.75},
    {{-0.907303256, -0.261871161, -0.0819503969, 0.139200186}, 1.75},
    {{-0.728382005, -0.661964512, -0.369579136, -0.900150604}, 1.75},
};

int main(void) {
    kmx_infer_predictor *predictor = NULL;
    int64_t needed = 0;
    size_t i;
    int wrong = 0;
    kmx_infer_status status = kmx_infer_required_bytes(&needed, edge_predictor, EDGE_PREDICTOR_LEN);
    if (status == KMX_INFER_OK)
        status = kmx_infer_open(&predictor, edge_predictor, EDGE_PREDICTOR_LEN, arena, sizeof arena);
    if (status != KMX_INFER_OK) {
        printf("edge: cannot open the predictor: %s\n", kmx_infer_status_name(status));
        return 1;
    }
    printf("edge: %u-byte predictor, %u of %u arena bytes used\n", (unsigned)EDGE_PREDICTOR_LEN, (unsigned)needed,
           (unsigned)sizeof arena);
    for (i = 0; i < sizeof samples / sizeof samples[0]; ++i) {
        double label = 0, decision = 0;
        status = kmx_infer_predict(&label, &decision, 1, predictor, samples[i].x, 4);
        if (status != KMX_INFER_OK || label != samples[i].expected_label) ++wrong;
        printf("sample %u: label %g (decision value %.6f)%s\n", (unsigned)i, label, decision,
               label == samples[i].expected_label ? "" : "  WRONG");
    }
    return wrong == 0 ? 0 : 1;
}
