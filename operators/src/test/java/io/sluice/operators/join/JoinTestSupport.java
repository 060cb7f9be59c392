package io.sluice.operators.join;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import io.sluice.kernels.BatchStream;
import io.sluice.kernels.Col;
import io.sluice.logical.expr.SortKey;
import io.sluice.operators.ExecutionPlan;
import io.sluice.operators.KeyOrder;
import io.sluice.operators.MemorySourceExec;
import io.sluice.operators.Partitioning;
import io.sluice.operators.TaskContext;
import io.sluice.testfixtures.DuckDbOracle;
import io.sluice.testfixtures.HeapColumns;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.ToIntFunction;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * Join test tables held both in DuckDB (the oracle) and as heap rows to feed operators; runs a
 * plan over all its partitions with a limited allocator per task and checks nothing leaks.
 */
public final class JoinTestSupport implements AutoCloseable {
    final RootAllocator root = new RootAllocator(256L << 20);
    private final DuckDbOracle duck;
    private int tasks;

    /** A table: qualified column names ({@code l.k1}) on our side, plain names in DuckDB. */
    public record Table(String name, Schema schema, List<Object[]> rows) {
    }

    public JoinTestSupport() throws SQLException {
        duck = new DuckDbOracle();
    }

    /** Rows with a few duplicate and NULL keys: k1 BIGINT or INTEGER, k2 VARCHAR, and a value column. */
    public static Table table(String name, String valueColumn, DataType k1Type, int rows, int keyRange, long seed,
            boolean nullKeys) {
        Schema schema = Schema.of(new Field(name + ".k1", k1Type), new Field(name + ".k2", DataType.UTF8),
                new Field(name + "." + valueColumn, DataType.INT64));
        String[] strings = {"a", "b", "", "é", "ab"};
        Random random = new Random(seed);
        List<Object[]> out = new ArrayList<>();
        for (int i = 0; i < rows; i++) {
            Long k1 = nullKeys && random.nextInt(8) == 0 ? null : (long) random.nextInt(keyRange);
            String k2 = nullKeys && random.nextInt(9) == 0 ? null : strings[random.nextInt(strings.length)];
            long v = valueColumn.equals("v") ? i : random.nextInt(rows + 10);
            out.add(new Object[] {k1, k2, v});
        }
        return new Table(name, schema, out);
    }

    public void load(Table table, String duckName) throws SQLException {
        StringBuilder ddl = new StringBuilder("CREATE TABLE " + duckName + " (");
        for (int c = 0; c < table.schema().size(); c++) {
            Field f = table.schema().field(c);
            String plain = f.name().substring(f.name().indexOf('.') + 1);
            ddl.append(c == 0 ? "" : ", ").append(plain).append(' ').append(switch (f.type().kind()) {
                case INT32 -> "INTEGER";
                case INT64 -> "BIGINT";
                case FLOAT64 -> "DOUBLE";
                case UTF8 -> "VARCHAR";
                default -> throw new IllegalArgumentException("type " + f.type());
            });
        }
        execute(ddl.append(")").toString());
        if (table.rows().isEmpty()) {
            return;
        }
        StringBuilder insert = new StringBuilder("INSERT INTO " + duckName + " VALUES ");
        for (int r = 0; r < table.rows().size(); r++) {
            insert.append(r == 0 ? "(" : ", (");
            Object[] row = table.rows().get(r);
            for (int c = 0; c < row.length; c++) {
                Object v = row[c];
                insert.append(c == 0 ? "" : ", ");
                insert.append(v == null ? "NULL" : v instanceof String s ? "'" + s.replace("'", "''") + "'" : v.toString());
            }
            insert.append(')');
        }
        execute(insert.toString());
    }

    void execute(String sql) throws SQLException {
        duck.execute(sql);
    }

    /** The rows of a DuckDB query, normalized, sorted. */
    public List<List<Object>> query(String sql) throws SQLException {
        List<List<Object>> rows = duck.queryRaw(sql);
        for (List<Object> row : rows) {
            row.replaceAll(JoinTestSupport::normalize);
        }
        return sorted(rows);
    }

    public static Object normalize(Object value) {
        if (value instanceof Byte || value instanceof Short || value instanceof Integer) {
            return ((Number) value).longValue();
        }
        return value;
    }

    public static List<List<Object>> sorted(List<List<Object>> rows) {
        rows.sort(Comparator.comparing(Object::toString));
        return rows;
    }

    /** A source with the table's rows dealt into partitions by {@code partitionOf}, declared {@code partitioning}. */
    public static MemorySourceExec source(Table table, Partitioning partitioning, ToIntFunction<Object[]> partitionOf,
            int batchRows) {
        int n = partitioning.partitionCount();
        List<List<Object[]>> parts = new ArrayList<>();
        for (int p = 0; p < n; p++) {
            parts.add(new ArrayList<>());
        }
        for (Object[] row : table.rows()) {
            parts.get(partitionOf.applyAsInt(row)).add(row);
        }
        List<List<Col[]>> partitions = new ArrayList<>();
        for (List<Object[]> part : parts) {
            partitions.add(HeapColumns.batches(table.schema(), part, batchRows));
        }
        return new MemorySourceExec(table.schema(), partitions, partitioning, List.of());
    }

    /** The same, each partition sorted by {@code keys} (declared as its ordering). */
    static MemorySourceExec sortedSource(Table table, Partitioning partitioning, ToIntFunction<Object[]> partitionOf,
            int batchRows, List<SortKey> keys, int[] keyColumns) {
        int n = partitioning.partitionCount();
        List<List<Col[]>> partitions = new ArrayList<>();
        for (int p = 0; p < n; p++) {
            List<Object[]> part = new ArrayList<>();
            for (Object[] row : table.rows()) {
                if (partitionOf.applyAsInt(row) == p) {
                    part.add(row);
                }
            }
            Col[] all = HeapColumns.of(table.schema(), part);
            Col[] keyCols = new Col[keyColumns.length];
            for (int k = 0; k < keyCols.length; k++) {
                keyCols[k] = all[keyColumns[k]];
            }
            int[] order = new KeyOrder(keys).sortedIndexes(keyCols, part.size());
            List<Object[]> sortedRows = new ArrayList<>();
            for (int i : order) {
                sortedRows.add(part.get(i));
            }
            partitions.add(HeapColumns.batches(table.schema(), sortedRows, batchRows));
        }
        return new MemorySourceExec(table.schema(), partitions, partitioning, keys);
    }

    /** Runs every partition of {@code plan}; returns all rows, normalized and sorted. */
    public List<List<Object>> run(ExecutionPlan plan, int batchSize) {
        List<List<Object>> rows = new ArrayList<>();
        int n = plan.properties().partitioning().partitionCount();
        for (int p = 0; p < n; p++) {
            rows.addAll(runPartition(plan, p, batchSize));
        }
        return sorted(rows);
    }

    public List<List<Object>> runPartition(ExecutionPlan plan, int partition, int batchSize) {
        List<List<Object>> rows = new ArrayList<>();
        try (BufferAllocator allocator = root.newChildAllocator("task-" + tasks, 0, 32L << 20)) {
            TaskContext context = new TaskContext("task-" + tasks++, allocator, batchSize, Map.of());
            try (BatchStream stream = plan.execute(partition, context)) {
                for (Batch next = stream.next(); next != null; next = stream.next()) {
                    try (Batch b = next) {
                        assertThat(b.rowCount()).isBetween(1, batchSize);
                        assertThat(b.schema()).isEqualTo(plan.schema());
                        Col[] cols = b.columns();
                        for (int r = 0; r < b.rowCount(); r++) {
                            List<Object> row = new ArrayList<>(cols.length);
                            for (Col c : cols) {
                                row.add(normalize(c.get(r)));
                            }
                            rows.add(row);
                        }
                    }
                }
            }
            assertThat(allocator.getAllocatedMemory()).as("memory held after the task").isZero();
        }
        return rows;
    }

    @Override
    public void close() throws SQLException {
        duck.close();
        assertThat(root.getAllocatedMemory()).as("leaked Arrow memory").isZero();
        root.close();
    }
}
