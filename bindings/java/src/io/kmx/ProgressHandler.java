package io.kmx;

/** Receives a context's progress, on the thread running the call. */
@FunctionalInterface
public interface ProgressHandler {
    /**
     * The fraction done in [0, 1] of the current phase ("loading", "k-means"...). Returning true
     * cancels the call, which then throws KmxException with status CANCELLED; an exception thrown
     * here cancels it too and is rethrown by the call.
     */
    boolean progress(double fraction, String phase);
}
