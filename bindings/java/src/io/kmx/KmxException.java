package io.kmx;

/**
 * A kmx call failed: carries the C status (name and code) and kmx_last_error()'s message. When a
 * context's {@link Communicator} threw, what it threw is the cause (status IO).
 */
public class KmxException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String statusName;
    private final int code;
    private final String detail;

    /** Constructed through JNI by the SWIG layer (kmx_lang.i); cause is null or what a Communicator threw. */
    KmxException(String statusName, int code, String detail, Throwable cause) {
        super(statusName + ": " + detail, cause);
        this.statusName = statusName;
        this.code = code;
        this.detail = detail;
    }

    /** The status name, e.g. "KMX_E_INVALID_ARGUMENT". */
    public String statusName() {
        return statusName;
    }

    /** The numeric kmx_status. */
    public int code() {
        return code;
    }

    /** The status, or null for a code this binding does not know (a newer library). */
    public Status status() {
        for (Status status : Status.values()) {
            if (status.swigValue() == code) return status;
        }
        return null;
    }

    /** The C library's message alone, without the status name. */
    public String detail() {
        return detail;
    }
}
