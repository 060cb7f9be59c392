package io.sluice.kernels;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.Schema;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * A query's result on the client: the schema and every row as Java values (Long, Integer, Double,
 * BigDecimal, String, Boolean, LocalDate, LocalDateTime, or null; nested values as
 * {@link NestedValues} describes: a struct as a {@code Map} of its fields, a list as a {@code List},
 * a map as a {@code Map}). Results are meant to be small; big outputs
 * belong in files.
 */
public record QueryResult(Schema schema, List<List<Object>> rows) {
    private static final long DECODE_LIMIT = 4L << 30;

    public QueryResult {
        requireNonNull(schema, "schema is null");
        rows = Collections.unmodifiableList(new ArrayList<>(rows));
    }

    /** Decodes the coordinator's Arrow IPC stream. */
    public static QueryResult fromIpc(byte[] ipc) {
        try (BufferAllocator allocator = new RootAllocator(DECODE_LIMIT)) {
            Schema schema = ArrowIpc.schema(ipc, allocator);
            List<List<Object>> rows = new ArrayList<>();
            List<Batch> batches = ArrowIpc.decode(ipc, allocator);
            try {
                for (Batch b : batches) {
                    rows.addAll(ArrowRows.of(b));
                }
            } finally {
                batches.forEach(Batch::close);
            }
            return new QueryResult(schema, rows);
        }
    }

    /** A header line, then one line per row; NULL is an empty field, quoting as RFC 4180. */
    public String toCsv() {
        return toDelimited(',');
    }

    /** As {@link #toCsv()}, fields separated by {@code delimiter} (a tab gives TSV), quoted where they hold it. */
    public String toDelimited(char delimiter) {
        StringBuilder out = new StringBuilder();
        out.append(String.join(String.valueOf(delimiter),
                schema.names().stream().map(name -> delimitedField(name, delimiter)).toList())).append('\n');
        for (List<Object> row : rows) {
            for (int i = 0; i < row.size(); i++) {
                if (i > 0) {
                    out.append(delimiter);
                }
                Object v = row.get(i);
                if (v != null) {
                    out.append(delimitedField(ValueFormat.formatObject(v, schema.field(i).type()), delimiter));
                }
            }
            out.append('\n');
        }
        return out.toString();
    }

    private static String delimitedField(String s, char delimiter) {
        if (s.isEmpty() || s.indexOf(delimiter) >= 0 || s.indexOf('"') >= 0 || s.indexOf('\n') >= 0 || s.indexOf('\r') >= 0) {
            return '"' + s.replace("\"", "\"\"") + '"';
        }
        return s;
    }

    /** A boxed text table, NULL shown as {@code NULL}, then the row count. */
    public String toTable() {
        return toTable("");
    }

    /** As {@link #toTable()}, with {@code note} right after the row count (a client's elapsed time, say). */
    public String toTable(String note) {
        int n = schema.size();
        int[] widths = new int[n];
        List<String[]> cells = new ArrayList<>();
        String[] header = schema.names().toArray(new String[0]);
        for (int i = 0; i < n; i++) {
            widths[i] = header[i].length();
        }
        for (List<Object> row : rows) {
            String[] line = new String[n];
            for (int i = 0; i < n; i++) {
                Object v = row.get(i);
                line[i] = v == null ? "NULL" : ValueFormat.formatObject(v, schema.field(i).type());
                widths[i] = Math.max(widths[i], line[i].length());
            }
            cells.add(line);
        }
        StringBuilder out = new StringBuilder();
        String rule = rule(widths);
        out.append(rule).append(line(header, widths)).append(rule);
        for (String[] line : cells) {
            out.append(line(line, widths));
        }
        out.append(rule).append(rows.size()).append(rows.size() == 1 ? " row" : " rows").append(note).append('\n');
        return out.toString();
    }

    private static String rule(int[] widths) {
        StringBuilder s = new StringBuilder("+");
        for (int w : widths) {
            s.append("-".repeat(w + 2)).append('+');
        }
        return s.append('\n').toString();
    }

    private static String line(String[] values, int[] widths) {
        StringBuilder s = new StringBuilder("|");
        for (int i = 0; i < values.length; i++) {
            s.append(' ').append(values[i]).append(" ".repeat(widths[i] - values[i].length())).append(" |");
        }
        return s.append('\n').toString();
    }
}
