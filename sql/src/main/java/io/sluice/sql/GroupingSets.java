package io.sluice.sql;

import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.GroupingCall;
import io.sluice.logical.plan.GroupingSetPlans;
import io.sluice.logical.plan.LogicalPlan;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;

/**
 * {@code GROUP BY GROUPING SETS (...)}, {@code ROLLUP (...)} and {@code CUBE (...)}, alone or beside
 * plain group-by items (whose sets multiply): the sets are planned as one aggregation each, united.
 * Each aggregation outputs every group-by expression of the query, NULL where its set lacks it, so
 * the union has the columns a single aggregation by all the expressions would have. Every set reads
 * the input again. Each {@code grouping(...)} call of the query is a constant column per set
 * ({@link GroupingCall#valueFor}).
 */
final class GroupingSets {
    private GroupingSets() {
    }

    /** Whether the GROUP BY clause has a ROLLUP, CUBE or GROUPING SETS item. */
    static boolean present(SqlNodeList group) {
        if (group == null) {
            return false;
        }
        for (SqlNode node : group) {
            switch (node.getKind()) {
                case ROLLUP, CUBE, GROUPING_SETS -> {
                    return true;
                }
                default -> { }
            }
        }
        return false;
    }

    /**
     * The grouping sets of a GROUP BY clause, in order, each with its expressions deduplicated;
     * {@code translate} turns one plain item (an expression, alias or ordinal) into an expression.
     */
    static List<List<Expr>> of(SqlNodeList group, Function<SqlNode, Expr> translate) {
        List<List<Expr>> sets = List.of(List.of());
        for (SqlNode item : group) {
            List<List<Expr>> product = new ArrayList<>();
            for (List<Expr> left : sets) {
                for (List<Expr> right : itemSets(item, translate)) {
                    LinkedHashSet<Expr> combined = new LinkedHashSet<>(left);
                    combined.addAll(right);
                    product.add(List.copyOf(combined));
                }
            }
            sets = product;
        }
        return sets;
    }

    /** Every expression of any set, in first-use order: the group-by columns of the output. */
    static List<Expr> union(List<List<Expr>> sets) {
        return flatten(sets);
    }

    private static List<List<Expr>> itemSets(SqlNode item, Function<SqlNode, Expr> translate) {
        List<List<Expr>> out = new ArrayList<>();
        switch (item.getKind()) {
            case ROLLUP -> {
                List<List<Expr>> units = units((SqlCall) item, translate);
                for (int n = units.size(); n >= 0; n--) {
                    out.add(flatten(units.subList(0, n)));
                }
            }
            case CUBE -> {
                List<List<Expr>> units = units((SqlCall) item, translate);
                if (units.size() > 12) {
                    throw SqlErrors.unsupported("CUBE of more than 12 expressions");
                }
                for (int mask = (1 << units.size()) - 1; mask >= 0; mask--) {
                    List<List<Expr>> chosen = new ArrayList<>();
                    for (int i = 0; i < units.size(); i++) {
                        if ((mask & (1 << (units.size() - 1 - i))) != 0) {
                            chosen.add(units.get(i));
                        }
                    }
                    out.add(flatten(chosen));
                }
            }
            case GROUPING_SETS -> {
                for (SqlNode element : ((SqlCall) item).getOperandList()) {
                    out.addAll(itemSets(element, translate));
                }
            }
            default -> out.add(unit(item, translate));
        }
        return out;
    }

    /** The operands of ROLLUP or CUBE, each a unit: one expression, or a parenthesized list of them. */
    private static List<List<Expr>> units(SqlCall call, Function<SqlNode, Expr> translate) {
        List<List<Expr>> units = new ArrayList<>();
        for (SqlNode operand : call.getOperandList()) {
            units.add(unit(operand, translate));
        }
        return units;
    }

    private static List<Expr> unit(SqlNode node, Function<SqlNode, Expr> translate) {
        List<Expr> out = new ArrayList<>();
        if (node instanceof SqlNodeList list) {
            list.forEach(n -> out.add(translate.apply(n)));
        } else if (node.getKind() == SqlKind.ROW) {
            ((SqlCall) node).getOperandList().forEach(n -> out.add(translate.apply(n)));
        } else {
            out.add(translate.apply(node));
        }
        return out;
    }

    private static List<Expr> flatten(List<List<Expr>> units) {
        LinkedHashSet<Expr> out = new LinkedHashSet<>();
        units.forEach(out::addAll);
        return List.copyOf(out);
    }

    /** See {@link GroupingSetPlans#plan}. */
    static LogicalPlan plan(LogicalPlan input, List<Expr> groupBy, List<List<Expr>> sets, List<Expr> calls,
            List<GroupingCall> groupingCalls, BiFunction<List<Expr>, List<Expr>, LogicalPlan> aggregate) {
        return GroupingSetPlans.plan(input, groupBy, sets, calls, groupingCalls, aggregate);
    }
}
