using System;

namespace Kmx
{
    /// <summary>Base of Context, Dataset, Kernel, Solver and Model: owns one SafeHandle; after Dispose() calls pass NULL, so C reports the misuse.</summary>
    public abstract class NativeObject : IDisposable
    {
        KmxHandle handle;
        readonly KmxHandle disposedHandle;

        /// <summary>Takes ownership of handle; disposedHandle (owning nothing) replaces it on Dispose().</summary>
        internal NativeObject(KmxHandle handle, KmxHandle disposedHandle)
        {
            this.handle = handle;
            this.disposedHandle = disposedHandle;
        }

        /// <summary>The current handle: the native object, or NULL once disposed.</summary>
        internal KmxHandle RawHandle => handle;

        /// <summary>True once Dispose() has run.</summary>
        public bool IsDisposed => handle == disposedHandle;

        /// <summary>Frees the native object now (otherwise the garbage collector frees it); later calls do nothing.</summary>
        public void Dispose()
        {
            KmxHandle owned = handle;
            if (owned == disposedHandle) return; // the shared NULL handle must stay usable
            handle = disposedHandle;
            owned.Dispose();
        }
    }
}
