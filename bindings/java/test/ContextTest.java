import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.kmx.Context;
import io.kmx.Dataset;
import io.kmx.KMeans;
import io.kmx.KmxException;
import io.kmx.Library;
import io.kmx.LogLevel;
import io.kmx.Param;
import io.kmx.Status;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;

/** Context parameters, callbacks, cancellation and closed-handle errors. */
public class ContextTest {
    private static final String UNTIL_CANCELLED = "max_iter=100000 tol=0";

    private Dataset data;

    @Before
    public void makeData() {
        data = Dataset.create(Reference.random(new Random(3), 2000, 4));
    }

    @After
    public void closeData() {
        data.close();
    }

    @Test
    public void setAndGetParams() {
        try (Context ctx = Context.create()) {
            assertEquals(Library.cores(), ctx.param(Param.THREADS), 0);
            ctx.setParam(Param.THREADS, 2);
            ctx.setParam(Param.SEED, 7);
            assertEquals(2, ctx.param(Param.THREADS), 0);
            assertEquals(7, ctx.param(Param.SEED), 0);
            ctx.setParams("memory_budget=1e9 log_level=info");
            assertEquals(1e9, ctx.param(Param.MEMORY_BUDGET), 0);
            assertSame(LogLevel.INFO, ctx.param(Param.LOG_LEVEL, LogLevel.class));
        }
        try (Context ctx = Context.create("threads=3 seed=11")) {
            assertEquals(3, ctx.param(Param.THREADS), 0);
            assertEquals(11, ctx.param(Param.SEED), 0);
        }
    }

    @Test
    public void badParamsChangeNothing() {
        try (Context ctx = Context.create("seed=5")) {
            KmxException e = assertThrows(KmxException.class, () -> ctx.setParams("seed=9 threads=2000"));
            assertSame(Status.INVALID_ARGUMENT, e.status());
            assertTrue(e.detail(), e.detail().contains("threads"));
            assertEquals(5, ctx.param(Param.SEED), 0);
            assertThrows(KmxException.class, () -> ctx.setParam(Param.GAMMA, 1));
            assertThrows(KmxException.class, () -> ctx.param(Param.GAMMA));
        }
        assertThrows(KmxException.class, () -> Context.create("threads=-1"));
    }

    @Test
    public void peakBytesOfTheLastCall() {
        try (Context ctx = Context.create()) {
            assertEquals(0, ctx.peakBytes());
            KMeans.fit(ctx, data, 5, null);
            assertTrue(ctx.peakBytes() > 0);
        }
    }

    @Test
    public void logCallbackReceivesMessages() {
        try (Context ctx = Context.create("log_level=debug")) {
            List<String> messages = new ArrayList<>();
            ctx.setLogCallback((level, message) -> {
                assertSame(LogLevel.DEBUG, level);
                messages.add(message);
            });
            KMeans.fit(ctx, data, 5, null);
            assertFalse(messages.isEmpty());
            assertTrue(messages.get(messages.size() - 1), messages.get(messages.size() - 1).startsWith("k-means"));
            messages.clear();
            ctx.setLogCallback(null);
            KMeans.fit(ctx, data, 5, null);
            assertTrue(messages.isEmpty());
        }
    }

    @Test
    public void progressCallbackReportsFractions() {
        try (Context ctx = Context.create()) {
            List<Double> fractions = new ArrayList<>();
            ctx.setProgressCallback((fraction, phase) -> {
                assertEquals("k-means", phase);
                fractions.add(fraction);
                return false;
            });
            KMeans.fit(ctx, data, 5, "max_iter=20 tol=0");
            assertEquals(20, fractions.size());
            for (double f : fractions) assertTrue(f >= 0 && f <= 1);
        }
    }

    @Test
    public void progressCallbackReturningTrueCancels() {
        try (Context ctx = Context.create()) {
            int[] calls = {0};
            ctx.setProgressCallback((fraction, phase) -> ++calls[0] == 3);
            KmxException e = assertThrows(KmxException.class, () -> KMeans.fit(ctx, data, 5, UNTIL_CANCELLED));
            assertSame(Status.CANCELLED, e.status());
            assertTrue(e.detail(), e.detail().contains("progress callback"));
            assertEquals(3, calls[0]);
            ctx.setProgressCallback(null);
            KMeans.fit(ctx, data, 5, null); // usable again
        }
    }

    @Test
    public void exceptionFromAHandlerIsRethrownByTheCall() {
        try (Context ctx = Context.create("log_level=debug")) {
            IllegalStateException thrown = new IllegalStateException("from the handler");
            ctx.setProgressCallback((fraction, phase) -> {
                throw thrown;
            });
            assertSame(thrown, assertThrows(IllegalStateException.class, () -> KMeans.fit(ctx, data, 5, null)));
            ctx.setProgressCallback(null);
            ctx.setLogCallback((level, message) -> {
                throw thrown;
            });
            assertSame(thrown, assertThrows(IllegalStateException.class, () -> KMeans.fit(ctx, data, 5, null)));
            ctx.setLogCallback(null);
            KMeans.fit(ctx, data, 5, null);
        }
    }

    @Test
    public void cancelFromAnotherThread() throws Exception {
        ExecutorService worker = Executors.newSingleThreadExecutor();
        try (Context ctx = Context.create()) {
            CountDownLatch running = new CountDownLatch(1);
            CountDownLatch cancelled = new CountDownLatch(1);
            ctx.setProgressCallback((fraction, phase) -> {
                running.countDown();
                awaitQuietly(cancelled);
                return false;
            });
            Future<KMeans> fit = worker.submit(() -> KMeans.fit(ctx, data, 5, UNTIL_CANCELLED));
            assertTrue(running.await(60, TimeUnit.SECONDS));
            ctx.cancel(); // from this thread, while the worker runs k-means
            cancelled.countDown();
            Exception e = assertThrows(Exception.class, () -> fit.get(60, TimeUnit.SECONDS));
            KmxException cause = (KmxException) e.getCause();
            assertSame(Status.CANCELLED, cause.status());
            assertTrue(cause.detail(), cause.detail().contains("kmx_context_cancel"));
        } finally {
            worker.shutdownNow();
        }
    }

    @Test
    public void handlersMayBeReplacedOften() {
        try (Context ctx = Context.create()) {
            for (int i = 0; i < 10000; i++) {
                ctx.setLogCallback((level, message) -> {});
                ctx.setProgressCallback((fraction, phase) -> false);
            }
            int[] calls = {0};
            ctx.setProgressCallback((fraction, phase) -> ++calls[0] < 0);
            KMeans.fit(ctx, data, 5, "max_iter=4 tol=0");
            assertEquals(4, calls[0]);
        }
    }

    @Test
    public void closedContextPassesNullToC() {
        Context ctx = Context.create();
        ctx.setProgressCallback((fraction, phase) -> false);
        ctx.close();
        ctx.close(); // idempotent
        KmxException e = assertThrows(KmxException.class, () -> ctx.setParam(Param.THREADS, 2));
        assertSame(Status.INVALID_ARGUMENT, e.status());
        assertTrue(e.detail(), e.detail().contains("ctx is NULL"));
        assertThrows(KmxException.class, () -> ctx.param(Param.THREADS));
        assertThrows(KmxException.class, ctx::cancel);
        assertThrows(KmxException.class, ctx::peakBytes);
        assertThrows(KmxException.class, () -> ctx.setLogCallback((level, message) -> {}));
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
