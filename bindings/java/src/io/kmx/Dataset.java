package io.kmx;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Rows of features with optional labels and weights, dense or sparse (CSR); read-only once
 * created. kmx always keeps its own copy of the values given to it.
 */
public final class Dataset extends NativeResource {
    /** The distinct labels in increasing order and how many rows carry each. */
    public record Classes(double[] labels, long[] counts) {}

    /** The names of classes 0..k-1 of a dataset made from String labels; empty otherwise. */
    private final String[] classNames;

    private Dataset(long address) {
        this(address, new String[0]);
    }

    private Dataset(long address, String[] classNames) {
        super(address, freeing(address, kmx::kmx_dataset_free));
        this.classNames = classNames;
    }

    /** A dense dataset from rows of equal length (copied), without labels. */
    public static Dataset create(double[][] x) {
        return create(x, null);
    }

    /** A dense dataset from rows of equal length and labels y (null for none); both copied. */
    public static Dataset create(double[][] x, double[] y) {
        return create(Matrices.rowMajor(x, "x"), Matrices.columns(x, "x"), y);
    }

    /** A dense dataset from row-major x with d columns and labels y (null for none); copied. */
    public static Dataset create(double[] x, int d, double[] y) {
        long n = Matrices.rows(Objects.requireNonNull(x, "x"), d, "x");
        if (y != null && y.length != n) {
            throw new IllegalArgumentException("y has " + y.length + " labels for n = " + n + " rows");
        }
        return new Dataset(kmx.kmx_dataset_create(x, n, d, y));
    }

    /**
     * A dense dataset from rows of equal length and a class name per row (both copied): the distinct
     * names in increasing order (String.compareTo) are classes 0, 1, ..., k-1, the numeric labels
     * training sees (labels()). A model trained on it carries the names (Model.classNames, saved with
     * it) and predicts them (Model.predictNames). Each name is 1 to 255 bytes of UTF-8 without
     * control characters.
     */
    public static Dataset createNamed(double[][] x, String[] labels) {
        return createNamed(Matrices.rowMajor(x, "x"), Matrices.columns(x, "x"), labels);
    }

    /** Like createNamed(double[][], String[]), from row-major x with d columns. */
    public static Dataset createNamed(double[] x, int d, String[] labels) {
        long n = Matrices.rows(Objects.requireNonNull(x, "x"), d, "x");
        Objects.requireNonNull(labels, "labels");
        if (labels.length != n) {
            throw new IllegalArgumentException("labels has " + labels.length + " names for n = " + n + " rows");
        }
        String[] names = ClassNames.sortedDistinct(labels);
        return new Dataset(kmx.kmx_dataset_create(x, n, d, ClassNames.classes(names, labels)), names);
    }

    /**
     * A sparse dataset from CSR arrays (copied; SciPy's and Eigen's layout): row r holds entries
     * rowPtr[r] .. rowPtr[r+1]-1 of col (0-based columns, increasing within the row, below d) and
     * values; rowPtr has a first entry 0 and one entry per row after it. It stays sparse: a column a
     * row does not list is zero. Labels y: null for none.
     */
    public static Dataset createCsr(long[] rowPtr, int[] col, double[] values, long d, double[] y) {
        long n = Objects.requireNonNull(rowPtr, "rowPtr").length - 1L;
        if (n < 1) {
            throw new IllegalArgumentException("rowPtr needs n + 1 entries for n >= 1 rows, not " + rowPtr.length);
        }
        long entries = rowPtr[rowPtr.length - 1];
        if (Objects.requireNonNull(col, "col").length != entries
                || Objects.requireNonNull(values, "values").length != entries) {
            throw new IllegalArgumentException("col and values need rowPtr[n] = " + entries + " entries, not "
                    + col.length + " and " + values.length);
        }
        if (y != null && y.length != n) {
            throw new IllegalArgumentException("y has " + y.length + " labels for n = " + n + " rows");
        }
        return new Dataset(kmx.kmx_dataset_create_csr(null, rowPtr, col, values, n, d, y));
    }

    /** Reads a LIBSVM or CSV file (label first) with the default context. */
    public static Dataset load(String path) {
        return load(null, path, Format.AUTO);
    }

    /** Reads a LIBSVM or CSV file; ctx (may be null) bounds its size by the memory budget. */
    public static Dataset load(Context ctx, String path, Format format) {
        return new Dataset(kmx.kmx_dataset_load(ctx, path, format));
    }

    /**
     * Shard {@code shard} of {@code shards} of a LIBSVM, CSV or .kmxd file (kmx_dataset_load_shard): the
     * lines that start in that share of a text file's bytes, or that share of a .kmxd file's rows (a path
     * holding "%d" names one file per shard). With a context whose {@link Communicator} spans several
     * ranks the call is collective: every rank calls it (usually shard = its rank, shards = the ranks),
     * and if one fails, every rank throws that rank's error.
     */
    public static Dataset loadShard(Context ctx, String path, Format format, long shard, long shards) {
        return new Dataset(kmx.kmx_dataset_load_shard(ctx, path, format, shard, shards));
    }

    /** Like load, from text in memory; name appears in error messages. */
    public static Dataset parse(Context ctx, String text, Format format, String name) {
        return new Dataset(kmx.kmx_dataset_parse(ctx, text.getBytes(StandardCharsets.UTF_8), format, name));
    }

    /** Sets per-row weights (copied; finite, >= 0, not all zero; one per row). */
    public void setWeights(double[] w) {
        kmx.kmx_dataset_set_weights(this, w);
    }

    /** The number of rows n. */
    public long rows() {
        return kmx.kmx_dataset_rows(this);
    }

    /** The number of columns d. */
    public long cols() {
        return kmx.kmx_dataset_cols(this);
    }

    /** The number of stored values (n * d when dense). */
    public long nnz() {
        return kmx.kmx_dataset_nnz(this);
    }

    /** The number of values that are not zero: the stored ones but explicit zeros. */
    public long nonzeros() {
        return kmx.kmx_dataset_nonzeros(this);
    }

    /** True if stored sparse (CSR). */
    public boolean isSparse() {
        return kmx.kmx_dataset_is_sparse(this);
    }

    /** True if the dataset has labels or targets. */
    public boolean hasLabels() {
        return kmx.kmx_dataset_has_labels(this);
    }

    /** True if the dataset has weights. */
    public boolean hasWeights() {
        return kmx.kmx_dataset_has_weights(this);
    }

    /** Rows [begin, end) as dense row-major values. */
    public double[] rowValues(long begin, long end) {
        double[] out = new double[Matrices.length(end - begin, cols())];
        rowValues(begin, end, out);
        return out;
    }

    /** Copies rows [begin, end) into out, which must hold (end - begin) * cols() values. */
    public void rowValues(long begin, long end, double[] out) {
        kmx.kmx_dataset_get_rows(out, this, begin, end);
    }

    /** The n labels. */
    public double[] labels() {
        double[] out = new double[Matrices.length(rows(), 1)];
        kmx.kmx_dataset_get_labels(out, this);
        return out;
    }

    /**
     * The class names of a dataset made by createNamed, in class order (name i is label i); empty
     * for any other dataset.
     */
    public String[] classNames() {
        return classNames.clone();
    }

    /** The distinct labels and their counts. */
    public Classes classes() {
        int count = Matrices.length(kmx.kmx_dataset_classes(null, null, this), 1);
        Classes classes = new Classes(new double[count], new long[count]);
        kmx.kmx_dataset_classes(classes.labels(), classes.counts(), this);
        return classes;
    }

    /** Writes the dataset as a .kmxd file (loaded back mapped in place), its values as doubles or floats. */
    public void save(String path, Precision precision) {
        kmx.kmx_dataset_save(this, path, precision);
    }

    /** A dense copy (of a possibly sparse dataset) within ctx's budget; ctx may be null. */
    public Dataset toDense(Context ctx) {
        return new Dataset(kmx.kmx_dataset_to_dense(ctx, this), classNames);
    }
}
