using System;
using System.IO;
using System.Runtime.InteropServices;

namespace Kmx
{
    /// <summary>Says which native file is missing when Kmx.dll cannot reach kmx: Mono only reports
    /// "DllNotFoundException: kmxcs", also when libkmxcs.so is there and the library it needs, libkmx.so.0, is not.</summary>
    internal static class NativeLibrary
    {
        /// <summary>The SWIG glue library that Kmx.dll's P/Invoke calls load (-dllimport kmxcs).</summary>
        internal const string Glue = "libkmxcs.so";

        const int RtldNow = 2;

        [DllImport("libdl.so.2", EntryPoint = "dlopen")]
        static extern IntPtr DlOpen(string file, int mode);

        [DllImport("libdl.so.2", EntryPoint = "dlerror")]
        static extern IntPtr DlError();

        [DllImport("libdl.so.2", EntryPoint = "dlclose")]
        static extern int DlClose(IntPtr handle);

        /// <summary>True if e, or an exception inside it, is a native library that did not load.</summary>
        internal static bool IsMissing(Exception e)
        {
            for (; e != null; e = e.InnerException)
                if (e is DllNotFoundException) return true;
            return false;
        }

        /// <summary>The exception to throw instead of e: a DllNotFoundException whose message is the dynamic loader's
        /// own reason, such as "libkmx.so.0: cannot open shared object file: No such file or directory".</summary>
        internal static DllNotFoundException Missing(Exception e)
        {
            string folder = Path.GetDirectoryName(typeof(NativeLibrary).Assembly.Location);
            string beside = Path.Combine(folder, Glue);
            string reason = File.Exists(beside) ? Probe(beside) : Probe(Glue) + " (and there is no " + beside + ")";
            return new DllNotFoundException(
                "kmx's native library did not load: " + reason + ". Kmx.dll looks for " + Glue + " next to itself, then " +
                "where the dynamic loader looks (LD_LIBRARY_PATH, ld.so.conf); " + Glue + " needs libkmx.so.0, found " +
                "through its RUNPATH or the same search.", e);
        }

        /// <summary>What dlopen says of file (a path, or a name searched for as the loader does).</summary>
        static string Probe(string file)
        {
            try
            {
                IntPtr handle = DlOpen(file, RtldNow);
                if (handle == IntPtr.Zero) return Marshal.PtrToStringAnsi(DlError()) ?? file + ": dlopen failed";
                DlClose(handle);
                return file + " loads with dlopen now, but did not when Mono tried";
            }
            catch (Exception probe) when (probe is DllNotFoundException || probe is EntryPointNotFoundException)
            {
                return "(libdl.so.2, which would tell why, is unavailable too: " + probe.Message + ")";
            }
        }
    }
}
