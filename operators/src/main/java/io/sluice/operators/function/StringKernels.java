package io.sluice.operators.function;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.kernels.Col;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;

/**
 * The string functions' kernels, with Spark's semantics (see {@code StringFunctions} in module
 * logical for each one's rule). Lengths and positions count code points.
 */
final class StringKernels {
    private StringKernels() {
    }

    /** The kernel of {@code name}, or null when it is not a string function. */
    static FunctionKernel of(String name) {
        return switch (name) {
            case "substring" -> StringKernels::substring;
            case "concat_ws" -> StringKernels::concatWs;
            case "lpad", "rpad" -> (args, rows, type) -> pad(args, rows, name.equals("lpad"));
            case "initcap" -> StringKernels::initcap;
            case "translate" -> StringKernels::translate;
            case "locate" -> StringKernels::locate;
            case "format_string" -> StringKernels::formatString;
            case "md5" -> digest("MD5");
            case "sha1" -> digest("SHA-1");
            case "sha2" -> StringKernels::sha2;
            case "base64" -> StringKernels::base64;
            case "unbase64" -> StringKernels::unbase64;
            case "reverse" -> StringKernels::reverse;
            case "repeat" -> StringKernels::repeat;
            case "left", "right" -> (args, rows, type) -> leftOrRight(args, rows, name.equals("left"));
            case "ascii" -> StringKernels::ascii;
            case "chr" -> StringKernels::chr;
            default -> null;
        };
    }

    /** Spark's {@code substring(str, pos[, len])}: a negative pos counts from the end, 0 is 1. */
    private static Col substring(List<Col> args, int rows, DataType type) {
        Col str = Values.text(args.get(0));
        long[] pos = Values.longs(args.get(1)).longs;
        long[] len = args.size() > 2 ? Values.longs(args.get(2)).longs : null;
        Col out = Col.allocate(DataType.UTF8, rows, true);
        for (int row = 0; row < rows; row++) {
            if (Values.anyNull(args, row)) {
                out.nulls[row] = true;
                continue;
            }
            String s = str.strings[row];
            int chars = s.codePointCount(0, s.length());
            long p = pos[row];
            long start = p > 0 ? p - 1 : p < 0 ? chars + p : 0;
            long end = len == null ? Long.MAX_VALUE : start + len[row];
            start = Math.max(start, 0);
            end = Math.min(end, chars);
            out.strings[row] = start >= end ? "" : codePoints(s, (int) start, (int) end);
        }
        return out;
    }

    /** The code points {@code [from, to)} of {@code s}. */
    static String codePoints(String s, int from, int to) {
        if (s.length() == s.codePointCount(0, s.length())) {
            return s.substring(from, to);
        }
        int a = s.offsetByCodePoints(0, from);
        return s.substring(a, s.offsetByCodePoints(a, to - from));
    }

    private static Col concatWs(List<Col> args, int rows, DataType type) {
        Col sep = Values.text(args.get(0));
        List<Col> parts = new ArrayList<>();
        for (Col c : args.subList(1, args.size())) {
            parts.add(c.type.kind() == DataType.Kind.LIST ? c : Values.text(c));
        }
        Col out = Col.allocate(DataType.UTF8, rows, true);
        StringBuilder s = new StringBuilder();
        for (int row = 0; row < rows; row++) {
            if (sep.isNull(row)) {
                out.nulls[row] = true;
                continue;
            }
            s.setLength(0);
            boolean first = true;
            for (Col c : parts) {
                if (c.isNull(row)) {
                    continue;
                }
                if (c.type.kind() == DataType.Kind.LIST) {
                    for (Object e : (List<?>) c.objects[row]) {
                        if (e != null) {
                            s.append(first ? "" : sep.strings[row]).append(e);
                            first = false;
                        }
                    }
                } else {
                    s.append(first ? "" : sep.strings[row]).append(c.strings[row]);
                    first = false;
                }
            }
            out.strings[row] = s.toString();
        }
        return out;
    }

    private static Col pad(List<Col> args, int rows, boolean left) {
        Col str = Values.text(args.get(0));
        long[] len = Values.longs(args.get(1)).longs;
        Col pad = args.size() > 2 ? Values.text(args.get(2)) : null;
        Col out = Col.allocate(DataType.UTF8, rows, true);
        StringBuilder b = new StringBuilder();
        for (int row = 0; row < rows; row++) {
            if (Values.anyNull(args, row)) {
                out.nulls[row] = true;
                continue;
            }
            String s = str.strings[row];
            String p = pad == null ? " " : pad.strings[row];
            long target = Math.max(0, len[row]);
            int chars = s.codePointCount(0, s.length());
            if (chars >= target || p.isEmpty()) {
                out.strings[row] = codePoints(s, 0, (int) Math.min(chars, target));
                continue;
            }
            int padChars = p.codePointCount(0, p.length());
            long need = target - chars;
            b.setLength(0);
            if (!left) {
                b.append(s);
            }
            for (long full = need / padChars; full > 0; full--) {
                b.append(p);
            }
            b.append(codePoints(p, 0, (int) (need % padChars)));
            if (left) {
                b.append(s);
            }
            out.strings[row] = b.toString();
        }
        return out;
    }

    /** Each space-separated word's first letter in title case, the rest in lower case. */
    private static Col initcap(List<Col> args, int rows, DataType type) {
        Col str = Values.text(args.get(0));
        Col out = Col.allocate(DataType.UTF8, rows, true);
        for (int row = 0; row < rows; row++) {
            if (str.isNull(row)) {
                out.nulls[row] = true;
                continue;
            }
            String lower = str.strings[row].toLowerCase(Locale.ROOT);
            StringBuilder b = new StringBuilder(lower.length());
            boolean start = true;
            for (int i = 0; i < lower.length(); ) {
                int cp = lower.codePointAt(i);
                b.appendCodePoint(start ? Character.toTitleCase(cp) : cp);
                start = cp == ' ';
                i += Character.charCount(cp);
            }
            out.strings[row] = b.toString();
        }
        return out;
    }

    private static Col translate(List<Col> args, int rows, DataType type) {
        Col str = Values.text(args.get(0));
        Col from = Values.text(args.get(1));
        Col to = Values.text(args.get(2));
        Col out = Col.allocate(DataType.UTF8, rows, true);
        String lastFrom = null;
        String lastTo = null;
        java.util.Map<Integer, Integer> dict = new java.util.HashMap<>(); // code point to code point, -1 removes
        for (int row = 0; row < rows; row++) {
            if (Values.anyNull(args, row)) {
                out.nulls[row] = true;
                continue;
            }
            if (!from.strings[row].equals(lastFrom) || !to.strings[row].equals(lastTo)) {
                lastFrom = from.strings[row];
                lastTo = to.strings[row];
                dict.clear();
                int[] f = lastFrom.codePoints().toArray();
                int[] t = lastTo.codePoints().toArray();
                for (int i = 0; i < f.length; i++) {
                    dict.putIfAbsent(f[i], i < t.length ? t[i] : -1);
                }
            }
            String s = str.strings[row];
            StringBuilder b = new StringBuilder(s.length());
            for (int i = 0; i < s.length(); ) {
                int cp = s.codePointAt(i);
                Integer mapped = dict.get(cp);
                if (mapped == null) {
                    b.appendCodePoint(cp);
                } else if (mapped >= 0) {
                    b.appendCodePoint(mapped);
                }
                i += Character.charCount(cp);
            }
            out.strings[row] = b.toString();
        }
        return out;
    }

    /** {@code locate(substr, str[, pos])}: 1-based, 0 when absent or when pos is below 1. */
    private static Col locate(List<Col> args, int rows, DataType type) {
        Col sub = Values.text(args.get(0));
        Col str = Values.text(args.get(1));
        long[] pos = args.size() > 2 ? Values.longs(args.get(2)).longs : null;
        Col out = Col.allocate(DataType.INT32, rows, true);
        for (int row = 0; row < rows; row++) {
            if (sub.isNull(row) || str.isNull(row)) {
                out.nulls[row] = true;
                continue;
            }
            if (Values.nullAt(args, 2, row)) {
                continue; // Spark: a NULL position gives 0
            }
            long p = pos == null ? 1 : pos[row];
            String s = str.strings[row];
            int chars = s.codePointCount(0, s.length());
            if (p < 1 || p - 1 > chars) {
                continue;
            }
            int from = s.offsetByCodePoints(0, (int) p - 1);
            int at = s.indexOf(sub.strings[row], from);
            out.longs[row] = at < 0 ? 0 : s.codePointCount(0, at) + 1;
        }
        return out;
    }

    private static Col formatString(List<Col> args, int rows, DataType type) {
        Col fmt = Values.text(args.get(0));
        Col out = Col.allocate(DataType.UTF8, rows, true);
        Object[] values = new Object[args.size() - 1];
        for (int row = 0; row < rows; row++) {
            if (fmt.isNull(row)) {
                out.nulls[row] = true;
                continue;
            }
            for (int i = 1; i < args.size(); i++) {
                values[i - 1] = args.get(i).get(row);
            }
            try {
                out.strings[row] = String.format(Locale.US, fmt.strings[row], values);
            } catch (java.util.IllegalFormatException e) {
                throw new SluiceException("format_string(): format '" + fmt.strings[row] + "' does not fit its arguments: "
                        + e.getMessage(), e);
            }
        }
        return out;
    }

    private static FunctionKernel digest(String algorithm) {
        MessageDigest md = messageDigest(algorithm);
        return (args, rows, type) -> {
            Col str = Values.text(args.get(0));
            Col out = Col.allocate(DataType.UTF8, rows, true);
            for (int row = 0; row < rows; row++) {
                if (str.isNull(row)) {
                    out.nulls[row] = true;
                } else {
                    out.strings[row] = HexFormat.of().formatHex(md.digest(str.strings[row].getBytes(StandardCharsets.UTF_8)));
                }
            }
            return out;
        };
    }

    private static MessageDigest messageDigest(String algorithm) {
        try {
            return MessageDigest.getInstance(algorithm);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JVM has no " + algorithm, e);
        }
    }

    /** SHA-224, 256 (also for 0), 384 or 512; NULL for another bit length, as Spark. */
    private static Col sha2(List<Col> args, int rows, DataType type) {
        Col str = Values.text(args.get(0));
        long[] bits = Values.longs(args.get(1)).longs;
        Col out = Col.allocate(DataType.UTF8, rows, true);
        MessageDigest[] digests = new MessageDigest[4];
        for (int row = 0; row < rows; row++) {
            int k = Values.anyNull(args, row) ? -1 : switch ((int) bits[row]) {
                case 224 -> 0;
                case 0, 256 -> 1;
                case 384 -> 2;
                case 512 -> 3;
                default -> -1;
            };
            if (k < 0) {
                out.nulls[row] = true;
                continue;
            }
            if (digests[k] == null) {
                digests[k] = messageDigest(new String[] {"SHA-224", "SHA-256", "SHA-384", "SHA-512"}[k]);
            }
            out.strings[row] = HexFormat.of().formatHex(digests[k].digest(str.strings[row].getBytes(StandardCharsets.UTF_8)));
        }
        return out;
    }

    private static Col base64(List<Col> args, int rows, DataType type) {
        Col str = Values.text(args.get(0));
        Col out = Col.allocate(DataType.UTF8, rows, true);
        Base64.Encoder encoder = Base64.getEncoder();
        for (int row = 0; row < rows; row++) {
            if (str.isNull(row)) {
                out.nulls[row] = true;
            } else {
                out.strings[row] = encoder.encodeToString(str.strings[row].getBytes(StandardCharsets.UTF_8));
            }
        }
        return out;
    }

    private static Col unbase64(List<Col> args, int rows, DataType type) {
        Col str = Values.text(args.get(0));
        Col out = Col.allocate(DataType.UTF8, rows, true);
        Base64.Decoder decoder = Base64.getMimeDecoder();
        for (int row = 0; row < rows; row++) {
            if (str.isNull(row)) {
                out.nulls[row] = true;
                continue;
            }
            try {
                out.strings[row] = new String(decoder.decode(str.strings[row]), StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                throw new SluiceException("unbase64(): '" + str.strings[row] + "' is not base64: " + e.getMessage(), e);
            }
        }
        return out;
    }

    private static Col reverse(List<Col> args, int rows, DataType type) {
        Col in = args.get(0);
        if (in.type.kind() == DataType.Kind.LIST) {
            Object[] values = new Object[rows];
            for (int row = 0; row < rows; row++) {
                if (!in.isNull(row)) {
                    List<Object> copy = new ArrayList<>((List<?>) in.objects[row]);
                    java.util.Collections.reverse(copy);
                    values[row] = copy;
                }
            }
            return io.sluice.kernels.NestedValues.of(type, values);
        }
        Col str = Values.text(in);
        Col out = Col.allocate(DataType.UTF8, rows, true);
        for (int row = 0; row < rows; row++) {
            if (str.isNull(row)) {
                out.nulls[row] = true;
            } else {
                out.strings[row] = new StringBuilder(str.strings[row]).reverse().toString();
            }
        }
        return out;
    }

    private static Col repeat(List<Col> args, int rows, DataType type) {
        Col str = Values.text(args.get(0));
        long[] n = Values.longs(args.get(1)).longs;
        Col out = Col.allocate(DataType.UTF8, rows, true);
        for (int row = 0; row < rows; row++) {
            if (Values.anyNull(args, row)) {
                out.nulls[row] = true;
                continue;
            }
            long size = Math.max(0, n[row]) * str.strings[row].length();
            if (size > Integer.MAX_VALUE - 16) {
                throw new SluiceException("repeat(): the result of repeating a " + str.strings[row].length()
                        + "-character string " + n[row] + " times is too long");
            }
            out.strings[row] = str.strings[row].repeat((int) Math.max(0, n[row]));
        }
        return out;
    }

    private static Col leftOrRight(List<Col> args, int rows, boolean left) {
        Col str = Values.text(args.get(0));
        long[] len = Values.longs(args.get(1)).longs;
        Col out = Col.allocate(DataType.UTF8, rows, true);
        for (int row = 0; row < rows; row++) {
            if (Values.anyNull(args, row)) {
                out.nulls[row] = true;
                continue;
            }
            String s = str.strings[row];
            int chars = s.codePointCount(0, s.length());
            int n = (int) Math.max(0, Math.min(chars, len[row]));
            out.strings[row] = left ? codePoints(s, 0, n) : codePoints(s, chars - n, chars);
        }
        return out;
    }

    private static Col ascii(List<Col> args, int rows, DataType type) {
        Col str = Values.text(args.get(0));
        Col out = Col.allocate(DataType.INT32, rows, true);
        for (int row = 0; row < rows; row++) {
            if (str.isNull(row)) {
                out.nulls[row] = true;
            } else {
                out.longs[row] = str.strings[row].isEmpty() ? 0 : str.strings[row].codePointAt(0);
            }
        }
        return out;
    }

    /** The character of code {@code n} modulo 256; '' for a negative n, as Spark. */
    private static Col chr(List<Col> args, int rows, DataType type) {
        long[] n = Values.longs(args.get(0)).longs;
        Col out = Col.allocate(DataType.UTF8, rows, true);
        for (int row = 0; row < rows; row++) {
            if (args.get(0).isNull(row)) {
                out.nulls[row] = true;
            } else {
                out.strings[row] = n[row] < 0 ? "" : String.valueOf((char) (n[row] & 0xFF));
            }
        }
        return out;
    }
}
