/* scenario.c — the shared scenario in C (see README.md); its output is the
 * reference every language binding's scenario test compares with.
 *   scenario DATA_FILE OUT_FILE */
#include <kmx/kmx.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(call)                                                                  \
    do {                                                                             \
        if ((call) != KMX_OK) {                                                      \
            fprintf(stderr, "scenario: %s\n", kmx_last_error());                     \
            exit(1);                                                                 \
        }                                                                            \
    } while (0)

static void write_doubles(FILE *out, const char *name, const double *v, int64_t count) {
    int64_t i;
    fprintf(out, "%s %lld", name, (long long)count);
    for (i = 0; i < count; ++i) fprintf(out, " %.17g", v[i]);
    fputc('\n', out);
}

static void write_ints(FILE *out, const char *name, const int32_t *v, int64_t count) {
    int64_t i;
    fprintf(out, "%s %lld", name, (long long)count);
    for (i = 0; i < count; ++i) fprintf(out, " %d", (int)v[i]);
    fputc('\n', out);
}

int main(int argc, char **argv) {
    enum { K = 26 };
    kmx_context *ctx = NULL;
    kmx_dataset *data = NULL;
    kmx_kernel *kernel = NULL;
    int64_t n = 0, d = 0, i;
    double block[80], dense_a[3 * 16], dense_b[4 * 16], dense_block[12], objective = 0, sqdist_sum = 0;
    double *centers, *sqdist;
    int32_t *assignment, *assigned;
    FILE *out;

    if (argc != 3) {
        fprintf(stderr, "usage: scenario DATA_FILE OUT_FILE\n");
        return 2;
    }
    CHECK(kmx_context_create(&ctx));
    CHECK(kmx_context_set_params(ctx, "threads=1 seed=42"));
    CHECK(kmx_dataset_load(&data, ctx, argv[1], KMX_FORMAT_AUTO));
    CHECK(kmx_dataset_rows(&n, data));
    CHECK(kmx_dataset_cols(&d, data));
    CHECK(kmx_kernel_create_from_string(&kernel, "kernel=rbf gamma=0.5"));
    CHECK(kmx_kernel_block_rows(block, 80, ctx, kernel, data, 0, 10, data, 0, 8));
    CHECK(kmx_dataset_get_rows(dense_a, 3 * d, data, 0, 3));
    CHECK(kmx_dataset_get_rows(dense_b, 4 * d, data, 3, 7));
    CHECK(kmx_kernel_block(dense_block, 12, ctx, kernel, dense_a, 3, dense_b, 4, d));

    centers = malloc(sizeof(double) * (size_t)(K * d));
    sqdist = malloc(sizeof(double) * (size_t)n);
    assignment = malloc(sizeof(int32_t) * (size_t)n);
    assigned = malloc(sizeof(int32_t) * (size_t)n);
    CHECK(kmx_kmeans(centers, K * d, assignment, n, &objective, ctx, data, K, "max_iter=50"));
    CHECK(kmx_kmeans_assign(assigned, n, sqdist, n, ctx, data, centers, K));
    for (i = 0; i < n; ++i) sqdist_sum += sqdist[i];

    out = fopen(argv[2], "w");
    if (!out) {
        perror(argv[2]);
        return 1;
    }
    write_doubles(out, "kernel_block", block, 80);
    write_doubles(out, "kernel_block_dense", dense_block, 12);
    write_doubles(out, "kmeans_objective", &objective, 1);
    write_doubles(out, "kmeans_centers", centers, K * d);
    write_ints(out, "kmeans_assignment", assignment, n);
    write_doubles(out, "assign_sqdist_sum", &sqdist_sum, 1);
    fclose(out);

    free(assigned);
    free(assignment);
    free(sqdist);
    free(centers);
    kmx_kernel_free(kernel);
    kmx_dataset_free(data);
    kmx_context_free(ctx);
    return 0;
}
