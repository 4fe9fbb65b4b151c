/* quickstart.c — kmx from C: load data, evaluate a kernel block, cluster.
 *
 *   quickstart DATA_FILE [K]
 *
 * Loads a LIBSVM or CSV file, times a Gaussian kernel block over its first
 * rows, runs k-means (k-means++ seeding, fixed seed), and reports the
 * clustering's purity against the file's labels. */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include <kmx/kmx.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define CHECK(call)                                                                  \
    do {                                                                             \
        kmx_status status_ = (call);                                                 \
        if (status_ != KMX_OK) {                                                     \
            fprintf(stderr, "%s: %s\n", kmx_status_name(status_), kmx_last_error()); \
            exit(1);                                                                 \
        }                                                                            \
    } while (0)

static double seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Fraction of points whose label is the most common label of their cluster.
 * classes: the c distinct label values, sorted (from kmx_dataset_classes). */
static double purity(const int32_t *assignment, const double *labels, int64_t n, int64_t k, const double *classes,
                     int64_t c) {
    int64_t *counts = calloc((size_t)(k * c), sizeof(int64_t)), agree = 0, i, j;
    for (i = 0; i < n; ++i) {
        int64_t lo = 0, hi = c - 1; /* binary search of labels[i] among classes */
        while (lo < hi) {
            int64_t mid = (lo + hi) / 2;
            if (classes[mid] < labels[i])
                lo = mid + 1;
            else
                hi = mid;
        }
        ++counts[assignment[i] * c + lo];
    }
    for (i = 0; i < k; ++i) {
        int64_t best = 0;
        for (j = 0; j < c; ++j)
            if (counts[i * c + j] > best) best = counts[i * c + j];
        agree += best;
    }
    free(counts);
    return (double)agree / (double)n;
}

int main(int argc, char **argv) {
    kmx_context *ctx = NULL;
    kmx_dataset *data = NULL;
    kmx_kernel *kernel = NULL;
    int64_t n = 0, d = 0, k = argc > 2 ? atoll(argv[2]) : 26, rows, n_classes = 0, *class_counts;
    double *block, *centers, *labels, *classes, objective = 0, start;
    int32_t *assignment;

    if (argc < 2) {
        fprintf(stderr, "usage: %s DATA_FILE [K]\n", argv[0]);
        return 2;
    }
    printf("kmx %s\n", kmx_version());
    CHECK(kmx_context_create(&ctx));
    CHECK(kmx_context_set_params(ctx, "threads=1 seed=42"));
    CHECK(kmx_dataset_load(&data, ctx, argv[1], KMX_FORMAT_AUTO));
    CHECK(kmx_dataset_rows(&n, data));
    CHECK(kmx_dataset_cols(&d, data));
    printf("data      %s: %lld rows x %lld columns\n", argv[1], (long long)n, (long long)d);

    /* A Gaussian kernel block K(X[0:rows], X[0:rows]). */
    rows = n < 2048 ? n : 2048;
    CHECK(kmx_kernel_create_from_string(&kernel, "kernel=rbf gamma=2"));
    block = malloc(sizeof(double) * (size_t)(rows * rows));
    start = seconds();
    CHECK(kmx_kernel_block_rows(block, rows * rows, ctx, kernel, data, 0, rows, data, 0, rows));
    printf("kernel    rbf gamma=2 block %lld x %lld in %.4f s; K(x0,x1) = %.6f\n", (long long)rows, (long long)rows,
           seconds() - start, block[1]);

    /* k-means with k-means++ seeding. */
    centers = malloc(sizeof(double) * (size_t)(k * d));
    assignment = malloc(sizeof(int32_t) * (size_t)n);
    labels = malloc(sizeof(double) * (size_t)n);
    start = seconds();
    CHECK(kmx_kmeans(centers, k * d, assignment, n, &objective, ctx, data, k, "max_iter=100"));
    printf("k-means   k=%lld in %.3f s: objective %.6g\n", (long long)k, seconds() - start, objective);
    CHECK(kmx_dataset_get_labels(labels, n, data));
    CHECK(kmx_dataset_classes(&n_classes, NULL, NULL, 0, data));
    classes = malloc(sizeof(double) * (size_t)n_classes);
    class_counts = malloc(sizeof(int64_t) * (size_t)n_classes);
    CHECK(kmx_dataset_classes(&n_classes, classes, class_counts, n_classes, data));
    printf("purity    %.4f of rows share their cluster's majority label (%lld classes)\n",
           purity(assignment, labels, n, k, classes, n_classes), (long long)n_classes);

    free(class_counts);
    free(classes);

    free(labels);
    free(assignment);
    free(centers);
    free(block);
    kmx_kernel_free(kernel);
    kmx_dataset_free(data);
    kmx_context_free(ctx);
    return 0;
}
