using System;
using System.Runtime.InteropServices;
using System.Text;

namespace Kmx
{
    /// <summary>Runs user callbacks called from C: no exception may unwind through native frames.</summary>
    internal static class Callbacks
    {
        /// <summary>Runs body; an exception is kept pending (rethrown when the kmx call returns) and true is returned, which cancels a progress call.</summary>
        internal static bool Guard(Func<bool> body)
        {
            try
            {
                return body();
            }
            catch (Exception e)
            {
                Pend(e);
                return true;
            }
        }

        /// <summary>Runs body; an exception is kept pending and rethrown when the kmx call returns.</summary>
        internal static void Guard(Action body)
        {
            try
            {
                body();
            }
            catch (Exception e)
            {
                Pend(e);
            }
        }

        /// <summary>Runs a kernel function for C (kmx_kernel_fn): the blocks copied into arrays, its values copied back. An exception
        /// becomes Status.InvalidArgument with "Type: message" in C's buffer instead of a pending one: kmx may call this from a
        /// worker thread, whose pending exception no C# caller would see.</summary>
        internal static int RunKernel(KernelFunction function, IntPtr result, IntPtr a, long na, IntPtr b, long nb, long d,
                                   IntPtr message, long messageLength)
        {
            try
            {
                if (na * nb > int.MaxValue || na * d > int.MaxValue || nb * d > int.MaxValue)
                    throw new ArgumentOutOfRangeException(nameof(na), $"a block of {na} x {nb} values (d = {d}) is beyond a C# array");
                var rows = new double[na * d];
                var columns = new double[nb * d];
                var values = new double[na * nb];
                Marshal.Copy(a, rows, 0, rows.Length);
                Marshal.Copy(b, columns, 0, columns.Length);
                function(values, rows, (int)na, columns, (int)nb, (int)d);
                Marshal.Copy(values, 0, result, values.Length);
                return (int)Status.Ok;
            }
            catch (Exception e)
            {
                WriteMessage(e.GetType().FullName + ": " + e.Message, message, messageLength);
                return (int)Status.InvalidArgument;
            }
        }

        /// <summary>Runs a communicator's sum or maximum for C (kmx_communicator): values copied into an array, its values copied back.
        /// An exception is kept pending by Guard (the call, which then fails with Status.Io, throws it as its InnerException: kmx
        /// calls the communicator on the calling thread) and 1, the transport error, is returned.</summary>
        internal static int RunReduce(Action<double[]> reduce, IntPtr values, long count) => Guard(() =>
        {
            var array = new double[Length(count)];
            Marshal.Copy(values, array, 0, array.Length);
            reduce(array);
            Marshal.Copy(array, 0, values, array.Length);
            return false;
        }) ? 1 : 0;

        /// <summary>Runs a communicator's broadcast for C, as RunReduce runs a sum.</summary>
        internal static int RunBroadcast(ICommunicator communicator, IntPtr bytes, long count, int root) => Guard(() =>
        {
            var array = new byte[Length(count)];
            Marshal.Copy(bytes, array, 0, array.Length);
            communicator.Broadcast(array, root);
            Marshal.Copy(array, 0, bytes, array.Length);
            return false;
        }) ? 1 : 0;

        static int Length(long count)
        {
            if (count > int.MaxValue) throw new ArgumentOutOfRangeException(nameof(count), $"{count} values are beyond a C# array");
            return (int)count;
        }

        /// <summary>Writes text as NUL-terminated UTF-8 into C's buffer of length bytes, cut at a character boundary.</summary>
        static void WriteMessage(string text, IntPtr buffer, long length)
        {
            if (buffer == IntPtr.Zero || length <= 0) return;
            byte[] bytes = Encoding.UTF8.GetBytes(text);
            int count = (int)Math.Min(bytes.Length, length - 1);
            while (count > 0 && count < bytes.Length && (bytes[count] & 0xC0) == 0x80) count--;
            Marshal.Copy(bytes, 0, buffer, count);
            Marshal.WriteByte(buffer, count, 0);
        }

        /// <summary>Keeps the first exception of a call pending; later ones are dropped.</summary>
        static void Pend(Exception e)
        {
            if (!NativePINVOKE.SWIGPendingException.Pending) NativePINVOKE.SWIGPendingException.Set(e);
        }
    }

    /// <summary>Reads a scalar through a C `double *out`, which this binding marshals as a one-element array.</summary>
    internal static class Scalar
    {
        /// <summary>Calls read with a one-element buffer and returns what C wrote into it.</summary>
        internal static double Read(Action<double[]> read)
        {
            var value = new double[1];
            read(value);
            return value[0];
        }
    }
}
