using System;

namespace Kmx.Infer
{
    /// <summary>
    /// The working memory of one prediction: each thread predicting with a shared Predictor holds its
    /// own (Predictor.NewScratch()) and reuses it for every call. Unmanaged; Dispose() frees it.
    /// </summary>
    public sealed class Scratch : IDisposable
    {
        internal AlignedMemory Memory { get; }

        internal Scratch(long bytes)
        {
            Memory = new AlignedMemory(bytes);
        }

        /// <summary>Frees the memory; a later prediction with it throws ObjectDisposedException.</summary>
        public void Dispose() => Memory.Dispose();
    }
}
