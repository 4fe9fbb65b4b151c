using System;
using System.Runtime.InteropServices;

namespace Kmx.Infer
{
    /// <summary>
    /// The calls of &lt;kmx/kmx_infer.h&gt; that Kmx.Infer makes, straight into libkmx_infer: no glue
    /// library. Mono finds the native through KmxInfer.dll.config (runtimes/RID/native/ beside the
    /// assembly, by CPU); .NET through the package's runtimes/RID/native layout.
    /// </summary>
    internal static unsafe class NativeMethods
    {
        private const string Library = "kmx_infer";

        [DllImport(Library)]
        internal static extern IntPtr kmx_infer_status_name(int status);

        [DllImport(Library)]
        internal static extern int kmx_infer_required_bytes(out long bytes, AlignedMemory blob, long blobLength);

        [DllImport(Library)]
        internal static extern int kmx_infer_open(out IntPtr predictor, AlignedMemory blob, long blobLength,
                                                  AlignedMemory arena, long arenaLength);

        [DllImport(Library)]
        internal static extern int kmx_infer_predict_r(double* label, double* outputs, long outputsLength,
                                                       PredictorHandle predictor, double* x, long xLength,
                                                       AlignedMemory scratch, long scratchLength);

        [DllImport(Library)]
        internal static extern int kmx_infer_predict_probability_r(double* probabilities, long probabilitiesLength,
                                                                   PredictorHandle predictor, double* x, long xLength,
                                                                   AlignedMemory scratch, long scratchLength);

        [DllImport(Library)]
        internal static extern int kmx_infer_has_probabilities(PredictorHandle predictor);

        [DllImport(Library)]
        internal static extern long kmx_infer_features(PredictorHandle predictor);

        [DllImport(Library)]
        internal static extern long kmx_infer_outputs(PredictorHandle predictor);

        [DllImport(Library)]
        internal static extern long kmx_infer_classes(PredictorHandle predictor);

        [DllImport(Library)]
        internal static extern double kmx_infer_class_label(PredictorHandle predictor, long i);

        [DllImport(Library)]
        internal static extern int kmx_infer_is_float32(PredictorHandle predictor);

        [DllImport(Library)]
        internal static extern long kmx_infer_scratch_bytes(PredictorHandle predictor);

        /// <summary>Throws InferException unless status is KMX_INFER_OK (0).</summary>
        internal static void Check(int status, string call)
        {
            if (status != 0)
                throw new InferException(status, Marshal.PtrToStringAnsi(kmx_infer_status_name(status)), call);
        }
    }

    /// <summary>
    /// Unmanaged memory whose handle is its first 8-byte aligned address (kmx_infer's requirement for
    /// the blob, the arena and the scratch), with Bytes usable from there.
    /// </summary>
    internal sealed class AlignedMemory : SafeHandle
    {
        private readonly IntPtr block;

        internal long Bytes { get; }

        internal AlignedMemory(long bytes) : base(IntPtr.Zero, true)
        {
            if (bytes < 0) throw new ArgumentOutOfRangeException(nameof(bytes));
            block = Marshal.AllocHGlobal(new IntPtr(bytes + 7));
            Bytes = bytes;
            SetHandle(new IntPtr((block.ToInt64() + 7) & ~7L));
        }

        public override bool IsInvalid => handle == IntPtr.Zero;

        protected override bool ReleaseHandle()
        {
            Marshal.FreeHGlobal(block);
            return true;
        }
    }

    /// <summary>
    /// An open predictor: the handle is its kmx_infer_predictor address, which points into the blob's
    /// copy and the arena it owns. A call passing it holds a reference, so Dispose() on another thread
    /// frees the memory only once every call has returned.
    /// </summary>
    internal sealed class PredictorHandle : SafeHandle
    {
        private readonly AlignedMemory blob;
        private readonly AlignedMemory arena;

        internal PredictorHandle(AlignedMemory blob, AlignedMemory arena, IntPtr predictor) : base(IntPtr.Zero, true)
        {
            this.blob = blob;
            this.arena = arena;
            SetHandle(predictor);
        }

        public override bool IsInvalid => handle == IntPtr.Zero;

        protected override bool ReleaseHandle()
        {
            arena.Dispose();
            blob.Dispose();
            return true;
        }
    }
}
