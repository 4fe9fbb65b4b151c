package io.kmx;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Loads the native libraries carried in the jar (after XGBoost's NativeLibLoader): they are
 * extracted side by side to a temporary directory and loaded in the order listed in
 * io/kmx/native/libraries (libkmx before libkmxjni, so the JNI library's dependency resolves to
 * the copy already loaded), then deleted: a loaded library stays mapped.
 */
final class NativeLoader {
    private static final String DIRECTORY = "/io/kmx/native/";

    private NativeLoader() {}

    /** Extracts and loads every listed library; called once, by the JNI class's initializer. */
    static void load() {
        try {
            Path directory = Files.createTempDirectory("kmx-native-");
            List<Path> extracted = new ArrayList<>();
            try {
                for (String name : libraryNames()) {
                    Path library = directory.resolve(name);
                    extracted.add(library);
                    extract(name, library);
                    System.load(library.toString());
                }
            } finally {
                for (Path library : extracted) Files.deleteIfExists(library);
                Files.deleteIfExists(directory);
            }
        } catch (IOException e) {
            UnsatisfiedLinkError error = new UnsatisfiedLinkError("kmx: cannot extract the native libraries");
            error.initCause(e);
            throw error;
        }
    }

    private static List<String> libraryNames() throws IOException {
        List<String> names = new ArrayList<>();
        try (InputStream in = resource("libraries")) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.isBlank()) names.add(line.strip());
            }
        }
        return names;
    }

    private static void extract(String name, Path target) throws IOException {
        try (InputStream in = resource(name)) {
            Files.copy(in, target);
        }
    }

    private static InputStream resource(String name) throws IOException {
        InputStream in = NativeLoader.class.getResourceAsStream(DIRECTORY + name);
        if (in == null) throw new IOException(DIRECTORY + name + " is missing from the jar");
        return in;
    }
}
