using System;
using System.IO;
using System.Runtime.InteropServices;

namespace Kmx.Infer
{
    /// <summary>
    /// A compact DC-Pred++ predictor (the blob <c>kmx compress</c> or <c>Kmx.Predictor.ToBytes()</c>
    /// writes) opened by kmx's inference subset, libkmx_infer: no BLAS, no C++ runtime.
    /// <code>
    /// using (var predictor = Predictor.Open(File.ReadAllBytes("letter.kmxp")))
    /// using (var scratch = predictor.NewScratch())           // one per thread
    /// {
    ///     double label = predictor.Predict(row, scratch);     // row.Length == predictor.Features
    /// }
    /// </code>
    /// Opening copies the bytes into unmanaged memory and validates them completely (CRC, layout,
    /// values); a blob that is not a predictor, or is corrupt or truncated, throws InferException.
    /// After that the predictor is only read: any number of threads may predict with it at once, each
    /// with its own Scratch. Dispose() frees its memory once running calls return; later calls throw
    /// ObjectDisposedException.
    /// </summary>
    public sealed class Predictor : IDisposable
    {
        private readonly PredictorHandle handle;
        private readonly double[] classLabels;

        /// <summary>The number of features d: the length of a row.</summary>
        public int Features { get; }

        /// <summary>Decision values per row.</summary>
        public int Outputs { get; }

        /// <summary>The number of classes; 0 for a regression predictor.</summary>
        public int Classes => classLabels.Length;

        /// <summary>True for a regression predictor.</summary>
        public bool IsRegression => classLabels.Length == 0;

        /// <summary>True if the blob stores floats (computes in float), false for doubles.</summary>
        public bool IsFloat32 { get; }

        /// <summary>The bytes a Scratch for this predictor holds.</summary>
        public long ScratchBytes { get; }

        /// <summary>True if the blob carries its model's probability estimates (PredictProbability works).</summary>
        public bool HasProbabilities { get; }

        private Predictor(PredictorHandle handle)
        {
            this.handle = handle;
            Features = (int)NativeMethods.kmx_infer_features(handle);
            Outputs = (int)NativeMethods.kmx_infer_outputs(handle);
            classLabels = new double[NativeMethods.kmx_infer_classes(handle)];
            for (int i = 0; i < classLabels.Length; i++) classLabels[i] = NativeMethods.kmx_infer_class_label(handle, i);
            IsFloat32 = NativeMethods.kmx_infer_is_float32(handle) != 0;
            ScratchBytes = NativeMethods.kmx_infer_scratch_bytes(handle);
            HasProbabilities = NativeMethods.kmx_infer_has_probabilities(handle) != 0;
        }

        /// <summary>Opens the predictor blob held by bytes (copied: the array may be reused).</summary>
        public static Predictor Open(byte[] bytes)
        {
            if (bytes == null) throw new ArgumentNullException(nameof(bytes));
            return Open(new ReadOnlySpan<byte>(bytes));
        }

        /// <summary>Reads the stream to its end (e.g. an app asset) and opens the blob; does not close it.</summary>
        public static Predictor Open(Stream stream)
        {
            if (stream == null) throw new ArgumentNullException(nameof(stream));
            using (var bytes = new MemoryStream())
            {
                stream.CopyTo(bytes);
                return Open(new ReadOnlySpan<byte>(bytes.GetBuffer(), 0, (int)bytes.Length));
            }
        }

        /// <summary>Opens the predictor blob held by bytes (copied).</summary>
        public static unsafe Predictor Open(ReadOnlySpan<byte> bytes)
        {
            var blob = new AlignedMemory(bytes.Length);
            AlignedMemory arena = null;
            try
            {
                bytes.CopyTo(new Span<byte>((void*)blob.DangerousGetHandle(), bytes.Length));
                long arenaBytes;
                NativeMethods.Check(NativeMethods.kmx_infer_required_bytes(out arenaBytes, blob, bytes.Length),
                                    "kmx_infer_required_bytes");
                arena = new AlignedMemory(arenaBytes);
                IntPtr predictor;
                NativeMethods.Check(NativeMethods.kmx_infer_open(out predictor, blob, bytes.Length, arena, arenaBytes),
                                    "kmx_infer_open");
                return new Predictor(new PredictorHandle(blob, arena, predictor));
            }
            catch
            {
                arena?.Dispose();
                blob.Dispose();
                throw;
            }
        }

        /// <summary>A scratch buffer for this predictor (and any other needing at most as many bytes).</summary>
        public Scratch NewScratch()
        {
            if (handle.IsClosed) throw new ObjectDisposedException(nameof(Predictor));
            return new Scratch(ScratchBytes);
        }

        /// <summary>The class labels, increasing (empty for regression).</summary>
        public double[] ClassLabels() => (double[])classLabels.Clone();

        /// <summary>The label of row x (regression: the value); x.Length must be Features.</summary>
        public double Predict(ReadOnlySpan<double> x, Scratch scratch) => Predict(x, Span<double>.Empty, scratch);

        /// <summary>
        /// The label of row x; outputs, unless empty, gets its Outputs decision values (it may be longer).
        /// A row of the wrong length throws InferException (KMX_INFER_E_INVALID_ARGUMENT), a scratch that
        /// is too small KMX_INFER_E_ARENA_TOO_SMALL.
        /// </summary>
        public unsafe double Predict(ReadOnlySpan<double> x, Span<double> outputs, Scratch scratch)
        {
            if (scratch == null) throw new ArgumentNullException(nameof(scratch));
            double label = 0;
            fixed (double* xValues = &MemoryMarshal.GetReference(x))
            fixed (double* outputValues = &MemoryMarshal.GetReference(outputs))
            {
                NativeMethods.Check(NativeMethods.kmx_infer_predict_r(&label, outputValues, outputs.Length, handle,
                                                                      xValues, x.Length, scratch.Memory,
                                                                      scratch.Memory.Bytes),
                                    "kmx_infer_predict_r");
            }
            return label;
        }

        /// <summary>
        /// The class probabilities of row x, Classes values in ClassLabels() order summing to 1: the model's Platt
        /// sigmoids (carried by a blob compressed from a model trained with probability=1) on the decision values, as
        /// the full library's. A blob without them throws InferException (KMX_INFER_E_NO_PROBABILITIES).
        /// </summary>
        public double[] PredictProbability(ReadOnlySpan<double> x, Scratch scratch)
        {
            var probabilities = new double[classLabels.Length];
            PredictProbability(x, probabilities, scratch);
            return probabilities;
        }

        /// <summary>The same into probabilities (at least Classes long).</summary>
        public unsafe void PredictProbability(ReadOnlySpan<double> x, Span<double> probabilities, Scratch scratch)
        {
            if (scratch == null) throw new ArgumentNullException(nameof(scratch));
            fixed (double* xValues = &MemoryMarshal.GetReference(x))
            fixed (double* values = &MemoryMarshal.GetReference(probabilities))
            {
                NativeMethods.Check(NativeMethods.kmx_infer_predict_probability_r(values, probabilities.Length, handle,
                                                                                  xValues, x.Length, scratch.Memory,
                                                                                  scratch.Memory.Bytes),
                                    "kmx_infer_predict_probability_r");
            }
        }

        /// <summary>Frees the predictor's memory once running calls return. Idempotent.</summary>
        public void Dispose() => handle.Dispose();
    }
}
