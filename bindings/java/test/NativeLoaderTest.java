import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;

import io.kmx.Library;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.Test;

/**
 * kmx.jar loads its own natives: in a fresh JVM, without java.library.path or LD_LIBRARY_PATH,
 * from another directory, the libraries come from the jar's folder for this platform; a platform
 * the jar has no folder for fails with an error that names it and the platforms the jar has.
 */
public class NativeLoaderTest {
    /** The child JVM: loads kmx, prints its version and the files libkmx* are mapped from. */
    public static void main(String[] args) throws IOException {
        System.out.println("version " + Library.version());
        System.out.println("library.path " + System.getProperty("java.library.path"));
        for (String line : Files.readAllLines(Path.of("/proc/self/maps"))) {
            int slash = line.indexOf('/');
            if (slash >= 0 && line.contains("libkmx")) System.out.println("mapped " + line.substring(slash));
        }
    }

    private record Run(int exit, String out, String err) {}

    private static String jarOf(Class<?> c) throws Exception {
        return new File(c.getProtectionDomain().getCodeSource().getLocation().toURI()).getPath();
    }

    /** Runs main above in a new JVM with the given options, in an empty directory, without library paths. */
    private static Run child(String... options) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of(options));
        command.addAll(List.of("-cp", jarOf(Library.class) + File.pathSeparator + jarOf(NativeLoaderTest.class),
                               "NativeLoaderTest"));
        Path cwd = Files.createTempDirectory("kmx-loader-test-");
        Path out = cwd.resolve("out.txt"), err = cwd.resolve("err.txt");
        try {
            ProcessBuilder builder = new ProcessBuilder(command).directory(cwd.toFile())
                    .redirectOutput(out.toFile()).redirectError(err.toFile());
            Map<String, String> env = builder.environment();
            for (String name : List.of("LD_LIBRARY_PATH", "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS")) {
                env.remove(name);
            }
            Process process = builder.start();
            assertTrue("the child JVM finished", process.waitFor(120, TimeUnit.SECONDS));
            return new Run(process.exitValue(), Files.readString(out), Files.readString(err));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
            Files.deleteIfExists(cwd);
        }
    }

    /** What the jar's io/kmx/native/platforms lists. */
    private static String platforms() throws IOException {
        try (InputStream in = Library.class.getResourceAsStream("/io/kmx/native/platforms")) {
            assertTrue("io/kmx/native/platforms is in the jar", in != null);
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
        }
    }

    @Test
    public void loadsTheJarsNativesInACleanJvm() throws Exception {
        Run run = child();
        assertEquals(run.err(), 0, run.exit());
        assertTrue(run.out(), run.out().contains("version " + Library.version() + "\n"));
        String folder = "/io/kmx/native/" + platforms() + "/";
        assertTrue(Library.class.getResource(folder + "libkmxjni.so") != null);
        // Both libraries are mapped from the loader's temporary copies (deleted once loaded), not
        // from the build directory that holds kmx.jar and the original libraries.
        String buildDirectory = new File(jarOf(Library.class)).getParent();
        int mapped = 0;
        for (String line : run.out().split("\n")) {
            if (!line.startsWith("mapped ")) continue;
            mapped++;
            assertTrue(line, line.contains("/kmx-native-"));
            assertFalse(line, line.contains(buildDirectory + "/"));
        }
        assertTrue(run.out(), run.out().contains("/libkmx.so."));
        assertTrue(run.out(), run.out().contains("/libkmxjni.so"));
        assertTrue(run.out(), mapped >= 2);
    }

    @Test
    public void anotherPlatformIsNamedInTheError() throws Exception {
        Run run = child("-Dos.arch=sparcv9");
        assertNotEquals(0, run.exit());
        assertTrue(run.err(), run.err().contains("java.lang.UnsatisfiedLinkError"));
        assertTrue(run.err(), run.err().contains("no native libraries for platform linux-sparcv9"));
        assertTrue(run.err(), run.err().contains("os.arch \"sparcv9\""));
        assertTrue(run.err(), run.err().contains("it has them for: " + platforms()));
    }

    @Test
    public void platformNamesAreNormalised() throws Exception {
        // os.name and os.arch as macOS and Windows JVMs report them, folded to the jar's folder names.
        Run mac = child("-Dos.name=Mac OS X", "-Dos.arch=arm64");
        assertTrue(mac.err(), mac.err().contains("platform macos-aarch64 "));
        Run windows = child("-Dos.name=Windows 11", "-Dos.arch=amd64");
        assertTrue(windows.err(), windows.err().contains("platform windows-x86_64 "));
        Run linux = child("-Dos.name=Linux", "-Dos.arch=aarch64");
        if (!platforms().equals("linux-aarch64")) {
            assertTrue(linux.err(), linux.err().contains("platform linux-aarch64 "));
        }
    }
}
