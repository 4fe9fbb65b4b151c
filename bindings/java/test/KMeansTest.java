import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.kmx.Context;
import io.kmx.Dataset;
import io.kmx.KMeans;
import io.kmx.KmxException;
import io.kmx.Status;
import java.util.Random;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/** k-means results against Java recomputations; assignment; errors. */
public class KMeansTest {
    private static final int K = 4;
    private static double[][] x;
    private static Dataset data;

    /** Four Gaussian blobs in 3-D. */
    @BeforeClass
    public static void makeBlobs() {
        Random rng = new Random(11);
        x = new double[800][3];
        for (int i = 0; i < x.length; i++) {
            for (int j = 0; j < 3; j++) x[i][j] = 5 * (i % K) * (j == i % 3 ? 1 : 0.5) + rng.nextGaussian();
        }
        data = Dataset.create(x);
    }

    @AfterClass
    public static void closeData() {
        data.close();
    }

    /** sum_i w_i |x_i - c(i)|^2 computed in Java. */
    private static double objective(KMeans result, double[] weights) {
        double sum = 0;
        for (int i = 0; i < x.length; i++) {
            sum += weights[i] * Reference.sqdist(x[i], result.center(result.assignment()[i]));
        }
        return sum;
    }

    private static double[] ones() {
        double[] w = new double[x.length];
        java.util.Arrays.fill(w, 1);
        return w;
    }

    @Test
    public void objectiveMatchesAJavaRecomputation() {
        try (Context ctx = Context.create("seed=3")) {
            KMeans result = KMeans.fit(ctx, data, K, "max_iter=100");
            assertEquals(K, result.k());
            assertEquals(K * 3, result.centers().length);
            Reference.assertClose("objective", objective(result, ones()), result.objective(), 1e-10, 0);
        }
    }

    @Test
    public void everyRowIsAssignedItsNearestCenter() {
        try (Context ctx = Context.create("seed=3")) {
            KMeans result = KMeans.fit(ctx, data, K, null);
            KMeans.Assignment assignment = result.assign(ctx, data);
            assertArrayEquals(result.assignment(), assignment.clusters());
            double sum = 0;
            for (int i = 0; i < x.length; i++) {
                double nearest = Double.POSITIVE_INFINITY;
                for (int c = 0; c < K; c++) nearest = Math.min(nearest, Reference.sqdist(x[i], result.center(c)));
                Reference.assertClose("row " + i, nearest, assignment.sqdist()[i], 1e-9, 1e-12);
                sum += assignment.sqdist()[i];
            }
            Reference.assertClose("sum of sqdist", result.objective(), sum, 1e-10, 0);
        }
    }

    @Test
    public void weightedObjective() {
        double[] w = new double[x.length];
        for (int i = 0; i < w.length; i++) w[i] = 1 + i % 3;
        try (Context ctx = Context.create("seed=3"); Dataset weighted = Dataset.create(x)) {
            weighted.setWeights(w);
            KMeans result = KMeans.fit(ctx, weighted, K, null);
            Reference.assertClose("weighted objective", objective(result, w), result.objective(), 1e-10, 0);
        }
    }

    @Test
    public void sameSeedSameResult() {
        try (Context one = Context.create("seed=9 threads=2"); Context two = Context.create("seed=9 threads=2")) {
            KMeans first = KMeans.fit(one, data, K, null);
            KMeans second = KMeans.fit(two, data, K, null);
            assertArrayEquals(first.centers(), second.centers(), 0);
            assertArrayEquals(first.assignment(), second.assignment());
        }
    }

    @Test
    public void badArguments() {
        KmxException zero = assertThrows(KmxException.class, () -> KMeans.fit(null, data, 0, null));
        assertSame(Status.INVALID_ARGUMENT, zero.status());
        assertThrows(KmxException.class, () -> KMeans.fit(null, data, x.length + 1, null));
        assertThrows(KmxException.class, () -> KMeans.fit(null, data, K, "max_iter=0"));
        assertThrows(IllegalArgumentException.class, () -> KMeans.assign(null, data, new double[7]));
        double[] nanCenters = {0, 0, Double.NaN};
        assertThrows(KmxException.class, () -> KMeans.assign(null, data, nanCenters));
    }

    @Test
    public void memoryBudgetTooSmall() {
        try (Context ctx = Context.create("memory_budget=65536");
             Dataset letter = Dataset.load(Reference.dataFile("letter_mc.train.libsvm"))) {
            KmxException e = assertThrows(KmxException.class, () -> KMeans.fit(ctx, letter, 26, null));
            assertSame(Status.OUT_OF_MEMORY, e.status());
            assertTrue(e.detail(), e.detail().contains("memory_budget"));
        }
    }
}
