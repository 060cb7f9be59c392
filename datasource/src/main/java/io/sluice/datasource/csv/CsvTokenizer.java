package io.sluice.datasource.csv;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import java.io.Closeable;
import java.io.IOException;
import java.io.Reader;
import java.util.Arrays;

/**
 * Splits CSV text into records of fields (RFC 4180: comma separator, double quotes, doubled quotes
 * inside quotes, quoted line breaks). Lines end with LF, CRLF or CR. A leading byte-order mark is
 * skipped. A quote inside an unquoted field is kept as an ordinary character.
 *
 * <p>After {@link #next()} returns true, the record's unescaped characters are in {@link #chars()}
 * and field {@code i} spans {@code [start(i), end(i))}. These buffers are reused by the next call:
 * callers copy out what they keep. Not thread-safe.
 */
final class CsvTokenizer implements Closeable {
    private static final int EOF = -1;

    private final Reader in;
    private final String file;
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

    CsvTokenizer(Reader in, String file) {
        this.in = requireNonNull(in, "in is null");
        this.file = requireNonNull(file, "file is null");
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
            boolean isQuoted = c == '"';
            int terminator = isQuoted ? readQuoted() : readUnquoted();
            addField(start, charCount, isQuoted);
            if (terminator == ',') {
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
            while (p < end) {
                char c = b[p];
                if (c == ',' || c == '\n' || c == '\r') {
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
            if (c == '"') {
                int after = peek();
                if (after == '"') {
                    pos++;
                    appendChar('"');
                    continue;
                }
                if (after == ',' || after == '\n' || after == '\r' || after == EOF) {
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

    /** An empty unquoted field: NULL. */
    boolean isNull(int field) {
        return starts[field] == ends[field] && !quoted[field];
    }

    /** True for an empty line: one empty unquoted field. */
    boolean isBlankLine() {
        return fieldCount == 1 && isNull(0);
    }

    String text(int field) {
        return new String(chars, starts[field], ends[field] - starts[field]);
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
