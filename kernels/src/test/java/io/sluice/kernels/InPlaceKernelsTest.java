package io.sluice.kernels;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.SluiceException;
import io.sluice.common.types.BinaryOp;
import io.sluice.common.types.DataType;
import io.sluice.common.types.TypeRules;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.FieldVector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The kernels over Arrow vectors read in place give what the heap kernels give on the same
 * columns (values, NULLs, result types), for every vector layout they read (4- and 8-byte
 * integers, dates, 16-byte decimals, doubles), with values under NULL slots that would overflow
 * were they computed with; shapes they do not take are declined (null), never answered wrongly.
 */
class InPlaceKernelsTest {
    private static final Supplier<String> EXPRESSION = () -> "the expression";
    private static final BinaryOp[] COMPARISONS = {BinaryOp.EQ, BinaryOp.NOT_EQ, BinaryOp.LT, BinaryOp.LT_EQ,
            BinaryOp.GT, BinaryOp.GT_EQ};
    private static final DataType[] TYPES = {DataType.INT32, DataType.DATE32, DataType.INT64, DataType.decimal(15, 2),
            DataType.decimal(9, 2), DataType.FLOAT64};

    private final BufferAllocator allocator = new RootAllocator();
    private final Random random = new Random(7);
    private final List<FieldVector> vectors = new ArrayList<>();

    @AfterEach
    void closeAll() {
        vectors.forEach(FieldVector::close);
        assertThat(allocator.getAllocatedMemory()).isZero();
        allocator.close();
    }

    /** A column of {@code type} with NULLs, values drawn from a small range so comparisons hit equality. */
    private Col column(DataType type, int rows) {
        boolean[] nulls = new boolean[rows];
        for (int i = 0; i < rows; i++) {
            nulls[i] = random.nextInt(5) == 0;
        }
        if (type.kind() == DataType.Kind.FLOAT64) {
            double[] values = new double[rows];
            for (int i = 0; i < rows; i++) {
                values[i] = random.nextInt(41) - 20 + (random.nextBoolean() ? 0.5 : 0);
            }
            return Col.ofDoubles(values, nulls);
        }
        long[] values = new long[rows];
        boolean decimal = type.kind() == DataType.Kind.DECIMAL;
        for (int i = 0; i < rows; i++) { // whole numbers and halves, so the constants below occur
            values[i] = decimal ? (random.nextInt(41) - 20) * 100L + (random.nextBoolean() ? 50 : 0) : random.nextInt(41) - 20;
        }
        return Col.ofLongs(type, values, nulls);
    }

    /** {@code col} as an Arrow vector whose NULL slots hold the largest value its layout takes. */
    private InPlaceValues inPlace(Col col) {
        FieldVector vector = col.write("c", allocator);
        vectors.add(vector);
        BaseFixedWidthVector fixed = (BaseFixedWidthVector) vector;
        long data = fixed.getDataBuffer().memoryAddress();
        int width = fixed.getTypeWidth();
        for (int i = 0; i < col.length; i++) {
            if (col.isNull(i)) {
                if (width == 4) {
                    MemoryUtil.putInt(data + 4L * i, Integer.MAX_VALUE);
                } else {
                    MemoryUtil.putLong(data + (long) width * i, Long.MAX_VALUE);
                }
            }
        }
        InPlaceValues values = InPlaceValues.of(vector, col.type);
        assertThat(values).as("read in place: " + col.type).isNotNull();
        return values;
    }

    private static Col one(DataType type, long value) {
        return Col.ofLongs(type, new long[] {value}, null);
    }

    private static List<Object> values(Col c) {
        List<Object> out = new ArrayList<>();
        for (int i = 0; i < c.length; i++) {
            Object v = c.get(i);
            out.add(v instanceof BigDecimal d ? d.stripTrailingZeros().toPlainString() : v);
        }
        return out;
    }

    /** Constants to compare and compute with: integers, decimals at the column's scale and coarser, a double for doubles. */
    private static List<Col> constants(DataType type) {
        List<Col> out = new ArrayList<>();
        if (type.kind() == DataType.Kind.FLOAT64) {
            out.add(Col.ofDoubles(new double[] {3.5}, null));
            out.add(one(DataType.INT64, -4));
            out.add(one(DataType.decimal(4, 2), 150));
            return out;
        }
        out.add(one(type.kind() == DataType.Kind.DATE32 ? DataType.DATE32 : DataType.INT64, 17));
        out.add(one(type.kind() == DataType.Kind.DATE32 ? DataType.DATE32 : DataType.INT32, -19));
        if (type.kind() == DataType.Kind.DECIMAL) {
            out.add(one(DataType.decimal(5, 2), 1700)); // 17.00: the column's scale
            out.add(one(DataType.decimal(3, 1), -5)); // -0.5: a coarser scale
        }
        return out;
    }

    @Test
    void comparisonsAgainstConstantsMatchTheHeapKernels() {
        for (DataType type : TYPES) {
            Col col = column(type, 1000);
            InPlaceValues arrow = inPlace(col);
            for (Col constant : constants(type)) {
                for (BinaryOp op : COMPARISONS) {
                    for (boolean left : new boolean[] {false, true}) {
                        Col got = InPlaceKernels.compare(op, arrow, constant, left);
                        String what = type + " " + op + " " + constant.get(0) + (left ? " (constant on the left)" : "");
                        assertThat(got).as(what).isNotNull();
                        assertThat(values(got)).as(what).isEqualTo(values(ScalarKernels.compare(op, col, constant, left)));
                    }
                }
            }
        }
    }

    @Test
    void arithmeticAgainstConstantsMatchesTheHeapKernels() {
        int taken = 0;
        for (DataType type : TYPES) {
            if (type.kind() == DataType.Kind.DATE32) {
                continue; // date arithmetic takes intervals, not these constants
            }
            Col col = column(type, 1000);
            InPlaceValues arrow = inPlace(col);
            for (Col constant : constants(type)) {
                for (BinaryOp op : new BinaryOp[] {BinaryOp.ADD, BinaryOp.SUBTRACT, BinaryOp.MULTIPLY, BinaryOp.DIVIDE}) {
                    for (boolean left : new boolean[] {false, true}) {
                        DataType result = left ? TypeRules.arithmetic(op, constant.type, type)
                                : TypeRules.arithmetic(op, type, constant.type);
                        Col got = InPlaceKernels.arithmetic(op, arrow, constant, left, result, EXPRESSION);
                        boolean integerConstant = constant.type.kind() == DataType.Kind.INT32
                                || constant.type.kind() == DataType.Kind.INT64;
                        if (op != BinaryOp.DIVIDE && (integerConstant || type.kind() == DataType.Kind.FLOAT64)) {
                            assertThat(got).as("taken: " + type + " " + op + " " + constant.type).isNotNull();
                        }
                        if (got == null) {
                            continue; // declined: the heap kernel answers
                        }
                        taken++;
                        String what = type + " " + op + " " + constant.get(0) + (left ? " (constant on the left)" : "");
                        Col expected = ScalarKernels.arithmetic(op, col, constant, left, result, EXPRESSION);
                        assertThat(got.type).as(what).isEqualTo(expected.type);
                        assertThat(values(got)).as(what).isEqualTo(values(expected));
                    }
                }
            }
        }
        assertThat(taken).as("shapes computed in place").isGreaterThan(40);
    }

    @Test
    void columnArithmeticAndComparisonsMatchTheHeapKernels() {
        for (DataType type : new DataType[] {DataType.INT32, DataType.INT64, DataType.decimal(15, 2)}) {
            Col a = column(type, 700);
            Col b = column(DataType.decimal(16, 2), 700);
            DataType result = TypeRules.arithmetic(BinaryOp.MULTIPLY, type, b.type);
            Col got = InPlaceKernels.multiply(inPlace(a), b, result, EXPRESSION);
            assertThat(got).as(type + " * " + b.type).isNotNull();
            assertThat(values(got)).as(type + " * " + b.type)
                    .isEqualTo(values(Kernels.arithmetic(BinaryOp.MULTIPLY, a, b, result, EXPRESSION)));
            Col both = InPlaceKernels.multiply(inPlace(a), inPlace(b), result, EXPRESSION);
            assertThat(both).as(type + " * " + b.type + ", both in place").isNotNull();
            assertThat(values(both)).as(type + " * " + b.type + ", both in place").isEqualTo(values(got));
        }
        for (DataType type : new DataType[] {DataType.INT32, DataType.INT64, DataType.decimal(15, 2)}) {
            for (BinaryOp op : new BinaryOp[] {BinaryOp.ADD, BinaryOp.SUBTRACT}) {
                for (boolean columnOnLeft : new boolean[] {true, false}) {
                    Col a = column(type, 600);
                    Col b = column(type.kind() == DataType.Kind.INT32 ? DataType.INT64 : type, 600);
                    DataType result = columnOnLeft ? TypeRules.arithmetic(op, a.type, b.type) : TypeRules.arithmetic(op, b.type, a.type);
                    Col got = InPlaceKernels.withColumn(op, inPlace(a), b, columnOnLeft, result, EXPRESSION);
                    String what = (columnOnLeft ? type + " " + op + " " + b.type : b.type + " " + op + " " + type);
                    assertThat(got).as(what).isNotNull();
                    Col expected = columnOnLeft ? Kernels.arithmetic(op, a, b, result, EXPRESSION)
                            : Kernels.arithmetic(op, b, a, result, EXPRESSION);
                    assertThat(values(got)).as(what).isEqualTo(values(expected));
                }
            }
        }
        for (DataType type : TYPES) {
            Col l = column(type, 900);
            Col r = column(type, 900);
            InPlaceValues la = inPlace(l);
            InPlaceValues ra = inPlace(r);
            for (BinaryOp op : COMPARISONS) {
                assertThat(values(InPlaceKernels.compare(op, la, ra))).as(type + " " + op)
                        .isEqualTo(values(Kernels.compare(op, l, r)));
            }
        }
    }

    @Test
    void shapesNotTakenAreDeclinedAndOverflowStaysTheHeapKernelsError() {
        Col ints = column(DataType.INT64, 100);
        InPlaceValues arrow = inPlace(ints);
        // a constant at a finer scale than the column, a NULL constant, a double against integers
        assertThat(InPlaceKernels.compare(BinaryOp.LT, arrow, one(DataType.decimal(4, 2), 150), false)).isNull();
        assertThat(InPlaceKernels.compare(BinaryOp.LT, arrow, Col.allNull(DataType.INT64, 1), false)).isNull();
        assertThat(InPlaceKernels.compare(BinaryOp.LT, arrow, Col.ofDoubles(new double[] {1.5}, null), false)).isNull();
        // a sum passing a long: declined, and the heap kernel names the expression
        Col max = Col.ofLongs(DataType.INT64, new long[] {1, Long.MAX_VALUE}, null);
        assertThat(InPlaceKernels.arithmetic(BinaryOp.ADD, inPlace(max), one(DataType.INT64, 1), false, DataType.INT64,
                EXPRESSION)).isNull();
        assertThatThrownBy(() -> ScalarKernels.arithmetic(BinaryOp.ADD, max, one(DataType.INT64, 1), false,
                DataType.INT64, EXPRESSION)).isInstanceOf(SluiceException.class).hasMessageContaining("the expression");
        // a product passing a long, both columns in place: declined, for the heap kernel to widen or name the expression
        Col huge = Col.ofLongs(DataType.INT64, new long[] {Long.MAX_VALUE / 2, 3}, null);
        assertThat(InPlaceKernels.multiply(inPlace(huge), inPlace(huge), DataType.INT64, EXPRESSION)).isNull();
        // a product past its declared precision is the same error in place
        Col big = Col.ofLongs(DataType.decimal(18, 0), new long[] {200_000_000_000_000_000L}, null); // * 10 fits a long, not 18 digits
        assertThatThrownBy(() -> InPlaceKernels.arithmetic(BinaryOp.MULTIPLY, inPlace(big), one(DataType.INT32, 10),
                false, DataType.decimal(18, 0), EXPRESSION))
                .isInstanceOf(SluiceException.class).hasMessageContaining("the expression");
    }

    /** Every third row, ascending: a selection an earlier conjunct narrowed. */
    private static int thirds(int[] selection, int rows) {
        int count = 0;
        for (int i = 0; i < rows; i += 3) {
            selection[count++] = i;
        }
        return count;
    }

    /** The rows of {@code selection[0, count)} whose value in the heap kernel's result is TRUE. */
    private static List<Integer> trueRows(Col mask, int[] selection, int count) {
        List<Integer> out = new ArrayList<>();
        for (int k = 0; k < count; k++) {
            if (!mask.isNull(selection[k]) && mask.bools[selection[k]]) {
                out.add(selection[k]);
            }
        }
        return out;
    }

    private static List<Integer> prefix(int[] selection, int count) {
        List<Integer> out = new ArrayList<>();
        for (int k = 0; k < count; k++) {
            out.add(selection[k]);
        }
        return out;
    }

    @Test
    void selectionComparisonsKeepTheRowsTheHeapKernelsFindTrue() {
        int rows = 1000;
        for (DataType type : TYPES) {
            Col col = column(type, rows);
            InPlaceValues arrow = inPlace(col);
            Col other = column(type, rows);
            InPlaceValues otherArrow = inPlace(other);
            for (BinaryOp op : COMPARISONS) {
                for (Col constant : constants(type)) {
                    for (boolean left : new boolean[] {false, true}) {
                        int[] selection = new int[rows];
                        int count = thirds(selection, rows);
                        List<Integer> expected = trueRows(ScalarKernels.compare(op, col, constant, left), selection, count);
                        int kept = SelectionKernels.compare(op, arrow, constant, left, selection, count);
                        String what = type + " " + op + " " + constant.get(0) + (left ? " (constant on the left)" : "");
                        assertThat(prefix(selection, kept)).as(what).isEqualTo(expected);
                    }
                }
                int[] selection = new int[rows];
                int count = SelectionKernels.all(selection, rows);
                List<Integer> expected = trueRows(Kernels.compare(op, col, other), selection, count);
                int kept = SelectionKernels.compare(op, arrow, otherArrow, selection, count);
                assertThat(prefix(selection, kept)).as(type + " " + op + " " + type).isEqualTo(expected);
            }
            int[] selection = new int[rows];
            int count = thirds(selection, rows);
            Col mask = ScalarKernels.compare(BinaryOp.GT, col, constants(type).get(0), false);
            List<Integer> expected = trueRows(mask, selection, count);
            assertThat(prefix(selection, SelectionKernels.mask(mask, selection, count))).as("mask " + type).isEqualTo(expected);
        }
    }

    @Test
    void selectionComparisonsDeclineWhatTheyDoNotTake() {
        InPlaceValues ints = inPlace(column(DataType.INT64, 100));
        int[] selection = new int[100];
        int count = SelectionKernels.all(selection, 100);
        assertThat(SelectionKernels.compare(BinaryOp.LT, ints, one(DataType.decimal(4, 2), 150), false, selection, count))
                .isEqualTo(-1);
        assertThat(SelectionKernels.compare(BinaryOp.LT, ints, Col.allNull(DataType.INT64, 1), false, selection, count))
                .isEqualTo(-1);
        assertThat(SelectionKernels.compare(BinaryOp.LT, ints, inPlace(column(DataType.decimal(15, 2), 100)), selection,
                count)).isEqualTo(-1);
        assertThat(prefix(selection, count)).as("a declined kernel leaves the selection").hasSize(100).startsWith(0, 1, 2);
        // the bounds of a long: nothing below the smallest, nothing above the largest
        assertThat(SelectionKernels.compare(BinaryOp.LT, ints, one(DataType.INT64, Long.MIN_VALUE), false, selection, count))
                .isZero();
        assertThat(SelectionKernels.compare(BinaryOp.GT, ints, one(DataType.INT64, Long.MAX_VALUE), false, selection,
                SelectionKernels.all(selection, 100))).isZero();
    }
}
