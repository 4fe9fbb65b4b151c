package io.kmx;

import java.util.Objects;

/**
 * A kernel function (RBF, Laplacian, polynomial, linear, sigmoid, or a Java function); shareable
 * once set up.
 */
public final class Kernel extends NativeResource {
    /** What C calls for a kernel made by createCallback; null for the others. */
    private final KernelBridge bridge;

    private Kernel(long address, KernelBridge bridge) {
        super(address, freeing(address, kmx::kmx_kernel_free));
        this.bridge = bridge;
    }

    private Kernel(long address) {
        this(address, null);
    }

    /** A kernel of the given type with default parameters. */
    public static Kernel create(KernelType type) {
        return new Kernel(kmx.kmx_kernel_create(type));
    }

    /**
     * A kernel computed by function (type CALLBACK; GAMMA, COEF0 and DEGREE are ignored), as
     * scikit-learn's callable kernels. Only the dual solver's methods (svm, svr, one_class) train with
     * it; its models predict by calling function, which they keep, and cannot be saved. kmx calls it
     * from its worker threads too when the context has threads &gt; 1 (see KernelFunction).
     */
    public static Kernel createCallback(KernelFunction function) {
        KernelBridge bridge = new KernelBridge(Objects.requireNonNull(function, "function"));
        return new Kernel(kmx.kmx_kernel_create_callback(bridge.handler), bridge);
    }

    /** The bridge of a kernel made by createCallback (null for the others): its models keep it. */
    KernelBridge bridge() {
        return bridge;
    }

    /** A kernel from "kernel=rbf gamma=0.5" (the type defaults to rbf). */
    public static Kernel createFromString(String params) {
        return new Kernel(kmx.kmx_kernel_create_from_string(params));
    }

    /** Sets one kernel parameter (KERNEL, GAMMA, COEF0, DEGREE). */
    public void setParam(Param param, double value) {
        kmx.kmx_kernel_set_param(this, param, value);
    }

    /** A kernel parameter's value. */
    public double param(Param param) {
        return kmx.kmx_kernel_get_param(this, param);
    }

    /**
     * Sets an enum-valued parameter (KERNEL) to value, e.g. {@code setParam(Param.KERNEL, KernelType.LAPLACIAN)};
     * IllegalArgumentException if value is not of the type param takes (Library.paramValueType).
     */
    public void setParam(Param param, ParamValue value) {
        setParam(param, ParamValues.encode(param, value));
    }

    /** An enum-valued parameter's value as its type, e.g. {@code param(Param.KERNEL, KernelType.class)}. */
    public <E extends Enum<E> & ParamValue> E param(Param param, Class<E> type) {
        return ParamValues.decode(param, param(param), type);
    }

    /** The kernel's type (its KERNEL parameter). */
    public KernelType type() {
        return param(Param.KERNEL, KernelType.class);
    }

    /** Sets parameters from "key=value ..." (all checked first). */
    public void setParams(String params) {
        kmx.kmx_kernel_set_params(this, params);
    }

    /** K(a, b) for two vectors of the same length. */
    public double eval(double[] a, double[] b) {
        if (a.length != b.length) {
            throw new IllegalArgumentException("a has " + a.length + " values, b has " + b.length);
        }
        return kmx.kmx_kernel_eval(this, a, b, a.length);
    }

    /** The kernel matrix K(a_i, b_j) of two sets of rows of equal length; ctx may be null. */
    public double[][] block(Context ctx, double[][] a, double[][] b) {
        int d = Matrices.columns(a, "a");
        if (b.length > 0 && Matrices.columns(b, "b") != d) {
            throw new IllegalArgumentException("a has " + d + " columns, b has " + b[0].length);
        }
        double[] values = block(ctx, Matrices.rowMajor(a, "a"), Matrices.rowMajor(b, "b"), d);
        return Matrices.reshape(values, a.length, b.length);
    }

    /** out[i*nb + j] = K(a_i, b_j) for row-major a (na x d) and b (nb x d); ctx may be null. */
    public double[] block(Context ctx, double[] a, double[] b, int d) {
        long na = Matrices.rows(a, d, "a");
        long nb = Matrices.rows(b, d, "b");
        double[] out = new double[Matrices.length(na, nb)];
        kmx.kmx_kernel_block(out, ctx, this, a, na, b, nb, d);
        return out;
    }

    /** The kernel block of rows [aBegin, aEnd) of a by rows [bBegin, bEnd) of b, row-major. */
    public double[] blockRows(Context ctx, Dataset a, long aBegin, long aEnd, Dataset b, long bBegin, long bEnd) {
        double[] out = new double[Matrices.length(aEnd - aBegin, bEnd - bBegin)];
        kmx.kmx_kernel_block_rows(out, ctx, this, a, aBegin, aEnd, b, bBegin, bEnd);
        return out;
    }
}
