package io.sluice.operators.expr;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.DataType.Kind;
import io.sluice.common.types.DataType;
import io.sluice.kernels.Batch;
import io.sluice.kernels.Col;
import io.sluice.kernels.Kernels;
import io.sluice.logical.expr.Case;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntFunction;

/**
 * CASE over bound conditions and results ({@code results} holds the ELSE last), as {@link Case}
 * defines it: a result is evaluated, over the whole batch, only if some row takes it.
 */
public record CaseExpr(Case source, List<PhysicalExpr> conditions, List<PhysicalExpr> results, DataType type)
        implements PhysicalExpr {
    public CaseExpr {
        requireNonNull(source, "source is null");
        conditions = List.copyOf(conditions);
        results = List.copyOf(results);
        requireNonNull(type, "type is null");
        if (results.size() != conditions.size() + 1) {
            throw new IllegalArgumentException(conditions.size() + " conditions need " + (conditions.size() + 1)
                    + " results with the ELSE, not " + results.size());
        }
    }

    @Override
    public Col evaluate(Batch batch) {
        return choose(batch.rowCount(), b -> conditions.get(b).evaluate(batch),
                b -> results.get(b).evaluate(batch));
    }

    /**
     * The CASE over {@code n} rows: {@code condition.apply(b)} gives the b-th condition's values and
     * {@code result.apply(b)} the b-th result's ({@code b} = the number of conditions for ELSE).
     * Each is asked at most once, a result only if some row picks it.
     */
    private Col choose(int n, IntFunction<Col> condition, IntFunction<Col> result) {
        if (type.kind() == Kind.NULL) {
            return Col.allNull(type, n);
        }
        int branches = conditions.size();
        int[] pick = new int[n];
        Arrays.fill(pick, branches); // the ELSE branch
        for (int b = branches - 1; b >= 0; b--) { // last to first, so the first true condition wins
            Col c = condition.apply(b);
            if (c.type.kind() == Kind.NULL) {
                continue;
            }
            for (int row = 0; row < n; row++) {
                if (!c.isNull(row) && c.bools[row]) {
                    pick[row] = b;
                }
            }
        }
        Col[] values = new Col[branches + 1];
        for (int row = 0; row < n; row++) {
            int b = pick[row];
            if (values[b] == null) {
                values[b] = Kernels.cast(result.apply(b), type);
            }
        }
        if (type.isWideDecimal() && anyWide(values)) {
            return pickWide(type, values, pick, n);
        }
        Col out = Col.allocate(type, n, true);
        for (int row = 0; row < n; row++) {
            Col from = values[pick[row]];
            if (from.isNull(row)) {
                out.nulls[row] = true;
                continue;
            }
            switch (type.kind()) {
                case FLOAT64 -> out.doubles[row] = from.doubles[row];
                case BOOL -> out.bools[row] = from.bools[row];
                case UTF8 -> out.strings[row] = from.strings[row];
                case STRUCT, LIST, MAP -> out.objects[row] = from.objects[row];
                default -> out.longs[row] = from.longs[row];
            }
        }
        return out;
    }

    private static boolean anyWide(Col[] values) {
        for (Col v : values) {
            if (v != null && v.isWide()) {
                return true;
            }
        }
        return false;
    }

    /** The picked rows of decimal results of precision 19 to 38, in either form. */
    private static Col pickWide(DataType type, Col[] values, int[] pick, int n) {
        long[] hi = new long[n];
        long[] lo = new long[n];
        boolean[] nulls = new boolean[n];
        for (int row = 0; row < n; row++) {
            Col from = values[pick[row]];
            if (from.isNull(row)) {
                nulls[row] = true;
            } else {
                hi[row] = from.high(row);
                lo[row] = from.low(row);
            }
        }
        return Col.ofInt128(type, hi, lo, nulls);
    }

    @Override
    public String toString() {
        return "case(" + conditions + " -> " + results + ")";
    }
}
