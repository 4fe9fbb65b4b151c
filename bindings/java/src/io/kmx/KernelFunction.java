package io.kmx;

/**
 * A kernel as a Java function (kmx_kernel_create_callback), for {@link Kernel#createCallback}: kmx asks
 * it for blocks of kernel values. The dual solver's methods (svm, svr, one_class) train with it;
 * cross-validation and prediction with its models call it too.
 *
 * <p>kmx calls it from the thread running the call and, when the context has threads &gt; 1, from
 * its worker threads at the same time: it must then be safe to call concurrently. Anything it
 * throws stops that call, which throws {@link KmxException} (status INVALID_ARGUMENT) whose message
 * holds the throwable's {@code toString()}; nothing it throws crosses into C.
 */
@FunctionalInterface
public interface KernelFunction {
    /**
     * Fills {@code out[i*nb + j] = K(a_i, b_j)} for the row-major blocks a (na x d) and b (nb x d);
     * out holds na*nb zeros on entry. The arrays are copies, valid during the call only.
     */
    void compute(double[] out, double[] a, int na, double[] b, int nb, int d) throws Exception;
}
