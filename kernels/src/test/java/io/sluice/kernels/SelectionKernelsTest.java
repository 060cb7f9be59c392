package io.sluice.kernels;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.common.types.BinaryOp;
import io.sluice.common.types.DataType;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.ObjIntConsumer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The selection kernels' comparisons against a row-by-row reference: every comparison, constants on
 * either side, ranges, two columns, with and without NULLs, over values that include each type's
 * extremes (where {@code v - low} wraps around) and, for doubles, NaN and both zeros.
 */
class SelectionKernelsTest {
    private static final BinaryOp[] COMPARISONS = {BinaryOp.EQ, BinaryOp.NOT_EQ, BinaryOp.LT, BinaryOp.LT_EQ,
        BinaryOp.GT, BinaryOp.GT_EQ};
    private static final long[] LONG_EDGES = {Long.MIN_VALUE, Long.MIN_VALUE + 1, -1, 0, 1, Long.MAX_VALUE - 1,
        Long.MAX_VALUE};
    private static final long[] INT_EDGES = {Integer.MIN_VALUE, Integer.MIN_VALUE + 1, -1, 0, 1, Integer.MAX_VALUE - 1,
        Integer.MAX_VALUE};
    private static final double[] DOUBLE_EDGES = {Double.NaN, -0.0, 0.0, Double.NEGATIVE_INFINITY,
        Double.POSITIVE_INFINITY, -1.5, 1.5};
    private static final int ROWS = 300;

    private final BufferAllocator allocator = new RootAllocator();
    private final Random random = new Random(42);
    private final List<FieldVector> vectors = new ArrayList<>();

    @AfterEach
    void close() {
        vectors.forEach(FieldVector::close);
        allocator.close();
    }

    @Test
    void aColumnAgainstAConstantKeepsTheRowsTheComparisonHolds() {
        forEachLongColumn((wide, edges, values, column, described) -> {
            for (BinaryOp op : COMPARISONS) {
                for (long constant : constants(edges, wide)) {
                    for (boolean constantOnLeft : new boolean[] {false, true}) {
                        int[] selection = someRows();
                        List<Integer> expected = new ArrayList<>();
                        for (int row : selection) {
                            Long v = values[row];
                            if (v != null && holds(op, constantOnLeft ? Long.compare(constant, v) : Long.compare(v, constant))) {
                                expected.add(row);
                            }
                        }
                        int kept = SelectionKernels.compare(op, column, scalar(constant, wide), constantOnLeft,
                                selection, selection.length);
                        assertThat(rows(selection, kept)).as("%s %s %d (constant on the left %s)", described, op, constant,
                                constantOnLeft).isEqualTo(expected);
                    }
                }
            }
        });
    }

    @Test
    void twoBoundsOnAColumnKeepTheRowsBetweenThem() {
        forEachLongColumn((wide, edges, values, column, described) -> {
            for (int trial = 0; trial < 400; trial++) {
                BinaryOp op1 = COMPARISONS[2 + random.nextInt(4)];
                BinaryOp op2 = COMPARISONS[random.nextInt(2) == 0 ? 0 : 2 + random.nextInt(4)];
                long c1 = pick(constants(edges, wide));
                long c2 = pick(constants(edges, wide));
                int[] selection = someRows();
                List<Integer> expected = new ArrayList<>();
                for (int row : selection) {
                    Long v = values[row];
                    if (v != null && holds(op1, Long.compare(v, c1)) && holds(op2, Long.compare(v, c2))) {
                        expected.add(row);
                    }
                }
                int kept = SelectionKernels.between(column, op1, scalar(c1, wide), false, op2, scalar(c2, wide), false,
                        selection, selection.length);
                assertThat(rows(selection, kept)).as("%s: v %s %d AND v %s %d", described, op1, c1, op2, c2)
                        .isEqualTo(expected);
            }
        });
    }

    /** A test over one long-backed column read in place. */
    private interface LongColumnCheck {
        void check(boolean wide, long[] edges, Long[] values, InPlaceValues column, String described);
    }

    /** Runs {@code check} over an int32 and an int64 column, each without and with NULLs. */
    private void forEachLongColumn(LongColumnCheck check) {
        for (boolean wide : new boolean[] {false, true}) {
            long[] edges = wide ? LONG_EDGES : INT_EDGES;
            for (boolean withNulls : new boolean[] {false, true}) {
                Long[] values = longValues(edges, withNulls, wide);
                InPlaceValues column = InPlaceValues.of(longVector(values, wide), wide ? DataType.INT64 : DataType.INT32);
                check.check(wide, edges, values, column, (wide ? "int64" : "int32") + (withNulls ? " with NULLs" : ""));
            }
        }
    }

    @Test
    void twoColumnsComparedRowByRow() {
        for (boolean withNulls : new boolean[] {false, true}) {
            Long[] left = longValues(LONG_EDGES, withNulls, true);
            Long[] right = longValues(LONG_EDGES, withNulls, true);
            for (int i = 0; i < ROWS; i += 3) {
                right[i] = left[i]; // equal values too
            }
            Double[] leftDoubles = doubleValues(withNulls);
            Double[] rightDoubles = doubleValues(withNulls);
            for (int i = 0; i < ROWS; i += 3) {
                rightDoubles[i] = leftDoubles[i];
            }
            InPlaceValues l = InPlaceValues.of(longVector(left, true), DataType.INT64);
            InPlaceValues r = InPlaceValues.of(longVector(right, true), DataType.INT64);
            InPlaceValues ld = InPlaceValues.of(doubleVector(leftDoubles), DataType.FLOAT64);
            InPlaceValues rd = InPlaceValues.of(doubleVector(rightDoubles), DataType.FLOAT64);
            for (BinaryOp op : COMPARISONS) {
                int[] selection = someRows();
                int[] doublesSelection = selection.clone();
                List<Integer> expected = new ArrayList<>();
                List<Integer> expectedDoubles = new ArrayList<>();
                for (int row : selection) {
                    if (left[row] != null && right[row] != null && holds(op, Long.compare(left[row], right[row]))) {
                        expected.add(row);
                    }
                    if (leftDoubles[row] != null && rightDoubles[row] != null
                            && holds(op, Double.compare(leftDoubles[row], rightDoubles[row]))) {
                        expectedDoubles.add(row);
                    }
                }
                assertThat(rows(selection, SelectionKernels.compare(op, l, r, selection, selection.length)))
                        .as("int64 %s (nulls %s)", op, withNulls).isEqualTo(expected);
                assertThat(rows(doublesSelection, SelectionKernels.compare(op, ld, rd, doublesSelection, doublesSelection.length)))
                        .as("float64 %s (nulls %s)", op, withNulls).isEqualTo(expectedDoubles);
            }
        }
    }

    @Test
    void aDoubleColumnAgainstAConstantOrdersNaNAndZerosAsDoubleCompare() {
        for (boolean withNulls : new boolean[] {false, true}) {
            Double[] values = doubleValues(withNulls);
            InPlaceValues column = InPlaceValues.of(doubleVector(values), DataType.FLOAT64);
            for (BinaryOp op : COMPARISONS) {
                for (double constant : DOUBLE_EDGES) {
                    int[] selection = someRows();
                    List<Integer> expected = new ArrayList<>();
                    for (int row : selection) {
                        if (values[row] != null && holds(op, Double.compare(values[row], constant))) {
                            expected.add(row);
                        }
                    }
                    int kept = SelectionKernels.compare(op, column, Col.ofDoubles(new double[] {constant}, null), false,
                            selection, selection.length);
                    assertThat(rows(selection, kept)).as("%s %s (nulls %s)", op, constant, withNulls).isEqualTo(expected);
                }
            }
        }
    }

    private static boolean holds(BinaryOp op, int order) {
        return switch (op) {
            case EQ -> order == 0;
            case NOT_EQ -> order != 0;
            case LT -> order < 0;
            case LT_EQ -> order <= 0;
            case GT -> order > 0;
            case GT_EQ -> order >= 0;
            default -> throw new IllegalArgumentException(op.toString());
        };
    }

    private long[] constants(long[] edges, boolean wide) {
        long[] constants = new long[edges.length + 3];
        System.arraycopy(edges, 0, constants, 0, edges.length);
        for (int i = edges.length; i < constants.length; i++) {
            constants[i] = wide ? random.nextLong() : random.nextInt();
        }
        return constants;
    }

    private long pick(long[] values) {
        return values[random.nextInt(values.length)];
    }

    private Col scalar(long value, boolean wide) {
        return Col.ofLongs(wide ? DataType.INT64 : DataType.INT32, new long[] {value}, null);
    }

    /** Values drawn from the edges, small numbers and any of the type, a tenth NULL when asked. */
    private Long[] longValues(long[] edges, boolean withNulls, boolean wide) {
        Long[] values = new Long[ROWS];
        for (int i = 0; i < ROWS; i++) {
            int kind = random.nextInt(3);
            values[i] = withNulls && random.nextInt(10) == 0 ? null
                    : kind == 0 ? pick(edges) : kind == 1 ? (long) random.nextInt(7) - 3 : wide ? random.nextLong() : random.nextInt();
        }
        return values;
    }

    private Double[] doubleValues(boolean withNulls) {
        Double[] values = new Double[ROWS];
        for (int i = 0; i < ROWS; i++) {
            values[i] = withNulls && random.nextInt(10) == 0 ? null
                    : random.nextInt(2) == 0 ? DOUBLE_EDGES[random.nextInt(DOUBLE_EDGES.length)] : random.nextGaussian();
        }
        return values;
    }

    /** Every row or a random ascending subset of them. */
    private int[] someRows() {
        List<Integer> rows = new ArrayList<>();
        boolean all = random.nextBoolean();
        for (int i = 0; i < ROWS; i++) {
            if (all || random.nextInt(3) > 0) {
                rows.add(i);
            }
        }
        return rows.stream().mapToInt(Integer::intValue).toArray();
    }

    private static List<Integer> rows(int[] selection, int count) {
        List<Integer> rows = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            rows.add(selection[i]);
        }
        return rows;
    }

    private FieldVector longVector(Long[] values, boolean wide) {
        if (wide) {
            BigIntVector v = new BigIntVector("v", allocator);
            return filled(v, values, (value, i) -> v.set(i, value));
        }
        IntVector v = new IntVector("v", allocator);
        return filled(v, values, (value, i) -> v.set(i, value.intValue()));
    }

    private FieldVector doubleVector(Double[] values) {
        Float8Vector v = new Float8Vector("v", allocator);
        return filled(v, values, (value, i) -> v.set(i, value));
    }

    /** {@code vector} holding {@code values} (null: NULL), each set by {@code set}; closed after the test. */
    private <T> FieldVector filled(BaseFixedWidthVector vector, T[] values, ObjIntConsumer<T> set) {
        vector.allocateNew(values.length);
        for (int i = 0; i < values.length; i++) {
            if (values[i] == null) {
                vector.setNull(i);
            } else {
                set.accept(values[i], i);
            }
        }
        vector.setValueCount(values.length);
        vectors.add(vector);
        return vector;
    }
}
