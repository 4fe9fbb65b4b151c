package io.kmx.infer;

import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Locale;

/**
 * Loads libkmxinferjni: from java.library.path when it is there (Android's jniLibs, an
 * application's own directory), else the jar's copy for this platform, io/kmx/infer/native/
 * OS-ARCH/libkmxinferjni.so (linux-x86_64, linux-aarch64), extracted to a temporary file that is
 * deleted once loaded (as sqlite-jdbc does).
 */
final class NativeLibrary {
    static final String NAME = "kmxinferjni";

    private static String source;

    private NativeLibrary() {}

    /** Loads the library once; throws UnsatisfiedLinkError naming both places when neither has it. */
    static synchronized void load() {
        if (source != null) return;
        try {
            System.loadLibrary(NAME);
            source = "java.library.path";
        } catch (UnsatisfiedLinkError notOnPath) {
            String resource = "/io/kmx/infer/native/" + platform() + "/" + System.mapLibraryName(NAME);
            try {
                loadFromJar(resource);
            } catch (IOException | UnsatisfiedLinkError e) {
                UnsatisfiedLinkError error = new UnsatisfiedLinkError("kmx_infer: " + NAME + " is neither in "
                        + "java.library.path (" + notOnPath.getMessage() + ") nor loadable from the jar ("
                        + resource + ": " + e.getMessage() + ")");
                error.initCause(e);
                throw error;
            }
            source = "jar:" + resource;
        }
    }

    /** Where the library came from: "java.library.path" or "jar:" and the resource; null before load(). */
    static synchronized String source() {
        return source;
    }

    /** OS-ARCH as the jar names its folders: linux-x86_64, linux-aarch64, ... */
    static String platform() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        if (os.startsWith("mac") || os.startsWith("darwin")) os = "macos";
        else if (os.startsWith("windows")) os = "windows";
        if (arch.equals("amd64") || arch.equals("x86-64")) arch = "x86_64";
        else if (arch.equals("arm64")) arch = "aarch64";
        return os + "-" + arch;
    }

    private static void loadFromJar(String resource) throws IOException {
        InputStream in = NativeLibrary.class.getResourceAsStream(resource);
        if (in == null) throw new IOException("not in the jar");
        File file = File.createTempFile("libkmxinferjni-", ".so");
        try {
            try (InputStream input = in; OutputStream out = new FileOutputStream(file)) {
                byte[] chunk = new byte[1 << 16];
                for (int n; (n = input.read(chunk)) != -1; ) out.write(chunk, 0, n);
            }
            System.load(file.getAbsolutePath());
        } finally {
            // A loaded library stays mapped; the file is not needed any more.
            if (!file.delete()) file.deleteOnExit();
        }
    }
}
