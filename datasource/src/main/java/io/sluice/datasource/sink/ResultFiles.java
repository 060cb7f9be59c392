package io.sluice.datasource.sink;

import io.sluice.common.SluiceException;
import io.sluice.common.types.Schema;
import io.sluice.datasource.file.HadoopConfiguration;
import io.sluice.logical.source.FileFormat;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * A client's query result written by the engine's own writers: the Parquet and JSON a query's
 * {@code write} produces, and Arrow IPC files, so that {@code sluice sql} output reads back as the
 * engine's files do. Files are opened through Hadoop's FileSystem with the shared configuration.
 */
public final class ResultFiles {
    private ResultFiles() {
    }

    /** A new Parquet file at {@code location} (a path or any Hadoop FileSystem URI); an existing one is an error. */
    public static PartitionFileWriter parquet(Schema schema, String location) throws IOException {
        Path file = newFile(location);
        return PartitionFileWriter.open(FileFormat.PARQUET, schema, file, HadoopConfiguration.shared());
    }

    /** A new Arrow IPC file at {@code location}, its record batches staged in {@code allocator}. */
    public static PartitionFileWriter arrow(Schema schema, String location, BufferAllocator allocator) throws IOException {
        Path file = newFile(location);
        Configuration conf = HadoopConfiguration.shared();
        OutputStream stream = new BufferedOutputStream(file.getFileSystem(conf).create(file, false), 1 << 16);
        try {
            return new ArrowPartitionWriter(schema, stream, allocator);
        } catch (IOException | RuntimeException e) {
            stream.close();
            throw e;
        }
    }

    /** JSON lines on {@code out}, as the engine writes JSON files (a NULL field left out); closing the writer leaves {@code out} open. */
    public static PartitionFileWriter jsonLines(Schema schema, OutputStream out) throws IOException {
        return new JsonPartitionWriter(schema, out, false);
    }

    private static Path newFile(String location) throws IOException {
        Path file = new Path(location);
        FileSystem fs = file.getFileSystem(HadoopConfiguration.shared());
        if (fs.exists(file)) {
            throw new SluiceException("the output file " + location + " exists; remove it or name another");
        }
        return file;
    }
}
