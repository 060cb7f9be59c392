package io.sluice.connect;

import static java.util.Objects.requireNonNull;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Spark error class and message parameters of one of Spark's ANSI-mode errors as Sluice words
 * them ({@code [DIVIDE_BY_ZERO] …}, see {@code io.sluice.kernels.SparkErrors}): Spark's client raises
 * the class's exception ({@code SparkArithmeticException}, {@code SparkNumberFormatException}) only
 * when told the error class and the parameters its message template takes.
 */
record SparkErrorClasses(String errorClass, Map<String, String> parameters) {
    private static final String ANSI_CONFIG = "\"spark.sql.ansi.enabled\"";
    private static final Pattern BY_ZERO = Pattern.compile("\\[(DIVIDE_BY_ZERO|REMAINDER_BY_ZERO)\\]");
    private static final Pattern OVERFLOW = Pattern.compile(
            "\\[ARITHMETIC_OVERFLOW\\] (.*?)\\.( Use '[a-z_]+' to tolerate overflow and return NULL instead\\.)? If necessary",
            Pattern.DOTALL);
    private static final Pattern CAST_INPUT = Pattern.compile(
            "\\[CAST_INVALID_INPUT\\] The value '(.*?)' of the type (\"[^\"]+\") cannot be cast to (\"[^\"]+\")",
            Pattern.DOTALL);

    SparkErrorClasses {
        requireNonNull(errorClass, "errorClass is null");
        parameters = Map.copyOf(parameters);
    }

    /** The error class and parameters {@code message} carries, if it is one of those errors. */
    static Optional<SparkErrorClasses> of(String message) {
        Matcher m = BY_ZERO.matcher(message);
        if (m.find()) {
            return Optional.of(new SparkErrorClasses(m.group(1), Map.of("config", ANSI_CONFIG)));
        }
        m = OVERFLOW.matcher(message);
        if (m.find()) {
            Map<String, String> p = new LinkedHashMap<>();
            p.put("message", m.group(1));
            p.put("alternative", m.group(2) == null ? "" : m.group(2));
            p.put("config", ANSI_CONFIG);
            return Optional.of(new SparkErrorClasses("ARITHMETIC_OVERFLOW", p));
        }
        m = CAST_INPUT.matcher(message);
        if (m.find()) {
            return Optional.of(new SparkErrorClasses("CAST_INVALID_INPUT", Map.of("expression", "'" + m.group(1) + "'",
                    "sourceType", m.group(2), "targetType", m.group(3), "ansiConfig", ANSI_CONFIG)));
        }
        return Optional.empty();
    }

    /** The parameters as the JSON object Spark's client reads. */
    String parametersJson() {
        StringBuilder out = new StringBuilder("{");
        parameters.forEach((k, v) -> {
            if (out.length() > 1) {
                out.append(',');
            }
            out.append(json(k)).append(':').append(json(v));
        });
        return out.append('}').toString();
    }

    private static String json(String s) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }
}
