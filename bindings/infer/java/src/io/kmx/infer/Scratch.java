package io.kmx.infer;

import java.nio.ByteBuffer;

/**
 * The working memory of one prediction: each thread predicting with a shared {@link Predictor}
 * holds its own ({@link Predictor#newScratch()}) and reuses it for every call. Native memory (a
 * direct buffer) that the garbage collector frees.
 */
public final class Scratch {
    final ByteBuffer buffer;

    Scratch(long bytes) {
        buffer = NativePredictor.allocateAligned(bytes);
    }
}
