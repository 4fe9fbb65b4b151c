import io.kmx.Context;
import io.kmx.Dataset;
import io.kmx.KMeans;
import io.kmx.Kernel;
import io.kmx.Library;
import java.util.HashMap;
import java.util.Map;

/**
 * kmx from Java: load data, evaluate a kernel block, cluster (examples/c/quickstart.c in Java).
 *   java -cp kmx.jar:kmx-examples.jar Quickstart DATA_FILE [K]
 */
public final class Quickstart {
    public static void main(String[] args) {
        if (args.length < 1) {
            System.err.println("usage: Quickstart DATA_FILE [K]");
            System.exit(2);
        }
        int k = args.length > 1 ? Integer.parseInt(args[1]) : 26;
        System.out.println("kmx " + Library.version());
        try (Context ctx = Context.create("threads=1 seed=42");
             Dataset data = Dataset.load(ctx, args[0], io.kmx.Format.AUTO);
             Kernel kernel = Kernel.createFromString("kernel=rbf gamma=2")) {
            System.out.printf("data      %s: %d rows x %d columns%n", args[0], data.rows(), data.cols());

            int rows = (int) Math.min(data.rows(), 2048);
            long start = System.nanoTime();
            double[] block = kernel.blockRows(ctx, data, 0, rows, data, 0, rows);
            System.out.printf("kernel    rbf gamma=2 block %d x %d in %.4f s; K(x0,x1) = %.6f%n", rows, rows,
                    (System.nanoTime() - start) * 1e-9, block[1]);

            start = System.nanoTime();
            KMeans kmeans = KMeans.fit(ctx, data, k, "max_iter=100");
            System.out.printf("k-means   k = %d in %.4f s: objective %.6f, purity %.4f%n", k,
                    (System.nanoTime() - start) * 1e-9, kmeans.objective(),
                    purity(kmeans.assignment(), data.getLabels(), k));
        }
    }

    /** The fraction of rows whose label is the most common label of their cluster. */
    private static double purity(int[] assignment, double[] labels, int k) {
        Map<Double, int[]> counts = new HashMap<>();
        for (int i = 0; i < assignment.length; i++) {
            counts.computeIfAbsent(labels[i], label -> new int[k])[assignment[i]]++;
        }
        long agree = 0;
        for (int cluster = 0; cluster < k; cluster++) {
            int best = 0;
            for (int[] perCluster : counts.values()) best = Math.max(best, perCluster[cluster]);
            agree += best;
        }
        return (double) agree / assignment.length;
    }
}
