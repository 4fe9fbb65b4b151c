package io.kmx;

/**
 * What C calls for a callback kernel (kmx_java_kernel in kmx_lang.i): runs the user's KernelFunction
 * and turns whatever it throws into the message kmx fails with, so no exception crosses into C. JNI
 * holds the bridge weakly; the Kernel and every Model trained with it hold it strongly, and its
 * Cleaner frees the C handler once none is left.
 */
final class KernelBridge {
    private final KernelFunction function;
    /** The C handler (kmx_java_handler) passed to kmx_kernel_create_callback as user_data. */
    final long handler;

    KernelBridge(KernelFunction function) {
        this.function = function;
        handler = kmx.kmx_java_kernel_handler(this);
        if (handler == 0) throw new IllegalStateException("kmx: no JNI handler for the kernel function");
        long owned = handler;
        NativeResource.CLEANER.register(this, () -> kmx.kmx_java_handler_free(owned));
    }

    /** Called through JNI, on kmx's threads: null once out is filled, else what the function threw. */
    String compute(double[] out, double[] a, int na, double[] b, int nb, int d) {
        try {
            function.compute(out, a, na, b, nb, d);
            return null;
        } catch (Throwable thrown) {
            return describe(thrown);
        }
    }

    private static String describe(Throwable thrown) {
        try {
            return thrown.toString();
        } catch (Throwable alsoThrown) {
            return thrown.getClass().getName();
        }
    }
}
