package io.sluice.api;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A strict parser of the Prometheus text exposition format (version 0.0.4), for tests: no parser
 * library for it is available here, so this one fails on any line that is not a comment, a
 * {@code # HELP}, a {@code # TYPE} or a well-formed sample, on a sample whose family has no
 * {@code # TYPE} before it, on a repeated series and on a bad value.
 */
final class PrometheusText {
    private static final String NAME = "[a-zA-Z_:][a-zA-Z0-9_:]*";
    private static final Pattern TYPE = Pattern.compile("# TYPE (" + NAME + ") (counter|gauge|histogram|summary|untyped)");
    private static final Pattern HELP = Pattern.compile("# HELP (" + NAME + ") .*");
    private static final Pattern SAMPLE = Pattern.compile("(" + NAME + ")(\\{(.*)\\})? (\\S+)( -?\\d+)?");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\\\n]|\\\\[\\\\\"n])*)\"");
    private static final Set<String> SUFFIXES = Set.of("_total", "_created", "_bucket", "_count", "_sum", "_max");

    /** One sample: its metric name, labels in order, value. */
    record Sample(String name, Map<String, String> labels, double value) {
    }

    private PrometheusText() {
    }

    /** The samples of an exposition; a malformed one is an {@link IllegalArgumentException} naming its line. */
    static List<Sample> parse(String text) {
        Map<String, String> types = new HashMap<>();
        Set<String> series = new java.util.HashSet<>();
        List<Sample> samples = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            if (line.isEmpty() && i == lines.length - 1) {
                break;
            }
            Matcher type = TYPE.matcher(line);
            if (type.matches()) {
                if (types.put(type.group(1), type.group(2)) != null) {
                    throw bad(i, line, "a second TYPE for " + type.group(1));
                }
                continue;
            }
            if (HELP.matcher(line).matches()) {
                continue;
            }
            if (line.startsWith("#")) {
                throw bad(i, line, "a comment that is neither HELP nor TYPE");
            }
            Matcher sample = SAMPLE.matcher(line);
            if (!sample.matches()) {
                throw bad(i, line, "not a sample");
            }
            String name = sample.group(1);
            if (!types.containsKey(name) && SUFFIXES.stream().noneMatch(s -> name.endsWith(s)
                    && types.containsKey(name.substring(0, name.length() - s.length())))) {
                throw bad(i, line, "a sample of a family without TYPE");
            }
            Map<String, String> labels = new LinkedHashMap<>();
            if (sample.group(3) != null && !sample.group(3).isEmpty()) {
                String rest = sample.group(3);
                int at = 0;
                Matcher label = LABEL.matcher(rest);
                while (at < rest.length()) {
                    if (!label.find(at) || label.start() != at) {
                        throw bad(i, line, "a malformed label at " + at);
                    }
                    if (labels.put(label.group(1), label.group(2)) != null) {
                        throw bad(i, line, "a repeated label " + label.group(1));
                    }
                    at = label.end();
                    if (at < rest.length()) {
                        if (rest.charAt(at) != ',') {
                            throw bad(i, line, "no comma between labels");
                        }
                        at++;
                    }
                }
            }
            if (!series.add(name + labels)) {
                throw bad(i, line, "a repeated series");
            }
            samples.add(new Sample(name, labels, value(sample.group(4), i, line)));
        }
        return samples;
    }

    /** The value of the one sample with this name whose labels include {@code labels}; 0 when none. */
    static double value(List<Sample> samples, String name, Map<String, String> labels) {
        double found = 0;
        int n = 0;
        for (Sample s : samples) {
            if (s.name().equals(name) && s.labels().entrySet().containsAll(labels.entrySet())) {
                found = s.value();
                n++;
            }
        }
        if (n > 1) {
            throw new IllegalArgumentException(n + " samples named " + name + " with " + labels);
        }
        return found;
    }

    private static double value(String text, int line, String content) {
        switch (text) {
            case "NaN":
                return Double.NaN;
            case "+Inf":
                return Double.POSITIVE_INFINITY;
            case "-Inf":
                return Double.NEGATIVE_INFINITY;
            default:
                try {
                    return Double.parseDouble(text);
                } catch (NumberFormatException e) {
                    throw bad(line, content, "a bad value " + text);
                }
        }
    }

    private static IllegalArgumentException bad(int line, String content, String what) {
        return new IllegalArgumentException("line " + (line + 1) + ": " + what + ": " + content);
    }
}
