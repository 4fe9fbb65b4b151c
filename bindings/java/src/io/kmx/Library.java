package io.kmx;

/**
 * Library-wide functions: version, status names, the last error, parameter metadata, and what kmx
 * sees of the machine (cores, memory, BLIS kernel set).
 */
public final class Library {
    /** The version of the kmx.h this binding was generated from. */
    public static final String HEADER_VERSION = kmxConstants.KMX_VERSION_STRING;

    private Library() {}

    /** The loaded library's version, "MAJOR.MINOR.PATCH". */
    public static String version() {
        return kmx.kmx_version();
    }

    /** The loaded library's MAJOR * 10000 + MINOR * 100 + PATCH. */
    public static int versionNumber() {
        return kmx.kmx_version_number();
    }

    /** "KMX_OK", "KMX_E_INVALID_ARGUMENT", ... */
    public static String statusName(Status status) {
        return kmx.kmx_status_name(status);
    }

    /** The message of this thread's last failed call ("" if none); KmxException carries it too. */
    public static String lastError() {
        return kmx.kmx_last_error();
    }

    /** Forgets this thread's last error. */
    public static void clearError() {
        kmx.kmx_clear_error();
    }

    /** The allowed range of a parameter. */
    public static ParamBounds paramBounds(Param param) {
        double[] bounds = kmx.kmx_param_bounds(param);
        return new ParamBounds(bounds[0], bounds[1], (int) bounds[2]);
    }

    /** Every parameter kmx has, in the order of the C API's kmx_param_at. */
    public static Param[] params() {
        Param[] params = new Param[(int) kmx.kmx_param_count()];
        for (int i = 0; i < params.length; i++) params[i] = kmx.kmx_param_at(i);
        return params;
    }

    /** The parameter's name in "key=value" strings ("threads", "gamma", ...). */
    public static String paramName(Param param) {
        return kmx.kmx_param_name(param);
    }

    /** The value a new object starts with (0 often means "auto": see paramDescription). */
    public static double paramDefault(Param param) {
        return kmx.kmx_param_default(param);
    }

    /** One line on what the parameter is and what its special values mean. */
    public static String paramDescription(Param param) {
        return kmx.kmx_param_description(param);
    }

    /** The name of an enum parameter's value ("rbf" for KERNEL, 0), or null if it has none. */
    public static String paramValueName(Param param, double value) {
        return kmx.kmx_param_value_name(param, value);
    }

    /** The name of an enum parameter's value in "key=value" strings ("int8" for STORAGE, Storage.INT8). */
    public static String paramValueName(Param param, ParamValue value) {
        return paramValueName(param, ParamValues.encode(param, value));
    }

    /**
     * The enum type an enum-valued parameter takes (Method for METHOD, Bias for BIAS, ...), or null for a
     * numeric one: what setParam(Param, ParamValue) and param(Param, Class) accept.
     */
    public static Class<? extends ParamValue> paramValueType(Param param) {
        return ParamValues.type(param);
    }

    /** The parameter with that name; KmxException if there is none. */
    public static Param paramFromName(String name) {
        return kmx.kmx_param_from_name(name);
    }

    /** Throws KmxException (naming the parameter and its range) unless value is allowed. */
    public static void paramCheck(Param param, double value) {
        kmx.kmx_param_check(param, value);
    }

    /** The cores this process may use (affinity mask and cgroup CPU quota): a new Context's threads. */
    public static int cores() {
        return (int) kmx.kmx_system_info(SystemKey.SYSTEM_CORES);
    }

    /** Bytes the machine can give now (MemAvailable, within a cgroup limit). */
    public static long memoryAvailable() {
        return (long) kmx.kmx_system_info(SystemKey.SYSTEM_MEMORY_AVAILABLE);
    }

    /** A new Context's memory budget in bytes (80% of memoryAvailable()); -1 if unlimited. */
    public static long defaultMemoryBudget() {
        return (long) kmx.kmx_system_info(SystemKey.SYSTEM_MEMORY_BUDGET);
    }

    /** One-thread dgemm GFLOP/s of kmx's BLIS, measured by this call (0.1-0.5 s). */
    public static double dgemmGflops() {
        return kmx.kmx_system_info(SystemKey.SYSTEM_DGEMM_GFLOPS);
    }

    /** The BLIS kernel set kmx runs ("skx", "zen3", "haswell", "generic", ...). */
    public static String kernelSet() {
        return kmx.kmx_system_kernel_set();
    }

    /** Why that kernel set: "cpu features" or "BLIS_ARCH_TYPE" (with the reason a setting was ignored). */
    public static String kernelSetOrigin() {
        return kmx.kmx_system_kernel_set_origin();
    }
}
