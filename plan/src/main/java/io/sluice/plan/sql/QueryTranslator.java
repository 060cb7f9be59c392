package io.sluice.plan.sql;

import static java.util.Objects.requireNonNull;

import io.sluice.plan.SluiceException;
import io.sluice.plan.expr.Alias;
import io.sluice.plan.expr.Column;
import io.sluice.plan.expr.Expr;
import io.sluice.plan.expr.Exprs;
import io.sluice.plan.expr.SortKey;
import io.sluice.plan.logical.Aggregate;
import io.sluice.plan.logical.Filter;
import io.sluice.plan.logical.Limit;
import io.sluice.plan.logical.LogicalPlan;
import io.sluice.plan.logical.Projection;
import io.sluice.plan.logical.Sort;
import io.sluice.plan.logical.TableScan;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;

/**
 * Turns a single-table SELECT into a logical plan of one fixed shape:
 * {@code TableScan → Filter(WHERE) → [Aggregate → Filter(HAVING)] → Projection(select list, plus
 * hidden sort columns) → [Aggregate(DISTINCT)] → [Sort] → [Projection dropping hidden columns] →
 * [Limit]}. A fixed shape keeps plans predictable for the optimizer and for tests.
 */
final class QueryTranslator {
    private final Catalog catalog;

    QueryTranslator(Catalog catalog) {
        this.catalog = requireNonNull(catalog, "catalog is null");
    }

    LogicalPlan translate(SqlNode query) {
        if (query instanceof SqlOrderBy orderBy) {
            if (!(orderBy.query instanceof SqlSelect select)) {
                throw SqlErrors.unsupported(describe(orderBy.query));
            }
            return select(select, orderBy.orderList, orderBy.offset, orderBy.fetch);
        }
        if (query instanceof SqlSelect select) {
            return select(select, select.getOrderList(), select.getOffset(), select.getFetch());
        }
        throw SqlErrors.unsupported(describe(query));
    }

    /** A select-list entry: its expression over the current input and its output column name. */
    private record SelectItem(Expr expr, String name, boolean aliased) {
        Expr projected() {
            return expr.name().equals(name) ? expr : new Alias(expr, name);
        }
    }

    /**
     * An ORDER BY key, before the projection exists: either a select output ({@code output}) or an
     * expression over the projection's input ({@code expr}).
     */
    private record OrderItem(String output, Expr expr, boolean ascending, boolean nullsFirst) {
        OrderItem withExpr(Expr e) {
            return new OrderItem(output, e, ascending, nullsFirst);
        }
    }

    private LogicalPlan select(SqlSelect select, SqlNodeList orderList, SqlNode offset, SqlNode fetch) {
        rejectUnsupportedClauses(select);
        TableScope scope = from(select.getFrom());
        ExpressionTranslator columnsOnly = new ExpressionTranslator(scope);

        LogicalPlan plan = new TableScan(scope.table());
        if (select.getWhere() != null) {
            plan = new Filter(plan, columnsOnly.translate(select.getWhere()));
        }

        List<SelectItem> items = selectItems(select.getSelectList(), scope, columnsOnly);
        ExpressionTranslator withAliases = new ExpressionTranslator(scope, aliases(items));
        List<Expr> groupBy = groupBy(select.getGroup(), items, withAliases);
        Expr having = select.getHaving() == null ? null : withAliases.translate(select.getHaving());
        List<OrderItem> order = orderItems(orderList, items, withAliases);

        List<Expr> mayAggregate = new ArrayList<>();
        items.forEach(i -> mayAggregate.add(i.expr()));
        if (having != null) {
            mayAggregate.add(having);
        }
        order.stream().filter(o -> o.expr() != null).forEach(o -> mayAggregate.add(o.expr()));
        boolean grouped = select.getGroup() != null && !select.getGroup().isEmpty(); // GROUP BY () too
        boolean aggregating = grouped || having != null
                || mayAggregate.stream().anyMatch(Exprs::containsAggregate);

        if (aggregating) {
            List<Expr> calls = new ArrayList<>(AggregateRewriter.collectAggregates(mayAggregate));
            plan = new Aggregate(plan, groupBy, calls);
            AggregateRewriter rewriter = new AggregateRewriter(groupBy);
            if (having != null) {
                plan = new Filter(plan, rewriter.rewrite(having));
            }
            items = items.stream().map(i -> new SelectItem(rewriter.rewrite(i.expr()), i.name(), i.aliased())).toList();
            order = order.stream().map(o -> o.expr() == null ? o : o.withExpr(rewriter.rewrite(o.expr()))).toList();
        }
        return project(plan, items, order, select.isDistinct(), offset, fetch);
    }

    /** Projection, DISTINCT, Sort (with hidden key columns when needed) and Limit. */
    private LogicalPlan project(LogicalPlan plan, List<SelectItem> items, List<OrderItem> order, boolean distinct,
            SqlNode offset, SqlNode fetch) {
        List<Expr> exprs = new ArrayList<>();
        List<Expr> visible = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (SelectItem item : items) {
            exprs.add(item.projected());
            visible.add(new Column(item.name()));
            names.add(item.name());
        }
        Map<Expr, String> hidden = new LinkedHashMap<>();
        List<SortKey> keys = new ArrayList<>();
        for (OrderItem o : order) {
            String name = o.output() != null ? o.output() : outputFor(o.expr(), items);
            if (name == null) {
                if (distinct) {
                    throw new SluiceException("for SELECT DISTINCT, ORDER BY expressions must appear in the select list: "
                            + o.expr());
                }
                name = hidden.get(o.expr());
                if (name == null) {
                    name = freshName(o.expr().name(), names);
                    names.add(name);
                    hidden.put(o.expr(), name);
                    exprs.add(o.expr().name().equals(name) ? o.expr() : new Alias(o.expr(), name));
                }
            }
            keys.add(new SortKey(new Column(name), o.ascending(), o.nullsFirst()));
        }

        plan = new Projection(plan, exprs);
        if (distinct) {
            plan = new Aggregate(plan, visible, List.of());
        }
        if (!keys.isEmpty()) {
            plan = new Sort(plan, keys);
        }
        if (!hidden.isEmpty()) {
            plan = new Projection(plan, visible);
        }
        if (offset != null || fetch != null) {
            plan = new Limit(plan, offset == null ? 0 : count(offset, "OFFSET"),
                    fetch == null ? Long.MAX_VALUE : count(fetch, "LIMIT"));
        }
        return plan;
    }

    /** The output name of the select item computing exactly {@code expr}, or null. */
    private static String outputFor(Expr expr, List<SelectItem> items) {
        for (SelectItem item : items) {
            if (item.expr().equals(expr)) {
                return item.name();
            }
        }
        return null;
    }

    /** {@code preferred} unless an output column already has that name (case-insensitively). */
    private static String freshName(String preferred, List<String> taken) {
        String name = preferred;
        for (int i = 1; containsIgnoreCase(taken, name); i++) {
            name = "__sort_key_" + i;
        }
        return name;
    }

    private static boolean containsIgnoreCase(List<String> names, String name) {
        return names.stream().anyMatch(n -> n.equalsIgnoreCase(name));
    }

    private static void rejectUnsupportedClauses(SqlSelect select) {
        if (select.getWindowList() != null && !select.getWindowList().isEmpty()) {
            throw SqlErrors.unsupported("WINDOW clause");
        }
        if (select.getQualify() != null) {
            throw SqlErrors.unsupported("QUALIFY");
        }
    }

    private TableScope from(SqlNode from) {
        if (from == null) {
            throw SqlErrors.unsupported("SELECT without FROM");
        }
        String alias = null;
        if (from.getKind() == SqlKind.AS) {
            SqlCall as = (SqlCall) from;
            if (as.operandCount() > 2) {
                throw SqlErrors.unsupported("column aliases on a table in FROM");
            }
            alias = ((SqlIdentifier) as.operand(1)).getSimple();
            from = as.operand(0);
        }
        if (from instanceof SqlIdentifier id) {
            return new TableScope(catalog.table(String.join(".", id.names)), alias);
        }
        if (from instanceof SqlJoin) {
            throw SqlErrors.unsupported("JOIN");
        }
        throw SqlErrors.unsupported(describe(from) + " in FROM");
    }

    private static List<SelectItem> selectItems(SqlNodeList list, TableScope scope, ExpressionTranslator translator) {
        List<SelectItem> items = new ArrayList<>();
        for (SqlNode node : list) {
            if (node instanceof SqlIdentifier id && id.isStar()) {
                for (Column c : scope.allColumns(id)) {
                    items.add(new SelectItem(c, c.name(), false));
                }
            } else if (node.getKind() == SqlKind.AS) {
                SqlCall as = (SqlCall) node;
                Expr expr = translator.translate(as.operand(0));
                items.add(new SelectItem(expr, ((SqlIdentifier) as.operand(1)).getSimple(), true));
            } else {
                Expr expr = translator.translate(node);
                items.add(new SelectItem(expr, expr.name(), false));
            }
        }
        return items;
    }

    private static Map<String, Expr> aliases(List<SelectItem> items) {
        Map<String, Expr> out = new LinkedHashMap<>();
        for (SelectItem item : items) {
            if (item.aliased()) {
                out.putIfAbsent(item.name(), item.expr());
            }
        }
        return out;
    }

    /** GROUP BY entries: input expressions, select-list positions or select aliases; deduplicated. */
    private static List<Expr> groupBy(SqlNodeList group, List<SelectItem> items, ExpressionTranslator translator) {
        if (group == null) {
            return List.of();
        }
        LinkedHashSet<Expr> out = new LinkedHashSet<>();
        for (SqlNode node : group) {
            switch (node.getKind()) {
                case ROLLUP, CUBE, GROUPING_SETS -> throw SqlErrors.unsupported(node.getKind().name().replace('_', ' '));
                default -> { }
            }
            if (node instanceof SqlNodeList list && list.isEmpty()) {
                continue; // GROUP BY (): one global group
            }
            Integer position = ordinal(node);
            out.add(position != null ? items.get(checkPosition(position, items, "GROUP BY")).expr() : translator.translate(node));
        }
        return List.copyOf(out);
    }

    private static List<OrderItem> orderItems(SqlNodeList orderList, List<SelectItem> items,
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

    private static long count(SqlNode node, String clause) {
        if (node instanceof SqlNumericLiteral n && n.isExact()) {
            try {
                return n.getValueAs(BigDecimal.class).longValueExact();
            } catch (ArithmeticException e) {
                throw new SluiceException(clause + " must be a whole number: " + n);
            }
        }
        throw SqlErrors.unsupported(clause + " " + node + " (only an integer constant is supported)");
    }

    /** Names a top-level construct for an "unsupported SQL" error. */
    static String describe(SqlNode node) {
        return switch (node.getKind()) {
            case SELECT, ORDER_BY -> "subquery";
            default -> node.getKind().name().replace('_', ' ');
        };
    }
}
