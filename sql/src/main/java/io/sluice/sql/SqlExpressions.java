package io.sluice.sql;

import io.sluice.common.SluiceException;
import io.sluice.common.types.Schema;
import io.sluice.logical.expr.Alias;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Exprs;
import io.sluice.logical.expr.ImplicitCasts;
import io.sluice.logical.function.CallContext;
import io.sluice.logical.plan.Aggregate;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.plan.Projection;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;

/**
 * Single SQL expressions over a known set of columns, for the DataFrame API's {@code expr("...")},
 * {@code selectExpr(...)} and calls of functions by name: they go through the SQL front end's parser
 * and translator, so a function means the same in SQL and in a DataFrame.
 */
public final class SqlExpressions {
    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private SqlExpressions() {
    }

    /**
     * The expression {@code text} ({@code "a + 1"}, {@code "upper(s) AS u"}: an {@code AS} name becomes
     * an {@link Alias}) over {@code schema}'s columns. Errors name the expression text.
     */
    public static Expr parse(String text, Schema schema) {
        return parseInContext(text, schema);
    }

    /**
     * As {@link #parse(String, Schema)}, with {@code context}'s time zone and arithmetic mode (a Spark
     * Connect session's, as its {@code spark.sql} text is planned) instead of UTC and strict arithmetic.
     */
    public static Expr parse(String text, Schema schema, CallContext context) {
        return PlanningContext.with(context, () -> parseInContext(text, schema));
    }

    private static Expr parseInContext(String text, Schema schema) {
        CalciteParser.Parsed parsed;
        try {
            // Spark's spelling, as Spark's expr() and selectExpr() read it (backtick names, double-quoted strings)
            SparkSyntax.Rewritten rewritten = SparkSyntax.rewrite("SELECT " + text, SqlDialect.SPARK);
            parsed = CalciteParser.parse(rewritten.text(), rewritten);
        } catch (SluiceException e) {
            throw new SluiceException("cannot parse expression '" + text + "': " + e.getMessage(), e);
        }
        if (!(parsed.node() instanceof SqlSelect select) || select.getFrom() != null
                || select.getSelectList().size() != 1) {
            throw new SluiceException("'" + text + "' is not a single expression");
        }
        SqlNode item = select.getSelectList().get(0);
        String alias = null;
        if (item.getKind() == SqlKind.AS) {
            alias = ((SqlIdentifier) ((SqlCall) item).operand(1)).getSimple();
            item = ((SqlCall) item).operand(0);
        }
        Expr expr;
        try {
            expr = new ExpressionTranslator(TableScope.result(schema, "the DataFrame")).translate(item);
        } catch (SluiceException e) {
            throw new SluiceException("in expression '" + text + "': " + e.getMessage(), e);
        }
        return alias == null ? expr : new Alias(expr, alias);
    }

    /**
     * The function {@code name} (by its Spark name: {@code upper}, {@code date_trunc}, {@code sum}, ...)
     * applied to {@code args}, expressions over {@code schema}, through the one function library SQL
     * uses, with SQL's implicit conversions; an unknown name is an error naming it (and a close one).
     */
    public static Expr call(String name, List<Expr> args, Schema schema) {
        return call(name, args, false, schema);
    }

    /** As {@link #call(String, List, Schema)}; {@code distinct} for an aggregate over distinct values ({@code count(DISTINCT x)}). */
    public static Expr call(String name, List<Expr> args, boolean distinct, Schema schema) {
        if (!NAME.matcher(name).matches()) {
            throw new SluiceException("not a function name: '" + name + "'");
        }
        if (distinct && args.size() != 1) {
            throw new SluiceException(name + "(DISTINCT ...) takes one column, not " + args.size());
        }
        return ImplicitCasts.apply(ExpressionTranslator.libraryCall(name, args, distinct), schema);
    }

    /**
     * The aggregation of {@code calls} grouped by {@code groupBy}, as SQL plans it: calls over
     * DISTINCT values ({@link #call(String, List, boolean, Schema)}) become two aggregations.
     */
    public static LogicalPlan aggregate(LogicalPlan input, List<Expr> groupBy, List<Expr> calls) {
        List<Expr> unaliased = calls.stream().map(Exprs::unalias).toList();
        if (!DistinctAggregates.any(unaliased)) {
            return new Aggregate(input, groupBy, calls);
        }
        LogicalPlan planned = DistinctAggregates.plan(input, groupBy, unaliased);
        List<Expr> named = new ArrayList<>();
        Schema out = planned.schema();
        for (int i = 0; i < groupBy.size(); i++) {
            named.add(new Column(out.field(i).name()));
        }
        for (int i = 0; i < calls.size(); i++) {
            String name = out.field(groupBy.size() + i).name();
            named.add(name.equals(calls.get(i).name()) ? new Column(name) : new Alias(new Column(name), calls.get(i).name()));
        }
        return new Projection(planned, named);
    }
}
