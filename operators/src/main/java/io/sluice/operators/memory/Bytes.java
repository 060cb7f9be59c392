package io.sluice.operators.memory;

import io.sluice.common.SluiceException;
import io.sluice.common.settings.SettingType;
import java.util.Locale;

/** Byte amounts as people write them: parsing {@code 64m}, {@code 2g}, {@code 512k} or a number, and printing. */
public final class Bytes {
    private Bytes() {
    }

    /** {@code text} as a positive number of bytes, written as {@link SettingType#BYTE_SIZE} reads it. */
    public static long parse(String setting, String text) {
        long bytes;
        try {
            bytes = SettingType.BYTE_SIZE.parse(setting, text);
        } catch (SluiceException e) {
            bytes = 0;
        }
        if (bytes <= 0) {
            throw new SluiceException(setting + " must be a positive size such as 64m, 2g or 1048576, not '" + text + "'");
        }
        return bytes;
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
