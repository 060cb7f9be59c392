package io.sluice.datasource;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.datasource.FileScanExec.ListedFiles;
import io.sluice.datasource.file.ColumnStats;
import io.sluice.datasource.file.FileListing;
import io.sluice.datasource.file.FormatReader;
import io.sluice.datasource.file.PartitionColumns;
import io.sluice.datasource.file.PartitionValuesStream;
import io.sluice.datasource.file.ScanPartition;
import io.sluice.datasource.file.SourceFile;
import io.sluice.datasource.file.SourceFiles;
import io.sluice.kernels.BatchStream;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.source.TableSource;
import io.sluice.operators.ScanRowFilter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;

/**
 * The files a scan reads and how their partition columns reach its batches, the same for every
 * format: at planning, listing, partition pruning (before any file is opened) and the split of the
 * kept files into their formats' scan partitions; at run time, a format reader for the file columns
 * and {@link PartitionValuesStream} for the partition columns.
 */
record ScanFiles(List<ScanPartition> partitions, ListedFiles listed) {
    ScanFiles {
        partitions = List.copyOf(partitions);
        requireNonNull(listed, "listed is null");
    }

    static ScanFiles plan(TableSource source, List<Expr> filters) {
        FileListing listing = SourceFiles.listing(source.location());
        List<Field> partitionFields = partitionFields(source, listing);
        List<SourceFile> kept = new ArrayList<>();
        List<List<ColumnStats>> keptValues = new ArrayList<>();
        for (SourceFile file : listing.files()) {
            List<ColumnStats> values = PartitionColumns.stats(file, partitionFields);
            if (filters.isEmpty() || values.isEmpty()
                    || RowGroupPruner.mayMatch(new ScanPartition(file.path(), -1, values), filters, source.schema())) {
                kept.add(file);
                keptValues.add(values);
            }
        }
        FormatReader reader = FileFormats.reader(source.format());
        List<Integer> indexes = new ArrayList<>(kept.size());
        for (int i = 0; i < kept.size(); i++) {
            indexes.add(i);
        }
        List<List<ScanPartition>> split = SourceFiles.inParallel(indexes, i -> withFile(
                reader.partitions(kept.get(i), source.options()), kept.get(i), keptValues.get(i)));
        List<ScanPartition> partitions = new ArrayList<>();
        split.forEach(partitions::addAll);
        return new ScanFiles(partitions, new ListedFiles(listing.files().size(), listing.partitionCount()));
    }

    /**
     * The table's partition fields, in the order of the listing's keys; directories that name other
     * keys than the table's partition columns are an error naming the location.
     */
    private static List<Field> partitionFields(TableSource source, FileListing listing) {
        if (!source.isPartitioned() || listing.files().isEmpty()) {
            return List.of();
        }
        List<String> keys = listing.partitionKeys();
        if (keys.size() != source.partitionColumns().size()
                || !keys.stream().allMatch(k -> PartitionColumns.contains(source.partitionColumns(), k))) {
            throw new SluiceException("table " + source.name() + " is partitioned by " + source.partitionColumns()
                    + " but the directories at " + source.location() + " are partitioned by " + keys);
        }
        return keys.stream().map(k -> source.schema().field(k)).toList();
    }

    /**
     * The partitions of one file with its partition values first in their statistics, and the file's
     * length and modification time, so that tasks open it without asking the file system again.
     */
    private static List<ScanPartition> withFile(List<ScanPartition> partitions, SourceFile file, List<ColumnStats> values) {
        List<ScanPartition> out = new ArrayList<>(partitions.size());
        for (ScanPartition p : partitions) {
            List<ColumnStats> stats = p.stats();
            if (!values.isEmpty()) {
                stats = new ArrayList<>(values);
                stats.addAll(p.stats());
            }
            out.add(p.withStats(stats).withFile(file));
        }
        return out;
    }

    /** {@code files=kept/listed} and, for a partitioned table, {@code partitions=kept/listed} (each followed by a space). */
    static String describe(List<ScanPartition> partitions, ListedFiles listed, TableSource source) {
        if (listed.files() < 0 || (listed.files() <= 1 && !source.isPartitioned())) {
            return "";
        }
        Set<String> files = new HashSet<>();
        Set<List<Object>> values = new HashSet<>();
        for (ScanPartition p : partitions) {
            files.add(p.path());
            values.add(source.partitionColumns().stream().map(c -> PartitionColumns.value(p, c)).toList());
        }
        return "files=" + files.size() + "/" + listed.files() + " "
                + (source.isPartitioned() ? "partitions=" + values.size() + "/" + listed.partitions() + " " : "");
    }

    /**
     * One scan partition's batches of {@code columns}: the file columns from the format's reader,
     * the partition columns as constants of the partition's values; the reader may drop rows
     * {@code rows} rejects (null: none), a test of file columns only.
     */
    static BatchStream read(FormatReader reader, ScanPartition partition, TableSource source, List<String> columns,
            Schema schema, int batchSize, BufferAllocator allocator, ScanRowFilter rows) {
        Schema table = readSchema(source.schema(), schema);
        if (!source.isPartitioned() || columns.stream().noneMatch(c -> PartitionColumns.contains(source.partitionColumns(), c))) {
            return reader.read(partition, table, columns, batchSize, allocator, source.options(), rows);
        }
        List<String> fileColumns = new ArrayList<>();
        int[] fileColumn = new int[columns.size()];
        Object[] values = new Object[columns.size()];
        for (int i = 0; i < columns.size(); i++) {
            String c = columns.get(i);
            if (PartitionColumns.contains(source.partitionColumns(), c)) {
                fileColumn[i] = -1;
                values[i] = PartitionColumns.value(partition, c);
            } else {
                fileColumn[i] = fileColumns.size();
                fileColumns.add(c);
            }
        }
        return new PartitionValuesStream(reader.read(partition, table, fileColumns, batchSize, allocator, source.options(), rows), schema,
                fileColumn, values, allocator);
    }

    /** The table's schema with the types the scan reads: a STRUCT column narrowed to some of its fields. */
    private static Schema readSchema(Schema table, Schema scanned) {
        List<Field> fields = new ArrayList<>(table.size());
        boolean narrowed = false;
        for (Field field : table.fields()) {
            int index = scanned.indexOf(field.name());
            Field read = index >= 0 ? scanned.field(index) : field;
            narrowed |= read != field && !read.type().equals(field.type());
            fields.add(new Field(field.name(), read.type()));
        }
        return narrowed ? new Schema(fields) : table;
    }
}