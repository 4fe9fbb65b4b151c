import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;
import static org.junit.Assume.assumeTrue;

import io.kmx.Context;
import io.kmx.Dataset;
import io.kmx.Kernel;
import io.kmx.KmxException;
import io.kmx.Method;
import io.kmx.Model;
import io.kmx.Param;
import io.kmx.Solver;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.junit.Test;

/**
 * The one-class SVM (method=one_class, nu) through the generic solver API, on rows without
 * labels, against LIBSVM's svm-train -s 2 on the same rows: its decision values are computed
 * here from its model file (sum_i coef_i exp(-gamma |x_i - x|^2) - rho).
 */
public class OneClassTest {
    private static final double GAMMA = 0.5;
    private static final double NU = 0.1;

    /** n rows of a 2-d standard normal, rounded to 6 significant digits (as the LIBSVM file holds them). */
    private static double[] normalRows(Random rng, int n) {
        double[] x = new double[2 * n];
        for (int i = 0; i < x.length; i++) {
            x[i] = Double.parseDouble(String.format(Locale.ROOT, "%.6g", rng.nextGaussian()));
        }
        return x;
    }

    private static String svmTrain() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            File f = new File(dir, "svm-train");
            if (f.canExecute()) return f.getPath();
        }
        return null;
    }

    @Test
    public void decisionValuesAgreeWithLibsvm() throws IOException, InterruptedException {
        Random rng = new Random(5);
        double[] x = normalRows(rng, 300);
        double[] fresh = normalRows(rng, 100);
        fresh[0] = 6; // one far point: an outlier
        fresh[1] = -6;
        double[] f;
        double[] labels;
        try (Context ctx = Context.create("threads=1");
                Kernel rbf = Kernel.createFromString("kernel=rbf gamma=" + GAMMA);
                Dataset train = Dataset.create(x, 2, null);
                Dataset test = Dataset.create(fresh, 2, null);
                Solver solver = Solver.create(Method.ONE_CLASS)) {
            assertEquals(0.5, solver.param(Param.NU), 0); // LIBSVM's default
            solver.setParam(Param.NU, NU);
            assertThrows(KmxException.class, () -> solver.setParam(Param.NU, 1.5));
            try (Model model = solver.train(ctx, rbf, train)) {
                assertSame(Method.ONE_CLASS, model.method());
                assertEquals(NU, model.nu(), 0);
                assertEquals(2, model.classes());
                f = model.decisionValues(ctx, test);
                labels = model.predict(ctx, test);
            }
        }
        for (int i = 0; i < f.length; i++) assertEquals(f[i] > 0 ? 1.0 : -1.0, labels[i], 0);
        assertEquals(-1.0, labels[0], 0);

        String svmTrain = svmTrain();
        assumeTrue("svm-train (LIBSVM) is not installed", svmTrain != null);
        Path dir = Files.createTempDirectory("kmx-one-class");
        Path data = dir.resolve("train.libsvm");
        Path modelFile = dir.resolve("train.model");
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 300; i++) {
            text.append(String.format(Locale.ROOT, "1 1:%.6g 2:%.6g%n", x[2 * i], x[2 * i + 1]));
        }
        Files.writeString(data, text.toString(), StandardCharsets.US_ASCII);
        Process p = new ProcessBuilder(svmTrain, "-s", "2", "-n", Double.toString(NU), "-g", Double.toString(GAMMA),
                "-e", "0.001", data.toString(), modelFile.toString()).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        assertEquals(0, p.waitFor());
        List<String> lines = Files.readAllLines(modelFile);
        double rho = 0;
        List<double[]> sv = new ArrayList<>();
        boolean inSv = false;
        for (String line : lines) {
            if (inSv) {
                String[] fields = line.trim().split(" ");
                sv.add(new double[] {Double.parseDouble(fields[0]), Double.parseDouble(fields[1].split(":")[1]),
                    Double.parseDouble(fields[2].split(":")[1])});
            } else if (line.startsWith("rho ")) {
                rho = Double.parseDouble(line.substring(4));
            } else if (line.equals("SV")) {
                inSv = true;
            }
        }
        double worst = 0;
        for (int t = 0; t < 100; t++) {
            double expected = -rho;
            for (double[] s : sv) {
                double dx = s[1] - fresh[2 * t], dy = s[2] - fresh[2 * t + 1];
                expected += s[0] * Math.exp(-GAMMA * (dx * dx + dy * dy));
            }
            worst = Math.max(worst, Math.abs(expected - f[t]));
        }
        System.out.printf("OneClassTest: %d LIBSVM SVs, largest |f_kmx - f_libsvm| %.3g%n", sv.size(), worst);
        // Both stop at a largest KKT violation of 1e-3 on rho's scale: each within 1e-3 of the exact f.
        assertTrue("decision values differ by " + worst, worst < 2e-3);
        for (Path file : new Path[] {data, modelFile, dir}) Files.deleteIfExists(file);
    }
}
