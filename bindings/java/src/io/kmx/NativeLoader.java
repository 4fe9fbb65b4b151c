package io.kmx;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Loads the native libraries carried in the jar (after XGBoost's NativeLibLoader): the jar holds
 * them per platform under io/kmx/native/OS-ARCH/ (linux-x86_64, linux-aarch64, macos-aarch64,
 * windows-x86_64, ...: see platform()), with io/kmx/native/platforms listing the platforms it
 * has. This platform's libraries are extracted side by side to a temporary directory and loaded in
 * the order listed in its io/kmx/native/OS-ARCH/libraries (libkmx before libkmxjni, so the JNI
 * library's dependency resolves to the copy already loaded), then deleted: a loaded library stays
 * mapped.
 */
final class NativeLoader {
    private static final String DIRECTORY = "/io/kmx/native/";

    private NativeLoader() {}

    /** Extracts and loads every listed library; called once, by the JNI class's initializer. */
    static void load() {
        String platform = platform();
        List<String> names = libraryNames(platform);
        try {
            Path directory = Files.createTempDirectory("kmx-native-");
            List<Path> extracted = new ArrayList<>();
            try {
                for (String name : names) {
                    Path library = directory.resolve(name);
                    extracted.add(library);
                    extract(DIRECTORY + platform + "/" + name, library);
                    System.load(library.toString());
                }
            } finally {
                for (Path library : extracted) Files.deleteIfExists(library);
                Files.deleteIfExists(directory);
            }
        } catch (IOException e) {
            UnsatisfiedLinkError error = new UnsatisfiedLinkError("kmx: cannot extract the native libraries for "
                    + platform + ": " + e.getMessage());
            error.initCause(e);
            throw error;
        }
    }

    /**
     * OS-ARCH as the jar names its folders, from os.name and os.arch normalised as other projects
     * do: linux, macos, windows (others lower-cased); x86_64, aarch64 (others lower-cased).
     */
    static String platform() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        if (os.startsWith("linux")) os = "linux";
        else if (os.startsWith("mac") || os.startsWith("darwin")) os = "macos";
        else if (os.startsWith("windows")) os = "windows";
        else os = os.replaceAll("[^a-z0-9]+", "");
        if (arch.equals("amd64") || arch.equals("x86-64") || arch.equals("x64")) arch = "x86_64";
        else if (arch.equals("arm64")) arch = "aarch64";
        return os + "-" + arch;
    }

    /** The libraries to load for platform, in order; a clear error when the jar has none for it. */
    private static List<String> libraryNames(String platform) {
        String listing = DIRECTORY + platform + "/libraries";
        try (InputStream in = NativeLoader.class.getResourceAsStream(listing)) {
            if (in == null) {
                throw new UnsatisfiedLinkError("kmx: this jar has no native libraries for platform " + platform
                        + " (os.name \"" + System.getProperty("os.name") + "\", os.arch \""
                        + System.getProperty("os.arch") + "\"); it has them for: " + String.join(", ", platforms()));
            }
            List<String> names = new ArrayList<>();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.isBlank()) names.add(line.strip());
            }
            return names;
        } catch (IOException e) {
            UnsatisfiedLinkError error =
                    new UnsatisfiedLinkError("kmx: cannot read " + listing + ": " + e.getMessage());
            error.initCause(e);
            throw error;
        }
    }

    /** The platforms the jar has natives for (io/kmx/native/platforms); none if that is missing. */
    private static List<String> platforms() {
        List<String> platforms = new ArrayList<>();
        try (InputStream in = NativeLoader.class.getResourceAsStream(DIRECTORY + "platforms")) {
            if (in == null) return List.of("none");
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.isBlank()) platforms.add(line.strip());
            }
        } catch (IOException e) {
            platforms.add("(unreadable: " + e.getMessage() + ")");
        }
        return platforms;
    }

    private static void extract(String resource, Path target) throws IOException {
        try (InputStream in = NativeLoader.class.getResourceAsStream(resource)) {
            if (in == null) throw new IOException(resource + " is missing from the jar");
            Files.copy(in, target);
        }
    }
}
