namespace Kmx
{
    /// <summary>The allowed range of a parameter (kmx_param_bounds).</summary>
    public struct ParamBounds
    {
        readonly int flags;

        internal ParamBounds(double lower, double upper, int flags)
        {
            Lower = lower;
            Upper = upper;
            this.flags = flags;
        }

        /// <summary>The lower bound.</summary>
        public double Lower { get; }
        /// <summary>The upper bound.</summary>
        public double Upper { get; }

        /// <summary>True if the lower bound itself is excluded.</summary>
        public bool LowerOpen => (flags & Native.KMX_BOUND_LOWER_OPEN) != 0;
        /// <summary>True if the upper bound itself is excluded.</summary>
        public bool UpperOpen => (flags & Native.KMX_BOUND_UPPER_OPEN) != 0;
        /// <summary>True if only whole numbers are allowed.</summary>
        public bool IsInteger => (flags & Native.KMX_BOUND_INTEGER) != 0;
        /// <summary>True if the parameter is an enum (names are accepted in strings).</summary>
        public bool IsEnum => (flags & Native.KMX_BOUND_ENUM) != 0;
    }

    /// <summary>The objects that take a parameter (kmx.h's KMX_PARAM_OWNER_* bits).</summary>
    [System.Flags]
    public enum ParamOwner
    {
        /// <summary>Context (KMX_PARAM_OWNER_CONTEXT).</summary>
        Context = 1,
        /// <summary>Kernel (KMX_PARAM_OWNER_KERNEL).</summary>
        Kernel = 2,
        /// <summary>KMeans (KMX_PARAM_OWNER_KMEANS).</summary>
        KMeans = 4,
        /// <summary>Solver (KMX_PARAM_OWNER_SOLVER).</summary>
        Solver = 8,
        /// <summary>Approximation (KMX_PARAM_OWNER_APPROX).</summary>
        Approximation = 16,
        /// <summary>Predictor (KMX_PARAM_OWNER_PREDICTOR).</summary>
        Predictor = 32,
    }

    /// <summary>Facts about parameters, usable as extension methods: Param.Gamma.Name().</summary>
    public static class Params
    {
        /// <summary>The allowed range of param (kmx_param_bounds).</summary>
        public static ParamBounds Bounds(this Param param)
        {
            Native.KmxParamBounds(out double lower, out double upper, out int flags, param);
            return new ParamBounds(lower, upper, flags);
        }

        /// <summary>The name in the "key=value" form, e.g. "gamma" (kmx_param_name).</summary>
        public static string Name(this Param param) => Native.KmxParamName(param);

        /// <summary>The value a new object starts with (kmx_param_default; 0 often means "auto").</summary>
        public static double Default(this Param param) => Scalar.Read(value => Native.KmxParamDefault(value, param));
        /// <summary>One line on what the parameter means (kmx_param_description).</summary>
        public static string Description(this Param param) => Native.KmxParamDescription(param);
        /// <summary>The name of an enum parameter's value ("rbf" for Param.Kernel, 0), or null (kmx_param_value_name).</summary>
        public static string ValueName(this Param param, double value) => Native.KmxParamValueName(param, value);
        /// <summary>Looks a parameter up by its name (kmx_param_from_name).</summary>
        public static Param FromName(string name)
        {
            Native.KmxParamFromName(out Param param, name);
            return param;
        }

        /// <summary>Every parameter, in the C table's order (kmx_param_count, kmx_param_at).</summary>
        public static Param[] All()
        {
            var all = new Param[Native.KmxParamCount()];
            for (int i = 0; i < all.Length; i++) Native.KmxParamAt(out all[i], i);
            return all;
        }

        /// <summary>The objects that take param (kmx_param_owners).</summary>
        public static ParamOwner Owners(this Param param)
        {
            Native.KmxParamOwners(out long owners, param);
            return (ParamOwner)owners;
        }

        /// <summary>True if training by method reads param (kmx_param_used_by).</summary>
        public static bool UsedBy(this Param param, SolverMethod method)
        {
            Native.KmxParamUsedBy(out int used, param, method);
            return used != 0;
        }

        /// <summary>Throws KmxException naming the parameter and its range unless value is allowed (kmx_param_check).</summary>
        public static void Check(this Param param, double value) => Native.KmxParamCheck(param, value);
    }
}
