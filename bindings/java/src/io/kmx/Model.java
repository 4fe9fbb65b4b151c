package io.kmx;

import java.util.Arrays;

/**
 * A trained kernel machine (Solver.train, load, loadFromBuffer): a classifier (SVM, DC-SVM, or a
 * kernel ridge regression method on class labels) or a regression model (KRR, Nystrom KRR, MEKA
 * KRR, FALKON on real targets: task() is TASK_REGRESSION, classes() is 0 and predict() returns
 * values). Immutable, so one model may predict from many threads at once (each with its own
 * Context, or null). Saved as a versioned, checksummed binary file or byte array.
 */
public final class Model extends NativeResource {
    /** The Java kernel function a model trained with a callback kernel calls to predict (else null). */
    private final KernelBridge kernelFunction;

    Model(long address, KernelBridge kernelFunction) {
        super(address, freeing(address, kmx::kmx_model_free));
        this.kernelFunction = kernelFunction;
    }

    Model(long address) {
        this(address, null);
    }

    /** Reads a model saved by save() (or by any kmx binding). */
    public static Model load(String path) {
        return new Model(kmx.kmx_model_load(path));
    }

    /** A model from the bytes saveToBuffer() returned. */
    public static Model loadFromBuffer(byte[] buffer) {
        return new Model(kmx.kmx_model_load_from_buffer(buffer));
    }

    /** Writes the model to path (through a temporary file, then a rename). */
    public void save(String path) {
        kmx.kmx_model_save(this, path);
    }

    /** The saved form of the model as bytes (what save() writes). */
    public byte[] saveToBuffer() {
        long size = kmx.kmx_model_save_to_buffer(null, this);
        byte[] buffer = new byte[Matrices.length(size, 1)];
        kmx.kmx_model_save_to_buffer(buffer, this);
        return buffer;
    }

    /** One of the values kmx_model_info reports (the getters below name each). */
    public double info(ModelInfoKey key) {
        return kmx.kmx_model_info(this, key);
    }

    /** The method that trained the model. */
    public Method method() {
        return Method.swigToEnum((int) info(ModelInfoKey.INFO_METHOD));
    }

    /** The number of classes (0 for a regression model). */
    public int classes() {
        return (int) info(ModelInfoKey.INFO_CLASSES);
    }

    /** The class labels in increasing order (what predict() returns); empty for a regression model. */
    public double[] labels() {
        double[] out = new double[classes()];
        kmx.kmx_model_classes(out.length == 0 ? null : out, this); // regression: C takes NULL
        return out;
    }

    /**
     * Names the classes, in labels()' order: one per class, each 1 to 255 bytes of UTF-8 without
     * control characters (so no line break), all distinct. They are saved with the model (file and
     * buffer); no names removes them. Solver.train sets them from a Dataset.createNamed dataset. Not
     * while another thread uses the model.
     */
    public void setClassNames(String... names) {
        kmx.kmx_model_set_class_names(this, ClassNames.join(names));
    }

    /** True if the classes have names. */
    public boolean hasClassNames() {
        return kmx.kmx_model_class_names(null, this) > 1; // more than the NUL
    }

    /** The class names in labels()' order (name i is class labels()[i]); empty if it has none. */
    public String[] classNames() {
        long size = kmx.kmx_model_class_names(null, this); // the bytes with the NUL
        byte[] joined = new byte[Matrices.length(size, 1)];
        kmx.kmx_model_class_names(joined, this);
        return ClassNames.split(joined);
    }

    /**
     * The predicted class name of every row of data (see predict); IllegalStateException if the
     * model has no class names. ctx may be null.
     */
    public String[] predictNames(Context ctx, Dataset data) {
        String[] names = classNames();
        if (names.length == 0) {
            throw new IllegalStateException("the model has no class names: train it on a Dataset.createNamed "
                    + "dataset, or name its classes with setClassNames");
        }
        double[] labels = labels();
        double[] predicted = predict(ctx, data);
        String[] out = new String[predicted.length];
        for (int i = 0; i < predicted.length; i++) {
            int c = Arrays.binarySearch(labels, predicted[i]);
            if (c < 0) throw new IllegalStateException("predicted label " + predicted[i] + " is no class");
            out[i] = names[c];
        }
        return out;
    }

    /** What the model fits: Task.TASK_CLASSIFICATION or Task.TASK_REGRESSION (never TASK_AUTO). */
    public Task task() {
        return Task.swigToEnum((int) info(ModelInfoKey.INFO_TASK));
    }

    /** True for a regression model (predict() gives values, not labels). */
    public boolean isRegression() {
        return task() == Task.TASK_REGRESSION;
    }

    /** The ridge lambda of a kernel ridge regression method (0 for SVM methods). */
    public double lambda() {
        return info(ModelInfoKey.INFO_LAMBDA);
    }

    /** The cost C of an SVM method (0 for kernel ridge regression methods and one_class). */
    public double cost() {
        return info(ModelInfoKey.INFO_C);
    }

    /** The nu of a one-class SVM (Method.ONE_CLASS; 0 for every other method). */
    public double nu() {
        return info(ModelInfoKey.INFO_NU);
    }

    /**
     * The number of features d the model expects (more are an error, and so are fewer in dense data; a LIBSVM file
     * with fewer is padded with zeros).
     */
    public long columns() {
        return (long) info(ModelInfoKey.INFO_COLUMNS);
    }

    /** The number of distinct support vectors stored. */
    public long supportVectors() {
        return (long) info(ModelInfoKey.INFO_SUPPORT_VECTORS);
    }

    /** Decision values per row: 1 (binary or regression), c (one-vs-rest) or c(c-1)/2 (one-vs-one). */
    public int decisionValuesPerRow() {
        return (int) info(ModelInfoKey.INFO_DECISION_VALUES);
    }

    /** The dual objective, summed over the binary problems. */
    public double objective() {
        return info(ModelInfoKey.INFO_OBJECTIVE);
    }

    /** The largest final KKT violation over the binary problems. */
    public double kktViolation() {
        return info(ModelInfoKey.INFO_KKT_VIOLATION);
    }

    /** Solver iterations, summed over the binary problems. */
    public long iterations() {
        return (long) info(ModelInfoKey.INFO_ITERATIONS);
    }

    /** The wall-clock training time in seconds. */
    public double trainSeconds() {
        return info(ModelInfoKey.INFO_TRAIN_SECONDS);
    }

    /** True if the model has a bias term. */
    public boolean hasBias() {
        return info(ModelInfoKey.INFO_BIAS) != 0;
    }

    /** How more than two classes are combined (one-vs-one or one-vs-rest). */
    public Multiclass multiclass() {
        return Multiclass.swigToEnum((int) info(ModelInfoKey.INFO_MULTICLASS));
    }

    /** The predicted label (regression: value) of every row of data; ctx may be null. */
    public double[] predict(Context ctx, Dataset data) {
        double[] out = new double[Matrices.length(data.rows(), 1)];
        kmx.kmx_model_predict(out, ctx, this, data);
        return out;
    }

    /**
     * The decision values of every row of data, n x decisionValuesPerRow() row-major (one-vs-one
     * pairs in LIBSVM's order 0v1, 0v2, ..., 1v2, ...; f > 0 votes for the first class, and with
     * two classes for the larger label); ctx may be null.
     */
    public double[] decisionValues(Context ctx, Dataset data) {
        double[] out = new double[Matrices.length(data.rows(), decisionValuesPerRow())];
        kmx.kmx_model_decision_values(out, ctx, this, data);
        return out;
    }

    /** True if the model has probability estimates (an SVM classifier trained with Param.PROBABILITY = 1). */
    public boolean hasProbabilities() {
        return info(ModelInfoKey.INFO_PROBABILITY) != 0;
    }

    /**
     * The class probabilities of every row of data, n x classes() row-major in labels()' order, each row summing
     * to 1, as LIBSVM's -b 1 (kmx_model_predict_probability); ctx may be null. A model without them (trained
     * without Param.PROBABILITY = 1, a regression or one-class model) throws KmxException saying why.
     */
    public double[] predictProbability(Context ctx, Dataset data) {
        double[] out = new double[Matrices.length(data.rows(), classes())];
        kmx.kmx_model_predict_probability(out, ctx, this, data);
        return out;
    }

    /** The class probabilities as one row per row of data (see predictProbability). */
    public double[][] predictProbabilityRows(Context ctx, Dataset data) {
        return Matrices.byRow(predictProbability(ctx, data), classes());
    }

    /** The decision values as one row per row of data (see decisionValues). */
    public double[][] decisionValueRows(Context ctx, Dataset data) {
        return Matrices.byRow(decisionValues(ctx, data), decisionValuesPerRow());
    }
}
