package io.sluice.operators.expr;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.DataType;
import io.sluice.kernels.ArrowKernels;
import io.sluice.kernels.Batch;
import io.sluice.kernels.Col;
import io.sluice.kernels.InPlaceValues;
import io.sluice.kernels.LongInSet;
import io.sluice.kernels.SelectionKernels;
import io.sluice.kernels.StringInSet;
import io.sluice.logical.expr.InList;
import io.sluice.logical.expr.Literal;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;

/**
 * {@code value [NOT] IN (constants)}: one membership test per row against a set of the constants
 * made at binding ({@link LongInSet} for integers, dates, timestamps and decimals of up to 18 digits,
 * as longs at the value's scale; {@link StringInSet} for strings, looked up as UTF-8 bytes on an
 * Arrow vector), instead of one comparison and one boolean column per item. A filter narrows its
 * selection with it in place ({@link #narrowSelection}); as a column it is TRUE, FALSE or NULL as
 * SQL says: NULL for a NULL value, and for a value matching no item when some item is NULL.
 *
 * <p>{@code general} is the list's comparisons bound as such ({@link InList#comparisons}): the form
 * a batch whose value column does not have the bound type is evaluated in. A list this cannot take
 * (an item that is not a constant, values of another type) is bound to that form alone
 * ({@link #bind}).
 */
public final class InListExpr implements PhysicalExpr {
    private final PhysicalExpr value;
    private final LongInSet longs;
    private final StringInSet strings;
    private final boolean hasNull;
    private final boolean negated;
    private final PhysicalExpr general;

    private InListExpr(PhysicalExpr value, LongInSet longs, StringInSet strings, boolean hasNull, boolean negated,
            PhysicalExpr general) {
        this.value = requireNonNull(value, "value is null");
        this.longs = longs;
        this.strings = strings;
        this.hasNull = hasNull;
        this.negated = negated;
        this.general = requireNonNull(general, "general is null");
    }

    /**
     * The bound list: a set when {@code value} is a string or long-backed column-dependent value
     * and every item a constant of a type it compares with exactly, else {@code general}.
     */
    static PhysicalExpr bind(InList list, PhysicalExpr value, List<PhysicalExpr> items, PhysicalExpr general) {
        DataType type = value.type();
        if (value instanceof ScalarLiteral || !(type.kind() == DataType.Kind.UTF8 || isLongBacked(type))) {
            return general;
        }
        boolean hasNull = false;
        List<String> texts = new ArrayList<>();
        long[] numbers = new long[items.size()];
        int n = 0;
        for (PhysicalExpr item : items) {
            if (!(item instanceof ScalarLiteral constant)) {
                return general;
            }
            Literal literal = constant.literal();
            if (literal.value() == null) {
                hasNull = true;
            } else if (type.kind() == DataType.Kind.UTF8) {
                if (!(literal.value() instanceof String text)) {
                    return general;
                }
                texts.add(text);
            } else {
                BigDecimal exact = exactValue(type, literal);
                if (exact == null) {
                    return general;
                }
                Long scaled = scaledLong(exact, type);
                if (scaled != null) { // else no value of the type equals it
                    numbers[n++] = scaled;
                }
            }
        }
        if (texts.isEmpty() && n == 0) {
            return general; // only NULLs, or constants no value can equal: rare, and the comparisons say it
        }
        return new InListExpr(value, n == 0 ? null : LongInSet.of(Arrays.copyOf(numbers, n)),
                texts.isEmpty() ? null : StringInSet.of(texts), hasNull, list.negated(), general);
    }

    private static boolean isLongBacked(DataType type) {
        return switch (type.kind()) {
            case INT32, INT64, DATE32, TIMESTAMP -> true;
            case DECIMAL -> !type.isWideDecimal();
            default -> false;
        };
    }

    /**
     * The constant as an exact number comparable with values of {@code type}, or null when it is
     * not one such a comparison takes here: a date only with dates, a timestamp only with
     * timestamps, an integer or decimal with integers and decimals (a double goes to the comparisons).
     */
    private static BigDecimal exactValue(DataType type, Literal literal) {
        DataType.Kind kind = literal.type().kind();
        boolean temporal = type.kind() == DataType.Kind.DATE32 || type.kind() == DataType.Kind.TIMESTAMP;
        if (temporal ? kind != type.kind() : kind != DataType.Kind.INT32 && kind != DataType.Kind.INT64
                && kind != DataType.Kind.DECIMAL) {
            return null;
        }
        int scale = kind == DataType.Kind.DECIMAL ? literal.type().scale() : 0;
        Object v = literal.value();
        if (v instanceof Long l) {
            return BigDecimal.valueOf(l, scale);
        }
        return v instanceof BigInteger b ? new BigDecimal(b, scale) : null;
    }

    /** The constant as an unscaled long at the scale of {@code type}, or null when no value of it is equal. */
    private static Long scaledLong(BigDecimal exact, DataType type) {
        int scale = type.kind() == DataType.Kind.DECIMAL ? type.scale() : 0;
        try {
            BigInteger unscaled = exact.setScale(scale).unscaledValue();
            return unscaled.bitLength() < 64 ? unscaled.longValue() : null;
        } catch (ArithmeticException e) {
            return null; // digits past the type's scale
        }
    }

    @Override
    public DataType type() {
        return DataType.BOOL;
    }

    @Override
    public Col evaluate(Batch batch) {
        Values v = values(batch);
        if (v == null) {
            return general.evaluate(batch);
        }
        int rows = batch.rowCount();
        int[] selection = new int[rows];
        SelectionKernels.all(selection, rows);
        if (!hasNull) {
            int kept = select(v, negated, selection, rows);
            return SelectionKernels.toBools(selection, kept, rows, v.nulls());
        }
        // no match is NULL (a NULL value too); a match is TRUE for IN, FALSE for NOT IN
        int members = select(v, false, selection, rows);
        boolean[] nulls = new boolean[rows];
        Arrays.fill(nulls, true);
        for (int k = 0; k < members; k++) {
            nulls[selection[k]] = false;
        }
        return SelectionKernels.toBools(selection, negated ? 0 : members, rows, nulls);
    }

    /** Keeps the rows where the list is TRUE; none for NOT IN with a NULL item (no row is TRUE then). */
    @Override
    public int narrowSelection(Batch batch, int[] selection, int count) {
        if (negated && hasNull) {
            return 0;
        }
        Values v = values(batch);
        return v == null ? -1 : select(v, negated, selection, count);
    }

    /** The value column in a form the sets read: in place, an Arrow string vector, or a heap column of the bound type. */
    private record Values(InPlaceValues inPlace, VarCharVector vector, Col column) {
        boolean[] nulls() {
            if (inPlace != null) {
                return inPlace.nullFlags();
            }
            if (vector != null) {
                return ArrowKernels.nulls(vector, vector.getValueCount());
            }
            return column.nulls;
        }
    }

    private Values values(Batch batch) {
        if (strings != null) {
            FieldVector vector = value.arrowVector(batch);
            if (vector instanceof VarCharVector v) {
                return new Values(null, v, null);
            }
        } else {
            InPlaceValues inPlace = value.inPlace(batch);
            if (inPlace != null) {
                return new Values(inPlace, null, null);
            }
        }
        Col c = value.evaluate(batch);
        boolean readable = c.type.equals(value.type()) && (strings != null ? c.strings != null : c.longs != null);
        return readable ? new Values(null, null, c) : null;
    }

    private int select(Values v, boolean keepNonMembers, int[] selection, int count) {
        if (strings != null) {
            return v.vector() != null ? strings.select(v.vector(), keepNonMembers, selection, count)
                    : strings.select(v.column().strings, v.column().nulls, keepNonMembers, selection, count);
        }
        return v.inPlace() != null ? longs.select(v.inPlace(), keepNonMembers, selection, count)
                : longs.select(v.column().longs, v.column().nulls, keepNonMembers, selection, count);
    }

    @Override
    public String toString() {
        return general.toString();
    }
}
