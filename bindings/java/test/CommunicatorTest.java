import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.kmx.Communicator;
import io.kmx.Context;
import io.kmx.Dataset;
import io.kmx.Format;
import io.kmx.Kernel;
import io.kmx.KmxException;
import io.kmx.Model;
import io.kmx.Solver;
import io.kmx.Status;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.DoubleBinaryOperator;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Context.setCommunicator (kmx_context_set_communicator): two ranks as two Java threads, each with its
 * own Context and its shard of the file (Dataset.loadShard, collective), train the model one process
 * trains on the whole file, to the bit; a communicator that throws fails the call with IO and its
 * exception as the cause; a rank outside [0, size) is refused.
 */
public class CommunicatorTest {
    private static final String FILE = Reference.dataFile("letter_bin.train.libsvm");
    private static Dataset all;
    private static Dataset small;
    private static Kernel rbf;

    @BeforeClass
    public static void loadData() {
        all = Dataset.load(FILE);
        small = Reference.rows(all, 0, 300);
        rbf = Kernel.createFromString("kernel=rbf gamma=16");
    }

    @AfterClass
    public static void closeData() {
        rbf.close();
        small.close();
        all.close();
    }

    /**
     * Ranks as threads of this process (as tests/unit/nystrom_tron/thread_ranks.h): each reduction puts a
     * rank's values in its slot, waits for every rank, combines the slots in rank order (so every rank
     * gets the same bits) and waits again before a slot is reused. A barrier that waits 60 s breaks and
     * fails the operation on every rank, so a broken exchange fails the test instead of hanging it.
     */
    static final class ThreadRanks {
        final int size;
        final AtomicInteger sums = new AtomicInteger();
        /** Calls made on a thread other than the one training. */
        final AtomicInteger foreignCalls = new AtomicInteger();
        private final double[][] slots;
        private byte[] bytes;
        private final CyclicBarrier barrier;

        ThreadRanks(int size) {
            this.size = size;
            slots = new double[size][];
            barrier = new CyclicBarrier(size);
        }

        private void await() throws Exception {
            barrier.await(60, TimeUnit.SECONDS);
        }

        private void reduce(int rank, double[] values, DoubleBinaryOperator combine) throws Exception {
            slots[rank] = values.clone();
            await();
            for (int i = 0; i < values.length; i++) {
                double v = slots[0][i];
                for (int r = 1; r < size; r++) v = combine.applyAsDouble(v, slots[r][i]);
                values[i] = v;
            }
            await();
        }

        /** Rank r's communicator, for the thread `owner` that trains with it. */
        Communicator rank(int r, Thread owner) {
            return new Communicator() {
                @Override
                public int rank() {
                    return r;
                }

                @Override
                public int size() {
                    return size;
                }

                private void check() {
                    if (Thread.currentThread() != owner) foreignCalls.incrementAndGet();
                }

                @Override
                public void allreduceSum(double[] values) throws Exception {
                    check();
                    if (r == 0 && values.length > 0) sums.incrementAndGet();
                    reduce(r, values, Double::sum);
                }

                @Override
                public void allreduceMax(double[] values) throws Exception {
                    check();
                    reduce(r, values, Math::max);
                }

                @Override
                public void broadcast(byte[] data, int root) throws Exception {
                    check();
                    if (r == root) bytes = data.clone();
                    await();
                    if (r != root) System.arraycopy(bytes, 0, data, 0, data.length);
                    await();
                }
            };
        }
    }

    /** One process's decision values at every row of the file, from the model params trains. */
    private static double[] alone(String params, String contextParams) {
        try (Context ctx = Context.create(contextParams);
             Solver solver = Solver.createFromString(params);
             Model model = solver.train(ctx, rbf, all)) {
            return model.decisionValues(null, all);
        }
    }

    /**
     * Each of two thread-ranks loads its shard of the file and trains with params; returns each rank's
     * model's decision values at every row.
     */
    private static double[][] onTwoRanks(String params, String contextParams, ThreadRanks ranks) throws Exception {
        double[][] values = new double[2][];
        long[] rows = new long[2];
        Throwable[] failures = new Throwable[2];
        List<Thread> threads = new ArrayList<>();
        for (int r = 0; r < 2; r++) {
            final int rank = r;
            threads.add(new Thread(() -> {
                try (Context ctx = Context.create(contextParams)) {
                    ctx.setCommunicator(ranks.rank(rank, Thread.currentThread()));
                    System.gc(); // the context alone holds the communicator
                    try (Dataset shard = Dataset.loadShard(ctx, FILE, Format.AUTO, rank, 2);
                         Solver solver = Solver.createFromString(params);
                         Model model = solver.train(ctx, rbf, shard)) {
                        rows[rank] = shard.rows();
                        values[rank] = model.decisionValues(null, all);
                    }
                } catch (Throwable thrown) {
                    failures[rank] = thrown;
                }
            }, "rank " + r));
        }
        for (Thread t : threads) t.start();
        for (Thread t : threads) t.join();
        for (Throwable failure : failures) {
            if (failure != null) throw new AssertionError("a rank failed: " + failure, failure);
        }
        assertTrue(rows[0] > 0 && rows[1] > 0);
        assertEquals(all.rows(), rows[0] + rows[1]);
        return values;
    }

    private static void assertRanksGiveTheOneProcessModel(String params, String aloneParams) throws Exception {
        String contextParams = "threads=2 seed=3";
        double[] expected = alone(aloneParams, contextParams);
        ThreadRanks ranks = new ThreadRanks(2);
        double[][] values = onTwoRanks(params, contextParams, ranks);
        for (double[] rank : values) assertArrayEquals(expected, rank, 0.0); // the same bits
        assertTrue(ranks.sums.get() > 0);
        assertEquals(0, ranks.foreignCalls.get());
    }

    @Test
    public void twoRanksTrainTheOneProcessNystromTronModel() throws Exception {
        String params = "method=nystrom_tron centers=100 stages=2 C=1";
        assertRanksGiveTheOneProcessModel(params, params);
    }

    @Test
    public void twoRanksTrainTheOneProcessFalkonModel() throws Exception {
        String params = "method=falkon lambda=1e-6 centers=100 iterations=10 center_method=uniform";
        assertRanksGiveTheOneProcessModel(params, params + " reproducible=1");
    }

    /** Rank 0 of size ranks whose sum and maximum throw `thrown`; its broadcast keeps this rank's bytes. */
    private static Communicator failing(int size, Exception thrown) {
        return new Communicator() {
            @Override
            public int rank() {
                return 0;
            }

            @Override
            public int size() {
                return size;
            }

            @Override
            public void allreduceSum(double[] values) throws Exception {
                throw thrown;
            }

            @Override
            public void allreduceMax(double[] values) throws Exception {
                throw thrown;
            }

            @Override
            public void broadcast(byte[] bytes, int root) {}
        };
    }

    @Test
    public void whatTheCommunicatorThrowsFailsTheCallWithIo() throws Exception {
        Exception thrown = new java.io.IOException("the network is down");
        try (Context ctx = Context.create();
             Solver solver = Solver.createFromString("method=nystrom_tron centers=20")) {
            ctx.setCommunicator(failing(2, thrown));
            KmxException e = assertThrows(KmxException.class, () -> solver.train(ctx, rbf, small));
            assertSame(Status.IO, e.status());
            assertTrue(e.getMessage(), e.detail().contains("communication between ranks failed"));
            assertSame(thrown, e.getCause());
            // The same context, alone again, trains the model a fresh context trains.
            ctx.setCommunicator(null);
            try (Model model = solver.train(ctx, rbf, small);
                 Model fresh = solver.train(null, rbf, small)) {
                assertArrayEquals(fresh.decisionValues(null, small), model.decisionValues(null, small), 0.0);
            }
            // The next failure carries its own cause; a failure of another kind none.
            ctx.setCommunicator(failing(2, new IllegalStateException("again")));
            e = assertThrows(KmxException.class, () -> Dataset.loadShard(ctx, FILE, Format.AUTO, 0, 2));
            assertSame(Status.IO, e.status());
            assertEquals("again", e.getCause().getMessage());
            ctx.setCommunicator(null);
            e = assertThrows(KmxException.class, () -> Dataset.loadShard(ctx, FILE, Format.AUTO, 2, 2));
            assertSame(Status.INVALID_ARGUMENT, e.status());
            assertNull(e.getCause());
        }
    }

    @Test
    public void oneRankIsThisProcessAlone() {
        try (Context ctx = Context.create();
             Solver solver = Solver.createFromString("method=nystrom_tron centers=20");
             Model fresh = solver.train(null, rbf, small)) {
            ctx.setCommunicator(failing(1, new IllegalStateException("kmx calls no function of one rank")));
            try (Model model = solver.train(ctx, rbf, small)) {
                assertArrayEquals(fresh.decisionValues(null, small), model.decisionValues(null, small), 0.0);
            }
        }
    }

    @Test
    public void aRankOutsideTheRanksIsRefused() {
        try (Context ctx = Context.create();
             Solver solver = Solver.createFromString("method=nystrom_tron centers=20")) {
            for (int[] bad : new int[][] {{2, 2}, {-1, 2}, {0, 0}}) {
                Communicator communicator = new Communicator() {
                    @Override
                    public int rank() {
                        return bad[0];
                    }

                    @Override
                    public int size() {
                        return bad[1];
                    }

                    @Override
                    public void allreduceSum(double[] values) {}

                    @Override
                    public void allreduceMax(double[] values) {}

                    @Override
                    public void broadcast(byte[] bytes, int root) {}
                };
                KmxException e = assertThrows(KmxException.class, () -> ctx.setCommunicator(communicator));
                assertSame(Status.INVALID_ARGUMENT, e.status());
                assertTrue(e.getMessage(), e.detail().contains("rank must be in [0, size)"));
            }
            // The context keeps what it had: this process alone.
            try (Model model = solver.train(ctx, rbf, small)) {
                assertEquals(20, model.supportVectors());
            }
        }
    }
}
