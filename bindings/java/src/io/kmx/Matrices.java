package io.kmx;

/** Conversions between Java matrices and the dense row-major arrays of the C ABI. */
final class Matrices {
    private static final int MAX_ARRAY = Integer.MAX_VALUE - 8;

    private Matrices() {}

    /** The rows of x copied into one row-major array; ragged or null rows are rejected. */
    static double[] rowMajor(double[][] x, String name) {
        int d = columns(x, name);
        double[] values = new double[length(x.length, d)];
        for (int i = 0; i < x.length; i++) {
            System.arraycopy(x[i], 0, values, i * d, d);
        }
        return values;
    }

    /** The common row length of x (0 without rows). */
    static int columns(double[][] x, String name) {
        int d = x.length == 0 || x[0] == null ? 0 : x[0].length;
        for (int i = 0; i < x.length; i++) {
            if (x[i] == null) throw new IllegalArgumentException(name + ": row " + i + " is null");
            if (x[i].length != d) {
                throw new IllegalArgumentException(name + ": ragged rows: row " + i + " has " + x[i].length
                        + " values, row 0 has " + d);
            }
        }
        return d;
    }

    /** The number of rows of d values each in a row-major array. */
    static long rows(double[] values, long d, String name) {
        if (d <= 0) throw new IllegalArgumentException(name + ": d = " + d + " columns must be positive");
        if (values.length % d != 0) {
            throw new IllegalArgumentException(name + ": " + values.length + " values are not whole rows of d = " + d);
        }
        return values.length / d;
    }

    /** The length of a rows x cols array (0 if either is negative: C then rejects the call). */
    static int length(long rows, long cols) {
        long r = Math.max(rows, 0), c = Math.max(cols, 0);
        if (c != 0 && r > MAX_ARRAY / c) {
            throw new IllegalArgumentException(rows + " x " + cols + " values do not fit in a Java array");
        }
        return (int) (r * c);
    }

    /** A row-major array of perRow values a row as Java rows (none when perRow is 0). */
    static double[][] byRow(double[] values, int perRow) {
        return reshape(values, values.length / Math.max(perRow, 1), perRow);
    }

    /** A row-major array as rows x cols Java rows. */
    static double[][] reshape(double[] values, int rows, int cols) {
        double[][] matrix = new double[rows][];
        for (int i = 0; i < rows; i++) {
            matrix[i] = java.util.Arrays.copyOfRange(values, i * cols, (i + 1) * cols);
        }
        return matrix;
    }
}
