package io.sluice.sql;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.settings.SparkConfigKeys;
import io.sluice.common.types.ArithmeticMode;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.function.CallContext;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.source.TableSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.calcite.sql.SqlNode;

/**
 * The SQL entry point: text in, {@link Statement} out. Calcite parses queries; the catalog
 * statements (tables, views, databases, {@code INSERT}, {@code SHOW}, {@code DESCRIBE}) go through
 * {@link DdlParser} and {@link DdlPlanner}; {@code ANALYZE TABLE}, {@code SET} and {@code EXPLAIN
 * [ANALYZE] [VERBOSE] query} are recognized here. The query a statement holds is planned with the
 * statement's head blanked out, so error positions match the input. Stateless and thread-safe.
 */
public final class SqlFrontEnd {
    private static final Pattern SET = Pattern.compile(
            "(?is)SET\\s+([A-Za-z_][A-Za-z0-9_.\\-]*)\\s*(?:=|\\s+TO\\s+)\\s*('(?:[^']|'')*'|[^;']*?)\\s*;?\\s*");
    private static final Pattern SHOW_SETTING = Pattern.compile("(?is)SET\\s+(spark\\.[A-Za-z0-9_.\\-]+)\\s*;?\\s*");
    private static final String NAME = "(?<name>[A-Za-z_][A-Za-z0-9_]*|\"(?:[^\"]|\"\")+\")";
    private static final Pattern ANALYZE_START = Pattern.compile("(?is)ANALYZE\\s+TABLE\\b");
    private static final Pattern ANALYZE = Pattern.compile("(?is)ANALYZE\\s+TABLE\\s+" + NAME
            + "\\s+COMPUTE\\s+STATISTICS(?:\\s+NOSCAN)?(?:\\s+FOR\\s+(?:(?<all>ALL\\s+COLUMNS)|COLUMNS\\s+(?<columns>[^;]+?)))?\\s*;?\\s*");
    private static final Pattern EXPLAIN = Pattern.compile("(?is)EXPLAIN\\b(?<analyze>\\s+ANALYZE\\b)?(?<verbose>\\s+VERBOSE\\b)?");

    private SqlFrontEnd() {
    }

    /**
     * Parses one statement (a trailing semicolon is fine) and plans it against {@code catalog}, in
     * the {@link SqlDialect#ANSI ansi} dialect (Sluice's own SQL, whose names it quotes with backticks).
     * A statement past {@link QueryLimits} is a "query too complex" error, and so is one whose
     * parsing or planning runs out of stack anyway: that error never escapes as such.
     */
    public static Statement parse(String sql, Catalog catalog) {
        return parse(sql, catalog, SqlDialect.ANSI);
    }

    /** The same, in {@code dialect} where SQL dialects disagree ({@code sluice.sql.dialect}). */
    public static Statement parse(String sql, Catalog catalog, SqlDialect dialect) {
        return parse(sql, catalog, dialect, CallContext.utc());
    }

    /**
     * The same, with the session's time zone and query start ({@code context}) for the time functions;
     * arithmetic and casts in {@code context}'s mode in the spark dialect, strict in the ansi one.
     */
    public static Statement parse(String sql, Catalog catalog, SqlDialect dialect, CallContext context) {
        requireNonNull(context, "context is null");
        CallContext effective = dialect == SqlDialect.SPARK ? context : context.withMode(ArithmeticMode.STRICT);
        return PlanningContext.with(effective, catalog.functions(), () -> parseInDialect(sql, catalog, dialect));
    }

    private static Statement parseInDialect(String sql, Catalog catalog, SqlDialect dialect) {
        requireNonNull(sql, "sql is null");
        requireNonNull(catalog, "catalog is null");
        requireNonNull(dialect, "dialect is null");
        QueryLimits.checkText(sql);
        Statement statement;
        try {
            statement = parseChecked(sql, catalog, dialect);
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

    private static Statement parseChecked(String sql, Catalog catalog, SqlDialect dialect) {
        List<StatementSplitter.Segment> segments = StatementSplitter.segments(sql, dialect);
        if (segments.isEmpty()) {
            throw new SluiceException("empty SQL statement");
        }
        if (segments.size() > 1) {
            throw new SluiceException("expected one SQL statement, found " + segments.size());
        }
        StatementSplitter.Segment segment = segments.get(0);
        // Blank rather than cut what lies outside the statement, so error positions match the input.
        SparkSyntax.Rewritten rewritten = SparkSyntax.rewrite(blank(sql, 0, segment.start()).substring(0, segment.end()),
                dialect);
        String text = rewritten.text();
        int start = StatementSplitter.skipTrivia(text, 0);

        DdlSyntax ddl = DdlParser.parse(text, start, rewritten.dialect() != SqlDialect.SPARK);
        if (ddl != null) {
            return DdlPlanner.plan(ddl, rewritten, start, catalog);
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
        Statement functions = FunctionStatements.parse(text, start);
        if (functions != null) {
            return functions;
        }
        if (ANALYZE_START.matcher(text).region(start, text.length()).lookingAt()) {
            return analyzeTable(text, start, catalog);
        }
        Matcher explain = EXPLAIN.matcher(text).region(start, text.length());
        if (explain.lookingAt()) {
            boolean verbose = explain.group("verbose") != null;
            boolean analyze = explain.group("analyze") != null;
            return new Statement.Explain(plan(rewritten.withText(blank(text, start, explain.end())), catalog), verbose,
                    analyze);
        }
        return new Statement.Query(plan(rewritten, catalog));
    }

    /** {@link #splitStatements(String, SqlDialect)} for a script that starts in the default dialect, Spark's. */
    public static List<String> splitStatements(String script) {
        return splitStatements(script, SqlDialect.SPARK);
    }

    /**
     * Splits a script on semicolons outside quotes and comments, reading its literals in
     * {@code dialect} until a {@code SET sluice.sql.dialect} in it changes it (in Spark's, a
     * backslash escapes a quote). Each statement is trimmed; empty and comment-only ones are dropped.
     */
    public static List<String> splitStatements(String script, SqlDialect dialect) {
        requireNonNull(script, "script is null");
        requireNonNull(dialect, "dialect is null");
        List<String> out = new ArrayList<>();
        for (StatementSplitter.Segment s : StatementSplitter.segments(script, dialect)) {
            out.add(script.substring(s.start(), s.end()).strip());
        }
        return out;
    }

    /** The dialect a script is in after {@code statement} ran in {@code current} (a {@code SET sluice.sql.dialect} changes it). */
    public static SqlDialect dialectAfter(String statement, SqlDialect current) {
        return StatementSplitter.dialectAfter(statement, requireNonNull(current, "current is null"));
    }

    /** Rows of constant expressions under the given column names, as {@code VALUES} plans them. */
    public static LogicalPlan constantRows(List<String> names, List<List<Expr>> rows) {
        return QueryTranslator.constantRows(names, rows);
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

    private static String unquote(String name) {
        return name.startsWith("\"") ? name.substring(1, name.length() - 1).replace("\"\"", "\"") : name;
    }

    static LogicalPlan plan(SparkSyntax.Rewritten query, Catalog catalog) {
        // the clauses are found where the parser reads them: after LATERAL VIEW is rewritten
        String text = LateralViews.rewrite(query.text());
        List<QueryOrganization.Clause> clauses = QueryOrganization.find(text);
        text = QueryOrganization.blank(text, clauses);
        CalciteParser.Parsed parsed = CalciteParser.parse(text, query);
        try {
            SqlNode node = QueryOrganization.attach(parsed.node(), clauses, parsed, text, query.dialect());
            return new QueryTranslator(catalog).translate(node);
        } catch (SluiceException e) {
            throw parsed.inUserText(e);
        }
    }

    /** {@code text} with {@code [from, to)} replaced by spaces, line breaks kept. */
    static String blank(String text, int from, int to) {
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
