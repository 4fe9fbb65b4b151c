package io.kmx;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;
import java.util.TreeSet;

/** Class names as C takes them: 1 to 255 bytes of UTF-8 each, no control characters, one per line. */
final class ClassNames {
    static final int MAX_BYTES = 255;

    private ClassNames() {}

    /** The distinct names of labels in increasing order (String.compareTo): class i is names[i]. */
    static String[] sortedDistinct(String[] labels) {
        TreeSet<String> names = new TreeSet<>();
        for (int i = 0; i < labels.length; i++) {
            if (labels[i] == null) throw new NullPointerException("labels: row " + i + " is null");
            names.add(labels[i]);
        }
        String[] sorted = names.toArray(new String[0]);
        for (String name : sorted) encode(name);
        return sorted;
    }

    /** The class (index in names) of each label. */
    static double[] classes(String[] names, String[] labels) {
        double[] y = new double[labels.length];
        for (int i = 0; i < labels.length; i++) y[i] = Arrays.binarySearch(names, labels[i]);
        return y;
    }

    /** name's UTF-8 bytes; IllegalArgumentException unless 1 to 255 of them without control characters. */
    static byte[] encode(String name) {
        Objects.requireNonNull(name, "class name");
        ByteBuffer encoded;
        try {
            encoded = StandardCharsets.UTF_8.newEncoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).encode(CharBuffer.wrap(name));
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException("class name \"" + name + "\" is not valid Unicode (a lone surrogate)",
                    e);
        }
        byte[] bytes = new byte[encoded.remaining()];
        encoded.get(bytes);
        if (bytes.length < 1 || bytes.length > MAX_BYTES) {
            throw new IllegalArgumentException("class name \"" + name + "\" has " + bytes.length
                    + " bytes of UTF-8: 1 to " + MAX_BYTES + " are allowed");
        }
        if (name.codePoints().anyMatch(Character::isISOControl)) {
            throw new IllegalArgumentException("class name \"" + name + "\" has a control character");
        }
        return bytes;
    }

    /** The names one per line as C takes them: UTF-8 with a NUL; each checked by encode. */
    static byte[] join(String[] names) {
        ByteArrayOutputStream joined = new ByteArrayOutputStream();
        for (int i = 0; i < names.length; i++) {
            if (i > 0) joined.write('\n');
            joined.writeBytes(encode(names[i]));
        }
        joined.write(0);
        return joined.toByteArray();
    }

    /** The names in C's NUL-terminated UTF-8 lines; none for "". */
    static String[] split(byte[] joined) {
        int length = 0;
        while (length < joined.length && joined[length] != 0) length++;
        if (length == 0) return new String[0];
        return new String(joined, 0, length, StandardCharsets.UTF_8).split("\n", -1);
    }
}
