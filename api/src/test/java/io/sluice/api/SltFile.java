package io.sluice.api;

import io.sluice.common.types.DataType;
import io.sluice.common.types.TemporalValues;
import io.sluice.tpch.Answers;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A sqllogictest file read into its records, and the canonical text of a result value, shared by the
 * runners of {@code slt/} ({@link SqlLogicTest}) and {@code spark-sql/} ({@link SparkSqlCorpusIT}).
 * Records are separated by blank lines; {@code #} starts a comment line; a record is a kind line
 * ({@code statement ok}, {@code statement error [text]}, {@code query <types> [rowsort|nosort]}), its
 * SQL, and after a line {@code ----} its expected rows.
 */
record SltFile(Path path, List<SltFile.Record> records) {
    SltFile {
        records = List.copyOf(records);
    }

    /** One record: its kind line, its SQL, the expected output lines, the line it starts on. */
    record Record(String header, String sql, List<String> expected, int line) {
        Record {
            expected = List.copyOf(expected);
        }

        String label() {
            return "line " + line + ": " + header + " " + sql.replaceAll("\\s+", " ");
        }

        Record withSql(String newSql) {
            return new Record(header, newSql, expected, line);
        }
    }

    static SltFile read(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Record> records = new ArrayList<>();
        int i = 0;
        while (i < lines.size()) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                i++;
                continue;
            }
            if (!line.startsWith("statement ") && !line.startsWith("query ")) {
                throw new IllegalArgumentException(file + ":" + (i + 1) + ": expected 'statement' or 'query', got: " + line);
            }
            int start = i + 1;
            i++;
            StringBuilder sql = new StringBuilder();
            while (i < lines.size() && !lines.get(i).isBlank() && !lines.get(i).strip().equals("----")) {
                sql.append(lines.get(i)).append('\n');
                i++;
            }
            List<String> expected = new ArrayList<>();
            if (i < lines.size() && lines.get(i).strip().equals("----")) {
                i++;
                while (i < lines.size() && !lines.get(i).isBlank()) {
                    expected.add(lines.get(i));
                    i++;
                }
            }
            records.add(new Record(line, sql.toString().strip(), expected, start));
        }
        return new SltFile(file, records);
    }

    /**
     * A value's canonical text: NULL; {@code (empty)} for the empty string; whole numbers without a
     * fraction (decimals and doubles that are whole too); other numbers in plain notation without
     * trailing zeros, doubles to 9 significant digits; NaN and Infinity as such; dates yyyy-mm-dd;
     * timestamps yyyy-mm-dd hh:mm:ss with a fraction only when not zero; booleans true/false; lists
     * {@code [a, b]}, maps {@code {k -> v}}.
     */
    static String text(Object value) {
        if (value == null) {
            return "NULL";
        }
        if (value instanceof String s && s.isEmpty()) {
            return "(empty)";
        }
        if (value instanceof LocalDateTime t) {
            return TemporalValues.formatTimestamp(t);
        }
        if (value instanceof Double d && (d.isNaN() || d.isInfinite())) {
            return d.toString();
        }
        if (value instanceof List<?> list) {
            List<String> items = new ArrayList<>();
            list.forEach(v -> items.add(text(v)));
            return "[" + String.join(", ", items) + "]";
        }
        if (value instanceof Map<?, ?> map) {
            List<String> items = new ArrayList<>();
            map.forEach((k, v) -> items.add(text(k) + " -> " + text(v)));
            return "{" + String.join(", ", items) + "}";
        }
        return String.valueOf(Answers.normalize(value));
    }

    /** The sqllogictest type letter of a column, as the Spark generator writes it. */
    static char letter(DataType type) {
        return switch (type.kind()) {
            case INT32, INT64 -> 'I';
            case FLOAT64, DECIMAL -> 'R';
            case UTF8 -> 'T';
            case DATE32 -> 'D';
            case TIMESTAMP -> 'P';
            case BOOL -> 'B';
            case LIST -> 'A';
            case MAP -> 'M';
            case STRUCT -> 'S';
            case NULL -> 'N';
        };
    }
}
