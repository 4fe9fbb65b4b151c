package io.kmx;

/** The allowed range of a parameter (kmx_param_bounds); flags are the KMX_BOUND_* bits. */
public record ParamBounds(double lower, double upper, int flags) {
    /** True if the lower bound itself is excluded. */
    public boolean isLowerOpen() {
        return (flags & kmxConstants.KMX_BOUND_LOWER_OPEN) != 0;
    }

    /** True if the upper bound itself is excluded. */
    public boolean isUpperOpen() {
        return (flags & kmxConstants.KMX_BOUND_UPPER_OPEN) != 0;
    }

    /** True if only whole numbers are allowed. */
    public boolean isInteger() {
        return (flags & kmxConstants.KMX_BOUND_INTEGER) != 0;
    }

    /** True for an enum parameter (whole numbers; names accepted in parameter strings). */
    public boolean isEnum() {
        return (flags & kmxConstants.KMX_BOUND_ENUM) != 0;
    }
}
