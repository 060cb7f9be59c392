package io.sluice.datasource.csv;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import java.io.Closeable;
import java.io.IOException;
import java.io.Reader;
import java.util.Arrays;

/**
 * Splits CSV text into records of fields (RFC 4180 by default: comma separator, double quotes,
 * doubled quotes inside quotes, quoted line breaks; the delimiter, quote and escape characters are
 * options). Inside quotes, the escape character followed by the quote or by itself stands for that
 * character; when the escape is the quote itself, that is the doubled quote. Lines end with LF, CRLF
 * or CR. A leading byte-order mark is skipped. A quote inside an unquoted field is kept as an
 * ordinary character. NULL is an empty unquoted field, or an unquoted field equal to the
 * {@code nullValue} option.
 *
 * <p>After {@link #next()} returns true, the record's unescaped characters are in {@link #chars()}
 * and field {@code i} spans {@code [start(i), end(i))}. These buffers are reused by the next call:
 * callers copy out what they keep. Not thread-safe.
 */
final class CsvTokenizer implements Closeable {
    private static final int EOF = -1;

    private final Reader in;
    private final String file;
    private final char delimiter;
    private final char quote;
    private final char escape;
    /** Unquoted text that reads as NULL besides the empty field; null for none. */
    private final char[] nullText;
    private final char[] buf = new char[1 << 16];
    private int pos;
    private int limit;
    private boolean atEof;
    private boolean started;

    private char[] chars = new char[1024];
    private int charCount;
    private int[] starts = new int[16];
    private int[] ends = new int[16];
    private boolean[] quoted = new boolean[16];
    private int fieldCount;

    /** Physical line (1-based) where the next record starts, and where the current one started. */
    private long nextLine = 1;
    private long recordLine;

    CsvTokenizer(Reader in, String file, CsvOptions options) {
        this.in = requireNonNull(in, "in is null");
        this.file = requireNonNull(file, "file is null");
        this.delimiter = options.delimiter();
        this.quote = options.quote();
        this.escape = options.escape();
        this.nullText = options.nullValue() == null || options.nullValue().isEmpty() ? null
                : options.nullValue().toCharArray();
    }

    /** Reads the next record; false at end of input. */
    boolean next() throws IOException {
        if (pos == limit && !fill()) {
            return false;
        }
        if (!started) {
            started = true;
            if (buf[pos] == '\uFEFF') {
                pos++;
            }
            if (pos == limit && !fill()) {
                return false;
            }
        }
        recordLine = nextLine;
        fieldCount = 0;
        charCount = 0;
        while (true) {
            int start = charCount;
            int c = peek();
            boolean isQuoted = c == quote;
            int terminator = isQuoted ? readQuoted() : readUnquoted();
            addField(start, charCount, isQuoted);
            if (terminator == delimiter) {
                continue;
            }
            if (terminator == '\r' && peek() == '\n') {
                pos++;
            }
            if (terminator != EOF) {
                nextLine++;
            }
            return true;
        }
    }

    /** Copies an unquoted field; returns the character that ended it (consumed), or EOF. */
    private int readUnquoted() throws IOException {
        while (true) {
            if (pos == limit && !fill()) {
                return EOF;
            }
            int p = pos;
            int end = limit;
            char[] b = buf;
            char separator = delimiter;
            while (p < end) {
                char c = b[p];
                if (c == separator || c == '\n' || c == '\r') {
                    append(b, pos, p - pos);
                    pos = p + 1;
                    return c;
                }
                p++;
            }
            append(b, pos, end - pos);
            pos = end;
        }
    }

    /** Copies a quoted field without its quotes; returns the character after the closing quote (consumed), or EOF. */
    private int readQuoted() throws IOException {
        long openLine = nextLine;
        pos++; // opening quote
        while (true) {
            if (pos == limit && !fill()) {
                throw new SluiceException(file + ": line " + openLine + ": unterminated quoted field");
            }
            char c = buf[pos++];
            if (c == escape && escape != quote) {
                int after = peek();
                if (after == quote || after == escape) {
                    pos++;
                    appendChar((char) after);
                    continue;
                }
            }
            if (c == quote) {
                int after = peek();
                if (after == quote && escape == quote) {
                    pos++;
                    appendChar(quote);
                    continue;
                }
                if (after == delimiter || after == '\n' || after == '\r' || after == EOF) {
                    if (after != EOF) {
                        pos++;
                    }
                    return after;
                }
                throw new SluiceException(file + ": line " + nextLine + ": unexpected character '" + (char) after
                        + "' after closing quote in field " + (fieldCount + 1));
            }
            if (c == '\n' || (c == '\r' && peek() != '\n')) {
                nextLine++;
            }
            appendChar(c);
        }
    }

    private int peek() throws IOException {
        if (pos == limit && !fill()) {
            return EOF;
        }
        return buf[pos];
    }

    private boolean fill() throws IOException {
        if (atEof) {
            return false;
        }
        int n;
        do {
            n = in.read(buf, 0, buf.length);
        } while (n == 0);
        if (n < 0) {
            atEof = true;
            pos = limit = 0;
            return false;
        }
        pos = 0;
        limit = n;
        return true;
    }

    private void append(char[] src, int from, int length) {
        if (length == 0) {
            return;
        }
        if (charCount + length > chars.length) {
            chars = Arrays.copyOf(chars, Math.max(chars.length * 2, charCount + length));
        }
        System.arraycopy(src, from, chars, charCount, length);
        charCount += length;
    }

    private void appendChar(char c) {
        if (charCount == chars.length) {
            chars = Arrays.copyOf(chars, chars.length * 2);
        }
        chars[charCount++] = c;
    }

    private void addField(int start, int end, boolean isQuoted) {
        if (fieldCount == starts.length) {
            int n = starts.length * 2;
            starts = Arrays.copyOf(starts, n);
            ends = Arrays.copyOf(ends, n);
            quoted = Arrays.copyOf(quoted, n);
        }
        starts[fieldCount] = start;
        ends[fieldCount] = end;
        quoted[fieldCount] = isQuoted;
        fieldCount++;
    }

    /** Line number (1-based) where the current record starts. */
    long line() {
        return recordLine;
    }

    int fieldCount() {
        return fieldCount;
    }

    char[] chars() {
        return chars;
    }

    int start(int field) {
        return starts[field];
    }

    int end(int field) {
        return ends[field];
    }

    boolean quoted(int field) {
        return quoted[field];
    }

    /** An empty unquoted field, or an unquoted field that spells the {@code nullValue} option: NULL. */
    boolean isNull(int field) {
        if (quoted[field]) {
            return false;
        }
        int start = starts[field];
        int length = ends[field] - start;
        return length == 0 || (nullText != null && length == nullText.length && spellsNull(start));
    }

    private boolean spellsNull(int start) {
        for (int i = 0; i < nullText.length; i++) {
            if (chars[start + i] != nullText[i]) {
                return false;
            }
        }
        return true;
    }

    /** True for an empty line: one empty unquoted field. */
    boolean isBlankLine() {
        return fieldCount == 1 && starts[0] == ends[0] && !quoted[0];
    }

    String text(int field) {
        return new String(chars, starts[field], ends[field] - starts[field]);
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
