package io.sluice.operators.function;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.kernels.Col;
import io.sluice.kernels.NestedValues;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code regexp_extract}, {@code regexp_replace} and {@code split}: Java regular expressions, as
 * Spark's. The pattern is compiled once per distinct pattern value met in a row (once per task for
 * a constant), and a bad one is an error naming the function and the pattern.
 */
final class RegexKernels implements FunctionKernel {
    private final String function;
    private String lastPattern;
    private Pattern compiled;

    private RegexKernels(String function) {
        this.function = function;
    }

    /** The kernel of {@code name}, or null when it is not a regular-expression function. */
    static FunctionKernel of(String name) {
        return switch (name) {
            case "regexp_extract", "regexp_replace", "split" -> new RegexKernels(name);
            default -> null;
        };
    }

    @Override
    public Col apply(List<Col> args, int rows, DataType type) {
        return switch (function) {
            case "regexp_extract" -> extract(args, rows);
            case "regexp_replace" -> replace(args, rows);
            default -> split(args, rows, type);
        };
    }

    private Pattern pattern(String regex) {
        if (!regex.equals(lastPattern)) {
            try {
                compiled = Pattern.compile(regex);
            } catch (java.util.regex.PatternSyntaxException e) {
                throw new SluiceException("invalid regular expression '" + regex + "' (" + function + "() argument 2): "
                        + e.getDescription() + " near index " + e.getIndex(), e);
            }
            lastPattern = regex;
        }
        return compiled;
    }

    private Col extract(List<Col> args, int rows) {
        Col str = Values.text(args.get(0));
        Col regex = Values.text(args.get(1));
        long[] idx = args.size() > 2 ? Values.longs(args.get(2)).longs : null;
        Col out = Col.allocate(DataType.UTF8, rows, true);
        for (int row = 0; row < rows; row++) {
            if (Values.anyNull(args, row)) {
                out.nulls[row] = true;
                continue;
            }
            Matcher m = pattern(regex.strings[row]).matcher(str.strings[row]);
            long group = idx == null ? 1 : idx[row];
            if (group < 0 || group > m.groupCount()) {
                throw new SluiceException("regexp_extract(): the regular expression '" + regex.strings[row] + "' has "
                        + m.groupCount() + " group" + (m.groupCount() == 1 ? "" : "s") + ", so group index " + group
                        + " is invalid");
            }
            String found = m.find() ? m.group((int) group) : "";
            out.strings[row] = found == null ? "" : found;
        }
        return out;
    }

    private Col replace(List<Col> args, int rows) {
        Col str = Values.text(args.get(0));
        Col regex = Values.text(args.get(1));
        Col rep = Values.text(args.get(2));
        long[] pos = args.size() > 3 ? Values.longs(args.get(3)).longs : null;
        Col out = Col.allocate(DataType.UTF8, rows, true);
        for (int row = 0; row < rows; row++) {
            if (Values.anyNull(args, row)) {
                out.nulls[row] = true;
                continue;
            }
            String s = str.strings[row];
            long p = pos == null ? 1 : pos[row];
            if (p < 1) {
                throw new SluiceException("regexp_replace(): position " + p + " must be at least 1");
            }
            int chars = s.codePointCount(0, s.length());
            if (p - 1 > chars) {
                out.strings[row] = s;
                continue;
            }
            int from = s.offsetByCodePoints(0, (int) p - 1);
            try {
                out.strings[row] = s.substring(0, from)
                        + pattern(regex.strings[row]).matcher(s.substring(from)).replaceAll(rep.strings[row]);
            } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
                throw new SluiceException("regexp_replace(): invalid replacement '" + rep.strings[row] + "': "
                        + e.getMessage(), e);
            }
        }
        return out;
    }

    private Col split(List<Col> args, int rows, DataType type) {
        Col str = Values.text(args.get(0));
        Col regex = Values.text(args.get(1));
        long[] limit = args.size() > 2 ? Values.longs(args.get(2)).longs : null;
        Object[] values = new Object[rows];
        for (int row = 0; row < rows; row++) {
            if (Values.anyNull(args, row)) {
                continue;
            }
            long l = limit == null ? -1 : limit[row];
            int n = l > 0 ? (int) Math.min(l, Integer.MAX_VALUE) : -1;
            String s = str.strings[row];
            values[row] = s.isEmpty() ? List.of("") : Arrays.asList(pattern(regex.strings[row]).split(s, n));
        }
        return NestedValues.of(type, values);
    }
}
