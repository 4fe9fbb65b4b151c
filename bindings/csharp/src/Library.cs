namespace Kmx
{
    /// <summary>Library-wide facts: versions, status names, the calling thread's last error.</summary>
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
    }
}
