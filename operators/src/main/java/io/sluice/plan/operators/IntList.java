package io.sluice.plan.operators;

import java.util.Arrays;

/** A growable list of ints with no boxing: row indexes collected across a loop. */
final class IntList {
    private int[] values;
    private int size;

    IntList(int capacity) {
        values = new int[Math.max(capacity, 8)];
    }

    void add(int value) {
        if (size == values.length) {
            values = Arrays.copyOf(values, size * 2);
        }
        values[size++] = value;
    }

    /** Appends {@code from, from + 1, ..., to - 1}. */
    void addRange(int from, int to) {
        int n = to - from;
        if (size + n > values.length) {
            values = Arrays.copyOf(values, Math.max(size + n, size * 2));
        }
        for (int v = from; v < to; v++) {
            values[size++] = v;
        }
    }

    int size() {
        return size;
    }

    int get(int index) {
        return values[index];
    }

    /** The backing array; valid up to {@link #size()}. */
    int[] array() {
        return values;
    }

    void clear() {
        size = 0;
    }
}
