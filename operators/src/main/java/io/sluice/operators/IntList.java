package io.sluice.operators;

import java.util.Arrays;

/** A growable list of ints with no boxing: row indexes collected across a loop. */
public final class IntList {
    private int[] values;
    private int size;

    public IntList(int capacity) {
        values = new int[Math.max(capacity, 8)];
    }

    public void add(int value) {
        if (size == values.length) {
            values = Arrays.copyOf(values, size * 2);
        }
        values[size++] = value;
    }

    /** Appends {@code from, from + 1, ..., to - 1}. */
    public void addRange(int from, int to) {
        int n = to - from;
        if (size + n > values.length) {
            values = Arrays.copyOf(values, Math.max(size + n, size * 2));
        }
        for (int v = from; v < to; v++) {
            values[size++] = v;
        }
    }

    public int size() {
        return size;
    }

    public int get(int index) {
        return values[index];
    }

    /** The backing array; valid up to {@link #size()}. */
    public int[] array() {
        return values;
    }

    public void clear() {
        size = 0;
    }
}
