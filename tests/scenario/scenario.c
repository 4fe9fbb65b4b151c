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

/* A dataset copied from rows [begin, end) of data, with their labels. */
static kmx_dataset *rows_of(const kmx_dataset *data, int64_t begin, int64_t end, int64_t d) {
    int64_t n = 0, count = end - begin;
    double *x = malloc(sizeof(double) * (size_t)(count * d)), *labels;
    kmx_dataset *subset = NULL;
    CHECK(kmx_dataset_rows(&n, data));
    labels = malloc(sizeof(double) * (size_t)n);
    CHECK(kmx_dataset_get_rows(x, count * d, data, begin, end));
    CHECK(kmx_dataset_get_labels(labels, n, data));
    CHECK(kmx_dataset_create(&subset, x, count, d, labels + begin, KMX_COPY));
    free(labels);
    free(x);
    return subset;
}

/* Step 6: DC-SVM on rows [0,2000), predictions on rows [2000,2500), and a save/load round trip. */
static void model_step(FILE *out, kmx_context *ctx, const kmx_dataset *data, int64_t d) {
    enum { TEST = 500, FIRST = 20, PAIRS = 26 * 25 / 2 };
    kmx_dataset *train = rows_of(data, 0, 2000, d), *test = rows_of(data, 2000, 2000 + TEST, d),
                *first = rows_of(data, 2000, 2000 + FIRST, d);
    kmx_solver *solver = NULL;
    kmx_kernel *kernel = NULL;
    kmx_model *model = NULL, *reloaded = NULL;
    double predictions[TEST], reloaded_predictions[TEST], sv = 0, objective = 0;
    double *decision = malloc(sizeof(double) * FIRST * PAIRS);
    int64_t size = 0;
    void *buffer;

    CHECK(kmx_solver_create_from_string(&solver, "method=dcsvm C=8 levels=2 clusters_per_level=4 sample_size=300"));
    CHECK(kmx_kernel_create_from_string(&kernel, "kernel=rbf gamma=16"));
    CHECK(kmx_solver_train(&model, solver, ctx, kernel, train));
    CHECK(kmx_model_predict(predictions, TEST, ctx, model, test));
    CHECK(kmx_model_decision_values(decision, FIRST * PAIRS, ctx, model, first));
    CHECK(kmx_model_info(&sv, model, KMX_INFO_SUPPORT_VECTORS));
    CHECK(kmx_model_info(&objective, model, KMX_INFO_OBJECTIVE));
    CHECK(kmx_model_save_to_buffer(NULL, 0, &size, model));
    buffer = malloc((size_t)size);
    CHECK(kmx_model_save_to_buffer(buffer, size, &size, model));
    CHECK(kmx_model_load_from_buffer(&reloaded, buffer, size));
    CHECK(kmx_model_predict(reloaded_predictions, TEST, ctx, reloaded, test));

    write_doubles(out, "model_predictions", predictions, TEST);
    write_doubles(out, "model_decision_values", decision, FIRST * PAIRS);
    write_doubles(out, "model_support_vectors", &sv, 1);
    write_doubles(out, "model_objective", &objective, 1);
    write_doubles(out, "model_reloaded_predictions", reloaded_predictions, TEST);

    free(buffer);
    free(decision);
    kmx_model_free(reloaded);
    kmx_model_free(model);
    kmx_kernel_free(kernel);
    kmx_solver_free(solver);
    kmx_dataset_free(first);
    kmx_dataset_free(test);
    kmx_dataset_free(train);
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
    model_step(out, ctx, data, d);
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
