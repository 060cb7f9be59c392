package io.sluice.operators.aggregate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.kernels.Col;
import io.sluice.logical.expr.AggregateCall;
import io.sluice.logical.expr.AggregateFunction;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Literal;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The sketch aggregates through their two phases: partial states from separate inputs merged as
 * the final phase merges them after a shuffle, and the estimates within their stated error.
 */
class SketchAccumulatorsTest {
    private static final int ROWS = 100_000;

    private static Accumulator accumulator(AggregateFunction function, Object... options) {
        List<Literal> literals = java.util.Arrays.stream(options)
                .map(o -> o instanceof Double d ? Literal.of(d) : o instanceof Boolean b ? Literal.of(b) : Literal.of((Long) o))
                .toList();
        AggregateCall call = new AggregateCall(function, new Column("x"), null, literals);
        return Accumulators.create(call, DataType.INT64, null);
    }

    /** Values {@code from, from + step, ...} ({@code count} of them), each twice, into group 0 in batches of 8192. */
    private static void feed(Accumulator a, long from, long step, int count) {
        a.ensureCapacity(1);
        int[] groups = new int[8192];
        for (int start = 0; start < 2 * count; start += 8192) {
            int n = Math.min(8192, 2 * count - start);
            long[] values = new long[n];
            for (int i = 0; i < n; i++) {
                values[i] = from + step * ((start + i) % count);
            }
            a.update(groups, n, Col.ofLongs(DataType.INT64, values, null));
        }
    }

    /** Two partial accumulators over halves of the input, merged into a final one: its result. */
    private static Col twoPhase(AggregateFunction function, long step, Object... options) {
        Accumulator left = accumulator(function, options);
        Accumulator right = accumulator(function, options);
        feed(left, 0, step, ROWS / 2);
        feed(right, step * (ROWS / 2), step, ROWS / 2);
        Accumulator merged = accumulator(function, options);
        merged.ensureCapacity(1);
        merged.merge(new int[] {0}, 1, left.states(0, 1));
        merged.merge(new int[] {0}, 1, right.states(0, 1));
        assertThat(merged.heapBytes()).isPositive();
        return merged.result(0, 1);
    }

    @Test
    void approxCountDistinctIsWithinItsRelativeErrorOnAHundredThousandValues() {
        for (double rsd : new double[] {0.05, 0.01}) {
            long estimate = twoPhase(AggregateFunction.APPROX_COUNT_DISTINCT, 7919, rsd).longs[0];
            double error = Math.abs(estimate - ROWS) / (double) ROWS;
            // the standard error is rsd; three of them bound a deterministic hash's outcome with room
            assertThat(error).as("relative error at rsd %s (estimate %d)", rsd, estimate).isLessThan(3 * rsd);
        }
        Accumulator small = accumulator(AggregateFunction.APPROX_COUNT_DISTINCT, 0.05);
        feed(small, 1, 1, 10);
        assertThat(small.result(0, 1).longs[0]).isEqualTo(10);
        assertThatThrownBy(() -> accumulator(AggregateFunction.APPROX_COUNT_DISTINCT, 0.5)).isInstanceOf(SluiceException.class)
                .hasMessage("approx_count_distinct(): the relative standard deviation 0.5 must be above 0 and at most 0.39");
    }

    @Test
    void percentileApproxIsExactOnFewValuesAndCloseOnMany() {
        Accumulator few = accumulator(AggregateFunction.PERCENTILE_APPROX, 0.5, 100L);
        feed(few, 1, 1, 10); // 1..10 twice
        assertThat(few.result(0, 1).longs[0]).isEqualTo(5);
        long median = twoPhase(AggregateFunction.PERCENTILE_APPROX, 1, 0.5, 1000L).longs[0];
        assertThat(Math.abs(median - ROWS / 2)).as("median %d", median).isLessThan(ROWS / 100);
        long p90 = twoPhase(AggregateFunction.PERCENTILE_APPROX, 1, 0.9, 1000L).longs[0];
        assertThat(Math.abs(p90 - ROWS * 9 / 10)).as("90th percentile %d", p90).isLessThan(ROWS / 100);
        assertThatThrownBy(() -> accumulator(AggregateFunction.PERCENTILE_APPROX, 1.5, 100L)).isInstanceOf(SluiceException.class)
                .hasMessage("percentile_approx(): the percentage 1.5 must be between 0 and 1");
    }

    @Test
    void firstAndLastSkipNullsWhenAsked() {
        Col values = Col.ofLongs(DataType.INT64, new long[] {0, 5, 6, 0}, new boolean[] {true, false, false, true});
        int[] groups = new int[4];
        for (boolean ignore : new boolean[] {false, true}) {
            Accumulator first = accumulator(AggregateFunction.FIRST, ignore);
            Accumulator last = accumulator(AggregateFunction.LAST, ignore);
            first.ensureCapacity(1);
            last.ensureCapacity(1);
            first.update(groups, 4, values);
            last.update(groups, 4, values);
            assertThat(first.result(0, 1).get(0)).isEqualTo(ignore ? 5L : null);
            assertThat(last.result(0, 1).get(0)).isEqualTo(ignore ? 6L : null);
        }
    }
}
