package io.sluice.common.settings;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Which setting values are credentials, and what is shown instead. A name containing
 * {@code secret}, {@code password}, {@code token}, {@code credential} or {@code key} as a word
 * ({@code sluice.hadoop.fs.s3a.secret.key}, {@code fs.s3a.access.key}) is sensitive: plans, EXPLAIN,
 * logs, status lines and error messages show {@value #REDACTED} in place of its value.
 */
public final class Redaction {
    public static final String REDACTED = "*********(redacted)";
    private static final Pattern SENSITIVE = Pattern.compile(
            "(?i)(^|[.\\-_])(secret|password|passwd|token|credentials?|key)($|[.\\-_])|secret|password");
    /** The user information of a URI ({@code s3a://KEY:SECRET@bucket/...}), which may hold credentials. */
    private static final Pattern USER_INFO = Pattern.compile("(?<=://)[^/@\\s]+@");

    private Redaction() {
    }

    public static boolean isSensitive(String name) {
        return SENSITIVE.matcher(name).find();
    }

    /** {@code value}, or {@value #REDACTED} when {@code name} is sensitive. */
    public static String value(String name, String value) {
        return isSensitive(name) ? REDACTED : value;
    }

    /** A copy of {@code values} with every sensitive value redacted. */
    public static Map<String, String> values(Map<String, String> values) {
        Map<String, String> out = new LinkedHashMap<>();
        values.forEach((name, value) -> out.put(name, value(name, value)));
        return out;
    }

    /** {@code text} with the user information of every URI in it ({@code scheme://user:secret@host}) redacted. */
    public static String uris(String text) {
        return USER_INFO.matcher(text).replaceAll(java.util.regex.Matcher.quoteReplacement(REDACTED + "@"));
    }
}
