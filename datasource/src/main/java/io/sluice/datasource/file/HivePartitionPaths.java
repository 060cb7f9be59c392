package io.sluice.datasource.file;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Hive's spelling of partition directories, as Spark, DuckDB and pyarrow write them:
 * {@code key=value}, with the characters a path cannot hold escaped as {@code %XX} (Hive's
 * {@code FileUtils.escapePathName}), and NULL as {@value #DEFAULT_PARTITION}.
 */
public final class HivePartitionPaths {
    public static final String DEFAULT_PARTITION = "__HIVE_DEFAULT_PARTITION__";
    private static final String ESCAPED = "\"#%'*/:=?\\{[]^";

    private HivePartitionPaths() {
    }

    /** The directory name of one partition value: {@code key=value}, escaped; NULL as the default partition. */
    public static String directory(String key, String value) {
        return escape(key) + "=" + (value == null ? DEFAULT_PARTITION : value.isEmpty() ? DEFAULT_PARTITION : escape(value));
    }

    static String escape(String s) {
        StringBuilder out = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == 0x7F || ESCAPED.indexOf(c) >= 0) {
                out.append('%').append(String.format("%02X", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    /** Decodes {@code %XX} escapes (as UTF-8 bytes); a {@code %} not followed by two hex digits stays as it is. */
    static String unescape(String s) {
        if (s.indexOf('%') < 0) {
            return s;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '%' && i + 2 < s.length() && hex(s.charAt(i + 1)) >= 0 && hex(s.charAt(i + 2)) >= 0) {
                bytes.write(hex(s.charAt(i + 1)) * 16 + hex(s.charAt(i + 2)));
                i += 2;
            } else {
                byte[] utf8 = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                if (Character.isHighSurrogate(c) && i + 1 < s.length()) {
                    utf8 = s.substring(i, i + 2).getBytes(StandardCharsets.UTF_8);
                    i++;
                }
                bytes.write(utf8, 0, utf8.length);
            }
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private static int hex(char c) {
        return Character.digit(c, 16);
    }

    /**
     * The decoded {@code [key, value]} of a directory name {@code key=value} (value null for the
     * default partition), or null when the name is not one.
     */
    static String[] parse(String name) {
        int eq = name.indexOf('=');
        if (eq <= 0) {
            return null;
        }
        String value = name.substring(eq + 1);
        return new String[] {unescape(name.substring(0, eq)), value.equals(DEFAULT_PARTITION) ? null : unescape(value)};
    }
}
