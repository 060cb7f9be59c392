package io.sluice.sql;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.logical.expr.AggregateCall;
import io.sluice.logical.expr.AggregateFunction;
import io.sluice.logical.expr.Alias;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Exprs;
import io.sluice.logical.expr.GroupingCall;
import io.sluice.logical.expr.SortKey;
import io.sluice.logical.plan.Aggregate;
import io.sluice.logical.plan.EmptyRelation;
import io.sluice.logical.plan.Filter;
import io.sluice.logical.plan.Limit;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.plan.Projection;
import io.sluice.logical.plan.Sort;
import io.sluice.logical.plan.Union;
import io.sluice.logical.plan.WindowPlanner;
import io.sluice.sql.SelectItems.OrderItem;
import io.sluice.sql.SelectItems.SelectItem;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlWith;
import org.apache.calcite.sql.SqlWithItem;

/**
 * Turns a query into a logical plan. A SELECT has one fixed shape: {@code FROM (a TableScan, or
 * Joins of SubqueryAlias-wrapped relations) → Filter(WHERE) → [Aggregate → Filter(HAVING)] →
 * Projection(select list, plus hidden sort columns) → [Aggregate(DISTINCT)] → [Sort] → [Projection dropping hidden columns] →
 * [Limit]}. A fixed shape keeps plans predictable for the optimizer and for tests. The FROM clause
 * is {@link FromTranslator}'s job, set operations {@link SetOperations}', and resolving the select
 * list and the GROUP BY / ORDER BY entries that refer to it {@link SelectItems}'.
 */
final class QueryTranslator {
    private final Catalog catalog;
    private final List<TableScope> outer; // the enclosing queries' FROM scopes, nearest first
    private final Map<String, LogicalPlan> ctes; // WITH names in scope, case-insensitive
    private final FromTranslator fromClause;

    QueryTranslator(Catalog catalog) {
        this(catalog, List.of(), Map.of());
    }

    /**
     * A translator for a subquery in an expression of queries whose FROMs read {@code outer}
     * (nearest first): a column this query does not have but one of them has (the nearest that
     * does) becomes an {@link io.sluice.logical.expr.OuterColumn}, at any depth.
     */
    QueryTranslator(Catalog catalog, List<TableScope> outer, Map<String, LogicalPlan> ctes) {
        this.catalog = requireNonNull(catalog, "catalog is null");
        this.outer = List.copyOf(outer);
        TreeMap<String, LogicalPlan> names = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        names.putAll(ctes);
        this.ctes = names;
        this.fromClause = new FromTranslator(catalog, this.outer, this.ctes);
    }

    LogicalPlan translate(SqlNode query) {
        if (query instanceof OrganizedQuery organized) {
            return organized.organize(translate(organized.query()));
        }
        if (query instanceof SqlWith with) {
            return with(with);
        }
        if (query.getKind() == SqlKind.VALUES) {
            return values((SqlCall) query);
        }
        if (query instanceof SqlOrderBy orderBy) {
            if (orderBy.query instanceof SqlWith with) { // the parser hangs ORDER BY / LIMIT above the WITH
                return with(new SqlWith(with.getParserPosition(), with.withList, new SqlOrderBy(orderBy.getParserPosition(),
                        with.body, orderBy.orderList, orderBy.offset, orderBy.fetch)));
            }
            if (orderBy.query instanceof SqlSelect select) {
                return select(select, orderBy.orderList, orderBy.offset, orderBy.fetch);
            }
            if (SetOperations.isSetOperation(orderBy.query) || orderBy.query instanceof OrganizedQuery) {
                return orderSetOperation(translate(orderBy.query), orderBy.orderList, orderBy.offset, orderBy.fetch);
            }
            throw SqlErrors.unsupported(describe(orderBy.query));
        }
        if (query instanceof SqlSelect select) {
            return select(select, select.getOrderList(), select.getOffset(), select.getFetch());
        }
        if (SetOperations.isSetOperation(query)) {
            return setOperation((SqlCall) query);
        }
        throw SqlErrors.unsupported(describe(query));
    }

    /**
     * {@code WITH a [(c, ...)] AS (query), ... body}: each query is planned once, seeing the names
     * before it, and every reference to its name (in the body, in subqueries, in later WITH queries)
     * reads that plan. A WITH name hides a table of the same name.
     */
    private LogicalPlan with(SqlWith with) {
        Map<String, LogicalPlan> names = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        names.putAll(ctes);
        for (SqlNode node : with.withList) {
            SqlWithItem item = (SqlWithItem) node;
            String name = item.name.getSimple();
            if (names.containsKey(name) && !ctes.containsKey(name)) {
                throw new SluiceException("WITH name '" + name + "' is defined twice");
            }
            LogicalPlan plan = new QueryTranslator(catalog, outer, names).translate(item.query);
            names.put(name, renameColumns(plan, item.columnList, "WITH " + name));
        }
        return new QueryTranslator(catalog, outer, names).translate(with.body);
    }

    /** {@code plan} with its columns renamed to {@code columns} (null: unchanged); counts must match. */
    static LogicalPlan renameColumns(LogicalPlan plan, SqlNodeList columns, String what) {
        if (columns == null) {
            return plan;
        }
        List<String> names = new ArrayList<>();
        for (SqlNode column : columns) {
            names.add(((SqlIdentifier) column).getSimple());
        }
        return renameColumns(plan, names, what);
    }

    /** {@code plan} with its columns renamed to {@code aliases}; {@code what} names the renaming in errors. */
    static LogicalPlan renameColumns(LogicalPlan plan, List<String> aliases, String what) {
        List<String> names = plan.schema().names();
        if (aliases.size() != names.size()) {
            throw new SluiceException(what + " names " + aliases.size() + " column" + (aliases.size() == 1 ? "" : "s")
                    + " but its query has " + names.size() + ": " + String.join(", ", names));
        }
        List<Expr> exprs = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        boolean renamed = false;
        for (int i = 0; i < names.size(); i++) {
            String alias = aliases.get(i);
            if (!seen.add(alias.toLowerCase(Locale.ROOT))) {
                throw new SluiceException(what + " names column '" + alias + "' twice");
            }
            Column column = new Column(names.get(i));
            renamed |= !names.get(i).equals(alias);
            exprs.add(names.get(i).equals(alias) ? column : new Alias(column, alias));
        }
        return renamed ? new Projection(plan, exprs) : plan;
    }

    /**
     * {@code VALUES (a, b), (c, d)}: one single-row projection per row, united; columns are named
     * {@code col0, col1, ...} as in DuckDB and take the widened type of their values.
     */
    private LogicalPlan values(SqlCall values) {
        ExpressionTranslator constants = new ExpressionTranslator(TableScope.result(oneRow().schema(), "VALUES"));
        List<List<Expr>> rows = new ArrayList<>();
        for (SqlNode row : values.getOperandList()) {
            List<SqlNode> items = row.getKind() == SqlKind.ROW ? ((SqlCall) row).getOperandList() : List.of(row);
            if (!rows.isEmpty() && items.size() != rows.get(0).size()) {
                throw new SluiceException("VALUES rows must all have " + rows.get(0).size()
                        + " values; found a row with " + items.size());
            }
            List<Expr> exprs = new ArrayList<>();
            items.forEach(item -> exprs.add(constants.translate(item)));
            rows.add(exprs);
        }
        List<String> names = new ArrayList<>();
        for (int i = 0; i < rows.get(0).size(); i++) {
            names.add("col" + i);
        }
        return constantRows(names, rows);
    }

    /**
     * Rows of constant expressions under the given column names: one single-row projection per row,
     * united (columns take the widened type); no rows is an empty relation of UTF8 columns.
     */
    static LogicalPlan constantRows(List<String> names, List<List<Expr>> rows) {
        if (rows.isEmpty()) {
            List<Field> fields = new ArrayList<>();
            names.forEach(n -> fields.add(new Field(n, DataType.UTF8)));
            return new EmptyRelation(new Schema(fields));
        }
        List<LogicalPlan> plans = new ArrayList<>();
        for (List<Expr> row : rows) {
            List<Expr> exprs = new ArrayList<>();
            for (int i = 0; i < row.size(); i++) {
                exprs.add(new Alias(row.get(i), names.get(i)));
            }
            plans.add(new Projection(oneRow(), exprs));
        }
        return plans.size() == 1 ? plans.get(0) : Union.coerced(plans);
    }

    /** A relation of one row and one column, the FROM of a query without one. */
    static LogicalPlan oneRow() {
        return new Aggregate(new EmptyRelation(new Schema(List.of())), List.of(),
                List.of(new AggregateCall(AggregateFunction.COUNT_STAR, null)));
    }

    private LogicalPlan setOperation(SqlCall call) {
        return SetOperations.plan(call, this::translate);
    }

    /** Plans a subquery of an expression over {@code scope}: its enclosing scopes are {@code scope}, then ours. */
    private ExpressionTranslator.SubqueryPlanner subqueryPlanner(TableScope scope) {
        return subqueryPlanner(catalog, scope, outer, ctes);
    }

    /**
     * Plans a subquery of an expression over {@code scope} in a query whose enclosing scopes are
     * {@code outer}: the subquery's enclosing scopes are {@code scope}, then {@code outer}.
     */
    static ExpressionTranslator.SubqueryPlanner subqueryPlanner(Catalog catalog, TableScope scope,
            List<TableScope> outer, Map<String, LogicalPlan> ctes) {
        List<TableScope> enclosing = new ArrayList<>();
        enclosing.add(scope);
        enclosing.addAll(outer);
        return node -> new QueryTranslator(catalog, enclosing, ctes).translate(node);
    }

    private LogicalPlan select(SqlSelect select, SqlNodeList orderList, SqlNode offset, SqlNode fetch) {
        NamedWindows.resolve(select, orderList);
        Unnests.moveSelectGenerator(select);
        FromTranslator.From from = fromClause.translate(select.getFrom());
        TableScope scope = from.scope();
        ExpressionTranslator.SubqueryPlanner subqueries = subqueryPlanner(scope);
        ExpressionTranslator columnsOnly = new ExpressionTranslator(scope, Map.of(), outer, subqueries);

        LogicalPlan plan = SelectHints.broadcast(select, from.plan());
        if (select.getWhere() != null) {
            plan = new Filter(plan, noWindow(columnsOnly.translate(select.getWhere()), "WHERE"));
        }

        List<SelectItem> items = SelectItems.selectItems(select.getSelectList(), scope, columnsOnly);
        ExpressionTranslator withAliases = new ExpressionTranslator(scope, SelectItems.aliases(items), outer, subqueries);
        List<SelectItem> listed = items;
        List<List<Expr>> groupingSets = GroupingSets.present(select.getGroup())
                ? GroupingSets.of(select.getGroup(), node -> SelectItems.groupItem(node, listed, withAliases)) : null;
        List<Expr> groupBy = groupingSets == null ? SelectItems.groupBy(select.getGroup(), items, withAliases)
                : GroupingSets.union(groupingSets);
        groupBy.forEach(g -> noWindow(g, "GROUP BY"));
        Expr having = select.getHaving() == null ? null : noWindow(withAliases.translate(select.getHaving()), "HAVING");
        Expr qualify = select.getQualify() == null ? null : withAliases.translate(select.getQualify());
        List<OrderItem> order = SelectItems.orderItems(orderList, items, withAliases);

        List<Expr> mayAggregate = new ArrayList<>();
        items.forEach(i -> mayAggregate.add(i.expr()));
        if (having != null) {
            mayAggregate.add(having);
        }
        if (qualify != null) {
            mayAggregate.add(qualify);
        }
        order.stream().filter(o -> o.expr() != null).forEach(o -> mayAggregate.add(o.expr()));
        boolean grouped = select.getGroup() != null && !select.getGroup().isEmpty(); // GROUP BY () too
        boolean aggregating = grouped || having != null
                || mayAggregate.stream().anyMatch(Exprs::containsAggregate);

        if (aggregating) {
            List<Expr> calls = new ArrayList<>(AggregateRewriter.collectAggregates(mayAggregate));
            List<GroupingCall> groupingCalls = groupingCalls(mayAggregate, groupBy);
            LogicalPlan input = plan;
            if (groupingSets == null && groupingCalls.isEmpty()) {
                plan = aggregate(input, groupBy, calls);
            } else { // a plain GROUP BY is one grouping set, where grouping() is 0
                plan = GroupingSets.plan(input, groupBy, groupingSets == null ? List.of(groupBy) : groupingSets, calls,
                        groupingCalls, (set, c) -> aggregate(input, set, c));
            }
            AggregateRewriter rewriter = new AggregateRewriter(groupBy);
            if (having != null) {
                plan = new Filter(plan, rewriter.rewrite(having));
            }
            items = items.stream().map(i -> new SelectItem(rewriter.rewrite(i.expr()), i.name(), i.aliased())).toList();
            order = order.stream().map(o -> o.expr() == null ? o : o.withExpr(rewriter.rewrite(o.expr()))).toList();
            qualify = qualify == null ? null : rewriter.rewrite(qualify);
        }
        List<Expr> windowed = new ArrayList<>();
        items.forEach(i -> windowed.add(i.expr()));
        order.stream().filter(o -> o.expr() != null).forEach(o -> windowed.add(o.expr()));
        if (qualify != null) {
            if (!WindowPlanner.any(List.of(qualify))) {
                throw new SluiceException("QUALIFY needs a window function: " + qualify);
            }
            windowed.add(qualify);
        }
        if (WindowPlanner.any(windowed)) {
            WindowPlanner windows = WindowPlanner.plan(plan, windowed);
            plan = windows.plan();
            items = items.stream().map(i -> new SelectItem(windows.rewrite(i.expr()), i.name(), i.aliased())).toList();
            order = order.stream().map(o -> o.expr() == null ? o : o.withExpr(windows.rewrite(o.expr()))).toList();
            if (qualify != null) {
                plan = new Filter(plan, windows.rewrite(qualify));
            }
        }
        boolean ordered = orderList != null && !orderList.isEmpty() || offset != null || fetch != null;
        return SelectHints.repartition(select, project(plan, items, order, select.isDistinct(), offset, fetch), ordered);
    }

    /**
     * The {@code grouping(...)} calls among {@code exprs}, each of whose arguments must be a GROUP BY
     * expression.
     */
    private static List<GroupingCall> groupingCalls(List<Expr> exprs, List<Expr> groupBy) {
        List<GroupingCall> out = new ArrayList<>();
        for (GroupingCall call : AggregateRewriter.collectGroupingCalls(exprs)) {
            for (Expr a : call.args()) {
                if (!groupBy.contains(a)) {
                    throw new SluiceException(call.function() + "() takes GROUP BY expressions only, and " + a
                            + " is not one");
                }
            }
            out.add(call);
        }
        return out;
    }

    /** {@code e}, which must not call a window function in {@code clause}. */
    private static Expr noWindow(Expr e, String clause) {
        if (Exprs.containsWindow(e)) {
            throw new SluiceException("window functions are not allowed in " + clause + ": " + e
                    + " (filter on a window in an enclosing query or with QUALIFY)");
        }
        return e;
    }

    /** An aggregation with the output of {@link Aggregate}: group-by columns, then each call by name. */
    private static LogicalPlan aggregate(LogicalPlan input, List<Expr> groupBy, List<Expr> calls) {
        return DistinctAggregates.any(calls) ? DistinctAggregates.plan(input, groupBy, calls)
                : new Aggregate(input, groupBy, calls);
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
            String name = o.output() != null ? o.output() : SelectItems.outputFor(o.expr(), items);
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
        return limit(plan, offset, fetch);
    }

    private static LogicalPlan limit(LogicalPlan plan, SqlNode offset, SqlNode fetch) {
        if (offset == null && fetch == null) {
            return plan;
        }
        return new Limit(plan, offset == null ? 0 : count(offset, "OFFSET"),
                fetch == null ? Long.MAX_VALUE : count(fetch, "LIMIT"));
    }

    /**
     * ORDER BY / LIMIT after a set operation: keys are output columns (by name or position) or
     * expressions over them.
     */
    private static LogicalPlan orderSetOperation(LogicalPlan plan, SqlNodeList orderList, SqlNode offset,
            SqlNode fetch) {
        List<SelectItem> items = new ArrayList<>();
        for (String name : plan.schema().names()) {
            items.add(new SelectItem(new Column(name), name, false));
        }
        ExpressionTranslator translator = new ExpressionTranslator(TableScope.result(plan.schema(), "the result of UNION"));
        List<SortKey> keys = new ArrayList<>();
        for (OrderItem o : SelectItems.orderItems(orderList, items, translator)) {
            Expr key = o.output() != null ? new Column(o.output()) : o.expr();
            keys.add(new SortKey(key, o.ascending(), o.nullsFirst()));
        }
        if (!keys.isEmpty()) {
            plan = new Sort(plan, keys);
        }
        return limit(plan, offset, fetch);
    }

    /** {@code preferred} unless an output column already has that name (case-insensitively). */
    static String freshName(String preferred, List<String> taken) {
        String name = preferred;
        for (int i = 1; containsIgnoreCase(taken, name); i++) {
            name = "__sort_key_" + i;
        }
        return name;
    }

    private static boolean containsIgnoreCase(List<String> names, String name) {
        return names.stream().anyMatch(n -> n.equalsIgnoreCase(name));
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
