package io.sluice.sql;

import io.sluice.common.SluiceException;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.SortKey;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.plan.Repartition;
import io.sluice.logical.plan.SortWithinPartitions;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;

/**
 * Spark's {@code CLUSTER BY e, …}, {@code DISTRIBUTE BY e, …} and {@code SORT BY key, …} ending a
 * statement's query, which Calcite does not parse: the clause is cut from the text (blanked, so
 * positions stay), the query planned, and the clause applied to its result, over the result's
 * columns: {@code DISTRIBUTE BY} is a {@link Repartition} by the hash of its expressions (into the
 * session's shuffle partitions), {@code SORT BY} a {@link SortWithinPartitions}, {@code CLUSTER BY}
 * both on the same expressions, ascending.
 */
final class QueryOrganization {
    /** The clause's parts: the text of each (null when absent), and where it starts (-1 when there is none). */
    record Clause(String distributeBy, String sortBy, boolean cluster, int start) {
        static final Clause NONE = new Clause(null, null, false, -1);

        boolean present() {
            return start >= 0;
        }
    }

    private QueryOrganization() {
    }

    /** The clause ending {@code text}'s query, if any (outside parentheses, strings and comments). */
    static Clause find(String text) {
        int depth = 0;
        int cluster = -1;
        int distribute = -1;
        int sort = -1;
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c == '\'' || c == '"' || c == '`') {
                i = LateralViews.skipQuoted(text, i);
                continue;
            }
            if (c == '-' && text.startsWith("--", i)) {
                int eol = text.indexOf('\n', i);
                i = eol < 0 ? text.length() : eol;
                continue;
            }
            if (c == '/' && text.startsWith("/*", i)) {
                int end = text.indexOf("*/", i + 2);
                i = end < 0 ? text.length() : end + 2;
                continue;
            }
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (depth == 0 && Character.isLetter(c) && (i == 0 || !LateralViews.isWordChar(text.charAt(i - 1)))) {
                int end = CalciteParser.wordEnd(text, i);
                String word = text.substring(i, end).toUpperCase(Locale.ROOT);
                int by = LateralViews.skipSpaces(text, end);
                boolean followedByBy = by > end && CalciteParser.wordEnd(text, by) == by + 2
                        && text.substring(by, by + 2).equalsIgnoreCase("BY");
                if (followedByBy) {
                    switch (word) {
                        case "CLUSTER" -> cluster = cluster < 0 ? i : cluster;
                        case "DISTRIBUTE" -> distribute = distribute < 0 ? i : distribute;
                        case "SORT" -> sort = sort < 0 ? i : sort;
                        default -> { }
                    }
                }
                i = end;
                continue;
            }
            i++;
        }
        int end = statementEnd(text);
        if (cluster >= 0) {
            if (distribute >= 0 || sort >= 0) {
                throw new SluiceException("CLUSTER BY cannot go with DISTRIBUTE BY or SORT BY (it is both)");
            }
            return new Clause(after(text, cluster, end), null, true, cluster);
        }
        if (distribute >= 0 && sort >= 0 && sort < distribute) {
            throw new SluiceException("SORT BY must follow DISTRIBUTE BY");
        }
        if (distribute >= 0) {
            return new Clause(after(text, distribute, sort >= 0 ? sort : end), sort >= 0 ? after(text, sort, end) : null,
                    false, distribute);
        }
        if (sort >= 0) {
            return new Clause(null, after(text, sort, end), false, sort);
        }
        return Clause.NONE;
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
