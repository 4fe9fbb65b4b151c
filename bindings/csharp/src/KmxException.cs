using System;

namespace Kmx
{
    /// <summary>A kmx call failed: carries the C status (name and code) and kmx_last_error()'s message.</summary>
    public class KmxException : Exception
    {
        /// <summary>The status name, e.g. "KMX_E_INVALID_ARGUMENT".</summary>
        public string StatusName { get; }

        /// <summary>The numeric kmx_status code.</summary>
        public int Code { get; }

        /// <summary>The C library's own message (kmx_last_error() at the time of the failure).</summary>
        public string NativeMessage { get; }

        /// <summary>The status as the Status enum.</summary>
        public Status Status => (Status)Code;

        /// <summary>Makes the exception for a failed call; inner is an exception a callback threw during it.</summary>
        public KmxException(int code, string statusName, string nativeMessage, Exception inner = null)
            : base(statusName + ": " + nativeMessage, inner)
        {
            Code = code;
            StatusName = statusName;
            NativeMessage = nativeMessage;
        }
    }
}
