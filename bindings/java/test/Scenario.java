import io.kmx.Context;
import io.kmx.Dataset;
import io.kmx.KMeans;
import io.kmx.Kernel;
import io.kmx.Model;
import io.kmx.Solver;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The shared scenario (tests/scenario/README.md) in Java: writes the same results as scenario.c,
 * one line per result, doubles in Double.toString's exact round-trip form.
 *   java Scenario DATA_FILE OUT_FILE
 */
public final class Scenario {
    private static final int K = 26;

    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            System.err.println("usage: Scenario DATA_FILE OUT_FILE");
            System.exit(2);
        }
        try (Context ctx = Context.create("threads=1 seed=42");
             Dataset data = Dataset.load(ctx, args[0], io.kmx.Format.AUTO);
             Kernel kernel = Kernel.createFromString("kernel=rbf gamma=0.5");
             PrintWriter out = new PrintWriter(Files.newBufferedWriter(Path.of(args[1])))) {
            int d = (int) data.cols();
            write(out, "kernel_block", kernel.blockRows(ctx, data, 0, 10, data, 0, 8));
            write(out, "kernel_block_dense", kernel.block(ctx, data.getRows(0, 3), data.getRows(3, 7), d));
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
        }
    }

    private static void write(PrintWriter out, String name, double... values) {
        out.print(name + " " + values.length);
        for (double value : values) out.print(" " + value);
        out.println();
    }
}
