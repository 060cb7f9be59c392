package io.sluice.sql;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.BinaryOp;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.logical.expr.Binary;
import io.sluice.logical.expr.Case;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Exprs;
import io.sluice.logical.expr.Unary;
import io.sluice.logical.plan.Generate;
import io.sluice.logical.plan.Join;
import io.sluice.logical.plan.JoinType;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.plan.SubqueryAlias;
import io.sluice.logical.plan.TableScan;
import io.sluice.logical.source.TableSource;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.calcite.sql.JoinConditionType;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlUnpivot;
import org.apache.calcite.sql.SqlWith;

/**
 * Translates the FROM clause of one query: tables, views, WITH names, subqueries and joins, each
 * with the {@link TableScope} its columns are named by. One instance serves one query, because
 * unaliased subqueries are numbered within it.
 */
final class FromTranslator {
    private final Catalog catalog;
    private final List<TableScope> outer; // the enclosing queries' FROM scopes, nearest first
    private final Map<String, LogicalPlan> ctes; // WITH names in scope, case-insensitive
    private int unnamedSubqueries;

    FromTranslator(Catalog catalog, List<TableScope> outer, Map<String, LogicalPlan> ctes) {
        this.catalog = requireNonNull(catalog, "catalog is null");
        this.outer = requireNonNull(outer, "outer is null");
        this.ctes = requireNonNull(ctes, "ctes is null");
    }

    /** What FROM reads: the plan producing its rows and the names its columns go by. */
    record From(LogicalPlan plan, TableScope scope) {
    }

    /**
     * FROM: one table is read as is; several (joins, comma lists) or a subquery are each wrapped in a
     * {@link SubqueryAlias} named by the alias, else the table name, so that columns are
     * {@code q.c}.
     */
    From translate(SqlNode from) {
        if (from == null) {
            LogicalPlan one = QueryTranslator.oneRow();
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
        if (node.getKind() == SqlKind.TABLESAMPLE) {
            SqlCall sample = (SqlCall) node;
            From sampled = relation(sample.operand(0), only);
            return new From(TableSamples.sample(sampled.plan(), sample.operand(1)), sampled.scope());
        }
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
            LogicalPlan plan = QueryTranslator.renameColumns(named, columnAliases, qualifier);
            return subquery(plan, qualifier, String.join(".", id.names) + (alias == null ? "" : " AS " + alias));
        }
        if (node instanceof SqlIdentifier id && columnAliases != null) {
            TableSource table = table(id);
            return subquery(QueryTranslator.renameColumns(new TableScan(table), columnAliases, alias), alias,
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
        if (node instanceof SqlUnpivot unpivot) {
            LogicalPlan plan = SqlUnpivots.plan(unpivot, relation(unpivot.query, false).plan());
            String qualifier = alias != null ? alias : "unpivot";
            return subquery(QueryTranslator.renameColumns(plan, columnAliases, qualifier), qualifier, "UNPIVOT AS " + qualifier);
        }
        if (node.getKind() == SqlKind.COLLECTION_TABLE) {
            LogicalPlan function = TableFunctions.plan(((SqlCall) node).operand(0));
            String qualifier = alias != null ? alias : "range";
            return subquery(QueryTranslator.renameColumns(function, columnAliases, qualifier), qualifier,
                    alias == null ? qualifier : "range AS " + alias);
        }
        if (node instanceof SqlJoin join) {
            if (alias != null) {
                throw SqlErrors.unsupported("alias on a parenthesized join");
            }
            return join(join);
        }
        if (node instanceof SqlSelect || node instanceof SqlOrderBy || node instanceof SqlWith || node instanceof OrganizedQuery
                || node.getKind() == SqlKind.VALUES || SetOperations.isSetOperation(node)) {
            if (alias == null) {
                unnamedSubqueries++;
                alias = unnamedSubqueries == 1 ? "unnamed_subquery" : "unnamed_subquery" + unnamedSubqueries;
            }
            LogicalPlan plan = new QueryTranslator(catalog, outer, ctes).translate(node);
            return subquery(QueryTranslator.renameColumns(plan, columnAliases, alias), alias, "subquery AS " + alias);
        }
        throw SqlErrors.unsupported(QueryTranslator.describe(node) + " in FROM");
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
        if (Unnests.isUnnest(join.getRight())) {
            return unnest(left, join, type);
        }
        From right = relation(join.getRight(), false);
        List<Expr> leftKeys = new ArrayList<>();
        List<Expr> rightKeys = new ArrayList<>();
        Expr residual = null;
        List<TableScope.UsingColumn> using = new ArrayList<>();
        switch (join.getConditionType()) {
            case NONE -> { }
            case ON -> {
                TableScope both = TableScope.join(left.scope(), right.scope(), List.of());
                Expr on = new ExpressionTranslator(both, Map.of(), outer, QueryTranslator.subqueryPlanner(catalog, both, outer, ctes))
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

    /**
     * {@code left CROSS JOIN UNNEST(e) AS u(x)} (also a comma, or {@code LEFT JOIN ... ON TRUE} to keep
     * rows whose value is NULL or empty): a {@link Generate} over the left side, whose new columns
     * are {@code u.x} (a map's {@code u.key, u.value} unless named).
     */
    private From unnest(From left, SqlJoin join, JoinType type) {
        boolean leftJoin = type == JoinType.LEFT;
        if (!(type == JoinType.INNER && join.getConditionType() == JoinConditionType.NONE)
                && !(leftJoin && Unnests.isTrue(join.getCondition()))) {
            throw SqlErrors.unsupported("UNNEST in a " + join.getJoinType() + " join with a condition; use CROSS JOIN UNNEST(...) "
                    + "or LEFT JOIN UNNEST(...) ON TRUE");
        }
        Unnests.Call call = Unnests.call(join.getRight());
        boolean keepEmpty = leftJoin || call.outer();
        Expr generator = new ExpressionTranslator(left.scope(), Map.of(), outer, null).translate(call.argument());
        List<String> names = Unnests.columnNames(call,
                Generate.generatedFields(call.function(), generator, left.plan().schema()).stream().map(Field::name).toList());
        List<String> qualified = new ArrayList<>();
        for (String name : names) {
            qualified.add(call.alias() + "." + name);
        }
        Generate plan = new Generate(left.plan(), call.function(), generator, keepEmpty, qualified);
        Schema generated = new Schema(plan.schema().fields().subList(left.plan().schema().size(), plan.schema().size()));
        TableScope scope = TableScope.join(left.scope(), TableScope.relation(generated, call.alias(), "UNNEST AS " + call.alias()),
                List.of());
        return new From(plan, scope);
    }

    private static Expr usingSide(TableScope scope, String name, String side) {
        if (!scope.hasColumn(name)) {
            throw new SluiceException("USING column '" + name + "' is not a column of the " + side
                    + " side of the join; available columns: " + String.join(", ", scope.schema().names()));
        }
        return scope.unqualified(name);
    }
}
