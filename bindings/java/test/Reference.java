import static org.junit.Assert.assertEquals;

import io.kmx.Dataset;
import io.kmx.KernelType;
import java.util.Arrays;
import java.nio.file.Path;
import java.util.Random;

/** Independent Java references (plain loops) and test data for the kmx tests. */
final class Reference {
    private Reference() {}

    /** A file of examples/data (the build passes the directory as -Dkmx.data). */
    static String dataFile(String name) {
        return Path.of(System.getProperty("kmx.data", "examples/data"), name).toString();
    }

    /** A dense copy of rows [begin, end) of data with their labels (as scenario.c's rows_of). */
    static Dataset rows(Dataset data, int begin, int end) {
        double[] labels = Arrays.copyOfRange(data.labels(), begin, end);
        return Dataset.create(data.rowValues(begin, end), (int) data.cols(), labels);
    }

    /** The fraction of equal entries. */
    static double agreement(double[] expected, double[] actual) {
        assertEquals(expected.length, actual.length);
        int equal = 0;
        for (int i = 0; i < expected.length; i++) {
            if (expected[i] == actual[i]) equal++;
        }
        return (double) equal / expected.length;
    }

    /** rows x cols values uniform in [0, 1). */
    static double[][] random(Random rng, int rows, int cols) {
        double[][] x = new double[rows][cols];
        for (double[] row : x) {
            for (int j = 0; j < cols; j++) row[j] = rng.nextDouble();
        }
        return x;
    }

    /** K(a, b) by the definitions in kmx.h. */
    static double kernel(KernelType type, double gamma, double coef0, int degree, double[] a, double[] b) {
        switch (type) {
            case RBF: return Math.exp(-gamma * sqdist(a, b));
            case LAPLACIAN: return Math.exp(-gamma * l1dist(a, b));
            case POLYNOMIAL: return Math.pow(gamma * dot(a, b) + coef0, degree);
            case LINEAR: return dot(a, b);
            case SIGMOID: return Math.tanh(gamma * dot(a, b) + coef0);
            default: throw new IllegalArgumentException(type.toString());
        }
    }

    static double dot(double[] a, double[] b) {
        double sum = 0;
        for (int j = 0; j < a.length; j++) sum += a[j] * b[j];
        return sum;
    }

    static double sqdist(double[] a, double[] b) {
        double sum = 0;
        for (int j = 0; j < a.length; j++) sum += (a[j] - b[j]) * (a[j] - b[j]);
        return sum;
    }

    static double l1dist(double[] a, double[] b) {
        double sum = 0;
        for (int j = 0; j < a.length; j++) sum += Math.abs(a[j] - b[j]);
        return sum;
    }

    /** |expected - actual| within rtol relative to expected, or atol absolute. */
    static void assertClose(String what, double expected, double actual, double rtol, double atol) {
        assertEquals(what, expected, actual, Math.max(atol, rtol * Math.abs(expected)));
    }
}
