package io.sluice.api;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.BinaryOp;
import io.sluice.common.types.DataType;
import io.sluice.logical.expr.AggregateCall;
import io.sluice.logical.expr.Alias;
import io.sluice.logical.expr.Binary;
import io.sluice.logical.expr.Cast;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.ScalarFunction;
import io.sluice.logical.expr.SortKey;
import io.sluice.logical.expr.Unary;
import io.sluice.logical.expr.WindowCall;
import io.sluice.logical.expr.WindowFrame;
import io.sluice.logical.expr.WindowFunction;
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

    public Column isNull() {
        return new Column(new Unary(Unary.Op.IS_NULL, expr));
    }

    public Column isNotNull() {
        return new Column(new Unary(Unary.Op.IS_NOT_NULL, expr));
    }

    public Column cast(DataType type) {
        return new Column(new Cast(expr, type));
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

    public SortKey asc() {
        return SortKey.asc(expr);
    }

    public SortKey desc() {
        return SortKey.desc(expr);
    }

    @Override
    public String toString() {
        return expr.toString();
    }
}
