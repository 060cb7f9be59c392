package io.sluice.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** The median the benchmarks report, one definition for all: the upper middle value for an even count. */
public final class Medians {
    private Medians() {
    }

    /** The median of {@code values}, which are sorted in place (callers print them sorted). */
    public static double sortInPlace(double[] values) {
        Arrays.sort(values);
        return values[values.length / 2];
    }

    /** The median of {@code values}, which are left as they are. */
    public static double of(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        sorted.sort(null);
        return sorted.get(sorted.size() / 2);
    }
}
