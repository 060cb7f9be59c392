package io.sluice.datasource.parquet;

import io.sluice.common.Closeables;
import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.datasource.file.BlockHosts;
import io.sluice.datasource.file.ColumnSelection;
import io.sluice.datasource.file.ColumnStats;
import io.sluice.datasource.file.FormatReader;
import io.sluice.datasource.file.HadoopConfiguration;
import io.sluice.datasource.file.ScanPartition;
import io.sluice.datasource.file.SequentialStream;
import io.sluice.datasource.file.SourceFile;
import io.sluice.datasource.file.SourceFiles;
import io.sluice.datasource.file.StoreReadAhead;
import io.sluice.kernels.BatchStream;
import io.sluice.kernels.NullVectors;
import io.sluice.logical.source.FormatOptions;
import io.sluice.operators.ScanRowFilter;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/**
 * Parquet files through parquet-hadoop: the footer gives the schema and the row groups, and each
 * requested column of a row group is decoded with a {@code ColumnReader} into primitive arrays, a
 * nested one by record assembly ({@link ParquetNestedDecoder}); see {@link ParquetColumnType} and
 * {@link ParquetNestedType} for the type mapping. Only the selected columns' leaves are read. Columns are matched by
 * name, so files of one table may order their columns differently, but each file must have every
 * column read from it, with the table's type.
 */
public final class ParquetFormat implements FormatReader {
    /** Parquet files describe themselves: there is nothing to set. */
    private static final List<String> OPTIONS = List.of();
    /**
     * The most bytes (uncompressed) of consecutive row groups one partition reads: about one row
     * group of Sluice's own writer, whose tasks' sizes the engine is tuned on.
     */
    static final long SPLIT_BYTES = 64L << 20;
    /** Row groups smaller than this stay a partition each (test-sized files keep their parallelism). */
    static final long COALESCED_ROW_GROUP_BYTES = 1L << 20;

    @Override
    public void checkOptions(Map<String, String> options) {
        FormatOptions.requireKnown("Parquet", options, OPTIONS);
    }

    @Override
    public Schema inferSchema(String location, Map<String, String> options) {
        checkOptions(options);
        SourceFile first = SourceFiles.firstFile(location);
        Path path = new Path(first.path());
        ParquetMetadata footer = ParquetFile.footer(path, first.length(), first.modificationTime());
        return ParquetFile.schema(footer.getFileMetaData().getSchema(), path.toString());
    }

    /**
     * One partition per non-empty row group, or per run of consecutive row groups of at least
     * {@value #COALESCED_ROW_GROUP_BYTES} bytes each that together stay within {@value #SPLIT_BYTES}
     * (sizes as the footer counts them, uncompressed), as a byte range of the file whose row groups
     * start in it, with their statistics merged. Writers with small row groups (DuckDB's 122,880
     * rows, about 8 MB of TPC-H's lineitem) would otherwise make a task of each, too few rows for a
     * task's partial aggregate to shrink its output before the shuffle; tiny row groups stay one
     * task each. The footer is read without asking for the file's length.
     */
    @Override
    public List<ScanPartition> partitions(SourceFile listed, Map<String, String> options) {
        Path file = new Path(listed.path());
        List<ScanPartition> partitions = new ArrayList<>();
        ParquetMetadata footer = ParquetFile.footer(file, listed.length(), listed.modificationTime());
        List<BlockMetaData> rowGroups = footer.getBlocks();
        MessageType schema = footer.getFileMetaData().getSchema();
        BlockHosts blocks = BlockHosts.of(file);
        int i = 0;
        while (i < rowGroups.size()) {
            BlockMetaData first = rowGroups.get(i);
            if (first.getRowCount() == 0) {
                i++;
                continue;
            }
            int end = i + 1;
            long bytes = first.getTotalByteSize();
            while (bytes >= COALESCED_ROW_GROUP_BYTES && end < rowGroups.size() && rowGroups.get(end).getRowCount() > 0
                    && rowGroups.get(end).getTotalByteSize() >= COALESCED_ROW_GROUP_BYTES
                    && bytes + rowGroups.get(end).getTotalByteSize() <= SPLIT_BYTES) {
                bytes += rowGroups.get(end).getTotalByteSize();
                end++;
            }
            if (end == i + 1) {
                partitions.add(new ScanPartition(listed.path(), i, ParquetStatistics.of(first, schema, listed.path()),
                        blocks.hosts(first.getStartingPos(), first.getCompressedSize())).withFile(listed));
            } else {
                List<List<ColumnStats>> stats = new ArrayList<>();
                for (BlockMetaData rowGroup : rowGroups.subList(i, end)) {
                    stats.add(ParquetStatistics.of(rowGroup, schema, listed.path()));
                }
                BlockMetaData last = rowGroups.get(end - 1);
                long offset = first.getStartingPos();
                long length = last.getStartingPos() + last.getCompressedSize() - offset;
                partitions.add(new ScanPartition(listed.path(), -1, ParquetStatistics.merge(stats), offset, length,
                        blocks.hosts(offset, length)).withFile(listed));
            }
            i = end;
        }
        return partitions;
    }

    @Override
    public BatchStream read(ScanPartition partition, Schema tableSchema, List<String> columns, int batchSize,
            BufferAllocator allocator, Map<String, String> options) {
        return read(partition, tableSchema, columns, batchSize, allocator, options, null);
    }

    /**
     * Reads rows late under {@code rows}: each batch's columns that {@code rows} tests are decoded
     * first, the others only for the rows that pass ({@link ParquetBatchStream}).
     */
    @Override
    public BatchStream read(ScanPartition partition, Schema tableSchema, List<String> columns, int batchSize,
            BufferAllocator allocator, Map<String, String> options, ScanRowFilter rows) {
        FormatReader.checkReadArguments(partition, allocator, batchSize);
        if (partition.isRange()) {
            // later row groups open from next(), outside the caller's HadoopConfiguration.withOverrides: the same overrides
            Map<String, String> hadoop = HadoopConfiguration.overrides();
            RowGroupRun run = rowGroupsIn(partition, columns);
            List<ScanPartition> rowGroups = run.rowGroups();
            PageArrays pageArrays = new PageArrays();
            return new SequentialStream(rowGroups.size(), i -> HadoopConfiguration.withOverrides(hadoop,
                    () -> readRowGroup(rowGroups.get(i), tableSchema, columns, batchSize, allocator, rows, pageArrays)),
                    StoreReadAhead.of(partition.path(), i -> run.bytes()[i]));
        }
        return readRowGroup(partition, tableSchema, columns, batchSize, allocator, rows, new PageArrays());
    }

    /** Reads row group partition {@code partition}, its compressed pages decompressed into {@code pageArrays}. */
    private BatchStream readRowGroup(ScanPartition partition, Schema tableSchema, List<String> columns, int batchSize,
            BufferAllocator allocator, ScanRowFilter rows, PageArrays pageArrays) {
        if (partition.rowGroup() < 0) {
            throw new IllegalArgumentException("Parquet partitions are row groups or byte ranges of them: " + partition);
        }
        ColumnSelection selection = ColumnSelection.of(tableSchema, columns);
        String file = partition.path();
        ParquetFileReader reader = ParquetFile.open(new Path(file), partition.fileLength(), partition.modificationTime());
        PageReadStore rowGroup = null;
        try {
            List<BlockMetaData> rowGroups = reader.getRowGroups();
            if (partition.rowGroup() >= rowGroups.size()) {
                throw new SluiceException(file + ": no row group " + partition.rowGroup() + " (the file has "
                        + rowGroups.size() + ")");
            }
            long rowCount = rowGroups.get(partition.rowGroup()).getRowCount();
            MessageType fileSchema = reader.getFileMetaData().getSchema();
            List<Type> requested = new ArrayList<>(selection.size()); // null for a column the file lacks
            List<ParquetColumnType> types = new ArrayList<>(selection.size()); // null for a nested column
            for (Field field : selection.schema().fields()) {
                Type parquetField = ParquetFile.field(fileSchema, field.name());
                if (parquetField == null) {
                    // a column added to the table after this file was written (ALTER TABLE ADD COLUMNS): NULL, as in Spark
                    requested.add(null);
                    types.add(null);
                    continue;
                }
                ParquetColumnType flat = ParquetColumnType.isFlat(parquetField) ? ParquetColumnType.of(parquetField, file) : null;
                if (flat == null) {
                    parquetField = ParquetNestedType.narrow(parquetField, field.type());
                }
                DataType type = flat != null ? flat.type() : ParquetNestedType.of(parquetField, file);
                if (!type.equals(field.type())) {
                    throw new SluiceException(file + ": column '" + field.name() + "' is " + type
                            + " in this file but " + field.type() + " in the table");
                }
                requested.add(parquetField);
                types.add(flat);
            }
            ColumnChunkDecoder[] decoders = new ColumnChunkDecoder[selection.size()];
            List<Type> present = requested.stream().filter(java.util.Objects::nonNull).toList();
            for (int i = 0; i < decoders.length; i++) {
                if (requested.get(i) == null) {
                    Field missing = selection.schema().field(i);
                    decoders[i] = (n, scanAllocator, cols, vectors, column) -> vectors[column] = NullVectors.of(missing, n,
                            scanAllocator);
                }
            }
            if (!present.isEmpty() && rowCount > 0) {
                MessageType requestedSchema = new MessageType(fileSchema.getName(), present);
                reader.setRequestedSchema(requestedSchema);
                rowGroup = reader.readRowGroup(partition.rowGroup());
                String createdBy = reader.getFileMetaData().getCreatedBy();
                BlockMetaData block = rowGroups.get(partition.rowGroup());
                for (int i = 0; i < decoders.length; i++) {
                    Field field = selection.schema().field(i);
                    if (requested.get(i) == null) {
                        continue;
                    }
                    if (types.get(i) == null) {
                        decoders[i] = new ParquetNestedDecoder(rowGroup, requestedSchema, requested.get(i), field.type(),
                                file, createdBy);
                        continue;
                    }
                    ColumnDescriptor descriptor = requestedSchema.getColumnDescription(new String[] {requested.get(i).getName()});
                    Set<Encoding> encodings = encodings(block, descriptor);
                    if (!ParquetPageDecoder.supports(types.get(i), descriptor, encodings)) {
                        throw new SluiceException(file + ": column '" + field.name() + "' uses encodings " + encodings
                                + ", not all of which are supported");
                    }
                    decoders[i] = new ParquetPageDecoder(rowGroup.getPageReader(descriptor), descriptor, types.get(i),
                            field.name(), pageArrays.column(i));
                }
            }
            return new ParquetBatchStream(reader, rowGroup, decoders, selection.schema(), rowCount, file, batchSize,
                    allocator, LateRows.of(selection.schema(), rows, allocator));
        } catch (IOException | RuntimeException e) {
            if (rowGroup != null) {
                rowGroup.close();
            }
            Closeables.closeOnFailure(reader, e);
            if (e instanceof SluiceException s) {
                throw s;
            }
            throw new SluiceException("cannot read Parquet file " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * A range's non-empty row groups, each a range of its own bytes with its own statistics (and
     * the range's statistics of the columns the file does not hold: Hive partition values).
     */
    @Override
    public List<ScanPartition> parts(ScanPartition range) {
        if (!range.isRange()) {
            return List.of(range);
        }
        Path file = new Path(range.path());
        ParquetMetadata footer = ParquetFile.footer(file, range.fileLength(), range.modificationTime());
        MessageType schema = footer.getFileMetaData().getSchema();
        List<ScanPartition> parts = new ArrayList<>();
        for (BlockMetaData rowGroup : footer.getBlocks()) {
            if (!startsIn(rowGroup, range)) {
                continue;
            }
            long start = rowGroup.getStartingPos();
            List<ColumnStats> stats = new ArrayList<>(ParquetStatistics.of(rowGroup, schema, range.path()));
            for (ColumnStats rangeStats : range.stats()) {
                if (stats.stream().noneMatch(s -> s.column().equalsIgnoreCase(rangeStats.column()))) {
                    stats.add(rangeStats);
                }
            }
            parts.add(new ScanPartition(range.path(), -1, stats, start, rowGroup.getCompressedSize(), range.hosts(),
                    range.fileLength(), range.modificationTime()));
        }
        return parts;
    }

    /** Whether {@code rowGroup} holds rows and starts in {@code range}'s bytes: it is one of the range's. */
    private static boolean startsIn(BlockMetaData rowGroup, ScanPartition range) {
        long start = rowGroup.getStartingPos();
        return rowGroup.getRowCount() > 0 && start >= range.offset() && start < range.offset() + range.length();
    }

    /** A partition's row groups, each as its own partition, and the bytes of the selected columns' chunks in each. */
    private record RowGroupRun(List<ScanPartition> rowGroups, long[] bytes) {
    }

    /** The non-empty row groups starting in a partition's byte range, with the size of {@code columns}' chunks in each. */
    private static RowGroupRun rowGroupsIn(ScanPartition range, List<String> columns) {
        Path file = new Path(range.path());
        List<ScanPartition> out = new ArrayList<>();
        List<Long> bytes = new ArrayList<>();
        List<BlockMetaData> rowGroups = ParquetFile.footer(file, range.fileLength(), range.modificationTime()).getBlocks();
        for (int i = 0; i < rowGroups.size(); i++) {
            if (startsIn(rowGroups.get(i), range)) {
                out.add(new ScanPartition(range.path(), i, List.of(), 0, -1, List.of(), range.fileLength(),
                        range.modificationTime()));
                bytes.add(selectedBytes(rowGroups.get(i), columns));
            }
        }
        return new RowGroupRun(out, bytes.stream().mapToLong(Long::longValue).toArray());
    }

    /** The bytes a read of {@code columns} (top-level names, any case) takes of a row group: their chunks' sizes as stored. */
    private static long selectedBytes(BlockMetaData rowGroup, List<String> columns) {
        long bytes = 0;
        for (ColumnChunkMetaData chunk : rowGroup.getColumns()) {
            String top = chunk.getPath().toArray()[0];
            if (columns.stream().anyMatch(top::equalsIgnoreCase)) {
                bytes += chunk.getTotalSize();
            }
        }
        return bytes;
    }

    /** The encodings a row group's chunk of a column uses (values and levels). */
    private static Set<Encoding> encodings(BlockMetaData block, ColumnDescriptor descriptor) {
        ColumnPath path = ColumnPath.get(descriptor.getPath());
        for (ColumnChunkMetaData chunk : block.getColumns()) {
            if (chunk.getPath().equals(path)) {
                return chunk.getEncodings();
            }
        }
        throw new IllegalStateException("row group has no chunk for column " + path);
    }

    @Override
    public String toString() {
        return "PARQUET";
    }
}
