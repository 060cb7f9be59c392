package io.sluice.operators.function;

import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import io.sluice.kernels.Col;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.function.FunctionLibrary;
import io.sluice.operators.expr.ExprBinder;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.vector.VectorSchemaRoot;

/** Calls built-in functions through the library and evaluates them as operators do, on heap columns. */
final class FunctionTesting {
    private static final Schema NO_COLUMNS = new Schema(List.of());

    private FunctionTesting() {
    }

    /** A constant argument: Long, Integer, Double, String, Boolean, BigDecimal, LocalDate or null; an Expr as is. */
    static Expr lit(Object v) {
        if (v instanceof Expr e) {
            return e;
        }
        if (v == null) {
            return Literal.nullValue();
        }
        if (v instanceof Integer i) {
            return Literal.of((long) i);
        }
        if (v instanceof Long l) {
            return Literal.of(l);
        }
        if (v instanceof Double d) {
            return Literal.of(d);
        }
        if (v instanceof Boolean b) {
            return Literal.of(b);
        }
        if (v instanceof BigDecimal d) {
            return Literal.ofDecimal(d);
        }
        if (v instanceof LocalDate d) {
            return Literal.ofDate(d);
        }
        return Literal.of((String) v);
    }

    static Expr call(String name, Object... args) {
        List<Expr> exprs = new ArrayList<>();
        Arrays.stream(args).forEach(a -> exprs.add(lit(a)));
        return FunctionLibrary.builtIn().call(name, exprs);
    }

    /** The value of a column-free expression, as {@link Col#get} gives it. */
    static Object value(Expr e) {
        return evaluate(e, NO_COLUMNS, new VectorSchemaRoot(List.of(), List.of(), 1)).get(0);
    }

    static Object eval(String name, Object... args) {
        return value(call(name, args));
    }

    /** {@code e} over {@code root} (closed here). */
    static Col evaluate(Expr e, Schema schema, VectorSchemaRoot root) {
        try (Batch batch = new Batch(schema, root)) {
            e.type(schema);
            return ExprBinder.bind(e, schema).evaluate(batch);
        }
    }
}
