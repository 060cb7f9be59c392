package io.sluice.sql;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.settings.SparkConfigKeys;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.sink.SaveMode;
import io.sluice.logical.sink.WriteTarget;
import io.sluice.logical.source.FileFormat;
import io.sluice.logical.source.TableSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The SQL entry point: text in, {@link Statement} out. Calcite parses queries; statements its core
 * grammar lacks or spells otherwise ({@code CREATE EXTERNAL TABLE}, {@code CREATE TABLE … AS},
 * {@code INSERT INTO|OVERWRITE}, views, {@code SHOW TABLES}, {@code DESCRIBE}, {@code ANALYZE TABLE},
 * {@code SET}, {@code EXPLAIN [ANALYZE] [VERBOSE] query}) are recognized here first, and the query
 * they hold is planned with their head blanked out, so error positions match the input. Stateless
 * and thread-safe.
 */
public final class SqlFrontEnd {
    private static final Pattern CREATE_EXTERNAL = Pattern.compile("(?is)CREATE\\s+EXTERNAL\\b");
    private static final Pattern SET = Pattern.compile(
            "(?is)SET\\s+([A-Za-z_][A-Za-z0-9_.\\-]*)\\s*(?:=|\\s+TO\\s+)\\s*('(?:[^']|'')*'|[^\\s;']+)\\s*;?\\s*");
    private static final Pattern SHOW_SETTING = Pattern.compile("(?is)SET\\s+(spark\\.[A-Za-z0-9_.\\-]+)\\s*;?\\s*");
    private static final String NAME = "(?<name>[A-Za-z_][A-Za-z0-9_]*|\"(?:[^\"]|\"\")+\")";
    private static final Pattern CREATE_VIEW = Pattern.compile(
            "(?is)CREATE\\s+(?<replace>OR\\s+REPLACE\\s+)?(?:TEMP\\s+|TEMPORARY\\s+)?VIEW\\s+" + NAME
                    + "\\s*(?:\\((?<columns>[^)]*)\\)\\s*)?AS\\b");
    private static final Pattern CREATE_VIEW_START = Pattern.compile(
            "(?is)CREATE\\s+(?:OR\\s+REPLACE\\s+)?(?:TEMP\\s+|TEMPORARY\\s+)?VIEW\\b");
    private static final Pattern DROP_VIEW = Pattern.compile(
            "(?is)DROP\\s+VIEW\\s+(?<exists>IF\\s+EXISTS\\s+)?" + NAME + "\\s*;?\\s*");
    private static final Pattern DROP_VIEW_START = Pattern.compile("(?is)DROP\\s+VIEW\\b");
    private static final Pattern SHOW_TABLES = Pattern.compile("(?is)SHOW\\s+TABLES\\s*;?\\s*");
    private static final Pattern DESCRIBE = Pattern.compile("(?is)(?:DESCRIBE|DESC)\\s+(?:TABLE\\s+)?" + NAME
            + "\\s*;?\\s*");
    private static final String SIMPLE_NAME = "(?:[A-Za-z_][A-Za-z0-9_]*|\"(?:[^\"]|\"\")+\")";
    private static final Pattern CREATE_TABLE_START = Pattern.compile("(?is)CREATE\\s+TABLE\\b");
    private static final Pattern INSERT_START = Pattern.compile("(?is)INSERT\\b");
    /** {@code INSERT INTO|OVERWRITE [TABLE] name [(column, ...)]}; a column list holds names and commas only. */
    private static final Pattern INSERT = Pattern.compile(
            "(?is)INSERT\\s+(?:(?<overwrite>OVERWRITE)|INTO)\\s+(?:TABLE\\s+)?" + NAME + "\\s*"
                    + "(?:\\((?<columns>\\s*" + SIMPLE_NAME + "(?:\\s*,\\s*" + SIMPLE_NAME + ")*\\s*)\\)\\s*)?");
    private static final Pattern ANALYZE_START = Pattern.compile("(?is)ANALYZE\\s+TABLE\\b");
    private static final Pattern ANALYZE = Pattern.compile("(?is)ANALYZE\\s+TABLE\\s+" + NAME
            + "\\s+COMPUTE\\s+STATISTICS(?:\\s+NOSCAN)?(?:\\s+FOR\\s+(?:(?<all>ALL\\s+COLUMNS)|COLUMNS\\s+(?<columns>[^;]+?)))?\\s*;?\\s*");
    private static final Pattern EXPLAIN = Pattern.compile("(?is)EXPLAIN\\b(?<analyze>\\s+ANALYZE\\b)?(?<verbose>\\s+VERBOSE\\b)?");

    private SqlFrontEnd() {
    }

    /**
     * Parses one statement (a trailing semicolon is fine) and plans it against {@code catalog}.
     * A statement past {@link QueryLimits} is a "query too complex" error, and so is one whose
     * parsing or planning runs out of stack anyway: that error never escapes as such.
     */
    public static Statement parse(String sql, Catalog catalog) {
        requireNonNull(sql, "sql is null");
        requireNonNull(catalog, "catalog is null");
        QueryLimits.checkText(sql);
        Statement statement;
        try {
            statement = parseChecked(sql, catalog);
        } catch (StackOverflowError e) {
            throw QueryLimits.tooComplex("it nests too deeply to plan");
        }
        if (statement instanceof Statement.Query q) {
            QueryLimits.checkPlan(q.plan());
        } else if (statement instanceof Statement.Explain x) {
            QueryLimits.checkPlan(x.plan());
        } else if (statement instanceof Statement.CreateView v) {
            QueryLimits.checkPlan(v.plan());
        }
        return statement;
    }

    private static Statement parseChecked(String sql, Catalog catalog) {
        List<StatementSplitter.Segment> segments = StatementSplitter.segments(sql);
        if (segments.isEmpty()) {
            throw new SluiceException("empty SQL statement");
        }
        if (segments.size() > 1) {
            throw new SluiceException("expected one SQL statement, found " + segments.size());
        }
        StatementSplitter.Segment segment = segments.get(0);
        // Blank rather than cut what lies outside the statement, so error positions match the input.
        String text = blank(sql, 0, segment.start()).substring(0, segment.end());
        int start = StatementSplitter.skipTrivia(text, 0);

        if (CREATE_EXTERNAL.matcher(text).region(start, text.length()).lookingAt()) {
            return createExternalTable(TableDdl.parse(text, start));
        }
        Matcher set = SET.matcher(text).region(start, text.length());
        if (set.matches()) {
            String value = set.group(2);
            if (value.startsWith("'")) {
                value = value.substring(1, value.length() - 1).replace("''", "'");
            }
            String name = set.group(1);
            // Spark's keys keep their case (Spark's are camel case and echoed as given)
            return new Statement.SetOption(SparkConfigKeys.isSparkKey(name) ? name : name.toLowerCase(Locale.ROOT), value);
        }
        Matcher show = SHOW_SETTING.matcher(text).region(start, text.length());
        if (show.matches()) {
            return new Statement.ShowSetting(show.group(1));
        }
        if (CREATE_VIEW_START.matcher(text).region(start, text.length()).lookingAt()) {
            return createView(text, start, catalog);
        }
        if (CREATE_TABLE_START.matcher(text).region(start, text.length()).lookingAt()) {
            return createTableAs(text, start, catalog);
        }
        if (INSERT_START.matcher(text).region(start, text.length()).lookingAt()) {
            return insert(text, start, catalog);
        }
        if (DROP_VIEW_START.matcher(text).region(start, text.length()).lookingAt()) {
            Matcher drop = DROP_VIEW.matcher(text).region(start, text.length());
            if (!drop.matches()) {
                throw new SluiceException("SQL syntax error: expected DROP VIEW [IF EXISTS] <name>, got: "
                        + text.substring(start).strip());
            }
            return new Statement.DropView(unquote(drop.group("name")), drop.group("exists") != null);
        }
        Statement functions = FunctionStatements.parse(text, start);
        if (functions != null) {
            return functions;
        }
        if (SHOW_TABLES.matcher(text).region(start, text.length()).matches()) {
            return new Statement.Query(showTables(catalog));
        }
        Matcher describe = DESCRIBE.matcher(text).region(start, text.length());
        if (describe.matches()) {
            return new Statement.Query(describe(unquote(describe.group("name")), catalog));
        }
        if (ANALYZE_START.matcher(text).region(start, text.length()).lookingAt()) {
            return analyzeTable(text, start, catalog);
        }
        Matcher explain = EXPLAIN.matcher(text).region(start, text.length());
        if (explain.lookingAt()) {
            boolean verbose = explain.group("verbose") != null;
            boolean analyze = explain.group("analyze") != null;
            return new Statement.Explain(plan(blank(text, start, explain.end()), catalog), verbose, analyze);
        }
        return new Statement.Query(plan(text, catalog));
    }

    /**
     * Splits a script on semicolons outside quotes and comments. Each statement is trimmed; empty
     * and comment-only ones are dropped.
     */
    public static List<String> splitStatements(String script) {
        requireNonNull(script, "script is null");
        List<String> out = new ArrayList<>();
        for (StatementSplitter.Segment s : StatementSplitter.segments(script)) {
            out.add(script.substring(s.start(), s.end()).strip());
        }
        return out;
    }

    /** Rows of constant expressions under the given column names, as {@code VALUES} plans them. */
    public static LogicalPlan constantRows(List<String> names, List<List<Expr>> rows) {
        return QueryTranslator.constantRows(names, rows);
    }

    /** {@code SHOW TABLES}: one row per table and view, with its name and kind, sorted by name. */
    private static LogicalPlan showTables(Catalog catalog) {
        List<List<Expr>> rows = new ArrayList<>();
        catalog.tableNames().forEach(n -> rows.add(List.of(Literal.of(n), Literal.of("table"))));
        catalog.viewNames().forEach(n -> rows.add(List.of(Literal.of(n), Literal.of("view"))));
        rows.sort(java.util.Comparator.comparing(r -> ((String) ((Literal) r.get(0)).value()).toLowerCase(java.util.Locale.ROOT)));
        return QueryTranslator.constantRows(List.of("name", "kind"), rows);
    }

    /** {@code DESCRIBE name}: one row per column of the view or table, with its name and type. */
    private static LogicalPlan describe(String name, Catalog catalog) {
        LogicalPlan view = catalog.view(name);
        Schema schema = view != null ? view.schema() : catalog.table(name).schema();
        List<List<Expr>> rows = new ArrayList<>();
        for (Field f : schema.fields()) {
            rows.add(List.of(Literal.of(f.name()), Literal.of(f.type().toString())));
        }
        return QueryTranslator.constantRows(List.of("column_name", "column_type"), rows);
    }

    /** {@code ANALYZE TABLE}: the table and the columns to analyze, by the table's own column names. */
    private static Statement analyzeTable(String text, int start, Catalog catalog) {
        Matcher m = ANALYZE.matcher(text).region(start, text.length());
        if (!m.matches()) {
            throw new SluiceException("SQL syntax error: expected ANALYZE TABLE <name> COMPUTE STATISTICS"
                    + " [FOR COLUMNS <column>, ... | FOR ALL COLUMNS], got: " + text.substring(start).strip());
        }
        TableSource table = catalog.table(unquote(m.group("name")));
        List<String> names = table.schema().names();
        if (m.group("all") != null) {
            return new Statement.AnalyzeTable(table, names);
        }
        List<String> columns = new ArrayList<>();
        if (m.group("columns") != null) {
            for (String c : m.group("columns").split(",")) {
                String wanted = unquote(c.strip());
                String found = names.stream().filter(n -> n.equalsIgnoreCase(wanted)).findFirst()
                        .orElseThrow(() -> new SluiceException("ANALYZE TABLE " + table.name() + ": unknown column '" + wanted
                                + "'; columns: " + String.join(", ", names)));
                if (!columns.contains(found)) {
                    columns.add(found);
                }
            }
        }
        return new Statement.AnalyzeTable(table, columns);
    }

    /** The view's query is planned with its head blanked out, so error positions match the input. */
    private static Statement createView(String text, int start, Catalog catalog) {
        Matcher m = CREATE_VIEW.matcher(text).region(start, text.length());
        if (!m.lookingAt()) {
            throw new SluiceException("SQL syntax error: expected CREATE [OR REPLACE] [TEMP] VIEW <name> [(<columns>)]"
                    + " AS <query>, got: " + text.substring(start).strip());
        }
        String name = unquote(m.group("name"));
        LogicalPlan plan = plan(blank(text, start, m.end()), catalog);
        if (m.group("columns") != null) {
            List<String> columns = new ArrayList<>();
            for (String c : m.group("columns").split(",")) {
                columns.add(unquote(c.strip()));
            }
            plan = QueryTranslator.renameColumns(plan, columns, "view " + name);
        }
        return new Statement.CreateView(name, plan, m.group("replace") != null);
    }

    /**
     * CTAS (the query planned with the statement's head blanked out, so error positions match the
     * input), or Spark's {@code CREATE TABLE name [(columns)] USING format OPTIONS (path '…')} over
     * existing files.
     */
    private static Statement createTableAs(String text, int start, Catalog catalog) {
        TableDdl.Head head = TableDdl.parse(text, start);
        String name = head.name();
        if (head.queryStart() < 0) {
            if (head.format() != null && head.location() != null) {
                return createExternalTable(head);
            }
            throw new SluiceException("SQL syntax error: expected CREATE TABLE [IF NOT EXISTS] <name> STORED AS PARQUET|CSV|JSON"
                    + " [OPTIONS (...)] [PARTITIONED BY (<columns>)] LOCATION '<directory>' AS <query>, got: " + text.substring(start).strip());
        }
        if (!head.columns().isEmpty()) {
            throw new SluiceException("CREATE TABLE " + name + ": a column list cannot go with AS <query> (the query's"
                    + " columns are the table's)");
        }
        if (head.location() == null || head.location().isEmpty()) {
            throw new SluiceException("CREATE TABLE " + name + ": LOCATION '<directory>' is required (where the files go)");
        }
        FileFormat format = head.format() == null ? FileFormat.PARQUET : head.format();
        LogicalPlan plan = plan(blank(text, start, head.queryStart()), catalog);
        List<String> partitionBy = new ArrayList<>();
        for (String c : head.partitionedBy()) {
            partitionBy.add(plan.schema().field(c).name());
        }
        return new Statement.CreateTableAs(name, WriteTarget.of(head.location(), format, SaveMode.ERROR_IF_EXISTS,
                head.options()).withPartitionBy(partitionBy), plan, head.ifNotExists());
    }

    /** {@code INSERT INTO|OVERWRITE [TABLE] name query}: the query fitted to the table's columns. */
    private static Statement insert(String text, int start, Catalog catalog) {
        Matcher m = INSERT.matcher(text).region(start, text.length());
        if (!m.lookingAt()) {
            throw new SluiceException("SQL syntax error: expected INSERT INTO|OVERWRITE [TABLE] <name> <query>, got: "
                    + text.substring(start).strip());
        }
        String name = unquote(m.group("name"));
        if (catalog.view(name) != null) {
            throw new SluiceException("cannot INSERT INTO " + name + ": it is a view, not a table stored in files");
        }
        TableSource table = catalog.table(name);
        LogicalPlan query = plan(blank(text, start, m.end()), catalog);
        if (m.group("columns") != null) {
            List<String> columns = new ArrayList<>();
            for (String c : m.group("columns").split(",")) {
                columns.add(unquote(c.strip()));
            }
            query = InsertCoercion.toTableColumns(query, columns, table.schema(), name);
        }
        LogicalPlan plan = InsertCoercion.fit(query, table.schema(), name);
        return new Statement.Insert(table, plan, m.group("overwrite") != null ? SaveMode.OVERWRITE : SaveMode.APPEND);
    }

    private static String unquote(String name) {
        return name.startsWith("\"") ? name.substring(1, name.length() - 1).replace("\"\"", "\"") : name;
    }

    private static LogicalPlan plan(String query, Catalog catalog) {
        CalciteParser.Parsed parsed = CalciteParser.parse(query);
        try {
            return new QueryTranslator(catalog).translate(parsed.node());
        } catch (SluiceException e) {
            throw parsed.inUserText(e);
        }
    }

    private static Statement createExternalTable(TableDdl.Head head) {
        String name = head.name();
        if (head.queryStart() >= 0) {
            throw new SluiceException("CREATE EXTERNAL TABLE " + name + ": AS <query> is for CREATE TABLE (an external"
                    + " table's data is already in its files)");
        }
        if (head.format() == null || head.location() == null) {
            throw new SluiceException("SQL syntax error: expected CREATE EXTERNAL TABLE <name> STORED AS PARQUET|CSV|JSON"
                    + " LOCATION '<path>' (optionally with (<column> <type>, ...) after the name and OPTIONS (<key>"
                    + " '<value>', ...)): " + (head.format() == null ? "STORED AS" : "LOCATION") + " is missing");
        }
        if (head.location().isEmpty()) {
            throw new SluiceException("CREATE EXTERNAL TABLE " + name + ": LOCATION is empty");
        }
        return new Statement.CreateExternalTable(name, head.format(), head.location(), head.options(), head.schema(),
                head.partitionedBy());
    }

    /** {@code text} with {@code [from, to)} replaced by spaces, line breaks kept. */
    private static String blank(String text, int from, int to) {
        StringBuilder out = new StringBuilder(text);
        for (int i = from; i < to; i++) {
            char c = out.charAt(i);
            if (c != '\n' && c != '\r') {
                out.setCharAt(i, ' ');
            }
        }
        return out.toString();
    }
}
