import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.kmx.Context;
import io.kmx.Dataset;
import io.kmx.Format;
import io.kmx.KmxException;
import io.kmx.Status;
import java.util.Arrays;
import java.util.Random;
import java.util.TreeMap;
import org.junit.Test;

/** Creating, loading and reading datasets; bad input and closed handles. */
public class DatasetTest {
    private static final double[][] X = {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}, {10, 11, 12}};
    private static final double[] Y = {2, 1, 2, 2};

    @Test
    public void savedKmxdLoadsBackTheSameRows() throws java.io.IOException {
        java.nio.file.Path path = java.nio.file.Files.createTempFile("kmx", ".kmxd");
        try (Dataset ds = Dataset.create(X, Y)) {
            ds.save(path.toString(), io.kmx.Precision.PRECISION_FLOAT64);
            try (Dataset back = Dataset.load(path.toString())) {
                assertEquals(4, back.rows());
                assertArrayEquals(ds.rowValues(0, 4), back.rowValues(0, 4), 0);
                assertArrayEquals(Y, back.labels(), 0);
            }
            assertThrows(KmxException.class, () -> ds.save("/nonexistent-dir/x.kmxd", io.kmx.Precision.PRECISION_FLOAT64));
        } finally {
            java.nio.file.Files.deleteIfExists(path);
        }
    }

    @Test
    public void denseRowsAndLabelsRoundTrip() {
        try (Dataset ds = Dataset.create(X, Y)) {
            assertEquals(4, ds.rows());
            assertEquals(3, ds.cols());
            assertEquals(12, ds.nnz());
            assertFalse(ds.isSparse());
            assertTrue(ds.hasLabels());
            assertFalse(ds.hasWeights());
            assertArrayEquals(new double[] {4, 5, 6, 7, 8, 9}, ds.rowValues(1, 3), 0);
            assertArrayEquals(Y, ds.labels(), 0);
            double[] out = new double[3];
            ds.rowValues(3, 4, out);
            assertArrayEquals(X[3], out, 0);
        }
    }

    @Test
    public void csrArraysMakeASparseDatasetOfTheSameRows() {
        long[] rowPtr = {0, 2, 2, 3};  // X's shape with zeros: {1, 0, 3}, {0, 0, 0}, {0, 8, 0}
        try (Dataset ds = Dataset.createCsr(rowPtr, new int[] {0, 2, 1}, new double[] {1, 3, 8}, 3, new double[] {1, -1, 1})) {
            assertTrue(ds.isSparse());
            assertEquals(3, ds.nnz());
            assertArrayEquals(new double[] {1, 0, 3, 0, 0, 0, 0, 8, 0}, ds.rowValues(0, 3), 0);
            assertArrayEquals(new double[] {1, -1, 1}, ds.labels(), 0);
        }
        KmxException unsorted = assertThrows(KmxException.class,
                () -> Dataset.createCsr(rowPtr, new int[] {2, 0, 1}, new double[] {1, 3, 8}, 3, null));
        assertTrue(unsorted.getMessage(), unsorted.getMessage().contains("row 0's columns are not increasing"));
        IllegalArgumentException shortValues = assertThrows(IllegalArgumentException.class,
                () -> Dataset.createCsr(rowPtr, new int[] {0, 2, 1}, new double[] {1, 3}, 3, null));
        assertTrue(shortValues.getMessage().contains("rowPtr[n] = 3 entries"));
    }

    @Test
    public void rowMajorCreate() {
        double[] flat = {1, 2, 3, 4, 5, 6};
        try (Dataset ds = Dataset.create(flat, 2, null)) {
            assertEquals(3, ds.rows());
            assertFalse(ds.hasLabels());
            assertArrayEquals(flat, ds.rowValues(0, 3), 0);
        }
    }

    @Test
    public void datasetKeepsItsOwnCopy() {
        double[][] x = {{1, 2}, {3, 4}};
        try (Dataset ds = Dataset.create(x)) {
            x[0][0] = 99;
            assertArrayEquals(new double[] {1, 2, 3, 4}, ds.rowValues(0, 2), 0);
        }
    }

    @Test
    public void classesMatchAJavaCount() {
        try (Dataset ds = Dataset.load(Reference.dataFile("letter_mc.train.libsvm"))) {
            TreeMap<Double, Long> expected = new TreeMap<>();
            for (double label : ds.labels()) expected.merge(label, 1L, Long::sum);
            Dataset.Classes classes = ds.classes();
            assertEquals(expected.size(), classes.labels().length);
            int i = 0;
            for (var entry : expected.entrySet()) {
                assertEquals(entry.getKey(), classes.labels()[i], 0);
                assertEquals((long) entry.getValue(), classes.counts()[i]);
                i++;
            }
        }
    }

    @Test
    public void loadLetter() {
        try (Context ctx = Context.create(); Dataset ds = Dataset.load(ctx, Reference.dataFile("letter_mc.train.libsvm"), Format.LIBSVM)) {
            assertEquals(12000, ds.rows());
            assertEquals(16, ds.cols());
            assertEquals(26, ds.classes().labels().length);
        }
    }

    @Test
    public void sparseParseAndToDense() {
        String text = "1 3:0.5 2000:2\n-1 1:1.5\n1 2:-1 3:4\n";
        try (Context ctx = Context.create(); Dataset sparse = Dataset.parse(ctx, text, Format.LIBSVM, "inline");
             Dataset dense = sparse.toDense(ctx)) {
            assertTrue(sparse.isSparse());
            assertEquals(5, sparse.nnz());
            assertEquals(2000, sparse.cols());
            assertFalse(dense.isSparse());
            assertEquals(3 * 2000, dense.nnz());
            double[] rows = dense.rowValues(0, 3);
            assertArrayEquals(rows, sparse.rowValues(0, 3), 0);
            assertEquals(0.5, rows[2], 0);
            assertEquals(2, rows[1999], 0);
            assertEquals(1.5, rows[2000], 0);
            assertEquals(4, rows[4002], 0);
            assertArrayEquals(new double[] {1, -1, 1}, sparse.labels(), 0);
        }
    }

    @Test
    public void csvParse() {
        try (Dataset ds = Dataset.parse(null, "0,1.5,2\n1,3,4.25\n", Format.AUTO, "inline.csv")) {
            assertArrayEquals(new double[] {1.5, 2, 3, 4.25}, ds.rowValues(0, 2), 0);
            assertArrayEquals(new double[] {0, 1}, ds.labels(), 0);
        }
    }

    @Test
    public void weights() {
        try (Dataset ds = Dataset.create(X)) {
            ds.setWeights(new double[] {1, 2, 0, 1});
            assertTrue(ds.hasWeights());
            KmxException e = assertThrows(KmxException.class, () -> ds.setWeights(new double[] {-1, 1, 1, 1}));
            assertSame(Status.INVALID_ARGUMENT, e.status());
        }
    }

    @Test
    public void nanInTheDataIsRejectedByC() {
        double[][] x = {{1, 2}, {Double.NaN, 4}};
        KmxException e = assertThrows(KmxException.class, () -> Dataset.create(x));
        assertSame(Status.INVALID_ARGUMENT, e.status());
        assertTrue(e.detail(), e.detail().contains("NaN"));
        double[][] infinite = {{1, Double.POSITIVE_INFINITY}};
        assertThrows(KmxException.class, () -> Dataset.create(infinite));
    }

    @Test
    public void raggedRowsAreRejected() {
        double[][] ragged = {{1, 2, 3}, {4, 5}};
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Dataset.create(ragged));
        assertTrue(e.getMessage(), e.getMessage().contains("ragged"));
    }

    @Test
    public void wrongSizedArrays() {
        // C takes a length: C detects it.
        try (Dataset ds = Dataset.create(X)) {
            KmxException weights = assertThrows(KmxException.class, () -> ds.setWeights(new double[] {1, 1}));
            assertSame(Status.INVALID_ARGUMENT, weights.status());
            KmxException rows = assertThrows(KmxException.class, () -> ds.rowValues(0, 2, new double[5]));
            assertSame(Status.INVALID_ARGUMENT, rows.status());
            assertTrue(rows.detail(), rows.detail().contains("out"));
            assertThrows(KmxException.class, () -> ds.rowValues(2, 7));
        }
        // C does not: the Java layer does.
        assertThrows(IllegalArgumentException.class, () -> Dataset.create(new double[] {1, 2, 3}, 2, null));
        assertThrows(IllegalArgumentException.class, () -> Dataset.create(X, new double[] {1, 2}));
        assertThrows(IllegalArgumentException.class, () -> Dataset.create(new double[] {1, 2}, 0, null));
    }

    @Test
    public void fileErrors() {
        KmxException missing = assertThrows(KmxException.class, () -> Dataset.load("/no/such/file.libsvm"));
        assertSame(Status.IO, missing.status());
        KmxException malformed = assertThrows(KmxException.class,
                () -> Dataset.parse(null, "1 1:0.5\n2 1:x\n", Format.LIBSVM, "bad.libsvm"));
        assertSame(Status.FORMAT, malformed.status());
        assertTrue(malformed.detail(), malformed.detail().contains("bad.libsvm"));
    }

    @Test
    public void closedDatasetPassesNullToC() {
        Dataset ds = Dataset.create(X);
        ds.close();
        ds.close();
        KmxException e = assertThrows(KmxException.class, ds::rows);
        assertSame(Status.INVALID_ARGUMENT, e.status());
        assertTrue(e.detail(), e.detail().contains("NULL"));
        assertThrows(KmxException.class, ds::labels);
        assertThrows(KmxException.class, ds::classes);
        assertThrows(KmxException.class, () -> ds.toDense(null));
        assertThrows(KmxException.class, () -> ds.setWeights(new double[] {1}));
    }

    @Test
    public void largeRandomDatasetRoundTrips() {
        double[][] x = Reference.random(new Random(5), 500, 7);
        try (Dataset ds = Dataset.create(x)) {
            double[] rows = ds.rowValues(0, 500);
            for (int i = 0; i < 500; i++) {
                assertArrayEquals(x[i], Arrays.copyOfRange(rows, i * 7, i * 7 + 7), 0);
            }
        }
    }
}
