package io.sluice.sql;

import io.sluice.common.SluiceException;
import io.sluice.logical.source.FileFormat;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Recursive-descent parser of the catalog statements (see {@link DdlSyntax}) over {@link DdlTokens}.
 * A hand-written grammar rather than Calcite's DDL parser extended: Calcite's is generated from
 * FreeMarker templates at build time (a parser-generator step and a copy of Calcite's grammar to
 * keep in step with each Calcite release), while Spark's DDL is a small, flat language whose
 * clauses come in any order. The query a statement holds is left to Calcite: the parser stops at
 * it and says where it starts. A syntax error names the statement, what was expected, what was
 * found and its line and column. Stateless.
 */
final class DdlParser {
    private DdlParser() {
    }

    /** The statement at {@code start} of {@code text} if it is a catalog statement, else null (a query for Calcite). */
    static DdlSyntax parse(String text, int start) {
        return parse(text, start, true);
    }

    /** {@code backslashEscapes}: see {@link DdlTokens#DdlTokens(String, int, boolean)}. */
    static DdlSyntax parse(String text, int start, boolean backslashEscapes) {
        DdlTokens tokens = new DdlTokens(text, start, backslashEscapes);
        DdlTokens.Token first = tokens.peek();
        DdlTokens.Token second = null;
        if (first.isWord("SHOW") || first.isWord("DESCRIBE") || first.isWord("DESC")) {
            DdlTokens ahead = tokens.copy();
            ahead.take();
            second = ahead.take();
        }
        if (first.isWord("CREATE")) {
            return create(tokens);
        }
        if (first.isWord("DROP")) {
            return drop(tokens);
        }
        if (first.isWord("ALTER")) {
            return alter(tokens);
        }
        if (first.isWord("SHOW") && (second.isWord("TABLES") || second.isWord("DATABASES") || second.isWord("SCHEMAS")
                || second.isWord("CREATE"))) {
            return show(tokens);
        }
        if ((first.isWord("DESCRIBE") || first.isWord("DESC")) && !second.isWord("FUNCTION")
                && !second.isWord("QUERY") && !second.isWord("SELECT")) {
            return describe(tokens);
        }
        if (first.isWord("USE")) {
            tokens.take();
            if (!tokens.takeWord("DATABASE")) {
                tokens.takeWord("SCHEMA");
            }
            String database = tokens.name("USE");
            end(tokens, "USE");
            return new DdlSyntax.Use(database);
        }
        if (first.isWord("INSERT")) {
            return insert(tokens);
        }
        return null;
    }

    private static DdlSyntax create(DdlTokens tokens) {
        tokens.expectWord("CREATE", "CREATE");
        boolean orReplace = false;
        if (tokens.takeWord("OR")) {
            tokens.expectWord("REPLACE", "CREATE OR REPLACE");
            orReplace = true;
        }
        boolean temporary = tokens.takeWord("TEMP") || tokens.takeWord("TEMPORARY");
        if (tokens.takeWord("VIEW")) {
            return createView(tokens, orReplace, temporary);
        }
        if (orReplace || temporary) {
            throw tokens.error("expected VIEW", "CREATE " + (orReplace ? "OR REPLACE " : "") + (temporary ? "TEMPORARY" : ""));
        }
        if (tokens.takeWord("DATABASE") || tokens.takeWord("SCHEMA")) {
            String where = "CREATE DATABASE";
            boolean ifNotExists = ifNotExists(tokens, where);
            String name = tokens.name(where);
            String location = null;
            String comment = null;
            while (true) {
                if (tokens.takeWord("LOCATION")) {
                    location = once(location, "LOCATION", tokens.string(where), where);
                } else if (tokens.takeWord("COMMENT")) {
                    comment = once(comment, "COMMENT", tokens.string(where), where);
                } else {
                    break;
                }
            }
            end(tokens, where + " " + name, "LOCATION, COMMENT or the end");
            return new DdlSyntax.CreateDatabase(name, ifNotExists, location, comment);
        }
        boolean external = tokens.takeWord("EXTERNAL");
        if (!tokens.peek().isWord("TABLE")) {
            throw tokens.error(external ? "expected TABLE" : "expected TABLE, VIEW, DATABASE or SCHEMA", "CREATE");
        }
        tokens.take();
        return createTable(tokens, external);
    }

    private static DdlSyntax.CreateTable createTable(DdlTokens tokens, boolean external) {
        String where = "CREATE TABLE";
        boolean ifNotExists = ifNotExists(tokens, where);
        DdlSyntax.Name name = name(tokens, where);
        where = "CREATE TABLE " + name;
        List<TableColumn> columns = new ArrayList<>();
        if (tokens.takeSymbol('(')) {
            columns.addAll(TableDdl.columns(tokens, where, true));
        }
        FileFormat format = null;
        Map<String, String> options = null;
        List<String> partitionedBy = null;
        String location = null;
        String comment = null;
        Map<String, String> properties = null;
        while (true) {
            if (tokens.takeWord("STORED") || tokens.peek().isWord("USING")) {
                if (!tokens.takeWord("USING")) {
                    tokens.expectWord("AS", where);
                }
                format = once(format, "STORED AS / USING", FileFormat.parse(tokens.name(where)), where);
            } else if (tokens.takeWord("OPTIONS")) {
                options = once(options, "OPTIONS", TableDdl.options(tokens, where), where);
            } else if (tokens.takeWord("PARTITIONED")) {
                tokens.expectWord("BY", where);
                partitionedBy = once(partitionedBy, "PARTITIONED BY", partitionColumns(tokens, where, columns), where);
            } else if (tokens.takeWord("LOCATION")) {
                location = once(location, "LOCATION", tokens.string(where), where);
            } else if (tokens.takeWord("COMMENT")) {
                comment = once(comment, "COMMENT", tokens.string(where), where);
            } else if (tokens.takeWord("TBLPROPERTIES")) {
                properties = once(properties, "TBLPROPERTIES", TableDdl.options(tokens, where), where);
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
        } else {
            end(tokens, where, "USING, STORED AS, OPTIONS, PARTITIONED BY, LOCATION, COMMENT, TBLPROPERTIES or AS <query>");
        }
        return new DdlSyntax.CreateTable(name, external, ifNotExists, columns, format, given,
                partitionedBy == null ? List.of() : partitionedBy, location, comment,
                properties == null ? Map.of() : properties, queryStart);
    }

    /** {@code (name [type], …)}: a typed partition column (Hive's form) is added to {@code columns}. */
    private static List<String> partitionColumns(DdlTokens tokens, String where, List<TableColumn> columns) {
        tokens.expectSymbol('(', where);
        List<String> names = new ArrayList<>();
        do {
            String column = tokens.name(where);
            names.add(column);
            if (!tokens.peek().isSymbol(',') && !tokens.peek().isSymbol(')')) {
                columns.add(new TableColumn(column, TableDdl.type(tokens, where + ", column '" + column + "'"), false,
                        null));
            }
        } while (tokens.takeSymbol(','));
        tokens.expectSymbol(')', where);
        return names;
    }

    private static DdlSyntax.CreateView createView(DdlTokens tokens, boolean orReplace, boolean temporary) {
        String where = "CREATE VIEW";
        boolean ifNotExists = ifNotExists(tokens, where);
        DdlSyntax.Name name = name(tokens, where);
        where = "CREATE VIEW " + name;
        List<String> columns = new ArrayList<>();
        if (tokens.takeSymbol('(')) {
            do {
                columns.add(tokens.name(where));
                if (tokens.takeWord("COMMENT")) {
                    tokens.string(where);
                }
            } while (tokens.takeSymbol(','));
            tokens.expectSymbol(')', where);
        }
        String comment = null;
        if (tokens.takeWord("COMMENT")) {
            comment = tokens.string(where);
        }
        if (!tokens.takeWord("AS")) {
            throw tokens.error("expected AS <query>", where);
        }
        return new DdlSyntax.CreateView(name, orReplace, temporary, ifNotExists, columns, comment, tokens.position());
    }

    private static DdlSyntax drop(DdlTokens tokens) {
        tokens.expectWord("DROP", "DROP");
        if (tokens.takeWord("DATABASE") || tokens.takeWord("SCHEMA")) {
            String where = "DROP DATABASE";
            boolean ifExists = ifExists(tokens, where);
            String name = tokens.name(where);
            boolean cascade = tokens.takeWord("CASCADE");
            if (!cascade) {
                tokens.takeWord("RESTRICT");
            }
            end(tokens, where + " " + name, "CASCADE, RESTRICT or the end");
            return new DdlSyntax.DropDatabase(name, ifExists, cascade);
        }
        boolean view = tokens.takeWord("VIEW");
        if (!view && !tokens.takeWord("TABLE")) {
            throw tokens.error("expected TABLE, VIEW or DATABASE", "DROP");
        }
        String where = view ? "DROP VIEW" : "DROP TABLE";
        boolean ifExists = ifExists(tokens, where);
        DdlSyntax.Name name = name(tokens, where);
        tokens.takeWord("PURGE");
        end(tokens, where + " " + name);
        return new DdlSyntax.Drop(view, name, ifExists);
    }

    private static DdlSyntax alter(DdlTokens tokens) {
        tokens.expectWord("ALTER", "ALTER");
        tokens.expectWord("TABLE", "ALTER");
        DdlSyntax.Name table = name(tokens, "ALTER TABLE");
        String where = "ALTER TABLE " + table;
        if (tokens.takeWord("RENAME")) {
            tokens.expectWord("TO", where);
            DdlSyntax.Name to = name(tokens, where);
            end(tokens, where);
            return new DdlSyntax.RenameTable(table, to);
        }
        if (tokens.takeWord("ADD")) {
            if (!tokens.takeWord("COLUMNS")) {
                tokens.expectWord("COLUMN", where);
            }
            boolean parenthesized = tokens.takeSymbol('(');
            List<TableColumn> columns = TableDdl.columns(tokens, where, parenthesized);
            end(tokens, where);
            return new DdlSyntax.AddColumns(table, columns);
        }
        throw tokens.error("expected RENAME TO or ADD COLUMNS", where);
    }

    private static DdlSyntax show(DdlTokens tokens) {
        tokens.expectWord("SHOW", "SHOW");
        if (tokens.takeWord("CREATE")) {
            tokens.expectWord("TABLE", "SHOW CREATE");
            DdlSyntax.Name name = name(tokens, "SHOW CREATE TABLE");
            tokens.takeWord("AS");
            tokens.takeWord("SERDE");
            end(tokens, "SHOW CREATE TABLE " + name);
            return new DdlSyntax.ShowCreateTable(name);
        }
        if (tokens.takeWord("TABLES")) {
            String database = null;
            if (tokens.takeWord("IN") || tokens.takeWord("FROM")) {
                database = tokens.name("SHOW TABLES");
            }
            String pattern = pattern(tokens, "SHOW TABLES");
            return new DdlSyntax.ShowTables(database, pattern);
        }
        if (!tokens.takeWord("DATABASES")) {
            tokens.expectWord("SCHEMAS", "SHOW");
        }
        return new DdlSyntax.ShowDatabases(pattern(tokens, "SHOW DATABASES"));
    }

    /** {@code [[LIKE] 'pattern']} and the end. */
    private static String pattern(DdlTokens tokens, String where) {
        String pattern = null;
        if (tokens.takeWord("LIKE") || tokens.peek().kind() == DdlTokens.Kind.STRING) {
            pattern = tokens.string(where);
        }
        end(tokens, where, "LIKE '<pattern>' or the end");
        return pattern;
    }

    private static DdlSyntax describe(DdlTokens tokens) {
        tokens.take();
        tokens.takeWord("TABLE");
        boolean extended = tokens.takeWord("EXTENDED") || tokens.takeWord("FORMATTED");
        DdlSyntax.Name name = name(tokens, "DESCRIBE");
        end(tokens, "DESCRIBE " + name);
        return new DdlSyntax.Describe(name, extended);
    }

    private static DdlSyntax insert(DdlTokens tokens) {
        tokens.expectWord("INSERT", "INSERT");
        boolean overwrite = tokens.takeWord("OVERWRITE");
        if (!overwrite) {
            tokens.expectWord("INTO", "INSERT");
        }
        String where = overwrite ? "INSERT OVERWRITE" : "INSERT INTO";
        tokens.takeWord("TABLE");
        DdlSyntax.Name table = name(tokens, where);
        where = where + " " + table;
        Map<String, String> partition = new LinkedHashMap<>();
        if (tokens.takeWord("PARTITION")) {
            tokens.expectSymbol('(', where);
            do {
                String column = tokens.name(where);
                String value = null;
                if (tokens.takeSymbol('=')) {
                    DdlTokens.Token v = tokens.take();
                    if (v.kind() != DdlTokens.Kind.STRING && v.kind() != DdlTokens.Kind.NUMBER && v.kind() != DdlTokens.Kind.WORD) {
                        throw new SluiceException("SQL syntax error in " + where + ": expected a value for partition column '"
                                + column + "', found " + v.describe() + " at " + tokens.at(v.start()));
                    }
                    value = v.text();
                }
                if (partition.containsKey(column) || partition.keySet().stream().anyMatch(column::equalsIgnoreCase)) {
                    throw new SluiceException(where + ": partition column '" + column + "' is given twice");
                }
                partition.put(column, value);
            } while (tokens.takeSymbol(','));
            tokens.expectSymbol(')', where);
        }
        List<String> columns = new ArrayList<>();
        if (tokens.peek().isSymbol('(') && isColumnList(tokens)) {
            tokens.take();
            do {
                columns.add(tokens.name(where));
            } while (tokens.takeSymbol(','));
            tokens.expectSymbol(')', where);
        }
        if (tokens.peek().kind() == DdlTokens.Kind.END) {
            throw tokens.error("expected a query (SELECT, VALUES, TABLE or WITH)", where);
        }
        return new DdlSyntax.Insert(table, overwrite, partition, columns, tokens.position());
    }

    /** Whether the '(' next opens a column list rather than a parenthesized query. */
    private static boolean isColumnList(DdlTokens tokens) {
        DdlTokens ahead = tokens.copy();
        ahead.take();
        DdlTokens.Token first = ahead.take();
        return (first.kind() == DdlTokens.Kind.WORD || first.kind() == DdlTokens.Kind.QUOTED_NAME)
                && !first.isWord("SELECT") && !first.isWord("VALUES") && !first.isWord("WITH") && !first.isWord("TABLE");
    }

    /** {@code name} or {@code database.name}. */
    static DdlSyntax.Name name(DdlTokens tokens, String where) {
        String first = tokens.name(where);
        if (tokens.takeSymbol('.')) {
            return new DdlSyntax.Name(first, tokens.name(where));
        }
        return new DdlSyntax.Name(null, first);
    }

    private static boolean ifNotExists(DdlTokens tokens, String where) {
        if (tokens.takeWord("IF")) {
            tokens.expectWord("NOT", where);
            tokens.expectWord("EXISTS", where);
            return true;
        }
        return false;
    }

    private static boolean ifExists(DdlTokens tokens, String where) {
        if (tokens.takeWord("IF")) {
            tokens.expectWord("EXISTS", where);
            return true;
        }
        return false;
    }

    private static void end(DdlTokens tokens, String where) {
        end(tokens, where, "the end of the statement");
    }

    private static void end(DdlTokens tokens, String where, String expected) {
        if (tokens.peek().kind() != DdlTokens.Kind.END) {
            throw tokens.error("expected " + expected, where);
        }
    }

    private static <T> T once(T seen, String clause, T value, String where) {
        if (seen != null) {
            throw new SluiceException(where + ": " + clause + " is given twice");
        }
        return value;
    }
}
