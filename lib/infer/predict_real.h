/* predict_real.h — the prediction rule of lib/predict/compact_predictor.h for
 * one row, written once for both precisions. predict.c includes it twice:
 * with REAL double (names suffixed _f64, exp/sqrt/fabs/tanh) and with REAL
 * float (_f32, expf/...). It expects REAL, FN(name), R_EXP, R_SQRT, R_FABS,
 * R_TANH and QUANTIZED (1: reads quantized landmarks, which only float
 * predictors have) defined; it defines only static functions and FN(predict). */

/* ‖x − c‖² and ‖x − c‖₁ and x·c for a double row x and a stored row c. The
 * distances as the rule sums them (compact_predictor.h): four partial sums,
 * each over the features k ≡ r (mod 4) in order, then (s0 + s1) + (s2 + s3).
 * The four sums are named variables, not an array indexed by k % 4, which
 * kept them in memory: a load and a store on every feature. */
#define INFER_TERM(k) (diff = (REAL)x[k] - c[k], l1 ? R_FABS(diff) : diff * diff)
static REAL FN(distance)(const double *x, const REAL *c, size_t d, int l1) {
    REAL s0 = 0, s1 = 0, s2 = 0, s3 = 0, diff;
    size_t k = 0;
    for (; k + 4 <= d; k += 4) {
        s0 += INFER_TERM(k);
        s1 += INFER_TERM(k + 1);
        s2 += INFER_TERM(k + 2);
        s3 += INFER_TERM(k + 3);
    }
    if (k < d) s0 += INFER_TERM(k);
    if (k + 1 < d) s1 += INFER_TERM(k + 1);
    if (k + 2 < d) s2 += INFER_TERM(k + 2);
    return (s0 + s1) + (s2 + s3);
}
#undef INFER_TERM

static REAL FN(squared_distance)(const double *x, const REAL *c, size_t d) { return FN(distance)(x, c, d, 0); }

static REAL FN(l1_distance)(const double *x, const REAL *c, size_t d) { return FN(distance)(x, c, d, 1); }

static REAL FN(dot)(const double *x, const REAL *c, size_t d) {
    REAL sum = 0;
    size_t k;
    for (k = 0; k < d; ++k) sum += (REAL)x[k] * c[k];
    return sum;
}

/* The center nearest x among `count` rows of `centers` (ties: lowest index). */
static size_t FN(nearest)(const double *x, const REAL *centers, size_t first, size_t count, size_t d) {
    size_t best = first, i;
    REAL best_distance = FN(squared_distance)(x, centers + first * d, d);
    for (i = first + 1; i < first + count; ++i) {
        const REAL distance = FN(squared_distance)(x, centers + i * d, d);
        if (distance < best_distance) {
            best_distance = distance;
            best = i;
        }
    }
    return best;
}

/* Step 1: the leaf x is routed to. */
static size_t FN(route)(const kmx_infer_predictor *p, const double *x) {
    const size_t t = FN(nearest)(x, (const REAL *)p->top_centers, 0, p->top, p->d);
    const size_t begin = (size_t)p->top_leaf_begin[t];
    const size_t end = (size_t)p->top_leaf_begin[t + 1];
    size_t best = begin, l;
    REAL best_distance = FN(squared_distance)(x, (const REAL *)kmx_infer__leaf(p, begin).center, p->d);
    for (l = begin + 1; l < end; ++l) {
        const REAL distance = FN(squared_distance)(x, (const REAL *)kmx_infer__leaf(p, l).center, p->d);
        if (distance < best_distance) {
            best_distance = distance;
            best = l;
        }
    }
    return best;
}

/* base^degree by squaring (degree >= 1). */
static REAL FN(integer_power)(REAL base, int degree) {
    REAL value = 1;
    while (degree > 0) {
        if (degree & 1) value *= base;
        base *= base;
        degree >>= 1;
    }
    return value;
}

/* K(x, u); for stationary kernels *distance (when not NULL) gets ‖x − u‖
 * (L2 for RBF, L1 for Laplacian), the r_j of the triangle bounds. */
static REAL FN(kernel)(const kmx_infer_predictor *p, const double *x, const REAL *u, REAL *distance) {
    const REAL gamma = (REAL)p->gamma, coef0 = (REAL)p->coef0;
    REAL value;
    switch (p->kernel) {
        case INFER_KERNEL_RBF:
            value = FN(squared_distance)(x, u, p->d);
            if (distance) *distance = R_SQRT(value);
            return R_EXP(-gamma * value);
        case INFER_KERNEL_LAPLACIAN:
            value = FN(l1_distance)(x, u, p->d);
            if (distance) *distance = value;
            return R_EXP(-gamma * value);
        case INFER_KERNEL_POLYNOMIAL:
            return FN(integer_power)(gamma * FN(dot)(x, u, p->d) + coef0, p->degree);
        case INFER_KERNEL_LINEAR:
            return FN(dot)(x, u, p->d);
        default:
            return R_TANH(gamma * FN(dot)(x, u, p->d) + coef0);
    }
}

/* Landmark j: in place, or (quantized, float predictors only: QUANTIZED)
 * dequantized into u: center + scale·q, or (int4) codebook[16k + q_k]. */
static const REAL *FN(landmark)(const kmx_infer_predictor *p, const infer_leaf *leaf, size_t j, REAL *u) {
    const REAL *center = (const REAL *)leaf->center;
    const REAL scale = (REAL)leaf->scale;
    const int16_t *q16 = (const int16_t *)leaf->landmarks + j * p->d;
    const int8_t *q8 = (const int8_t *)leaf->landmarks + j * p->d;
    const unsigned char *q4 = (const unsigned char *)leaf->landmarks;
    const REAL *codebook = (const REAL *)leaf->codebook;
    size_t k;
    if (!QUANTIZED || p->landmark_bits == 0) return (const REAL *)leaf->landmarks + j * p->d;
    if (p->landmark_bits == 4)
        for (k = 0; k < p->d; ++k) {
            const size_t i = j * p->d + k;
            u[k] = codebook[k * KMX_BLOB_CODEBOOK_VALUES + ((q4[i / 2] >> (4 * (i % 2))) & 15u)];
        }
    else if (p->landmark_bits == 16)
        for (k = 0; k < p->d; ++k) u[k] = center[k] + scale * (REAL)q16[k];
    else
        for (k = 0; k < p->d; ++k) u[k] = center[k] + scale * (REAL)q8[k];
    return u;
}

/* Step 2: c_j = K(x, u_j), and r_j when r is not NULL; u holds d reals for a
 * dequantized landmark. */
static void FN(landmark_features)(const kmx_infer_predictor *p, const infer_leaf *leaf, const double *x, REAL *c,
                                  REAL *r, REAL *u) {
    size_t j;
    for (j = 0; j < leaf->m; ++j) c[j] = FN(kernel)(p, x, FN(landmark)(p, leaf, j, u), r ? r + j : NULL);
}

/* ρ_t's estimate from its triangle bounds over the m landmarks. */
static REAL FN(triangle_rho)(int estimate, const REAL *r, const REAL *dist_row, size_t m) {
    REAL lower = R_FABS(r[0] - dist_row[0]), upper = r[0] + dist_row[0];
    size_t j;
    for (j = 1; j < m; ++j) {
        const REAL below = R_FABS(r[j] - dist_row[j]), above = r[j] + dist_row[j];
        if (below > lower) lower = below;
        if (above < upper) upper = above;
    }
    if (estimate == INFER_TRIANGLE_LOWER) return lower;
    if (estimate == INFER_TRIANGLE_UPPER) return upper;
    return (lower + upper) / 2;
}

/* Step 3, triangles: c_tri,t = κ(ρ_t). */
static void FN(triangle_features)(const kmx_infer_predictor *p, const infer_leaf *leaf, const REAL *r, REAL *c_tri) {
    const REAL *dist = (const REAL *)leaf->triangle_dist;
    const REAL gamma = (REAL)p->gamma;
    size_t t;
    for (t = 0; t < leaf->triangle; ++t) {
        const REAL rho = FN(triangle_rho)(p->triangle_estimate, r, dist + t * leaf->m, leaf->m);
        c_tri[t] = p->kernel == INFER_KERNEL_RBF ? R_EXP(-gamma * rho * rho) : R_EXP(-gamma * rho);
    }
}

/* Step 3, products: c_prod,q = c_i c_j. */
static void FN(product_features)(const infer_leaf *leaf, const REAL *c, REAL *c_prod) {
    size_t q;
    for (q = 0; q < leaf->products; ++q) c_prod[q] = c[leaf->pairs[2 * q]] * c[leaf->pairs[2 * q + 1]];
}

/* Step 4: o_k = bias_k + Σ_f c̄_f β_{f,k}, f in order (summed in a local:
 * o in the scratch may alias, so a sum kept in o went through memory). */
static void FN(leaf_outputs)(const infer_leaf *leaf, size_t outputs, const REAL *c_bar, REAL *o) {
    const REAL *beta = (const REAL *)leaf->beta;
    const REAL *bias = (const REAL *)leaf->bias;
    const size_t features = leaf->m + leaf->triangle + leaf->products;
    size_t f, k;
    for (k = 0; k < outputs; ++k) {
        REAL sum = bias[k];
        for (f = 0; f < features; ++f) sum += c_bar[f] * beta[f * outputs + k];
        o[k] = sum;
    }
}

/* Step 5: the label from the outputs. */
static double FN(label)(const kmx_infer_predictor *p, const REAL *o, uint32_t *votes) {
    size_t best = 0, i, j, k = 0;
    if (p->task == INFER_TASK_REGRESSION) return (double)o[0];
    if (p->classes == 2) return p->class_labels[o[0] > 0 ? 1 : 0];
    if (p->multiclass == INFER_MULTICLASS_OVR) {
        for (i = 1; i < p->outputs; ++i)
            if (o[i] > o[best]) best = i;
        return p->class_labels[best];
    }
    for (i = 0; i < p->classes; ++i) votes[i] = 0;
    for (i = 0; i < p->classes; ++i)
        for (j = i + 1; j < p->classes; ++j) ++votes[o[k++] > 0 ? i : j];
    for (i = 1; i < p->classes; ++i)
        if (votes[i] > votes[best]) best = i;
    return p->class_labels[best];
}

void FN(kmx_infer__predict)(const kmx_infer_predictor *p, const double *x, double *label, double *outputs,
                            void *scratch) {
    const infer_leaf leaf = kmx_infer__leaf(p, FN(route)(p, x));
    REAL *c_bar = (REAL *)scratch;
    REAL *r = c_bar + p->max_features;
    REAL *o = r + (p->has_triangles ? p->max_landmarks : 0);
    REAL *u = o + p->outputs;
    uint32_t *votes = (uint32_t *)(void *)(u + (p->landmark_bits ? p->d : 0));
    size_t k;
    FN(landmark_features)(p, &leaf, x, c_bar, leaf.triangle > 0 ? r : NULL, u);
    FN(triangle_features)(p, &leaf, r, c_bar + leaf.m);
    FN(product_features)(&leaf, c_bar, c_bar + leaf.m + leaf.triangle);
    FN(leaf_outputs)(&leaf, p->outputs, c_bar, o);
    if (outputs)
        for (k = 0; k < p->outputs; ++k) outputs[k] = (double)o[k];
    if (label) *label = FN(label)(p, o, votes);
}
