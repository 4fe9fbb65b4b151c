import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.kmx.ApproxMethod;
import io.kmx.Approximation;
import io.kmx.Context;
import io.kmx.Dataset;
import io.kmx.Kernel;
import io.kmx.KmxException;
import io.kmx.Library;
import io.kmx.Param;
import io.kmx.Status;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Kernel approximations (Nystrom, k-means Nystrom, MEKA) on 500 Letter rows, checked against the
 * exact kernel matrix computed by kmx_kernel_block_rows and against their own solve identity.
 */
public class ApproximationTest {
    private static final int N = 500;
    private static Context ctx;
    private static Kernel rbf;
    private static Dataset data;
    private static double[] gram; // the exact N x N kernel matrix
    private static double[] v;

    @BeforeClass
    public static void load() {
        ctx = Context.create("threads=2 seed=3");
        rbf = Kernel.createFromString("kernel=rbf gamma=0.5");
        try (Dataset letter = Dataset.load(Reference.dataFile("letter_mc.train.libsvm"))) {
            data = Reference.rows(letter, 0, N);
        }
        gram = rbf.blockRows(ctx, data, 0, N, data, 0, N);
        v = new double[N];
        for (int i = 0; i < N; i++) v[i] = (i % 7) - 3;
    }

    @AfterClass
    public static void closeAll() {
        data.close();
        rbf.close();
        ctx.close();
    }

    private static double[] exactMatvec(double[] x) {
        double[] out = new double[N];
        for (int i = 0; i < N; i++) {
            for (int j = 0; j < N; j++) out[i] += gram[i * N + j] * x[j];
        }
        return out;
    }

    private static double relativeGap(double[] expected, double[] actual) {
        double diff = 0, norm = 0;
        for (int i = 0; i < expected.length; i++) {
            diff += (expected[i] - actual[i]) * (expected[i] - actual[i]);
            norm += expected[i] * expected[i];
        }
        return Math.sqrt(diff / norm);
    }

    /** The exact |G - G~|_F / |G|_F from the Gram matrix, G~ column by column through matvec. */
    private static double frobeniusError(Approximation approx) {
        double diff = 0, norm = 0;
        double[] unit = new double[N];
        for (int j = 0; j < N; j++) {
            unit[j] = 1;
            double[] column = approx.matvec(null, unit);
            unit[j] = 0;
            for (int i = 0; i < N; i++) {
                double g = gram[i * N + j];
                diff += (g - column[i]) * (g - column[i]);
                norm += g * g;
            }
        }
        return Math.sqrt(diff / norm);
    }

    @Test
    public void mekaApproximatesTheKernelMatrix() {
        try (Approximation meka = Approximation.create(ctx, rbf, data, "approx=meka rank=16 clusters=4")) {
            assertEquals(N, meka.rows());
            long rank = meka.rank(); // at most c * k columns of W (fewer where a cluster's block has lower rank)
            assertTrue("rank " + rank, rank > 16 && rank <= 64);
            assertTrue(meka.memoryBytes() > 0 && meka.memoryBytes() < 8L * N * N);
            double reported = meka.relativeError(ctx, data, N); // exact when sample_rows >= n
            double recomputed = frobeniusError(meka);
            System.out.printf("ApproximationTest: meka rank %d, %d bytes, relative error %.4f (recomputed %.4f)%n",
                    meka.rank(), meka.memoryBytes(), reported, recomputed);
            assertEquals(recomputed, reported, 1e-9);
            assertTrue("error " + reported, reported < 0.5);
            double sampled = meka.relativeError(ctx, data, 100);
            assertTrue(sampled > 0 && sampled < 1);
            assertTrue(relativeGap(exactMatvec(v), meka.matvec(ctx, v)) < 0.5);
        }
    }

    /** (G~ + lambda I) x = v for x = solve(lambda, v): Woodbury's identity checked through matvec. */
    @Test
    public void solveInvertsTheRegularisedApproximation() {
        for (String params : new String[] {"approx=meka rank=16 clusters=4", "approx=nystrom centers=60",
                "approx=kmeans_nystrom centers=40 rank=20"}) {
            try (Approximation approx = Approximation.create(ctx, rbf, data, params)) {
                for (double lambda : new double[] {1e-2, 1}) {
                    double[] x = approx.solve(ctx, lambda, v);
                    double[] back = approx.matvec(ctx, x);
                    for (int i = 0; i < N; i++) back[i] += lambda * x[i];
                    double gap = relativeGap(v, back);
                    assertTrue(params + " lambda " + lambda + ": " + gap, gap < 1e-8);
                }
            }
        }
    }

    /** Nystrom on every row as a landmark is exact; truncation to rank k leaves k columns. */
    @Test
    public void nystromRanks() {
        try (Approximation full = Approximation.create(null, rbf, data, "approx=nystrom centers=" + N)) {
            assertTrue("rank " + full.rank(), full.rank() > 0.9 * N && full.rank() <= N); // numerically singular directions dropped
            assertTrue(full.relativeError(null, data, N) < 1e-6);
            assertTrue(relativeGap(exactMatvec(v), full.matvec(null, v)) < 1e-6);
        }
        try (Approximation truncated = Approximation.create(null, rbf, data, "approx=nystrom centers=80 rank=30");
             Approximation kmeans = Approximation.create(null, rbf, data,
                     "approx=" + Library.paramValueName(Param.APPROX, ApproxMethod.KMEANS_NYSTROM) + " centers=30")) {
            assertTrue(truncated.rank() > 0 && truncated.rank() <= 30);
            assertTrue(kmeans.rank() > 0 && kmeans.rank() <= 30);
            assertTrue(kmeans.relativeError(null, data, N) < 1);
        }
    }

    /** An approximation owns its factors: it outlives its kernel, dataset and context. */
    @Test
    public void outlivesItsInputs() {
        Approximation approx;
        double[] expected;
        try (Context own = Context.create("seed=5"); Kernel kernel = Kernel.createFromString("gamma=0.5");
             Dataset copy = Reference.rows(data, 0, N)) {
            approx = Approximation.create(own, kernel, copy, "approx=meka rank=8 clusters=2");
            expected = approx.matvec(own, v);
        }
        System.gc();
        try (Approximation kept = approx) {
            assertEquals(0, relativeGap(expected, kept.matvec(null, v)), 0);
        }
    }

    @Test
    public void badInputsThrowWithStatus() {
        try (Approximation approx = Approximation.create(ctx, rbf, data, "approx=nystrom centers=50")) {
            assertSame(Status.INVALID_ARGUMENT, assertThrows(KmxException.class,
                    () -> approx.matvec(null, new double[N - 1])).status());
            assertSame(Status.INVALID_ARGUMENT, assertThrows(KmxException.class,
                    () -> approx.matvec(null, null)).status());
            KmxException e = assertThrows(KmxException.class, () -> approx.solve(null, 0, v));
            assertSame(Status.INVALID_ARGUMENT, e.status());
            assertTrue(e.detail(), e.detail().contains("lambda"));
            assertThrows(KmxException.class, () -> approx.solve(null, Double.NaN, v));
            try (Dataset other = Reference.rows(data, 0, 100)) {
                assertSame(Status.INVALID_ARGUMENT, assertThrows(KmxException.class,
                        () -> approx.relativeError(null, other, 10)).status());
            }
            assertThrows(KmxException.class, () -> approx.relativeError(null, data, 0));
        }
        for (String bad : new String[] {"approx=sketchy", "rank=-1", "clusters=-2", "threshold=-1", "oversampling=99",
                "gamma=1"}) {
            KmxException e = assertThrows(bad, KmxException.class, () -> Approximation.create(ctx, rbf, data, bad));
            assertSame(bad, Status.INVALID_ARGUMENT, e.status());
        }
        assertThrows(KmxException.class, () -> Approximation.create(ctx, null, data, null));
        assertThrows(KmxException.class, () -> Approximation.create(ctx, rbf, null, null));
        Approximation closed = Approximation.create(null, rbf, data, "centers=20");
        closed.close();
        closed.close();
        KmxException e = assertThrows(KmxException.class, closed::rows);
        assertSame(Status.INVALID_ARGUMENT, e.status());
        assertTrue(e.detail(), e.detail().contains("approx is NULL"));
        assertThrows(KmxException.class, closed::rank);
        assertThrows(KmxException.class, closed::memoryBytes);
    }
}
