import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.kmx.Context;
import io.kmx.Dataset;
import io.kmx.Kernel;
import io.kmx.KernelType;
import io.kmx.KmxException;
import io.kmx.Param;
import io.kmx.Status;
import java.util.Random;
import org.junit.Test;

/** Kernel values against Java loops; parameters; bad input and closed handles. */
public class KernelTest {
    private static final double GAMMA = 0.3;
    private static final double COEF0 = 0.25;
    private static final int DEGREE = 3;

    private final double[][] a = Reference.random(new Random(1), 37, 6);
    private final double[][] b = Reference.random(new Random(2), 23, 6);

    private static Kernel kernel(KernelType type) {
        Kernel kernel = Kernel.create(type);
        if (type != KernelType.LINEAR) {
            kernel.setParam(Param.GAMMA, GAMMA);
            kernel.setParam(Param.COEF0, COEF0);
            kernel.setParam(Param.DEGREE, DEGREE);
        }
        return kernel;
    }

    @Test
    public void blockMatchesAJavaLoopForEveryKernel() {
        try (Context ctx = Context.create("threads=2")) {
            for (KernelType type : KernelType.values()) {
                // A matrix's columns (SolverTest), the caller's function (KernelCallbackTest): not kmx's formulas.
                if (type == KernelType.PRECOMPUTED || type == KernelType.CALLBACK) continue;
                try (Kernel kernel = kernel(type)) {
                    double[][] block = kernel.block(ctx, a, b);
                    assertEquals(a.length, block.length);
                    for (int i = 0; i < a.length; i++) {
                        for (int j = 0; j < b.length; j++) {
                            double expected = Reference.kernel(type, GAMMA, COEF0, DEGREE, a[i], b[j]);
                            Reference.assertClose(type + " K(a" + i + ", b" + j + ")", expected, block[i][j], 1e-11, 1e-15);
                        }
                    }
                }
            }
        }
    }

    @Test
    public void evalMatchesAJavaLoop() {
        for (KernelType type : KernelType.values()) {
            if (type == KernelType.PRECOMPUTED || type == KernelType.CALLBACK) continue;
            try (Kernel kernel = kernel(type)) {
                double expected = Reference.kernel(type, GAMMA, COEF0, DEGREE, a[0], b[0]);
                Reference.assertClose(type.toString(), expected, kernel.eval(a[0], b[0]), 1e-12, 1e-15);
            }
        }
    }

    @Test
    public void blockRowsMatchesBlockOfTheSameRows() {
        try (Kernel kernel = Kernel.createFromString("kernel=rbf gamma=0.5");
             Dataset data = Dataset.load(Reference.dataFile("letter_mc.train.libsvm"))) {
            double[] rows = kernel.blockRows(null, data, 5, 15, data, 100, 108);
            double[] flat = kernel.block(null, data.rowValues(5, 15), data.rowValues(100, 108), 16);
            assertEquals(80, rows.length);
            assertArrayEquals(flat, rows, 1e-14);
            double[] a5 = data.rowValues(5, 6);
            double[] b100 = data.rowValues(100, 101);
            Reference.assertClose("K(x5, x100)", Reference.kernel(KernelType.RBF, 0.5, 0, 0, a5, b100), rows[0], 1e-12, 0);
        }
    }

    @Test
    public void paramsFromAString() {
        try (Kernel kernel = Kernel.createFromString("kernel=polynomial gamma=0.5 coef0=1 degree=2")) {
            assertSame(KernelType.POLYNOMIAL, kernel.param(Param.KERNEL, KernelType.class));
            assertEquals(0.5, kernel.param(Param.GAMMA), 0);
            assertEquals(1, kernel.param(Param.COEF0), 0);
            assertEquals(2, kernel.param(Param.DEGREE), 0);
            kernel.setParams("kernel=laplacian gamma=2");
            assertSame(KernelType.LAPLACIAN, kernel.param(Param.KERNEL, KernelType.class));
            double[] x = {1, 2};
            double[] y = {2, 0};
            assertEquals(Math.exp(-2 * 3), kernel.eval(x, y), 1e-15);
        }
    }

    @Test
    public void negativeGammaIsRejectedByC() {
        try (Kernel kernel = Kernel.create(KernelType.RBF)) {
            KmxException e = assertThrows(KmxException.class, () -> kernel.setParam(Param.GAMMA, -1));
            assertSame(Status.INVALID_ARGUMENT, e.status());
            assertEquals("KMX_E_INVALID_ARGUMENT", e.statusName());
            assertTrue(e.detail(), e.detail().contains("gamma"));
            assertThrows(KmxException.class, () -> Kernel.createFromString("gamma=-1"));
            assertThrows(KmxException.class, () -> kernel.setParams("kernel=nonsense"));
            assertThrows(KmxException.class, () -> kernel.setParam(Param.THREADS, 2));
        }
    }

    @Test
    public void wrongSizedArrays() {
        try (Kernel kernel = Kernel.create(KernelType.LINEAR)) {
            assertThrows(IllegalArgumentException.class, () -> kernel.eval(new double[3], new double[2]));
            assertThrows(IllegalArgumentException.class, () -> kernel.block(null, new double[7], new double[6], 3));
            double[][] ragged = {{1, 2}, {3}};
            assertThrows(IllegalArgumentException.class, () -> kernel.block(null, ragged, b));
            assertThrows(IllegalArgumentException.class, () -> kernel.block(null, a, new double[][] {{1, 2}}));
        }
    }

    @Test
    public void nanInTheData() {
        try (Kernel kernel = Kernel.create(KernelType.RBF)) {
            double[][] withNaN = {{1, Double.NaN}};
            KmxException e = assertThrows(KmxException.class, () -> kernel.block(null, withNaN, withNaN));
            assertSame(Status.INVALID_ARGUMENT, e.status());
        }
    }

    @Test
    public void closedKernelPassesNullToC() {
        Kernel kernel = Kernel.create(KernelType.RBF);
        kernel.close();
        KmxException e = assertThrows(KmxException.class, () -> kernel.eval(a[0], b[0]));
        assertSame(Status.INVALID_ARGUMENT, e.status());
        assertTrue(e.detail(), e.detail().contains("kernel is NULL"));
        assertThrows(KmxException.class, () -> kernel.block(null, a, b));
        assertThrows(KmxException.class, () -> kernel.param(Param.GAMMA));
        Dataset closed = Dataset.create(a);
        closed.close();
        try (Kernel live = Kernel.create(KernelType.RBF)) {
            assertThrows(KmxException.class, () -> live.blockRows(null, closed, 0, 1, closed, 0, 1));
        }
    }
}
