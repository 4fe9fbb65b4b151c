import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.kmx.Bias;
import io.kmx.Context;
import io.kmx.Dataset;
import io.kmx.Kernel;
import io.kmx.KernelType;
import io.kmx.KmxException;
import io.kmx.Method;
import io.kmx.Model;
import io.kmx.Multiclass;
import io.kmx.Param;
import io.kmx.Solver;
import io.kmx.Status;
import java.util.Arrays;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/** Solver parameters, class and sample weights, and the errors training reports. */
public class SolverTest {
    private static Dataset letter;
    private static Dataset train;
    private static Dataset test;
    private static Kernel rbf;

    @BeforeClass
    public static void loadData() {
        letter = Dataset.load(Reference.dataFile("letter_bin.train.libsvm"));
        train = Reference.rows(letter, 0, 400);
        test = Reference.rows(letter, 1000, 1300);
        rbf = Kernel.createFromString("kernel=rbf gamma=16");
    }

    @AfterClass
    public static void closeData() {
        rbf.close();
        test.close();
        train.close();
        letter.close();
    }

    @Test
    public void defaultsAndSetters() {
        try (Solver solver = Solver.create(Method.SVM)) {
            assertSame(Method.SVM, solver.param(Param.METHOD, Method.class));
            assertEquals(1, solver.param(Param.C), 0);
            assertEquals(1e-3, solver.param(Param.EPS), 0);
            assertSame(Bias.BIAS_AUTO, solver.param(Param.BIAS, Bias.class));
            assertSame(Multiclass.OVO, solver.param(Param.MULTICLASS, Multiclass.class));
            assertEquals(8, solver.param(Param.LEVELS), 0);
            solver.setParam(Param.C, 8);
            solver.setParam(Param.BIAS, Bias.BIAS_OFF);
            assertEquals(8, solver.param(Param.C), 0);
            assertSame(Bias.BIAS_OFF, solver.param(Param.BIAS, Bias.class));
            solver.setParams("method=dcsvm_early levels=3 clusters_per_level=8 early_level=2 sample_size=500 "
                    + "multiclass=ovr shrinking=0 eps=0.01");
            assertSame(Method.DCSVM_EARLY, solver.param(Param.METHOD, Method.class));
            assertEquals(3, solver.param(Param.LEVELS), 0);
            assertEquals(8, solver.param(Param.CLUSTERS_PER_LEVEL), 0);
            assertEquals(2, solver.param(Param.EARLY_LEVEL), 0);
            assertEquals(500, solver.param(Param.SAMPLE_SIZE), 0);
            assertSame(Multiclass.OVR, solver.param(Param.MULTICLASS, Multiclass.class));
            assertEquals(0, solver.param(Param.SHRINKING), 0);
            assertEquals(0.01, solver.param(Param.EPS), 0);
        }
        try (Solver solver = Solver.createFromString("C=2 bias=on")) {
            assertSame(Method.DCSVM, solver.param(Param.METHOD, Method.class)); // the default method
            assertEquals(2, solver.param(Param.C), 0);
            assertSame(Bias.BIAS_ON, solver.param(Param.BIAS, Bias.class));
        }
        for (Method method : Method.values()) {
            try (Solver solver = Solver.create(method)) {
                assertSame(method, solver.param(Param.METHOD, Method.class));
                assertSame(method, solver.method());
            }
        }
    }

    @Test
    public void zeroCIsRejected() {
        try (Solver solver = Solver.create(Method.SVM)) {
            KmxException e = assertThrows(KmxException.class, () -> solver.setParam(Param.C, 0));
            assertSame(Status.INVALID_ARGUMENT, e.status());
            assertTrue(e.detail(), e.detail().contains("parameter C = 0"));
            assertEquals(1, solver.param(Param.C), 0); // unchanged
            e = assertThrows(KmxException.class, () -> solver.setParams("eps=0.1 C=0"));
            assertSame(Status.INVALID_ARGUMENT, e.status());
            assertTrue(e.detail(), e.detail().contains("parameter C = 0"));
            assertEquals(1e-3, solver.param(Param.EPS), 0); // all checked first: nothing changed
        }
        KmxException e = assertThrows(KmxException.class, () -> Solver.createFromString("method=svm C=0"));
        assertSame(Status.INVALID_ARGUMENT, e.status());
        assertTrue(e.detail(), e.detail().contains("parameter C = 0"));
    }

    @Test
    public void badParamsAreRejected() {
        try (Solver solver = Solver.create(Method.DCSVM)) {
            assertThrows(KmxException.class, () -> solver.setParams("method=nonsense"));
            assertThrows(KmxException.class, () -> solver.setParam(Param.LEVELS, 0));
            assertThrows(KmxException.class, () -> solver.setParam(Param.EPS, 1));
            assertThrows(KmxException.class, () -> solver.setParam(Param.GAMMA, 1)); // a kernel parameter
            assertThrows(KmxException.class, () -> solver.param(Param.THREADS)); // a context parameter
            KmxException e = assertThrows(KmxException.class, () -> solver.setClassWeight(1, 0));
            assertSame(Status.INVALID_ARGUMENT, e.status());
            assertThrows(KmxException.class, () -> solver.setClassWeight(1, -2));
        }
    }

    @Test
    public void oneClassIsAnInvalidArgument() {
        double[][] x = Reference.random(new java.util.Random(5), 50, 3);
        double[] y = new double[50];
        Arrays.fill(y, 1);
        try (Dataset oneClass = Dataset.create(x, y); Solver solver = Solver.create(Method.SVM)) {
            KmxException e = assertThrows(KmxException.class, () -> solver.train(null, rbf, oneClass));
            assertSame(Status.INVALID_ARGUMENT, e.status());
        }
        try (Dataset unlabelled = Dataset.create(x); Solver solver = Solver.create(Method.SVM)) {
            KmxException e = assertThrows(KmxException.class, () -> solver.train(null, rbf, unlabelled));
            assertSame(Status.INVALID_ARGUMENT, e.status());
        }
    }

    /** Every class weight w multiplies C: weight 2 on both classes is C doubled. */
    @Test
    public void classWeightsMultiplyC() {
        try (Solver doubled = Solver.createFromString("method=svm C=2");
             Solver weighted = Solver.createFromString("method=svm C=1");
             Solver plain = Solver.createFromString("method=svm C=1")) {
            weighted.setClassWeight(-1, 2);
            weighted.setClassWeight(1, 2);
            try (Model a = doubled.train(null, rbf, train); Model b = weighted.train(null, rbf, train);
                 Model c = plain.train(null, rbf, train)) {
                Reference.assertClose("objective", a.objective(), b.objective(), 1e-9, 0);
                assertArrayEquals(a.predict(null, test), b.predict(null, test), 0);
                assertNotEquals(a.objective(), c.objective(), 1e-6 * Math.abs(a.objective()));
            }
            plain.setClassWeight(1, 10);
            try (Model a = weighted.train(null, rbf, train); Model b = plain.train(null, rbf, train)) {
                assertNotEquals(a.objective(), b.objective(), 1e-6 * Math.abs(a.objective()));
            }
        }
    }

    /** Sample weights multiply C per row: weight 2 on every row is C doubled. */
    @Test
    public void sampleWeightsMultiplyC() {
        double[] twos = new double[(int) train.rows()];
        Arrays.fill(twos, 2);
        try (Dataset weightedTrain = Reference.rows(train, 0, (int) train.rows());
             Solver doubled = Solver.createFromString("method=svm C=2");
             Solver single = Solver.createFromString("method=svm C=1")) {
            weightedTrain.setWeights(twos);
            try (Model a = doubled.train(null, rbf, train); Model b = single.train(null, rbf, weightedTrain)) {
                Reference.assertClose("objective", a.objective(), b.objective(), 1e-9, 0);
                assertArrayEquals(a.predict(null, test), b.predict(null, test), 0);
            }
        }
    }

    @Test
    public void closedSolverPassesNullToC() {
        Solver solver = Solver.create(Method.SVM);
        solver.close();
        solver.close(); // idempotent
        KmxException e = assertThrows(KmxException.class, () -> solver.setParam(Param.C, 2));
        assertSame(Status.INVALID_ARGUMENT, e.status());
        assertTrue(e.detail(), e.detail().contains("solver is NULL"));
        assertThrows(KmxException.class, () -> solver.param(Param.C));
        assertThrows(KmxException.class, () -> solver.setParams("C=2"));
        assertThrows(KmxException.class, () -> solver.setClassWeight(1, 2));
        assertThrows(KmxException.class, () -> solver.train(null, rbf, train));
        Kernel closedKernel = Kernel.createFromString("gamma=1");
        closedKernel.close();
        try (Solver live = Solver.create(Method.SVM)) {
            e = assertThrows(KmxException.class, () -> live.train(null, closedKernel, train));
            assertTrue(e.detail(), e.detail().contains("kernel is NULL"));
        }
    }

    /** svm-train -c 8 -g 16 -v 5 on Letter rows 1-1000 gives 88.7% (its own folds). */
    @Test
    public void crossValidationIsCloseToLibsvmsAndSeeded() {
        try (Dataset rows = Reference.rows(letter, 0, 1000); Solver solver = Solver.createFromString("method=svm C=8");
                Context seeded = Context.create("seed=3")) {
            double[] predicted = solver.crossValidate(null, rbf, rows, 5);
            double[] labels = rows.labels();
            assertEquals(1000, predicted.length);
            int correct = 0;
            for (int i = 0; i < predicted.length; i++) {
                assertTrue(predicted[i] == 1 || predicted[i] == -1);
                if (predicted[i] == labels[i]) correct++;
            }
            assertEquals(88.7, correct / 10.0, 2.0);
            assertArrayEquals(predicted, solver.crossValidate(null, rbf, rows, 5), 0);
            assertTrue(!Arrays.equals(predicted, solver.crossValidate(seeded, rbf, rows, 5))); // other folds
            KmxException e = assertThrows(KmxException.class, () -> solver.crossValidate(null, rbf, rows, 1));
            assertSame(Status.INVALID_ARGUMENT, e.status());
            assertTrue(e.detail(), e.detail().contains("at least 2 folds"));
        }
    }

    /** A path along C: each row as crossValidate at that C alone (the warm start reaches the same labels). */
    @Test
    public void crossValidationPathIsEachCAlone() {
        try (Dataset rows = Reference.rows(letter, 0, 300); Solver solver = Solver.createFromString("method=svm eps=1e-6")) {
            double[] costs = {8, 1};
            double[][] path = solver.crossValidatePath(null, rbf, rows, 4, Param.C, costs);
            assertEquals(2, path.length);
            for (int v = 0; v < costs.length; v++) {
                solver.setParam(Param.C, costs[v]);
                assertArrayEquals(solver.crossValidate(null, rbf, rows, 4), path[v], 0);
            }
            assertThrows(KmxException.class, () -> solver.crossValidatePath(null, rbf, rows, 4, Param.EPS, costs));
        }
    }

    /** LIBSVM's precomputed rows (column 0 the serial number, then K(x, x_j) over the training rows). */
    private static double[][] gram(double[][] rows, double[][] train, double gamma, boolean serials) {
        double[][] k = new double[rows.length][train.length + 1];
        for (int i = 0; i < rows.length; i++) {
            k[i][0] = serials ? i + 1 : 0;
            for (int j = 0; j < train.length; j++) {
                double sum = 0;
                for (int c = 0; c < rows[i].length; c++) sum += (rows[i][c] - train[j][c]) * (rows[i][c] - train[j][c]);
                k[i][j + 1] = Math.exp(-gamma * sum);
            }
        }
        return k;
    }

    private static double[][] rowsOf(Dataset data) {
        int d = (int) data.cols();
        double[] flat = data.rowValues(0, data.rows());
        double[][] rows = new double[(int) data.rows()][d];
        for (int i = 0; i < rows.length; i++) System.arraycopy(flat, i * d, rows[i], 0, d);
        return rows;
    }

    @Test
    public void precomputedGaussianMatrixTrainsTheRbfModel() {
        double[][] x = rowsOf(train), xt = rowsOf(test);
        try (Context ctx = Context.create("threads=1");
             Solver solver = Solver.create(Method.SVM);
             Kernel precomputed = Kernel.create(KernelType.PRECOMPUTED);
             Dataset k = Dataset.create(gram(x, x, 16, true), train.labels());
             Dataset kt = Dataset.create(gram(xt, x, 16, false));
             Model byMatrix = solver.train(ctx, precomputed, k);
             Model byFeatures = solver.train(ctx, rbf, train)) {
            assertEquals(byFeatures.objective(), byMatrix.objective(), 1e-9 * Math.abs(byFeatures.objective()));
            assertArrayEquals(byFeatures.decisionValues(ctx, test), byMatrix.decisionValues(ctx, kt), 1e-9);
            assertArrayEquals(byFeatures.predict(ctx, test), byMatrix.predict(ctx, kt), 0);
            byte[] saved = byMatrix.saveToBuffer(); // support vectors as serial numbers
            try (Model loaded = Model.loadFromBuffer(saved)) {
                assertArrayEquals(byMatrix.decisionValues(ctx, kt), loaded.decisionValues(ctx, kt), 0);
            }
            try (Solver dcsvm = Solver.create(Method.DCSVM)) {
                KmxException e = assertThrows(KmxException.class, () -> dcsvm.train(ctx, precomputed, k));
                assertSame(Status.INVALID_ARGUMENT, e.status());
                assertTrue(e.getMessage(), e.getMessage().contains("method dcsvm needs feature vectors"));
            }
        }
    }
}
