package io.sluice.datasource.sink;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.datasource.file.HivePartitionPaths;
import io.sluice.kernels.Batch;
import io.sluice.kernels.ArrowKernels;
import io.sluice.kernels.VectorReader;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.SortKey;
import io.sluice.logical.sink.WriteTarget;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.util.AutoCloseables;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.util.TransferPair;
import org.apache.hadoop.fs.Path;

/**
 * A write into Hive partition directories: the task's rows come sorted by the partition columns
 * ({@link #sortKeys}), so each run of equal values goes into one file,
 * {@code <dir>/k1=v1/k2=v2/<file name>}, and one file is open at a time. Files hold the other
 * columns; the directory names hold the values, escaped as Hive does, NULL as
 * {@code __HIVE_DEFAULT_PARTITION__}.
 */
final class PartitionedWrite implements PartitionFileWriter {
    private final Schema fileSchema;
    private final int[] fileColumns;
    private final int[] partitionColumns;
    private final List<String> keys;
    private final Path dir;
    private final String fileName;
    private final Opener open;
    private final BufferAllocator allocator;
    private PartitionFileWriter writer;
    private String[] current;

    PartitionedWrite(Schema schema, List<String> partitionBy, Path dir, String fileName,
            Opener open, BufferAllocator allocator) {
        this.dir = requireNonNull(dir, "dir is null");
        this.fileName = requireNonNull(fileName, "fileName is null");
        this.open = requireNonNull(open, "open is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
        partitionColumns = new int[partitionBy.size()];
        keys = new ArrayList<>();
        for (int k = 0; k < partitionColumns.length; k++) {
            partitionColumns[k] = schema.indexOf(schema.field(partitionBy.get(k)).name());
            keys.add(schema.field(partitionColumns[k]).name());
        }
        fileSchema = fileSchema(schema, partitionBy);
        fileColumns = new int[fileSchema.size()];
        for (int i = 0; i < fileColumns.length; i++) {
            fileColumns[i] = schema.indexOf(fileSchema.field(i).name());
        }
    }

    /** Creates the writer of one new file. */
    interface Opener {
        PartitionFileWriter open(Path file) throws IOException;
    }

    /**
     * Fails, naming it, on a partition column that is not in {@code schema}, named twice, of a type
     * no directory value reads back as, or that would leave the files without columns.
     */
    static void check(Schema schema, List<String> partitionBy) {
        List<String> seen = new ArrayList<>();
        for (String name : partitionBy) {
            Field f = schema.field(name);
            if (seen.contains(f.name().toLowerCase(Locale.ROOT))) {
                throw new SluiceException("partition column '" + name + "' is named twice");
            }
            seen.add(f.name().toLowerCase(Locale.ROOT));
            DataType.Kind kind = f.type().kind();
            if (kind != DataType.Kind.INT32 && kind != DataType.Kind.INT64 && kind != DataType.Kind.DATE32
                    && kind != DataType.Kind.UTF8) {
                throw new SluiceException("cannot partition by column '" + f.name() + "' of type " + f.type().sqlName()
                        + ": partition columns can be INT, BIGINT, DATE or STRING");
            }
        }
        if (partitionBy.size() >= schema.size()) {
            throw new SluiceException("cannot partition by every column " + partitionBy + ": the files need at least one");
        }
    }

    /** The columns the files hold: all but the partition columns, in order. */
    static Schema fileSchema(Schema schema, List<String> partitionBy) {
        List<Field> fields = new ArrayList<>();
        for (Field f : schema.fields()) {
            if (partitionBy.stream().noneMatch(p -> p.equalsIgnoreCase(f.name()))) {
                fields.add(f);
            }
        }
        return new Schema(fields);
    }

    /** The order a task's rows must come in: by the partition columns. */
    static List<SortKey> sortKeys(Schema schema, WriteTarget target) {
        return target.partitionBy().stream().map(c -> SortKey.asc(new Column(schema.field(c).name()))).toList();
    }

    /** Writes a batch sorted by the partition columns, a new file for each new partition. */
    @Override
    public void write(Batch batch) throws IOException {
        VectorReader[] partition = new VectorReader[partitionColumns.length];
        for (int k = 0; k < partition.length; k++) {
            partition[k] = VectorReader.of(batch, partitionColumns[k]);
        }
        int n = batch.rowCount();
        int start = 0;
        while (start < n) {
            int end = start + 1;
            while (end < n && sameKeys(partition, start, end)) {
                end++;
            }
            String[] values = values(partition, start);
            if (writer == null || !java.util.Arrays.equals(values, current)) {
                closeWriter();
                Path target = dir;
                for (int k = 0; k < values.length; k++) {
                    target = new Path(target, HivePartitionPaths.directory(keys.get(k), values[k]));
                }
                writer = open.open(new Path(target, fileName));
                current = values;
            }
            try (Batch rows = rows(batch, start, end)) {
                writer.write(rows);
            }
            start = end;
        }
    }

    /** Whether rows {@code a} and {@code b} have the same partition values (the types {@link #check} allows). */
    private static boolean sameKeys(VectorReader[] partition, int a, int b) {
        for (VectorReader c : partition) {
            boolean na = c.isNull(a);
            if (na != c.isNull(b)) {
                return false;
            }
            if (!na && (c.type().kind() == DataType.Kind.UTF8 ? !c.sameString(a, b) : c.longAt(a) != c.longAt(b))) {
                return false;
            }
        }
        return true;
    }

    private static String[] values(VectorReader[] partition, int row) {
        String[] out = new String[partition.length];
        for (int k = 0; k < out.length; k++) {
            out[k] = partition[k].isNull(row) ? null : partition[k].format(row);
        }
        return out;
    }

    /**
     * Rows {@code [start, end)} of the file columns in vectors of their own: the batch's buffers
     * shared when the run is the whole batch (the usual case with few partition values), else copied.
     */
    private Batch rows(Batch batch, int start, int end) {
        boolean whole = start == 0 && end == batch.rowCount();
        int[] selected = null;
        if (!whole) {
            selected = new int[end - start];
            for (int i = 0; i < selected.length; i++) {
                selected[i] = start + i;
            }
        }
        FieldVector[] vectors = new FieldVector[fileColumns.length];
        try {
            for (int i = 0; i < vectors.length; i++) {
                FieldVector source = batch.root().getVector(fileColumns[i]);
                if (whole) {
                    TransferPair share = source.getTransferPair(allocator);
                    share.splitAndTransfer(0, end);
                    vectors[i] = (FieldVector) share.getTo();
                } else {
                    vectors[i] = ArrowKernels.gather(source, selected, selected.length, allocator);
                }
            }
        } catch (RuntimeException | Error e) {
            AutoCloseables.close(e, vectors);
            throw e;
        }
        return Batch.ofVectors(fileSchema, vectors, end - start);
    }

    private void closeWriter() throws IOException {
        if (writer != null) {
            PartitionFileWriter w = writer;
            writer = null;
            w.close();
        }
    }

    @Override
    public void close() throws IOException {
        closeWriter();
    }
}
