import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.kmx.Context;
import io.kmx.Dataset;
import io.kmx.Kernel;
import io.kmx.KernelFunction;
import io.kmx.KernelType;
import io.kmx.KmxException;
import io.kmx.Model;
import io.kmx.ModelInfoKey;
import io.kmx.Param;
import io.kmx.Solver;
import io.kmx.Status;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * The kernel as a Java function (Kernel.createCallback over kmx_kernel_create_callback): a function
 * computing the Gaussian by its formula trains the model the built-in rbf kernel trains (the same
 * decision values to 1e-9), on kmx's worker threads and from several Java threads at once; what it
 * throws becomes a KmxException with its message, and everything stays usable afterwards.
 */
public class KernelCallbackTest {
    private static final double GAMMA = 16;
    private static Dataset train;
    private static Dataset test;
    private static Kernel rbf;
    private static Solver solver;

    @BeforeClass
    public static void setUp() {
        try (Dataset letter = Dataset.load(Reference.dataFile("letter_bin.train.libsvm"))) {
            train = Reference.rows(letter, 0, 400);
            test = Reference.rows(letter, 1000, 1300);
        }
        rbf = Kernel.create(KernelType.RBF);
        rbf.setParam(Param.GAMMA, GAMMA);
        solver = Solver.createFromString("method=svm C=4 eps=1e-6");
    }

    @AfterClass
    public static void tearDown() {
        for (AutoCloseable each : new AutoCloseable[] {solver, rbf, test, train}) {
            try {
                each.close();
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        }
    }

    /** exp(-gamma |a_i - b_j|^2) by its formula, plain loops. */
    static void gaussian(double[] out, double[] a, int na, double[] b, int nb, int d) {
        for (int i = 0; i < na; i++) {
            for (int j = 0; j < nb; j++) {
                double sum = 0;
                for (int k = 0; k < d; k++) {
                    double diff = a[i * d + k] - b[j * d + k];
                    sum += diff * diff;
                }
                out[i * nb + j] = Math.exp(-GAMMA * sum);
            }
        }
    }

    private static double maxDifference(double[] expected, double[] actual) {
        assertEquals(expected.length, actual.length);
        double most = 0;
        for (int i = 0; i < expected.length; i++) most = Math.max(most, Math.abs(expected[i] - actual[i]));
        return most;
    }

    @Test
    public void theGaussianAsAFunctionTrainsTheRbfModel() {
        AtomicLong calls = new AtomicLong();
        KernelFunction function = (out, a, na, b, nb, d) -> {
            calls.incrementAndGet();
            gaussian(out, a, na, b, nb, d);
        };
        try (Context ctx = Context.create("threads=1");
             Kernel callback = Kernel.createCallback(function);
             Model byRbf = solver.train(ctx, rbf, train);
             Model byFunction = solver.train(ctx, callback, train)) {
            assertSame(KernelType.CALLBACK, callback.type());
            assertEquals(KernelType.CALLBACK.ordinal(), (int) byFunction.info(ModelInfoKey.INFO_KERNEL));
            assertTrue(calls.get() > 0);
            double[] expected = byRbf.decisionValues(ctx, test);
            double[] actual = byFunction.decisionValues(ctx, test);
            assertTrue("decision values differ by " + maxDifference(expected, actual),
                       maxDifference(expected, actual) < 1e-9);
            assertArrayEquals(byRbf.predict(ctx, test), byFunction.predict(ctx, test), 0);
            assertEquals(byRbf.supportVectors(), byFunction.supportVectors());
            Reference.assertClose("objective", byRbf.objective(), byFunction.objective(), 1e-9, 0);
            // kmx_kernel_block and kmx_kernel_eval call it as well.
            double[][] a = {{0.1, 0.2}, {0.3, -0.4}, {1, 0}}, b = {{0.5, 0.5}, {-0.2, 0.1}};
            double[][] block = callback.block(ctx, a, b);
            for (int i = 0; i < a.length; i++) {
                for (int j = 0; j < b.length; j++) {
                    double formula = Math.exp(-GAMMA * Reference.sqdist(a[i], b[j]));
                    assertEquals(formula, block[i][j], 0);
                    assertEquals(formula, callback.eval(a[i], b[j]), 0);
                }
            }
            // Its model holds a function of this process: not saved.
            KmxException unsaved = assertThrows(KmxException.class, byFunction::saveToBuffer);
            assertSame(Status.UNSUPPORTED, unsaved.status());
        }
    }

    @Test
    public void aModelKeepsItsFunctionAfterTheKernelIsClosedAndCollected() {
        double[] expected;
        Model model;
        try (Kernel callback = Kernel.createCallback(KernelCallbackTest::gaussian)) {
            model = solver.train(null, callback, train);
        }
        try (Model byRbf = solver.train(null, rbf, train)) {
            expected = byRbf.decisionValues(null, test);
        }
        for (int i = 0; i < 3; i++) System.gc(); // the kernel's Cleaner runs; the model's bridge must survive
        try (Model kept = model) {
            assertTrue(maxDifference(expected, kept.decisionValues(null, test)) < 1e-9);
        }
    }

    @Test
    public void whatTheFunctionThrowsBecomesAKmxExceptionWithItsMessage() {
        AtomicBoolean broken = new AtomicBoolean(true);
        KernelFunction function = (out, a, na, b, nb, d) -> {
            if (broken.get()) throw new IllegalStateException("no kernel today");
            gaussian(out, a, na, b, nb, d);
        };
        try (Context ctx = Context.create("threads=2"); Kernel callback = Kernel.createCallback(function)) {
            KmxException e = assertThrows(KmxException.class, () -> solver.train(ctx, callback, train));
            assertSame(Status.INVALID_ARGUMENT, e.status());
            assertTrue(e.getMessage(), e.detail().contains(
                    "kernel callback failed (status 1): java.lang.IllegalStateException: no kernel today"));
            // From kmx's worker threads too (cross-validation trains its folds on both).
            e = assertThrows(KmxException.class, () -> solver.crossValidate(ctx, callback, train, 4));
            assertTrue(e.getMessage(), e.detail().contains("java.lang.IllegalStateException: no kernel today"));
            // The same handles train once the function works: nothing was left half done or pending.
            broken.set(false);
            try (Model model = solver.train(ctx, callback, train); Model byRbf = solver.train(ctx, rbf, train)) {
                assertTrue(maxDifference(byRbf.decisionValues(ctx, test), model.decisionValues(ctx, test)) < 1e-9);
            }
        }
        // A checked exception and an Error are caught the same way; a message-less one names its class.
        try (Kernel checked = Kernel.createCallback((out, a, na, b, nb, d) -> {
                 throw new java.io.IOException("disk of kernels unplugged");
             });
             Kernel error = Kernel.createCallback((out, a, na, b, nb, d) -> {
                 throw new StackOverflowError();
             })) {
            KmxException e = assertThrows(KmxException.class, () -> solver.train(null, checked, train));
            assertTrue(e.detail(), e.detail().contains("java.io.IOException: disk of kernels unplugged"));
            e = assertThrows(KmxException.class, () -> solver.train(null, error, train));
            assertTrue(e.detail(), e.detail().contains("kernel callback failed (status 1): java.lang.StackOverflowError"));
        }
        // A non-finite value is kmx's own check.
        try (Kernel nan = Kernel.createCallback((out, a, na, b, nb, d) -> out[0] = Double.NaN)) {
            KmxException e = assertThrows(KmxException.class, () -> solver.train(null, nan, train));
            assertTrue(e.detail(), e.detail().contains("kernel callback gave a non-finite value"));
        }
        assertThrows(NullPointerException.class, () -> Kernel.createCallback(null));
    }

    @Test
    public void workerThreadsCallItAtOnceAndAreAttachedOnce() throws Exception {
        Set<Thread> callers = Collections.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>()));
        AtomicInteger inside = new AtomicInteger(), most = new AtomicInteger();
        AtomicLong calls = new AtomicLong();
        KernelFunction function = (out, a, na, b, nb, d) -> {
            callers.add(Thread.currentThread());
            calls.incrementAndGet();
            int now = inside.incrementAndGet();
            most.accumulateAndGet(now, Math::max);
            try {
                gaussian(out, a, na, b, nb, d);
            } finally {
                inside.decrementAndGet();
            }
        };
        try (Context ctx = Context.create("threads=2 seed=3"); Kernel callback = Kernel.createCallback(function)) {
            double[] byRbf = solver.crossValidate(ctx, rbf, train, 4);
            for (int round = 0; round < 3; round++) {
                assertArrayEquals(byRbf, solver.crossValidate(ctx, callback, train, 4), 0);
            }
        }
        // The folds ran on the calling thread and on kmx's worker, which was attached to the JVM
        // once: the same Thread object in every one of its many calls, not one per call.
        assertEquals(2, callers.size());
        assertTrue(callers.contains(Thread.currentThread()));
        assertTrue("calls: " + calls.get(), calls.get() > 20);
        for (Thread caller : callers) {
            if (caller != Thread.currentThread()) {
                assertEquals("kmx worker", caller.getName());
                assertTrue(caller.isDaemon());
            }
        }
        System.out.println("callers inside at once: at most " + most.get());
    }

    @Test
    public void severalJavaThreadsShareOneCallbackKernel() throws Exception {
        double[] expected;
        try (Model byRbf = solver.train(null, rbf, train)) {
            expected = byRbf.decisionValues(null, test);
        }
        AtomicLong calls = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try (Kernel callback = Kernel.createCallback((out, a, na, b, nb, d) -> {
                 calls.incrementAndGet();
                 gaussian(out, a, na, b, nb, d);
             })) {
            List<Future<double[]>> results = new ArrayList<>();
            for (int t = 0; t < 3; t++) {
                results.add(pool.submit(() -> {
                    try (Context ctx = Context.create("threads=2"); Model model = solver.train(ctx, callback, train)) {
                        return model.decisionValues(ctx, test);
                    }
                }));
            }
            for (Future<double[]> result : results) assertTrue(maxDifference(expected, result.get()) < 1e-9);
        } finally {
            pool.shutdown();
        }
        assertTrue(calls.get() > 0);
    }
}
