/* scenario.c — the shared scenario in C (see README.md); its output is the
 * reference every language binding's scenario test compares with.
 *   scenario DATA_FILE REGRESSION_FILE OUT_FILE */
#include <kmx/kmx.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(call)                                              \
    do {                                                         \
        if ((call) != KMX_OK) {                                  \
            fprintf(stderr, "scenario: %s\n", kmx_last_error()); \
            exit(1);                                             \
        }                                                        \
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

/* Step 7: a compact predictor from step 6's model and training rows, its
 * predictions and decision values, blob size and a blob round trip. */
static void predictor_step(FILE *out, kmx_context *ctx, const kmx_model *model, const kmx_dataset *train,
                           const kmx_dataset *test, const kmx_dataset *first) {
    enum { TEST = 500, FIRST = 20 };
    kmx_predictor *predictor = NULL, *reloaded = NULL;
    double predictions[TEST], reloaded_predictions[TEST], bytes = 0, outputs = 0;
    double *decision;
    int64_t size = 0, values;
    void *blob;

    CHECK(kmx_predictor_build(&predictor, ctx, model, train, "leaves=4 landmarks=16 pseudo=32"));
    CHECK(kmx_predictor_info(&outputs, predictor, KMX_PREDICTOR_OUTPUTS));
    values = FIRST * (int64_t)outputs;
    decision = malloc(sizeof(double) * (size_t)values);
    CHECK(kmx_predictor_predict(predictions, TEST, ctx, predictor, test));
    CHECK(kmx_predictor_decision_values(decision, values, ctx, predictor, first));
    CHECK(kmx_predictor_save_to_buffer(NULL, 0, &size, predictor));
    blob = malloc((size_t)size);
    CHECK(kmx_predictor_save_to_buffer(blob, size, &size, predictor));
    bytes = (double)size;
    CHECK(kmx_predictor_load_from_buffer(&reloaded, blob, size));
    CHECK(kmx_predictor_predict(reloaded_predictions, TEST, ctx, reloaded, test));

    write_doubles(out, "predictor_predictions", predictions, TEST);
    write_doubles(out, "predictor_decision_values", decision, values);
    write_doubles(out, "predictor_bytes", &bytes, 1);
    write_doubles(out, "predictor_reloaded_predictions", reloaded_predictions, TEST);

    free(blob);
    free(decision);
    kmx_predictor_free(reloaded);
    kmx_predictor_free(predictor);
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
    CHECK(kmx_solver_train(&model, ctx, solver, kernel, train));
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
    predictor_step(out, ctx, model, train, test, first);

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

/* Step 8: a MEKA approximation of the step-2 kernel's matrix over rows
 * [0,1000), its rank, bytes, exact relative error, G~ v and (G~ + 0.1 I)^-1 v
 * for v_i = (i mod 7) - 3. */
static void approx_step(FILE *out, kmx_context *ctx, const kmx_kernel *kernel, const kmx_dataset *data, int64_t d) {
    enum { N = 1000 };
    kmx_dataset *rows = rows_of(data, 0, N, d);
    kmx_approx *approx = NULL;
    double v[N], product[N], solution[N], rank_value, bytes_value, error = 0;
    int64_t rank = 0, bytes = 0, n = 0, i;

    for (i = 0; i < N; ++i) v[i] = (double)(i % 7) - 3;
    CHECK(kmx_approx_create(&approx, ctx, kernel, rows, "approx=meka rank=16 clusters=4"));
    CHECK(kmx_approx_rows(&n, approx));
    if (n != N) {
        fprintf(stderr, "scenario: the approximation has %lld rows\n", (long long)n);
        exit(1);
    }
    CHECK(kmx_approx_rank(&rank, approx));
    CHECK(kmx_approx_memory_bytes(&bytes, approx));
    CHECK(kmx_approx_relative_error(&error, ctx, approx, rows, N));
    CHECK(kmx_approx_matvec(product, N, ctx, approx, v, N));
    CHECK(kmx_approx_solve(solution, N, ctx, approx, 0.1, v, N));
    rank_value = (double)rank;
    bytes_value = (double)bytes;

    write_doubles(out, "approx_rank", &rank_value, 1);
    write_doubles(out, "approx_memory_bytes", &bytes_value, 1);
    write_doubles(out, "approx_relative_error", &error, 1);
    write_doubles(out, "approx_matvec", product, N);
    write_doubles(out, "approx_solve", solution, N);

    kmx_approx_free(approx);
    kmx_dataset_free(rows);
}

/* Step 9: FALKON regression on rows [0,80) of the regression file,
 * predictions on rows [80,106), the model's task and lambda. */
static void krr_step(FILE *out, kmx_context *ctx, const char *path) {
    enum { TRAIN = 80, ALL = 106 };
    kmx_dataset *data = NULL, *train, *test;
    kmx_solver *solver = NULL;
    kmx_kernel *kernel = NULL;
    kmx_model *model = NULL;
    double predictions[ALL - TRAIN], task = 0, lambda = 0;
    int64_t n = 0, d = 0;

    CHECK(kmx_dataset_load(&data, ctx, path, KMX_FORMAT_AUTO));
    CHECK(kmx_dataset_rows(&n, data));
    CHECK(kmx_dataset_cols(&d, data));
    if (n != ALL) {
        fprintf(stderr, "scenario: %s has %lld rows, not %d\n", path, (long long)n, ALL);
        exit(1);
    }
    train = rows_of(data, 0, TRAIN, d);
    test = rows_of(data, TRAIN, ALL, d);
    CHECK(kmx_solver_create_from_string(&solver, "method=falkon lambda=1e-4 centers=40 iterations=30"));
    CHECK(kmx_kernel_create_from_string(&kernel, "kernel=rbf gamma=1"));
    CHECK(kmx_solver_train(&model, ctx, solver, kernel, train));
    CHECK(kmx_model_predict(predictions, ALL - TRAIN, ctx, model, test));
    CHECK(kmx_model_info(&task, model, KMX_INFO_TASK));
    CHECK(kmx_model_info(&lambda, model, KMX_INFO_LAMBDA));

    write_doubles(out, "krr_predictions", predictions, ALL - TRAIN);
    write_doubles(out, "krr_task", &task, 1);
    write_doubles(out, "krr_lambda", &lambda, 1);

    kmx_model_free(model);
    kmx_kernel_free(kernel);
    kmx_solver_free(solver);
    kmx_dataset_free(test);
    kmx_dataset_free(train);
    kmx_dataset_free(data);
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

    if (argc != 4) {
        fprintf(stderr, "usage: scenario DATA_FILE REGRESSION_FILE OUT_FILE\n");
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

    out = fopen(argv[3], "w");
    if (!out) {
        perror(argv[3]);
        return 1;
    }
    write_doubles(out, "kernel_block", block, 80);
    write_doubles(out, "kernel_block_dense", dense_block, 12);
    write_doubles(out, "kmeans_objective", &objective, 1);
    write_doubles(out, "kmeans_centers", centers, K * d);
    write_ints(out, "kmeans_assignment", assignment, n);
    write_doubles(out, "assign_sqdist_sum", &sqdist_sum, 1);
    model_step(out, ctx, data, d);
    approx_step(out, ctx, kernel, data, d);
    krr_step(out, ctx, argv[2]);
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
