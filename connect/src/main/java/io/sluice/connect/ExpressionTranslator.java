package io.sluice.connect;

import static java.util.Objects.requireNonNull;

import io.sluice.api.DataFrame;
import io.sluice.api.FrontEnds;
import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Schema;
import io.sluice.connect.proto.Expression;
import io.sluice.logical.expr.Alias;
import io.sluice.logical.expr.Cast;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Lambda;
import io.sluice.logical.expr.LambdaVariable;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.expr.SortKey;
import io.sluice.logical.plan.LogicalPlan;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.LongFunction;

/**
 * Spark Connect expressions as Sluice's logical expressions, against the plan they are evaluated
 * over (for {@code *} and expression strings). An expression kind Sluice has no counterpart for is
 * refused by name.
 */
final class ExpressionTranslator {
    /** What a constant is evaluated over: a plan of no columns (SQL arguments). */
    static final LogicalPlan NO_INPUT = new io.sluice.logical.plan.EmptyRelation(new Schema(List.of()));

    private final SparkFunctions functions;
    private final LongFunction<DataFrame> byPlanId;

    /** @param byPlanId the DataFrame a client plan id names, or null (attributes of {@code df("a")}) */
    ExpressionTranslator(SparkFunctions functions, LongFunction<DataFrame> byPlanId) {
        this.functions = requireNonNull(functions, "functions is null");
        this.byPlanId = requireNonNull(byPlanId, "byPlanId is null");
    }

    /** The expressions of a select list: {@code *} (and {@code t.*}) become every column of {@code input}. */
    List<Expr> selectList(List<Expression> expressions, LogicalPlan input) {
        List<Expr> out = new ArrayList<>();
        for (Expression e : expressions) {
            if (e.hasUnresolvedStar()) {
                input.schema().names().forEach(n -> out.add(new Column(n)));
            } else {
                out.add(translate(e, input));
            }
        }
        return out;
    }

    Expr translate(Expression e, LogicalPlan input) {
        return switch (e.getExprTypeCase()) {
            case LITERAL -> literal(e.getLiteral());
            case UNRESOLVED_ATTRIBUTE -> attribute(e.getUnresolvedAttribute(), input);
            case UNRESOLVED_FUNCTION -> function(e.getUnresolvedFunction(), input);
            case CALL_FUNCTION -> functions.call(e.getCallFunction().getFunctionName(),
                    args(e.getCallFunction().getArgumentsList(), input), false);
            case EXPRESSION_STRING -> FrontEnds.expr(e.getExpressionString().getExpression(), functions.context()).expr();
            case ALIAS -> alias(e.getAlias(), input);
            case CAST -> cast(e.getCast(), input);
            case WINDOW -> WindowExpressions.translate(e.getWindow(), input, this);
            case LAMBDA_FUNCTION -> lambda(e.getLambdaFunction(), input);
            case UNRESOLVED_NAMED_LAMBDA_VARIABLE -> new LambdaVariable(
                    String.join(".", e.getUnresolvedNamedLambdaVariable().getNamePartsList()));
            case SORT_ORDER -> throw new SluiceException("a sort order is allowed only in orderBy/sort");
            case UNRESOLVED_STAR -> throw new SluiceException("* is allowed only in select and count(*)");
            default -> throw new SluiceException("Spark Connect expression " + e.getExprTypeCase().name().toLowerCase(Locale.ROOT)
                    + " is not supported by Sluice");
        };
    }

    SortKey sortKey(Expression.SortOrder order, LogicalPlan input) {
        Expr expr = translate(order.getChild(), input);
        boolean ascending = order.getDirection() != Expression.SortOrder.SortDirection.SORT_DIRECTION_DESCENDING;
        boolean nullsFirst = switch (order.getNullOrdering()) {
            case SORT_NULLS_FIRST -> true;
            case SORT_NULLS_LAST -> false;
            default -> ascending; // Spark: NULLS FIRST ascending, NULLS LAST descending
        };
        return new SortKey(expr, ascending, nullsFirst);
    }

    /** A sort key of an orderBy list: a SortOrder, or a plain expression sorted ascending. */
    SortKey sortKey(Expression e, LogicalPlan input) {
        return e.hasSortOrder() ? sortKey(e.getSortOrder(), input) : new SortKey(translate(e, input), true, true);
    }

    private List<Expr> args(List<Expression> args, LogicalPlan input) {
        List<Expr> out = new ArrayList<>();
        for (Expression a : args) {
            out.add(a.hasUnresolvedStar() ? Literal.of(1) : translate(a, input));
        }
        return out;
    }

    private Expr function(Expression.UnresolvedFunction f, LogicalPlan input) {
        return functions.call(f.getFunctionName(), args(f.getArgumentsList(), input), f.getIsDistinct());
    }

    private Expr lambda(Expression.LambdaFunction f, LogicalPlan input) {
        List<String> parameters = new ArrayList<>();
        f.getArgumentsList().forEach(v -> parameters.add(String.join(".", v.getNamePartsList())));
        return new Lambda(parameters, translate(f.getFunction(), input));
    }

    private Expr alias(Expression.Alias a, LogicalPlan input) {
        if (a.getNameCount() != 1) {
            throw new SluiceException("an alias of several names (" + a.getNameList() + ") is not supported");
        }
        return new Alias(translate(a.getExpr(), input), a.getName(0));
    }

    private Expr cast(Expression.Cast c, LogicalPlan input) {
        DataType type = c.hasType() ? SparkTypes.fromProto(c.getType()) : SparkTypes.parseType(c.getTypeStr());
        return new Cast(translate(c.getExpr(), input), type, functions.mode());
    }

    private Expr attribute(Expression.UnresolvedAttribute a, LogicalPlan input) {
        if (a.hasPlanId()) {
            DataFrame df = byPlanId.apply(a.getPlanId());
            if (df != null && df.schema().names().stream().anyMatch(n -> n.equalsIgnoreCase(a.getUnparsedIdentifier()))) {
                return df.col(a.getUnparsedIdentifier()).expr();
            }
        }
        return attribute(a.getUnparsedIdentifier(), input.schema());
    }

    /**
     * A column by the name the client wrote: {@code a}, {@code `a.b`}, a struct field path {@code s.f},
     * or a name qualified by a table or alias ({@code t.a}), whose qualifier is dropped when the
     * unqualified name is a column.
     */
    static Expr attribute(String identifier, Schema schema) {
        String name = identifier;
        if (name.length() > 1 && name.startsWith("`") && name.endsWith("`") && name.indexOf('`', 1) == name.length() - 1) {
            return new Column(name.substring(1, name.length() - 1));
        }
        int dot = name.indexOf('.');
        if (dot > 0 && indexOf(schema, name) < 0 && indexOf(schema, name.substring(0, dot)) < 0) {
            String rest = name.substring(dot + 1);
            int next = rest.indexOf('.');
            String head = next < 0 ? rest : rest.substring(0, next);
            if (indexOf(schema, head) >= 0) {
                name = rest;
            }
        }
        return new Column(name);
    }

    private static int indexOf(Schema schema, String name) {
        List<String> names = schema.names();
        for (int i = 0; i < names.size(); i++) {
            if (names.get(i).equalsIgnoreCase(name)) {
                return i;
            }
        }
        return -1;
    }

    static Literal literal(Expression.Literal l) {
        return switch (l.getLiteralTypeCase()) {
            case NULL -> new Literal(null, SparkTypes.fromProto(l.getNull()));
            case BOOLEAN -> Literal.of(l.getBoolean());
            case BYTE -> new Literal((long) l.getByte(), DataType.INT32);
            case SHORT -> new Literal((long) l.getShort(), DataType.INT32);
            case INTEGER -> new Literal((long) l.getInteger(), DataType.INT32);
            case LONG -> Literal.of(l.getLong());
            case FLOAT -> Literal.of((double) l.getFloat());
            case DOUBLE -> Literal.of(l.getDouble());
            case DECIMAL -> decimal(l.getDecimal());
            case STRING -> Literal.of(l.getString());
            case DATE -> new Literal((long) l.getDate(), DataType.DATE32);
            case TIMESTAMP -> Literal.ofTimestamp(l.getTimestamp());
            case TIMESTAMP_NTZ -> Literal.ofTimestamp(l.getTimestampNtz());
            default -> throw new SluiceException("Spark literal of kind " + l.getLiteralTypeCase().name().toLowerCase(Locale.ROOT)
                    + " is not supported by Sluice");
        };
    }

    private static Literal decimal(Expression.Literal.Decimal d) {
        BigDecimal value = new BigDecimal(d.getValue());
        if (d.hasScale()) {
            value = value.setScale(d.getScale());
        }
        Literal plain = Literal.ofDecimal(value);
        if (d.hasPrecision() && d.getPrecision() >= plain.type().precision()) {
            return new Literal(plain.value(), DataType.decimal(d.getPrecision(), plain.type().scale()));
        }
        return plain;
    }
}
