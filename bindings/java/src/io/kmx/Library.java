package io.kmx;

/** Library-wide functions: version, status names, the last error, parameter metadata. */
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

    /** The parameter's name in "key=value" strings ("threads", "gamma", ...). */
    public static String paramName(Param param) {
        return kmx.kmx_param_name(param);
    }

    /** The parameter with that name; KmxException if there is none. */
    public static Param paramFromName(String name) {
        return kmx.kmx_param_from_name(name);
    }

    /** Throws KmxException (naming the parameter and its range) unless value is allowed. */
    public static void paramCheck(Param param, double value) {
        kmx.kmx_param_check(param, value);
    }
}
