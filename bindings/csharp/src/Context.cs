using System;

namespace Kmx
{
    /// <summary>Threads, seed, memory budget, callbacks and the ranks they span (a communicator) for the calls made with it (kmx_context).</summary>
    /// <remarks>Used by one thread at a time, except Cancel(), which any thread may call. A call that takes a
    /// context takes it first, as in C and Java: null means none, and a disposed Context raises ObjectDisposedException.</remarks>
    public sealed class Context : NativeObject
    {
        /// <summary>A context with default parameters (kmx_context_create).</summary>
        public Context() : base(Create(), ContextHandle.Null) { }

        /// <summary>A context with parameters from "threads=2 seed=7 ..." (see SetParams).</summary>
        public Context(string parameters) : this()
        {
            SetParams(parameters);
        }

        static ContextHandle Create()
        {
            Native.KmxContextCreate(out ContextHandle handle);
            return handle;
        }

        internal ContextHandle Handle => (ContextHandle)RawHandle;

        /// <summary>The handle to pass where C accepts "no context": NULL for null; a disposed context is refused.</summary>
        internal static ContextHandle OptionalHandle(Context ctx)
        {
            if (ctx == null) return ContextHandle.Null;
            if (ctx.IsDisposed) throw new ObjectDisposedException(nameof(Context), "the Context passed was disposed");
            return ctx.Handle;
        }

        /// <summary>Sets one parameter (kmx_context_set_param).</summary>
        public void SetParam(Param param, double value) => Native.KmxContextSetParam(Handle, param, value);

        /// <summary>Reads one parameter (kmx_context_get_param).</summary>
        public double GetParam(Param param) => Scalar.Read(value => Native.KmxContextGetParam(value, Handle, param));

        /// <summary>Sets parameters from "threads=2 seed=7 memory_budget=1e9"; on error nothing changes (kmx_context_set_params).</summary>
        public void SetParams(string parameters) => Native.KmxContextSetParams(Handle, parameters);

        /// <summary>Receives log messages at or below Param.LogLevel; null removes it (kmx_context_set_log_callback).</summary>
        /// <remarks>An exception thrown by the callback is rethrown by the kmx call that logged.</remarks>
        public void SetLogCallback(Action<LogSeverity, string> log)
        {
            NativeLogCallback trampoline = null;
            if (log != null)
                trampoline = (userData, level, message) => Callbacks.Guard(() => log(level, message));
            Native.KmxContextSetLogCallback(Handle, trampoline, IntPtr.Zero);
            Handle.LogCallback = trampoline;
        }

        /// <summary>Receives progress (fraction done, phase); returning true cancels the call; null removes it (kmx_context_set_progress_callback).</summary>
        /// <remarks>The cancelled call throws KmxException (Status.Cancelled); an exception thrown by the callback also cancels and becomes its InnerException.</remarks>
        public void SetProgressCallback(Func<double, string, bool> progress)
        {
            NativeProgressCallback trampoline = null;
            if (progress != null)
                trampoline = (userData, fraction, phase) => Callbacks.Guard(() => progress(fraction, phase)) ? 1 : 0;
            Native.KmxContextSetProgressCallback(Handle, trampoline, IntPtr.Zero);
            Handle.ProgressCallback = trampoline;
        }

        /// <summary>Makes the calls made with this context span the ranks of communicator (kmx_context_set_communicator): Nyström-TRON
        /// and FALKON training then sum over every rank's rows, and Dataset.LoadShard is collective; null makes this process alone
        /// again (the default).</summary>
        /// <remarks>kmx reads its Rank and Size now: a rank outside [0, Size) throws KmxException (Status.InvalidArgument) and keeps
        /// the communicator set before. The context holds the communicator until it is replaced or the context is disposed. See
        /// <see cref="ICommunicator"/>.</remarks>
        public void SetCommunicator(ICommunicator communicator)
        {
            NativeCommunicator table = communicator == null ? null : new NativeCommunicator(communicator);
            Native.KmxContextSetCommunicator(Handle, table);
            Handle.Communicator = table;
        }

        /// <summary>Asks the call running with this context to stop soon; safe from any thread (kmx_context_cancel).</summary>
        public void Cancel() => Native.KmxContextCancel(Handle);

        /// <summary>The largest workspace in bytes the last call reserved from the budget (kmx_context_peak_bytes).</summary>
        public long PeakBytes
        {
            get
            {
                Native.KmxContextPeakBytes(out long bytes, Handle);
                return bytes;
            }
        }
    }
}
