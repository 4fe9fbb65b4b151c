/* kmx_lang.i (C#) — typemaps and error mapping for the C# binding, included by
 * ../kmx.i. SWIG makes the internal class Kmx.Native (swig -module Native):
 * one static method per C function, renamed to CamelCase (kmx_kernel_block ->
 * KmxKernelBlock). The public API is the idiomatic layer in src/, which is
 * the only caller of Native.
 *
 *  - A kmx_status other than KMX_OK raises Kmx.KmxException (status name,
 *    code, kmx_last_error() message) through SWIG's pending-exception
 *    mechanism: C calls back into C# to set it, the C# side throws on return.
 *  - Handles are SafeHandle subclasses (ContextHandle, DatasetHandle,
 *    KernelHandle, SolverHandle, ModelHandle, ApproxHandle, PredictorHandle): the marshaller keeps them
 *    alive and referenced for the duration of each call. kmx_*_free is bound directly, taking an IntPtr,
 *    because a SafeHandle cannot be marshalled from its own ReleaseHandle.
 *  - Arrays are blittable and marshalled as LPArray, which pins them: C reads
 *    and writes the managed memory in place, no copies. Lengths stay explicit
 *    here; the idiomatic layer takes them from the arrays.
 *  - Scalar outputs (int64_t *out, int *out, kmx_param *out, ...) are C# `out`
 *    parameters. `double *out` is an output array ([Out] double[]) everywhere,
 *    because the same name is an array in kmx_kernel_block and a scalar in
 *    kmx_kernel_get_param: scalar reads pass a one-element array (so also
 *    kmx_solver_get_param, kmx_model_info, kmx_approx_relative_error,
 *    kmx_predictor_info and kmx_system_info).
 *  - Byte buffers (saved models and predictors: void *out, const void *buffer) are byte[],
 *    pinned like the other arrays.
 *  - Callbacks are delegates marshalled as C function pointers (NativeLogCallback,
 *    NativeProgressCallback, NativeKernelCallback, and the communicator's NativeReduceCallback
 *    and NativeBroadcastCallback in a NativeCommunicator table); the handle C keeps them in
 *    (ContextHandle; KernelHandle and every ModelHandle trained with it) holds the delegate, so
 *    the GC cannot collect it while C may call it. */

/* ------------------------------------------------------------------ names */
%rename("%(camelcase)s", %$isfunction) "";
/* KMX_PARAM_MEMORY_BUDGET -> Param.MemoryBudget, KMX_E_OUT_OF_MEMORY -> Status.OutOfMemory.
 * Items lose their enum's prefix, except where SWIG, which scopes C enum items
 * globally, would then see a name twice: BiasMode keeps BIAS_ (AUTO is a
 * FileFormat) and ModelInfoKey keeps INFO_ (METHOD, BIAS, MULTICLASS are
 * Params): BiasMode.BiasOff, ModelInfoKey.InfoSupportVectors. (SWIG garbles
 * this rule beyond about 145 characters: keep it short.) */
%rename("%(regex:/^KMX_(?:(?:PARAM|LOG|FORMAT|KERNEL|METHOD|MULTICLASS|E)_)?(.)([^_]*)_?(.?)([^_]*)_?(.?)([^_]*)$/\\1\\L\\2\\E\\3\\L\\4\\E\\5\\L\\6/)s", %$isenumitem) "";
/* The rule above takes at most three words after the prefix. */
%rename(PredictorLandmarksPerLeaf) KMX_PREDICTOR_LANDMARKS_PER_LEAF;
%rename(PredictorValidationInSample) KMX_PREDICTOR_VALIDATION_IN_SAMPLE;
%rename(PrecomputedRows) KMX_FORMAT_PRECOMPUTED; /* FileFormat.PrecomputedRows: Precomputed is a KernelType */
%rename(Status) kmx_status;
%rename(Param) kmx_param;
%rename(LogSeverity) kmx_log_level; /* LogLevel is a Param */
%rename(Ownership) kmx_ownership;
%rename(FileFormat) kmx_format; /* Format is a Status */
%rename(KernelType) kmx_kernel_type;
/* Method, Bias and Multiclass are Params: the enums of their values get other names. */
%rename(SolverMethod) kmx_method;
%rename(BiasMode) kmx_bias;
%rename(MulticlassMode) kmx_multiclass;
%rename(ModelInfoKey) kmx_model_info_key;
/* Task and CenterMethod are Params too; the other new enums keep their
 * items' prefixes (LearningTask.TaskRegression, CenterSelection.CentersKmeans,
 * ApproxMethod.ApproxMeka, PredictorInfoKey.PredictorLeaves): Auto, Leaves,
 * Landmarks, Pseudo and Float32 are taken. */
%rename(LearningTask) kmx_task;
%rename(CenterSelection) kmx_center_method;
%rename(LossFunction) kmx_loss; /* LossFunction.LossSquaredHinge (Loss is a Param) */
%rename(ApproxMethod) kmx_approx_method;
%rename(PredictorInfoKey) kmx_predictor_info_key;
%rename(SystemKey) kmx_system_key; /* SystemKey.SystemCores, ... (MemoryBudget is a Param) */
%rename(DataPrecision) kmx_precision; /* DataPrecision.PrecisionFloat32 (Precision and Float32 are Params) */
%rename(StorageType) kmx_storage; /* StorageType.StorageInt8 (Storage is a Param, PredictorStorage an info key) */
/* Sentinels that are not values. */
%ignore KMX_STATUS_FORCE_INT_;
%ignore KMX_PARAM_FORCE_INT_;
%ignore KMX_LOG_FORCE_INT_;
%ignore KMX_OWNERSHIP_FORCE_INT_;
%ignore KMX_FORMAT_FORCE_INT_;
%ignore KMX_KERNEL_FORCE_INT_;
%ignore KMX_METHOD_FORCE_INT_;
%ignore KMX_BIAS_FORCE_INT_;
%ignore KMX_MULTICLASS_FORCE_INT_;
%ignore KMX_INFO_FORCE_INT_;
%ignore KMX_TASK_FORCE_INT_;
%ignore KMX_LOSS_FORCE_INT_;
%ignore KMX_CENTERS_FORCE_INT_;
%ignore KMX_APPROX_FORCE_INT_;
%ignore KMX_PREDICTOR_INFO_FORCE_INT_;
%ignore KMX_SYSTEM_FORCE_INT_;
%ignore KMX_PRECISION_FORCE_INT_;
%ignore KMX_STORAGE_FORCE_INT_;

/* Constants (KMX_VERSION_STRING, KMX_BOUND_*, ...) are C# consts, compiled in:
 * reading one needs no native library. */
%csconst(1);
%pragma(csharp) moduleclassmodifiers="internal class"
%pragma(csharp) imclassclassmodifiers="internal class"
/* Datasets are always copied (KMX_COPY): nothing native points into managed memory. */
%typemap(csclassmodifiers) kmx_ownership "internal enum"

/* ------------------------------------------------------------------- docs */
/* Kmx.dll is compiled with -doc and CS1591 (a public member without an XML
 * comment) as an error. Each public enum gets its <summary> here; its items
 * mirror kmx.h one for one and are documented there, so the generated enum
 * files alone turn CS1591 off. */
%typemap(csimports) enum SWIGTYPE "\n#pragma warning disable 1591 // the items mirror kmx.h, documented there\n"
%typemap(csclassmodifiers) kmx_status "/// <summary>The outcome of a kmx call (kmx_status): Ok, or the error a KmxException carries in its Status.</summary>\npublic enum"
%typemap(csclassmodifiers) kmx_param "/// <summary>Every parameter of a context, kernel, solver, k-means, approximation or predictor (kmx_param); Params tells its name, range, default and owners.</summary>\npublic enum"
%typemap(csclassmodifiers) kmx_log_level "/// <summary>The severity of a log message (kmx_log_level); Param.LogLevel selects the messages a log callback receives.</summary>\npublic enum"
%typemap(csclassmodifiers) kmx_format "/// <summary>The format of a dataset file or text (kmx_format): Auto tells it from the contents.</summary>\npublic enum"
%typemap(csclassmodifiers) kmx_precision "/// <summary>How Dataset.Save stores the values of a .kmxd file (kmx_precision).</summary>\npublic enum"
%typemap(csclassmodifiers) kmx_kernel_type "/// <summary>The kernel functions (kmx_kernel_type), the values of Param.Kernel.</summary>\npublic enum"
%typemap(csclassmodifiers) kmx_method "/// <summary>The training methods (kmx_method), the values of Param.Method.</summary>\npublic enum"
%typemap(csclassmodifiers) kmx_bias "/// <summary>Whether a model has a bias term (kmx_bias), the values of Param.Bias.</summary>\npublic enum"
%typemap(csclassmodifiers) kmx_multiclass "/// <summary>How several classes are combined (kmx_multiclass), the values of Param.Multiclass.</summary>\npublic enum"
%typemap(csclassmodifiers) kmx_task "/// <summary>What a kernel ridge regression model fits (kmx_task), the values of Param.Task.</summary>\npublic enum"
%typemap(csclassmodifiers) kmx_loss "/// <summary>The loss a Nystrom-TRON solver minimizes (kmx_loss), the values of Param.Loss.</summary>\npublic enum"
%typemap(csclassmodifiers) kmx_center_method "/// <summary>How Nystrom centers are chosen (kmx_center_method), the values of Param.CenterMethod.</summary>\npublic enum"
%typemap(csclassmodifiers) kmx_model_info_key "/// <summary>The facts Model.Info reports (kmx_model_info_key).</summary>\npublic enum"
%typemap(csclassmodifiers) kmx_approx_method "/// <summary>The kernel approximations (kmx_approx_method), the values of Param.Approx.</summary>\npublic enum"
%typemap(csclassmodifiers) kmx_predictor_info_key "/// <summary>The facts Predictor.Info reports (kmx_predictor_info_key).</summary>\npublic enum"
%typemap(csclassmodifiers) kmx_storage "/// <summary>How the blob of a predictor stores its numbers (kmx_storage), the values of Param.Storage.</summary>\npublic enum"
%typemap(csclassmodifiers) kmx_system_key "/// <summary>What kmx sees of the machine (kmx_system_key); the properties of Library read it.</summary>\npublic enum"

/* ----------------------------------------------------------------- errors */
%insert(runtime) %{
/* Set by the C# side at start-up: raises Kmx.KmxException as pending. */
typedef void (SWIGSTDCALL *kmxcs_raise_fn)(int code, const char *name, const char *message);
static kmxcs_raise_fn kmxcs_raise = NULL;

SWIGEXPORT void SWIGSTDCALL KmxCsRegisterRaise(kmxcs_raise_fn fn) {
  kmxcs_raise = fn;
}
%}

%pragma(csharp) imclasscode=%{
  /// <summary>Registers the C -> C# callback that makes a failing status a pending KmxException.</summary>
  internal sealed class KmxExceptionHelper {
    internal delegate void RaiseDelegate(int code, string name, string message);
    static readonly RaiseDelegate raise = Raise;

    [global::System.Runtime.InteropServices.DllImport("$dllimport", EntryPoint="KmxCsRegisterRaise")]
    static extern void KmxCsRegisterRaise(RaiseDelegate fn);

    /// <summary>Wraps any exception a callback left pending (for example one thrown by a progress callback).</summary>
    static void Raise(int code, string name, string message) {
      SWIGPendingException.Set(new KmxException(code, name, message, SWIGPendingException.Retrieve()));
    }

    static KmxExceptionHelper() {
      KmxCsRegisterRaise(raise);
    }
  }
  static protected KmxExceptionHelper kmxExceptionHelper = new KmxExceptionHelper();

  [global::System.Runtime.InteropServices.DllImport("$dllimport", EntryPoint="kmx_context_free")]
  internal static extern void KmxContextFree(global::System.IntPtr ctx);
  [global::System.Runtime.InteropServices.DllImport("$dllimport", EntryPoint="kmx_dataset_free")]
  internal static extern void KmxDatasetFree(global::System.IntPtr ds);
  [global::System.Runtime.InteropServices.DllImport("$dllimport", EntryPoint="kmx_kernel_free")]
  internal static extern void KmxKernelFree(global::System.IntPtr kernel);
  [global::System.Runtime.InteropServices.DllImport("$dllimport", EntryPoint="kmx_solver_free")]
  internal static extern void KmxSolverFree(global::System.IntPtr solver);
  [global::System.Runtime.InteropServices.DllImport("$dllimport", EntryPoint="kmx_model_free")]
  internal static extern void KmxModelFree(global::System.IntPtr model);
  [global::System.Runtime.InteropServices.DllImport("$dllimport", EntryPoint="kmx_approx_free")]
  internal static extern void KmxApproxFree(global::System.IntPtr approx);
  [global::System.Runtime.InteropServices.DllImport("$dllimport", EntryPoint="kmx_predictor_free")]
  internal static extern void KmxPredictorFree(global::System.IntPtr predictor);
%}
/* Bound above (libkmxcs links libkmx, so its symbols resolve through it). */
%ignore kmx_context_free;
%ignore kmx_dataset_free;
%ignore kmx_kernel_free;
%ignore kmx_solver_free;
%ignore kmx_model_free;
%ignore kmx_approx_free;
%ignore kmx_predictor_free;

/* Returned statuses: void in C#, a non-OK one raises. As a parameter, the enum. */
%typemap(ctype) kmx_status "int"
%typemap(imtype) kmx_status "int"
%typemap(cstype) kmx_status "void"
%typemap(out, canthrow=1) kmx_status %{
  $result = (int)$1;
  if ($1 != KMX_OK) kmxcs_raise((int)$1, kmx_status_name($1), kmx_last_error());
%}
/* Every call into libkmxcs goes through one of these csout typemaps (the
 * return types of kmx.h's functions). If libkmxcs.so or libkmx.so.0 cannot be
 * loaded, the first touch of NativePINVOKE fails in its type initializer with
 * "DllNotFoundException: kmxcs"; NativeLibrary.Missing replaces that with a
 * DllNotFoundException naming the file really missing (dlopen's dlerror()). */
%typemap(csout, excode=SWIGEXCODE) kmx_status {
    try {
      $imcall;
    } catch (global::System.TypeInitializationException e) when (NativeLibrary.IsMissing(e)) {
      throw NativeLibrary.Missing(e);
    }$excode
  }
%typemap(csout, excode=SWIGEXCODE) void {
    try {
      $imcall;
    } catch (global::System.TypeInitializationException e) when (NativeLibrary.IsMissing(e)) {
      throw NativeLibrary.Missing(e);
    }$excode
  }
%define KMX_CS_LOADED_RETURN(CTYPE, CSTYPE)
%typemap(csout, excode=SWIGEXCODE) CTYPE {
    CSTYPE ret;
    try {
      ret = $imcall;
    } catch (global::System.TypeInitializationException e) when (NativeLibrary.IsMissing(e)) {
      throw NativeLibrary.Missing(e);
    }$excode
    return ret;
  }
%enddef
KMX_CS_LOADED_RETURN(const char *, string)
KMX_CS_LOADED_RETURN(int, int)
KMX_CS_LOADED_RETURN(int64_t, long)
%apply enum SWIGTYPE { kmx_status status };

/* ---------------------------------------------------------------- handles */
%define KMX_CS_HANDLE(CTYPE, CSHANDLE)
%typemap(ctype) CTYPE *, const CTYPE * "void *"
%typemap(imtype) CTYPE *, const CTYPE * "CSHANDLE"
%typemap(cstype) CTYPE *, const CTYPE * "CSHANDLE"
%typemap(csin) CTYPE *, const CTYPE * "$csinput"
%typemap(in) CTYPE *, const CTYPE * %{ $1 = ($1_ltype)$input; %}
%typemap(ctype) CTYPE **out "void **"
%typemap(imtype) CTYPE **out "out CSHANDLE"
%typemap(cstype) CTYPE **out "out CSHANDLE"
%typemap(csin) CTYPE **out "out $csinput"
%typemap(in) CTYPE **out %{ $1 = (CTYPE **)$input; %}
%enddef
KMX_CS_HANDLE(kmx_context, ContextHandle)
KMX_CS_HANDLE(kmx_dataset, DatasetHandle)
KMX_CS_HANDLE(kmx_kernel, KernelHandle)
KMX_CS_HANDLE(kmx_solver, SolverHandle)
KMX_CS_HANDLE(kmx_model, ModelHandle)
KMX_CS_HANDLE(kmx_approx, ApproxHandle)
KMX_CS_HANDLE(kmx_predictor, PredictorHandle)

/* -------------------------------------------------------------- callbacks */
%define KMX_CS_BY_VALUE(CTYPE, CSTYPE)
%typemap(ctype) CTYPE "CTYPE"
%typemap(imtype) CTYPE "CSTYPE"
%typemap(cstype) CTYPE "CSTYPE"
%typemap(csin) CTYPE "$csinput"
%typemap(in) CTYPE %{ $1 = $input; %}
%enddef
KMX_CS_BY_VALUE(kmx_log_fn, NativeLogCallback)
KMX_CS_BY_VALUE(kmx_progress_fn, NativeProgressCallback)
KMX_CS_BY_VALUE(kmx_kernel_fn, NativeKernelCallback)
/* The communicator: NativeCommunicator, a class laid out as kmx_communicator
 * (its functions delegates), marshalled as a pointer to a copy (null: NULL),
 * which kmx copies in turn; the ContextHandle holds it. */
%typemap(ctype) const kmx_communicator *comm "void *"
%typemap(imtype) const kmx_communicator *comm "NativeCommunicator"
%typemap(cstype) const kmx_communicator *comm "NativeCommunicator"
%typemap(csin) const kmx_communicator *comm "$csinput"
%typemap(in) const kmx_communicator *comm %{ $1 = ($1_ltype)$input; %}
%typemap(ctype) void *user_data "void *"
%typemap(imtype) void *user_data "global::System.IntPtr"
%typemap(cstype) void *user_data "global::System.IntPtr"
%typemap(csin) void *user_data "$csinput"
%typemap(in) void *user_data %{ $1 = $input; %}

/* ---------------------------------------------------------------- outputs */
%define KMX_CS_OUT(CTYPE, CSTYPE, NAMES...)
%typemap(ctype) CTYPE *OUTVALUE "void *"
%typemap(imtype) CTYPE *OUTVALUE "out CSTYPE"
%typemap(cstype) CTYPE *OUTVALUE "out CSTYPE"
%typemap(csin) CTYPE *OUTVALUE "out $csinput"
%typemap(in) CTYPE *OUTVALUE %{ $1 = ($1_ltype)$input; %}
%apply CTYPE *OUTVALUE { NAMES };
%enddef
KMX_CS_OUT(double, double, double *out_lower, double *out_upper, double *out_objective)
KMX_CS_OUT(int, int, int *out, int *out_flags)
KMX_CS_OUT(int64_t, long, int64_t *out, int64_t *out_count, int64_t *out_size)
KMX_CS_OUT(kmx_param, Param, kmx_param *out)

/* ----------------------------------------------------------------- arrays */
%define KMX_CS_ARRAY(CTYPE, CSTYPE, DIRECTION, NAMES...)
%typemap(ctype) CTYPE *ARRAY_##DIRECTION "void *"
%typemap(imtype, inattributes="[global::System.Runtime.InteropServices.DIRECTION, global::System.Runtime.InteropServices.MarshalAs(global::System.Runtime.InteropServices.UnmanagedType.LPArray)]") CTYPE *ARRAY_##DIRECTION "CSTYPE[]"
%typemap(cstype) CTYPE *ARRAY_##DIRECTION "CSTYPE[]"
%typemap(csin) CTYPE *ARRAY_##DIRECTION "$csinput"
%typemap(in) CTYPE *ARRAY_##DIRECTION %{ $1 = ($1_ltype)$input; %}
%apply CTYPE *ARRAY_##DIRECTION { NAMES };
%enddef
KMX_CS_ARRAY(double, double, In, const double *)
KMX_CS_ARRAY(char, byte, In, const char *text)
KMX_CS_ARRAY(double, double, Out, double *out, double *out_centers, double *out_labels, double *out_sqdist)
KMX_CS_ARRAY(int32_t, int, Out, int32_t *out_assignment)
KMX_CS_ARRAY(int64_t, long, Out, int64_t *out_counts)
KMX_CS_ARRAY(int32_t, int, In, const int32_t *col)
KMX_CS_ARRAY(int64_t, long, In, const int64_t *row_ptr)
/* Saved models and predictors: written by kmx_model_save_to_buffer and kmx_predictor_save_to_buffer (NULL
 * asks for the size), read by kmx_model_load_from_buffer and kmx_predictor_load_from_buffer. */
KMX_CS_ARRAY(void, byte, Out, void *out)
KMX_CS_ARRAY(void, byte, In, const void *buffer)
