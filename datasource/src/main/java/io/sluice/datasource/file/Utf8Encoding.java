package io.sluice.datasource.file;

/**
 * Encodes Java chars (UTF-16) as UTF-8 into a byte array, for readers that parse text into Arrow
 * string vectors without making a {@code String} per value. A surrogate pair becomes one 4-byte
 * sequence; an unpaired surrogate becomes {@code '?'}, as {@link String#getBytes} does.
 */
public final class Utf8Encoding {
    /** UTF-8 bytes a char can need at most (a pair of surrogates needs 4 for 2 chars). */
    public static final int MAX_BYTES_PER_CHAR = 3;

    private Utf8Encoding() {
    }

    /**
     * Writes the UTF-8 of {@code chars[from, to)} into {@code out} from {@code at}, which must have
     * room for {@link #MAX_BYTES_PER_CHAR} bytes per char; returns the position after the last byte.
     */
    public static int encode(char[] chars, int from, int to, byte[] out, int at) {
        int position = at;
        for (int i = from; i < to; i++) {
            char c = chars[i];
            if (c < 0x80) {
                out[position++] = (byte) c;
            } else if (c < 0x800) {
                out[position++] = (byte) (0xC0 | (c >> 6));
                out[position++] = (byte) (0x80 | (c & 0x3F));
            } else if (Character.isHighSurrogate(c) && i + 1 < to && Character.isLowSurrogate(chars[i + 1])) {
                int codePoint = Character.toCodePoint(c, chars[++i]);
                out[position++] = (byte) (0xF0 | (codePoint >> 18));
                out[position++] = (byte) (0x80 | ((codePoint >> 12) & 0x3F));
                out[position++] = (byte) (0x80 | ((codePoint >> 6) & 0x3F));
                out[position++] = (byte) (0x80 | (codePoint & 0x3F));
            } else if (Character.isSurrogate(c)) {
                out[position++] = (byte) '?';
            } else {
                out[position++] = (byte) (0xE0 | (c >> 12));
                out[position++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                out[position++] = (byte) (0x80 | (c & 0x3F));
            }
        }
        return position;
    }
}
