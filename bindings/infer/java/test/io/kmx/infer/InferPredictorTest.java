package io.kmx.infer;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.kmx.Dataset;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * io.kmx.infer against the full binding (io.kmx.Predictor) on the bundled predictors
 * (-Dkmx.predictors: the Letter one of examples/mcu on the Letter test rows, the edge one of
 * examples/edge on random rows): labels, decision values, threads sharing a predictor, corrupt
 * blobs, bad rows, closing, memory, and where the native library was loaded from
 * (-Dkmx.infer.expect=jar|library_path).
 */
public class InferPredictorTest {
    /** A bundled predictor's blob, the rows it is tested on and the full binding's results on them. */
    private static final class Case {
        final String name;
        final byte[] blob;
        final double[] rows;
        final int features;
        final double[] labels;
        final double[] decisionValues;

        Case(Path path) throws IOException {
            name = path.getFileName().toString();
            blob = Files.readAllBytes(path);
            try (io.kmx.Predictor full = io.kmx.Predictor.fromBytes(blob)) {
                features = (int) full.columns();
                rows = features == LETTER_FEATURES ? letterRows() : randomRows(500, features);
                try (Dataset data = Dataset.create(rows, features, null)) {
                    labels = full.predict(null, data);
                    decisionValues = full.decisionValues(null, data);
                }
            }
        }

        int count() {
            return rows.length / features;
        }

        double[] row(int i) {
            double[] x = new double[features];
            System.arraycopy(rows, i * features, x, 0, features);
            return x;
        }
    }

    private static final int LETTER_FEATURES = 16;
    private static final List<Case> CASES = new ArrayList<>();

    @BeforeClass
    public static void readPredictors() throws IOException {
        for (String path : System.getProperty("kmx.predictors").split(",")) CASES.add(new Case(Paths.get(path)));
    }

    private static double[] letterRows() {
        try (Dataset test = Dataset.load(Paths.get(System.getProperty("kmx.data"), "letter_bin.test.libsvm").toString())) {
            assertEquals(LETTER_FEATURES, test.cols());
            return test.rowValues(0, test.rows());
        }
    }

    private static double[] randomRows(int count, int features) {
        Random random = new Random(15);
        double[] rows = new double[count * features];
        for (int i = 0; i < rows.length; i++) rows[i] = 3 * random.nextDouble() - 1.5;
        return rows;
    }

    /** Predicts rows [begin, end) of c with one scratch; returns their labels. */
    private static double[] predictRows(Predictor predictor, Case c, int begin, int end) {
        Scratch scratch = predictor.newScratch();
        double[] labels = new double[end - begin];
        for (int i = begin; i < end; i++) labels[i - begin] = predictor.predict(c.row(i), scratch);
        return labels;
    }

    @Test
    public void nativeLibraryComesFromTheExpectedPlace() {
        Predictor.open(CASES.get(0).blob).close();  // loads the library
        String expected = System.getProperty("kmx.infer.expect");
        String source = NativeLibrary.source();
        assertTrue(source, expected.equals("jar") ? source.startsWith("jar:/io/kmx/infer/native/linux-")
                                                  : source.equals("java.library.path"));
    }

    @Test
    public void labelsAndDecisionValuesEqualTheFullBinding() {
        for (Case c : CASES) {
            try (Predictor predictor = Predictor.open(c.blob);
                 io.kmx.Predictor full = io.kmx.Predictor.fromBytes(c.blob)) {
                assertEquals(c.features, predictor.features());
                assertEquals(full.decisionValuesPerRow(), predictor.outputs());
                assertEquals(full.classes(), predictor.classes());
                assertEquals(full.isFloat32(), predictor.isFloat32());
                Scratch scratch = predictor.newScratch();
                double[] outputs = new double[predictor.outputs()];
                // The C++ predictor and kmx_infer agree to 1e-12 in double, 1e-4 in float (kmx_infer.h).
                double tolerance = predictor.isFloat32() ? 1e-4 : 1e-12;
                for (int i = 0; i < c.count(); i++) {
                    assertEquals(c.name + " row " + i, c.labels[i], predictor.predict(c.row(i), outputs, scratch), 0);
                    for (int k = 0; k < outputs.length; k++) {
                        double expected = c.decisionValues[i * outputs.length + k];
                        assertEquals(c.name + " row " + i, expected, outputs[k],
                                     tolerance * Math.max(1, Math.abs(expected)));
                    }
                }
            }
        }
    }

    /**
     * A predictor built here from a model trained with probabilities (float64 storage): io.kmx.infer's probabilities
     * equal the full binding's on the same blob to 1e-12 and sum to 1; a bundled predictor (no sigmoids) throws
     * KMX_INFER_E_NO_PROBABILITIES.
     */
    @Test
    public void probabilitiesEqualTheFullBinding() {
        try (io.kmx.Context ctx = io.kmx.Context.create("threads=1 seed=3");
                io.kmx.Kernel rbf = io.kmx.Kernel.createFromString("kernel=rbf gamma=2");
                Dataset letter = Dataset.load(Paths.get(System.getProperty("kmx.data"), "letter_mc.train.libsvm").toString());
                io.kmx.Solver solver = io.kmx.Solver.createFromString("method=svm C=8 probability=1")) {
            int d = (int) letter.cols();
            double[] values = letter.rowValues(0, 200);
            try (Dataset train = Dataset.create(values, d, Arrays.copyOf(letter.labels(), 200));
                    io.kmx.Model model = solver.train(ctx, rbf, train);
                    io.kmx.Predictor full = io.kmx.Predictor.build(ctx, model, train, "leaves=2 landmarks=40 storage=float64");
                    Predictor predictor = Predictor.open(full.toBytes())) {
                assertTrue(predictor.hasProbabilities());
                double[] expected = full.predictProbability(ctx, train);
                Scratch scratch = predictor.newScratch();
                int k = predictor.classes();
                for (int i = 0; i < 200; i++) {
                    double[] p = predictor.predictProbability(Arrays.copyOfRange(values, d * i, d * i + d), scratch);
                    double sum = 0;
                    for (int c = 0; c < k; c++) {
                        assertEquals("row " + i, expected[i * k + c], p[c], 1e-12);
                        sum += p[c];
                    }
                    assertEquals(1, sum, 1e-12);
                }
            }
        }
        try (Predictor without = Predictor.open(CASES.get(0).blob)) {
            assertTrue(!without.hasProbabilities());
            InferException e = assertThrows(InferException.class,
                    () -> without.predictProbability(CASES.get(0).row(0), without.newScratch()));
            assertEquals("KMX_INFER_E_NO_PROBABILITIES", e.statusName());
        }
    }

    @Test
    public void threadsShareOnePredictor() throws Exception {
        Case c = CASES.get(0);
        int threads = 8;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try (Predictor predictor = Predictor.open(c.blob)) {
            List<Future<double[]>> parts = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                // Each thread predicts every row, starting at its own offset, with its own scratch.
                final int shift = t * c.count() / threads;
                parts.add(pool.submit(() -> {
                    double[] labels = new double[c.count()];
                    double[] tail = predictRows(predictor, c, shift, c.count());
                    double[] head = predictRows(predictor, c, 0, shift);
                    System.arraycopy(tail, 0, labels, shift, tail.length);
                    System.arraycopy(head, 0, labels, 0, head.length);
                    return labels;
                }));
            }
            for (Future<double[]> part : parts) assertArrayEquals(c.labels, part.get(), 0);
        } finally {
            pool.shutdown();
        }
    }

    @Test
    public void corruptBlobsThrowTheStatus() {
        byte[] blob = CASES.get(0).blob;
        byte[] flipped = blob.clone();
        flipped[flipped.length / 2] ^= 0x40;
        byte[][] corrupt = {flipped, Arrays.copyOf(blob, blob.length - 8), new byte[0],
                            "not a predictor".getBytes(StandardCharsets.UTF_8)};
        for (byte[] bytes : corrupt) {
            InferException e = assertThrows(InferException.class, () -> Predictor.open(bytes));
            assertEquals(3, e.code());
            assertEquals("KMX_INFER_E_FORMAT", e.statusName());
            assertEquals("kmx_infer_required_bytes: KMX_INFER_E_FORMAT", e.getMessage());
        }
        assertThrows(IndexOutOfBoundsException.class, () -> Predictor.open(blob, 8, blob.length));
    }

    @Test
    public void badRowsThrowTheStatus() {
        Case c = CASES.get(0);
        try (Predictor predictor = Predictor.open(c.blob)) {
            Scratch scratch = predictor.newScratch();
            InferException e = assertThrows(InferException.class,
                () -> predictor.predict(new double[c.features - 1], scratch));
            assertEquals("KMX_INFER_E_INVALID_ARGUMENT", e.statusName());
            e = assertThrows(InferException.class,
                () -> predictor.predict(c.row(0), new double[0], scratch));
            assertEquals("KMX_INFER_E_INVALID_ARGUMENT", e.statusName());
            assertThrows(NullPointerException.class, () -> predictor.predict(null, scratch));
        }
    }

    @Test
    public void opensFromAStreamAndAnOffset() throws IOException {
        Case c = CASES.get(0);
        byte[] padded = new byte[c.blob.length + 3];
        System.arraycopy(c.blob, 0, padded, 3, c.blob.length);
        try (Predictor fromStream = Predictor.open(new ByteArrayInputStream(c.blob));
             Predictor fromOffset = Predictor.open(padded, 3, c.blob.length)) {
            assertArrayEquals(c.labels, predictRows(fromStream, c, 0, c.count()), 0);
            assertArrayEquals(c.labels, predictRows(fromOffset, c, 0, c.count()), 0);
        }
    }

    @Test
    public void closedPredictorsRefuseCalls() {
        Case c = CASES.get(0);
        Predictor predictor = Predictor.open(c.blob);
        Scratch scratch = predictor.newScratch();
        predictor.close();
        predictor.close();
        assertThrows(IllegalStateException.class, () -> predictor.predict(c.row(0), scratch));
        assertThrows(IllegalStateException.class, predictor::newScratch);
    }

    /** Opening and closing many predictors leaves no native memory behind once collected. */
    @Test
    public void closedPredictorsReleaseTheirMemory() throws InterruptedException {
        Case c = CASES.get(0);
        BufferPoolMXBean direct = null;
        for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
            if (pool.getName().equals("direct")) direct = pool;
        }
        long before = direct.getMemoryUsed();
        for (int i = 0; i < 500; i++) {
            try (Predictor predictor = Predictor.open(c.blob)) {
                predictor.predict(c.row(i % c.count()), predictor.newScratch());
            }
        }
        long allowed = before + 4L * c.blob.length;
        for (int wait = 0; wait < 100 && direct.getMemoryUsed() > allowed; wait++) {
            System.gc();
            Thread.sleep(50);
        }
        assertTrue(direct.getMemoryUsed() + " bytes of direct memory, " + before + " before 500 predictors",
                   direct.getMemoryUsed() <= allowed);
    }
}
