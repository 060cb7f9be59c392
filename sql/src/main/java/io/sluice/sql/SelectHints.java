package io.sluice.sql;

import io.sluice.common.SluiceException;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.plan.BroadcastHint;
import io.sluice.logical.plan.Join;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.plan.Repartition;
import io.sluice.logical.plan.SubqueryAlias;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import org.apache.calcite.sql.SqlHint;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;

/**
 * Spark's hints after a {@code SELECT}, honored by the planner: {@code BROADCAST(t, …)} (also
 * {@code BROADCASTJOIN}, {@code MAPJOIN}) broadcasts relation {@code t} in this query's joins;
 * {@code REPARTITION(n)}, {@code REPARTITION(n, c, …)} and {@code REPARTITION(c, …)} hash (or without
 * columns, round-robin) the query's result into {@code n} partitions (the session's shuffle
 * partitions without {@code n}); {@code COALESCE(n)} puts it in {@code n} partitions, round robin (a
 * shuffle: Sluice has no shuffle-free merge of partitions). Another hint is an error naming it.
 */
final class SelectHints {
    private static final Set<String> BROADCAST = Set.of("BROADCAST", "BROADCASTJOIN", "MAPJOIN");

    private SelectHints() {
    }

    /** {@code from} with the relations a BROADCAST hint names marked ({@link BroadcastHint}). */
    static LogicalPlan broadcast(SqlSelect select, LogicalPlan from) {
        Set<String> names = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
        for (SqlHint hint : hints(select)) {
            if (BROADCAST.contains(name(hint))) {
                if (hint.getOptionList().isEmpty()) {
                    throw new SluiceException("hint " + hint.getName() + " needs the relations to broadcast");
                }
                names.addAll(hint.getOptionList());
            }
        }
        return names.isEmpty() ? from : mark(from, names);
    }

    /** The query's result {@code plan} repartitioned as a REPARTITION or COALESCE hint says. */
    static LogicalPlan repartition(SqlSelect select, LogicalPlan plan, boolean ordered) {
        LogicalPlan out = plan;
        for (SqlHint hint : hints(select)) {
            String name = name(hint);
            if (BROADCAST.contains(name)) {
                continue;
            }
            if (!name.equals("REPARTITION") && !name.equals("COALESCE")) {
                throw SqlErrors.unsupported("hint " + hint.getName() + " (Sluice honors BROADCAST, REPARTITION and COALESCE)");
            }
            if (ordered) {
                throw SqlErrors.unsupported("hint " + hint.getName() + " on a query with ORDER BY, LIMIT or OFFSET");
            }
            List<String> options = hint.getOptionList();
            int count = 0;
            int first = 0;
            if (!options.isEmpty() && options.get(0).chars().allMatch(Character::isDigit)) {
                count = parseCount(hint, options.get(0));
                first = 1;
            }
            if (name.equals("COALESCE") && (count == 0 || options.size() != 1)) {
                throw new SluiceException("hint COALESCE takes one partition count, as COALESCE(4): " + options);
            }
            List<Expr> keys = new ArrayList<>();
            for (String column : options.subList(first, options.size())) {
                if (out.schema().indexOf(column) < 0) {
                    throw new SluiceException("hint " + hint.getName() + ": unknown column '" + column + "' (the query has "
                            + out.schema().names() + ")");
                }
                keys.add(new Column(column));
            }
            out = new Repartition(out, keys, count);
        }
        return out;
    }

    private static int parseCount(SqlHint hint, String text) {
        try {
            int n = Integer.parseInt(text);
            if (n >= 1 && n <= Repartition.MAX_PARTITIONS) {
                return n;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw new SluiceException("hint " + hint.getName() + ": the partition count must be 1 to "
                + Repartition.MAX_PARTITIONS + ", not " + text);
    }

    private static List<SqlHint> hints(SqlSelect select) {
        List<SqlHint> out = new ArrayList<>();
        if (select.getHints() != null) {
            for (SqlNode node : select.getHints()) {
                out.add((SqlHint) node);
            }
        }
        return out;
    }

    private static String name(SqlHint hint) {
        return hint.getName().toUpperCase(Locale.ROOT);
    }

    /** Marks the relations named {@code names} among the joined relations of {@code plan}. */
    private static LogicalPlan mark(LogicalPlan plan, Set<String> names) {
        if (plan instanceof SubqueryAlias alias && names.contains(alias.alias())) {
            return new BroadcastHint(plan);
        }
        if (plan instanceof Join) {
            List<LogicalPlan> children = new ArrayList<>();
            plan.children().forEach(c -> children.add(mark(c, names)));
            return plan.withNewChildren(children);
        }
        return plan;
    }
}
