package io.sluice.sql;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.BinaryOp;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.logical.expr.AggregateCall;
import io.sluice.logical.expr.AggregateFunction;
import io.sluice.logical.expr.Alias;
import io.sluice.logical.expr.Binary;
import io.sluice.logical.expr.Case;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Exprs;
import io.sluice.logical.expr.GroupingCall;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.expr.SortKey;
import io.sluice.logical.expr.Unary;
import io.sluice.logical.plan.Aggregate;
import io.sluice.logical.plan.EmptyRelation;
import io.sluice.logical.plan.Filter;
import io.sluice.logical.plan.Join;
import io.sluice.logical.plan.JoinType;
import io.sluice.logical.plan.Limit;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.plan.Projection;
import io.sluice.logical.plan.Sort;
import io.sluice.logical.plan.SubqueryAlias;
import io.sluice.logical.plan.TableScan;
import io.sluice.logical.plan.Union;
import io.sluice.logical.plan.WindowPlanner;
import io.sluice.logical.source.TableSource;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlSetOperator;
import org.apache.calcite.sql.SqlWith;
import org.apache.calcite.sql.SqlWithItem;

/**
 * Turns a query into a logical plan. A SELECT has one fixed shape: {@code FROM (a TableScan, or
 * Joins of SubqueryAlias-wrapped relations) → Filter(WHERE) → [Aggregate → Filter(HAVING)] →
 * Projection(select list, plus hidden sort columns) → [Aggregate(DISTINCT)] → [Sort] → [Projection dropping hidden columns] →
 * [Limit]}. A fixed shape keeps plans predictable for the optimizer and for tests. Set operations
 * are unions (see {@link #setOperation}); subqueries in FROM are planned by a translator of their own.
 */
final class QueryTranslator {
    private final Catalog catalog;
    private final List<TableScope> outer; // the enclosing queries' FROM scopes, nearest first
    private final Map<String, LogicalPlan> ctes; // WITH names in scope, case-insensitive
    private int unnamedSubqueries;

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
    }

    LogicalPlan translate(SqlNode query) {
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
            if (isSetOperation(orderBy.query)) {
                return orderSetOperation(setOperation((SqlCall) orderBy.query), orderBy.orderList, orderBy.offset,
                        orderBy.fetch);
            }
            throw SqlErrors.unsupported(describe(orderBy.query));
        }
        if (query instanceof SqlSelect select) {
            return select(select, select.getOrderList(), select.getOffset(), select.getFetch());
        }
        if (isSetOperation(query)) {
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
    private static LogicalPlan renameColumns(LogicalPlan plan, SqlNodeList columns, String what) {
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
    private static LogicalPlan oneRow() {
        return new Aggregate(new EmptyRelation(new Schema(List.of())), List.of(),
                List.of(new AggregateCall(AggregateFunction.COUNT_STAR, null)));
    }

    private static boolean isSetOperation(SqlNode node) {
        return switch (node.getKind()) {
            case UNION, INTERSECT, EXCEPT -> true;
            default -> false;
        };
    }

    /**
     * {@code UNION ALL} is a {@link Union} of every input of the chain; {@code UNION} is an
     * {@link Aggregate} grouping by every column over such a union (the distinct rows). Inputs are
     * cast to the widened column types; columns take the first input's names.
     */
    private LogicalPlan setOperation(SqlCall call) {
        boolean all = ((SqlSetOperator) call.getOperator()).isAll();
        if (call.getKind() != SqlKind.UNION) {
            if (all) {
                throw SqlErrors.unsupported(call.getKind().name() + " ALL");
            }
            return intersectOrExcept(translate(call.operand(0)), translate(call.operand(1)),
                    call.getKind() == SqlKind.INTERSECT);
        }
        List<SqlNode> leaves = new ArrayList<>();
        unionLeaves(call, all, leaves);
        List<LogicalPlan> inputs = new ArrayList<>(leaves.size());
        for (SqlNode leaf : leaves) {
            inputs.add(translate(leaf));
        }
        LogicalPlan union = Union.coerced(inputs);
        if (all) {
            return union;
        }
        List<Expr> columns = new ArrayList<>();
        for (String name : union.schema().names()) {
            columns.add(new Column(name));
        }
        return new Aggregate(union, columns, List.of());
    }

    /**
     * {@code INTERSECT} / {@code EXCEPT} (distinct): both inputs, each row tagged with the side it
     * comes from, are united and grouped by every column (so NULLs match NULLs, as set operations
     * require); a group is kept when both sides have it (INTERSECT) or only the left one does
     * (EXCEPT). Columns take the left input's names and the widened types.
     */
    private static LogicalPlan intersectOrExcept(LogicalPlan left, LogicalPlan right, boolean intersect) {
        if (left.schema().size() != right.schema().size()) {
            throw new SluiceException((intersect ? "INTERSECT" : "EXCEPT") + " inputs have different numbers of"
                    + " columns: " + left.schema().size() + " and " + right.schema().size());
        }
        List<String> names = left.schema().names();
        String leftTag = freshName("__left_rows", names);
        String rightTag = freshName("__right_rows", names);
        List<Expr> columns = new ArrayList<>();
        for (String name : names) {
            columns.add(new Column(name));
        }
        LogicalPlan union = Union.coerced(List.of(tagged(left, names, 1, 0, leftTag, rightTag),
                tagged(right, names, 0, 1, leftTag, rightTag)));
        AggregateCall leftRows = new AggregateCall(AggregateFunction.SUM, new Column(leftTag));
        AggregateCall rightRows = new AggregateCall(AggregateFunction.SUM, new Column(rightTag));
        LogicalPlan grouped = new Aggregate(union, columns, List.of(leftRows, rightRows));
        Expr onLeft = new Binary(BinaryOp.GT, new Column(leftRows.name()), Literal.of(0L));
        Expr onRight = new Binary(intersect ? BinaryOp.GT : BinaryOp.EQ, new Column(rightRows.name()), Literal.of(0L));
        return new Projection(new Filter(grouped, new Binary(BinaryOp.AND, onLeft, onRight)), columns);
    }

    /** {@code input}'s columns renamed to {@code names}, then the two side tags. */
    private static LogicalPlan tagged(LogicalPlan input, List<String> names, long left, long right, String leftTag,
            String rightTag) {
        List<Expr> exprs = new ArrayList<>();
        List<String> inputNames = input.schema().names();
        for (int i = 0; i < names.size(); i++) {
            Column c = new Column(inputNames.get(i));
            exprs.add(inputNames.get(i).equals(names.get(i)) ? c : new Alias(c, names.get(i)));
        }
        exprs.add(new Alias(Literal.of(left), leftTag));
        exprs.add(new Alias(Literal.of(right), rightTag));
        return new Projection(input, exprs);
    }

    /**
     * The inputs of a chain of unions. A distinct union also absorbs the inputs of the unions below it
     * (distinct or not: duplicates go anyway); a union all only those of unions all.
     */
    private static void unionLeaves(SqlCall union, boolean all, List<SqlNode> out) {
        for (SqlNode operand : union.getOperandList()) {
            if (operand.getKind() == SqlKind.UNION && operand instanceof SqlCall child
                    && (!all || ((SqlSetOperator) child.getOperator()).isAll())) {
                unionLeaves(child, all, out);
            } else {
                out.add(operand);
            }
        }
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

    /** Plans a subquery of an expression over {@code scope}: its enclosing scopes are {@code scope}, then ours. */
    private ExpressionTranslator.SubqueryPlanner subqueryPlanner(TableScope scope) {
        List<TableScope> enclosing = new ArrayList<>();
        enclosing.add(scope);
        enclosing.addAll(outer);
        return node -> new QueryTranslator(catalog, enclosing, ctes).translate(node);
    }

    private LogicalPlan select(SqlSelect select, SqlNodeList orderList, SqlNode offset, SqlNode fetch) {
        NamedWindows.resolve(select, orderList);
        From from = from(select.getFrom());
        TableScope scope = from.scope();
        ExpressionTranslator.SubqueryPlanner subqueries = subqueryPlanner(scope);
        ExpressionTranslator columnsOnly = new ExpressionTranslator(scope, Map.of(), outer, subqueries);

        LogicalPlan plan = from.plan();
        if (select.getWhere() != null) {
            plan = new Filter(plan, noWindow(columnsOnly.translate(select.getWhere()), "WHERE"));
        }

        List<SelectItem> items = selectItems(select.getSelectList(), scope, columnsOnly);
        ExpressionTranslator withAliases = new ExpressionTranslator(scope, aliases(items), outer, subqueries);
        List<SelectItem> listed = items;
        List<List<Expr>> groupingSets = GroupingSets.present(select.getGroup())
                ? GroupingSets.of(select.getGroup(), node -> groupItem(node, listed, withAliases)) : null;
        List<Expr> groupBy = groupingSets == null ? groupBy(select.getGroup(), items, withAliases)
                : GroupingSets.union(groupingSets);
        groupBy.forEach(g -> noWindow(g, "GROUP BY"));
        Expr having = select.getHaving() == null ? null : noWindow(withAliases.translate(select.getHaving()), "HAVING");
        Expr qualify = select.getQualify() == null ? null : withAliases.translate(select.getQualify());
        List<OrderItem> order = orderItems(orderList, items, withAliases);

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
        return project(plan, items, order, select.isDistinct(), offset, fetch);
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
        for (OrderItem o : orderItems(orderList, items, translator)) {
            Expr key = o.output() != null ? new Column(o.output()) : o.expr();
            keys.add(new SortKey(key, o.ascending(), o.nullsFirst()));
        }
        if (!keys.isEmpty()) {
            plan = new Sort(plan, keys);
        }
        return limit(plan, offset, fetch);
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

    /** What FROM reads: the plan producing its rows and the names its columns go by. */
    private record From(LogicalPlan plan, TableScope scope) {
    }

    /**
     * FROM: one table is read as is; several (joins, comma lists) or a subquery are each wrapped in a
     * {@link SubqueryAlias} named by the alias, else the table name, so that columns are
     * {@code q.c}.
     */
    private From from(SqlNode from) {
        if (from == null) {
            LogicalPlan one = oneRow();
            return new From(one, TableScope.result(new Schema(List.of()), "no table"));
        }
        return relation(from, !(from instanceof SqlJoin));
    }

    /**
     * One relation of FROM. A column alias list ({@code t AS x (a, b)}) renames the relation's
     * columns under a projection and reads it as a subquery named {@code x}; a subquery without an
     * alias is named {@code unnamed_subquery}, as in DuckDB.
     */
    private From relation(SqlNode node, boolean only) {
        String alias = null;
        SqlNodeList columnAliases = null;
        if (node.getKind() == SqlKind.AS) {
            SqlCall as = (SqlCall) node;
            alias = ((SqlIdentifier) as.operand(1)).getSimple();
            if (as.operandCount() > 2) {
                columnAliases = new SqlNodeList(as.getOperandList().subList(2, as.operandCount()), as.getParserPosition());
            }
            node = as.operand(0);
        }
        LogicalPlan named = node instanceof SqlIdentifier id ? namedQuery(id) : null;
        if (named != null) {
            SqlIdentifier id = (SqlIdentifier) node;
            String qualifier = alias != null ? alias : id.names.get(id.names.size() - 1);
            LogicalPlan plan = renameColumns(named, columnAliases, qualifier);
            return subquery(plan, qualifier, String.join(".", id.names) + (alias == null ? "" : " AS " + alias));
        }
        if (node instanceof SqlIdentifier id && columnAliases != null) {
            TableSource table = table(id);
            return subquery(renameColumns(new TableScan(table), columnAliases, alias), alias,
                    table.name() + " AS " + alias);
        }
        if (node instanceof SqlIdentifier id) {
            TableSource table = table(id);
            if (only) {
                return new From(new TableScan(table), TableScope.table(table, alias));
            }
            String qualifier = alias != null ? alias : id.names.get(id.names.size() - 1);
            SubqueryAlias plan = new SubqueryAlias(new TableScan(table), qualifier);
            return new From(plan, TableScope.relation(plan.schema(), qualifier,
                    alias == null ? table.name() : table.name() + " AS " + alias));
        }
        if (node instanceof SqlJoin join) {
            if (alias != null) {
                throw SqlErrors.unsupported("alias on a parenthesized join");
            }
            return join(join);
        }
        if (node instanceof SqlSelect || node instanceof SqlOrderBy || node instanceof SqlWith
                || node.getKind() == SqlKind.VALUES || isSetOperation(node)) {
            if (alias == null) {
                unnamedSubqueries++;
                alias = unnamedSubqueries == 1 ? "unnamed_subquery" : "unnamed_subquery" + unnamedSubqueries;
            }
            LogicalPlan plan = new QueryTranslator(catalog, outer, ctes).translate(node);
            return subquery(renameColumns(plan, columnAliases, alias), alias, "subquery AS " + alias);
        }
        throw SqlErrors.unsupported(describe(node) + " in FROM");
    }

    /** The plan a WITH name or, failing that, a view of the catalog stands for; null for a table. */
    private LogicalPlan namedQuery(SqlIdentifier id) {
        if (id.isSimple() && ctes.containsKey(id.getSimple())) {
            return ctes.get(id.getSimple());
        }
        return catalog.view(String.join(".", id.names));
    }

    /** The catalog's table {@code id}; an unknown name is reported at its position. */
    private TableSource table(SqlIdentifier id) {
        try {
            return catalog.table(String.join(".", id.names));
        } catch (SluiceException e) {
            throw SqlErrors.at(id.getParserPosition(), e);
        }
    }

    private static From subquery(LogicalPlan plan, String qualifier, String description) {
        SubqueryAlias aliased = new SubqueryAlias(plan, qualifier);
        return new From(aliased, TableScope.relation(aliased.schema(), qualifier, description));
    }

    /**
     * A join. Comma lists and CROSS JOIN are inner joins without keys (a WHERE stays a filter above).
     * Of an ON condition, each conjunct {@code a = b} where one side reads only left columns and the
     * other only right columns becomes a pair of join keys; the other conjuncts form the residual
     * filter. USING (c) joins on the two c columns and merges them (see {@link TableScope}).
     */
    private From join(SqlJoin join) {
        if (join.isNatural()) {
            throw SqlErrors.unsupported("NATURAL JOIN");
        }
        JoinType type = switch (join.getJoinType()) {
            case COMMA, CROSS, INNER -> JoinType.INNER;
            case LEFT -> JoinType.LEFT;
            case RIGHT -> JoinType.RIGHT;
            case FULL -> JoinType.FULL;
            default -> throw SqlErrors.unsupported(join.getJoinType().name().replace('_', ' ') + " JOIN");
        };
        From left = relation(join.getLeft(), false);
        From right = relation(join.getRight(), false);
        List<Expr> leftKeys = new ArrayList<>();
        List<Expr> rightKeys = new ArrayList<>();
        Expr residual = null;
        List<TableScope.UsingColumn> using = new ArrayList<>();
        switch (join.getConditionType()) {
            case NONE -> { }
            case ON -> {
                TableScope both = TableScope.join(left.scope(), right.scope(), List.of());
                Expr on = new ExpressionTranslator(both, Map.of(), outer, subqueryPlanner(both))
                        .translate(join.getCondition());
                Set<String> leftColumns = new HashSet<>(left.plan().schema().names());
                Set<String> rightColumns = new HashSet<>(right.plan().schema().names());
                List<Expr> rest = new ArrayList<>();
                for (Expr conjunct : Exprs.conjuncts(on)) {
                    if (conjunct instanceof Binary b && b.op() == BinaryOp.EQ) {
                        Set<String> l = Exprs.columns(b.left());
                        Set<String> r = Exprs.columns(b.right());
                        if (!l.isEmpty() && !r.isEmpty()) {
                            if (leftColumns.containsAll(l) && rightColumns.containsAll(r)) {
                                leftKeys.add(b.left());
                                rightKeys.add(b.right());
                                continue;
                            }
                            if (rightColumns.containsAll(l) && leftColumns.containsAll(r)) {
                                leftKeys.add(b.right());
                                rightKeys.add(b.left());
                                continue;
                            }
                        }
                    }
                    rest.add(conjunct);
                }
                residual = rest.isEmpty() ? null : Exprs.and(rest);
            }
            case USING -> {
                for (SqlNode node : (SqlNodeList) join.getCondition()) {
                    String name = ((SqlIdentifier) node).getSimple();
                    Expr l = usingSide(left.scope(), name, "left");
                    Expr r = usingSide(right.scope(), name, "right");
                    leftKeys.add(l);
                    rightKeys.add(r);
                    Expr merged = switch (type) {
                        case RIGHT -> r;
                        case FULL -> new Case(List.of(new Unary(Unary.Op.IS_NOT_NULL, l)), List.of(l), r);
                        default -> l;
                    };
                    using.add(new TableScope.UsingColumn(name, l.name(), r.name(), merged));
                }
            }
            default -> throw SqlErrors.unsupported(join.getConditionType() + " join condition");
        }
        TableScope scope = TableScope.join(left.scope(), right.scope(), using);
        Join plan = new Join(left.plan(), right.plan(), type, leftKeys, rightKeys, residual);
        return new From(plan, scope);
    }

    private static Expr usingSide(TableScope scope, String name, String side) {
        if (!scope.hasColumn(name)) {
            throw new SluiceException("USING column '" + name + "' is not a column of the " + side
                    + " side of the join; available columns: " + String.join(", ", scope.schema().names()));
        }
        return scope.unqualified(name);
    }

    /**
     * The select list. An unaliased column reference ({@code t.k} or {@code k}), and each column of
     * {@code *}, is named by the column's unqualified name ({@code k}), as in DuckDB, unless another
     * output would have that name too: then it keeps its qualified name ({@code t.k}).
     */
    private static List<SelectItem> selectItems(SqlNodeList list, TableScope scope, ExpressionTranslator translator) {
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
            if (node instanceof SqlNodeList list && list.isEmpty()) {
                continue; // GROUP BY (): one global group
            }
            out.add(groupItem(node, items, translator));
        }
        return List.copyOf(out);
    }

    /** One GROUP BY expression: a select-list position, else an expression over the input or a select alias. */
    private static Expr groupItem(SqlNode node, List<SelectItem> items, ExpressionTranslator translator) {
        Integer position = ordinal(node);
        return position != null ? items.get(checkPosition(position, items, "GROUP BY")).expr() : translator.translate(node);
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
