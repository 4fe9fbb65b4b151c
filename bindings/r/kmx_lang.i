/* kmx_lang.i — the R side of bindings/kmx.i (SWIG -r).
 *
 * What the typemaps below give the R layer (pkg/R/*.R), which calls the
 * generated functions, all renamed C_kmx_*:
 *  - Every kmx_status is checked: a failure signals an R condition of class
 *    c("kmx_error", "error", "condition") with the status name in $status and
 *    kmx_last_error() in $message. Success returns the outputs instead of the
 *    status: nothing (NULL), the one output, or a list of several in the C
 *    argument order.
 *  - Handles are external pointers tagged with their type ("kmx_context", ...)
 *    and a finalizer; out-parameter handles (T **out) become return values.
 *    kmx_r_free() frees a handle early and leaves a NULL pointer behind, which
 *    the C library then reports ("ctx is NULL") if the handle is used again.
 *  - Input arrays are the R double vectors themselves (REAL(), no copy); the R
 *    layer passes doubles, already row-major. Output arrays are R vectors
 *    allocated here at the length the R layer passes and filled in place.
 *    Scalar outputs become R scalars; int64_t values travel as doubles.
 *  - Raw vectors carry a model's or predictor's saved form: kmx_model_save_to_buffer
 *    (and kmx_predictor_save_to_buffer) takes
 *    the length to allocate (0 passes NULL, a size query) and returns
 *    list(raw vector, size); kmx_model_load_from_buffer reads a raw vector in
 *    place (RAW(), no copy).
 *  - The log and progress callbacks take an R function (or NULL): a C
 *    trampoline calls it with R_tryEval. The function stays preserved
 *    (R_PreserveObject) while it is set, and is released when it is replaced
 *    or when the context is freed.
 *  - kmx_kernel_create_callback takes an R function(a, b) (the R layer's
 *    wrapper in kernel.R, which catches the user's errors and returns their
 *    message), called through kmx_r_kernel_trampoline with R_tryEval. R is
 *    single-threaded: every call that may run it (a callback kernel, or a
 *    model trained with one) runs with threads = 1 (KMX_R_ON_R_THREAD), and
 *    the trampoline refuses to touch R from any thread but R's own. The
 *    function is kept in the kernel's external pointer, and in its models'
 *    (kmx_r_keep), for as long as C may call it.
 *  - kmx_context_set_communicator takes list(context handle, communicator or
 *    NULL), the communicator being the R layer's list(rank, size, sum, max,
 *    broadcast) of wrappers (context.R) that catch the user's errors and
 *    return their message. Its trampolines run them with R_tryEval on R's
 *    thread alone (kmx calls a communicator from the thread that made the
 *    call; any other is refused); the list is kept as the context's handlers
 *    are. A function that fails fails the call (KMX_E_IO) and the R functions
 *    are not run again during it; its message is added to the kmx_error's. */

/* kmx_foo -> C_kmx_foo: the idiomatic R functions keep the kmx_ names. */
%rename("%(regex:/^(kmx_.*)$/C_\\1/)s", %$isfunction) "";

/* Freed through kmx_r_free (below), which also clears the R handle. */
%ignore kmx_context_free;
%ignore kmx_dataset_free;
%ignore kmx_kernel_free;
%ignore kmx_solver_free;
%ignore kmx_model_free;
%ignore kmx_approx_free;
%ignore kmx_predictor_free;

%{
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <Rinternals.h>

/* What the communicator's R function that failed during the running call
 * said ("" if none did); R's thread only. */
static char kmx_r_comm_error[400];

/* Signals the kmx_error condition for a failed call; does not return. */
static void kmx_r_raise(kmx_status status) {
    static const char *const fields[] = {"message", "call", "status"};
    static const char *const classes[] = {"kmx_error", "error", "condition"};
    char message[912];
    SEXP condition, names, class_names;
    int i;
    /* Copied first: an allocation below may run finalizers that call kmx. */
    if (status == KMX_E_IO && kmx_r_comm_error[0])
        snprintf(message, sizeof message, "%s: %s", kmx_last_error(), kmx_r_comm_error);
    else
        snprintf(message, sizeof message, "%s", kmx_last_error());
    kmx_r_comm_error[0] = '\0';
    condition = Rf_protect(Rf_allocVector(VECSXP, 3));
    names = Rf_protect(Rf_allocVector(STRSXP, 3));
    class_names = Rf_protect(Rf_allocVector(STRSXP, 3));
    for (i = 0; i < 3; ++i) {
        SET_STRING_ELT(names, i, Rf_mkChar(fields[i]));
        SET_STRING_ELT(class_names, i, Rf_mkChar(classes[i]));
    }
    SET_VECTOR_ELT(condition, 0, Rf_mkString(message));
    SET_VECTOR_ELT(condition, 2, Rf_mkString(kmx_status_name(status)));
    Rf_setAttrib(condition, R_NamesSymbol, names);
    Rf_setAttrib(condition, R_ClassSymbol, class_names);
    Rf_eval(Rf_protect(Rf_lang2(Rf_install("stop"), condition)), R_BaseEnv);
    Rf_unprotect(4); /* not reached: stop() does not return */
}

/* A whole number of at most 2^53 in magnitude for an int64_t argument. */
static int64_t kmx_r_int64(SEXP x, const char *name) {
    double value = Rf_length(x) == 1 ? Rf_asReal(x) : NA_REAL;
    if (!R_finite(value) || fabs(value) > 9007199254740992.0 || value != floor(value))
        Rf_error("kmx: '%s' must be one whole number", name);
    return (int64_t)value;
}

static int kmx_r_int(SEXP x, const char *name) {
    int value = Rf_length(x) == 1 ? Rf_asInteger(x) : NA_INTEGER;
    if (value == NA_INTEGER) Rf_error("kmx: '%s' must be one integer", name);
    return value;
}

/* A double vector read in place; NULL for R's NULL (optional arrays). */
static const double *kmx_r_doubles(SEXP x, const char *name) {
    if (x == R_NilValue) return NULL;
    if (TYPEOF(x) != REALSXP) Rf_error("kmx: '%s' must be a double vector", name);
    return REAL(x);
}

static const char *kmx_r_string(SEXP x, const char *name) {
    if (!Rf_isString(x) || Rf_length(x) != 1 || STRING_ELT(x, 0) == NA_STRING)
        Rf_error("kmx: '%s' must be one string", name);
    return CHAR(STRING_ELT(x, 0));
}

/* ---------------------------------------------------------------- handles */
enum { KMX_R_LOG_HANDLER, KMX_R_PROGRESS_HANDLER, KMX_R_COMMUNICATOR, KMX_R_HANDLERS };

/* The object behind a handle: NULL for R's NULL and for a freed handle. */
static void *kmx_r_handle(SEXP x, const char *type) {
    if (x == R_NilValue) return NULL;
    if (TYPEOF(x) != EXTPTRSXP || R_ExternalPtrTag(x) != Rf_install(type))
        Rf_error("kmx: expected a %s handle", type);
    return R_ExternalPtrAddr(x);
}

/* Replaces a context's handler in `slot`: releases the old R function and
 * preserves the new one (R's NULL for none). */
static void kmx_r_set_handler(SEXP handle, int slot, SEXP fn) {
    SEXP handlers = R_ExternalPtrProtected(handle);
    SEXP old = VECTOR_ELT(handlers, slot);
    if (old != R_NilValue) R_ReleaseObject(old);
    if (fn != R_NilValue) R_PreserveObject(fn);
    SET_VECTOR_ELT(handlers, slot, fn);
}

/* Frees the object behind a handle once; also the handles' finalizer. */
static void kmx_r_finalize(SEXP handle) {
    void *object = R_ExternalPtrAddr(handle);
    SEXP tag = R_ExternalPtrTag(handle);
    int slot;
    if (!object) return;
    R_ClearExternalPtr(handle);
    if (tag == Rf_install("kmx_context")) {
        kmx_context_free((kmx_context *)object);
        for (slot = 0; slot < KMX_R_HANDLERS; ++slot) kmx_r_set_handler(handle, slot, R_NilValue);
    } else if (tag == Rf_install("kmx_dataset")) {
        kmx_dataset_free((kmx_dataset *)object);
    } else if (tag == Rf_install("kmx_kernel")) {
        kmx_kernel_free((kmx_kernel *)object);
    } else if (tag == Rf_install("kmx_solver")) {
        kmx_solver_free((kmx_solver *)object);
    } else if (tag == Rf_install("kmx_model")) {
        kmx_model_free((kmx_model *)object);
    } else if (tag == Rf_install("kmx_approx")) {
        kmx_approx_free((kmx_approx *)object);
    } else if (tag == Rf_install("kmx_predictor")) {
        kmx_predictor_free((kmx_predictor *)object);
    }
}

/* A handle owning `object`; a context's also records its R handlers. */
static SEXP kmx_r_new_handle(void *object, const char *type) {
    SEXP handlers = strcmp(type, "kmx_context") == 0 ? Rf_allocVector(VECSXP, KMX_R_HANDLERS)
                                                     : R_NilValue;
    SEXP handle = Rf_protect(R_MakeExternalPtr(object, Rf_install(type), handlers));
    R_RegisterCFinalizerEx(handle, kmx_r_finalize, TRUE);
    Rf_unprotect(1);
    return handle;
}

/* -------------------------------------------------------------- callbacks */
/* Calls fn(arg1, arg2) from inside a kmx call; an R error is reported by
 * R_tryEval and does not unwind through the library. */
static SEXP kmx_r_call_handler(void *fn, SEXP arg1, const char *arg2, int *failed) {
    SEXP call = Rf_protect(Rf_lang3((SEXP)fn, arg1, R_NilValue));
    SEXP result;
    SETCADDR(call, Rf_mkString(arg2));
    result = R_tryEval(call, R_GlobalEnv, failed);
    Rf_unprotect(1);
    return result;
}

static void kmx_r_log_trampoline(void *fn, kmx_log_level level, const char *message) {
    static const char *const names[] = {"error", "warning", "info", "debug"};
    int failed = 0;
    SEXP name = Rf_protect(Rf_mkString(level >= 0 && level <= 3 ? names[level] : "unknown"));
    kmx_r_call_handler(fn, name, message, &failed);
    Rf_unprotect(1);
}

/* TRUE from the handler cancels the running call; so does an error in it. */
static int kmx_r_progress_trampoline(void *fn, double fraction, const char *phase) {
    int failed = 0;
    SEXP result = kmx_r_call_handler(fn, Rf_protect(Rf_ScalarReal(fraction)), phase, &failed);
    int cancel = failed || (Rf_isLogical(result) && Rf_length(result) == 1 &&
                            LOGICAL(result)[0] == TRUE);
    Rf_unprotect(1);
    return cancel;
}
%}

/* ------------------------------------------------------- kernel function */
%{
#include <limits.h>
#include <pthread.h>

/* R's thread: the one that made the callback kernels (R code runs on no other). */
static pthread_t kmx_r_thread;
static int kmx_r_thread_known = 0;

/* kmx_kernel_fn: fn(a, b) with a (na x d) and b (nb x d) as R matrices of
 * the rows; fn returns the na x nb matrix K (doubles), or a string, the
 * message of the error it caught. Never runs R off R's thread, and no R
 * error unwinds through kmx's frames (R_tryEval). */
static kmx_status kmx_r_kernel_trampoline(void *fn, double *out, const double *a, int64_t na, const double *b,
                                          int64_t nb, int64_t d, char *message, int64_t message_len) {
    SEXP ra, rb, call, result;
    int64_t i, j, k;
    int failed = 0;
    kmx_status status = KMX_E_INVALID_ARGUMENT;
    if (!kmx_r_thread_known || !pthread_equal(pthread_self(), kmx_r_thread)) {
        snprintf(message, (size_t)message_len,
                 "an R kernel function runs on R's thread only, and kmx called it from another");
        return status;
    }
    if (na > INT_MAX || nb > INT_MAX || d > INT_MAX) {
        snprintf(message, (size_t)message_len, "a block of %lld x %lld rows of %lld values is beyond an R matrix",
                 (long long)na, (long long)nb, (long long)d);
        return status;
    }
    ra = Rf_protect(Rf_allocMatrix(REALSXP, (int)na, (int)d));
    rb = Rf_protect(Rf_allocMatrix(REALSXP, (int)nb, (int)d));
    for (i = 0; i < na; ++i)
        for (k = 0; k < d; ++k) REAL(ra)[i + k * na] = a[i * d + k];
    for (j = 0; j < nb; ++j)
        for (k = 0; k < d; ++k) REAL(rb)[j + k * nb] = b[j * d + k];
    call = Rf_protect(Rf_lang3((SEXP)fn, ra, rb));
    result = Rf_protect(R_tryEval(call, R_GlobalEnv, &failed));
    if (failed) {
        snprintf(message, (size_t)message_len, "the R kernel function was interrupted");
    } else if (Rf_isString(result) && Rf_length(result) == 1) {
        snprintf(message, (size_t)message_len, "%s", Rf_translateCharUTF8(STRING_ELT(result, 0)));
    } else if (TYPEOF(result) == REALSXP && Rf_xlength(result) == (R_xlen_t)(na * nb)) {
        for (i = 0; i < na; ++i)
            for (j = 0; j < nb; ++j) out[i * nb + j] = REAL(result)[i + j * na];
        status = KMX_OK;
    } else {
        snprintf(message, (size_t)message_len, "the R kernel function gave no %lld x %lld matrix of doubles",
                 (long long)na, (long long)nb);
    }
    Rf_unprotect(4);
    return status;
}

/* Whether a call with this kernel or model may run an R kernel function:
 * every callback kernel made in R is one. */
static int kmx_r_kernel_calls_r(const kmx_kernel *kernel) {
    double type = 0;
    return kernel && kmx_kernel_get_param(&type, kernel, KMX_PARAM_KERNEL) == KMX_OK && type == KMX_KERNEL_CALLBACK;
}

static int kmx_r_model_calls_r(const kmx_model *model) {
    double type = 0;
    return model && kmx_model_info(&type, model, KMX_INFO_KERNEL) == KMX_OK && type == KMX_KERNEL_CALLBACK;
}

/* A call that may run an R kernel function runs on R's thread alone: its
 * context's threads are 1 for the call and restored after it; a NULL context
 * becomes one of the defaults with threads = 1, freed after it. */
typedef struct kmx_r_on_r_thread {
    kmx_context *given, *made;
    double threads;
} kmx_r_on_r_thread;

static void kmx_r_on_r_thread_begin(kmx_r_on_r_thread *state, kmx_context **ctx, int calls_r) {
    state->given = state->made = NULL;
    state->threads = 1;
    if (!calls_r) return;
    if (!*ctx) {
        if (kmx_context_create(&state->made) == KMX_OK &&
            kmx_context_set_param(state->made, KMX_PARAM_THREADS, 1) == KMX_OK)
            *ctx = state->made;
    } else if (kmx_context_get_param(&state->threads, *ctx, KMX_PARAM_THREADS) == KMX_OK && state->threads != 1 &&
               kmx_context_set_param(*ctx, KMX_PARAM_THREADS, 1) == KMX_OK) {
        state->given = *ctx;
    }
}

static void kmx_r_on_r_thread_end(kmx_r_on_r_thread *state) {
    if (state->given) kmx_context_set_param(state->given, KMX_PARAM_THREADS, state->threads);
    kmx_context_free(state->made);
}
%}

%define KMX_R_ON_R_THREAD(FUNCTION, CTX, CALLS_R)
%exception FUNCTION %{
    {
        kmx_r_on_r_thread on_r_thread;
        kmx_r_on_r_thread_begin(&on_r_thread, &CTX, CALLS_R);
        $action
        kmx_r_on_r_thread_end(&on_r_thread);
    }
%}
%enddef
KMX_R_ON_R_THREAD(kmx_kernel_block, arg3, kmx_r_kernel_calls_r(arg4))
KMX_R_ON_R_THREAD(kmx_kernel_block_rows, arg3, kmx_r_kernel_calls_r(arg4))
KMX_R_ON_R_THREAD(kmx_solver_train, arg2, kmx_r_kernel_calls_r(arg4))
KMX_R_ON_R_THREAD(kmx_solver_cross_validate, arg4, kmx_r_kernel_calls_r(arg6))
KMX_R_ON_R_THREAD(kmx_solver_cross_validate_path, arg4, kmx_r_kernel_calls_r(arg6))
KMX_R_ON_R_THREAD(kmx_approx_create, arg2, kmx_r_kernel_calls_r(arg3))
KMX_R_ON_R_THREAD(kmx_model_predict, arg3, kmx_r_model_calls_r(arg4))
KMX_R_ON_R_THREAD(kmx_model_decision_values, arg3, kmx_r_model_calls_r(arg4))
KMX_R_ON_R_THREAD(kmx_model_predict_probability, arg3, kmx_r_model_calls_r(arg4))
KMX_R_ON_R_THREAD(kmx_predictor_build, arg2, kmx_r_model_calls_r(arg3))

/* The R argument is the function; R's thread is recorded for the trampoline. */
%typemap(rtype) (kmx_kernel_fn fn, void *user_data) "function";
%typemap(scoercein) (kmx_kernel_fn fn, void *user_data) "";
%typemap(in) (kmx_kernel_fn fn, void *user_data) %{
    if (!Rf_isFunction($input)) Rf_error("kmx: expected a function");
    kmx_r_thread = pthread_self();
    kmx_r_thread_known = 1;
    $1 = kmx_r_kernel_trampoline;
    $2 = (void *)$input;
%}

/* ----------------------------------------------------------- communicator */
%{
/* The R layer's list(rank, size, sum, max, broadcast) behind the C table. */
enum { KMX_R_COMM_SUM = 2, KMX_R_COMM_MAX = 3, KMX_R_COMM_BROADCAST = 4 };

/* Runs comm[[slot]](x) or comm[[slot]](x, root): the R layer's wrapper returns
 * a vector of x's type and length, copied into `into`, or a string, the
 * message of the error it caught. 0 on success; 1 on failure, with the message
 * kept for the call's kmx_error; 2 off R's thread, where no R may run. After a
 * failure the call's later exchanges fail at once, running no more R. */
static int kmx_r_comm_run(void *comm, int slot, SEXP x, SEXP root, void *into, size_t bytes) {
    static const char *const names[] = {"", "", "sum", "max", "broadcast"};
    SEXP call, result;
    int failed = 0, status = 1;
    call = Rf_protect(root ? Rf_lang3(VECTOR_ELT((SEXP)comm, slot), x, root)
                           : Rf_lang2(VECTOR_ELT((SEXP)comm, slot), x));
    result = Rf_protect(R_tryEval(call, R_GlobalEnv, &failed));
    if (failed) {
        snprintf(kmx_r_comm_error, sizeof kmx_r_comm_error, "the communicator's %s was interrupted", names[slot]);
    } else if (Rf_isString(result) && Rf_length(result) == 1) {
        snprintf(kmx_r_comm_error, sizeof kmx_r_comm_error, "%s", Rf_translateCharUTF8(STRING_ELT(result, 0)));
    } else if (TYPEOF(result) == TYPEOF(x) && Rf_xlength(result) == Rf_xlength(x)) {
        memcpy(into, TYPEOF(x) == RAWSXP ? (void *)RAW(result) : (void *)REAL(result), bytes);
        status = 0;
    } else {
        snprintf(kmx_r_comm_error, sizeof kmx_r_comm_error, "the communicator's %s gave no %s vector of length %lld",
                 names[slot], TYPEOF(x) == RAWSXP ? "raw" : "double", (long long)Rf_xlength(x));
    }
    Rf_unprotect(2);
    return status;
}

static int kmx_r_on_r_thread_now(void) {
    return kmx_r_thread_known && pthread_equal(pthread_self(), kmx_r_thread);
}

static int kmx_r_comm_reduce(void *comm, double *values, int64_t count, int slot) {
    SEXP x;
    int status;
    if (!kmx_r_on_r_thread_now()) return 2;
    if (kmx_r_comm_error[0]) return 1;
    if (count > (int64_t)R_XLEN_T_MAX) return 1;
    x = Rf_protect(Rf_allocVector(REALSXP, (R_xlen_t)count));
    memcpy(REAL(x), values, (size_t)count * sizeof(double));
    status = kmx_r_comm_run(comm, slot, x, NULL, values, (size_t)count * sizeof(double));
    Rf_unprotect(1);
    return status;
}

static int kmx_r_comm_sum(void *comm, double *values, int64_t count) {
    return kmx_r_comm_reduce(comm, values, count, KMX_R_COMM_SUM);
}

static int kmx_r_comm_max(void *comm, double *values, int64_t count) {
    return kmx_r_comm_reduce(comm, values, count, KMX_R_COMM_MAX);
}

static int kmx_r_comm_broadcast(void *comm, void *bytes, int64_t count, int32_t root) {
    SEXP x, r_root;
    int status;
    if (!kmx_r_on_r_thread_now()) return 2;
    if (kmx_r_comm_error[0]) return 1;
    if (count > (int64_t)R_XLEN_T_MAX) return 1;
    x = Rf_protect(Rf_allocVector(RAWSXP, (R_xlen_t)count));
    memcpy(RAW(x), bytes, (size_t)count);
    r_root = Rf_protect(Rf_ScalarInteger(root));
    status = kmx_r_comm_run(comm, KMX_R_COMM_BROADCAST, x, r_root, bytes, (size_t)count);
    Rf_unprotect(2);
    return status;
}
%}

/* One R argument, list(context handle, communicator or NULL); the
 * communicator is recorded on the handle once the call succeeds. */
%typemap(rtype) (kmx_context *ctx, const kmx_communicator *comm) "list";
%typemap(scoercein) (kmx_context *ctx, const kmx_communicator *comm) "";
%typemap(in) (kmx_context *ctx, const kmx_communicator *comm)
             (SEXP context_handle, SEXP r_comm, kmx_communicator table) %{
    if (!Rf_isNewList($input) || Rf_length($input) != 2)
        Rf_error("kmx: expected list(context handle, communicator)");
    context_handle = VECTOR_ELT($input, 0);
    r_comm = VECTOR_ELT($input, 1);
    $1 = (kmx_context *)kmx_r_handle(context_handle, "kmx_context");
    $2 = NULL;
    if (r_comm != R_NilValue) {
        if (!Rf_isNewList(r_comm) || Rf_length(r_comm) != 5 || !Rf_isFunction(VECTOR_ELT(r_comm, KMX_R_COMM_SUM)) ||
            !Rf_isFunction(VECTOR_ELT(r_comm, KMX_R_COMM_MAX)) ||
            !Rf_isFunction(VECTOR_ELT(r_comm, KMX_R_COMM_BROADCAST)))
            Rf_error("kmx: expected list(rank, size, sum, max, broadcast) with three functions");
        table.rank = kmx_r_int(VECTOR_ELT(r_comm, 0), "rank");
        table.size = kmx_r_int(VECTOR_ELT(r_comm, 1), "size");
        table.user = (void *)r_comm;
        table.allreduce_sum = kmx_r_comm_sum;
        table.allreduce_max = kmx_r_comm_max;
        table.broadcast = kmx_r_comm_broadcast;
        kmx_r_thread = pthread_self();
        kmx_r_thread_known = 1;
        $2 = &table;
    }
%}
%typemap(argout) (kmx_context *ctx, const kmx_communicator *comm) %{
    kmx_r_set_handler(context_handle$argnum, KMX_R_COMMUNICATOR, r_comm$argnum);
%}

/* --------------------------------------------------------------- statuses */
/* A failed call's kmx_error carries the communicator's message (kmx_r_raise);
 * either way the message is cleared for the next call. */
%typemap(out) kmx_status %{
    if ($1 != KMX_OK) kmx_r_raise($1);
    kmx_r_comm_error[0] = '\0';
    r_ans = R_NilValue;
%}
/* SWIG returns list(status placeholder, outputs...) when a call has outputs.
 * Kept: NULL for none, the one output, or the list of several in C order. */
%typemap(scoerceout) kmx_status %{
  if (is.list($result)) $result = $result[-1L];
  if (is.list($result) && length($result) <= 1L) $result = if (length($result)) $result[[1L]];
%}

/* Enums travel as integers (the R layer maps names through the C API). */
%define KMX_R_ENUM(TYPE)
%typemap(rtype) TYPE "integer";
%typemap(scoercein) TYPE "";
%typemap(in) TYPE %{ $1 = (TYPE)kmx_r_int($input, "$1_name"); %}
%enddef
KMX_R_ENUM(kmx_status)
KMX_R_ENUM(kmx_param)
KMX_R_ENUM(kmx_ownership)
KMX_R_ENUM(kmx_format)
KMX_R_ENUM(kmx_kernel_type)
KMX_R_ENUM(kmx_method)
KMX_R_ENUM(kmx_bias)
KMX_R_ENUM(kmx_multiclass)
KMX_R_ENUM(kmx_model_info_key)
KMX_R_ENUM(kmx_task)
KMX_R_ENUM(kmx_loss)
KMX_R_ENUM(kmx_center_method)
KMX_R_ENUM(kmx_approx_method)
KMX_R_ENUM(kmx_predictor_info_key)
KMX_R_ENUM(kmx_system_key)
KMX_R_ENUM(kmx_precision)
KMX_R_ENUM(kmx_storage)

%typemap(rtype) int64_t "numeric";
%typemap(scoercein) int64_t "";
%typemap(in) int64_t %{ $1 = kmx_r_int64($input, "$1_name"); %}

%typemap(rtype) const char * "character";
%typemap(scoercein) const char * "";
%typemap(in) const char * %{
    $1 = ($1_ltype)($input == R_NilValue ? NULL : kmx_r_string($input, "$1_name"));
%}
%typemap(freearg) const char * "";

/* ------------------------------------------------------------ input arrays */
/* CSR arrays (kmx_dataset_create_csr): row pointers from a double vector (R
 * has no 64-bit integers; converted into R_alloc memory, freed when the call
 * returns, so the dataset is made with KMX_COPY), columns an integer vector
 * read in place. */
%typemap(rtype) const int64_t *row_ptr "numeric";
%typemap(scoercein) const int64_t *row_ptr "";
%typemap(in) const int64_t *row_ptr %{
    {
        const double *from = kmx_r_doubles($input, "$1_name");
        R_xlen_t count = Rf_xlength($input), k;
        int64_t *to = (int64_t *)R_alloc(count > 0 ? count : 1, sizeof(int64_t));
        for (k = 0; k < count; ++k) {
            if (from[k] != (double)(int64_t)from[k]) Rf_error("kmx: '$1_name' must hold whole numbers");
            to[k] = (int64_t)from[k];
        }
        $1 = from ? to : NULL;
    }
%}
%typemap(freearg) const int64_t *row_ptr "";
%typemap(rtype) const int32_t *col "integer";
%typemap(scoercein) const int32_t *col "";
%typemap(in) const int32_t *col %{
    if (TYPEOF($input) != INTSXP) Rf_error("kmx: '$1_name' must be an integer vector");
    $1 = ($1_ltype)INTEGER($input);
%}
%typemap(freearg) const int32_t *col "";
%typemap(rtype) const double * "numeric";
%typemap(scoercein) const double * "";
%typemap(in) const double * %{ $1 = ($1_ltype)kmx_r_doubles($input, "$1_name"); %}
%typemap(freearg) const double * "";

/* Weights and vectors: the length comes from the vector, so the library checks it. */
%typemap(rtype) (const double *w, int64_t n) "numeric";
%typemap(scoercein) (const double *w, int64_t n) "";
%typemap(in) (const double *w, int64_t n) %{
    $1 = ($1_ltype)kmx_r_doubles($input, "$1_name");
    $2 = (int64_t)Rf_xlength($input);
%}
%typemap(freearg) (const double *w, int64_t n) "";
%apply (const double *w, int64_t n) { (const double *v, int64_t v_len) };

/* Text in memory: its byte length comes from the string. */
%typemap(rtype) (const char *text, int64_t text_len) "character";
%typemap(scoercein) (const char *text, int64_t text_len) "";
%typemap(in) (const char *text, int64_t text_len) %{
    $1 = ($1_ltype)kmx_r_string($input, "$1_name");
    $2 = (int64_t)strlen($1);
%}
%typemap(freearg) (const char *text, int64_t text_len) "";

/* A model's or predictor's saved form: a raw vector, read in place; its length is the size. */
%typemap(rtype) (const void *buffer, int64_t buffer_len) "raw";
%typemap(scoercein) (const void *buffer, int64_t buffer_len) "";
%typemap(in) (const void *buffer, int64_t buffer_len) %{
    if (TYPEOF($input) != RAWSXP) Rf_error("kmx: '$1_name' must be a raw vector");
    $1 = ($1_ltype)RAW($input);
    $2 = (int64_t)Rf_xlength($input);
%}
%typemap(freearg) (const void *buffer, int64_t buffer_len) "";

/* ---------------------------------------------------------------- outputs */
/* Scalar outputs: no R argument; the value is returned. */
%define KMX_R_OUT_SCALAR(CTYPE, NAME, TO_SEXP, R_TYPE)
%typemap(in, numinputs=0) CTYPE *NAME (CTYPE value = 0) %{ $1 = &value; %}
%typemap(argout) CTYPE *NAME %{
%append_output(TO_SEXP((R_TYPE)value$argnum)); %}
%typemap(freearg) CTYPE *NAME "";
%enddef
KMX_R_OUT_SCALAR(double, out, Rf_ScalarReal, double)
KMX_R_OUT_SCALAR(double, out_lower, Rf_ScalarReal, double)
KMX_R_OUT_SCALAR(double, out_upper, Rf_ScalarReal, double)
KMX_R_OUT_SCALAR(double, out_objective, Rf_ScalarReal, double)
KMX_R_OUT_SCALAR(int64_t, out, Rf_ScalarReal, double)
KMX_R_OUT_SCALAR(int64_t, out_count, Rf_ScalarReal, double)
KMX_R_OUT_SCALAR(int, out, Rf_ScalarInteger, int)
KMX_R_OUT_SCALAR(int, out_flags, Rf_ScalarInteger, int)
KMX_R_OUT_SCALAR(kmx_param, out, Rf_ScalarInteger, int)
KMX_R_OUT_SCALAR(kmx_task, out_task, Rf_ScalarInteger, int)

/* Array outputs: the R argument is the length; the R vector is filled in place. */
%define KMX_R_OUT_ARRAY(CTYPE, PTR, LEN, SEXPTYPE, ACCESS)
%typemap(rtype) (CTYPE *PTR, int64_t LEN) "numeric";
%typemap(scoercein) (CTYPE *PTR, int64_t LEN) "";
%typemap(in) (CTYPE *PTR, int64_t LEN) (SEXP vector) %{
    $2 = kmx_r_int64($input, "$2_name");
    vector = Rf_protect(Rf_allocVector(SEXPTYPE, $2 > 0 ? (R_xlen_t)$2 : 0));
    r_nprotect++;
    $1 = (CTYPE *)ACCESS(vector);
%}
%typemap(argout) (CTYPE *PTR, int64_t LEN) %{ %append_output(vector$argnum); %}
%typemap(freearg) (CTYPE *PTR, int64_t LEN) "";
%enddef
KMX_R_OUT_ARRAY(double, out, out_len, REALSXP, REAL)
KMX_R_OUT_ARRAY(double, out_centers, centers_len, REALSXP, REAL)
KMX_R_OUT_ARRAY(double, out_sqdist, sqdist_len, REALSXP, REAL)
KMX_R_OUT_ARRAY(int32_t, out_assignment, assignment_len, INTSXP, INTEGER)

/* kmx_dataset_classes: labels and int64 counts (returned as doubles). */
%typemap(rtype) (double *out_labels, int64_t *out_counts, int64_t out_len) "numeric";
%typemap(scoercein) (double *out_labels, int64_t *out_counts, int64_t out_len) "";
%typemap(in) (double *out_labels, int64_t *out_counts, int64_t out_len) (SEXP labels) %{
    $3 = kmx_r_int64($input, "$3_name");
    labels = Rf_protect(Rf_allocVector(REALSXP, $3 > 0 ? (R_xlen_t)$3 : 0));
    r_nprotect++;
    $1 = REAL(labels);
    $2 = (int64_t *)R_alloc($3 > 0 ? (size_t)$3 : 1, sizeof(int64_t));
%}
%typemap(argout) (double *out_labels, int64_t *out_counts, int64_t out_len) %{
    {
        SEXP both = Rf_protect(Rf_allocVector(VECSXP, 2));
        SEXP counts = Rf_allocVector(REALSXP, Rf_xlength(labels$argnum));
        R_xlen_t i;
        r_nprotect++;
        SET_VECTOR_ELT(both, 0, labels$argnum);
        SET_VECTOR_ELT(both, 1, counts);
        for (i = 0; i < Rf_xlength(counts); ++i) REAL(counts)[i] = (double)$2[i];
        SET_VECTOR_ELT($result, $n, both); /* %append_output, inside a block */
    }
%}
%typemap(freearg) (double *out_labels, int64_t *out_counts, int64_t out_len) "";

/* kmx_model_save_to_buffer, kmx_predictor_save_to_buffer: the R argument is the
 * length of the raw vector to fill (0 passes NULL: a size query); returns
 * list(raw vector, size needed). */
%typemap(rtype) (void *out, int64_t out_len, int64_t *out_size) "numeric";
%typemap(scoercein) (void *out, int64_t out_len, int64_t *out_size) "";
%typemap(in) (void *out, int64_t out_len, int64_t *out_size) (SEXP vector, int64_t size = 0) %{
    $2 = kmx_r_int64($input, "$2_name");
    vector = Rf_protect(Rf_allocVector(RAWSXP, $2 > 0 ? (R_xlen_t)$2 : 0));
    r_nprotect++;
    $1 = $2 > 0 ? (void *)RAW(vector) : NULL;
    $3 = &size;
%}
%typemap(argout) (void *out, int64_t out_len, int64_t *out_size) %{
    {
        SEXP both = Rf_protect(Rf_allocVector(VECSXP, 2));
        r_nprotect++;
        SET_VECTOR_ELT(both, 0, vector$argnum);
        SET_VECTOR_ELT(both, 1, Rf_ScalarReal((double)size$argnum));
        SET_VECTOR_ELT($result, $n, both); /* %append_output, inside a block */
    }
%}
%typemap(freearg) (void *out, int64_t out_len, int64_t *out_size) "";

/* ---------------------------------------------------------------- handles */
%define KMX_R_HANDLE(TYPE)
%typemap(rtype) TYPE *, const TYPE * "externalptr";
%typemap(scoercein) TYPE *, const TYPE * "";
%typemap(in) TYPE *, const TYPE * %{ $1 = (TYPE *)kmx_r_handle($input, #TYPE); %}
%typemap(in, numinputs=0) TYPE **out (TYPE *object = NULL) %{ $1 = &object; %}
%typemap(argout) TYPE **out %{ %append_output(kmx_r_new_handle(object$argnum, #TYPE)); %}
%typemap(freearg) TYPE **out "";
%enddef
KMX_R_HANDLE(kmx_context)
KMX_R_HANDLE(kmx_dataset)
KMX_R_HANDLE(kmx_kernel)
KMX_R_HANDLE(kmx_solver)
KMX_R_HANDLE(kmx_model)
KMX_R_HANDLE(kmx_approx)
KMX_R_HANDLE(kmx_predictor)

/* The callback setters take one R argument, list(context handle, function or
 * NULL), so the handler can be recorded on the handle once the call succeeds. */
%define KMX_R_CALLBACK(FN_TYPE, TRAMPOLINE, SLOT)
%typemap(rtype) (kmx_context *ctx, FN_TYPE fn, void *user_data) "list";
%typemap(scoercein) (kmx_context *ctx, FN_TYPE fn, void *user_data) "";
%typemap(in) (kmx_context *ctx, FN_TYPE fn, void *user_data)
             (SEXP context_handle, SEXP r_handler) %{
    if (!Rf_isNewList($input) || Rf_length($input) != 2)
        Rf_error("kmx: expected list(context handle, handler)");
    context_handle = VECTOR_ELT($input, 0);
    r_handler = VECTOR_ELT($input, 1);
    if (r_handler != R_NilValue && !Rf_isFunction(r_handler))
        Rf_error("kmx: expected a function or NULL");
    $1 = (kmx_context *)kmx_r_handle(context_handle, "kmx_context");
    $2 = r_handler == R_NilValue ? NULL : TRAMPOLINE;
    $3 = r_handler == R_NilValue ? NULL : (void *)(r_handler);
%}
%typemap(argout) (kmx_context *ctx, FN_TYPE fn, void *user_data) %{
    kmx_r_set_handler(context_handle$argnum, SLOT, r_handler$argnum);
%}
%enddef
KMX_R_CALLBACK(kmx_log_fn, kmx_r_log_trampoline, KMX_R_LOG_HANDLER)
KMX_R_CALLBACK(kmx_progress_fn, kmx_r_progress_trampoline, KMX_R_PROGRESS_HANDLER)

/* ------------------------------------------------------- R-only helpers */
%typemap(rtype) SEXP "externalptr";
%typemap(scoercein) SEXP "";
%typemap(in) SEXP %{ $1 = $input; %}
%typemap(out) SEXP %{ r_ans = $1; %}

%inline %{
/* Keeps value alive with a kernel or model handle (its external pointer's
 * protected slot, which kmx_r_free leaves: a freed kernel's models still call
 * its function); returns the handle. */
SEXP kmx_r_keep(SEXP handle, SEXP value) {
    if (TYPEOF(handle) != EXTPTRSXP) Rf_error("kmx: expected a kmx handle");
    R_SetExternalPtrProtected(handle, value);
    return handle;
}

/* What kmx_r_keep kept with a handle (NULL if nothing). */
SEXP kmx_r_kept(SEXP handle) {
    if (TYPEOF(handle) != EXTPTRSXP) Rf_error("kmx: expected a kmx handle");
    return R_ExternalPtrProtected(handle);
}

/* Frees the object behind a kmx handle now (later uses see NULL). */
SEXP kmx_r_free(SEXP handle) {
    if (TYPEOF(handle) != EXTPTRSXP) Rf_error("kmx: expected a kmx handle");
    kmx_r_finalize(handle);
    return R_NilValue;
}
%}

%inline %{
/* Turns off symbol search in the package's DLL, as R CMD check asks: SWIG's
   R_init_kmx registers every wrapper (CallEntries) and every .Call names one
   of them. .onLoad calls it with the DLL's path as R loaded it (getLoadedDLLs):
   R_getDllInfo finds a DLL by that path. TRUE when it was turned off. */
SEXP kmx_r_symbol_search_off(const char *dll_path) {
    DllInfo *dll = dll_path ? R_getDllInfo(dll_path) : NULL;
    if (dll) R_useDynamicSymbols(dll, FALSE);
    return Rf_ScalarLogical(dll != NULL);
}
%}
