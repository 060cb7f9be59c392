package io.sluice.datasource;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.common.types.Schema;
import io.sluice.datasource.file.FormatReader;
import io.sluice.datasource.file.ScanPartition;
import io.sluice.kernels.Batch;
import io.sluice.kernels.BatchStream;
import io.sluice.testfixtures.DuckDbOracle;
import java.math.BigDecimal;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/** DuckDB as the reference, and reading a whole table back through a {@link FormatReader}. */
public final class SourceTestSupport implements AutoCloseable {
    public final BufferAllocator allocator = new RootAllocator(256L << 20);
    private final DuckDbOracle duck;

    public SourceTestSupport() throws SQLException {
        duck = new DuckDbOracle();
    }

    public void execute(String sql) throws SQLException {
        duck.execute(sql);
    }

    /** The rows of a query, values normalized by {@link #normalize}. */
    public List<List<Object>> query(String sql) throws SQLException {
        List<List<Object>> rows = duck.queryRaw(sql);
        for (List<Object> row : rows) {
            row.replaceAll(SourceTestSupport::normalize);
        }
        return rows;
    }

    /** Every row of every partition at {@code location}, in partition order, checking batch bounds. */
    public List<List<Object>> readAll(FormatReader reader, String location, Schema schema, List<String> columns,
            int batchSize) {
        return readAll(reader, location, schema, columns, batchSize, java.util.Map.of());
    }

    /** The same, read with the format's {@code options}. */
    public List<List<Object>> readAll(FormatReader reader, String location, Schema schema, List<String> columns,
            int batchSize, java.util.Map<String, String> options) {
        return readAll(reader, location, schema, columns, batchSize, options, null);
    }

    /** The same, of the rows {@code rows} keeps where the format applies it (null: every row). */
    public List<List<Object>> readAll(FormatReader reader, String location, Schema schema, List<String> columns,
            int batchSize, java.util.Map<String, String> options, io.sluice.operators.ScanRowFilter rows) {
        List<List<Object>> out = new ArrayList<>();
        for (ScanPartition partition : reader.partitions(location, options)) {
            try (BatchStream stream = reader.read(partition, schema, columns, batchSize, allocator, options, rows)) {
                for (Batch next = stream.next(); next != null; next = stream.next()) {
                    Batch batch = next;
                    try (batch) {
                        assertThat(batch.rowCount()).isBetween(1, batchSize);
                        assertThat(batch.schema().names()).isEqualTo(columns);
                        for (List<Object> values : io.sluice.kernels.ArrowRows.of(batch)) {
                            List<Object> row = new ArrayList<>(columns.size());
                            for (Object value : values) {
                                row.add(normalize(value));
                            }
                            out.add(row);
                        }
                    }
                }
            }
        }
        return out;
    }

    /** Comparable values: integers as Long, floats as Double, decimals without trailing zeros, SQL dates as LocalDate, timestamps as LocalDateTime. */
    public static Object normalize(Object value) {
        if (value instanceof Byte || value instanceof Short || value instanceof Integer) {
            return ((Number) value).longValue();
        }
        if (value instanceof Float f) {
            return f.doubleValue();
        }
        if (value instanceof BigDecimal d) {
            return d.stripTrailingZeros();
        }
        if (value instanceof java.sql.Date d) {
            return d.toLocalDate();
        }
        if (value instanceof java.sql.Timestamp t) {
            return t.toLocalDateTime();
        }
        return value;
    }

    @Override
    public void close() throws SQLException {
        duck.close();
        assertThat(allocator.getAllocatedMemory()).as("leaked Arrow memory").isZero();
        allocator.close();
    }
}
