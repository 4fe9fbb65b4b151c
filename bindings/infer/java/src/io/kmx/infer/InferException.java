package io.kmx.infer;

/**
 * A kmx_infer call failed: a corrupt or unsupported predictor blob, or an input row of the wrong
 * length. Carries the C status: its code and its name (kmx_infer_status_name).
 */
public class InferException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int code;
    private final String statusName;

    /** Constructed by the JNI glue (kmx_infer_jni.c). */
    InferException(int code, String statusName, String call) {
        super(call + ": " + statusName);
        this.code = code;
        this.statusName = statusName;
    }

    /** The numeric kmx_infer_status, e.g. 3 for KMX_INFER_E_FORMAT. */
    public int code() {
        return code;
    }

    /** The status name, e.g. "KMX_INFER_E_FORMAT" (not a predictor blob, or corrupt). */
    public String statusName() {
        return statusName;
    }
}
