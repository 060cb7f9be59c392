package io.sluice.operators.aggregate;

import io.sluice.common.types.DataType;
import io.sluice.kernels.Col;
import io.sluice.kernels.InPlaceValues;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.vector.FieldVector;

/**
 * The per-group state of one aggregate function, in arrays indexed by group id. Updated once per
 * batch (a loop over the batch's rows), so the virtual call is per batch, not per row.
 *
 * <p>Two-phase aggregation: the partial phase {@link #update}s from raw values and emits
 * {@link #states}; the final phase {@link #merge}s those states and emits {@link #result}.
 */
abstract class Accumulator {
    /** Folds raw argument values into their groups ({@code arg} is null for count(*)). */
    abstract void update(int[] groups, int rows, Col arg);

    /** Folds the raw values of a two-argument function's arguments into their groups. */
    void update(int[] groups, int rows, Col arg, Col second) {
        update(groups, rows, arg);
    }

    /**
     * Folds raw argument values read in place from their Arrow vector into their groups, as
     * {@link #update(int[], int, Col)} would from the heap column; false (nothing done) when this
     * accumulator does not read that form, and the caller passes the heap column instead.
     */
    boolean updateInPlace(int[] groups, int rows, InPlaceValues arg) {
        return false;
    }

    /**
     * Folds only which rows of the argument are NULL into their groups, read from its Arrow vector's
     * validity bits, for an accumulator that needs nothing else of the values (count(x)): a string
     * or boolean column is then counted without being unpacked. False (nothing done) when this
     * accumulator needs the values, and the caller passes them instead.
     */
    boolean updateNonNulls(int[] groups, int rows, FieldVector arg) {
        return false;
    }

    /** Folds partial states (as emitted by {@link #states}) into their groups. */
    abstract void merge(int[] groups, int rows, Col[] states);

    /**
     * Folds partial states read in place from their Arrow vectors (a shuffle fetch) into their
     * groups, as {@link #merge} would from heap columns; false (nothing done) when this accumulator
     * does not read that form, and the caller passes the heap columns instead.
     */
    boolean mergeInPlace(int[] groups, int rows, InPlaceValues[] states) {
        return false;
    }

    /**
     * Whether another accumulator of the same aggregate holds and updates this one's state (a sum
     * and an average of one argument), so that updating or merging this one does nothing and the
     * caller need not evaluate its argument.
     */
    boolean sharesState() {
        return false;
    }

    /** Grows the state to hold {@code groups} groups. */
    abstract void ensureCapacity(int groups);

    /** Types of the partial state columns. */
    abstract List<DataType> stateTypes();

    abstract Col[] states(int from, int count);

    abstract Col result(int from, int count);

    /** Estimated heap bytes of the per-group state (for the aggregate's memory reservation). */
    abstract long heapBytes();

    /** Groups {@code [from, from + count)} that saw no value: their sum, min, max or avg is NULL. */
    static boolean[] noRows(long[] counts, int from, int count) {
        boolean[] empty = new boolean[count];
        for (int i = 0; i < count; i++) {
            empty[i] = counts[from + i] == 0;
        }
        return empty;
    }

    /** {@code totals[i] / counts[from + i]}, NULL where a group saw no value; divides {@code totals} in place. */
    static Col averages(double[] totals, long[] counts, int from) {
        boolean[] nulls = noRows(counts, from, totals.length);
        for (int i = 0; i < totals.length; i++) {
            if (!nulls[i]) {
                totals[i] /= counts[from + i];
            }
        }
        return Col.ofDoubles(totals, nulls);
    }

    /** The per-group row counts of {@code [from, from + count)} as a state column. */
    static Col countColumn(long[] counts, int from, int count) {
        return Col.ofLongs(DataType.INT64, Arrays.copyOfRange(counts, from, from + count), null);
    }

    /** Groups {@code [from, from + count)} of a per-group double state as a state column. */
    static Col doubleColumn(double[] values, int from, int count) {
        return Col.ofDoubles(Arrays.copyOfRange(values, from, from + count), null);
    }

    static int grow(int current, int needed) {
        int size = Math.max(16, current);
        while (size < needed) {
            size *= 2;
        }
        return size;
    }
}
