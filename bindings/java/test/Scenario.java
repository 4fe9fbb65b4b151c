import io.kmx.Approximation;
import io.kmx.Context;
import io.kmx.Dataset;
import io.kmx.KMeans;
import io.kmx.Kernel;
import io.kmx.Model;
import io.kmx.ModelInfoKey;
import io.kmx.Predictor;
import io.kmx.Solver;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The shared scenario (tests/scenario/README.md) in Java: writes the same results as scenario.c,
 * one line per result, doubles in Double.toString's exact round-trip form.
 *   java Scenario DATA_FILE REGRESSION_FILE OUT_FILE
 */
public final class Scenario {
    private static final int K = 26;

    public static void main(String[] args) throws IOException {
        if (args.length != 3) {
            System.err.println("usage: Scenario DATA_FILE REGRESSION_FILE OUT_FILE");
            System.exit(2);
        }
        try (Context ctx = Context.create("threads=1 seed=42");
             Dataset data = Dataset.load(ctx, args[0], io.kmx.Format.AUTO);
             Kernel kernel = Kernel.createFromString("kernel=rbf gamma=0.5");
             PrintWriter out = new PrintWriter(Files.newBufferedWriter(Path.of(args[2])))) {
            int d = (int) data.cols();
            write(out, "kernel_block", kernel.blockRows(ctx, data, 0, 10, data, 0, 8));
            write(out, "kernel_block_dense", kernel.block(ctx, data.rowValues(0, 3), data.rowValues(3, 7), d));
            KMeans kmeans = KMeans.fit(ctx, data, K, "max_iter=50");
            write(out, "kmeans_objective", kmeans.objective());
            write(out, "kmeans_centers", kmeans.centers());
            int[] assignment = kmeans.assignment();
            out.print("kmeans_assignment " + assignment.length);
            for (int cluster : assignment) out.print(" " + cluster);
            out.println();
            double sqdistSum = 0;
            for (double sqdist : KMeans.assign(ctx, data, kmeans.centers()).sqdist()) sqdistSum += sqdist;
            write(out, "assign_sqdist_sum", sqdistSum);
            model(out, ctx, data);
            approx(out, ctx, kernel, data);
            krr(out, ctx, args[1]);
        }
    }

    /** Step 6: DC-SVM on rows [0,2000), predictions on rows [2000,2500), a save/load round trip. */
    private static void model(PrintWriter out, Context ctx, Dataset data) {
        try (Dataset train = Reference.rows(data, 0, 2000);
             Dataset test = Reference.rows(data, 2000, 2500);
             Dataset first = Reference.rows(data, 2000, 2020);
             Solver solver = Solver.createFromString("method=dcsvm C=8 levels=2 clusters_per_level=4 sample_size=300");
             Kernel kernel = Kernel.createFromString("kernel=rbf gamma=16");
             Model model = solver.train(ctx, kernel, train)) {
            double[] predictions = model.predict(ctx, test);
            double[] decisionValues = model.decisionValues(ctx, first);
            double supportVectors = model.supportVectors();
            double objective = model.objective();
            try (Model reloaded = Model.loadFromBuffer(model.saveToBuffer())) {
                write(out, "model_predictions", predictions);
                write(out, "model_decision_values", decisionValues);
                write(out, "model_support_vectors", supportVectors);
                write(out, "model_objective", objective);
                write(out, "model_reloaded_predictions", reloaded.predict(ctx, test));
            }
            predictor(out, ctx, model, train, test, first);
        }
    }

    /** Step 7: a compact predictor from step 6's model, its outputs, blob size and a blob round trip. */
    private static void predictor(PrintWriter out, Context ctx, Model model, Dataset train, Dataset test, Dataset first) {
        try (Predictor predictor = Predictor.build(ctx, model, train, "leaves=4 landmarks=16 pseudo=32")) {
            double[] predictions = predictor.predict(ctx, test);
            double[] decisionValues = predictor.decisionValues(ctx, first);
            byte[] blob = predictor.toBytes();
            try (Predictor reloaded = Predictor.fromBytes(blob)) {
                write(out, "predictor_predictions", predictions);
                write(out, "predictor_decision_values", decisionValues);
                write(out, "predictor_bytes", blob.length);
                write(out, "predictor_reloaded_predictions", reloaded.predict(ctx, test));
            }
        }
    }

    /** Step 8: MEKA over rows [0,1000) with the step-2 kernel: rank, bytes, exact error, G~ v, (G~ + 0.1 I)^-1 v. */
    private static void approx(PrintWriter out, Context ctx, Kernel kernel, Dataset data) {
        int n = 1000;
        double[] v = new double[n];
        for (int i = 0; i < n; i++) v[i] = (i % 7) - 3;
        try (Dataset rows = Reference.rows(data, 0, n);
             Approximation approx = Approximation.create(ctx, kernel, rows, "approx=meka rank=16 clusters=4")) {
            if (approx.rows() != n) throw new IllegalStateException("the approximation has " + approx.rows() + " rows");
            write(out, "approx_rank", approx.rank());
            write(out, "approx_memory_bytes", approx.memoryBytes());
            write(out, "approx_relative_error", approx.relativeError(ctx, rows, n));
            write(out, "approx_matvec", approx.matvec(ctx, v));
            write(out, "approx_solve", approx.solve(ctx, 0.1, v));
        }
    }

    /** Step 9: FALKON regression on rows [0,80) of the regression file, predictions on rows [80,106). */
    private static void krr(PrintWriter out, Context ctx, String path) {
        try (Dataset data = Dataset.load(ctx, path, io.kmx.Format.AUTO);
             Dataset train = Reference.rows(data, 0, 80);
             Dataset test = Reference.rows(data, 80, 106);
             Solver solver = Solver.createFromString("method=falkon lambda=1e-4 centers=40 iterations=30");
             Kernel kernel = Kernel.createFromString("kernel=rbf gamma=1");
             Model model = solver.train(ctx, kernel, train)) {
            write(out, "krr_predictions", model.predict(ctx, test));
            write(out, "krr_task", model.info(ModelInfoKey.INFO_TASK));
            write(out, "krr_lambda", model.lambda());
        }
    }

    private static void write(PrintWriter out, String name, double... values) {
        out.print(name + " " + values.length);
        for (double value : values) out.print(" " + value);
        out.println();
    }
}
