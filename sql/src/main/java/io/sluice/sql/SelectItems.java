package io.sluice.sql;

import io.sluice.common.SluiceException;
import io.sluice.logical.expr.Alias;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.plan.SubqueryAlias;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlNumericLiteral;

/**
 * The select list of a SELECT and the GROUP BY and ORDER BY entries that refer to it: output names,
 * aliases, and 1-based select-list positions are resolved here, before any plan node is built.
 */
final class SelectItems {
    private SelectItems() {
    }

    /** A select-list entry: its expression over the current input and its output column name. */
    record SelectItem(Expr expr, String name, boolean aliased) {
        Expr projected() {
            return expr.name().equals(name) ? expr : new Alias(expr, name);
        }
    }

    /**
     * An ORDER BY key, before the projection exists: either a select output ({@code output}) or an
     * expression over the projection's input ({@code expr}).
     */
    record OrderItem(String output, Expr expr, boolean ascending, boolean nullsFirst) {
        OrderItem withExpr(Expr e) {
            return new OrderItem(output, e, ascending, nullsFirst);
        }
    }

    /**
     * The select list. An unaliased column reference ({@code t.k} or {@code k}), and each column of
     * {@code *}, is named by the column's unqualified name ({@code k}), as in DuckDB, unless another
     * output would have that name too: then it keeps its qualified name ({@code t.k}).
     */
    static List<SelectItem> selectItems(SqlNodeList list, TableScope scope, ExpressionTranslator translator) {
        record Candidate(Expr expr, String name, String fallback, boolean aliased) {
        }
        List<Candidate> candidates = new ArrayList<>();
        for (SqlNode node : list) {
            if (node instanceof SqlIdentifier id && id.isStar()) {
                for (TableScope.StarColumn c : scope.allColumns(id)) {
                    candidates.add(new Candidate(c.expr(), c.shortName(), c.fieldName(), false));
                }
            } else if (node.getKind() == SqlKind.AS) {
                SqlCall as = (SqlCall) node;
                Expr expr = translator.translate(as.operand(0));
                candidates.add(new Candidate(expr, ((SqlIdentifier) as.operand(1)).getSimple(), null, true));
            } else {
                Expr expr = translator.translate(node);
                if (node instanceof SqlIdentifier && expr instanceof Column c) {
                    candidates.add(new Candidate(expr, SubqueryAlias.unqualified(c.column()), c.column(), false));
                } else if (node instanceof SqlIdentifier id) {
                    candidates.add(new Candidate(expr, id.names.get(id.names.size() - 1), null, false));
                } else {
                    candidates.add(new Candidate(expr, expr.name(), null, false));
                }
            }
        }
        Map<String, Integer> uses = new HashMap<>();
        for (Candidate c : candidates) {
            uses.merge(c.name().toLowerCase(Locale.ROOT), 1, Integer::sum);
        }
        List<SelectItem> items = new ArrayList<>();
        for (Candidate c : candidates) {
            boolean clash = uses.get(c.name().toLowerCase(Locale.ROOT)) > 1;
            String name = clash && c.fallback() != null ? c.fallback() : c.name();
            items.add(new SelectItem(c.expr(), name, c.aliased()));
        }
        return items;
    }

    static Map<String, Expr> aliases(List<SelectItem> items) {
        Map<String, Expr> out = new LinkedHashMap<>();
        for (SelectItem item : items) {
            if (item.aliased()) {
                out.putIfAbsent(item.name(), item.expr());
            }
        }
        return out;
    }

    /** GROUP BY entries: input expressions, select-list positions or select aliases; deduplicated. */
    static List<Expr> groupBy(SqlNodeList group, List<SelectItem> items, ExpressionTranslator translator) {
        if (group == null) {
            return List.of();
        }
        LinkedHashSet<Expr> out = new LinkedHashSet<>();
        for (SqlNode node : group) {
            if (node instanceof SqlNodeList list && list.isEmpty()) {
                continue; // GROUP BY (): one global group
            }
            out.add(groupItem(node, items, translator));
        }
        return List.copyOf(out);
    }

    /** One GROUP BY expression: a select-list position, else an expression over the input or a select alias. */
    static Expr groupItem(SqlNode node, List<SelectItem> items, ExpressionTranslator translator) {
        Integer position = ordinal(node);
        return position != null ? items.get(checkPosition(position, items, "GROUP BY")).expr() : translator.translate(node);
    }

    static List<OrderItem> orderItems(SqlNodeList orderList, List<SelectItem> items,
            ExpressionTranslator translator) {
        List<OrderItem> out = new ArrayList<>();
        if (orderList == null) {
            return out;
        }
        for (SqlNode node : orderList) {
            boolean ascending = true;
            boolean nullsFirst = false; // DuckDB's default, in both directions
            while (node instanceof SqlCall call) {
                SqlKind kind = call.getKind();
                if (kind == SqlKind.DESCENDING) {
                    ascending = false;
                } else if (kind == SqlKind.NULLS_FIRST) {
                    nullsFirst = true;
                } else if (kind == SqlKind.NULLS_LAST) {
                    nullsFirst = false;
                } else {
                    break;
                }
                node = call.operand(0);
            }
            Integer position = ordinal(node);
            String output = null;
            Expr expr = null;
            if (position != null) {
                output = items.get(checkPosition(position, items, "ORDER BY")).name();
            } else if (node instanceof SqlIdentifier id && id.isSimple()) {
                output = outputNamed(id.getSimple(), items);
            }
            if (output == null) {
                expr = translator.translate(node);
            }
            out.add(new OrderItem(output, expr, ascending, nullsFirst));
        }
        return out;
    }

    /** The output name of the select item computing exactly {@code expr}, or null. */
    static String outputFor(Expr expr, List<SelectItem> items) {
        for (SelectItem item : items) {
            if (item.expr().equals(expr)) {
                return item.name();
            }
        }
        return null;
    }

    /** The select output called {@code name}: exact spelling first, then case-insensitively. */
    private static String outputNamed(String name, List<SelectItem> items) {
        for (SelectItem item : items) {
            if (item.name().equals(name)) {
                return item.name();
            }
        }
        for (SelectItem item : items) {
            if (item.name().equalsIgnoreCase(name)) {
                return item.name();
            }
        }
        return null;
    }

    /** An integer literal in GROUP BY / ORDER BY is a 1-based select-list position. */
    private static Integer ordinal(SqlNode node) {
        if (node instanceof SqlNumericLiteral n && n.isExact()) {
            BigDecimal value = n.getValueAs(BigDecimal.class);
            if (value.scale() <= 0) {
                try {
                    return value.intValueExact();
                } catch (ArithmeticException e) {
                    return Integer.MAX_VALUE;
                }
            }
        }
        return null;
    }

    private static int checkPosition(int position, List<SelectItem> items, String clause) {
        if (position < 1 || position > items.size()) {
            throw new SluiceException(clause + " position " + position + " is not in the select list (1 to "
                    + items.size() + ")");
        }
        return position - 1;
    }
}
