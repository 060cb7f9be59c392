package io.sluice.operators.memory;

import io.sluice.common.SluiceException;
import java.util.Locale;

/** Byte amounts as people write them: parsing {@code 64m}, {@code 2g}, {@code 512k} or a number, and printing. */
public final class Bytes {
    private Bytes() {
    }

    /** {@code text} as bytes: a number with an optional k/m/g/t suffix (powers of 1024), optionally followed by b. */
    public static long parse(String setting, String text) {
        String t = text.strip().toLowerCase(Locale.ROOT);
        if (t.endsWith("b")) {
            t = t.substring(0, t.length() - 1);
        }
        int shift = 0;
        if (!t.isEmpty()) {
            switch (t.charAt(t.length() - 1)) {
                case 'k' -> shift = 10;
                case 'm' -> shift = 20;
                case 'g' -> shift = 30;
                case 't' -> shift = 40;
                default -> shift = 0;
            }
        }
        if (shift != 0) {
            t = t.substring(0, t.length() - 1).strip();
        }
        try {
            long n = Long.parseLong(t);
            if (n <= 0 || n > (Long.MAX_VALUE >> shift)) {
                throw new NumberFormatException();
            }
            return n << shift;
        } catch (NumberFormatException e) {
            throw new SluiceException(setting + " must be a positive size such as 64m, 2g or 1048576, not '" + text + "'");
        }
    }

    /** A human-readable amount: {@code 12.5 MiB}. */
    public static String format(long bytes) {
        if (bytes < 1024) {
            return bytes + " B";
        }
        String[] units = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
        double v = bytes;
        int u = -1;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return String.format(Locale.ROOT, "%.1f %s", v, units[u]);
    }
}
