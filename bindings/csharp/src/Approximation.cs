namespace Kmx
{
    /// <summary>A low-rank or block approximation G~ of the kernel matrix G of a dataset (kmx_approx): Nystrom
    /// (uniform or k-means landmarks, optional rank truncation) or MEKA (per-cluster Nystrom bases linked by small blocks).</summary>
    /// <remarks>Immutable once built: calls may run on several threads at once (each with its own Context, or none).
    /// It keeps its own factors, so it outlives the kernel, dataset and context it was built with.</remarks>
    public sealed class Approximation : NativeObject
    {
        Approximation(ApproxHandle handle) : base(handle, ApproxHandle.Null) { }

        /// <summary>Approximates kernel's matrix over the rows of data with parameters such as
        /// "approx=meka rank=16 clusters=4" (approx, centers, rank, clusters, threshold, oversampling, rank_by_size;
        /// null for defaults) (kmx_approx_create).</summary>
        public Approximation(Context ctx, Kernel kernel, Dataset data, string parameters = null)
            : this(Create(ctx, kernel, data, parameters)) { }

        static ApproxHandle Create(Context ctx, Kernel kernel, Dataset data, string parameters)
        {
            Native.KmxApproxCreate(out ApproxHandle handle, Context.OptionalHandle(ctx), kernel.Handle, data.Handle, parameters);
            return handle;
        }

        internal ApproxHandle Handle => (ApproxHandle)RawHandle;

        /// <summary>G~ v for a vector of Rows values (kmx_approx_matvec).</summary>
        public double[] Matvec(Context ctx, double[] v)
        {
            var result = new double[Rows];
            Native.KmxApproxMatvec(result, result.Length, Context.OptionalHandle(ctx), Handle, v, v?.Length ?? 0);
            return result;
        }

        /// <summary>(G~ + lambda I)^-1 v for lambda &gt; 0 and a vector of Rows values, by Woodbury's identity (kmx_approx_solve).</summary>
        public double[] Solve(Context ctx, double lambda, double[] v)
        {
            var result = new double[Rows];
            Native.KmxApproxSolve(result, result.Length, Context.OptionalHandle(ctx), Handle, lambda, v, v?.Length ?? 0);
            return result;
        }

        /// <summary>|G - G~|_F / |G|_F over sampleRows rows of G drawn at random, exact when sampleRows &gt;= Rows;
        /// data must be the dataset it was built on (kmx_approx_relative_error).</summary>
        public double RelativeError(Context ctx, Dataset data, long sampleRows) =>
            Scalar.Read(value => Native.KmxApproxRelativeError(value, Context.OptionalHandle(ctx), Handle, data.Handle, sampleRows));

        /// <summary>The bytes the approximation holds, its factors exactly (kmx_approx_memory_bytes).</summary>
        public long MemoryBytes
        {
            get
            {
                Native.KmxApproxMemoryBytes(out long bytes, Handle);
                return bytes;
            }
        }

        /// <summary>The number of rows n it approximates (kmx_approx_rows).</summary>
        public long Rows
        {
            get
            {
                Native.KmxApproxRows(out long rows, Handle);
                return rows;
            }
        }

        /// <summary>Its rank: the columns of W (m landmarks, k, or c*k for MEKA) (kmx_approx_rank).</summary>
        public long Rank
        {
            get
            {
                Native.KmxApproxRank(out long rank, Handle);
                return rank;
            }
        }
    }
}
