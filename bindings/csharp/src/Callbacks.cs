using System;

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
