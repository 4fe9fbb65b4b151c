/* probability.h — class probabilities from decision values (probability.c)
 * and the pairwise coupling they use (pairwise_coupling.c): kmx's one
 * implementation, which the full library's models (lib/svm) and predictors
 * (lib/predict) call too. C99 and C++. */
#ifndef KMX_INFER_PROBABILITY_H
#define KMX_INFER_PROBABILITY_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Wu, Lin & Weng's pairwise coupling (pairwise_coupling.c): p (k) from r
 * (k x k row-major, r_ij + r_ji = 1 off the diagonal, which is not read);
 * work holds k² + k doubles. */
void kmx_infer__couple_pairwise(size_t k, const double *r, double *p, double *work);

/* Platt's P(positive | f) = 1 / (1 + exp(A f + B)), without overflow
 * (probability.c). */
double kmx_infer__platt_probability(double A, double B, double f);

/* Class probabilities p (classes, summing to 1) from one row's decision
 * values (outputs in the blob's order) and their sigmoids (2 per output:
 * A, B); one_vs_rest_outputs: more than two classes, one output each.
 * work holds kmx_infer__probability_work(classes) doubles (probability.c). */
size_t kmx_infer__probability_work(size_t classes);
void kmx_infer__probabilities(size_t classes, int one_vs_rest_outputs, const double *sigmoids, const double *values,
                              double *p, double *work);

#ifdef __cplusplus
}
#endif

#endif
