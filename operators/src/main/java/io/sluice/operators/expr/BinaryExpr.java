package io.sluice.operators.expr;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.ArithmeticMode;
import io.sluice.common.types.BinaryOp;
import io.sluice.common.types.DataType;
import io.sluice.common.types.TypeRules;
import io.sluice.kernels.Batch;
import io.sluice.kernels.Col;
import io.sluice.kernels.InPlaceKernels;
import io.sluice.kernels.InPlaceValues;
import io.sluice.kernels.Kernels;
import io.sluice.kernels.NumericOverflowException;
import io.sluice.kernels.ScalarKernels;
import io.sluice.kernels.SelectionKernels;
import io.sluice.kernels.SparkErrors;
import io.sluice.kernels.TolerantArithmetic;
import io.sluice.logical.expr.Binary;
import java.util.Arrays;

/**
 * Arithmetic, comparison or AND/OR on two bound operands, with the result type fixed at binding.
 * When one operand is a constant ({@code col < 900}, {@code v * 2}) it stays a scalar and the
 * column-against-scalar kernels run ({@link ScalarKernels}); otherwise the column kernels.
 * {@code source} is the logical expression, whose text names the expression in overflow errors.
 *
 * <p>Operand columns normally have the bound types; should a batch's column carry another type,
 * the result type is derived from the types at hand, as the logical expression does.
 */
public record BinaryExpr(BinaryOp op, PhysicalExpr left, PhysicalExpr right, DataType type, Binary source)
        implements PhysicalExpr {
    public BinaryExpr {
        requireNonNull(op, "op is null");
        requireNonNull(left, "left is null");
        requireNonNull(right, "right is null");
        requireNonNull(type, "type is null");
        requireNonNull(source, "source is null");
    }

    @Override
    public Col evaluate(Batch batch) {
        return switch (op.kind()) {
            case ARITHMETIC -> arithmetic(batch);
            case COMPARISON -> compare(batch);
            case LOGICAL -> Kernels.logical(op, left.evaluate(batch), right.evaluate(batch));
        };
    }

    /**
     * The strict kernels' result, with the source's {@link ArithmeticMode} applied: Spark's modes find
     * a zero divisor before dividing (ANSI) and recompute a batch that overflowed (non-ANSI, TRY), and
     * give INT operands INT results (a post-check of the BIGINT result); so the strict loops stay free
     * of mode tests.
     */
    private Col arithmetic(Batch batch) {
        ArithmeticMode mode = source.mode();
        if (mode == ArithmeticMode.STRICT) {
            return strictArithmetic(batch);
        }
        Col out;
        try {
            out = mode.failsOnZeroDivisor() && isDivision() ? checkedDivision(batch) : strictArithmetic(batch);
        } catch (NumericOverflowException e) {
            // the tolerant recomputation reads integer operands (a DIV of doubles or decimals has a BIGINT type too)
            if (mode == ArithmeticMode.ANSI || !TolerantArithmetic.handles(type) || !isInteger(left) || !isInteger(right)) {
                throw SparkErrors.overflow(source.toString(), type, SparkErrors.tryFunction(op));
            }
            return TolerantArithmetic.bigint(op, left.evaluate(batch), right.evaluate(batch), mode == ArithmeticMode.LEGACY);
        }
        boolean canPassInt = op == BinaryOp.ADD || op == BinaryOp.SUBTRACT || op == BinaryOp.MULTIPLY;
        if (!canPassInt || out.type.kind() != DataType.Kind.INT64 || out.longs == null || !isInt(left) || !isInt(right)) {
            return out;
        }
        if (mode == ArithmeticMode.ANSI) {
            if (TolerantArithmetic.firstPastInt(out) >= 0) {
                throw SparkErrors.overflow(source.toString(), DataType.INT32, SparkErrors.tryFunction(op));
            }
            return out;
        }
        return TolerantArithmetic.narrowToInt(out, mode == ArithmeticMode.LEGACY);
    }

    /**
     * Whether Spark types {@code e} INT: an INT operand, or an integer constant that fits an INT
     * (Spark's literal {@code 1} is an INT where Sluice's is a BIGINT).
     */
    private static boolean isInt(PhysicalExpr e) {
        if (e.type().kind() == DataType.Kind.INT32) {
            return true;
        }
        return e instanceof ScalarLiteral s && s.type().kind() == DataType.Kind.INT64 && !s.scalar().isNull(0)
                && (int) s.scalar().longs[0] == s.scalar().longs[0];
    }

    private static boolean isInteger(PhysicalExpr e) {
        DataType.Kind kind = e.type().kind();
        return kind == DataType.Kind.INT32 || kind == DataType.Kind.INT64;
    }

    private boolean isDivision() {
        return op == BinaryOp.DIVIDE || op == BinaryOp.MODULO || op == BinaryOp.DIV;
    }

    /** A quotient or remainder whose zero divisor (in a row whose dividend is not NULL) is Spark's error. */
    private Col checkedDivision(Batch batch) {
        Col l = left.evaluate(batch);
        Col r = right.evaluate(batch);
        if (firstZeroDivisor(l, r) >= 0) {
            throw SparkErrors.byZero(op, source.toString());
        }
        return Kernels.arithmetic(op, l, r, resultType(l.type, r.type), source::toString);
    }

    /** The first row whose divisor is zero and whose dividend is not NULL, or -1; the type is looked at once, not per row. */
    private static int firstZeroDivisor(Col l, Col r) {
        DataType.Kind kind = r.type.kind();
        if (kind == DataType.Kind.NULL || kind == DataType.Kind.BOOL || kind == DataType.Kind.UTF8) {
            return -1;
        }
        for (int i = 0; i < r.length; i++) {
            if (r.isNull(i) || l.isNull(i)) {
                continue;
            }
            boolean zero = kind == DataType.Kind.FLOAT64 ? r.doubles[i] == 0
                    : r.isWide() ? r.highs[i] == 0 && r.lows[i] == 0 : r.longs[i] == 0;
            if (zero) {
                return i;
            }
        }
        return -1;
    }

    private Col strictArithmetic(Batch batch) {
        Col inPlace = againstConstantInPlace(batch);
        if (inPlace != null) {
            return inPlace;
        }
        if (right instanceof ScalarLiteral s && !(left instanceof ScalarLiteral)) {
            Col l = left.evaluate(batch);
            return ScalarKernels.arithmetic(op, l, s.scalar(), false, resultType(l.type, s.type()), source::toString);
        }
        if (left instanceof ScalarLiteral s && !(right instanceof ScalarLiteral)) {
            Col r = right.evaluate(batch);
            return ScalarKernels.arithmetic(op, r, s.scalar(), true, resultType(s.type(), r.type), source::toString);
        }
        if (op == BinaryOp.MULTIPLY || op == BinaryOp.ADD || op == BinaryOp.SUBTRACT) {
            return columnsInPlace(batch);
        }
        Col l = left.evaluate(batch);
        Col r = right.evaluate(batch);
        return Kernels.arithmetic(op, l, r, resultType(l.type, r.type), source::toString);
    }

    /** The bound result type, or the one the operand types at hand give when they differ from the bound ones. */
    private DataType resultType(DataType l, DataType r) {
        return l.equals(left.type()) && r.equals(right.type()) ? type : TypeRules.arithmetic(op, l, r);
    }

    /**
     * A column against a constant with the column read in place from the batch's Arrow vector
     * ({@link InPlaceKernels}), or null when the operand is not one or the shape is not one they take.
     */
    private Col againstConstantInPlace(Batch batch) {
        if (right instanceof ScalarLiteral s) {
            InPlaceValues l = left.inPlace(batch);
            return l == null ? null : InPlaceKernels.arithmetic(op, l, s.scalar(), false, type, source::toString);
        }
        if (left instanceof ScalarLiteral s) {
            InPlaceValues r = right.inPlace(batch);
            return r == null ? null : InPlaceKernels.arithmetic(op, r, s.scalar(), true, type, source::toString);
        }
        return null;
    }

    /**
     * A product, sum or difference of two operands, one read in place when it can be
     * ({@link InPlaceKernels#withColumn}, the other evaluated once), a product of two both read in
     * place; the heap kernel otherwise.
     */
    private Col columnsInPlace(Batch batch) {
        InPlaceValues l = left.inPlace(batch);
        if (l != null && op == BinaryOp.MULTIPLY) {
            InPlaceValues both = right.inPlace(batch);
            Col product = both == null ? null : InPlaceKernels.multiply(l, both, type, source::toString);
            if (product != null) {
                return product;
            }
        }
        InPlaceValues r = l == null ? right.inPlace(batch) : null;
        Col lc = l == null ? left.evaluate(batch) : null;
        Col rc = l == null && r != null ? null : right.evaluate(batch);
        if (l != null || r != null) {
            DataType result = l != null ? resultType(left.type(), rc.type) : resultType(lc.type, right.type());
            Col out = InPlaceKernels.withColumn(op, l != null ? l : r, l != null ? rc : lc, l != null, result,
                    source::toString);
            if (out != null) {
                return out;
            }
            lc = lc == null ? left.evaluate(batch) : lc;
            rc = rc == null ? right.evaluate(batch) : rc;
        }
        return Kernels.arithmetic(op, lc, rc, resultType(lc.type, rc.type), source::toString);
    }

    private Col compareInPlace(Batch batch) {
        if (right instanceof ScalarLiteral s) {
            InPlaceValues l = left.inPlace(batch);
            return l == null ? null : InPlaceKernels.compare(op, l, s.scalar(), false);
        }
        if (left instanceof ScalarLiteral s) {
            InPlaceValues r = right.inPlace(batch);
            return r == null ? null : InPlaceKernels.compare(op, r, s.scalar(), true);
        }
        InPlaceValues l = left.inPlace(batch);
        InPlaceValues r = l == null ? null : right.inPlace(batch);
        return r == null ? null : InPlaceKernels.compare(op, l, r);
    }

    private Col compare(Batch batch) {
        Col inPlace = compareInPlace(batch);
        if (inPlace != null) {
            return inPlace;
        }
        if (right instanceof ScalarLiteral s && !(left instanceof ScalarLiteral)) {
            return ScalarKernels.compare(op, left.evaluate(batch), s.scalar(), false);
        }
        if (left instanceof ScalarLiteral s && !(right instanceof ScalarLiteral)) {
            return ScalarKernels.compare(op, right.evaluate(batch), s.scalar(), true);
        }
        return Kernels.compare(op, left.evaluate(batch), right.evaluate(batch));
    }

    @Override
    public String toString() {
        return "(" + left + " " + op.symbol() + " " + right + ")";
    }

    /**
     * A comparison of values read in place (with a constant or each other) narrows the selection.
     * An AND narrows it by each side in turn, an OR by its left side and then by its right side
     * over the rows the left did not keep, so neither side reads a row it cannot change; either
     * narrows when one of its sides can, the other side being evaluated as a column.
     */
    @Override
    public int narrowSelection(Batch batch, int[] selection, int count) {
        if (op == BinaryOp.AND || op == BinaryOp.OR) {
            return narrowLogical(batch, selection, count);
        }
        if (op.kind() != BinaryOp.Kind.COMPARISON) {
            return -1;
        }
        ScalarLiteral constant = constant();
        if (constant != null) {
            InPlaceValues values = variable().inPlace(batch);
            return values == null ? -1
                    : SelectionKernels.compare(op, values, constant.scalar(), constantOnLeft(), selection, count);
        }
        InPlaceValues l = left.inPlace(batch);
        InPlaceValues r = l == null ? null : right.inPlace(batch);
        return r == null ? -1 : SelectionKernels.compare(op, l, r, selection, count);
    }

    /** -1 (the selection untouched) only when neither side narrows in place. */
    private int narrowLogical(Batch batch, int[] selection, int count) {
        if (op == BinaryOp.AND) {
            int kept = narrowRange(batch, selection, count);
            if (kept >= 0) {
                return kept;
            }
            kept = left.narrowSelection(batch, selection, count);
            if (kept < 0) {
                kept = right.narrowSelection(batch, selection, count);
                return kept < 0 ? -1 : left.keepTrue(batch, selection, kept);
            }
            return right.keepTrue(batch, selection, kept);
        }
        int[] first = Arrays.copyOf(selection, count);
        int kept = left.narrowSelection(batch, first, count);
        if (kept >= 0) {
            return orElse(right, batch, first, kept, selection, count);
        }
        kept = right.narrowSelection(batch, first, count);
        return kept < 0 ? -1 : orElse(left, batch, first, kept, selection, count);
    }

    /**
     * An AND of two comparisons of one column read in place with constants ({@code d >= c1 AND
     * d < c2}, as {@link io.sluice.operators.filter.ConjunctSelection} pairs a filter's bounds)
     * narrows the selection in one pass; -1 for any other shape.
     */
    private int narrowRange(Batch batch, int[] selection, int count) {
        if (!(left instanceof BinaryExpr a) || !(right instanceof BinaryExpr b)) {
            return -1;
        }
        ScalarLiteral aConstant = a.constant();
        ScalarLiteral bConstant = b.constant();
        if (aConstant == null || bConstant == null || a.variable() instanceof ScalarLiteral
                || b.variable() instanceof ScalarLiteral) {
            return -1;
        }
        InPlaceValues column = a.variable().inPlace(batch);
        InPlaceValues other = column == null ? null : b.variable().inPlace(batch);
        if (other == null || !column.sameValuesAs(other)) {
            return -1; // not one column's values
        }
        return SelectionKernels.between(column, a.op, aConstant.scalar(), a.constantOnLeft(), b.op, bConstant.scalar(),
                b.constantOnLeft(), selection, count);
    }

    /** The constant operand (the right one when both are), or null when neither is one. */
    private ScalarLiteral constant() {
        if (right instanceof ScalarLiteral s) {
            return s;
        }
        return left instanceof ScalarLiteral s ? s : null;
    }

    /** The operand other than {@link #constant()}. */
    private PhysicalExpr variable() {
        return right instanceof ScalarLiteral ? left : right;
    }

    /** Whether {@link #constant()} is the left operand ({@code c op x}). */
    private boolean constantOnLeft() {
        return !(right instanceof ScalarLiteral) && left instanceof ScalarLiteral;
    }

    /** The rows {@code first} kept, plus those of the rest of the selection where {@code other} is TRUE. */
    private static int orElse(PhysicalExpr other, Batch batch, int[] first, int kept, int[] selection, int count) {
        int[] rest = new int[count - kept];
        int restCount = other.keepTrue(batch, rest, SelectionKernels.difference(selection, count, first, kept, rest));
        return SelectionKernels.union(first, kept, rest, restCount, selection);
    }
}
