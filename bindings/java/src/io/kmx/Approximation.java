package io.kmx;

/**
 * A low-rank or block approximation G~ of the kernel matrix G of a dataset (kmx_approx): Nystrom
 * (uniform or k-means landmarks, optional rank truncation) or MEKA (per-cluster Nystrom bases linked
 * by small blocks). Immutable once built, so it may be shared by threads (each with its own Context,
 * or null); it does not depend on the kernel, dataset or context it was built with.
 */
public final class Approximation extends NativeResource {
    private Approximation(long address) {
        super(address, freeing(address, kmx::kmx_approx_free));
    }

    /**
     * Approximates kernel's matrix over the rows of data; params such as "approx=meka rank=16
     * clusters=4" (approx, centers, rank, clusters, threshold, oversampling, rank_by_size; null for
     * defaults); ctx (may be null) gives threads, seed and budget.
     */
    public static Approximation create(Context ctx, Kernel kernel, Dataset data, String params) {
        return new Approximation(kmx.kmx_approx_create(ctx, kernel, data, params));
    }

    /** G~ v for a vector v of rows() values; ctx may be null. */
    public double[] matvec(Context ctx, double[] v) {
        double[] out = new double[Matrices.length(rows(), 1)];
        kmx.kmx_approx_matvec(out, ctx, this, v);
        return out;
    }

    /** (G~ + lambda I)^-1 v for lambda > 0 and a vector v of rows() values (Woodbury's identity). */
    public double[] solve(Context ctx, double lambda, double[] v) {
        double[] out = new double[Matrices.length(rows(), 1)];
        kmx.kmx_approx_solve(out, ctx, this, lambda, v);
        return out;
    }

    /**
     * |G - G~|_F / |G|_F over sampleRows rows of G drawn at random (exact when sampleRows >= rows());
     * data must be the dataset the approximation was built on.
     */
    public double relativeError(Context ctx, Dataset data, long sampleRows) {
        return kmx.kmx_approx_relative_error(ctx, this, data, sampleRows);
    }

    /** The bytes the approximation holds (its factors, exactly). */
    public long memoryBytes() {
        return kmx.kmx_approx_memory_bytes(this);
    }

    /** The number of rows n it approximates. */
    public long rows() {
        return kmx.kmx_approx_rows(this);
    }

    /** Its rank: the columns of W (m landmarks, k, or c*k for MEKA). */
    public long rank() {
        return kmx.kmx_approx_rank(this);
    }
}
