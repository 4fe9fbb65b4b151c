using System;

namespace Kmx
{
    /// <summary>A kernel as a C# function, for <c>new Kernel(KernelFunction)</c>: fills result[i*nb + j] = K(a_i, b_j) for the
    /// row-major blocks a (na × d) and b (nb × d) (kmx_kernel_fn).</summary>
    /// <remarks>The arrays are copies, valid during the call only; result holds zeros on entry. kmx calls it from the thread running
    /// the call and, when the context has Param.Threads &gt; 1, from its worker threads at the same time: it must then be safe to
    /// call concurrently. An exception it throws stops that call, which throws KmxException (Status.InvalidArgument) whose message
    /// holds the exception's type and message; no exception crosses into C.</remarks>
    public delegate void KernelFunction(double[] result, double[] a, int na, double[] b, int nb, int d);

    /// <summary>A kernel function and its parameters (kmx_kernel); immutable once set up, it may be shared by many threads.</summary>
    public sealed class Kernel : NativeObject
    {
        Kernel(KernelHandle handle) : base(handle, KernelHandle.Null) { }

        /// <summary>A kernel of the given type with default parameters (kmx_kernel_create).</summary>
        public Kernel(KernelType type) : this(Create(type)) { }

        /// <summary>A kernel from "kernel=rbf gamma=0.5" (kernel defaults to rbf) (kmx_kernel_create_from_string).</summary>
        public Kernel(string parameters) : this(Create(parameters)) { }

        /// <summary>A kernel computed by function (KernelType.Callback; Gamma, Coef0 and Degree are ignored), as scikit-learn's
        /// callable kernels (kmx_kernel_create_callback).</summary>
        /// <remarks>Only the dual solver's methods (svm, svr, one_class) train with it; its models predict by calling function, which
        /// they keep alive, and cannot be saved. See <see cref="KernelFunction"/> for the threads it is called from.</remarks>
        public Kernel(KernelFunction function) : this(Create(function)) { }

        static KernelHandle Create(KernelFunction function)
        {
            if (function == null) throw new ArgumentNullException(nameof(function));
            NativeKernelCallback trampoline = (userData, result, a, na, b, nb, d, message, messageLength) =>
                Callbacks.RunKernel(function, result, a, na, b, nb, d, message, messageLength);
            Native.KmxKernelCreateCallback(out KernelHandle handle, trampoline, IntPtr.Zero);
            handle.Callback = trampoline; // C holds only the function pointer: the handle keeps the delegate alive
            return handle;
        }

        static KernelHandle Create(KernelType type)
        {
            Native.KmxKernelCreate(out KernelHandle handle, type);
            return handle;
        }

        static KernelHandle Create(string parameters)
        {
            Native.KmxKernelCreateFromString(out KernelHandle handle, parameters);
            return handle;
        }

        internal KernelHandle Handle => (KernelHandle)RawHandle;

        /// <summary>Sets one parameter (kmx_kernel_set_param).</summary>
        public void SetParam(Param param, double value) => Native.KmxKernelSetParam(Handle, param, value);

        /// <summary>Reads one parameter (kmx_kernel_get_param).</summary>
        public double GetParam(Param param) => Scalar.Read(value => Native.KmxKernelGetParam(value, Handle, param));

        /// <summary>Sets parameters from "gamma=0.5 degree=2" (kmx_kernel_set_params).</summary>
        public void SetParams(string parameters) => Native.KmxKernelSetParams(Handle, parameters);

        /// <summary>K(a, b) for two vectors of equal length (kmx_kernel_eval).</summary>
        public double Eval(double[] a, double[] b)
        {
            Arrays.RequireLength(b, a.Length, nameof(b));
            return Scalar.Read(value => Native.KmxKernelEval(value, Handle, a, b, a.Length));
        }

        /// <summary>The kernel block K(a_i, b_j), row-major na × nb, of row-major a and b with d columns (kmx_kernel_block).</summary>
        public double[] Block(Context ctx, double[] a, double[] b, long d)
        {
            var result = new double[Arrays.Rows(a, d, nameof(a)) * Arrays.Rows(b, d, nameof(b))];
            Block(ctx, a, b, d, result);
            return result;
        }

        /// <summary>The kernel block of the rows of two matrices with equal column counts, row-major na × nb.</summary>
        public double[] Block(Context ctx, double[,] a, double[,] b) =>
            Block(ctx, Arrays.Flatten(a), Arrays.Flatten(b), a.GetLength(1));

        /// <summary>Writes the kernel block into result, which C checks holds na*nb values (kmx_kernel_block).</summary>
        public void Block(Context ctx, double[] a, double[] b, long d, double[] result)
        {
            long na = Arrays.Rows(a, d, nameof(a)), nb = Arrays.Rows(b, d, nameof(b));
            Native.KmxKernelBlock(result, result?.Length ?? 0, Context.OptionalHandle(ctx), Handle, a, na, b, nb, d);
        }

        /// <summary>The kernel block of rows [aBegin, aEnd) of a and [bBegin, bEnd) of b, row-major (kmx_kernel_block_rows).</summary>
        public double[] BlockRows(Context ctx, Dataset a, long aBegin, long aEnd, Dataset b, long bBegin, long bEnd)
        {
            var result = new double[System.Math.Max(aEnd - aBegin, 0) * System.Math.Max(bEnd - bBegin, 0)];
            Native.KmxKernelBlockRows(result, result.Length, Context.OptionalHandle(ctx), Handle,
                                      a.Handle, aBegin, aEnd, b.Handle, bBegin, bEnd);
            return result;
        }
    }
}
