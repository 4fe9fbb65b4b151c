namespace Kmx
{
    /// <summary>Library-wide facts: versions, status names, the calling thread's last error, and what kmx
    /// sees of the machine (cores, memory, BLIS kernel set).</summary>
    public static class Library
    {
        /// <summary>The loaded library's version, "MAJOR.MINOR.PATCH" (kmx_version).</summary>
        public static string Version => Native.KmxVersion();

        /// <summary>The loaded library's version number, MAJOR*10000 + MINOR*100 + PATCH (kmx_version_number).</summary>
        public static int VersionNumber => Native.KmxVersionNumber();

        /// <summary>The version of the header this binding was built against; equals Version when they match.</summary>
        public static string HeaderVersion => Native.KMX_VERSION_STRING;

        /// <summary>"KMX_OK", "KMX_E_INVALID_ARGUMENT", ... (kmx_status_name).</summary>
        public static string StatusName(Status status) => Native.KmxStatusName(status);

        /// <summary>The message of the last failure on this thread, "" if none (kmx_last_error).</summary>
        public static string LastError => Native.KmxLastError();

        /// <summary>Forgets the last error on this thread (kmx_clear_error).</summary>
        public static void ClearError() => Native.KmxClearError();

        /// <summary>The cores this process may use (affinity mask, cgroup CPU quota): a new Context's threads.</summary>
        public static int Cores => (int)SystemInfo(SystemKey.SystemCores);

        /// <summary>Bytes the machine can give now (MemAvailable, within a cgroup limit).</summary>
        public static long MemoryAvailable => (long)SystemInfo(SystemKey.SystemMemoryAvailable);

        /// <summary>A new Context's memory budget in bytes (80% of MemoryAvailable); -1 if unlimited.</summary>
        public static long DefaultMemoryBudget => (long)SystemInfo(SystemKey.SystemMemoryBudget);

        /// <summary>One-thread dgemm GFLOP/s of kmx's BLIS, measured by this call (0.1-0.5 s).</summary>
        public static double MeasureDgemmGflops() => SystemInfo(SystemKey.SystemDgemmGflops);

        /// <summary>The BLIS kernel set kmx runs ("skx", "zen3", "haswell", "generic", ...).</summary>
        public static string KernelSet => Native.KmxSystemKernelSet();

        /// <summary>Why that kernel set: "cpu features" or "BLIS_ARCH_TYPE" (with the reason a setting was ignored).</summary>
        public static string KernelSetOrigin => Native.KmxSystemKernelSetOrigin();

        private static double SystemInfo(SystemKey key) => Scalar.Read(value => Native.KmxSystemInfo(value, key));
    }
}
