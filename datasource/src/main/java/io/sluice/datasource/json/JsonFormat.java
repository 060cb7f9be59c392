package io.sluice.datasource.json;

import io.sluice.common.SluiceException;
import io.sluice.common.types.Schema;
import io.sluice.datasource.file.BlockHosts;
import io.sluice.datasource.file.ColumnSelection;
import io.sluice.datasource.file.FormatReader;
import io.sluice.datasource.file.ScanPartition;
import io.sluice.datasource.file.SourceFile;
import io.sluice.datasource.file.SourceFiles;
import io.sluice.kernels.BatchStream;
import io.sluice.logical.source.FormatOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.hadoop.fs.Path;

/**
 * JSON lines files (one JSON object per line, UTF-8, as Spark and DuckDB write them; compressed
 * by suffix when Hadoop knows the codec). The schema is inferred from the first
 * {@value #SAMPLE_ROWS} records with Spark's rules ({@link JsonType}), or given. An uncompressed
 * file larger than the split size is read as several partitions, each the lines starting in one
 * byte range, so one large file still spreads over the cluster.
 */
public final class JsonFormat implements FormatReader {
    static final int SAMPLE_ROWS = 10_000;
    /** Spark's default for {@code spark.sql.files.maxPartitionBytes}. */
    public static final long DEFAULT_SPLIT_BYTES = 128L << 20;

    private final long splitBytes;

    public JsonFormat() {
        this(DEFAULT_SPLIT_BYTES);
    }

    /** A reader splitting files larger than {@code splitBytes} into ranges of about that size. */
    public JsonFormat(long splitBytes) {
        if (splitBytes < 1) {
            throw new IllegalArgumentException("splitBytes must be positive: " + splitBytes);
        }
        this.splitBytes = splitBytes;
    }

    @Override
    public void checkOptions(Map<String, String> options) {
        FormatOptions.requireKnown(toString(), options, JsonOptions.NAMES);
        JsonOptions.of(options);
    }

    @Override
    public Schema inferSchema(String location, Map<String, String> options) {
        List<SourceFile> files = SourceFiles.listing(location).files();
        if (files.isEmpty()) {
            throw new SluiceException("no data files in directory " + location);
        }
        Schema schema = JsonSchemaInference.infer(files, JsonOptions.of(options), SAMPLE_ROWS);
        if (schema.size() == 0) {
            throw new SluiceException(location + ": no JSON records to infer a schema from; declare the table's columns");
        }
        return schema;
    }

    /**
     * The whole file, or byte ranges of about the split size for a large uncompressed one, sized by
     * the length listing found: nothing is asked of the file system again (but HDFS block hosts).
     */
    @Override
    public List<ScanPartition> partitions(SourceFile listed, Map<String, String> options) {
        Path file = new Path(listed.path());
        long size = listed.length();
        BlockHosts blocks = BlockHosts.of(file);
        if (size <= splitBytes || JsonLines.isCompressed(file)) {
            return List.of(new ScanPartition(listed.path(), -1, List.of(), blocks.hosts()).withFile(listed));
        }
        List<ScanPartition> partitions = new ArrayList<>();
        for (long offset = 0; offset < size; offset += splitBytes) {
            long length = Math.min(splitBytes, size - offset);
            partitions.add(new ScanPartition(listed.path(), -1, List.of(), offset, length, blocks.hosts(offset, length))
                    .withFile(listed));
        }
        return partitions;
    }

    @Override
    public BatchStream read(ScanPartition partition, Schema tableSchema, List<String> columns, int batchSize,
            BufferAllocator allocator, Map<String, String> options) {
        FormatReader.checkReadArguments(partition, allocator, batchSize);
        if (partition.rowGroup() >= 0) {
            throw new IllegalArgumentException("JSON partitions are files or byte ranges, not row groups: " + partition);
        }
        ColumnSelection selection = ColumnSelection.of(tableSchema, columns);
        JsonLines lines = JsonLines.open(new Path(partition.path()), partition.fileLength(), partition.modificationTime(),
                partition.offset(), partition.isRange() ? partition.length() : -1);
        try {
            return new JsonBatchStream(lines, selection, JsonOptions.of(options), batchSize, allocator);
        } catch (RuntimeException e) {
            lines.close();
            throw e;
        }
    }

    @Override
    public String toString() {
        return "JSON";
    }
}
