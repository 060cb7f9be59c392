package io.sluice.logical.expr;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType.Kind;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Schema;
import io.sluice.common.types.TypeRules;
import io.sluice.kernels.Batch;
import io.sluice.kernels.Col;
import io.sluice.kernels.Kernels;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntFunction;

/**
 * {@code CASE WHEN c1 THEN r1 ... ELSE e END}: each row takes the result of its first true
 * condition, else {@code otherwise} (a NULL literal when the query has no ELSE). Results widen to
 * one type: equal types stay, numbers widen (to float64 if any is, else to a decimal wide enough).
 *
 * <p>Vectorized: conditions run over the whole batch, and each result branch over the whole batch
 * only if some row picks it. A branch picked by some rows is therefore also computed for the
 * others, so a failing cast there fails the batch.
 */
public record Case(List<Expr> conditions, List<Expr> results, Expr otherwise) implements Expr {
    public Case {
        conditions = List.copyOf(conditions);
        results = List.copyOf(results);
        requireNonNull(otherwise, "otherwise is null");
        if (conditions.isEmpty() || conditions.size() != results.size()) {
            throw new IllegalArgumentException("CASE needs one result per condition and at least one WHEN");
        }
    }

    @Override
    public DataType type(Schema input) {
        for (Expr c : conditions) {
            TypeRules.checkBoolean("CASE condition " + c, c.type(input));
        }
        DataType out = otherwise.type(input);
        for (Expr r : results) {
            out = widen(out, r.type(input));
        }
        return out;
    }

    private static DataType widen(DataType a, DataType b) {
        DataType common = TypeRules.commonType(a, b);
        if (common == null) {
            throw new SluiceException("CASE results have incompatible types " + a + " and " + b);
        }
        return common;
    }

    @Override
    public List<Expr> children() {
        List<Expr> out = new ArrayList<>(conditions.size() * 2 + 1);
        for (int i = 0; i < conditions.size(); i++) {
            out.add(conditions.get(i));
            out.add(results.get(i));
        }
        out.add(otherwise);
        return out;
    }

    @Override
    public Expr withChildren(List<Expr> children) {
        List<Expr> c = new ArrayList<>();
        List<Expr> r = new ArrayList<>();
        for (int i = 0; i + 1 < children.size(); i += 2) {
            c.add(children.get(i));
            r.add(children.get(i + 1));
        }
        return new Case(c, r, children.get(children.size() - 1));
    }

    @Override
    public Col evaluate(Batch batch) {
        return choose(batch.rowCount(), type(batch.schema()), b -> conditions.get(b).evaluate(batch),
                b -> (b == conditions.size() ? otherwise : results.get(b)).evaluate(batch));
    }

    /**
     * The CASE over {@code n} rows with result {@code type}: {@code condition.apply(b)} gives the
     * b-th condition's values and {@code result.apply(b)} the b-th result's ({@code b} = the number
     * of conditions for ELSE). Each is asked at most once, a result only if some row picks it; so
     * logical and bound evaluation share this.
     */
    public Col choose(int n, DataType type, IntFunction<Col> condition, IntFunction<Col> result) {
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
        StringBuilder out = new StringBuilder("CASE");
        for (int i = 0; i < conditions.size(); i++) {
            out.append(" WHEN ").append(conditions.get(i)).append(" THEN ").append(results.get(i));
        }
        if (!(otherwise instanceof Literal l && l.value() == null)) {
            out.append(" ELSE ").append(otherwise);
        }
        return out.append(" END").toString();
    }
}
