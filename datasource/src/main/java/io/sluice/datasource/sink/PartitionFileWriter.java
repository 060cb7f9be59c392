package io.sluice.datasource.sink;

import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import io.sluice.logical.source.FileFormat;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/** Writes one task's rows to one new file; the caller still owns and closes each batch it passes. */
public interface PartitionFileWriter extends AutoCloseable {
    void write(Batch batch) throws IOException;

    /** Finishes the file (footer, flush); it is complete only once this returns. */
    @Override
    void close() throws IOException;

    /** A writer creating {@code file} (which must not exist) in {@code format}. */
    static PartitionFileWriter open(FileFormat format, Schema schema, Path file, Configuration conf) throws IOException {
        return switch (format) {
            case PARQUET -> new ParquetPartitionWriter(schema, file, conf);
            case CSV -> new CsvPartitionWriter(schema, file, conf);
            case JSON -> new JsonPartitionWriter(schema, file, conf);
        };
    }
}
