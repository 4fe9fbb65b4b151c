/* probability.c — class probabilities from decision values, as LIBSVM's
 * svm_predict_probability: output k's decision value o_k through its Platt
 * sigmoid (clamped to [1e-7, 1 − 1e-7]) gives r_ij = P(class i | i or j);
 * two classes take (1 − r, r), more one-vs-one classes are coupled
 * (pairwise_coupling.c). One-vs-rest outputs (kmx's own; LIBSVM has none)
 * give P(class c | o_c) each, at least 1e-7, normalised to sum 1. The
 * outputs are in the blob's (and the model's) order: binary, one output
 * whose positive class is the larger label; one-vs-one, pairs (i, j), i < j,
 * in LIBSVM's order, positive = i; one-vs-rest, one per class. kmx's one
 * implementation: the full library's models and predictors call it too. */
#include <math.h>

#include "probability.h"

#define MIN_PROBABILITY 1e-7 /* LIBSVM's min_prob: r_ij stays inside (0, 1) */

double kmx_infer__platt_probability(double A, double B, double f) {
    const double fApB = f * A + B;
    return fApB >= 0 ? exp(-fApB) / (1 + exp(-fApB)) : 1 / (1 + exp(fApB));
}

static double clamped(double probability) {
    if (probability < MIN_PROBABILITY) return MIN_PROBABILITY;
    if (probability > 1 - MIN_PROBABILITY) return 1 - MIN_PROBABILITY;
    return probability;
}

static void one_vs_rest(size_t k, const double *sigmoids, const double *values, double *p) {
    double sum = 0;
    size_t c;
    for (c = 0; c < k; ++c) {
        p[c] = kmx_infer__platt_probability(sigmoids[2 * c], sigmoids[2 * c + 1], values[c]);
        if (p[c] < MIN_PROBABILITY) p[c] = MIN_PROBABILITY;
        sum += p[c];
    }
    for (c = 0; c < k; ++c) p[c] /= sum;
}

/* r (k x k) from the pairs' outputs, then the coupling (work: k² + k). */
static void one_vs_one(size_t k, const double *sigmoids, const double *values, double *p, double *work) {
    double *r = work;
    size_t i, j, m = 0;
    for (i = 0; i < k * k; ++i) r[i] = 0;
    for (i = 0; i < k; ++i)
        for (j = i + 1; j < k; ++j, ++m) {
            const double r_ij = clamped(kmx_infer__platt_probability(sigmoids[2 * m], sigmoids[2 * m + 1], values[m]));
            r[i * k + j] = r_ij;
            r[j * k + i] = 1 - r_ij;
        }
    kmx_infer__couple_pairwise(k, r, p, work + k * k);
}

size_t kmx_infer__probability_work(size_t classes) { return classes > 2 ? 2 * classes * classes + classes : 0; }

void kmx_infer__probabilities(size_t classes, int one_vs_rest_outputs, const double *sigmoids, const double *values,
                              double *p, double *work) {
    if (classes == 2) {
        p[1] = clamped(kmx_infer__platt_probability(sigmoids[0], sigmoids[1], values[0]));
        p[0] = 1 - p[1];
    } else if (one_vs_rest_outputs) {
        one_vs_rest(classes, sigmoids, values, p);
    } else {
        one_vs_one(classes, sigmoids, values, p, work);
    }
}
