/* kmx_lang.i — the Python side of bindings/kmx.i (swig -python -threads
 * -module capi): the extension kmx._capi and its proxy kmx.capi, one function
 * per C function under the C name. The public API is the pure-Python layer in
 * kmx/ (Dataset, Model, SVC, ...), the only caller of capi.
 *
 *  - Errors: a kmx_status other than KMX_OK raises the exception class that
 *    kmx/_errors.py registered for that status (kmx_py_set_error_classes: a
 *    dict code -> class, all subclasses of kmx.Error) with kmx_last_error() as
 *    its message; RuntimeError before the registration.
 *  - Outputs: handles (kmx_x **out) and scalars (double/int64_t/int *out, ...)
 *    are returned, a tuple when there are several; a call without one returns
 *    None.
 *  - Arrays travel through the buffer protocol, never copied: inputs are
 *    C-contiguous buffers of the C type (float64 for double, int32 for
 *    int32_t, int64 for int64_t, any bytes for void), outputs are writable
 *    ones that C fills in place (the Python layer allocates them with numpy).
 *    Where C takes a length beside the pointer, it is the buffer's item
 *    count; a lone pointer (x, y, a, b, centers, out_labels) is given with its
 *    sizes by the Python layer, which checks them (C cannot). None is NULL.
 *  - The GIL is released around every C call (-threads), so training and
 *    prediction on separate contexts run in parallel from Python threads.
 *  - Callbacks: kmx_context_set_log_callback and _progress_callback take a
 *    Python callable (or None), called through C trampolines that take the
 *    GIL: log(level, message), progress(fraction, phase) -> true to cancel.
 *    The caller keeps the callable alive while it is set (kmx.Context does).
 *    An exception a callback raises (KeyboardInterrupt too: the progress
 *    trampoline checks for signals) is raised by the call it came from; the
 *    progress trampoline then cancels the call.
 *  - kmx_context_set_communicator takes an object (or None) with int
 *    attributes rank and size, read once, and methods allreduce_sum(view),
 *    allreduce_max(view) and broadcast(view, root), called through C
 *    trampolines that take the GIL, each with a writable memoryview of the C
 *    bytes (doubles for the reductions), valid during the call only, to be
 *    made every rank's in place (kmx.Context wraps a user's object into one).
 *    kmx calls them from the thread that made the call, and the caller keeps
 *    the object alive while it is set. An exception a method raises fails the
 *    call (KMX_E_IO) and the methods are not called again during it; the call
 *    then raises kmx's error for the status from that exception (__cause__),
 *    whose type and message end kmx's. */

%{
#include <string.h>

/* kmx_status code -> exception class, set by kmx/_errors.py. */
static PyObject *kmx_py_error_classes = NULL;

/* Sets the Python exception for a failed call (with the GIL held). */
static void kmx_py_raise(kmx_status status) {
    PyObject *code = PyLong_FromLong((long)status);
    PyObject *cls = code && kmx_py_error_classes ? PyDict_GetItem(kmx_py_error_classes, code) : NULL;
    const char *message = kmx_last_error();
    Py_XDECREF(code);
    PyErr_SetString(cls ? cls : PyExc_RuntimeError, message[0] ? message : kmx_status_name(status));
}

/* kmx_log_fn: fn(level, message), skipped while an exception is pending. */
static void kmx_py_log(void *fn, kmx_log_level level, const char *message) {
    PyGILState_STATE gil = PyGILState_Ensure();
    if (!PyErr_Occurred()) Py_XDECREF(PyObject_CallFunction((PyObject *)fn, "is", (int)level, message));
    PyGILState_Release(gil);
}

/* kmx_progress_fn: fn(fraction, phase); a true result, an exception or a signal
 * (Ctrl-C's KeyboardInterrupt) cancels. */
static int kmx_py_progress(void *fn, double fraction, const char *phase) {
    PyGILState_STATE gil = PyGILState_Ensure();
    int cancel = 1;
    PyObject *result = PyErr_Occurred() ? NULL : PyObject_CallFunction((PyObject *)fn, "ds", fraction, phase);
    if (result) {
        cancel = PyObject_IsTrue(result) != 0 || PyErr_CheckSignals() != 0;
        Py_DECREF(result);
    }
    PyGILState_Release(gil);
    return cancel;
}

/* kmx_kernel_fn: fn(out, a, b, na, nb, d) with memoryviews of the C blocks
 * (out writable, na x nb; a na x d; b nb x d, row-major doubles), valid
 * during the call only (released after it). An exception it raises becomes
 * the kernel's failure: its type and message go into kmx's message and the
 * exception is cleared, since kmx may call it from a worker thread, whose
 * Python exception the calling thread would never see. */
static PyObject *kmx_py_view(const double *data, int64_t count, int flags) {
    return PyMemoryView_FromMemory((char *)data, (Py_ssize_t)(count * (int64_t)sizeof(double)), flags);
}

static void kmx_py_release(PyObject *view) {
    if (!view) return;
    PyObject *done = PyObject_CallMethod(view, "release", NULL);
    if (!done) PyErr_Clear(); /* still exported: the views die with it */
    Py_XDECREF(done);
    Py_DECREF(view);
}

static kmx_status kmx_py_kernel(void *fn, double *out, const double *a, int64_t na, const double *b, int64_t nb,
                                int64_t d, char *message, int64_t message_len) {
    PyGILState_STATE gil = PyGILState_Ensure();
    PyObject *vo = kmx_py_view(out, na * nb, PyBUF_WRITE), *va = kmx_py_view(a, na * d, PyBUF_READ),
             *vb = kmx_py_view(b, nb * d, PyBUF_READ);
    PyObject *result = vo && va && vb ? PyObject_CallFunction((PyObject *)fn, "OOOLLL", vo, va, vb, (long long)na,
                                                              (long long)nb, (long long)d)
                                      : NULL;
    kmx_status status = KMX_OK;
    if (!result) {
        PyObject *type, *value, *trace;
        PyErr_Fetch(&type, &value, &trace);
        PyErr_NormalizeException(&type, &value, &trace);
        PyObject *text = value ? PyObject_Str(value) : NULL;
        const char *name = type ? ((PyTypeObject *)type)->tp_name : "error";
        const char *what = text ? PyUnicode_AsUTF8(text) : NULL;
        snprintf(message, (size_t)message_len, "%s: %s", name, what ? what : "");
        PyErr_Clear();
        Py_XDECREF(text);
        Py_XDECREF(type);
        Py_XDECREF(value);
        Py_XDECREF(trace);
        status = KMX_E_INVALID_ARGUMENT;
    }
    Py_XDECREF(result);
    kmx_py_release(vo);
    kmx_py_release(va);
    kmx_py_release(vb);
    PyGILState_Release(gil);
    return status;
}

/* kmx_communicator over a Python object: the exception a method raised
 * during the running call of this thread (kmx calls the communicator from the
 * thread that made the call), and the method's name. */
static __thread PyObject *kmx_py_comm_error = NULL;
static __thread const char *kmx_py_comm_method = NULL;

/* comm.method(view) or comm.method(view, root); 0 on success, 1 with the
 * exception kept (and cleared) on failure, or when an earlier method failed. */
static int kmx_py_comm_call(void *comm, const char *method, void *bytes, int64_t count, int32_t root, int rooted) {
    PyGILState_STATE gil = PyGILState_Ensure();
    PyObject *view, *result = NULL;
    int status = 1;
    if (kmx_py_comm_error || PyErr_Occurred()) { /* a failure, or a callback's exception, is already pending */
        PyGILState_Release(gil);
        return status;
    }
    view = PyMemoryView_FromMemory((char *)bytes, (Py_ssize_t)count, PyBUF_WRITE);
    if (view) result = rooted ? PyObject_CallMethod((PyObject *)comm, method, "Oi", view, (int)root)
                              : PyObject_CallMethod((PyObject *)comm, method, "O", view);
    if (result) {
        status = 0;
    } else {
        PyObject *type, *value, *trace;
        PyErr_Fetch(&type, &value, &trace);
        PyErr_NormalizeException(&type, &value, &trace);
        if (value && trace) PyException_SetTraceback(value, trace);
        kmx_py_comm_error = value;
        kmx_py_comm_method = method;
        Py_XDECREF(type);
        Py_XDECREF(trace);
    }
    Py_XDECREF(result);
    kmx_py_release(view);
    PyGILState_Release(gil);
    return status;
}

static int kmx_py_comm_sum(void *comm, double *values, int64_t count) {
    return kmx_py_comm_call(comm, "allreduce_sum", values, count * (int64_t)sizeof(double), 0, 0);
}

static int kmx_py_comm_max(void *comm, double *values, int64_t count) {
    return kmx_py_comm_call(comm, "allreduce_max", values, count * (int64_t)sizeof(double), 0, 0);
}

static int kmx_py_comm_broadcast(void *comm, void *bytes, int64_t count, int32_t root) {
    return kmx_py_comm_call(comm, "broadcast", bytes, count, root, 1);
}

/* After a call (with the GIL): 1 with kmx's error for `status` set, raised
 * from the exception a communicator method raised during the call; 0 (and
 * the exception dropped) when there is none, the call succeeded, or another
 * exception is pending, which wins. */
static int kmx_py_comm_failed(kmx_status status) {
    PyObject *error = kmx_py_comm_error, *code, *cls, *text, *message, *exception;
    const char *what;
    if (!error) return 0;
    kmx_py_comm_error = NULL;
    if (status == KMX_OK || PyErr_Occurred()) {
        Py_DECREF(error);
        return 0;
    }
    code = PyLong_FromLong((long)status);
    cls = code && kmx_py_error_classes ? PyDict_GetItem(kmx_py_error_classes, code) : NULL;
    Py_XDECREF(code);
    text = PyObject_Str(error);
    what = text ? PyUnicode_AsUTF8(text) : NULL;
    if (!what) PyErr_Clear();
    message = PyUnicode_FromFormat("%s: the communicator's %s raised %s: %s", kmx_last_error(), kmx_py_comm_method,
                                   Py_TYPE(error)->tp_name, what ? what : "");
    Py_XDECREF(text);
    exception = message ? PyObject_CallFunctionObjArgs(cls ? cls : PyExc_RuntimeError, message, NULL) : NULL;
    Py_XDECREF(message);
    if (!exception) {
        Py_DECREF(error);
        return 1;
    }
    PyException_SetCause(exception, error); /* steals error */
    PyErr_SetObject((PyObject *)Py_TYPE(exception), exception);
    Py_DECREF(exception);
    return 1;
}

/* Borrows a C-contiguous buffer of items of `size` bytes whose struct format
 * code is one of `codes` ("" for any); 0 with an exception set on failure. */
static int kmx_py_get_buffer(PyObject *object, Py_buffer *view, int writable, Py_ssize_t size, const char *codes,
                             const char *name) {
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    const char *format;
    if (PyObject_GetBuffer(object, view, flags) != 0) {
        PyErr_Format(PyExc_TypeError, "kmx: '%s' must be a C-contiguous%s buffer", name, writable ? " writable" : "");
        return 0;
    }
    format = view->format ? view->format : "B";
    if (format[0] == '<' || format[0] == '=' || format[0] == '@') ++format;
    if (view->itemsize != size || (codes[0] && (strlen(format) != 1 || !strchr(codes, format[0])))) {
        PyErr_Format(PyExc_TypeError, "kmx: '%s' has items of format '%s' (%zd bytes), not the C type's", name,
                     view->format ? view->format : "B", view->itemsize);
        PyBuffer_Release(view);
        return 0;
    }
    return 1;
}
%}

/* ------------------------------------------------------------------ status */
/* An exception a callback raised during the call wins over the status; a
 * communicator method's becomes the cause of kmx's error. */
%typemap(out) kmx_status %{
    if (kmx_py_comm_failed($1) || PyErr_Occurred()) SWIG_fail;
    if ($1 != KMX_OK) {
        kmx_py_raise($1);
        SWIG_fail;
    }
    $result = SWIG_Py_Void();
%}

/* ----------------------------------------------------------------- outputs */
%define KMX_PY_OUT_HANDLE(TYPE)
%typemap(in, numinputs=0) TYPE **out (TYPE *handle = NULL) "$1 = &handle;"
%typemap(argout) TYPE **out
    %{ $result = SWIG_Python_AppendOutput($result, SWIG_NewPointerObj(handle$argnum, $descriptor(TYPE *), 0)); %}
%enddef
KMX_PY_OUT_HANDLE(kmx_context)
KMX_PY_OUT_HANDLE(kmx_dataset)
KMX_PY_OUT_HANDLE(kmx_kernel)
KMX_PY_OUT_HANDLE(kmx_solver)
KMX_PY_OUT_HANDLE(kmx_model)
KMX_PY_OUT_HANDLE(kmx_approx)
KMX_PY_OUT_HANDLE(kmx_predictor)

%define KMX_PY_OUT_SCALAR(CTYPE, NAME, TO_PY)
%typemap(in, numinputs=0) CTYPE *NAME (CTYPE value = 0) "$1 = &value;"
%typemap(argout) CTYPE *NAME %{ $result = SWIG_Python_AppendOutput($result, TO_PY(value$argnum)); %}
%enddef
KMX_PY_OUT_SCALAR(double, out, PyFloat_FromDouble)
KMX_PY_OUT_SCALAR(double, out_lower, PyFloat_FromDouble)
KMX_PY_OUT_SCALAR(double, out_upper, PyFloat_FromDouble)
KMX_PY_OUT_SCALAR(double, out_objective, PyFloat_FromDouble)
KMX_PY_OUT_SCALAR(int64_t, out, PyLong_FromLongLong)
KMX_PY_OUT_SCALAR(int64_t, out_count, PyLong_FromLongLong)
KMX_PY_OUT_SCALAR(int64_t, out_size, PyLong_FromLongLong)
KMX_PY_OUT_SCALAR(int, out, PyLong_FromLong)
KMX_PY_OUT_SCALAR(int, out_flags, PyLong_FromLong)
%typemap(in, numinputs=0) kmx_param *out (kmx_param value = KMX_PARAM_THREADS) "$1 = &value;"
%typemap(argout) kmx_param *out %{ $result = SWIG_Python_AppendOutput($result, PyLong_FromLong((long)value$argnum)); %}

/* ------------------------------------------------------------------ arrays */
/* A buffer as CTYPE *NAME alone or as (CTYPE *NAME, int64_t LEN), LEN its item count. */
%define KMX_PY_BUFFER(CTYPE, NAME, LEN, WRITABLE, CODES)
%typemap(in) CTYPE *NAME (Py_buffer view, int has_view = 0) %{
    if ($input != Py_None) {
        if (!kmx_py_get_buffer($input, &view, WRITABLE, sizeof *$1, CODES, "$1_name")) SWIG_fail;
        has_view = 1;
    }
    $1 = ($1_ltype)(has_view ? view.buf : NULL);
%}
%typemap(in) (CTYPE *NAME, int64_t LEN) (Py_buffer view, int has_view = 0) %{
    if ($input != Py_None) {
        if (!kmx_py_get_buffer($input, &view, WRITABLE, sizeof *$1, CODES, "$1_name")) SWIG_fail;
        has_view = 1;
    }
    $1 = ($1_ltype)(has_view ? view.buf : NULL);
    $2 = has_view ? (int64_t)(view.len / view.itemsize) : 0;
%}
%typemap(argout) CTYPE *NAME, (CTYPE *NAME, int64_t LEN) "" /* filled in place: not a scalar output */
%typemap(freearg) CTYPE *NAME, (CTYPE *NAME, int64_t LEN) %{ if (has_view$argnum) PyBuffer_Release(&view$argnum); %}
%enddef
KMX_PY_BUFFER(const double, KMX_IN, KMX_LEN, 0, "d")
KMX_PY_BUFFER(double, KMX_OUT, KMX_LEN, 1, "d")
KMX_PY_BUFFER(int32_t, KMX_OUT, KMX_LEN, 1, "i")
KMX_PY_BUFFER(int64_t, KMX_OUT, KMX_LEN, 1, "lq")
KMX_PY_BUFFER(const void, KMX_IN, KMX_LEN, 0, "")
KMX_PY_BUFFER(const int32_t, KMX_IN, KMX_LEN, 0, "i")
KMX_PY_BUFFER(const int64_t, KMX_IN, KMX_LEN, 0, "lq")
KMX_PY_BUFFER(void, KMX_OUT, KMX_LEN, 1, "")

%apply const double *KMX_IN { const double *x, const double *y, const double *a, const double *b,
                              const double *centers, const double *values };
%apply const int64_t *KMX_IN { const int64_t *row_ptr };
%apply const int32_t *KMX_IN { const int32_t *col };
%apply (const double *KMX_IN, int64_t KMX_LEN) { (const double *w, int64_t n), (const double *v, int64_t v_len) };
%apply (const void *KMX_IN, int64_t KMX_LEN) { (const void *buffer, int64_t buffer_len) };
%apply double *KMX_OUT { double *out_labels };
%apply (double *KMX_OUT, int64_t KMX_LEN) {
    (double *out, int64_t out_len), (double *out_centers, int64_t centers_len),
    (double *out_sqdist, int64_t sqdist_len) };
%apply (int32_t *KMX_OUT, int64_t KMX_LEN) { (int32_t *out_assignment, int64_t assignment_len) };
%apply (int64_t *KMX_OUT, int64_t KMX_LEN) { (int64_t *out_counts, int64_t out_len) };
/* Saved models and predictors, class names: a writable buffer (None asks for the size). */
%apply (void *KMX_OUT, int64_t KMX_LEN) { (void *out, int64_t out_len) };

/* Text in memory (kmx_dataset_parse): bytes, or str as UTF-8. */
%typemap(in) (const char *text, int64_t text_len) (char *buffer = NULL, size_t size = 0, int alloc = 0) %{
    if (PyBytes_Check($input)) {
        if (PyBytes_AsStringAndSize($input, &buffer, (Py_ssize_t *)&size) != 0) SWIG_fail;
        size += 1; /* as SWIG_AsCharPtrAndSize, counting the NUL */
    } else if (!SWIG_IsOK(SWIG_AsCharPtrAndSize($input, &buffer, &size, &alloc))) {
        SWIG_exception_fail(SWIG_TypeError, "kmx: 'text' must be str or bytes");
    }
    $1 = buffer;
    $2 = size > 0 ? (int64_t)size - 1 : 0;
%}
%typemap(freearg) (const char *text, int64_t text_len) %{ if (alloc$argnum == SWIG_NEWOBJ) free(buffer$argnum); %}

/* --------------------------------------------------------------- callbacks */
%define KMX_PY_CALLBACK(FN_TYPE, TRAMPOLINE)
%typemap(in) (FN_TYPE fn, void *user_data) %{
    if ($input != Py_None && !PyCallable_Check($input)) SWIG_exception_fail(SWIG_TypeError, "kmx: expected a callable or None");
    $1 = $input == Py_None ? NULL : TRAMPOLINE;
    $2 = $input == Py_None ? NULL : (void *)$input;
%}
%enddef
KMX_PY_CALLBACK(kmx_log_fn, kmx_py_log)
KMX_PY_CALLBACK(kmx_progress_fn, kmx_py_progress)
KMX_PY_CALLBACK(kmx_kernel_fn, kmx_py_kernel)

/* The communicator: the C table of the object's rank and size and the
 * trampolines (kmx copies it); None is NULL. */
%typemap(in) const kmx_communicator *comm (kmx_communicator table) %{
    $1 = NULL;
    if ($input != Py_None) {
        static const char *const methods[] = {"allreduce_sum", "allreduce_max", "broadcast"};
        PyObject *rank = PyObject_GetAttrString($input, "rank"), *size = PyObject_GetAttrString($input, "size");
        long long values[2] = {-1, -1};
        int i;
        if (rank && size) {
            values[0] = PyLong_AsLongLong(rank);
            values[1] = PyLong_AsLongLong(size);
        }
        Py_XDECREF(rank);
        Py_XDECREF(size);
        for (i = 0; i < 3 && !PyErr_Occurred(); ++i) {
            PyObject *method = PyObject_GetAttrString($input, methods[i]);
            if (method && !PyCallable_Check(method)) PyErr_Format(PyExc_TypeError, "kmx: '%s' is not callable", methods[i]);
            Py_XDECREF(method);
        }
        if (PyErr_Occurred()) SWIG_fail; /* no such attribute, not an int, not callable */
        /* Beyond int32: a rank or size the library refuses. */
        table.rank = values[0] >= 0 && values[0] <= INT32_MAX ? (int32_t)values[0] : -1;
        table.size = values[1] >= 0 && values[1] <= INT32_MAX ? (int32_t)values[1] : 0;
        table.user = (void *)$input;
        table.allreduce_sum = kmx_py_comm_sum;
        table.allreduce_max = kmx_py_comm_max;
        table.broadcast = kmx_py_comm_broadcast;
        $1 = &table;
    }
%}

/* ------------------------------------------------------------------- extra */
%typemap(in) PyObject *classes "$1 = $input;"
%nothread kmx_py_set_error_classes;
%inline %{
/* Records the dict (status code -> exception class) that failed calls raise from. */
static PyObject *kmx_py_set_error_classes(PyObject *classes) {
    if (!PyDict_Check(classes)) {
        PyErr_SetString(PyExc_TypeError, "kmx: expected a dict");
        return NULL;
    }
    Py_INCREF(classes);
    Py_XDECREF(kmx_py_error_classes);
    kmx_py_error_classes = classes;
    Py_RETURN_NONE;
}
%}
