/* outliers.c — outlier detection with kmx's one-class SVM, from C.
 *
 *   outliers [NU] [MIN_FLAGGED MIN_KEPT]
 *
 * Trains a one-class SVM (method one_class, nu NU, default 0.05; Gaussian
 * kernel, gamma 0.5) on 1000 inliers drawn from a 2-d standard normal, with
 * no labels: one-class learns from the rows alone. Then it labels 500 fresh
 * inliers from the same normal and 500 generated outliers on a ring of radius
 * 5 to 8 around them: +1 is an inlier, -1 an outlier. It prints the share of
 * outliers flagged and of inliers kept, and exits 1 when either is below
 * MIN_FLAGGED / MIN_KEPT (percent; given, the test checks them) or when more
 * than a fraction nu of the training rows lie outside (f < -0.001). */
#include <kmx/kmx.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(call)                                                                  \
    do {                                                                             \
        kmx_status status_ = (call);                                                 \
        if (status_ != KMX_OK) {                                                     \
            fprintf(stderr, "%s: %s\n", kmx_status_name(status_), kmx_last_error()); \
            exit(1);                                                                 \
        }                                                                            \
    } while (0)

/* A small fixed-seed generator (xorshift64*), so every run sees the same points. */
static unsigned long long state = 0x9E3779B97F4A7C15ULL;
static double uniform01(void) {
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return (double)((state * 2685821657736338717ULL) >> 11) * 0x1.0p-53;
}
static double normal(void) { /* Box-Muller */
    const double u = uniform01() + 0x1.0p-60, v = uniform01();
    return sqrt(-2.0 * log(u)) * cos(6.283185307179586 * v);
}

static void inliers(double *x, int n) {
    for (int i = 0; i < 2 * n; ++i) x[i] = normal();
}
static void ring(double *x, int n) {
    for (int i = 0; i < n; ++i) {
        const double r = 5.0 + 3.0 * uniform01(), angle = 6.283185307179586 * uniform01();
        x[2 * i] = r * cos(angle);
        x[2 * i + 1] = r * sin(angle);
    }
}

/* How many of the n training rows have f < -eps (outside beyond the solver's
 * KKT tolerance eps, LIBSVM's -e, default 0.001): nu bounds their share. The
 * free support vectors sit on f = 0 to within eps and fall either way. */
static int count_outside(const kmx_model *model, const double *x, int n, double eps) {
    kmx_dataset *data = NULL;
    double *f = malloc((size_t)n * sizeof *f);
    int outside = 0;
    if (!f) exit(1);
    CHECK(kmx_dataset_create(&data, x, n, 2, NULL, KMX_BORROW));
    CHECK(kmx_model_decision_values(f, n, NULL, model, data));
    for (int i = 0; i < n; ++i) outside += f[i] < -eps;
    kmx_dataset_free(data);
    free(f);
    return outside;
}

/* The labels of n rows x (2 columns) by the model: how many are +1. */
static int count_inliers(const kmx_model *model, const double *x, int n) {
    kmx_dataset *data = NULL;
    double *labels = malloc((size_t)n * sizeof *labels);
    int kept = 0;
    if (!labels) exit(1);
    CHECK(kmx_dataset_create(&data, x, n, 2, NULL, KMX_BORROW));
    CHECK(kmx_model_predict(labels, n, NULL, model, data));
    for (int i = 0; i < n; ++i) kept += labels[i] > 0;
    kmx_dataset_free(data);
    free(labels);
    return kept;
}

int main(int argc, char **argv) {
    enum { TRAIN = 1000, TEST = 500 };
    static double train[2 * TRAIN], fresh[2 * TEST], outliers[2 * TEST];
    const double nu = argc > 1 ? atof(argv[1]) : 0.05;
    kmx_dataset *data = NULL;
    kmx_solver *solver = NULL;
    kmx_kernel *kernel = NULL;
    kmx_model *model = NULL;
    double support_vectors = 0;
    if (argc != 1 && argc != 2 && argc != 4) {
        fprintf(stderr, "usage: %s [NU] [MIN_FLAGGED MIN_KEPT]\n", argv[0]);
        return 2;
    }
    inliers(train, TRAIN);
    inliers(fresh, TEST);
    ring(outliers, TEST);

    CHECK(kmx_dataset_create(&data, train, TRAIN, 2, NULL, KMX_BORROW)); /* no labels */
    CHECK(kmx_solver_create(&solver, KMX_METHOD_ONE_CLASS));
    CHECK(kmx_solver_set_param(solver, KMX_PARAM_NU, nu));
    CHECK(kmx_kernel_create(&kernel, KMX_KERNEL_RBF));
    CHECK(kmx_kernel_set_param(kernel, KMX_PARAM_GAMMA, 0.5));
    CHECK(kmx_solver_train(&model, NULL, solver, kernel, data));
    CHECK(kmx_model_info(&support_vectors, model, KMX_INFO_SUPPORT_VECTORS));

    const int outside = count_outside(model, train, TRAIN, 1e-3);
    const int kept = count_inliers(model, fresh, TEST);
    const int flagged = TEST - count_inliers(model, outliers, TEST);
    printf("one-class SVM: nu %g, %d training rows, %g support vectors\n", nu, TRAIN, support_vectors);
    printf("training rows outside (f < -0.001): %.1f%% (nu bounds it: at most %.1f%%)\n", 100.0 * outside / TRAIN,
           100.0 * nu);
    printf("outliers flagged: %d of %d (%.1f%%)\n", flagged, TEST, 100.0 * flagged / TEST);
    printf("inliers kept:     %d of %d (%.1f%%)\n", kept, TEST, 100.0 * kept / TEST);

    kmx_model_free(model);
    kmx_kernel_free(kernel);
    kmx_solver_free(solver);
    kmx_dataset_free(data);
    if (outside > nu * TRAIN) {
        fprintf(stderr, "more than nu of the training rows are outside\n");
        return 1;
    }
    if (argc == 4 && (100.0 * flagged / TEST < atof(argv[2]) || 100.0 * kept / TEST < atof(argv[3]))) {
        fprintf(stderr, "below the floor: flagged %.1f%% (floor %s%%), kept %.1f%% (floor %s%%)\n",
                100.0 * flagged / TEST, argv[2], 100.0 * kept / TEST, argv[3]);
        return 1;
    }
    return 0;
}
