using System;
using System.Text;

namespace Kmx
{
    /// <summary>A distinct label and how many rows carry it.</summary>
    public struct LabelCount
    {
        internal LabelCount(double label, long count)
        {
            Label = label;
            Count = count;
        }

        /// <summary>The label value.</summary>
        public double Label { get; }
        /// <summary>The number of rows with it.</summary>
        public long Count { get; }
    }

    /// <summary>Rows of features with optional labels and weights (kmx_dataset); read-only once made, shareable between threads.</summary>
    /// <remarks>Always created with KMX_COPY: kmx keeps its own copy, nothing native points into managed arrays.</remarks>
    public sealed class Dataset : NativeObject
    {
        Dataset(DatasetHandle handle) : base(handle, DatasetHandle.Null) { }

        /// <summary>A dataset from row-major x with d columns and optional labels y (one per row); values must be finite (kmx_dataset_create).</summary>
        public Dataset(double[] x, long d, double[] y = null) : this(Create(x, d, y)) { }

        /// <summary>A dataset from the matrix x (rows × columns) and optional labels y.</summary>
        public Dataset(double[,] x, double[] y = null) : this(Arrays.Flatten(x), x.GetLength(1), y) { }

        static DatasetHandle Create(double[] x, long d, double[] y)
        {
            long n = Arrays.Rows(x, d, nameof(x));
            Arrays.RequireLength(y, n, nameof(y));
            Native.KmxDatasetCreate(out DatasetHandle handle, x, n, d, y, Ownership.Copy);
            return handle;
        }

        /// <summary>A sparse dataset from CSR arrays (SciPy's and MathNet's layout; kmx_dataset_create_csr): row r holds
        /// entries rowPtr[r] .. rowPtr[r+1]-1 of col (0-based columns, increasing within the row, below d) and values;
        /// rowPtr starts at 0 and has one more entry than there are rows. It stays sparse: a column a row does not list
        /// is zero. Optional labels y, one per row.</summary>
        public static Dataset FromCsr(long[] rowPtr, int[] col, double[] values, long d, double[] y = null)
        {
            if (rowPtr == null) throw new ArgumentNullException(nameof(rowPtr));
            if (rowPtr.Length < 2)
                throw new ArgumentException($"rowPtr needs n + 1 entries for n >= 1 rows, not {rowPtr.Length}", nameof(rowPtr));
            long n = rowPtr.Length - 1, entries = rowPtr[n];
            Arrays.RequireLength(col ?? throw new ArgumentNullException(nameof(col)), entries, nameof(col));
            Arrays.RequireLength(values ?? throw new ArgumentNullException(nameof(values)), entries, nameof(values));
            Arrays.RequireLength(y, n, nameof(y));
            Native.KmxDatasetCreateCsr(out DatasetHandle handle, Context.OptionalHandle(null), rowPtr, col, values, n, d, y, Ownership.Copy);
            return new Dataset(handle);
        }

        /// <summary>Reads a LIBSVM or CSV file, label first, its format told by its contents, with no context (kmx_dataset_load).</summary>
        public static Dataset Load(string path) => Load(null, path);

        /// <summary>Reads a LIBSVM or CSV file, label first; ctx (null for none) bounds its size by its memory budget (kmx_dataset_load).</summary>
        public static Dataset Load(Context ctx, string path, FileFormat format = FileFormat.Auto)
        {
            Native.KmxDatasetLoad(out DatasetHandle handle, Context.OptionalHandle(ctx), path, format);
            return new Dataset(handle);
        }

        /// <summary>Shard `shard` of `shards` of a file: a row range of a .kmxd file, or the lines that start in
        /// that share of a text file's bytes (kmx_dataset_load_shard).</summary>
        /// <remarks>With a context whose communicator (Context.SetCommunicator) spans several ranks the call is collective: every
        /// rank calls it (usually shard = its rank, shards = the ranks), and if one fails, every rank throws that rank's error.</remarks>
        public static Dataset LoadShard(Context ctx, string path, FileFormat format, long shard, long shards)
        {
            Native.KmxDatasetLoadShard(out DatasetHandle handle, Context.OptionalHandle(ctx), path, format, shard, shards);
            return new Dataset(handle);
        }

        /// <summary>Writes the dataset as a .kmxd file, loaded back mapped in place (kmx_dataset_save).</summary>
        public void Save(string path, DataPrecision precision = DataPrecision.PrecisionFloat64) =>
            Native.KmxDatasetSave(Handle, path, precision);

        /// <summary>Like Load, from text in memory; name appears in error messages (kmx_dataset_parse).</summary>
        public static Dataset Parse(Context ctx, string text, FileFormat format = FileFormat.Auto, string name = "text")
        {
            byte[] bytes = Encoding.UTF8.GetBytes(text);
            Native.KmxDatasetParse(out DatasetHandle handle, Context.OptionalHandle(ctx), bytes, bytes.Length, format, name);
            return new Dataset(handle);
        }

        internal DatasetHandle Handle => (DatasetHandle)RawHandle;

        /// <summary>Sets per-row sample weights (copied; finite, >= 0, not all zero; one per row) (kmx_dataset_set_weights).</summary>
        public void SetWeights(double[] weights) => Native.KmxDatasetSetWeights(Handle, weights, weights?.Length ?? 0);

        /// <summary>The number of rows (kmx_dataset_rows).</summary>
        public long Rows
        {
            get
            {
                Native.KmxDatasetRows(out long rows, Handle);
                return rows;
            }
        }

        /// <summary>The number of columns (kmx_dataset_cols).</summary>
        public long Cols
        {
            get
            {
                Native.KmxDatasetCols(out long cols, Handle);
                return cols;
            }
        }

        /// <summary>The number of stored nonzeros, Rows*Cols when dense (kmx_dataset_nnz).</summary>
        public long Nnz
        {
            get
            {
                Native.KmxDatasetNnz(out long nnz, Handle);
                return nnz;
            }
        }

        /// <summary>The number of values that are not zero: the stored ones but explicit zeros (kmx_dataset_nonzeros).</summary>
        public long Nonzeros
        {
            get
            {
                Native.KmxDatasetNonzeros(out long nonzeros, Handle);
                return nonzeros;
            }
        }

        /// <summary>True if stored sparse (CSR) (kmx_dataset_is_sparse).</summary>
        public bool IsSparse
        {
            get
            {
                Native.KmxDatasetIsSparse(out int flag, Handle);
                return flag != 0;
            }
        }

        /// <summary>True if its values are stored as floats (kmx_dataset_is_float32).</summary>
        public bool IsFloat32
        {
            get
            {
                Native.KmxDatasetIsFloat32(out int flag, Handle);
                return flag != 0;
            }
        }

        /// <summary>True if it has labels/targets (kmx_dataset_has_labels).</summary>
        public bool HasLabels
        {
            get
            {
                Native.KmxDatasetHasLabels(out int flag, Handle);
                return flag != 0;
            }
        }

        /// <summary>True if it has sample weights (kmx_dataset_has_weights).</summary>
        public bool HasWeights
        {
            get
            {
                Native.KmxDatasetHasWeights(out int flag, Handle);
                return flag != 0;
            }
        }

        /// <summary>Rows [begin, end) as dense row-major values (kmx_dataset_get_rows).</summary>
        public double[] GetRows(long begin, long end)
        {
            var values = new double[(end > begin ? end - begin : 0) * Cols];
            GetRows(begin, end, values);
            return values;
        }

        /// <summary>Copies rows [begin, end) into destination, which C checks is large enough (kmx_dataset_get_rows).</summary>
        public void GetRows(long begin, long end, double[] destination) =>
            Native.KmxDatasetGetRows(destination, destination?.Length ?? 0, Handle, begin, end);

        /// <summary>The labels, one per row (kmx_dataset_get_labels).</summary>
        public double[] GetLabels()
        {
            var labels = new double[Rows];
            GetLabels(labels);
            return labels;
        }

        /// <summary>Copies the labels into destination, which C checks is large enough (kmx_dataset_get_labels).</summary>
        public void GetLabels(double[] destination) => Native.KmxDatasetGetLabels(destination, destination?.Length ?? 0, Handle);

        /// <summary>The distinct labels in increasing order with their counts (kmx_dataset_classes).</summary>
        public LabelCount[] Classes()
        {
            Native.KmxDatasetClasses(out long count, null, null, 0, Handle);
            var labels = new double[count];
            var counts = new long[count];
            Native.KmxDatasetClasses(out count, labels, counts, count, Handle);
            var classes = new LabelCount[count];
            for (long i = 0; i < count; ++i) classes[i] = new LabelCount(labels[i], counts[i]);
            return classes;
        }

        /// <summary>A dense copy of this (possibly sparse) dataset, within ctx's budget; ctx may be null (kmx_dataset_to_dense).</summary>
        public Dataset ToDense(Context ctx)
        {
            Native.KmxDatasetToDense(out DatasetHandle handle, Context.OptionalHandle(ctx), Handle);
            return new Dataset(handle);
        }
    }
}
