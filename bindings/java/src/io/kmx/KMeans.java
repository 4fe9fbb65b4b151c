package io.kmx;

import java.util.Arrays;

/**
 * A k-means clustering (k-means++ seeding, Lloyd iterations): k centers of d values, each row's
 * cluster and the objective sum_i w_i |x_i - c(i)|^2. Plain Java data: nothing to close.
 */
public final class KMeans {
    /** Each row's nearest center and its squared distance to it. */
    public record Assignment(int[] clusters, double[] sqdist) {}

    private final double[] centers;
    private final int[] assignment;
    private final double objective;
    private final int d;

    private KMeans(double[] centers, int[] assignment, double objective, int d) {
        this.centers = centers;
        this.assignment = assignment;
        this.objective = objective;
        this.d = d;
    }

    /** Clusters data into k clusters; params such as "max_iter=50 tol=1e-6" (null for defaults). */
    public static KMeans fit(Context ctx, Dataset data, int k, String params) {
        int n = Matrices.length(data.rows(), 1);
        int d = Matrices.length(data.cols(), 1);
        double[] centers = new double[Matrices.length(k, d)];
        int[] assignment = new int[n];
        double objective = kmx.kmx_kmeans(centers, assignment, ctx, data, k, params);
        return new KMeans(centers, assignment, objective, d);
    }

    /** The nearest of the row-major centers (k x cols()) for each row of data. */
    public static Assignment assign(Context ctx, Dataset data, double[] centers) {
        long k = Matrices.rows(centers, data.cols(), "centers");
        int n = Matrices.length(data.rows(), 1);
        Assignment result = new Assignment(new int[n], new double[n]);
        kmx.kmx_kmeans_assign(result.clusters(), result.sqdist(), ctx, data, centers, k);
        return result;
    }

    /** The nearest of this clustering's centers for each row of data. */
    public Assignment assign(Context ctx, Dataset data) {
        return assign(ctx, data, centers);
    }

    /** The number of clusters. */
    public int k() {
        return centers.length / d;
    }

    /** The center coordinates, k x d row-major (a copy). */
    public double[] centers() {
        return centers.clone();
    }

    /** Center c's d coordinates. */
    public double[] center(int c) {
        return Arrays.copyOfRange(centers, c * d, (c + 1) * d);
    }

    /** Each training row's cluster (a copy). */
    public int[] assignment() {
        return assignment.clone();
    }

    /** The (weighted) sum of squared distances of the rows to their centers. */
    public double objective() {
        return objective;
    }
}
