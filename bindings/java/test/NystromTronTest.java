import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.kmx.Dataset;
import io.kmx.Kernel;
import io.kmx.KmxException;
import io.kmx.Loss;
import io.kmx.Method;
import io.kmx.Model;
import io.kmx.Param;
import io.kmx.Solver;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * The Nyström kernel machine trained by TRON (method=nystrom_tron) in one process: its parameters,
 * its accuracy next to the exact SVM on the same rows, its model file, and its errors.
 */
public class NystromTronTest {
    private static Dataset letter;
    private static Dataset train;
    private static Dataset test;
    private static Kernel rbf;

    @BeforeClass
    public static void loadData() {
        letter = Dataset.load(Reference.dataFile("letter_bin.train.libsvm"));
        train = Reference.rows(letter, 0, 1000);
        test = Reference.rows(letter, 1000, 1600);
        rbf = Kernel.createFromString("kernel=rbf gamma=16");
    }

    @AfterClass
    public static void closeData() {
        rbf.close();
        test.close();
        train.close();
        letter.close();
    }

    private static double accuracy(Model model) {
        return Reference.agreement(test.labels(), model.predict(null, test));
    }

    @Test
    public void parametersComeFromTheTable() {
        try (Solver solver = Solver.create(Method.NYSTROM_TRON)) {
            assertSame(Loss.LOSS_AUTO, solver.param(Param.LOSS, Loss.class));
            assertEquals(1, solver.param(Param.STAGES), 0);
            assertEquals(100, solver.param(Param.NEWTON_ITERATIONS), 0);
            assertEquals(1, solver.param(Param.PRECONDITION), 0);
            solver.setParams("loss=logistic stages=3");
            assertSame(Loss.LOSS_LOGISTIC, solver.param(Param.LOSS, Loss.class));
            assertEquals(3, solver.param(Param.STAGES), 0);
        }
    }

    @Test
    public void classifiesNearlyAsWellAsTheExactSvm() {
        try (Solver tron = Solver.createFromString("method=nystrom_tron centers=600 C=1 stages=2");
             Solver svm = Solver.createFromString("method=svm C=1");
             Model machine = tron.train(null, rbf, train);
             Model exact = svm.train(null, rbf, train)) {
            assertSame(Method.NYSTROM_TRON, machine.method());
            assertEquals(600, machine.supportVectors());
            assertEquals(1, machine.cost(), 0);
            double ours = accuracy(machine), reference = accuracy(exact);
            System.out.printf("NystromTronTest: accuracy %.4f, exact SVM %.4f%n", ours, reference);
            assertTrue(ours > reference - 0.04);
        }
    }

    @Test
    public void theModelFileKeepsEveryPrediction() {
        try (Solver solver = Solver.createFromString("method=nystrom_tron centers=100 loss=logistic");
             Model model = solver.train(null, rbf, train);
             Model copy = Model.loadFromBuffer(model.saveToBuffer())) {
            assertSame(Method.NYSTROM_TRON, copy.method());
            assertArrayEquals(model.decisionValues(null, test), copy.decisionValues(null, test), 0);
        }
    }

    @Test
    public void badParametersAndDataRaise() {
        assertThrows(KmxException.class, () -> Solver.createFromString("method=nystrom_tron stages=0"));
        assertThrows(KmxException.class, () -> Solver.createFromString("method=nystrom_tron loss=hinge"));
        try (Solver solver = Solver.createFromString("method=nystrom_tron centers=5000")) {
            KmxException e = assertThrows(KmxException.class, () -> solver.train(null, rbf, train));
            assertTrue(e.getMessage(), e.getMessage().contains("at most n = 1000"));
        }
        try (Solver solver = Solver.createFromString("method=nystrom_tron loss=logistic task=regression")) {
            KmxException e = assertThrows(KmxException.class, () -> solver.train(null, rbf, train));
            assertTrue(e.getMessage(), e.getMessage().contains("loss=squared"));
        }
    }
}
