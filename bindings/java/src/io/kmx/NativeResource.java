package io.kmx;

import java.lang.ref.Cleaner;
import java.util.function.Consumer;

/**
 * A C object owned by a Java object: close() frees it, and the Cleaner does if close() is never
 * called. Calls pass this object itself to JNI, which keeps it reachable while C uses the handle.
 */
abstract class NativeResource extends NativePointer implements AutoCloseable {
    static final Cleaner CLEANER = Cleaner.create();

    private final Cleaner.Cleanable cleanable;

    /** Takes ownership of address; release frees it and must not refer to this object. */
    NativeResource(long address, Runnable release) {
        super(address);
        cleanable = CLEANER.register(this, release);
    }

    /** A release action that hands address to free (a kmx_*_free of the SWIG layer). */
    static Runnable freeing(long address, Consumer<NativePointer> free) {
        return () -> free.accept(new NativePointer(address));
    }

    /** Frees the C object; later calls pass NULL to C, which throws KmxException. Idempotent. */
    @Override
    public void close() {
        address = 0;
        cleanable.clean();
    }
}
