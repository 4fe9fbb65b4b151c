/* kmx_lang.i — the Java side of kmx.i (package io.kmx).
 *
 * The SWIG layer it shapes is package-private: the public API is the
 * hand-written classes in src/io/kmx (Context, Dataset, Kernel, KMeans,
 * Solver, Model...).
 *  - Errors: a non-OK kmx_status throws io.kmx.KmxException(status name,
 *    code, kmx_last_error()), constructed here through JNI. The throw does not
 *    return early, so every array taken from Java is still released.
 *  - Outputs: handles (kmx_x **out) and scalars (int64_t/double/int *out)
 *    become the Java return value; functions without one return void.
 *    kmx_model_save_to_buffer and kmx_predictor_save_to_buffer return the
 *    size; Model.saveToBuffer and Predictor.toBytes call them with a null
 *    array first, then with one of that size.
 *  - Arrays: Java arrays are passed through Get/Release<Type>ArrayElements
 *    (JNI_ABORT for inputs, copy-back for outputs), lengths taken from the
 *    arrays wherever C takes one; void * buffers are byte[]. Critical
 *    pinning is not used: calls with a context may run Java callbacks, and
 *    must not stall the GC while they run (cancel() comes from another Java
 *    thread).
 *  - Handles: C handle arguments take the owning Java object (NativePointer)
 *    and read its address field, so the JNI argument keeps the owner
 *    reachable: its Cleaner cannot free a handle that a running call uses.
 *    A closed object has address 0, so C receives NULL and reports it.
 *  - Callbacks: log and progress handlers are called through C trampolines
 *    that hold a weak global reference to a Java object (the Context keeps
 *    the strong one, so a handler that refers to its context is no leak).
 *    The kernel function (kmx_kernel_create_callback) is called the same way,
 *    through a KernelBridge that the Kernel and every Model trained with it
 *    hold strongly (and whose Cleaner frees the C handler); kmx calls it
 *    from its worker threads too, which are attached to the JVM once, as
 *    daemons, and detached when they end (kmx_java_worker_env).
 *    The communicator (kmx_context_set_communicator) is a CommunicatorBridge
 *    called the same way (the Context holds it); what the user's Communicator
 *    throws is kept for the calling thread and becomes the cause of the
 *    KmxException (status IO) that the failing call throws.
 */

%{
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* What a Communicator threw on this thread during the running call (a global
 * reference, or none): the cause of the KmxException that call throws. */
static pthread_key_t kmx_java_cause_key;
static pthread_once_t kmx_java_cause_once = PTHREAD_ONCE_INIT;
static int kmx_java_cause_ready;

static void kmx_java_cause_key_create(void) {
    kmx_java_cause_ready = pthread_key_create(&kmx_java_cause_key, NULL) == 0;
}

/* Takes this thread's cause: a global reference the caller deletes, or NULL.
 * No JNI call: it is also taken while an exception is pending. */
static jthrowable kmx_java_cause_take(void) {
    jthrowable cause;
    if (pthread_once(&kmx_java_cause_once, kmx_java_cause_key_create) != 0 || !kmx_java_cause_ready) return NULL;
    cause = (jthrowable)pthread_getspecific(kmx_java_cause_key);
    if (cause) pthread_setspecific(kmx_java_cause_key, NULL);
    return cause;
}

/* Keeps thrown as this thread's cause, in place of an earlier one. */
static void kmx_java_cause_keep(JNIEnv *env, jthrowable thrown) {
    jthrowable earlier = kmx_java_cause_take();
    if (earlier) (*env)->DeleteGlobalRef(env, earlier);
    if (kmx_java_cause_ready) pthread_setspecific(kmx_java_cause_key, (*env)->NewGlobalRef(env, thrown));
}

/* Ends a successful call: a cause kept during it (none in practice: a failed
 * communication fails the call) must not reach a later call's exception. */
static void kmx_java_cause_drop(JNIEnv *env) {
    jthrowable cause = kmx_java_cause_take();
    if (cause) (*env)->DeleteGlobalRef(env, cause);
}

/* Throws io.kmx.KmxException for a failed call, unless a Java exception (one
 * thrown by a log or progress handler) is already on its way out; its cause
 * is what a Communicator threw during the call, if it did. */
static void kmx_java_raise(JNIEnv *jenv, kmx_status status) {
    jclass cls;
    jmethodID init;
    jstring name, message;
    jobject error;
    jthrowable cause = kmx_java_cause_take();
    cls = (*jenv)->ExceptionCheck(jenv) ? NULL : (*jenv)->FindClass(jenv, "io/kmx/KmxException");
    if (cls) {
        init = (*jenv)->GetMethodID(jenv, cls, "<init>",
                                    "(Ljava/lang/String;ILjava/lang/String;Ljava/lang/Throwable;)V");
        name = (*jenv)->NewStringUTF(jenv, kmx_status_name(status));
        message = (*jenv)->NewStringUTF(jenv, kmx_last_error());
        if (init && name && message) {
            error = (*jenv)->NewObject(jenv, cls, init, name, (jint)status, message, cause);
            if (error) (*jenv)->Throw(jenv, (jthrowable)error);
        }
    }
    if (cause) (*jenv)->DeleteGlobalRef(jenv, cause);
}

/* The address held by an io.kmx.NativePointer (0 after close), NULL for null. */
static void *kmx_java_address(JNIEnv *jenv, jobject pointer) {
    static jfieldID address_field; /* a benign race: every thread stores the same id */
    if (!pointer) return NULL;
    if (!address_field) {
        jclass cls = (*jenv)->FindClass(jenv, "io/kmx/NativePointer");
        if (!cls) return NULL;
        address_field = (*jenv)->GetFieldID(jenv, cls, "address", "J");
        (*jenv)->DeleteLocalRef(jenv, cls);
        if (!address_field) return NULL;
    }
    return (void *)(intptr_t)(*jenv)->GetLongField(jenv, pointer, address_field);
}

/* A Java object that C calls back through a trampoline: the callback's user_data. */
typedef struct kmx_java_handler {
    JavaVM *vm;
    jobject target; /* weak global reference */
    jmethodID method;
} kmx_java_handler;

/* NULL for a null target (C then removes the callback) or on a pending exception. */
static kmx_java_handler *kmx_java_handler_new(JNIEnv *jenv, jobject target, const char *method,
                                              const char *signature) {
    kmx_java_handler *handler;
    jclass cls;
    if (!target) return NULL;
    handler = (kmx_java_handler *)calloc(1, sizeof *handler);
    if (!handler) return NULL;
    cls = (*jenv)->GetObjectClass(jenv, target);
    handler->method = (*jenv)->GetMethodID(jenv, cls, method, signature);
    (*jenv)->DeleteLocalRef(jenv, cls);
    if (handler->method && (*jenv)->GetJavaVM(jenv, &handler->vm) == JNI_OK)
        handler->target = (*jenv)->NewWeakGlobalRef(jenv, target);
    if (!handler->target) {
        free(handler);
        return NULL;
    }
    return handler;
}

/* The calling thread's JNIEnv; a thread unknown to the JVM is attached for the call. */
static JNIEnv *kmx_java_enter(JavaVM *vm, int *attached) {
    JNIEnv *env = NULL;
    *attached = 0;
    if ((*vm)->GetEnv(vm, (void **)&env, JNI_VERSION_1_8) == JNI_EDETACHED) {
        if ((*vm)->AttachCurrentThread(vm, (void **)&env, NULL) != JNI_OK) return NULL;
        *attached = 1;
    }
    return env;
}

/* Detaches a thread attached by kmx_java_enter; its exception cannot reach any
 * Java caller, so it is printed. */
static void kmx_java_leave(JavaVM *vm, JNIEnv *env, int attached) {
    if (!attached) return;
    if ((*env)->ExceptionCheck(env)) (*env)->ExceptionDescribe(env);
    (*vm)->DetachCurrentThread(vm);
}

/* kmx_log_fn: calls target.log(int level, String message). Skipped while an
 * exception from an earlier callback is pending. */
static void kmx_java_log(void *user_data, kmx_log_level level, const char *message) {
    const kmx_java_handler *handler = (const kmx_java_handler *)user_data;
    JavaVM *vm = handler->vm;
    int attached;
    JNIEnv *env = kmx_java_enter(vm, &attached);
    jobject target;
    jstring text;
    if (!env) return;
    if (!(*env)->ExceptionCheck(env)) {
        target = (*env)->NewLocalRef(env, handler->target);
        text = (*env)->NewStringUTF(env, message);
        if (target && text) (*env)->CallVoidMethod(env, target, handler->method, (jint)level, text);
        if (text) (*env)->DeleteLocalRef(env, text);
        if (target) (*env)->DeleteLocalRef(env, target);
    }
    kmx_java_leave(vm, env, attached);
}

/* kmx_progress_fn: calls target.progress(double fraction, String phase);
 * true, or an exception (rethrown by the call), cancels. */
static int kmx_java_progress(void *user_data, double fraction, const char *phase) {
    const kmx_java_handler *handler = (const kmx_java_handler *)user_data;
    JavaVM *vm = handler->vm;
    int attached, cancel = 0;
    JNIEnv *env = kmx_java_enter(vm, &attached);
    jobject target;
    jstring text;
    if (!env) return 0;
    if (!(*env)->ExceptionCheck(env)) {
        target = (*env)->NewLocalRef(env, handler->target);
        text = (*env)->NewStringUTF(env, phase);
        if (target && text)
            cancel = (*env)->CallBooleanMethod(env, target, handler->method, (jdouble)fraction, text) != JNI_FALSE;
        if (text) (*env)->DeleteLocalRef(env, text);
        if (target) (*env)->DeleteLocalRef(env, target);
    }
    cancel = cancel || (*env)->ExceptionCheck(env);
    kmx_java_leave(vm, env, attached);
    return cancel;
}
%}

%{
/* Detaches a thread attached by kmx_java_worker_env when it ends. */
static pthread_key_t kmx_java_worker_key;
static pthread_once_t kmx_java_worker_once = PTHREAD_ONCE_INIT;

static void kmx_java_worker_exit(void *vm) {
    JavaVM *jvm = (JavaVM *)vm;
    JNIEnv *env = NULL;
    if ((*jvm)->GetEnv(jvm, (void **)&env, JNI_VERSION_1_8) == JNI_OK) (*jvm)->DetachCurrentThread(jvm);
}

static void kmx_java_worker_key_create(void) {
    pthread_key_create(&kmx_java_worker_key, kmx_java_worker_exit);
}

/* The calling thread's JNIEnv for a callback that kmx makes many times, from
 * its worker threads too (the kernel function): a thread unknown to the JVM
 * is attached once, as a daemon (the JVM need not wait for kmx's idle
 * workers to exit), and stays attached until it ends, instead of an attach
 * and a detach (a java.lang.Thread made and dropped) for every block. NULL if
 * it cannot be attached. */
static JNIEnv *kmx_java_worker_env(JavaVM *vm) {
    JNIEnv *env = NULL;
    JavaVMAttachArgs args;
    jint got = (*vm)->GetEnv(vm, (void **)&env, JNI_VERSION_1_8);
    if (got == JNI_OK) return env;
    if (got != JNI_EDETACHED) return NULL;
    if (pthread_once(&kmx_java_worker_once, kmx_java_worker_key_create) != 0) return NULL;
    args.version = JNI_VERSION_1_8;
    args.name = (char *)"kmx worker";
    args.group = NULL;
    if ((*vm)->AttachCurrentThreadAsDaemon(vm, (void **)&env, &args) != JNI_OK) return NULL;
    pthread_setspecific(kmx_java_worker_key, vm);
    return env;
}

/* Writes a Java string (modified UTF-8) into kmx's message buffer. */
static void kmx_java_message(JNIEnv *env, jstring text, char *message, int64_t message_len) {
    const char *chars = text ? (*env)->GetStringUTFChars(env, text, NULL) : NULL;
    snprintf(message, (size_t)message_len, "%s", chars ? chars : "(no message)");
    if (chars) (*env)->ReleaseStringUTFChars(env, text, chars);
}

/* kmx_kernel_fn: calls target.compute(double[] out, double[] a, int na,
 * double[] b, int nb, int d) -> String (KernelBridge: null, or the message of
 * what the user's KernelFunction threw), with copies of the blocks in Java
 * arrays. No Java exception leaves: each becomes kmx's failure with its
 * message, and the thread's exception is cleared (a worker's would never
 * reach a Java caller). Local references live in a frame of their own: an
 * attached worker has no Java frame that would free them. */
static kmx_status kmx_java_kernel(void *user_data, double *out, const double *a, int64_t na, const double *b,
                                  int64_t nb, int64_t d, char *message, int64_t message_len) {
    const kmx_java_handler *handler = (const kmx_java_handler *)user_data;
    JNIEnv *env = kmx_java_worker_env(handler->vm);
    jobject target;
    jdoubleArray jout, ja, jb;
    jstring failure;
    jthrowable thrown;
    kmx_status status = KMX_E_INVALID_ARGUMENT;
    if (!env) {
        snprintf(message, (size_t)message_len, "this thread could not be attached to the Java VM");
        return status;
    }
    if ((*env)->ExceptionCheck(env)) {
        snprintf(message, (size_t)message_len, "a Java exception from an earlier callback is pending");
        return status;
    }
    if (na * nb > INT32_MAX - 8 || na * d > INT32_MAX - 8 || nb * d > INT32_MAX - 8) {
        snprintf(message, (size_t)message_len, "a block of %lld x %lld values (d = %lld) is beyond a Java array",
                 (long long)na, (long long)nb, (long long)d);
        return status;
    }
    if ((*env)->PushLocalFrame(env, 16) != 0) {
        (*env)->ExceptionClear(env);
        snprintf(message, (size_t)message_len, "no room for JNI local references");
        return status;
    }
    target = (*env)->NewLocalRef(env, handler->target);
    jout = (*env)->NewDoubleArray(env, (jsize)(na * nb));
    ja = jout ? (*env)->NewDoubleArray(env, (jsize)(na * d)) : NULL;
    jb = ja ? (*env)->NewDoubleArray(env, (jsize)(nb * d)) : NULL;
    if (!target) {
        snprintf(message, (size_t)message_len, "the kernel function is gone (garbage collected)");
    } else if (jb) {
        (*env)->SetDoubleArrayRegion(env, ja, 0, (jsize)(na * d), a);
        (*env)->SetDoubleArrayRegion(env, jb, 0, (jsize)(nb * d), b);
        failure = (jstring)(*env)->CallObjectMethod(env, target, handler->method, jout, ja, (jint)na, jb, (jint)nb,
                                                    (jint)d);
        if (!(*env)->ExceptionCheck(env)) {
            if (failure) {
                kmx_java_message(env, failure, message, message_len);
            } else {
                (*env)->GetDoubleArrayRegion(env, jout, 0, (jsize)(na * nb), out);
                status = KMX_OK;
            }
        }
    }
    thrown = (*env)->ExceptionOccurred(env); /* the arrays' OutOfMemoryError, or one KernelBridge let out */
    if (thrown) {
        jclass cls;
        jmethodID describe;
        (*env)->ExceptionClear(env);
        cls = (*env)->GetObjectClass(env, thrown);
        describe = cls ? (*env)->GetMethodID(env, cls, "toString", "()Ljava/lang/String;") : NULL;
        failure = describe ? (jstring)(*env)->CallObjectMethod(env, thrown, describe) : NULL;
        (*env)->ExceptionClear(env);
        kmx_java_message(env, failure, message, message_len);
        status = KMX_E_INVALID_ARGUMENT;
    }
    (*env)->PopLocalFrame(env, NULL);
    return status;
}

/* The communicator's functions: each calls target.communicate(int operation,
 * double[] values, byte[] bytes, int root) -> Throwable (CommunicatorBridge:
 * null, or what the user's Communicator threw) on a copy of kmx's buffer,
 * copied back when it succeeds. kmx calls them on the thread running the
 * call, which is a Java thread; another is attached for the call. A throwable
 * becomes that thread's cause (kmx_java_cause_keep, for the KmxException the
 * call throws) and the transport error 1; none leaves. */
enum { KMX_JAVA_SUM = 0, KMX_JAVA_MAX = 1, KMX_JAVA_BROADCAST = 2 };

static int kmx_java_communicate(void *user, int operation, double *values, void *bytes, int64_t count,
                                int32_t root) {
    const kmx_java_handler *handler = (const kmx_java_handler *)user;
    JavaVM *vm = handler->vm;
    int attached, failed = 1;
    JNIEnv *env = kmx_java_enter(vm, &attached);
    jobject target;
    jdoubleArray jvalues = NULL;
    jbyteArray jbytes = NULL;
    jthrowable thrown = NULL;
    if (!env) return failed;
    /* A handler's exception, on its way out: the call fails and throws it. */
    if ((*env)->ExceptionCheck(env) || (*env)->PushLocalFrame(env, 8) != 0) {
        kmx_java_leave(vm, env, attached);
        return failed;
    }
    target = (*env)->NewLocalRef(env, handler->target);
    if (count > INT32_MAX - 8) {
        jclass cls = (*env)->FindClass(env, "java/lang/IllegalArgumentException");
        if (cls) (*env)->ThrowNew(env, cls, "kmx: a collective operation on more values than a Java array holds");
    } else if (operation == KMX_JAVA_BROADCAST) {
        jbytes = (*env)->NewByteArray(env, (jsize)count);
        if (jbytes) (*env)->SetByteArrayRegion(env, jbytes, 0, (jsize)count, (const jbyte *)bytes);
    } else {
        jvalues = (*env)->NewDoubleArray(env, (jsize)count);
        if (jvalues) (*env)->SetDoubleArrayRegion(env, jvalues, 0, (jsize)count, values);
    }
    if (target && (jbytes || jvalues))
        thrown = (jthrowable)(*env)->CallObjectMethod(env, target, handler->method, (jint)operation, jvalues, jbytes,
                                                      (jint)root);
    if ((*env)->ExceptionCheck(env)) { /* an array's OutOfMemoryError, or one the bridge let out */
        thrown = (*env)->ExceptionOccurred(env);
        (*env)->ExceptionClear(env);
    }
    if (thrown) {
        if (!attached) kmx_java_cause_keep(env, thrown);
    } else if (target && jbytes) {
        (*env)->GetByteArrayRegion(env, jbytes, 0, (jsize)count, (jbyte *)bytes);
        failed = 0;
    } else if (target && jvalues) {
        (*env)->GetDoubleArrayRegion(env, jvalues, 0, (jsize)count, values);
        failed = 0;
    }
    (*env)->PopLocalFrame(env, NULL);
    kmx_java_leave(vm, env, attached);
    return failed;
}

static int kmx_java_allreduce_sum(void *user, double *values, int64_t count) {
    return kmx_java_communicate(user, KMX_JAVA_SUM, values, NULL, count, 0);
}

static int kmx_java_allreduce_max(void *user, double *values, int64_t count) {
    return kmx_java_communicate(user, KMX_JAVA_MAX, values, NULL, count, 0);
}

static int kmx_java_broadcast(void *user, void *bytes, int64_t count, int32_t root) {
    return kmx_java_communicate(user, KMX_JAVA_BROADCAST, NULL, bytes, count, root);
}

/* Fills table from a CommunicatorBridge (its rank and size fields) with the
 * functions above, and returns the handler they are called through; NULL with
 * a Java exception pending if it cannot. */
static kmx_java_handler *kmx_java_communicator(JNIEnv *jenv, jobject bridge, kmx_communicator *table) {
    jclass cls = (*jenv)->GetObjectClass(jenv, bridge);
    jfieldID rank = (*jenv)->GetFieldID(jenv, cls, "rank", "I");
    jfieldID size = rank ? (*jenv)->GetFieldID(jenv, cls, "size", "I") : NULL;
    kmx_java_handler *handler = NULL;
    (*jenv)->DeleteLocalRef(jenv, cls);
    if (size) handler = kmx_java_handler_new(jenv, bridge, "communicate", "(I[D[BI)Ljava/lang/Throwable;");
    if (!handler) {
        if (!(*jenv)->ExceptionCheck(jenv)) {
            cls = (*jenv)->FindClass(jenv, "java/lang/OutOfMemoryError");
            if (cls) (*jenv)->ThrowNew(jenv, cls, "kmx: no JNI handler for the communicator");
        }
        return NULL;
    }
    table->rank = (*jenv)->GetIntField(jenv, bridge, rank);
    table->size = (*jenv)->GetIntField(jenv, bridge, size);
    table->user = handler;
    table->allreduce_sum = kmx_java_allreduce_sum;
    table->allreduce_max = kmx_java_allreduce_max;
    table->broadcast = kmx_java_broadcast;
    return handler;
}
%}

/* ------------------------------------------------------------- Java classes */
%pragma(java) moduleclassmodifiers="final class"
%pragma(java) jniclassclassmodifiers="final class"
%pragma(java) jniclasscode=%{
  static {
    NativeLoader.load();
  }
%}
%javaconst(1);
%include <enums.swg>
/* enums.swg's body, with swigValue() and swigToEnum() package-private: users
 * pass and receive enums (setParam(Param.METHOD, Method.FALKON)), and only
 * this package converts them to and from C's numbers. */
%typemap(javabody) enum SWIGTYPE %{
  final int swigValue() {
    return swigValue;
  }

  static $javaclassname swigToEnum(int swigValue) {
    $javaclassname[] swigValues = $javaclassname.class.getEnumConstants();
    if (swigValue < swigValues.length && swigValue >= 0 && swigValues[swigValue].swigValue == swigValue)
      return swigValues[swigValue];
    for ($javaclassname swigEnum : swigValues)
      if (swigEnum.swigValue == swigValue)
        return swigEnum;
    throw new IllegalArgumentException("No enum " + $javaclassname.class + " with value " + swigValue);
  }

  @SuppressWarnings("unused")
  private $javaclassname() {
    this.swigValue = SwigNext.next++;
  }

  @SuppressWarnings("unused")
  private $javaclassname(int swigValue) {
    this.swigValue = swigValue;
    SwigNext.next = swigValue+1;
  }

  @SuppressWarnings("unused")
  private $javaclassname($javaclassname swigEnum) {
    this.swigValue = swigEnum.swigValue;
    SwigNext.next = this.swigValue+1;
  }

  private final int swigValue;

  private static class SwigNext {
    private static int next = 0;
  }
%}
/* The values of enum-valued parameters (see ParamValue). */
%typemap(javainterfaces) enum kmx_log_level, enum kmx_precision, enum kmx_kernel_type, enum kmx_method,
    enum kmx_bias, enum kmx_multiclass, enum kmx_task, enum kmx_loss, enum kmx_center_method,
    enum kmx_approx_method, enum kmx_storage "ParamValue"

%rename(Status) kmx_status;
%rename(Param) kmx_param;
%rename(LogLevel) kmx_log_level;
%rename(Format) kmx_format;
%rename(KernelType) kmx_kernel_type;
%rename(Method) kmx_method;
%rename(Bias) kmx_bias;
%rename(Multiclass) kmx_multiclass;
%rename(ModelInfoKey) kmx_model_info_key;
%rename(Task) kmx_task;
%rename(Loss) kmx_loss; /* Loss.LOSS_SQUARED_HINGE, ... (AUTO is a Format) */
%rename(CenterMethod) kmx_center_method;
%rename(ApproxMethod) kmx_approx_method;
%rename(PredictorInfoKey) kmx_predictor_info_key;
%rename(SystemKey) kmx_system_key;
%rename(Precision) kmx_precision; /* Precision.PRECISION_FLOAT32 (FLOAT32 is a Param) */
%rename(Storage) kmx_storage;     /* Storage.STORAGE_INT8 (STORAGE is a Param) */
/* Items lose their enum's prefix, except where SWIG, which scopes C enum items
 * globally, would then see a name twice: Bias keeps BIAS_ and Task keeps TASK_
 * (AUTO is a Format), ModelInfoKey keeps INFO_ (METHOD, BIAS, MULTICLASS are
 * Params) and PredictorInfoKey keeps PREDICTOR_ (LEAVES, LANDMARKS, PSEUDO,
 * FLOAT32 are Params); SystemKey keeps SYSTEM_ (MEMORY_BUDGET is a Param). */
/* Format.PRECOMPUTED_ROWS: PRECOMPUTED is a KernelType. */
%rename(PRECOMPUTED_ROWS) KMX_FORMAT_PRECOMPUTED;
%rename("%(regex:/^KMX_(PARAM_|LOG_|FORMAT_|KERNEL_|METHOD_|MULTICLASS_|CENTERS_|APPROX_|E_)?(.*)$/\\2/)s", %$isenumitem) "";
%rename("$ignore", regexmatch$name="_FORCE_INT_$") "";
/* Datasets always copy: the GC may move Java arrays, so C never keeps one. */
%ignore kmx_ownership;
%typemap(in, numinputs=0) kmx_ownership ownership "$1 = KMX_COPY;"

/* ------------------------------------------------------------------ status */
%typemap(jni) kmx_status "void"
%typemap(jtype) kmx_status "void"
%typemap(jstype) kmx_status "void"
%typemap(javaout) kmx_status { $jnicall; }
%typemap(out) kmx_status %{ if ($1 != KMX_OK) kmx_java_raise(jenv, $1); else kmx_java_cause_drop(jenv); %}
%apply enum SWIGTYPE { kmx_status status };

/* Functions whose output parameter is the Java return value. */
%define KMX_RETURNS(PATTERN, JNI, JTYPE, JSTYPE, CONVERT)
%typemap(jni) kmx_status PATTERN "JNI"
%typemap(jtype) kmx_status PATTERN "JTYPE"
%typemap(jstype) kmx_status PATTERN "JSTYPE"
%typemap(javaout) kmx_status PATTERN { return CONVERT($jnicall); }
%enddef
KMX_RETURNS(KMX_RETURNS_LONG, jlong, long, long, )
KMX_RETURNS(KMX_RETURNS_DOUBLE, jdouble, double, double, )
KMX_RETURNS(KMX_RETURNS_BOOLEAN, jboolean, boolean, boolean, )
KMX_RETURNS(KMX_RETURNS_DOUBLES, jdoubleArray, double[], double[], )
KMX_RETURNS(KMX_RETURNS_PARAM, jint, int, Param, Param.swigToEnum)
%apply kmx_status KMX_RETURNS_LONG {
    kmx_status kmx_param_owners,
    kmx_status kmx_context_create, kmx_status kmx_context_peak_bytes,
    kmx_status kmx_context_set_log_callback, kmx_status kmx_context_set_progress_callback,
    kmx_status kmx_context_set_communicator,
    kmx_status kmx_dataset_create, kmx_status kmx_dataset_load, kmx_status kmx_dataset_parse,
    kmx_status kmx_dataset_load_shard, kmx_status kmx_dataset_create_csr,
    kmx_status kmx_dataset_to_dense, kmx_status kmx_dataset_rows, kmx_status kmx_dataset_cols,
    kmx_status kmx_dataset_nnz, kmx_status kmx_dataset_nonzeros, kmx_status kmx_dataset_classes,
    kmx_status kmx_kernel_create, kmx_status kmx_kernel_create_callback, kmx_status kmx_kernel_create_from_string,
    kmx_status kmx_solver_create, kmx_status kmx_solver_create_from_string, kmx_status kmx_solver_train,
    kmx_status kmx_model_load, kmx_status kmx_model_load_from_buffer, kmx_status kmx_model_save_to_buffer,
    kmx_status kmx_model_class_names,
    kmx_status kmx_approx_create, kmx_status kmx_approx_memory_bytes, kmx_status kmx_approx_rows,
    kmx_status kmx_approx_rank, kmx_status kmx_predictor_build, kmx_status kmx_predictor_load,
    kmx_status kmx_predictor_load_from_buffer, kmx_status kmx_predictor_save_to_buffer };
%apply kmx_status KMX_RETURNS_DOUBLE {
    kmx_status kmx_param_default,
    kmx_status kmx_context_get_param, kmx_status kmx_kernel_get_param, kmx_status kmx_kernel_eval,
    kmx_status kmx_kmeans, kmx_status kmx_solver_get_param, kmx_status kmx_model_info,
    kmx_status kmx_approx_relative_error, kmx_status kmx_predictor_info,
    kmx_status kmx_system_info };
%apply kmx_status KMX_RETURNS_BOOLEAN {
    kmx_status kmx_param_used_by,
    kmx_status kmx_dataset_is_sparse, kmx_status kmx_dataset_is_float32, kmx_status kmx_dataset_has_labels,
    kmx_status kmx_dataset_has_weights };
%apply kmx_status KMX_RETURNS_DOUBLES { kmx_status kmx_param_bounds };
%apply kmx_status KMX_RETURNS_PARAM { kmx_status kmx_param_from_name, kmx_status kmx_param_at };

/* ----------------------------------------------------------------- outputs */
%typemap(in, numinputs=0) kmx_context **out (kmx_context *handle = NULL),
                          kmx_dataset **out (kmx_dataset *handle = NULL),
                          kmx_kernel **out (kmx_kernel *handle = NULL),
                          kmx_solver **out (kmx_solver *handle = NULL),
                          kmx_model **out (kmx_model *handle = NULL),
                          kmx_approx **out (kmx_approx *handle = NULL),
                          kmx_predictor **out (kmx_predictor *handle = NULL) "$1 = &handle;"
%typemap(argout) kmx_context **out, kmx_dataset **out, kmx_kernel **out, kmx_solver **out,
                 kmx_model **out, kmx_approx **out, kmx_predictor **out
    "$result = (jlong)(intptr_t)handle$argnum;"

%typemap(in, numinputs=0) int64_t *out (int64_t value = 0), double *out (double value = 0),
                          int *out (int value = 0), kmx_param *out (kmx_param value = KMX_PARAM_THREADS)
    "$1 = &value;"
%typemap(argout) int64_t *out, double *out, kmx_param *out "$result = value$argnum;"
%typemap(argout) int *out "$result = value$argnum != 0;"
/* kmx_model_save_to_buffer and kmx_predictor_save_to_buffer return the saved size (asked first). */
%apply int64_t *out { int64_t *out_count, int64_t *out_size };
%apply double *out { double *out_objective };

/* kmx_param_bounds returns {lower, upper, flags}. */
%typemap(in, numinputs=0) (double *out_lower, double *out_upper, int *out_flags)
    (double lower = 0, double upper = 0, int flags = 0) "$1 = &lower; $2 = &upper; $3 = &flags;"
%typemap(argout) (double *out_lower, double *out_upper, int *out_flags) %{
    if (result == KMX_OK) {
        const jdouble bounds[3] = {lower$argnum, upper$argnum, (jdouble)flags$argnum};
        $result = (*jenv)->NewDoubleArray(jenv, 3);
        if ($result) (*jenv)->SetDoubleArrayRegion(jenv, $result, 0, 3, bounds);
    } %}

/* ----------------------------------------------------------------- handles */
%define KMX_HANDLES kmx_context *, const kmx_context *, kmx_dataset *, const kmx_dataset *,
    kmx_kernel *, const kmx_kernel *, kmx_solver *, const kmx_solver *, kmx_model *, const kmx_model *,
    kmx_approx *, const kmx_approx *, kmx_predictor *, const kmx_predictor * %enddef
%typemap(jni) KMX_HANDLES "jobject"
%typemap(jtype) KMX_HANDLES "NativePointer"
%typemap(jstype) KMX_HANDLES "NativePointer"
%typemap(javain) KMX_HANDLES "$javainput"
%typemap(in) KMX_HANDLES "$1 = ($1_ltype)kmx_java_address(jenv, $input);"

/* ------------------------------------------------------------------ arrays */
/* CTYPE arrays as JAVA[]: NAME alone, or (NAME, length) with the length taken
 * from the array. A null array passes NULL (C decides whether that is allowed). */
%define KMX_ARRAY(CTYPE, JNI, JNIARRAY, JAVA, ELEMENT, NAME, RELEASE)
%typemap(jni) CTYPE *NAME, (CTYPE *NAME, int64_t KMX_LENGTH) "JNIARRAY"
%typemap(jtype) CTYPE *NAME, (CTYPE *NAME, int64_t KMX_LENGTH) "JAVA[]"
%typemap(jstype) CTYPE *NAME, (CTYPE *NAME, int64_t KMX_LENGTH) "JAVA[]"
%typemap(javain) CTYPE *NAME, (CTYPE *NAME, int64_t KMX_LENGTH) "$javainput"
%typemap(in) CTYPE *NAME
    %{ $1 = $input ? ($1_ltype)(*jenv)->Get##ELEMENT##ArrayElements(jenv, $input, NULL) : NULL; %}
%typemap(in) (CTYPE *NAME, int64_t KMX_LENGTH)
    %{ $1 = $input ? ($1_ltype)(*jenv)->Get##ELEMENT##ArrayElements(jenv, $input, NULL) : NULL;
       $2 = $1 ? (*jenv)->GetArrayLength(jenv, $input) : 0; %}
%typemap(argout) CTYPE *NAME, (CTYPE *NAME, int64_t KMX_LENGTH) ""
%typemap(freearg) CTYPE *NAME, (CTYPE *NAME, int64_t KMX_LENGTH)
    %{ if ($1) (*jenv)->Release##ELEMENT##ArrayElements(jenv, $input, (JNI *)$1, RELEASE); %}
%enddef
KMX_ARRAY(const double, jdouble, jdoubleArray, double, Double, KMX_IN, JNI_ABORT)
KMX_ARRAY(const char, jbyte, jbyteArray, byte, Byte, KMX_IN, JNI_ABORT)
KMX_ARRAY(const void, jbyte, jbyteArray, byte, Byte, KMX_IN, JNI_ABORT)
KMX_ARRAY(void, jbyte, jbyteArray, byte, Byte, KMX_OUT, 0)
KMX_ARRAY(double, jdouble, jdoubleArray, double, Double, KMX_OUT, 0)
KMX_ARRAY(int32_t, jint, jintArray, int, Int, KMX_OUT, 0)
KMX_ARRAY(int64_t, jlong, jlongArray, long, Long, KMX_OUT, 0)
KMX_ARRAY(const int32_t, jint, jintArray, int, Int, KMX_IN, JNI_ABORT)
KMX_ARRAY(const int64_t, jlong, jlongArray, long, Long, KMX_IN, JNI_ABORT)

%apply const double *KMX_IN { const double *x, const double *y, const double *a, const double *b,
                              const double *centers, const double *values };
%apply const int64_t *KMX_IN { const int64_t *row_ptr };
%apply const int32_t *KMX_IN { const int32_t *col };
%apply (const double *KMX_IN, int64_t KMX_LENGTH) { (const double *w, int64_t n), (const double *v, int64_t v_len) };
%apply (const char *KMX_IN, int64_t KMX_LENGTH) { (const char *text, int64_t text_len) };
/* Saved models and predictors as byte[]: a null out asks only for the size. */
%apply (const void *KMX_IN, int64_t KMX_LENGTH) { (const void *buffer, int64_t buffer_len) };
%apply (void *KMX_OUT, int64_t KMX_LENGTH) { (void *out, int64_t out_len) };
/* Class names, one per line: UTF-8 with a NUL, which Model.setClassNames
 * encodes (a String would reach C as JNI's modified UTF-8, which differs for
 * characters beyond the BMP). kmx_model_class_names returns them into a
 * byte[] through (void *out, int64_t out_len) above. */
%apply const char *KMX_IN { const char *names };
/* out_labels is sized by the caller to out_counts' length (Dataset.classes). */
%apply double *KMX_OUT { double *out_labels };
%apply (double *KMX_OUT, int64_t KMX_LENGTH) {
    (double *out, int64_t out_len), (double *out_centers, int64_t centers_len),
    (double *out_sqdist, int64_t sqdist_len) };
%apply (int32_t *KMX_OUT, int64_t KMX_LENGTH) { (int32_t *out_assignment, int64_t assignment_len) };
%apply (int64_t *KMX_OUT, int64_t KMX_LENGTH) { (int64_t *out_counts, int64_t out_len) };

/* --------------------------------------------------------------- callbacks */
/* The Java argument is the object called back (see Context); the return value
 * is its handler, for kmx_java_handler_free once it is replaced or the context
 * is freed. */
%typemap(jni) (kmx_log_fn fn, void *user_data), (kmx_progress_fn fn, void *user_data) "jobject"
%typemap(jtype) (kmx_log_fn fn, void *user_data), (kmx_progress_fn fn, void *user_data) "Object"
%typemap(jstype) (kmx_log_fn fn, void *user_data), (kmx_progress_fn fn, void *user_data) "Object"
%typemap(javain) (kmx_log_fn fn, void *user_data), (kmx_progress_fn fn, void *user_data) "$javainput"
%typemap(in) (kmx_log_fn fn, void *user_data) %{
    $2 = kmx_java_handler_new(jenv, $input, "log", "(ILjava/lang/String;)V");
    $1 = $2 ? kmx_java_log : NULL; %}
%typemap(in) (kmx_progress_fn fn, void *user_data) %{
    $2 = kmx_java_handler_new(jenv, $input, "progress", "(DLjava/lang/String;)Z");
    $1 = $2 ? kmx_java_progress : NULL; %}
%typemap(argout) (kmx_log_fn fn, void *user_data), (kmx_progress_fn fn, void *user_data) %{
    if (result == KMX_OK) $result = (jlong)(intptr_t)$2;
    else kmx_java_handler_free(jenv, (kmx_java_handler *)$2); %}

/* The kernel function: the Java argument is the address of its handler, made
 * by kmx_java_kernel_handler (KernelBridge owns it). */
%typemap(jni) (kmx_kernel_fn fn, void *user_data) "jlong"
%typemap(jtype) (kmx_kernel_fn fn, void *user_data) "long"
%typemap(jstype) (kmx_kernel_fn fn, void *user_data) "long"
%typemap(javain) (kmx_kernel_fn fn, void *user_data) "$javainput"
%typemap(in) (kmx_kernel_fn fn, void *user_data) %{
    $2 = (void *)(intptr_t)$input;
    $1 = $2 ? kmx_java_kernel : NULL; %}

/* The communicator: the Java argument is a CommunicatorBridge (null: this
 * process alone), the C argument the table kmx copies, and the return value
 * its handler, freed as the log and progress handlers are. */
%typemap(jni) const kmx_communicator *comm "jobject"
%typemap(jtype) const kmx_communicator *comm "CommunicatorBridge"
%typemap(jstype) const kmx_communicator *comm "CommunicatorBridge"
%typemap(javain) const kmx_communicator *comm "$javainput"
%typemap(in) const kmx_communicator *comm (kmx_communicator table, kmx_java_handler *handler = NULL) %{
    $1 = NULL;
    if ($input) {
        handler = kmx_java_communicator(jenv, $input, &table);
        if (!handler) return $null;
        $1 = &table;
    } %}
%typemap(argout) const kmx_communicator *comm %{
    if (result == KMX_OK) $result = (jlong)(intptr_t)handler$argnum;
    else kmx_java_handler_free(jenv, handler$argnum); %}

/* Releases a handler returned by kmx_context_set_log_callback,
 * kmx_context_set_progress_callback or kmx_context_set_communicator once its
 * context no longer uses it, or
 * one made by kmx_java_kernel_handler once its KernelBridge is unreachable. */
%typemap(in, numinputs=0) JNIEnv *jenv "$1 = jenv;"
%typemap(jni) kmx_java_handler * "jlong"
%typemap(jtype) kmx_java_handler * "long"
%typemap(jstype) kmx_java_handler * "long"
%typemap(javain) kmx_java_handler * "$javainput"
%typemap(in) kmx_java_handler * "$1 = (kmx_java_handler *)(intptr_t)$input;"
%typemap(out) kmx_java_handler * "$result = (jlong)(intptr_t)$1;"
%typemap(javaout) kmx_java_handler * { return $jnicall; }
%typemap(jni) jobject bridge "jobject"
%typemap(jtype) jobject bridge "KernelBridge"
%typemap(jstype) jobject bridge "KernelBridge"
%typemap(javain) jobject bridge "$javainput"
%typemap(in) jobject bridge "$1 = $input;"
%inline %{
/* The handler a kernel function is called through: bridge.compute(...) (see
 * kmx_java_kernel), held weakly; 0 for a null bridge. */
static kmx_java_handler *kmx_java_kernel_handler(JNIEnv *jenv, jobject bridge) {
    return kmx_java_handler_new(jenv, bridge, "compute", "([D[DI[DII)Ljava/lang/String;");
}

static void kmx_java_handler_free(JNIEnv *jenv, kmx_java_handler *handler) {
    if (!handler) return;
    (*jenv)->DeleteWeakGlobalRef(jenv, handler->target);
    free(handler);
}
%}
