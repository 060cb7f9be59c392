package io.sluice.api;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.BinaryOp;
import io.sluice.common.types.DataType;
import io.sluice.logical.expr.AggregateCall;
import io.sluice.logical.expr.Alias;
import io.sluice.logical.expr.Binary;
import io.sluice.logical.expr.Case;
import io.sluice.logical.expr.Cast;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.InList;
import io.sluice.logical.expr.Like;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.expr.ScalarFunction;
import io.sluice.logical.expr.SortKey;
import io.sluice.logical.expr.Substring;
import io.sluice.logical.expr.Unary;
import io.sluice.logical.expr.WindowCall;
import io.sluice.logical.expr.WindowFrame;
import io.sluice.logical.expr.WindowFunction;
import io.sluice.sql.TableDdl;
import java.util.ArrayList;
import java.util.List;

/** A column expression of the DataFrame API, e.g. {@code col("v").gt(lit(3)).and(col("k").isNotNull())}. */
public final class Column {
    private final Expr expr;

    Column(Expr expr) {
        this.expr = requireNonNull(expr, "expr is null");
    }

    public Expr expr() {
        return expr;
    }

    private Column binary(BinaryOp op, Object other) {
        return new Column(new Binary(op, expr, Functions.toColumn(other).expr));
    }

    public Column plus(Object other) { return binary(BinaryOp.ADD, other); }
    public Column minus(Object other) { return binary(BinaryOp.SUBTRACT, other); }
    public Column multiply(Object other) { return binary(BinaryOp.MULTIPLY, other); }
    public Column divide(Object other) { return binary(BinaryOp.DIVIDE, other); }
    public Column mod(Object other) { return binary(BinaryOp.MODULO, other); }
    public Column eq(Object other) { return binary(BinaryOp.EQ, other); }
    public Column notEq(Object other) { return binary(BinaryOp.NOT_EQ, other); }
    public Column lt(Object other) { return binary(BinaryOp.LT, other); }
    public Column leq(Object other) { return binary(BinaryOp.LT_EQ, other); }
    public Column gt(Object other) { return binary(BinaryOp.GT, other); }
    public Column geq(Object other) { return binary(BinaryOp.GT_EQ, other); }
    public Column and(Column other) { return binary(BinaryOp.AND, other); }
    public Column or(Column other) { return binary(BinaryOp.OR, other); }

    public Column not() {
        return new Column(new Unary(Unary.Op.NOT, expr));
    }

    public Column equalTo(Object other) { return eq(other); }
    public Column notEqual(Object other) { return notEq(other); }
    public Column lessThan(Object other) { return lt(other); }
    public Column lessThanOrEqual(Object other) { return leq(other); }
    public Column greaterThan(Object other) { return gt(other); }
    public Column greaterThanOrEqual(Object other) { return geq(other); }
    public Column negate() { return new Column(new Unary(Unary.Op.NEGATE, expr)); }

    /**
     * Spark's {@code <=>}: true when both sides are equal or both NULL, false otherwise; never NULL.
     */
    public Column eqNullSafe(Object other) {
        Expr right = Functions.toColumn(other).expr;
        Expr leftNull = new Unary(Unary.Op.IS_NULL, expr);
        Expr rightNull = new Unary(Unary.Op.IS_NULL, right);
        return new Column(new Case(List.of(new Binary(BinaryOp.AND, leftNull, rightNull),
                new Binary(BinaryOp.OR, leftNull, rightNull)), List.of(Literal.of(true), Literal.of(false)),
                new Binary(BinaryOp.EQ, expr, right)));
    }

    public Column isNull() {
        return new Column(new Unary(Unary.Op.IS_NULL, expr));
    }

    public Column isNotNull() {
        return new Column(new Unary(Unary.Op.IS_NOT_NULL, expr));
    }

    /** Whether the value equals one of {@code values} (Columns or constants); NULL as SQL's {@code IN}. */
    public Column isin(Object... values) {
        if (values.length == 0) {
            throw new SluiceException("isin() needs at least one value");
        }
        List<Expr> items = new ArrayList<>(values.length);
        for (Object v : values) {
            items.add(Functions.toColumn(v).expr);
        }
        return new Column(InList.of(expr, items, false));
    }

    /** {@code lower <= value AND value <= upper}. */
    public Column between(Object lower, Object upper) {
        return geq(lower).and(leq(upper));
    }

    /** SQL {@code LIKE} with a constant pattern: {@code %} any run of characters, {@code _} one. */
    public Column like(String pattern) {
        return new Column(new Like(expr, pattern, false, false));
    }

    /** Case-insensitive {@link #like}. */
    public Column ilike(String pattern) {
        return new Column(new Like(expr, pattern, false, true));
    }

    /** Whether a Java regular expression matches some part of the value. */
    public Column rlike(String regex) {
        return Functions.callFunction("rlike", this, Functions.lit(regex));
    }

    public Column startsWith(Object prefix) {
        return new Column(new ScalarFunction(ScalarFunction.Function.STARTS_WITH, List.of(expr,
                Functions.toColumn(prefix).expr)));
    }

    /** Whether the value ends with {@code suffix} (a string): its last characters, as many as the suffix has, equal it. */
    public Column endsWith(Object suffix) {
        Column end = Functions.toColumn(suffix);
        return Functions.callFunction("right", this, Functions.length(end)).eq(end);
    }

    /** Whether the value contains {@code other} (a string). */
    public Column contains(Object other) {
        return new Column(new ScalarFunction(ScalarFunction.Function.STRPOS, List.of(expr,
                Functions.toColumn(other).expr))).gt(Functions.lit(0));
    }

    /** The characters from 1-based {@code pos}, {@code len} of them. */
    public Column substr(int pos, int len) {
        return new Column(new Substring(expr, pos, (long) len));
    }

    public Column cast(DataType type) {
        return new Column(new Cast(expr, type));
    }

    /** A cast to a type by its SQL name: {@code "int"}, {@code "decimal(10,2)"}, {@code "string"}, {@code "date"}. */
    public Column cast(String type) {
        return cast(TableDdl.columns("c " + type).field(0).type());
    }

    /**
     * Spark's {@code when} chained after {@link Functions#when}: one more condition and its value; a
     * Column that is not such a chain refuses it.
     */
    public Column when(Column condition, Object value) {
        if (!(expr instanceof Case c) || !isOpenCase(c)) {
            throw new SluiceException("when() applies to a Column made by Functions.when(), not to " + expr);
        }
        List<Expr> conditions = new ArrayList<>(c.conditions());
        List<Expr> results = new ArrayList<>(c.results());
        conditions.add(condition.expr);
        results.add(Functions.toColumn(value).expr);
        return new Column(new Case(conditions, results, c.otherwise()));
    }

    /** The value of a {@code when} chain where no condition holds (NULL without it). */
    public Column otherwise(Object value) {
        if (!(expr instanceof Case c) || !isOpenCase(c)) {
            throw new SluiceException("otherwise() applies to a Column made by Functions.when(), not to " + expr);
        }
        return new Column(new Case(c.conditions(), c.results(), Functions.toColumn(value).expr));
    }

    private static boolean isOpenCase(Case c) {
        return c.otherwise() instanceof Literal l && l.value() == null;
    }

    /** A struct's field, as Spark's {@code getField}: {@code col("s").getField("a")} is {@code s.a}. */
    public Column getField(String name) {
        return Functions.nested(ScalarFunction.Function.GET_FIELD, this, Functions.lit(name));
    }

    /** A list's element at a 0-based index or a map's value at a key, as Spark's {@code getItem} ({@code c[i]}). */
    public Column getItem(Object indexOrKey) {
        return Functions.nested(ScalarFunction.Function.ITEM, this, Functions.toColumn(indexOrKey));
    }

    /** Names the output column. */
    public Column as(String name) {
        return new Column(new Alias(expr, name));
    }

    public Column alias(String name) {
        return as(name);
    }

    public Column name(String name) {
        return as(name);
    }

    /**
     * This aggregate ({@code sum}, {@code count}, {@code min}, {@code max}, {@code avg}) or window
     * function ({@code rowNumber()}, {@code lag(..)}, ...) computed over {@code window}.
     */
    public Column over(WindowSpec window) {
        Expr e = expr;
        if (e instanceof AggregateCall call) {
            WindowFunction f = WindowFunction.valueOf(call.function().name());
            e = new WindowCall(f, call.children(), List.of(), List.of(), WindowFrame.WHOLE_PARTITION);
        }
        if (!(e instanceof WindowCall call)) {
            throw new SluiceException("over() needs an aggregate or a window function, not " + expr);
        }
        return new Column(window.apply(call));
    }

    /** Ascending, NULLs last (as the engine's SQL; say {@link #asc_nulls_first} for Spark's default). */
    public Column asc() {
        return order(true, false);
    }

    /** Descending, NULLs last. */
    public Column desc() {
        return order(false, false);
    }

    public Column asc_nulls_first() {
        return order(true, true);
    }

    public Column asc_nulls_last() {
        return order(true, false);
    }

    public Column desc_nulls_first() {
        return order(false, true);
    }

    public Column desc_nulls_last() {
        return order(false, false);
    }

    private Column order(boolean ascending, boolean nullsFirst) {
        return new Column(new SortOrder(expr instanceof SortOrder o ? o.input() : expr, ascending, nullsFirst));
    }

    /** This Column as a sort key: its order if it is one ({@link #desc()}, ...), else ascending. */
    public SortKey sortKey() {
        return SortOrder.keyOf(expr);
    }

    @Override
    public String toString() {
        return expr.toString();
    }
}
