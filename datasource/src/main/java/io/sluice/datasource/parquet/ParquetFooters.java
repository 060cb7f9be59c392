package io.sluice.datasource.parquet;

import static java.util.Objects.requireNonNull;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.format.converter.ParquetMetadataConverter;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;

/**
 * The Parquet footers a node has read, by path, length and modification time, so that planning and
 * each task of a query (and the next query) parse a file's footer once: on an object store every
 * footer read is a request, and a table's row groups are many tasks of one file. A rewritten file
 * has another length or modification time, hence another key; the least recently used footers are
 * dropped beyond {@value #CACHED_BYTES} bytes of footers.
 *
 * <p>A footer is read with one ranged read of the file's last {@value #TAIL_BYTES} bytes (one GET on
 * S3A), which holds the footer, its length and the magic of all but very wide files; a longer footer
 * takes a second read of the rest. parquet-hadoop's own reader takes two reads (the length, then the
 * footer). Encrypted footers are left to it.
 */
final class ParquetFooters {
    static final int TAIL_BYTES = 256 * 1024;
    static final long CACHED_BYTES = 64L << 20;
    private static final byte[] MAGIC = "PAR1".getBytes(StandardCharsets.US_ASCII);

    private record Key(String path, long length, long modificationTime) {
    }

    private record Cached(ParquetMetadata footer, int bytes) {
    }

    private static final Map<Key, Cached> FOOTERS = new LinkedHashMap<>(64, 0.75f, true);
    private static long cachedBytes;

    private ParquetFooters() {
    }

    /**
     * The cached footer of the file at {@code path} (as {@code Path.toString()} spells it) of that
     * length and modification time; null when this node has not read it (or dropped it).
     */
    static ParquetMetadata cached(String path, long length, long modificationTime) {
        requireNonNull(path, "path is null");
        synchronized (FOOTERS) {
            Cached cached = FOOTERS.get(new Key(path, length, modificationTime));
            return cached == null ? null : cached.footer();
        }
    }

    /**
     * The footer of {@code file} (of the given modification time), from the cache or read from
     * {@code in}, a stream over the file that the caller keeps open and closes.
     */
    static ParquetMetadata footer(InputFile file, long modificationTime, ParquetReadOptions options,
            SeekableInputStream in) throws IOException {
        requireNonNull(file, "file is null");
        Key key = new Key(file.toString(), file.getLength(), modificationTime);
        ParquetMetadata known = cached(key.path(), key.length(), key.modificationTime());
        if (known != null) {
            return known;
        }
        long length = file.getLength();
        int tail = (int) Math.min(length, TAIL_BYTES);
        byte[] bytes = new byte[tail];
        if (tail < MAGIC.length + 4 + MAGIC.length) {
            return ParquetFileReader.readFooter(file, options, in); // too short: parquet-hadoop names the problem
        }
        in.seek(length - tail);
        in.readFully(bytes);
        if (!Arrays.equals(bytes, tail - MAGIC.length, tail, MAGIC, 0, MAGIC.length)) {
            return ParquetFileReader.readFooter(file, options, in); // encrypted or not Parquet: its own errors
        }
        int footerLength = littleEndianInt(bytes, tail - MAGIC.length - 4);
        long footerStart = length - MAGIC.length - 4 - footerLength;
        if (footerLength < 0 || footerStart < MAGIC.length) {
            throw new IOException("corrupt Parquet footer length " + footerLength + " in a file of " + length + " bytes");
        }
        byte[] footerBytes;
        int offset;
        if (footerLength + MAGIC.length + 4 <= tail) {
            footerBytes = bytes;
            offset = tail - MAGIC.length - 4 - footerLength;
        } else {
            footerBytes = new byte[footerLength];
            int missing = footerLength - (tail - MAGIC.length - 4);
            in.seek(footerStart);
            in.readFully(footerBytes, 0, missing);
            System.arraycopy(bytes, 0, footerBytes, missing, tail - MAGIC.length - 4);
            offset = 0;
        }
        ParquetMetadata footer = new ParquetMetadataConverter(options).readParquetMetadata(
                new ByteArrayInputStream(footerBytes, offset, footerLength), options.getMetadataFilter());
        remember(key, new Cached(footer, footerLength));
        return footer;
    }

    private static void remember(Key key, Cached footer) {
        synchronized (FOOTERS) {
            Cached old = FOOTERS.put(key, footer);
            cachedBytes += footer.bytes() - (old == null ? 0 : old.bytes());
            var eldest = FOOTERS.entrySet().iterator();
            while (cachedBytes > CACHED_BYTES && eldest.hasNext()) {
                cachedBytes -= eldest.next().getValue().bytes();
                eldest.remove();
            }
        }
    }

    private static int littleEndianInt(byte[] b, int at) {
        return (b[at] & 0xff) | (b[at + 1] & 0xff) << 8 | (b[at + 2] & 0xff) << 16 | (b[at + 3] & 0xff) << 24;
    }
}
