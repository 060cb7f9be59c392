package io.sluice.datasource.parquet;

import io.sluice.common.SluiceException;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.datasource.file.HadoopConfiguration;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.HadoopReadOptions;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.hadoop.util.HadoopCodecs;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.io.SeekableInputStream;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/** Opening Parquet files and mapping their schemas, with failures as {@link SluiceException}s naming the file. */
final class ParquetFile {
    private ParquetFile() {
    }

    /** A reader of {@code path}, whose length and modification time are asked of the file system. */
    static ParquetFileReader open(Path path) {
        return open(path, -1, -1);
    }

    /**
     * A reader whose footer is read (or taken from {@link ParquetFooters}); the caller closes it.
     * Given the file's length and modification time as listing found them ({@code fileLength >= 0}),
     * the file is opened without asking the file system for them (a HEAD request on S3A). Read
     * options come from the shared configuration: parquet-hadoop's {@code open(InputFile)} builds a
     * fresh Hadoop {@code Configuration} each time, parsing its XML resources, which costs more than
     * reading a row group's keys.
     */
    static ParquetFileReader open(Path path, long fileLength, long modificationTime) {
        SeekableInputStream in = null;
        try {
            Configuration conf = HadoopConfiguration.shared();
            FileStatus status = status(path, fileLength, modificationTime);
            HadoopInputFile file = HadoopInputFile.fromStatus(status, conf);
            ParquetReadOptions options = HadoopReadOptions.builder(conf, path)
                    .withCodecFactory(new PageCodecs(HadoopCodecs.newFactory(conf, 0))).build();
            in = file.newStream();
            ParquetMetadata footer = ParquetFooters.footer(file, status.getModificationTime(), options, in);
            return ParquetFileReader.open(file, footer, options, in);
        } catch (FileNotFoundException e) {
            closeQuietly(in);
            throw new SluiceException("file not found: " + path, e);
        } catch (IOException | RuntimeException e) {
            closeQuietly(in);
            throw new SluiceException("cannot read Parquet file " + path + ": " + e.getMessage(), e);
        }
    }

    /**
     * The footer of {@code path}, for what only needs its metadata (schema, row groups, statistics):
     * a footer this node has read is taken from {@link ParquetFooters} without opening the file (on
     * the local file system an open also looks for a checksum file; on S3A it is a request), so a
     * warm session plans a query over known files without touching them. Otherwise the file is
     * opened, its footer read and cached, and the file closed. Length and modification time as in
     * {@link #open(Path, long, long)}.
     */
    static ParquetMetadata footer(Path path, long fileLength, long modificationTime) {
        if (fileLength >= 0) {
            ParquetMetadata cached = ParquetFooters.cached(path.toString(), fileLength, modificationTime);
            if (cached != null) {
                return cached;
            }
        }
        try (ParquetFileReader reader = open(path, fileLength, modificationTime)) {
            return reader.getFooter();
        } catch (IOException e) {
            throw new SluiceException("cannot read Parquet file " + path + ": " + e.getMessage(), e);
        }
    }

    /**
     * The status of {@code path}: made of the given length and modification time, or asked of the
     * file system when {@code length} is -1 (unknown). A stream opened with a made status skips
     * S3A's HEAD request ({@code openFile().withFileStatus}).
     */
    static FileStatus status(Path path, long length, long modificationTime) throws IOException {
        return length >= 0 ? new FileStatus(length, false, 1, 0, modificationTime, path)
                : path.getFileSystem(HadoopConfiguration.shared()).getFileStatus(path);
    }

    private static void closeQuietly(SeekableInputStream in) {
        if (in != null) {
            try {
                in.close();
            } catch (IOException ignored) {
                // only read: nothing to lose
            }
        }
    }

    /** The Sluice schema of a Parquet schema, nested fields included. */
    static Schema schema(MessageType message, String file) {
        List<Field> fields = new ArrayList<>(message.getFieldCount());
        for (Type field : message.getFields()) {
            fields.add(new Field(field.getName(), ParquetNestedType.of(field, file)));
        }
        try {
            return new Schema(fields);
        } catch (SluiceException e) {
            throw new SluiceException(file + ": " + e.getMessage(), e);
        }
    }

    /** The field of {@code message} named {@code name}: exact match first, then ignoring case; null if none. */
    static Type field(MessageType message, String name) {
        if (message.containsField(name)) {
            return message.getType(name);
        }
        for (Type field : message.getFields()) {
            if (field.getName().equalsIgnoreCase(name)) {
                return field;
            }
        }
        return null;
    }
}
