package io.kmx.infer;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * A compact DC-Pred++ predictor (the blob {@code kmx compress} or {@code io.kmx.Predictor.toBytes()}
 * writes) opened by kmx's inference subset, libkmx_infer: no BLAS, no C++ runtime.
 *
 * <pre>{@code
 * try (Predictor predictor = Predictor.open(getAssets().open("letter.kmxp"))) {
 *     Scratch scratch = predictor.newScratch();        // one per thread
 *     double label = predictor.predict(row, scratch);  // row.length == predictor.features()
 * }
 * }</pre>
 *
 * Opening copies the bytes and validates them completely (CRC, layout, values); a blob that is not a
 * predictor, or is corrupt or truncated, throws {@link InferException}. After that the predictor is
 * only read: any number of threads may predict with it at once, each with its own {@link Scratch}.
 * Its memory (the blob's copy and a few hundred bytes) is native memory that the garbage collector
 * frees; {@link #close()} lets it go at once and makes later calls throw IllegalStateException.
 */
public final class Predictor implements AutoCloseable {
    private volatile NativePredictor open;
    private final int features;
    private final int outputs;
    private final double[] classLabels;
    private final boolean float32;
    private final boolean probabilities;
    private final long scratchBytes;

    private Predictor(NativePredictor open) {
        this.open = open;
        features = (int) open.features(open.address);
        outputs = (int) open.outputs(open.address);
        classLabels = new double[(int) open.classes(open.address)];
        for (int i = 0; i < classLabels.length; i++) classLabels[i] = open.classLabel(open.address, i);
        float32 = open.isFloat32(open.address);
        probabilities = open.hasProbabilities(open.address);
        scratchBytes = open.scratchBytes(open.address);
    }

    /** Opens the predictor blob held by bytes (copied: the array may be reused). */
    public static Predictor open(byte[] bytes) {
        return open(bytes, 0, bytes.length);
    }

    /** Opens the predictor blob held by bytes[offset, offset + length) (copied). */
    public static Predictor open(byte[] bytes, int offset, int length) {
        if (offset < 0 || length < 0 || offset > bytes.length - length) {
            throw new IndexOutOfBoundsException("bytes[" + offset + ", " + offset + " + " + length + ") of "
                    + bytes.length);
        }
        return new Predictor(new NativePredictor(bytes, offset, length));
    }

    /** Reads the stream to its end (e.g. an Android asset) and opens the blob; does not close it. */
    public static Predictor open(InputStream in) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        byte[] chunk = new byte[1 << 16];
        for (int n; (n = in.read(chunk)) != -1; ) bytes.write(chunk, 0, n);
        return open(bytes.toByteArray());
    }

    /** A scratch buffer for this predictor (and any other needing at most as many bytes). */
    public Scratch newScratch() {
        checkOpen();
        return new Scratch(scratchBytes);
    }

    /** The label of row x (regression: the value); x.length must be features(). */
    public double predict(double[] x, Scratch scratch) {
        return predict(x, null, scratch);
    }

    /**
     * The label of row x; outputs, unless null, gets its outputs() decision values (it may be longer).
     * A row of the wrong length throws InferException (KMX_INFER_E_INVALID_ARGUMENT), a scratch that
     * is too small KMX_INFER_E_ARENA_TOO_SMALL.
     */
    public double predict(double[] x, double[] outputs, Scratch scratch) {
        if (x == null || scratch == null) throw new NullPointerException("x and scratch must not be null");
        NativePredictor p = checkOpen();
        return p.predict(p.address, x, outputs, scratch.buffer);
    }

    /**
     * The class probabilities of row x, classes() values in classLabels()' order summing to 1: the model's Platt
     * sigmoids (carried by a blob compressed from a model trained with probability=1) on the decision values, as
     * the full library's. A blob without them throws InferException (KMX_INFER_E_NO_PROBABILITIES).
     */
    public double[] predictProbability(double[] x, Scratch scratch) {
        double[] out = new double[classLabels.length];
        predictProbability(x, out, scratch);
        return out;
    }

    /** The same into probabilities (at least classes() long). */
    public void predictProbability(double[] x, double[] probabilities, Scratch scratch) {
        if (x == null || probabilities == null || scratch == null)
            throw new NullPointerException("x, probabilities and scratch must not be null");
        NativePredictor p = checkOpen();
        p.predictProbability(p.address, x, probabilities, scratch.buffer);
    }

    /** True if the blob carries its model's probability estimates (predictProbability works). */
    public boolean hasProbabilities() {
        return probabilities;
    }

    /** The number of features d: the length of a row. */
    public int features() {
        return features;
    }

    /** Decision values per row. */
    public int outputs() {
        return outputs;
    }

    /** The number of classes; 0 for a regression predictor. */
    public int classes() {
        return classLabels.length;
    }

    /** The class labels, increasing (empty for regression). */
    public double[] classLabels() {
        return classLabels.clone();
    }

    /** True for a regression predictor. */
    public boolean isRegression() {
        return classLabels.length == 0;
    }

    /** True if the blob stores floats (computes in float), false for doubles. */
    public boolean isFloat32() {
        return float32;
    }

    /** The bytes a Scratch for this predictor holds. */
    public long scratchBytes() {
        return scratchBytes;
    }

    /** Lets the native memory go; later calls throw IllegalStateException. Idempotent. */
    @Override
    public void close() {
        open = null;
    }

    private NativePredictor checkOpen() {
        NativePredictor p = open;
        if (p == null) throw new IllegalStateException("the kmx_infer predictor is closed");
        return p;
    }
}
