import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.kmx.Dataset;
import io.kmx.Kernel;
import io.kmx.KmxException;
import io.kmx.Model;
import io.kmx.Solver;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.Test;

/**
 * String labels: a dataset from names, a classifier that predicts names, and names that survive
 * save and load (file and buffer).
 */
public class ClassNamesTest {
    /** A name beyond the BMP and with accents: UTF-8, not JNI's modified UTF-8, must reach the file. */
    private static final String BEE = "Ünïcode ✓ \uD83D\uDC1D";
    private static final String[] NAMES = {"zebra", "apple", BEE};
    /** Sorted by String.compareTo: "apple" < "zebra" < "Ü..." (U+00DC > 'z'). */
    private static final String[] SORTED = {"apple", "zebra", BEE};
    private static final double[][] CENTERS = {{0, 0}, {6, 0}, {0, 6}};
    private static final int PER_CLASS = 20;

    /** Three well separated clusters, rows interleaved, named NAMES[cluster]: zebra at (0, 0), apple at (6, 0). */
    private static double[][] rows(String[] labels) {
        Random random = new Random(42);
        double[][] x = new double[labels.length][];
        for (int i = 0; i < labels.length; i++) {
            int c = i % CENTERS.length;
            x[i] = new double[] {CENTERS[c][0] + random.nextDouble() - 0.5, CENTERS[c][1] + random.nextDouble() - 0.5};
            labels[i] = NAMES[c];
        }
        return x;
    }

    private static boolean contains(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) continue outer;
            }
            return true;
        }
        return false;
    }

    private static Model train(Dataset data) {
        try (Solver solver = Solver.createFromString("method=svm C=10");
             Kernel kernel = Kernel.createFromString("kernel=rbf gamma=0.5")) {
            return solver.train(null, kernel, data);
        }
    }

    @Test
    public void stringLabelsTrainAClassifierThatPredictsNames() throws Exception {
        String[] labels = new String[CENTERS.length * PER_CLASS];
        double[][] x = rows(labels);
        try (Dataset data = Dataset.createNamed(x, labels); Model model = train(data)) {
            assertArrayEquals(SORTED, data.classNames());
            double[] numeric = data.labels();
            for (int i = 0; i < labels.length; i++) assertEquals(SORTED[(int) numeric[i]], labels[i]);
            assertArrayEquals(new double[] {0, 1, 2}, data.classes().labels(), 0);

            assertTrue(model.hasClassNames());
            assertArrayEquals(SORTED, model.classNames());
            assertArrayEquals(new double[] {0, 1, 2}, model.labels(), 0);
            assertArrayEquals(labels, model.predictNames(null, data));
            // New rows near each center get that center's name.
            double[][] probe = {{6.2, 0.1}, {0.1, 5.8}, {-0.2, 0.3}};
            try (Dataset query = Dataset.create(probe)) {
                assertArrayEquals(new String[] {"apple", BEE, "zebra"}, model.predictNames(null, query));
            }
        }
    }

    @Test
    public void namesSurviveSaveAndLoad() throws Exception {
        String[] labels = new String[CENTERS.length * PER_CLASS];
        double[][] x = rows(labels);
        Path file = Files.createTempFile("kmx-names-", ".kmx");
        try (Dataset data = Dataset.createNamed(x, labels); Model model = train(data)) {
            model.save(file.toString());
            // The names are stored as UTF-8 (the bee is F0 9F 90 9D), not JNI's modified UTF-8.
            assertTrue(contains(model.saveToBuffer(), BEE.getBytes(StandardCharsets.UTF_8)));
            assertTrue(contains(Files.readAllBytes(file), BEE.getBytes(StandardCharsets.UTF_8)));
            try (Model fromFile = Model.load(file.toString());
                 Model fromBuffer = Model.loadFromBuffer(model.saveToBuffer())) {
                for (Model loaded : new Model[] {fromFile, fromBuffer}) {
                    assertTrue(loaded.hasClassNames());
                    assertArrayEquals(SORTED, loaded.classNames());
                    assertArrayEquals(labels, loaded.predictNames(null, data));
                }
            }
        } finally {
            Files.deleteIfExists(file);
        }
    }

    @Test
    public void numericModelsTakeNamesAndLoseThem() throws Exception {
        double[][] x = {{0, 0}, {0.2, 0.1}, {0.1, 0.3}, {4, 4}, {4.2, 3.9}, {3.8, 4.1}};
        double[] y = {-1, -1, -1, 1, 1, 1};
        try (Dataset data = Dataset.create(x, y); Model model = train(data)) {
            assertEquals(0, data.classNames().length);
            assertFalse(model.hasClassNames());
            assertEquals(0, model.classNames().length);
            IllegalStateException none =
                    assertThrows(IllegalStateException.class, () -> model.predictNames(null, data));
            assertTrue(none.getMessage(), none.getMessage().contains("no class names"));

            model.setClassNames("minus", "plus"); // labels() is {-1, 1}
            assertArrayEquals(new String[] {"minus", "minus", "minus", "plus", "plus", "plus"},
                              model.predictNames(null, data));
            try (Model copy = Model.loadFromBuffer(model.saveToBuffer())) {
                assertArrayEquals(new String[] {"minus", "plus"}, copy.classNames());
            }
            model.setClassNames(); // none: removed
            assertFalse(model.hasClassNames());
            try (Model copy = Model.loadFromBuffer(model.saveToBuffer())) {
                assertFalse(copy.hasClassNames());
            }

            // C's checks: one name per class, all distinct.
            assertThrows(KmxException.class, () -> model.setClassNames("only one"));
            assertThrows(KmxException.class, () -> model.setClassNames("same", "same"));
            assertFalse(model.hasClassNames());
        }
    }

    @Test
    public void badNamesAreRejected() {
        double[][] x = {{0}, {1}};
        assertThrows(NullPointerException.class, () -> Dataset.createNamed(x, new String[] {"a", null}));
        assertThrows(IllegalArgumentException.class, () -> Dataset.createNamed(x, new String[] {"a"}));
        assertThrows(IllegalArgumentException.class, () -> Dataset.createNamed(x, new String[] {"a", ""}));
        assertThrows(IllegalArgumentException.class, () -> Dataset.createNamed(x, new String[] {"a", "tab\there"}));
        assertThrows(IllegalArgumentException.class, () -> Dataset.createNamed(x, new String[] {"a", "\uD800"}));
        String longest = "€".repeat(85); // 255 bytes of UTF-8
        assertThrows(IllegalArgumentException.class, () -> Dataset.createNamed(x, new String[] {"a", longest + "x"}));
        try (Dataset data = Dataset.createNamed(x, new String[] {"a", longest}); Model model = train(data)) {
            assertArrayEquals(new String[] {"a", longest}, model.classNames());
            try (Model copy = Model.loadFromBuffer(model.saveToBuffer())) {
                assertArrayEquals(new String[] {"a", longest}, copy.classNames());
            }
        }
    }
}
