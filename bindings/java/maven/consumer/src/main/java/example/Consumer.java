package example;

import io.kmx.Dataset;
import io.kmx.Kernel;
import io.kmx.Model;
import io.kmx.Predictor;
import io.kmx.Solver;
import io.kmx.infer.Scratch;
import java.util.Locale;

/**
 * A Maven project's use of kmx (test java_maven): exact kernel ridge regression on two rows with io.kmx:kmx, its
 * predictions at two more rows by the model, then by the compact predictor opened with io.kmx:kmx-infer. Prints
 * "model Q VALUE" and "infer Q VALUE" per query row Q; the test compares them with the closed form (the same rows
 * and parameters are in bindings/package_consumer.py).
 */
public final class Consumer {
    static final double[] X = {0, 0, 1, 0};                   // two rows of two columns
    static final double[] Y = {1, -0.5};
    static final double[][] QUERIES = {{0.25, 0.5}, {2, -1}};

    public static void main(String[] args) {
        System.out.println("kmx " + io.kmx.Library.version());
        try (Dataset train = Dataset.create(X, 2, Y);
             Dataset test = Dataset.create(QUERIES);
             Kernel rbf = Kernel.createFromString("kernel=rbf gamma=0.5");
             Solver solver = Solver.createFromString("method=krr lambda=0.05 task=regression");
             Model model = solver.train(null, rbf, train);
             Predictor compact = Predictor.build(null, model, train, "storage=float64")) {
            double[] fitted = model.predict(null, test);
            for (int q = 0; q < QUERIES.length; q++) System.out.printf(Locale.ROOT, "model %d %.17g%n", q, fitted[q]);
            try (io.kmx.infer.Predictor app = io.kmx.infer.Predictor.open(compact.toBytes())) {
                Scratch scratch = app.newScratch();
                for (int q = 0; q < QUERIES.length; q++)
                    System.out.printf(Locale.ROOT, "infer %d %.17g%n", q, app.predict(QUERIES[q], scratch));
            }
        }
    }
}
