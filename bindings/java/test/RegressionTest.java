import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.kmx.CenterMethod;
import io.kmx.Context;
import io.kmx.Dataset;
import io.kmx.Kernel;
import io.kmx.KmxException;
import io.kmx.Library;
import io.kmx.Method;
import io.kmx.Model;
import io.kmx.ModelInfoKey;
import io.kmx.Param;
import io.kmx.Solver;
import io.kmx.Status;
import io.kmx.Task;
import java.util.Random;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Kernel ridge regression through the solver (krr, nystrom_krr, meka_krr, falkon): regression
 * models on a smooth synthetic function, their info, KRR classifiers, and the parameter errors.
 */
public class RegressionTest {
    private static final int D = 3;
    private static Context ctx;
    private static Kernel rbf;
    private static Dataset train;
    private static Dataset test;
    private static double[] testTargets;

    /** f(x) = sin(2 pi x0) + x1^2 - x2, x uniform in [0,1)^3. */
    private static double target(double[] x, int row) {
        return Math.sin(2 * Math.PI * x[row * D]) + x[row * D + 1] * x[row * D + 1] - x[row * D + 2];
    }

    private static Dataset synthetic(Random rng, int n, double[] targetsOut) {
        double[] x = new double[n * D];
        for (int i = 0; i < x.length; i++) x[i] = rng.nextDouble();
        double[] y = targetsOut != null ? targetsOut : new double[n];
        for (int i = 0; i < n; i++) y[i] = target(x, i);
        return Dataset.create(x, D, y);
    }

    @BeforeClass
    public static void makeData() {
        ctx = Context.create("threads=2 seed=7");
        rbf = Kernel.createFromString("kernel=rbf gamma=4");
        Random rng = new Random(11);
        train = synthetic(rng, 600, null);
        testTargets = new double[200];
        test = synthetic(rng, 200, testTargets);
    }

    @AfterClass
    public static void closeAll() {
        test.close();
        train.close();
        rbf.close();
        ctx.close();
    }

    private static double rmse(double[] expected, double[] actual) {
        double sum = 0;
        for (int i = 0; i < expected.length; i++) sum += (expected[i] - actual[i]) * (expected[i] - actual[i]);
        return Math.sqrt(sum / expected.length);
    }

    private static Model train(String params) {
        try (Solver solver = Solver.createFromString(params)) {
            return solver.train(ctx, rbf, train);
        }
    }

    /** Every KRR method fits f closely on held-out points (targets have standard deviation about 0.8). */
    @Test
    public void everyKrrMethodFitsASmoothFunction() {
        String[] params = {"method=krr lambda=1e-6", "method=nystrom_krr lambda=1e-6 centers=150",
                "method=meka_krr lambda=1e-6 clusters=4 rank=40", "method=falkon lambda=1e-6 centers=150 iterations=40"};
        Method[] methods = {Method.KRR, Method.NYSTROM_KRR, Method.MEKA_KRR, Method.FALKON};
        for (int m = 0; m < params.length; m++) {
            try (Model model = train(params[m])) {
                double error = rmse(testTargets, model.predict(ctx, test));
                System.out.printf("RegressionTest: %s held-out rmse %.4g%n", methods[m], error);
                assertSame(methods[m], model.method());
                assertTrue(methods[m] + " rmse " + error, error < 0.1);
            }
        }
    }

    @Test
    public void regressionModelInfo() {
        try (Model model = train("method=falkon lambda=1e-5 centers=100 iterations=30")) {
            assertSame(Task.TASK_REGRESSION, model.task()); // auto: the targets are not whole numbers
            assertTrue(model.isRegression());
            assertEquals(0, model.classes());
            assertArrayEquals(new double[0], model.labels(), 0); // kmx_model_classes with NULL
            assertEquals(1e-5, model.lambda(), 0);
            assertEquals(0, model.cost(), 0);
            assertEquals(model.lambda(), model.info(ModelInfoKey.INFO_LAMBDA), 0);
            assertSame(Task.TASK_REGRESSION, model.task());
            assertEquals("regression", Library.paramValueName(Param.TASK, model.info(ModelInfoKey.INFO_TASK)));
            assertEquals(D, model.columns());
            assertEquals(1, model.decisionValuesPerRow());
            // Regression decision values are the predicted values.
            assertArrayEquals(model.predict(null, test), model.decisionValues(null, test), 0);
            double[] first = model.predict(null, test);
            try (Model copy = Model.loadFromBuffer(model.saveToBuffer())) {
                assertSame(Method.FALKON, copy.method());
                assertSame(Task.TASK_REGRESSION, copy.task());
                assertEquals(1e-5, copy.lambda(), 0);
                assertArrayEquals(first, copy.predict(ctx, test), 0);
            }
        }
    }

    /** epsilon-SVR (method=svr): a regression model with a bias, C and epsilon_svr, that fits f. */
    @Test
    public void svrFitsASmoothFunction() {
        try (Solver solver = Solver.create(Method.SVR)) {
            solver.setParam(Param.C, 10);
            solver.setParam(Param.EPSILON_SVR, 0.05);
            try (Model model = solver.train(ctx, rbf, train)) {
                double error = rmse(testTargets, model.predict(ctx, test));
                System.out.printf("RegressionTest: svr held-out rmse %.4g%n", error);
                assertSame(Method.SVR, model.method());
                assertSame(Task.TASK_REGRESSION, model.task());
                assertEquals(10, model.cost(), 0);
                assertTrue(model.supportVectors() > 0 && model.supportVectors() < 600);
                assertTrue("svr rmse " + error, error < 0.1);
            }
        }
    }

    /**
     * epsilon-SVR by DC-SVM (Param.SVR_DCSVM = 1; a small sample and cache so that it divides) and by the dual
     * solver alone (0, the default): the same dual optimum, so the same objective and predictions to the tolerance.
     */
    @Test
    public void svrByDcsvmMatchesTheDualSolver() {
        double[][] predicted = new double[2][];
        double[] objective = new double[2];
        for (int dcsvm = 0; dcsvm <= 1; dcsvm++) {
            try (Solver solver = Solver.create(Method.SVR)) {
                assertEquals(0, solver.param(Param.SVR_DCSVM), 0);  // the default
                solver.setParams("C=10 epsilon_svr=0.05 eps=1e-5 sample_size=50 cache_size=20000");
                solver.setParam(Param.SVR_DCSVM, dcsvm);
                assertEquals(dcsvm, solver.param(Param.SVR_DCSVM), 0);
                try (Model model = solver.train(ctx, rbf, train)) {
                    predicted[dcsvm] = model.predict(ctx, test);
                    objective[dcsvm] = model.info(ModelInfoKey.INFO_OBJECTIVE);
                }
            }
        }
        double gap = rmse(predicted[0], predicted[1]);
        System.out.printf("RegressionTest: svr by dcsvm: objective %.10g vs %.10g, prediction rmse %.3g%n",
                          objective[1], objective[0], gap);
        assertEquals(objective[0], objective[1], 1e-6 * Math.abs(objective[0]));
        assertTrue("gap " + gap, gap < 1e-3);
    }

    /** FALKON converges to the exact KRR solution on the same centers as iterations grow. */
    @Test
    public void falkonApproachesExactKrr() {
        try (Model exact = train("method=krr lambda=1e-4");
             Model falkon = train("method=falkon lambda=1e-4 centers=600 iterations=100")) {
            double gap = rmse(exact.predict(null, test), falkon.predict(null, test));
            System.out.printf("RegressionTest: |falkon - krr| rmse %.3g%n", gap);
            assertTrue("gap " + gap, gap < 1e-2);
        }
    }

    /** SVM models classify and report C; KRR on whole-number labels classifies unless told otherwise. */
    @Test
    public void taskOfClassifiers() {
        double[] x = train.rowValues(0, 300);
        double[] y = new double[300];
        for (int i = 0; i < y.length; i++) y[i] = train.labels()[i] > 0 ? 1 : -1;
        try (Dataset signs = Dataset.create(x, D, y)) {
            try (Solver svm = Solver.createFromString("method=svm C=4"); Model model = svm.train(null, rbf, signs)) {
                assertSame(Task.TASK_CLASSIFICATION, model.task());
                assertFalse(model.isRegression());
                assertEquals(4, model.cost(), 0);
                assertEquals(0, model.lambda(), 0);
                assertEquals(4, model.info(ModelInfoKey.INFO_C), 0);
            }
            try (Solver krr = Solver.createFromString("method=krr lambda=1e-3");
                 Model model = krr.train(null, rbf, signs)) {
                assertSame(Task.TASK_CLASSIFICATION, model.task());
                assertEquals(2, model.classes());
                assertArrayEquals(new double[] {-1, 1}, model.labels(), 0);
                double[] predicted = model.predict(null, signs);
                assertTrue(Reference.agreement(y, predicted) > 0.9);
                assertEquals(300L * model.decisionValuesPerRow(), model.decisionValues(null, signs).length);
            }
            try (Solver krr = Solver.create(Method.KRR)) {
                krr.setParam(Param.TASK, Task.TASK_REGRESSION);
                krr.setParam(Param.LAMBDA, 1e-3);
                try (Model model = krr.train(null, rbf, signs)) {
                    assertSame(Task.TASK_REGRESSION, model.task());
                    assertEquals(0, model.classes());
                }
            }
        }
    }

    @Test
    public void krrParameters() {
        try (Solver solver = Solver.create(Method.FALKON)) {
            assertSame(Task.TASK_AUTO, solver.param(Param.TASK, Task.class));
            assertEquals(1e-6, solver.param(Param.LAMBDA), 0);
            assertSame(CenterMethod.UNIFORM, solver.param(Param.CENTER_METHOD, CenterMethod.class));
            assertEquals(20, solver.param(Param.ITERATIONS), 0);
            solver.setParams("task=regression lambda=1e-3 centers=64 center_method=kmeans iterations=15 "
                    + "tolerance=1e-8 validation=0.2");
            assertSame(Task.TASK_REGRESSION, solver.param(Param.TASK, Task.class));
            assertEquals(1e-3, solver.param(Param.LAMBDA), 0);
            assertEquals(64, solver.param(Param.CENTERS), 0);
            assertSame(CenterMethod.KMEANS, solver.param(Param.CENTER_METHOD, CenterMethod.class));
            assertEquals(15, solver.param(Param.ITERATIONS), 0);
            assertEquals(1e-8, solver.param(Param.TOLERANCE), 0);
            assertEquals(0.2, solver.param(Param.VALIDATION), 0);
            solver.setParam(Param.CENTER_METHOD, CenterMethod.LEVERAGE);
            assertSame(CenterMethod.LEVERAGE, solver.param(Param.CENTER_METHOD, CenterMethod.class));
            try (Model model = solver.train(ctx, rbf, train)) {
                assertTrue(rmse(testTargets, model.predict(null, test)) < 0.2);
            }
        }
        try (Solver solver = Solver.createFromString("method=meka_krr rank=8 clusters=3 threshold=0 oversampling=1 rank_by_size=1")) {
            assertSame(Method.MEKA_KRR, solver.param(Param.METHOD, Method.class));
            assertEquals(8, solver.param(Param.RANK), 0);
            assertEquals(3, solver.param(Param.CLUSTERS), 0);
            assertEquals(0, solver.param(Param.THRESHOLD), 0);
            assertEquals(1, solver.param(Param.OVERSAMPLING), 0);
            assertEquals(1, solver.param(Param.RANK_BY_SIZE), 0);
        }
    }

    @Test
    public void badKrrParametersAreInvalidArguments() {
        try (Solver solver = Solver.create(Method.FALKON)) {
            for (String bad : new String[] {"lambda=0", "lambda=-1", "task=sideways", "center_method=random",
                    "iterations=0", "tolerance=1", "validation=0.9"}) {
                KmxException e = assertThrows(bad, KmxException.class, () -> solver.setParams(bad));
                assertSame(bad, Status.INVALID_ARGUMENT, e.status());
            }
            KmxException e = assertThrows(KmxException.class, () -> solver.setParam(Param.LAMBDA, 0));
            assertSame(Status.INVALID_ARGUMENT, e.status());
            assertTrue(e.detail(), e.detail().contains("lambda"));
            assertEquals(1e-6, solver.param(Param.LAMBDA), 0); // unchanged
        }
        // Regression needs targets.
        try (Dataset unlabelled = Dataset.create(train.rowValues(0, 50), D, null);
             Solver solver = Solver.createFromString("method=krr")) {
            assertThrows(KmxException.class, () -> solver.train(null, rbf, unlabelled));
        }
    }
}
