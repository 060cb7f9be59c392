package io.sluice.logical.expr;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Schema;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code grouping(a, b, ...)} (also {@code grouping_id}): in a row of a GROUPING SETS, ROLLUP or
 * CUBE aggregation, a BIGINT whose bit for each argument (the first argument the most significant)
 * is 1 when that argument was rolled up (is not in the row's grouping set), as in DuckDB, Spark and
 * PostgreSQL. The front end replaces it by a constant per grouping set, so, like an aggregate call,
 * it is never evaluated.
 */
public record GroupingCall(String function, List<Expr> args) implements Unevaluable {
    public GroupingCall {
        args = List.copyOf(args);
        if (args.isEmpty()) {
            throw new SluiceException(function + "() needs at least one GROUP BY expression");
        }
        if (args.size() > 62) {
            throw new SluiceException(function + "() takes at most 62 arguments, not " + args.size());
        }
    }

    /** The value in a row grouped by {@code set}. */
    public long valueFor(List<Expr> set) {
        long value = 0;
        for (Expr a : args) {
            value = (value << 1) | (set.contains(a) ? 0 : 1);
        }
        return value;
    }

    @Override
    public DataType type(Schema input) {
        for (Expr a : args) {
            a.type(input);
        }
        return DataType.INT64;
    }

    @Override
    public List<Expr> children() {
        return args;
    }

    @Override
    public Expr withChildren(List<Expr> children) {
        return new GroupingCall(function, children);
    }

    @Override
    public RuntimeException notEvaluable() {
        return new IllegalStateException(this + " evaluated outside an aggregation");
    }

    @Override
    public String toString() {
        List<String> parts = new ArrayList<>();
        args.forEach(a -> parts.add(a.toString()));
        return function + "(" + String.join(", ", parts) + ")";
    }
}
