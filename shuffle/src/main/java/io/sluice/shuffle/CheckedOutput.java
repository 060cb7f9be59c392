package io.sluice.shuffle;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import java.util.zip.CRC32C;

/**
 * A buffered file output that tracks its position and a CRC32C since the last reset: what
 * {@link MapOutputWriter} needs to record each segment's offset, length and checksum as it writes.
 */
final class CheckedOutput extends OutputStream {
    private static final int OUTPUT_BUFFER = 256 * 1024;
    private static final Set<OpenOption> CREATE_NEW = Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    /** Shuffle and spill files hold the job's rows: readable by this user only, where the file system has POSIX permissions. */
    private static final FileAttribute<?> OWNER_ONLY = PosixFilePermissions.asFileAttribute(
            PosixFilePermissions.fromString("rw-------"));

    private final OutputStream out;
    private final CRC32C crc = new CRC32C();
    private long position;

    /** Creates {@code file}, which must not exist, owner-only where the file system has POSIX permissions. */
    CheckedOutput(Path file) throws IOException {
        boolean posix = file.getFileSystem().supportedFileAttributeViews().contains("posix");
        FileAttribute<?>[] attributes = posix ? new FileAttribute<?>[] {OWNER_ONLY} : new FileAttribute<?>[0];
        this.out = new BufferedOutputStream(Channels.newOutputStream(Files.newByteChannel(file, CREATE_NEW, attributes)),
                OUTPUT_BUFFER);
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
