using System;
using System.Runtime.InteropServices;

namespace Kmx
{
    /// <summary>An owned native kmx handle; ReleaseHandle calls the matching kmx_*_free exactly once.</summary>
    internal abstract class KmxHandle : SafeHandle
    {
        /// <summary>An empty handle that the marshaller fills through an out parameter.</summary>
        protected KmxHandle() : base(IntPtr.Zero, true) { }

        /// <summary>A handle that owns nothing and passes NULL to C.</summary>
        protected KmxHandle(bool ownsHandle) : base(IntPtr.Zero, ownsHandle) { }

        /// <summary>NULL is the only invalid value.</summary>
        public override bool IsInvalid => handle == IntPtr.Zero;
    }

    /// <summary>A kmx_context*; also keeps the callback delegates (and the communicator's) that C holds alive.</summary>
    internal sealed class ContextHandle : KmxHandle
    {
        /// <summary>Passes NULL: "no context" where C allows it, or a disposed Context.</summary>
        internal static readonly ContextHandle Null = new ContextHandle(false);

        /// <summary>The log trampoline C currently holds (or null).</summary>
        internal NativeLogCallback LogCallback;

        /// <summary>The progress trampoline C currently holds (or null).</summary>
        internal NativeProgressCallback ProgressCallback;

        /// <summary>The communicator table whose trampolines C currently holds (or null).</summary>
        internal NativeCommunicator Communicator;

        /// <summary>Made by the marshaller for kmx_context_create's out parameter.</summary>
        public ContextHandle() { }

        ContextHandle(bool ownsHandle) : base(ownsHandle) { }

        /// <summary>Frees the context (kmx_context_free).</summary>
        protected override bool ReleaseHandle()
        {
            NativePINVOKE.KmxContextFree(handle);
            return true;
        }
    }

    /// <summary>A kmx_dataset*.</summary>
    internal sealed class DatasetHandle : KmxHandle
    {
        /// <summary>Passes NULL, for a disposed Dataset.</summary>
        internal static readonly DatasetHandle Null = new DatasetHandle(false);

        /// <summary>Made by the marshaller for the out parameter of the creating calls.</summary>
        public DatasetHandle() { }

        DatasetHandle(bool ownsHandle) : base(ownsHandle) { }

        /// <summary>Frees the dataset (kmx_dataset_free).</summary>
        protected override bool ReleaseHandle()
        {
            NativePINVOKE.KmxDatasetFree(handle);
            return true;
        }
    }

    /// <summary>A kmx_kernel*; a callback kernel's also keeps the delegate that C calls alive.</summary>
    internal sealed class KernelHandle : KmxHandle
    {
        /// <summary>Passes NULL, for a disposed Kernel.</summary>
        internal static readonly KernelHandle Null = new KernelHandle(false);

        /// <summary>The kernel trampoline C holds (a callback kernel), or null.</summary>
        internal NativeKernelCallback Callback;

        /// <summary>Made by the marshaller for the out parameter of the creating calls.</summary>
        public KernelHandle() { }

        KernelHandle(bool ownsHandle) : base(ownsHandle) { }

        /// <summary>Frees the kernel (kmx_kernel_free).</summary>
        protected override bool ReleaseHandle()
        {
            NativePINVOKE.KmxKernelFree(handle);
            return true;
        }
    }

    /// <summary>A kmx_solver*.</summary>
    internal sealed class SolverHandle : KmxHandle
    {
        /// <summary>Passes NULL, for a disposed Solver.</summary>
        internal static readonly SolverHandle Null = new SolverHandle(false);

        /// <summary>Made by the marshaller for the out parameter of the creating calls.</summary>
        public SolverHandle() { }

        SolverHandle(bool ownsHandle) : base(ownsHandle) { }

        /// <summary>Frees the solver (kmx_solver_free).</summary>
        protected override bool ReleaseHandle()
        {
            NativePINVOKE.KmxSolverFree(handle);
            return true;
        }
    }

    /// <summary>A kmx_model*; one trained with a callback kernel also keeps the kernel's delegate alive, which it calls to predict.</summary>
    internal sealed class ModelHandle : KmxHandle
    {
        /// <summary>Passes NULL, for a disposed Model.</summary>
        internal static readonly ModelHandle Null = new ModelHandle(false);

        /// <summary>The kernel trampoline of a model trained with a callback kernel, or null.</summary>
        internal NativeKernelCallback KernelCallback;

        /// <summary>Made by the marshaller for the out parameter of the creating calls.</summary>
        public ModelHandle() { }

        ModelHandle(bool ownsHandle) : base(ownsHandle) { }

        /// <summary>Frees the model (kmx_model_free).</summary>
        protected override bool ReleaseHandle()
        {
            NativePINVOKE.KmxModelFree(handle);
            return true;
        }
    }

    /// <summary>A kmx_approx*.</summary>
    internal sealed class ApproxHandle : KmxHandle
    {
        /// <summary>Passes NULL, for a disposed Approximation.</summary>
        internal static readonly ApproxHandle Null = new ApproxHandle(false);

        /// <summary>Made by the marshaller for kmx_approx_create's out parameter.</summary>
        public ApproxHandle() { }

        ApproxHandle(bool ownsHandle) : base(ownsHandle) { }

        /// <summary>Frees the approximation (kmx_approx_free).</summary>
        protected override bool ReleaseHandle()
        {
            NativePINVOKE.KmxApproxFree(handle);
            return true;
        }
    }

    /// <summary>A kmx_predictor*.</summary>
    internal sealed class PredictorHandle : KmxHandle
    {
        /// <summary>Passes NULL, for a disposed Predictor.</summary>
        internal static readonly PredictorHandle Null = new PredictorHandle(false);

        /// <summary>Made by the marshaller for the out parameter of the creating calls.</summary>
        public PredictorHandle() { }

        PredictorHandle(bool ownsHandle) : base(ownsHandle) { }

        /// <summary>Frees the predictor (kmx_predictor_free).</summary>
        protected override bool ReleaseHandle()
        {
            NativePINVOKE.KmxPredictorFree(handle);
            return true;
        }
    }

    /// <summary>The C log callback (kmx_log_fn).</summary>
    [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
    internal delegate void NativeLogCallback(IntPtr userData, LogSeverity level, [MarshalAs(UnmanagedType.LPStr)] string message);

    /// <summary>The C kernel callback (kmx_kernel_fn): fills result (na × nb) from a (na × d) and b (nb × d), row-major, and
    /// returns Status.Ok, or writes a NUL-terminated reason into message and returns another status.</summary>
    [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
    internal delegate int NativeKernelCallback(IntPtr userData, IntPtr result, IntPtr a, long na, IntPtr b, long nb, long d,
                                               IntPtr message, long messageLength);

    /// <summary>A communicator's sum or maximum (kmx_communicator): values[0..count) reduced over the ranks in place; nonzero fails.</summary>
    [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
    internal delegate int NativeReduceCallback(IntPtr user, IntPtr values, long count);

    /// <summary>A communicator's broadcast (kmx_communicator): bytes[0..count) of rank root copied to every rank; nonzero fails.</summary>
    [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
    internal delegate int NativeBroadcastCallback(IntPtr user, IntPtr bytes, long count, int root);

    /// <summary>The C progress callback (kmx_progress_fn); nonzero cancels.</summary>
    [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
    internal delegate int NativeProgressCallback(IntPtr userData, double fraction, [MarshalAs(UnmanagedType.LPStr)] string phase);
}
