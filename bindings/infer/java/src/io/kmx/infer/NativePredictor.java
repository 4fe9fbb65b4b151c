package io.kmx.infer;

import java.nio.ByteBuffer;

/**
 * An open kmx_infer predictor and the memory it lives in: the blob's copy and the arena, direct
 * buffers the JNI glue (kmx_infer_jni.c) uses at their first 8-byte aligned address. Its native
 * methods are instance methods, so the receiver keeps this memory reachable during each call.
 */
final class NativePredictor {
    /** Extra bytes in every buffer so that an 8-byte aligned start exists. */
    static final int ALIGNMENT_PAD = 7;

    static {
        NativeLibrary.load();
    }

    private final ByteBuffer blob;
    private final ByteBuffer arena;
    final long address;

    /** Copies and validates blob[offset, offset + length), then opens it. */
    NativePredictor(byte[] bytes, int offset, int length) {
        blob = allocateAligned(length);
        long arenaBytes = copyAndMeasure(blob, bytes, offset, length);
        arena = allocateAligned(arenaBytes);
        address = open(blob, length, arena);
    }

    static ByteBuffer allocateAligned(long bytes) {
        if (bytes < 0 || bytes > Integer.MAX_VALUE - ALIGNMENT_PAD) {
            throw new IllegalArgumentException("kmx_infer: " + bytes + " bytes do not fit a direct buffer");
        }
        return ByteBuffer.allocateDirect((int) bytes + ALIGNMENT_PAD);
    }

    private static native long copyAndMeasure(ByteBuffer blob, byte[] bytes, int offset, int length);

    private static native long open(ByteBuffer blob, int length, ByteBuffer arena);

    native long features(long address);

    native long outputs(long address);

    native long classes(long address);

    native double classLabel(long address, long i);

    native boolean isFloat32(long address);

    native long scratchBytes(long address);

    native double predict(long address, double[] x, double[] outputs, ByteBuffer scratch);

    native boolean hasProbabilities(long address);

    native void predictProbability(long address, double[] x, double[] probabilities, ByteBuffer scratch);
}
