package io.sluice.logical.expr;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.BinaryOp;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Schema;
import io.sluice.common.types.TypeRules;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * {@code value [NOT] IN (item, ...)}: one expression instead of the equalities it means, so that a
 * list of constants is evaluated as one membership test per row against a set made once
 * ({@code io.sluice.operators.expr.InListExpr}) rather than one comparison and one boolean column
 * per item. Its value is exactly that of {@link #comparisons()} ({@code value = a OR value = b}, for
 * NOT IN {@code value <> a AND value <> b}), NULLs included: NULL when {@code value} is NULL, or
 * when no item matches and some item is NULL. Code that reasons over comparisons (row-group
 * pruning, selectivity) reads that form; each item is typed against {@code value} as the equality
 * with it would be.
 */
public record InList(Expr value, List<Expr> items, boolean negated) implements Expr {
    public InList {
        requireNonNull(value, "value is null");
        items = List.copyOf(requireNonNull(items, "items is null"));
        if (items.isEmpty()) {
            throw new SluiceException("IN needs at least one value");
        }
    }

    /**
     * {@code value [NOT] IN (items)}: a single item is the comparison itself ({@code x = a}, which
     * every rule knows), more make an {@link InList}.
     */
    public static Expr of(Expr value, List<Expr> items, boolean negated) {
        if (items.size() == 1) {
            return new Binary(negated ? BinaryOp.NOT_EQ : BinaryOp.EQ, value, items.get(0));
        }
        return new InList(value, items, negated);
    }

    /**
     * The comparisons this list means, joined as a balanced tree: a list of thousands nests only as
     * deep as its logarithm, far inside the expression depth limit and the wire format's nesting limit.
     */
    public Expr comparisons() {
        List<Expr> tests = new ArrayList<>(items.size());
        for (Expr item : items) {
            tests.add(new Binary(negated ? BinaryOp.NOT_EQ : BinaryOp.EQ, value, item));
        }
        return balanced(tests, 0, tests.size(), negated ? BinaryOp.AND : BinaryOp.OR);
    }

    private static Expr balanced(List<Expr> tests, int from, int to, BinaryOp op) {
        if (to - from == 1) {
            return tests.get(from);
        }
        int middle = (from + to) >>> 1;
        return new Binary(op, balanced(tests, from, middle, op), balanced(tests, middle, to, op));
    }

    @Override
    public DataType type(Schema input) {
        DataType t = value.type(input);
        BinaryOp op = negated ? BinaryOp.NOT_EQ : BinaryOp.EQ;
        for (Expr item : items) {
            TypeRules.checkComparable(op, t, item.type(input));
        }
        return DataType.BOOL;
    }

    @Override
    public List<Expr> children() {
        List<Expr> out = new ArrayList<>(items.size() + 1);
        out.add(value);
        out.addAll(items);
        return out;
    }

    @Override
    public Expr withChildren(List<Expr> children) {
        return new InList(children.get(0), children.subList(1, children.size()), negated);
    }

    /** The list with IN and NOT IN swapped: its value is the SQL negation of this one's, NULLs kept. */
    public InList negate() {
        return new InList(value, items, !negated);
    }

    @Override
    public String toString() {
        return "(" + value + (negated ? " NOT IN (" : " IN (")
                + items.stream().map(Expr::toString).collect(Collectors.joining(", ")) + "))";
    }

    /** A membership test never fails (its value and items may: they answer for themselves). */
    @Override
    public boolean mayFailItself() {
        return false;
    }
}
