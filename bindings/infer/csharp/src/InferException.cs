using System;

namespace Kmx.Infer
{
    /// <summary>
    /// A kmx_infer call failed: a corrupt or unsupported predictor blob, or an input row of the wrong
    /// length. Carries the C status: its code and its name (kmx_infer_status_name).
    /// </summary>
    public class InferException : Exception
    {
        /// <summary>The numeric kmx_infer_status, e.g. 3 for KMX_INFER_E_FORMAT.</summary>
        public int Code { get; }

        /// <summary>The status name, e.g. "KMX_INFER_E_FORMAT" (not a predictor blob, or corrupt).</summary>
        public string StatusName { get; }

        internal InferException(int code, string statusName, string call) : base(call + ": " + statusName)
        {
            Code = code;
            StatusName = statusName;
        }
    }
}
