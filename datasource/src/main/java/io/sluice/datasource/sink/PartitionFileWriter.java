package io.sluice.datasource.sink;

import io.sluice.common.types.Schema;
import io.sluice.datasource.csv.CsvOptions;
import io.sluice.kernels.Batch;
import io.sluice.logical.source.FileFormat;
import java.io.IOException;
import java.util.Map;
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
        return open(format, schema, file, conf, Map.of());
    }

    /**
     * A writer creating {@code file} (which must not exist) in {@code format}, with the format's
     * {@code options} (checked before the write starts: {@link io.sluice.datasource.FileFormats#checkWriteOptions}).
     */
    static PartitionFileWriter open(FileFormat format, Schema schema, Path file, Configuration conf,
            Map<String, String> options) throws IOException {
        return switch (format) {
            case PARQUET -> new ParquetPartitionWriter(schema, file, conf);
            case CSV -> new CsvPartitionWriter(schema, file, conf, CsvOptions.of(options));
            case JSON -> new JsonPartitionWriter(schema, file, conf);
        };
    }
}
