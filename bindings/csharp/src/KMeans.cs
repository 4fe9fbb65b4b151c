namespace Kmx
{
    /// <summary>What k-means found: centers, one cluster per row, the objective.</summary>
    public sealed class KMeansResult
    {
        /// <summary>Made by KMeans.Fit only.</summary>
        internal KMeansResult() { }

        /// <summary>The k centers, row-major k × d.</summary>
        public double[] Centers { get; internal set; }
        /// <summary>The cluster (0..k-1) of each row.</summary>
        public int[] Assignment { get; internal set; }
        /// <summary>The (weighted) sum of squared distances of the rows to their centers.</summary>
        public double Objective { get; internal set; }
    }

    /// <summary>The nearest center of each row and the squared distance to it.</summary>
    public sealed class KMeansAssignment
    {
        /// <summary>Made by KMeans.Assign only.</summary>
        internal KMeansAssignment() { }

        /// <summary>The nearest center (0..k-1) of each row.</summary>
        public int[] Assignment { get; internal set; }
        /// <summary>The squared distance of each row to that center.</summary>
        public double[] SquaredDistances { get; internal set; }
    }

    /// <summary>k-means with k-means++ seeding and Lloyd iterations; the same seed and threads give the same result.</summary>
    public static class KMeans
    {
        /// <summary>Clusters data into k clusters; parameters "max_iter=100 tol=1e-6" (null for defaults) (kmx_kmeans).</summary>
        public static KMeansResult Fit(Context ctx, Dataset data, long k, string parameters = null)
        {
            long d = data.Cols, n = data.Rows;
            var centers = new double[k > 0 ? k * d : 0];
            var assignment = new int[n];
            Native.KmxKmeans(centers, centers.Length, assignment, assignment.Length, out double objective,
                             Context.OptionalHandle(ctx), data.Handle, k, parameters);
            return new KMeansResult { Centers = centers, Assignment = assignment, Objective = objective };
        }

        /// <summary>The nearest of the k centers (row-major k × d) for each row of data (kmx_kmeans_assign).</summary>
        public static KMeansAssignment Assign(Context ctx, Dataset data, double[] centers)
        {
            long d = data.Cols, n = data.Rows;
            long k = Arrays.Rows(centers, d, nameof(centers));
            var assignment = new int[n];
            var sqdist = new double[n];
            Native.KmxKmeansAssign(assignment, n, sqdist, n, Context.OptionalHandle(ctx), data.Handle, centers, k);
            return new KMeansAssignment { Assignment = assignment, SquaredDistances = sqdist };
        }

        /// <summary>The nearest of the centers (rows of a k × d matrix) for each row of data.</summary>
        public static KMeansAssignment Assign(Context ctx, Dataset data, double[,] centers) =>
            Assign(ctx, data, Arrays.Flatten(centers));
    }
}
