import io.kmx.Context;
import io.kmx.Dataset;
import io.kmx.KMeans;
import io.kmx.Kernel;
import io.kmx.Library;
import io.kmx.Model;
import io.kmx.Solver;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * kmx from Java: load data, evaluate a kernel block, cluster (examples/c/quickstart.c in Java),
 * then train DC-SVM on the first 4000 rows of a binary training set and predict its test set.
 *   java -cp kmx.jar:kmx-examples.jar Quickstart DATA_FILE [K [TRAIN_FILE TEST_FILE]]
 * TRAIN_FILE and TEST_FILE default to letter_bin.train.libsvm and letter_bin.test.libsvm beside
 * DATA_FILE.
 */
public final class Quickstart {
    public static void main(String[] args) {
        if (args.length < 1) {
            System.err.println("usage: Quickstart DATA_FILE [K [TRAIN_FILE TEST_FILE]]");
            System.exit(2);
        }
        int k = args.length > 1 ? Integer.parseInt(args[1]) : 26;
        Path dataDir = Path.of(args[0]).toAbsolutePath().getParent();
        String trainFile = args.length > 2 ? args[2] : dataDir.resolve("letter_bin.train.libsvm").toString();
        String testFile = args.length > 3 ? args[3] : dataDir.resolve("letter_bin.test.libsvm").toString();
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
                    purity(kmeans.assignment(), data.labels(), k));
        }
        svm(trainFile, testFile);
    }

    /** DC-SVM (C = 8, RBF gamma = 16) on the first 4000 training rows; accuracy on the test set. */
    private static void svm(String trainFile, String testFile) {
        try (Context ctx = Context.create("threads=4 seed=42");
             Dataset all = Dataset.load(ctx, trainFile, io.kmx.Format.AUTO);
             Dataset test = Dataset.load(ctx, testFile, io.kmx.Format.AUTO);
             Kernel kernel = Kernel.createFromString("kernel=rbf gamma=16");
             Solver solver = Solver.createFromString("method=dcsvm C=8")) {
            int rows = (int) Math.min(all.rows(), 4000);
            double[] labels = Arrays.copyOf(all.labels(), rows);
            try (Dataset train = Dataset.create(all.rowValues(0, rows), (int) all.cols(), labels)) {
                long start = System.nanoTime();
                try (Model model = solver.train(ctx, kernel, train)) {
                    double trainSeconds = (System.nanoTime() - start) * 1e-9;
                    start = System.nanoTime();
                    double[] predicted = model.predict(ctx, test);
                    double predictSeconds = (System.nanoTime() - start) * 1e-9;
                    double[] truth = test.labels();
                    int correct = 0;
                    for (int i = 0; i < truth.length; i++) {
                        if (predicted[i] == truth[i]) correct++;
                    }
                    System.out.printf("dcsvm     %d rows in %.4f s: %d support vectors, objective %.6f%n", rows,
                            trainSeconds, model.supportVectors(), model.objective());
                    System.out.printf("predict   %d test rows in %.4f s: accuracy %.4f%n", truth.length,
                            predictSeconds, (double) correct / truth.length);
                }
            }
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
