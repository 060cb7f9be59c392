package io.sluice.shuffle;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;

/**
 * A buffered file output that tracks its position and a CRC32C since the last reset: what
 * {@link MapOutputWriter} needs to record each segment's offset, length and checksum as it writes.
 */
final class CheckedOutput extends OutputStream {
    private static final int OUTPUT_BUFFER = 256 * 1024;

    private final OutputStream out;
    private final CRC32C crc = new CRC32C();
    private long position;

    CheckedOutput(Path file) throws IOException {
        this.out = new BufferedOutputStream(Files.newOutputStream(file, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING), OUTPUT_BUFFER);
    }

    long position() {
        return position;
    }

    void resetChecksum() {
        crc.reset();
    }

    int checksum() {
        return (int) crc.getValue();
    }

    @Override
    public void write(int b) throws IOException {
        out.write(b);
        crc.update(b);
        position++;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        out.write(b, off, len);
        crc.update(b, off, len);
        position += len;
    }

    @Override
    public void close() throws IOException {
        out.close();
    }
}
