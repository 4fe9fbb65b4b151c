/* mpi_falkon.c — kmx across MPI ranks through <kmx/kmx_mpi.h>, run by
 * tests/mpi/test_mpi.py under mpirun with 1 to 4 ranks.
 *
 *   mpi_falkon check DATA DATA3    every rank gets the same bits from a sum;
 *                                  FALKON on each rank's shard equals FALKON
 *                                  on the whole file in one process (DATA as
 *                                  classification and regression, DATA3's
 *                                  classes)
 *   mpi_falkon budget DATA         rank 1 over its budget: all ranks fail alike
 *   mpi_falkon compare A B DATA [TOL]  (no mpirun) two model files agree
 *                                  (decision values within TOL, default 1e-8)
 *
 * Prints "OK ..." and exits 0, or prints what differs and exits 1. */
#include <kmx/kmx_mpi.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank = 0, size = 1;
static MPI_Comm world;

#define CHECK(call)                                                                     \
    do {                                                                                \
        kmx_status status_ = (call);                                                    \
        if (status_ != KMX_OK) {                                                        \
            fprintf(stderr, "rank %d: %s failed: %s\n", rank, #call, kmx_last_error()); \
            return 1;                                                                   \
        }                                                                               \
    } while (0)

/* 1 unless every rank holds the same `count` doubles. */
static int differs_across_ranks(const double *values, int count) {
    double *first = malloc(sizeof(double) * (size_t)count);
    memcpy(first, values, sizeof(double) * (size_t)count);
    MPI_Bcast(first, count, MPI_DOUBLE, 0, world);
    int differs = memcmp(first, values, sizeof(double) * (size_t)count) != 0;
    MPI_Allreduce(MPI_IN_PLACE, &differs, 1, MPI_INT, MPI_MAX, world);
    free(first);
    return differs;
}

/* Values whose sum depends on the order they are added in. */
static int test_sum(void) {
    kmx_communicator comm;
    if (kmx_mpi_communicator(&comm, &world) != 0 || comm.rank != rank || comm.size != size) return 1;
    enum { kCount = 1000 };
    double values[kCount];
    for (int i = 0; i < kCount; ++i) values[i] = (rank + 1) * 0.1 + pow(10.0, (i % 32) - 16) * (rank % 2 ? -1 : 1);
    if (comm.allreduce_sum(comm.user, values, kCount) != 0) return 1;
    double expected = 0;
    for (int r = 0; r < size; ++r) expected += (r + 1) * 0.1 + pow(10.0, -16) * (r % 2 ? -1 : 1);
    if (fabs(values[0] - expected) > 1e-12) {
        fprintf(stderr, "rank %d: sum %.17g, expected %.17g\n", rank, values[0], expected);
        return 1;
    }
    if (differs_across_ranks(values, kCount)) {
        fprintf(stderr, "rank %d: the ranks got different bits from one sum\n", rank);
        return 1;
    }
    double top = rank;
    if (comm.allreduce_max(comm.user, &top, 1) != 0 || top != size - 1) return 1;
    char text[16] = "";
    if (rank == size - 1) strcpy(text, "from the last");
    if (comm.broadcast(comm.user, text, sizeof text, size - 1) != 0 || strcmp(text, "from the last") != 0) return 1;
    if (rank == 0) printf("OK sum: %d ranks hold the same bits\n", size);
    return 0;
}

static kmx_solver *falkon_solver(const char *task) {
    char params[200];
    snprintf(params, sizeof params, "method=falkon lambda=1e-4 centers=200 iterations=30 task=%s", task);
    kmx_solver *solver = NULL;
    if (kmx_solver_create_from_string(&solver, params) != KMX_OK) return NULL;
    return solver;
}

static int train(kmx_model **out, kmx_context *ctx, const kmx_dataset *data, const char *task) {
    kmx_solver *solver = falkon_solver(task);
    kmx_kernel *kernel = NULL;
    CHECK(kmx_kernel_create(&kernel, KMX_KERNEL_RBF));
    CHECK(kmx_kernel_set_param(kernel, KMX_PARAM_GAMMA, 0.02));
    kmx_status status = solver ? kmx_solver_train(out, ctx, solver, kernel, data) : KMX_E_INVALID_ARGUMENT;
    kmx_kernel_free(kernel);
    kmx_solver_free(solver);
    CHECK(status);
    return 0;
}

/* Largest |a - b| over largest |b|, and how many labels differ. */
static int compare(const kmx_model *a, const kmx_model *b, kmx_context *ctx, const kmx_dataset *data, double *relative,
                   int64_t *label_changes) {
    int64_t n = 0;
    double outputs = 0;
    CHECK(kmx_dataset_rows(&n, data));
    CHECK(kmx_model_info(&outputs, b, KMX_INFO_DECISION_VALUES));
    const int64_t count = n * (int64_t)outputs;
    double *va = malloc(sizeof(double) * (size_t)count), *vb = malloc(sizeof(double) * (size_t)count);
    double *la = malloc(sizeof(double) * (size_t)n), *lb = malloc(sizeof(double) * (size_t)n);
    CHECK(kmx_model_decision_values(va, count, ctx, a, data));
    CHECK(kmx_model_decision_values(vb, count, ctx, b, data));
    CHECK(kmx_model_predict(la, n, ctx, a, data));
    CHECK(kmx_model_predict(lb, n, ctx, b, data));
    double diff = 0, scale = 0;
    for (int64_t i = 0; i < count; ++i) {
        diff = fmax(diff, fabs(va[i] - vb[i]));
        scale = fmax(scale, fabs(vb[i]));
    }
    double task = 0;
    CHECK(kmx_model_info(&task, b, KMX_INFO_TASK));
    *label_changes = 0; /* a regression's "labels" are its decision values */
    for (int64_t i = 0; i < n && task == KMX_TASK_CLASSIFICATION; ++i) *label_changes += la[i] != lb[i];
    *relative = diff / scale;
    free(va);
    free(vb);
    free(la);
    free(lb);
    return 0;
}

/* Whether every rank's model gives the same bits on data (the model files
 * differ: each holds its own training time). */
static int same_model_on_every_rank(const kmx_model *model, kmx_context *ctx, const kmx_dataset *data) {
    int64_t n = 0;
    double outputs = 0;
    if (kmx_dataset_rows(&n, data) != KMX_OK || kmx_model_info(&outputs, model, KMX_INFO_DECISION_VALUES) != KMX_OK)
        return 0;
    const int count = (int)(n * (int64_t)outputs);
    double *values = malloc(sizeof(double) * (size_t)count);
    if (kmx_model_decision_values(values, count, ctx, model, data) != KMX_OK) return 0;
    const int same = !differs_across_ranks(values, count);
    free(values);
    return same;
}

static int test_train(const char *path, const char *task) {
    kmx_context *alone = NULL, *ranks = NULL;
    CHECK(kmx_context_create(&alone));
    CHECK(kmx_context_set_params(alone, "threads=1"));
    CHECK(kmx_context_create(&ranks));
    CHECK(kmx_context_set_params(ranks, "threads=1"));
    CHECK(kmx_mpi_attach(ranks, &world));
    kmx_dataset *whole = NULL, *shard = NULL;
    CHECK(kmx_dataset_load(&whole, alone, path, KMX_FORMAT_AUTO));
    CHECK(kmx_dataset_load_shard(&shard, ranks, path, KMX_FORMAT_AUTO, rank, size));
    kmx_model *reference = NULL, *distributed = NULL;
    if (train(&reference, alone, whole, task) || train(&distributed, ranks, shard, task)) return 1;
    double relative = 0;
    int64_t label_changes = 0;
    if (compare(distributed, reference, alone, whole, &relative, &label_changes)) return 1;
    const int same = same_model_on_every_rank(distributed, alone, whole);
    int64_t rows = 0, total = 0;
    CHECK(kmx_dataset_rows(&rows, shard));
    MPI_Allreduce(&rows, &total, 1, MPI_INT64_T, MPI_SUM, world);
    int64_t whole_rows = 0;
    CHECK(kmx_dataset_rows(&whole_rows, whole));
    const int ok = relative <= 1e-8 && label_changes == 0 && same && total == whole_rows;
    if (rank == 0)
        printf(
            "%s train %s (%s) on %d ranks: decision values within %.3g relative, %lld labels differ, %s model on "
            "every rank, %lld of %lld rows\n",
            ok ? "OK" : "FAILED", strrchr(path, '/') ? strrchr(path, '/') + 1 : path, task, size, relative,
            (long long)label_changes, same ? "the same" : "NOT the same", (long long)total, (long long)whole_rows);
    kmx_model_free(reference);
    kmx_model_free(distributed);
    kmx_dataset_free(whole);
    kmx_dataset_free(shard);
    kmx_context_free(alone);
    kmx_context_free(ranks);
    return ok ? 0 : 1;
}

/* Rank 1 (of >= 2) gets a budget its FALKON workspace cannot fit: every rank
 * must fail with KMX_E_OUT_OF_MEMORY and rank 1's message. */
static int test_budget(const char *path) {
    kmx_context *ranks = NULL;
    CHECK(kmx_context_create(&ranks));
    CHECK(kmx_context_set_params(ranks, "threads=1"));
    CHECK(kmx_mpi_attach(ranks, &world));
    kmx_dataset *shard = NULL;
    CHECK(kmx_dataset_load_shard(&shard, ranks, path, KMX_FORMAT_AUTO, rank, size));
    if (rank == 1) CHECK(kmx_context_set_params(ranks, "memory_budget=100000"));
    kmx_model *model = NULL;
    kmx_solver *solver = falkon_solver("auto");
    kmx_kernel *kernel = NULL;
    CHECK(kmx_kernel_create(&kernel, KMX_KERNEL_RBF));
    const kmx_status status = kmx_solver_train(&model, ranks, solver, kernel, shard);
    const int ok = status == KMX_E_OUT_OF_MEMORY && strstr(kmx_last_error(), "rank 1: ") != NULL;
    printf("%s budget: rank %d got %s: %s\n", ok ? "OK" : "FAILED", rank, kmx_status_name(status), kmx_last_error());
    kmx_kernel_free(kernel);
    kmx_solver_free(solver);
    kmx_dataset_free(shard);
    kmx_context_free(ranks);
    return ok ? 0 : 1;
}

static int test_compare(const char *path_a, const char *path_b, const char *data_path, double tolerance) {
    kmx_model *a = NULL, *b = NULL;
    kmx_dataset *data = NULL;
    CHECK(kmx_model_load(&a, path_a));
    CHECK(kmx_model_load(&b, path_b));
    CHECK(kmx_dataset_load(&data, NULL, data_path, KMX_FORMAT_AUTO));
    double relative = 0;
    int64_t label_changes = 0;
    if (compare(a, b, NULL, data, &relative, &label_changes)) return 1;
    const int ok = relative <= tolerance && label_changes == 0;
    printf("%s compare: decision values within %.3g relative, %lld labels differ\n", ok ? "OK" : "FAILED", relative,
           (long long)label_changes);
    kmx_model_free(a);
    kmx_model_free(b);
    kmx_dataset_free(data);
    return ok ? 0 : 1;
}

int main(int argc, char **argv) {
    if ((argc == 5 || argc == 6) && strcmp(argv[1], "compare") == 0)
        return test_compare(argv[2], argv[3], argv[4], argc == 6 ? atof(argv[5]) : 1e-8);
    MPI_Init(&argc, &argv);
    world = MPI_COMM_WORLD;
    MPI_Comm_rank(world, &rank);
    MPI_Comm_size(world, &size);
    int failed = 1;
    if (argc == 4 && strcmp(argv[1], "check") == 0)
        failed = test_sum() || test_train(argv[2], "auto") || test_train(argv[2], "regression") ||
                 test_train(argv[3], "auto");
    if (argc == 3 && strcmp(argv[1], "budget") == 0) failed = test_budget(argv[2]);
    MPI_Finalize();
    return failed;
}
