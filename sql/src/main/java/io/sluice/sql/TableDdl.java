package io.sluice.sql;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The pieces of DDL that {@link DdlParser} and the DataFrame reader's {@code schema("a INT, …")}
 * share: column lists, types by their Spark names and {@code OPTIONS}/{@code TBLPROPERTIES} lists.
 * Stateless.
 */
public final class TableDdl {
    private TableDdl() {
    }

    /** Columns as in {@code "a INT, b STRING"} (a DataFrame reader's {@code schema(...)}). */
    public static Schema columns(String ddl) {
        requireNonNull(ddl, "ddl is null");
        DdlTokens tokens = new DdlTokens(ddl, 0);
        List<TableColumn> columns = columns(tokens, "schema '" + ddl + "'", false);
        if (tokens.peek().kind() != DdlTokens.Kind.END) {
            throw tokens.error("expected ',' or the end", "schema '" + ddl + "'");
        }
        return new Schema(columns.stream().map(TableColumn::field).toList());
    }

    /** A type by its Spark name, as {@link SqlText#type} writes it ("BIGINT", "DECIMAL(12,2)", "ARRAY<STRING>"). */
    public static DataType type(String text) {
        requireNonNull(text, "text is null");
        DdlTokens tokens = new DdlTokens(text, 0);
        DataType type = type(tokens, "type '" + text + "'");
        if (tokens.peek().kind() != DdlTokens.Kind.END) {
            throw tokens.error("expected the end", "type '" + text + "'");
        }
        return type;
    }

    /** {@code name type [NOT NULL] [COMMENT '…'], …}, ending at ')' (taken) when {@code parenthesized}, else at the end. */
    static List<TableColumn> columns(DdlTokens tokens, String where, boolean parenthesized) {
        List<TableColumn> columns = new ArrayList<>();
        do {
            String column = tokens.name(where);
            DataType type = type(tokens, where + ", column '" + column + "'");
            boolean notNull = false;
            String comment = null;
            while (tokens.peek().isWord("NOT") || tokens.peek().isWord("NULL") || tokens.peek().isWord("COMMENT")) {
                if (tokens.takeWord("COMMENT")) {
                    comment = tokens.string(where);
                } else {
                    notNull |= tokens.takeWord("NOT");
                    tokens.expectWord("NULL", where);
                }
            }
            columns.add(new TableColumn(column, type, notNull, comment));
        } while (tokens.takeSymbol(','));
        if (parenthesized) {
            tokens.expectSymbol(')', where);
        }
        try {
            new Schema(columns.stream().map(TableColumn::field).toList());
        } catch (SluiceException e) {
            throw new SluiceException(where + ": " + e.getMessage(), e);
        }
        return columns;
    }

    /**
     * A type by its Spark (or common SQL) name: INT, INTEGER, SMALLINT, TINYINT → 32-bit integer;
     * BIGINT, LONG → 64-bit; DOUBLE, FLOAT, REAL → 64-bit float; STRING, VARCHAR(n), CHAR(n), TEXT →
     * string (the length is not enforced); BOOLEAN; DATE; TIMESTAMP; DECIMAL(p,s), NUMERIC(p,s).
     */
    static DataType type(DdlTokens tokens, String where) {
        DdlTokens.Token token = tokens.peek();
        if (token.kind() != DdlTokens.Kind.WORD) {
            throw tokens.error("expected a type", where);
        }
        tokens.take();
        String name = token.text().toUpperCase(Locale.ROOT);
        return switch (name) {
            case "INT", "INTEGER", "SMALLINT", "TINYINT", "SHORT", "BYTE" -> DataType.INT32;
            case "BIGINT", "LONG" -> DataType.INT64;
            case "DOUBLE", "FLOAT", "REAL" -> {
                if (name.equals("DOUBLE")) {
                    tokens.takeWord("PRECISION");
                }
                yield DataType.FLOAT64;
            }
            case "STRING", "TEXT" -> DataType.UTF8;
            case "VARCHAR", "CHAR" -> {
                if (tokens.takeSymbol('(')) {
                    tokens.number(where);
                    tokens.expectSymbol(')', where);
                }
                yield DataType.UTF8;
            }
            case "BOOLEAN", "BOOL" -> DataType.BOOL;
            case "DATE" -> DataType.DATE32;
            case "TIMESTAMP", "TIMESTAMP_NTZ" -> DataType.TIMESTAMP;
            case "DECIMAL", "DEC", "NUMERIC" -> decimal(tokens, where);
            case "ARRAY" -> {
                tokens.expectSymbol('<', where);
                DataType element = type(tokens, where);
                tokens.expectSymbol('>', where);
                yield DataType.list(element);
            }
            case "MAP" -> {
                tokens.expectSymbol('<', where);
                DataType key = type(tokens, where);
                tokens.expectSymbol(',', where);
                DataType value = type(tokens, where);
                tokens.expectSymbol('>', where);
                yield DataType.map(key, value);
            }
            case "STRUCT" -> {
                tokens.expectSymbol('<', where);
                List<Field> fields = new ArrayList<>();
                do {
                    String field = tokens.name(where);
                    tokens.takeSymbol(':');
                    fields.add(new Field(field, type(tokens, where)));
                } while (tokens.takeSymbol(','));
                tokens.expectSymbol('>', where);
                yield DataType.struct(fields);
            }
            default -> throw new SluiceException(where + ": unknown type '" + token.text() + "' at "
                    + tokens.at(token.start()) + "; known types: INT, INTEGER, BIGINT, LONG, DOUBLE, FLOAT, STRING,"
                    + " VARCHAR(n), BOOLEAN, DATE, TIMESTAMP, DECIMAL(p,s), ARRAY<t>, MAP<k, v>, STRUCT<name: t, …>");
        };
    }

    private static DataType decimal(DdlTokens tokens, String where) {
        int precision = 10;
        int scale = 0;
        if (tokens.takeSymbol('(')) {
            precision = tokens.number(where);
            if (tokens.takeSymbol(',')) {
                scale = tokens.number(where);
            }
            tokens.expectSymbol(')', where);
        }
        try {
            return DataType.decimal(precision, scale);
        } catch (RuntimeException e) {
            throw new SluiceException(where + ": DECIMAL(" + precision + "," + scale + "): " + e.getMessage(), e);
        }
    }

    /** {@code ( key [=] value, … )}: keys are names, dotted names or strings; values strings, numbers or words. */
    static Map<String, String> options(DdlTokens tokens, String where) {
        Map<String, String> options = new LinkedHashMap<>();
        tokens.expectSymbol('(', where);
        if (tokens.takeSymbol(')')) {
            return options;
        }
        do {
            String key = tokens.peek().kind() == DdlTokens.Kind.STRING ? tokens.string(where) : dottedName(tokens, where);
            tokens.takeSymbol('=');
            DdlTokens.Token value = tokens.peek();
            if (value.kind() != DdlTokens.Kind.STRING && value.kind() != DdlTokens.Kind.NUMBER
                    && value.kind() != DdlTokens.Kind.WORD) {
                throw tokens.error("expected a value for option '" + key + "'", where);
            }
            tokens.take();
            if (options.put(key.toLowerCase(Locale.ROOT), value.text()) != null) {
                throw new SluiceException(where + ": option '" + key + "' is given twice");
            }
        } while (tokens.takeSymbol(','));
        tokens.expectSymbol(')', where);
        return options;
    }

    private static String dottedName(DdlTokens tokens, String where) {
        StringBuilder key = new StringBuilder(tokens.name(where));
        while (tokens.takeSymbol('.')) {
            key.append('.').append(tokens.name(where));
        }
        return key.toString();
    }
}
