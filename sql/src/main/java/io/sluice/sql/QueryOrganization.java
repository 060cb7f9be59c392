package io.sluice.sql;

import io.sluice.common.SluiceException;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.SortKey;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.plan.Repartition;
import io.sluice.logical.plan.SortWithinPartitions;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * Spark's {@code CLUSTER BY e, …}, {@code DISTRIBUTE BY e, …} and {@code SORT BY key, …}, which
 * Calcite does not parse, ending any query: the statement's, a subquery's, a WITH query's, a
 * parenthesized branch of a set operation, and before a {@code LIMIT}/{@code OFFSET}, as Spark's
 * grammar places them. Each clause is found in the text ({@link #find}), blanked (so positions
 * stay), and after parsing the query it ends — the largest query between the clause and the
 * parenthesis (or statement start) before it — is wrapped in an {@link OrganizedQuery}
 * ({@link #attach}). Applied to the query's result, over its columns: {@code DISTRIBUTE BY} is a
 * {@link Repartition} by the hash of its expressions (into the session's shuffle partitions),
 * {@code SORT BY} a {@link SortWithinPartitions}, {@code CLUSTER BY} both on the same expressions,
 * ascending.
 */
final class QueryOrganization {
    private static final String COMBINED = "Combination of ORDER BY/SORT BY/DISTRIBUTE BY/CLUSTER BY is not supported";

    /**
     * One clause: the text of its parts (null when absent), whether it is CLUSTER BY, where the query
     * it ends may start (after its opening parenthesis) and where the clause starts and ends.
     */
    record Clause(String distributeBy, String sortBy, boolean cluster, int queryStart, int start, int end) {
        String keyword() {
            return cluster ? "CLUSTER BY" : distributeBy != null ? "DISTRIBUTE BY" : "SORT BY";
        }
    }

    /** What one parenthesis level (or the statement) holds: where each clause word starts, -1 if absent. */
    private static final class Level {
        final int start;
        int cluster = -1;
        int distribute = -1;
        int sort = -1;
        int order = -1;
        int end = -1;

        Level(int start) {
            this.start = start;
        }

        boolean present() {
            return cluster >= 0 || distribute >= 0 || sort >= 0;
        }
    }

    private QueryOrganization() {
    }

    /** Every clause of {@code text} (rewritten for Calcite), innermost first, outside strings and comments. */
    static List<Clause> find(String text) {
        List<Clause> out = new ArrayList<>();
        Deque<Level> levels = new ArrayDeque<>();
        levels.push(new Level(0));
        int i = 0;
        while (i < text.length()) {
            int skipped = SqlLexemes.skipLexeme(text, i, SqlDialect.ANSI); // rewritten text: no escapes left
            if (skipped > i) {
                i = skipped;
                continue;
            }
            char c = text.charAt(i);
            if (c == '(') {
                levels.push(new Level(i + 1));
            } else if (c == ')' && levels.size() > 1) {
                close(text, levels.pop(), i, out);
            } else if (Character.isLetter(c) && (i == 0 || !LateralViews.isWordChar(text.charAt(i - 1)))) {
                int end = CalciteParser.wordEnd(text, i);
                word(text, text.substring(i, end).toUpperCase(Locale.ROOT), i, end, levels.peek());
                i = end;
                continue;
            }
            i++;
        }
        close(text, levels.pop(), statementEnd(text), out);
        return out;
    }

    private static void word(String text, String word, int at, int end, Level level) {
        if ((word.equals("LIMIT") || word.equals("OFFSET")) && level.present() && level.end < 0) {
            level.end = at;
            return;
        }
        int by = LateralViews.skipSpaces(text, end);
        if (by == end || CalciteParser.wordEnd(text, by) != by + 2 || !text.substring(by, by + 2).equalsIgnoreCase("BY")) {
            return;
        }
        switch (word) {
            case "CLUSTER" -> level.cluster = level.cluster < 0 ? at : level.cluster;
            case "DISTRIBUTE" -> level.distribute = level.distribute < 0 ? at : level.distribute;
            case "SORT" -> level.sort = level.sort < 0 ? at : level.sort;
            case "ORDER" -> level.order = level.order < 0 ? at : level.order;
            default -> { }
        }
    }

    private static void close(String text, Level level, int closing, List<Clause> out) {
        if (!level.present()) {
            return;
        }
        int end = level.end >= 0 ? level.end : closing;
        int first = minPresent(level.cluster, level.distribute, level.sort);
        if (level.order >= 0 && level.order < first) {
            throw new SluiceException(COMBINED + ": " + text.substring(level.order, end).strip());
        }
        if (level.cluster >= 0) {
            if (level.distribute >= 0 || level.sort >= 0) {
                throw new SluiceException("CLUSTER BY cannot go with DISTRIBUTE BY or SORT BY (it is both)");
            }
            out.add(new Clause(after(text, level.cluster, end), null, true, level.start, first, end));
            return;
        }
        if (level.distribute >= 0 && level.sort >= 0 && level.sort < level.distribute) {
            throw new SluiceException("SORT BY must follow DISTRIBUTE BY");
        }
        String distribute = level.distribute < 0 ? null : after(text, level.distribute, level.sort >= 0 ? level.sort : end);
        String sort = level.sort < 0 ? null : after(text, level.sort, end);
        out.add(new Clause(distribute, sort, false, level.start, first, end));
    }

    private static int minPresent(int... starts) {
        int min = Integer.MAX_VALUE;
        for (int s : starts) {
            min = s >= 0 ? Math.min(min, s) : min;
        }
        return min;
    }

    /** {@code text} with the clauses blanked (line breaks kept), for the parser. */
    static String blank(String text, List<Clause> clauses) {
        String out = text;
        for (Clause clause : clauses) {
            out = SqlFrontEnd.blank(out, clause.start(), clause.end());
        }
        return out;
    }

    /**
     * {@code root} (parsed from {@code text}, the blanked text) with the query each clause ends
     * wrapped in an {@link OrganizedQuery}; a clause that ends no query is an error naming it.
     */
    static SqlNode attach(SqlNode root, List<Clause> clauses, CalciteParser.Parsed parsed, String text, SqlDialect dialect) {
        if (clauses.isEmpty()) {
            return root;
        }
        Attacher attacher = new Attacher(new ArrayList<>(clauses), parsed, text, dialect);
        SqlNode out = attacher.visit(root);
        if (!attacher.pending.isEmpty()) {
            Clause clause = attacher.pending.get(0);
            throw new SluiceException("SQL syntax error: " + clause.keyword() + " must end a query: "
                    + text.substring(clause.queryStart(), clause.start()).strip());
        }
        return out;
    }

    /** Walks the tree from the root: the first (largest) query inside a pending clause's span is the one it ends. */
    private static final class Attacher {
        private final List<Clause> pending;
        private final CalciteParser.Parsed parsed;
        private final String text;
        private final SqlDialect dialect;

        Attacher(List<Clause> pending, CalciteParser.Parsed parsed, String text, SqlDialect dialect) {
            this.pending = pending;
            this.parsed = parsed;
            this.text = text;
            this.dialect = dialect;
        }

        SqlNode visit(SqlNode node) {
            if (node == null) {
                return null;
            }
            Clause clause = node.getKind().belongsTo(SqlKind.QUERY) ? clauseEnding(node) : null;
            SqlNode visited = visitBelow(node);
            return clause == null ? visited : new OrganizedQuery(visited, clause, dialect);
        }

        /** The pending clause ending {@code query} (taken off the list), or null. */
        private Clause clauseEnding(SqlNode query) {
            // its parts' span, not its own position, which covers the parentheses around a query in them
            int[] span = new int[] {Integer.MAX_VALUE, -1};
            ((SqlCall) query).getOperandList().forEach(operand -> span(operand, span));
            for (Clause clause : pending) {
                if (clause.queryStart() <= span[0] && span[1] <= clause.start()) {
                    if (query instanceof SqlOrderBy orderBy && orderBy.orderList != null && !orderBy.orderList.isEmpty()) {
                        throw new SluiceException(COMBINED + ": " + text.substring(span[0], clause.end()).strip());
                    }
                    pending.remove(clause);
                    return clause;
                }
            }
            return null;
        }

        private SqlNode visitBelow(SqlNode node) {
            if (node instanceof SqlOrderBy orderBy) { // its parts are final: a new one when its query changed
                SqlNode query = visit(orderBy.query);
                return query == orderBy.query ? orderBy
                        : new SqlOrderBy(orderBy.getParserPosition(), query, orderBy.orderList, orderBy.offset, orderBy.fetch);
            }
            if (node instanceof SqlNodeList list) {
                for (int i = 0; i < list.size(); i++) {
                    list.set(i, visit(list.get(i)));
                }
            } else if (node instanceof SqlCall call) {
                List<SqlNode> operands = call.getOperandList();
                for (int i = 0; i < operands.size(); i++) {
                    SqlNode operand = operands.get(i);
                    SqlNode visited = visit(operand);
                    if (visited != operand) {
                        call.setOperand(i, visited);
                    }
                }
            }
            return node;
        }

        /** {@code into} widened to the offsets (first, one past the last) of {@code node} and all below it. */
        private int[] span(SqlNode node, int[] into) {
            if (node == null) {
                return into;
            }
            SqlParserPos pos = node.getParserPosition();
            if (pos.getLineNum() > 0) {
                into[0] = Math.min(into[0], offset(pos.getLineNum(), pos.getColumnNum()));
                into[1] = Math.max(into[1], offset(pos.getEndLineNum(), pos.getEndColumnNum()) + 1);
            }
            if (node instanceof SqlNodeList list) {
                list.forEach(n -> span(n, into));
            } else if (node instanceof SqlCall call) {
                call.getOperandList().forEach(n -> span(n, into));
            }
            return into;
        }

        private int offset(int line, int column) {
            return CalciteParser.offsetOf(text, line, parsed.textColumn(line, column));
        }
    }

    /** {@code plan} with the clause applied; its expressions name {@code plan}'s result columns. */
    static LogicalPlan apply(LogicalPlan plan, Clause clause, SqlDialect dialect) {
        ExpressionTranslator translator = new ExpressionTranslator(TableScope.result(plan.schema(), "the query's result"));
        LogicalPlan out = plan;
        if (clause.distributeBy() != null) {
            String select = "SELECT " + clause.distributeBy();
            SqlNode node = CalciteParser.parse(select, new SparkSyntax.Rewritten(select, dialect, List.of())).node();
            if (!(node instanceof SqlSelect parsed)) {
                throw SqlErrors.unsupported("anything but expressions after DISTRIBUTE BY or CLUSTER BY: " + clause.distributeBy());
            }
            List<Expr> keys = new ArrayList<>();
            for (SqlNode item : parsed.getSelectList()) {
                keys.add(translator.translate(item));
            }
            out = new Repartition(out, keys, 0);
        }
        String sortBy = clause.cluster() ? clause.distributeBy() : clause.sortBy();
        if (sortBy != null) {
            String select = "SELECT 1 ORDER BY " + sortBy;
            SqlNode node = CalciteParser.parse(select, new SparkSyntax.Rewritten(select, dialect, List.of())).node();
            if (!(node instanceof SqlOrderBy parsed) || parsed.fetch != null || parsed.offset != null) {
                throw SqlErrors.unsupported("anything but sort keys after SORT BY: " + sortBy);
            }
            List<SortKey> keys = new ArrayList<>();
            for (SqlNode item : parsed.orderList) {
                keys.add(WindowTranslator.sortKey(item, translator::translate));
            }
            out = new SortWithinPartitions(out, keys);
        }
        return out;
    }

    /** The text of a clause starting at {@code start} (its two words skipped) up to {@code end}. */
    private static String after(String text, int start, int end) {
        int by = LateralViews.skipSpaces(text, CalciteParser.wordEnd(text, start));
        String body = text.substring(by + 2, end).strip();
        if (body.isEmpty()) {
            throw new SluiceException("SQL syntax error: " + text.substring(start, by + 2) + " needs an expression");
        }
        return body;
    }

    private static int statementEnd(String text) {
        int end = text.length();
        while (end > 0 && (Character.isWhitespace(text.charAt(end - 1)) || text.charAt(end - 1) == ';')) {
            end--;
        }
        return end;
    }
}
