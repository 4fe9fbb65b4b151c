package io.kmx;

/**
 * A compact DC-Pred++ predictor (kmx_predictor) built from a trained Model: a k-means tree in input
 * space with a small Nystrom expansion per leaf, far cheaper to evaluate and store than the model.
 * Immutable and independent of the model, data and context it was built from (it may outlive
 * them); saved as a blob that the C inference subset reads in place.
 */
public final class Predictor extends NativeResource {
    private Predictor(long address) {
        super(address, freeing(address, kmx::kmx_predictor_free));
    }

    /**
     * Builds a predictor from model and its labelled training data. SVM models: params "leaves=4 landmarks=16
     * pseudo=32 storage=int8" (null for defaults; storage float64, float32, int16, int8 or int4, float32=1 is
     * storage=float32), or a budget "max_bytes=65536 max_us=2" (the most accurate predictor within it,
     * searched on a validation split); KRR-family models use their own centers (storage only). ctx (may
     * be null) gives threads, seed and memory budget.
     */
    public static Predictor build(Context ctx, Model model, Dataset train, String params) {
        return new Predictor(kmx.kmx_predictor_build(ctx, model, train, params));
    }

    /** Reads a predictor written by save() (or by any kmx binding). */
    public static Predictor load(String path) {
        return new Predictor(kmx.kmx_predictor_load(path));
    }

    /** A predictor from the bytes toBytes() returned. */
    public static Predictor fromBytes(byte[] blob) {
        return new Predictor(kmx.kmx_predictor_load_from_buffer(blob));
    }

    /** Writes the predictor's blob to path. */
    public void save(String path) {
        kmx.kmx_predictor_save(this, path);
    }

    /**
     * Writes the blob as a C header for kmx_infer programs: an aligned {@code static const unsigned
     * char name[]} and its length {@code NAME_LEN} (name upper-cased); name must be a C identifier.
     */
    public void exportC(String path, String name) {
        kmx.kmx_predictor_export_c(this, path, name);
    }

    /** The predictor's blob (what save() writes): a size query, then the copy. */
    public byte[] toBytes() {
        long size = kmx.kmx_predictor_save_to_buffer(null, this);
        byte[] blob = new byte[Matrices.length(size, 1)];
        kmx.kmx_predictor_save_to_buffer(blob, this);
        return blob;
    }

    /** One of the values kmx_predictor_info reports (the getters below name each). */
    public double info(PredictorInfoKey key) {
        return kmx.kmx_predictor_info(this, key);
    }

    /** The size in bytes of the saved blob. */
    public long bytes() {
        return (long) info(PredictorInfoKey.PREDICTOR_BYTES);
    }

    /** The number of leaves of the k-means tree. */
    public long leaves() {
        return (long) info(PredictorInfoKey.PREDICTOR_LEAVES);
    }

    /** The number of landmarks, summed over the leaves. */
    public long landmarks() {
        return (long) info(PredictorInfoKey.PREDICTOR_LANDMARKS);
    }

    /** The number of pseudo-landmarks, summed over the leaves. */
    public long pseudoLandmarks() {
        return (long) info(PredictorInfoKey.PREDICTOR_PSEUDO);
    }

    /** The arena in bytes the C inference subset (kmx_infer_open) needs for it. */
    public long arenaBytes() {
        return (long) info(PredictorInfoKey.PREDICTOR_ARENA_BYTES);
    }

    /** The number of features d. */
    public long columns() {
        return (long) info(PredictorInfoKey.PREDICTOR_COLUMNS);
    }

    /** The number of classes (0 for a regression predictor). */
    public int classes() {
        return (int) info(PredictorInfoKey.PREDICTOR_CLASSES);
    }

    /** Decision values per row. */
    public int decisionValuesPerRow() {
        return (int) info(PredictorInfoKey.PREDICTOR_OUTPUTS);
    }

    /** True if its real arrays are floats (storage FLOAT32, INT16 or INT8), false for doubles. */
    public boolean isFloat32() {
        return info(PredictorInfoKey.PREDICTOR_FLOAT32) != 0;
    }

    /** How its blob stores its numbers (the storage=... parameter it was built with). */
    public Storage storage() {
        return Storage.swigToEnum((int) info(PredictorInfoKey.PREDICTOR_STORAGE));
    }

    /**
     * Built to a budget (params max_bytes=B and/or max_us=T): the fraction of the validation rows
     * (a fifth of the training rows) it predicted right; NaN for other predictors.
     */
    public double validationAccuracy() {
        return info(PredictorInfoKey.PREDICTOR_VALIDATION_ACCURACY);
    }

    /**
     * Built to a budget: true if the search chose the model itself, which was trained on the validation
     * rows too, so {@link #validationAccuracy()} is its accuracy on rows it was trained on (in-sample,
     * optimistic); false when measured on held-out rows, and for other predictors.
     */
    public boolean isValidationInSample() {
        return info(PredictorInfoKey.PREDICTOR_VALIDATION_IN_SAMPLE) == 1;
    }

    /** Built to a budget: microseconds per row measured on the validation rows when built (on that machine); else NaN. */
    public double validationMicroseconds() {
        return info(PredictorInfoKey.PREDICTOR_VALIDATION_US);
    }

    /** Built to a budget: the landmarks-per-leaf knob the search chose; else NaN. */
    public double landmarksPerLeaf() {
        return info(PredictorInfoKey.PREDICTOR_LANDMARKS_PER_LEAF);
    }

    /** Built to a budget: how many candidate predictors the search built and measured; else NaN. */
    public double candidates() {
        return info(PredictorInfoKey.PREDICTOR_CANDIDATES);
    }

    /** True for a predictor of a regression model. */
    public boolean isRegression() {
        return classes() == 0;
    }

    /** The predicted label (regression: value) of every row of data; ctx may be null. */
    public double[] predict(Context ctx, Dataset data) {
        double[] out = new double[Matrices.length(data.rows(), 1)];
        kmx.kmx_predictor_predict(out, ctx, this, data);
        return out;
    }

    /** The decision values of every row of data, n x decisionValuesPerRow() row-major, in the model's order. */
    public double[] decisionValues(Context ctx, Dataset data) {
        double[] out = new double[Matrices.length(data.rows(), decisionValuesPerRow())];
        kmx.kmx_predictor_decision_values(out, ctx, this, data);
        return out;
    }

    /** The decision values as one row per row of data (see decisionValues). */
    public double[][] decisionValueRows(Context ctx, Dataset data) {
        return Matrices.byRow(decisionValues(ctx, data), decisionValuesPerRow());
    }

    /** The class labels in increasing order (empty for a regression predictor): predictProbability's columns. */
    public double[] labels() {
        double[] out = new double[classes()];
        kmx.kmx_predictor_classes(out.length == 0 ? null : out, this); // regression: C takes NULL
        return out;
    }

    /** True if it carries its model's probability estimates (built from a model trained with Param.PROBABILITY = 1). */
    public boolean hasProbabilities() {
        return info(PredictorInfoKey.PREDICTOR_PROBABILITY) != 0;
    }

    /**
     * The class probabilities of every row of data, n x classes() row-major in labels()' order, each row summing
     * to 1: the model's sigmoids on the predictor's decision values, as Model.predictProbability does on the
     * model's (kmx_predictor_predict_probability); ctx may be null. A predictor without them throws KmxException.
     */
    public double[] predictProbability(Context ctx, Dataset data) {
        double[] out = new double[Matrices.length(data.rows(), classes())];
        kmx.kmx_predictor_predict_probability(out, ctx, this, data);
        return out;
    }

    /** The class probabilities as one row per row of data (see predictProbability). */
    public double[][] predictProbabilityRows(Context ctx, Dataset data) {
        return Matrices.byRow(predictProbability(ctx, data), classes());
    }
}
