package io.sluice.sql;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.logical.source.FileFormat;
import io.sluice.logical.source.FormatOptions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Parses the head of {@code CREATE [EXTERNAL] TABLE}: {@code [IF NOT EXISTS] name [(column type,
 * …)]}, then in any order {@code STORED AS format} or {@code USING format}, {@code OPTIONS (key
 * 'value', key2 = 'value2')}, {@code PARTITIONED BY (column, …)} and {@code LOCATION 'path'} (Spark's {@code path} option stands for
 * it), up to {@code AS query} or the end. Column types go by their Spark names ({@link #type}).
 * Stateless.
 */
public final class TableDdl {
    /**
     * A parsed head. {@code columns} is empty when none were declared; {@code format} and
     * {@code location} are null when not given; {@code queryStart} is where the query after
     * {@code AS} starts in the text, or -1 when the statement ends without one.
     */
    record Head(String name, boolean ifNotExists, List<Field> columns, FileFormat format, Map<String, String> options,
            List<String> partitionedBy, String location, int queryStart) {
        Head {
            requireNonNull(name, "name is null");
            columns = List.copyOf(columns);
            partitionedBy = List.copyOf(partitionedBy);
            options = FormatOptions.normalize(options);
        }

        /** The declared columns as a schema, or null when none were declared. */
        Schema schema() {
            return columns.isEmpty() ? null : new Schema(columns);
        }
    }

    private TableDdl() {
    }

    /** Parses {@code text} from {@code start}, where {@code CREATE [EXTERNAL] TABLE} begins. */
    static Head parse(String text, int start) {
        DdlTokens tokens = new DdlTokens(text, start);
        String where = "CREATE TABLE";
        tokens.expectWord("CREATE", where);
        tokens.takeWord("EXTERNAL");
        tokens.expectWord("TABLE", where);
        boolean ifNotExists = false;
        if (tokens.takeWord("IF")) {
            tokens.expectWord("NOT", where);
            tokens.expectWord("EXISTS", where);
            ifNotExists = true;
        }
        String name = tokens.name(where);
        where = "CREATE TABLE " + name;
        List<Field> columns = List.of();
        if (tokens.takeSymbol('(')) {
            columns = columns(tokens, where, true);
        }
        FileFormat format = null;
        Map<String, String> options = null;
        List<String> partitionedBy = null;
        String location = null;
        while (true) {
            if (tokens.takeWord("STORED") || tokens.peek().isWord("USING")) {
                if (!tokens.takeWord("USING")) {
                    tokens.expectWord("AS", where);
                }
                once(format, "STORED AS / USING", tokens, where);
                format = FileFormat.parse(tokens.name(where));
            } else if (tokens.takeWord("OPTIONS")) {
                once(options, "OPTIONS", tokens, where);
                options = options(tokens, where);
            } else if (tokens.takeWord("PARTITIONED")) {
                tokens.expectWord("BY", where);
                once(partitionedBy, "PARTITIONED BY", tokens, where);
                partitionedBy = names(tokens, where);
            } else if (tokens.takeWord("LOCATION")) {
                once(location, "LOCATION", tokens, where);
                location = tokens.string(where);
            } else {
                break;
            }
        }
        Map<String, String> given = options == null ? new LinkedHashMap<>() : new LinkedHashMap<>(options);
        String path = given.remove("path");
        if (path != null) {
            if (location != null) {
                throw new SluiceException(where + ": give the path once, as LOCATION or as the option 'path'");
            }
            location = path;
        }
        int queryStart = -1;
        if (tokens.takeWord("AS")) {
            queryStart = tokens.position();
        } else if (tokens.peek().kind() != DdlTokens.Kind.END) {
            throw tokens.error("expected STORED AS, USING, OPTIONS, PARTITIONED BY, LOCATION or AS <query>", where);
        }
        return new Head(name, ifNotExists, columns, format, given, partitionedBy == null ? List.of() : partitionedBy,
                location, queryStart);
    }

    /** {@code (name, …)}. */
    private static List<String> names(DdlTokens tokens, String where) {
        tokens.expectSymbol('(', where);
        List<String> names = new ArrayList<>();
        do {
            names.add(tokens.name(where));
        } while (tokens.takeSymbol(','));
        tokens.expectSymbol(')', where);
        return names;
    }

    /** Columns as in {@code "a INT, b STRING"} (a DataFrame reader's {@code schema(...)}). */
    public static Schema columns(String ddl) {
        requireNonNull(ddl, "ddl is null");
        DdlTokens tokens = new DdlTokens(ddl, 0);
        List<Field> fields = columns(tokens, "schema '" + ddl + "'", false);
        if (tokens.peek().kind() != DdlTokens.Kind.END) {
            throw tokens.error("expected ',' or the end", "schema '" + ddl + "'");
        }
        return new Schema(fields);
    }

    /** {@code name type, …}, ending at ')' (taken) when {@code parenthesized}, else at the end. */
    private static List<Field> columns(DdlTokens tokens, String where, boolean parenthesized) {
        List<Field> fields = new ArrayList<>();
        do {
            String column = tokens.name(where);
            fields.add(new Field(column, type(tokens, where + ", column '" + column + "'")));
            while (tokens.peek().isWord("NOT") || tokens.peek().isWord("NULL") || tokens.peek().isWord("COMMENT")) {
                if (tokens.takeWord("COMMENT")) {
                    tokens.string(where);
                } else {
                    tokens.takeWord("NOT");
                    tokens.expectWord("NULL", where);
                }
            }
        } while (tokens.takeSymbol(','));
        if (parenthesized) {
            tokens.expectSymbol(')', where);
        }
        try {
            return List.copyOf(new Schema(fields).fields());
        } catch (SluiceException e) {
            throw new SluiceException(where + ": " + e.getMessage(), e);
        }
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
            default -> throw new SluiceException(where + ": unknown type '" + token.text() + "' at position "
                    + (token.start() + 1) + "; known types: INT, INTEGER, BIGINT, LONG, DOUBLE, FLOAT, STRING,"
                    + " VARCHAR(n), BOOLEAN, DATE, TIMESTAMP, DECIMAL(p,s)");
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
    private static Map<String, String> options(DdlTokens tokens, String where) {
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

    private static void once(Object seen, String clause, DdlTokens tokens, String where) {
        if (seen != null) {
            throw new SluiceException(where + ": " + clause + " is given twice (before position " + (tokens.position() + 1)
                    + ")");
        }
    }
}
