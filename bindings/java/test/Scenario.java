import io.kmx.Context;
import io.kmx.Dataset;
import io.kmx.KMeans;
import io.kmx.Kernel;
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
        }
    }

    private static void write(PrintWriter out, String name, double... values) {
        out.print(name + " " + values.length);
        for (double value : values) out.print(" " + value);
        out.println();
    }
}
