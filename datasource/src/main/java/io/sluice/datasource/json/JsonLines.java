package io.sluice.datasource.json;

import static java.util.Objects.requireNonNull;

import io.sluice.common.Closeables;
import io.sluice.common.SluiceException;
import io.sluice.datasource.file.HadoopConfiguration;
import io.sluice.datasource.file.SourceFiles;
import java.io.Closeable;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.CompressionCodecFactory;

/**
 * The lines of one byte range of a file, as raw UTF-8 bytes without their line end. A line belongs
 * to the range in which its first byte lies, so ranges that tile a file read each line exactly once
 * (a line that crosses a range's end is read whole by that range). A compressed file (its codec
 * found by suffix) is read whole, as one range. The current line stays valid until the next call of
 * {@link #next()}.
 */
final class JsonLines implements Closeable {
    /** Finds codecs by file suffix (.gz, .bz2, ...); read-only after construction. */
    private static final CompressionCodecFactory CODECS = new CompressionCodecFactory(HadoopConfiguration.shared());
    private static final int BUFFER = 1 << 16;

    private final Path path;
    private final InputStream in;
    private final long end;
    private final byte[] buffer = new byte[BUFFER];
    private int bufferPosition;
    private int bufferLimit;
    /** File offset of {@code buffer[0]}. */
    private long bufferOffset;
    private byte[] line = new byte[1024];
    private int lineLength;
    private long lineOffset;
    /** Line number of the current line when the range starts the file, else -1 (found on demand). */
    private long lineNumber;

    private JsonLines(Path path, InputStream in, long start, long end) {
        this.path = path;
        this.in = in;
        this.bufferOffset = start;
        this.end = end;
        this.lineNumber = start == 0 ? 0 : -1;
    }

    /** True when a file of this name is compressed, so it cannot be split into ranges. */
    static boolean isCompressed(Path path) {
        return CODECS.getCodec(path) != null;
    }

    /** The lines starting in {@code [start, start + length)} of {@code path}; a negative length reads to the end. */
    static JsonLines open(Path path, long start, long length) {
        return open(path, -1, -1, start, length);
    }

    /** The same, of a file whose length and modification time listing found ({@link SourceFiles#open}). */
    static JsonLines open(Path path, long fileLength, long modificationTime, long start, long length) {
        requireNonNull(path, "path is null");
        FSDataInputStream raw = null;
        try {
            raw = SourceFiles.open(path, fileLength, modificationTime);
            CompressionCodec codec = CODECS.getCodec(path);
            if (codec != null) {
                if (start != 0) {
                    throw new IllegalArgumentException("a compressed file is read whole: " + path + " from " + start);
                }
                return new JsonLines(path, codec.createInputStream(raw), 0, Long.MAX_VALUE);
            }
            long end = length < 0 ? Long.MAX_VALUE : start + length;
            JsonLines lines;
            if (start == 0) {
                lines = new JsonLines(path, raw, 0, end);
            } else {
                // The line at 'start' is ours only if the byte before it ends a line.
                raw.seek(start - 1);
                lines = new JsonLines(path, raw, start - 1, end);
                if (lines.readByte() != '\n') {
                    lines.skipLine();
                }
            }
            return lines;
        } catch (FileNotFoundException e) {
            Closeables.closeOnFailure(raw, e);
            throw new SluiceException("file not found: " + path, e);
        } catch (IOException e) {
            Closeables.closeOnFailure(raw, e);
            throw new SluiceException("cannot read JSON file " + path + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            Closeables.closeOnFailure(raw, e);
            throw e;
        }
    }

    /** Moves to the next line of the range; false at its end. */
    boolean next() {
        try {
            long offset = bufferOffset + bufferPosition;
            if (offset >= end) {
                return false;
            }
            if (bufferPosition == bufferLimit && !fill()) {
                return false;
            }
            lineOffset = offset;
            lineLength = 0;
            while (true) {
                int from = bufferPosition;
                int i = from;
                while (i < bufferLimit && buffer[i] != '\n') {
                    i++;
                }
                append(from, i);
                if (i < bufferLimit) {
                    bufferPosition = i + 1;
                    break;
                }
                bufferPosition = bufferLimit;
                if (!fill()) {
                    break;
                }
            }
            if (lineLength > 0 && line[lineLength - 1] == '\r') {
                lineLength--;
            }
            if (lineNumber >= 0) {
                lineNumber++;
            }
            return true;
        } catch (IOException e) {
            throw new SluiceException("cannot read JSON file " + path + ": " + e.getMessage(), e);
        }
    }

    byte[] bytes() {
        return line;
    }

    int length() {
        return lineLength;
    }

    /** True for a line of blanks only, which holds no record. */
    boolean isBlank() {
        for (int i = 0; i < lineLength; i++) {
            byte b = line[i];
            if (b != ' ' && b != '\t' && b != '\r') {
                return false;
            }
        }
        return true;
    }

    /** The current line's 1-based number in its file; for a range past the file's start, found by counting (on errors only). */
    long lineNumber() {
        if (lineNumber < 0) {
            lineNumber = countLinesBefore(path, lineOffset) + 1;
        }
        return lineNumber;
    }

    /** The current line as text, for the corrupt record column and messages. */
    String text() {
        return new String(line, 0, lineLength, java.nio.charset.StandardCharsets.UTF_8);
    }

    Path path() {
        return path;
    }

    private void append(int from, int to) {
        int n = to - from;
        if (lineLength + n > line.length) {
            line = Arrays.copyOf(line, Math.max(line.length * 2, lineLength + n));
        }
        System.arraycopy(buffer, from, line, lineLength, n);
        lineLength += n;
    }

    private boolean fill() throws IOException {
        bufferOffset += bufferLimit;
        bufferPosition = 0;
        bufferLimit = 0;
        int n = in.read(buffer, 0, buffer.length);
        if (n <= 0) {
            return false;
        }
        bufferLimit = n;
        return true;
    }

    private int readByte() throws IOException {
        if (bufferPosition == bufferLimit && !fill()) {
            return -1;
        }
        return buffer[bufferPosition++];
    }

    private void skipLine() throws IOException {
        int b;
        do {
            b = readByte();
        } while (b != -1 && b != '\n');
    }

    private static long countLinesBefore(Path path, long offset) {
        long lines = 0;
        try (InputStream in = SourceFiles.fileSystem(path).open(path)) {
            byte[] buffer = new byte[BUFFER];
            long remaining = offset;
            while (remaining > 0) {
                int n = in.read(buffer, 0, (int) Math.min(buffer.length, remaining));
                if (n <= 0) {
                    break;
                }
                for (int i = 0; i < n; i++) {
                    if (buffer[i] == '\n') {
                        lines++;
                    }
                }
                remaining -= n;
            }
        } catch (IOException e) {
            throw new SluiceException("cannot read JSON file " + path + ": " + e.getMessage(), e);
        }
        return lines;
    }

    @Override
    public void close() {
        Closeables.closeLogging(in, path);
    }
}
